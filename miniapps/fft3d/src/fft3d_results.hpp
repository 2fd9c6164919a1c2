// fft3d's run summary, each value once (proxylab/run_results.hpp): the set-up (grid, decomposition, strategy)
// and the results of mode fft (timed transforms) or mode ft (NAS FT); the text lines and the record's keys are
// rendered from these structs. Values are the same on every rank (the driver reduces them first).
#pragma once
#include <complex>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "decomposition.hpp"

namespace proxylab::fft3d {

struct SetupSummary {
  Decomposition decomposition;
  std::string transpose, planning;  // choice names
  int threads = 1;                  // per rank
  bool fused = true;                // fft3d.fuse_transpose as it runs (host back ends only)
  std::string mpi_buffers;          // CommOptions::mpi_buffer_mode()
  std::string local_plan;           // fft3d.local as it runs (never auto)
  std::vector<std::pair<std::string, double>> local_plan_times;  // auto with measure or patient: s per pair tried

  std::string to_text() const;
  nlohmann::json to_json() const;
};

struct TransformResults {  // mode fft
  int iterations_done = 0;
  double forward_seconds_median = 0, inverse_seconds_median = 0, gflops_forward = 0, gflops_inverse = 0;
  struct Stages {  // seconds per transform, slowest rank
    double local_fft = 0, pack = 0, transpose = 0, unpack = 0;
  } per_transform;
  double local_fft_gflops = 0;
  double transpose_bytes_all_ranks = 0, transpose_gbs = 0;
  double pack_unpack_bytes_per_transform = 0, pack_unpack_gbs = 0, copy_gbs_same_bytes = 0;
  enum class SerialBaseline { off, measured, not_on_many_ranks } serial_baseline = SerialBaseline::off;
  std::string library_3d;  // the FFT library's 3-D plan (fft3d.serial_baseline, 1 rank)
  double library_3d_seconds = 0;
  double flops = 0;  // per transform
  nlohmann::json model_counts;

  std::string to_text() const;
  nlohmann::json to_json() const;
};

struct NasFTResults {                           // mode ft
  std::vector<std::complex<double>> checksums;  // one per iteration done
  std::string nas_class;                        // empty: no published checksums for this size
  int iterations = 0;                           // asked for
  bool checksums_verified = false;
  double checksum_max_rel_error = 0;
  int nx = 0, ny = 0, nz = 0;
  double ft_seconds = 0, npb_mops_total = 0, gflops = 0;

  std::string to_text() const;
  nlohmann::json to_json() const;
};

}  // namespace proxylab::fft3d
