// The GPU runtime's pending error around a GPU library call (cuFFT, cuBLAS, hipFFT): an error that a kernel or a
// library call leaves pending is reported by whichever runtime call comes next, often the next Kokkos launch, which
// then names the wrong culprit. The back ends that call a library directly check the runtime before each call and
// after it, so the first failing call is the one named.
#pragma once
#include <Kokkos_Macros.hpp>
#include <string>

#include "proxylab/errors.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime_api.h>
#elif defined(KOKKOS_ENABLE_HIP)
#include <hip/hip_runtime_api.h>
#endif

namespace proxylab::detail {

// RuntimeError naming `when` ("before cufftExecZ2Z", "after cufftExecZ2Z") if the runtime holds an error (taken
// off the runtime, so that it is reported once, here).
inline void require_no_pending_gpu_error(const std::string& when) {
#if defined(KOKKOS_ENABLE_CUDA)
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess)
    throw RuntimeError(std::string("CUDA error ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ") " + when);
#elif defined(KOKKOS_ENABLE_HIP)
  const hipError_t e = hipGetLastError();
  if (e != hipSuccess)
    throw RuntimeError(std::string("HIP error ") + hipGetErrorName(e) + " (" + hipGetErrorString(e) + ") " + when);
#else
  (void)when;
#endif
}

// A library call checked on both sides: call() returns whether the library reported success and, if not, its
// status in words.
template <class Call>
void checked_gpu_library_call(const char* name, const Call& call) {
  require_no_pending_gpu_error(std::string("pending before ") + name);
  std::string status;
  if (!call(status)) throw RuntimeError(std::string(name) + " failed (" + status + ")");
  require_no_pending_gpu_error(std::string("after ") + name);
}

}  // namespace proxylab::detail
