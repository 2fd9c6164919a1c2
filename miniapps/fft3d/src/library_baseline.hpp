// The FFT library's own 3-D transform over the whole grid at one rank (fft3d.serial_baseline): the ceiling the
// proxy's transform is compared with, measured in the same binary on the same data. Host back ends: one FFTW 3-D
// plan; a device: one kokkos-fft 3-D plan (cuFFT's 3-D FFT on CUDA).
#pragma once
#include <string>

#include "decomposition.hpp"
#include "field.hpp"
#include "proxylab/fft.hpp"

namespace proxylab::fft3d {

struct LibraryBaseline {
  std::string library;  // "FFTW 3-D plan (FFTW_ESTIMATE)", "kokkos-fft 3-D plan (Cuda)"
  double seconds = 0;   // per forward transform, median of the repeats
};

// u: the X-stage field of a 1-rank run (the whole grid, x fastest). Plans outside the timing with the run's FFTW
// planning (a device library has one planning mode).
LibraryBaseline library_3d_fft(const Decomposition& d, const Field& u, int repeats, FFTPlanning planning);

}  // namespace proxylab::fft3d
