// PSTSWM's run summary, each value once (proxylab/run_results.hpp): the set-up (truncation, grid, case, time
// step, transform variants) and the run's results (per-step times, rates, errors, conservation); the text lines
// and the record's keys are rendered from these structs. Values are the same on every rank (reduced first).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "memory_estimate.hpp"
#include "shallow_water.hpp"
#include "transform_options.hpp"

namespace proxylab::pstswm {

struct SetupSummary {
  TransformOptions transform;
  ModelOptions model;
  long long steps = 0;  // planned
  int ranks = 1;
  LegendreMemory legendre;  // the most of any rank

  std::string to_text() const;
  nlohmann::json to_json() const;
};

struct RunResults {
  int test_case = 2;
  long long steps = 0;              // done
  double l1 = 0, l2 = 0, linf = 0;  // normalized height errors (case 2: vs the exact solution)
  double mass_rel_change = 0, energy_rel_change = 0;
  bool drift_measured = false;                       // case 6
  double drift_speed = 0, drift_speed_analytic = 0;  // rad/s
  double field_transforms_per_step = 0, seconds_per_field_transform = 0;
  struct PerStep {  // seconds, slowest rank
    double fft_fold = 0, legendre = 0, grid_point = 0, communication = 0, total = 0;
  } per_step;
  double fft_gflops = 0, legendre_gflops = 0, dgemm_gflops = 0, fft_alone_gflops = 0;  // per rank; 0: not measured
  struct Flops {
    double fft = 0, legendre = 0, grid_point = 0;
  } flops_per_step;
  double legendre_bytes_per_step = 0;  // compulsory traffic of the LT (arithmetic intensity)
  double communication_bytes_per_step = 0;
  nlohmann::json model_counts;

  std::string to_text() const;
  nlohmann::json to_json() const;
};

}  // namespace proxylab::pstswm
