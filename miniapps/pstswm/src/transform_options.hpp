// The choices of a spectral transform run (PSTSWM's FTOPT / LTOPT and seed 000's variants) and what the transform
// counts for the model and the record.
#pragma once
#include "backend.hpp"
#include "legendre_transform.hpp"
#include "proxylab/comm/options.hpp"
#include "proxylab/comm/transpose.hpp"
#include "proxylab/fft.hpp"
#include "proxylab/named_choice.hpp"

namespace proxylab::pstswm {

// The parallel Legendre transform algorithm (parallel_legendre.hpp) and, for `distributed`, how the ranks' partial
// sums are combined.
enum class Algorithm { transpose, distributed };
PROXYLAB_CHOICE_NAMES(Algorithm, "parallel algorithm", "transpose", "distributed");
enum class Combine { allreduce, reduce_scatter, ring };
PROXYLAB_CHOICE_NAMES(Combine, "combine", "allreduce", "reduce_scatter", "ring");

struct TransformOptions {
  int ntrunc = 42, nlat = 64, nlon = 128, levels = 1;
  LTVariant lt = LTVariant::gemm;
  bool fixed_levels = false;
  // FFT and fold per (latitude pair, field) in cache (host back ends); false: two passes over all rows, one batched
  // FFT of every row and then the fold (the only way on a device: its FFT library is called from the host)
  bool fuse_fold = backend::latitude_pair_ffts;
  // The latitude loop: the time step's grid-point phase per latitude pair between its inverse and forward FFTs,
  // its grid never leaving the cache (SphericalTransform::through_grid; needs fuse_fold); false: the inverse
  // transform of every latitude, the grid-point phase over the whole grid, then the forward transform
  bool fuse_grid_point = backend::latitude_pair_ffts;
  FFTPlanning fft_planning = FFTPlanning::estimate;  // FFTW_ESTIMATE (bitwise reproducible runs) or FFTW_MEASURE
  Algorithm algorithm = Algorithm::transpose;
  Combine combine = Combine::allreduce;
  TransposeStrategy strategy = TransposeStrategy::alltoallv;
  CommOptions comm;  // what MPI is given for the messages and the spectral state (the run's comm.* keys)
};

struct TransformStats {
  double fft_flops = 0, lt_flops = 0, lt_bytes = 0;  // this rank
  long long comm_bytes = 0, comm_calls = 0;
  double copy_bytes = 0;           // the transposes' packing and unpacking of the other ranks' blocks (read + write)
  long long field_transforms = 0;  // 2-D transforms of one field at one level (all ranks together), either way
};

}  // namespace proxylab::pstswm
