// The FFT library's own 3-D transform of a rank's X-stage data: over the whole grid at one rank
// (fft3d.serial_baseline), and at any rank count the ceiling of the local FFT stage (perf.limits): measured in the
// same binary on the same data. Host back ends: one FFTW 3-D plan; a device: one kokkos-fft 3-D plan (cuFFT's 3-D
// FFT on CUDA).
#pragma once
#include <string>

#include "decomposition.hpp"
#include "field.hpp"
#include "proxylab/fft.hpp"

namespace proxylab::fft3d {

struct LibraryBaseline {
  std::string library;  // "FFTW 3-D plan (FFTW_ESTIMATE)", "kokkos-fft 3-D plan (Cuda)"
  double seconds = 0;   // per forward transform, median of the repeats
  double flops = 0;     // 5 n log2 n of the n points transformed
};

// u: the rank's X-stage field (at 1 rank the whole grid), laid out as `x_stage` says. Plans outside the timing with
// the run's FFTW planning (a device library has one planning mode).
LibraryBaseline library_3d_fft(const Pencil& x_stage, const Field& u, int repeats, FFTPlanning planning);

}  // namespace proxylab::fft3d
