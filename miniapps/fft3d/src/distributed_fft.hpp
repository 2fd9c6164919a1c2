// The distributed complex 3-D FFT (CASTEP's "3 sets of 1-D FFTs with transposes between"):
//   forward: FFT x (X stage) -> [slab: FFT y strided | pencil: X->Y transpose, FFT y]
//            -> Y->Z transpose -> FFT z; result in the Z stage.
//   inverse: the same steps backwards, result in the X stage.
// With fuse_transpose (the default, host) the unpack after a transpose and the pack before one are no separate
// passes: the FFT next to the transpose reads or writes the transposed blocks itself (fused_transpose_fft.hpp), and
// only the blocks for other ranks are packed (forward) or unpacked (inverse); a transpose among one rank then costs no
// pass at all beyond the FFT's own, as in a serial 3-D FFT.
// Unfused (fuse_transpose false; always on a device, the default execution space a GPU's, where a library writes
// whole lines) the FFTs before a transpose among several ranks write its send buffer themselves, laid out so that
// each peer's block is one contiguous range of it (Reshape's sending in place: their strides do the local transpose,
// as heFFTe's strided 1-D FFTs): no pack pass; the copies left (own block and unpack) run along the blocks' contiguous
// axis on both sides (a slab's planes on the host: FFTW writes the blocks in the receiver's order, so these copies move
// contiguous runs), and forward a transpose within one rank is no copy (the FFT before it writes the next stage). On a
// device slabs take the pencil path with p_row = 1 instead of the strided y FFT, and one rank's whole grid runs as
// three strided 1-D stages (strided_stages.hpp). Nothing fences except a timer's scope (a device queues the work) and
// the MPI exchanges. How the local work is planned (fft3d.local), FFTW-MPI's and heFFTe's way:
//   staged  three sets of batched 1-D FFTs (with the fused transposes): every decomposition
//   planes  slabs, and pencil grids of one row (whose X and Z stages are a slab's): one FFTW 2-D plan over each
//           rank's (y, x) planes, then the one transpose and the z FFTs
//   whole   one rank: the 2-D plan of the planes straight from the X-stage layout into the Z-stage layout, then the
//           z FFTs in place there (and back the same way; in place one FFTW 3-D plan), FFTW-MPI's plan at one rank; on
//           a device three strided 1-D stages between the same layouts
// auto: with planning=measure or patient the candidates are timed here and the fastest kept (the record names the
// choice and the times), with estimate planes where it can run, else on a device whole at one rank, else staged. The
// layouts of the input and the result are the same whichever runs; in place (any rank count) planes and staged pass
// through the work arrays. Unnormalised in both directions (forward then inverse multiplies by N = nx ny nz), FFTW's
// signs.
#pragma once
#include <mpi.h>

#include <algorithm>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

#include "backend.hpp"
#include "decomposition.hpp"
#include "field.hpp"
#include "proxylab/comm/grid.hpp"
#include "proxylab/comm/options.hpp"
#include "proxylab/fft.hpp"
#include "proxylab/model_counts.hpp"
#include "reshape.hpp"

namespace proxylab::fft3d {

enum class LocalPlan { automatic, staged, planes, whole };
PROXYLAB_CHOICE_NAMES(LocalPlan, "local FFT plan", "auto", "staged", "planes", "whole");

struct FFTOptions {
  TransposeStrategy strategy = TransposeStrategy::alltoallv;
  LocalPlan local = LocalPlan::automatic;
  FFTPlanning planning = FFTPlanning::estimate;
  Mapping mapping = Mapping::mdrange;  // of the pack/unpack kernels
  int ranks_per_node = 0;              // node_aware: emulated node size (0: the real shared-memory nodes)
  bool fuse_transpose = true;          // FFTs read/write the transposes' blocks directly (fused_transpose_fft.hpp)
  CommOptions comm;                    // what MPI is given for the transposes' buffers (the run's comm.* keys)
  bool in_place = false;               // fft3d.in_place: forward and inverse overwrite their input

