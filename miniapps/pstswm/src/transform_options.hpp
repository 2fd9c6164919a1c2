// The choices of a spectral transform run (PSTSWM's FTOPT / LTOPT and the seed's variants) and what the transform
// counts for the model and the record.
#pragma once
#include "legendre_transform.hpp"
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

// The most fields one transform call carries (the shallow water step's U, V, Phi and tendencies).
constexpr int max_transform_fields = 5;

struct TransformOptions {
  int ntrunc = 42, nlat = 64, nlon = 128, levels = 1;
  LTVariant lt = LTVariant::gemm;
  bool fixed_levels = false;
  bool fuse_fold = true;  // FFT and fold per (latitude pair, field) in cache; false: two passes over all rows
  FFTPlanning fft_planning = FFTPlanning::estimate;  // FFTW_ESTIMATE (bitwise reproducible runs) or FFTW_MEASURE
  Algorithm algorithm = Algorithm::transpose;
  Combine combine = Combine::allreduce;
  TransposeStrategy strategy = TransposeStrategy::alltoallv;
};

struct TransformStats {
  double fft_flops = 0, lt_flops = 0, lt_bytes = 0;  // this rank
  long long comm_bytes = 0, comm_calls = 0;
  double copy_bytes = 0;           // the transposes' packing and unpacking of the other ranks' blocks (read + write)
  long long field_transforms = 0;  // 2-D transforms of one field at one level (all ranks together), either way
};

}  // namespace proxylab::pstswm
