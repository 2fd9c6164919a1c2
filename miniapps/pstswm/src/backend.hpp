// What pstswm does differently on the build's default execution space: the one place it asks whether that space is
// the host (kokkos-fft and ectrans keep a back end per file for the same reason). The sources and tests branch on
// these names, which say what differs, never on the space itself.
#pragma once
#include "proxylab/layout.hpp"

namespace proxylab::pstswm::backend {

// The fused FFT and fold (transform.fuse_fold) and the latitude loop (transform.fuse_grid_point) call the FFT
// library per latitude pair from a parallel loop: host libraries only. A device's FFT library is called from the
// host, once per batch, so a device runs the two-pass transform.
constexpr bool latitude_pair_ffts = mem_space_on_host;
// The recurrence Legendre transform (transform.lt=recurrence) recomputes the functions in host code.
constexpr bool legendre_recurrence = mem_space_on_host;
// The gemm Legendre transform runs on the host BLAS (its build is named in a warning when it is a slow one); on a
// device it is cuBLAS.
constexpr bool host_blas = mem_space_on_host;
// The loop Legendre transform's row kernels (a thread per row, 2 L nfields accumulators) are host code; a device
// runs its register tiles (16 accumulators at any level count), and a host can run both (the tests compare them).
constexpr bool loop_lt_rows = mem_space_on_host;
// The transposes' contiguous runs are copied with memcpy by the host; a device runs a kernel over them.
constexpr bool memcpy_runs = mem_space_on_host;
// The fields live in host-readable memory: the host-only reference kernels of the tests read them directly.
constexpr bool fields_on_host = mem_space_on_host;

}  // namespace proxylab::pstswm::backend