  // What runs: fused only on host back ends (a device library writes whole lines, so an FFT cannot scatter its lines
  // into several ranks' blocks), and the pencil path for slabs on a device.
  bool fused() const { return fuse_transpose && backend::host_fft_plans; }
  static bool pencil_path(DecompKind kind) { return kind == DecompKind::pencil || !backend::host_fft_plans; }
  // On the host the X stage holds whole (y, x) planes for slabs and for pencil grids of one row: FFTW 2-D plans over
  // them and one transpose X -> Z can run (LocalPlan::planes).
  static bool whole_planes(const Decomposition& d) { return backend::host_fft_plans && d.p_row == 1; }
};

class DistributedFFT {
 public:
  // Collective over comm (builds the process grid, sub-communicators, transposes and FFT plans). InputError where
  // comm.gpu_aware asks for device buffers from a strategy that copies blocks on the host.
  DistributedFFT(const Decomposition& d, MPI_Comm comm, const FFTOptions& opt);

  const Decomposition& decomposition() const { return d_; }
  const Pencil& x_stage() const { return x_; }  // this rank's input piece (forward), output (inverse)
  const Pencil& z_stage() const { return z_; }  // this rank's spectral piece
  // The values an array transformed in place holds on this rank: either stage (FFTW-MPI's local size).
  long long in_place_size() const { return std::max(x_.size(), z_.size()); }
  LocalPlan local_plan() const { return local_; }  // what runs (never automatic)
  // planning=measure or patient with fft3d.local=auto: seconds of one forward + inverse per candidate tried (slowest
  // rank).
  const std::vector<std::pair<LocalPlan, double>>& local_plan_times() const { return local_times_; }
  int row() const { return grid_->cx(); }          // r in 0..p_row-1
  int col() const { return grid_->cy(); }          // c in 0..p_col-1
  MPI_Comm comm() const { return grid_->comm(); }  // ranks ordered c * p_row + r

  // in (X stage) is preserved; out (Z stage); in place (in == out, any rank count: fft3d.in_place) the array holds
  // in_place_size() values and is overwritten. Timers (optional): local_fft, pack, transpose, unpack.
  void forward(const Field& in, const Field& out, Timers* timers = nullptr);
  // in (Z stage) is preserved; out (X stage); as forward with fft3d.in_place.
  void inverse(const Field& in, const Field& out, Timers* timers = nullptr);

  long long transpose_bytes_sent() const;  // this rank, all transposes so far
  long long copied_bytes() const;          // this rank, all pack and unpack kernels so far (each byte read + written)
  double flops() const;                    // 5 N log2 N per transform
  // The transposes of one transform (forward or inverse: each reshape runs once per pair) with their packing,
  // for the model.
  std::vector<CommCount> transpose_counts() const;

 private:
  void fft_along(int axis, bool forward, const Pencil& from, const Field& in, const Pencil& to, const Field& out,
                 Timers* timers);
  // A multi-dimensional FFT over the axes `axes` (all whole in both layouts), from `in` laid out as `from` into
  // `out` laid out as `to` (planes: x and y in the X stage; whole: x, y and z from the X into the Z stage).
  void whole(bool forward, const Field& in, const Field& out, Timers* timers);
  void fft_axes(std::initializer_list<int> axes, bool forward, const Pencil& from, const Field& in, const Pencil& to,
                const Field& out, Timers* timers);
  std::vector<LocalPlan> local_candidates() const;
  std::vector<std::pair<const Reshape*, int>> used_reshapes() const;
  void choose_local_plan();
  const Field& stage_before(const Reshape& r, const Field& otherwise) const;
  void reshape_then_fft(const Reshape& r, int axis, bool forward, const Field& src, const Field& mid, const Pencil& to,
                        const Field& dst, Timers* timers);
  void fft_then_reshape(const Reshape& r, int axis, bool forward, const Pencil& from, const Field& src,
                        const Field& scratch, const Field& dst, Timers* timers);
  Decomposition d_;
  FFTOptions opt_;
  LocalPlan local_ = LocalPlan::staged;
  std::vector<std::pair<LocalPlan, double>> local_times_;
  std::unique_ptr<ProcessGrid> grid_;
  Pencil x_, y_, z_;
  std::unique_ptr<Reshape> x_to_y_, y_to_z_, z_to_y_, y_to_x_;  // pencil
  std::unique_ptr<Reshape> x_to_z_, z_to_x_;                    // whole_planes: slab, pencil of one row
  Field work_, work2_;                                          // work2_: the pencil path only (Y stage)
  TransposeBuffer send_, recv_;
};

}  // namespace proxylab::fft3d
