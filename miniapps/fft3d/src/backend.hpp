// What fft3d does differently on the build's default execution space: the one place it asks whether that space is the
// host (kokkos-fft keeps a back end per file for the same reason). The sources and tests branch on these names, which
// say what differs, never on the space itself.
#pragma once
#include "proxylab/layout.hpp"

namespace proxylab::fft3d::backend {

// FFTW's plans can run per plane and per chunk from host loops: the fused transposes (fft3d.fuse_transpose), the 2-D
// plane plans (fft3d.local=planes) and the staged local plan by default. A device's FFT library is called from the
// host once per batch of lines: a device runs the unfused path, slabs as pencils, and the whole grid's three strided
// stages (fft3d.local=whole) by default.
constexpr bool host_fft_plans = mem_space_on_host;
// Kernels return before they finish: a stage timer fences to time them. Host kernels have finished on return.
constexpr bool asynchronous_kernels = !mem_space_on_host;
// The transposes' block copies run as host loops over rows where blocks are contiguous on both sides; a device runs
// one kernel a copy, a thread per element.
constexpr bool host_row_copies = mem_space_on_host;

}  // namespace proxylab::fft3d::backend
