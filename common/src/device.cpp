// The accelerator a rank runs on (see device.hpp).
#include "proxylab/device.hpp"

#include <Kokkos_Core.hpp>
#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace proxylab {

DeviceInfo device_info() {
  DeviceInfo d;
  if constexpr (mem_space_on_host) return d;
  d.present = true;
  d.name = ExecSpace::name();
#if defined(KOKKOS_ENABLE_CUDA)
  int dev = 0, count = 0;
  cudaDeviceProp prop{};
  size_t free_bytes = 0, total_bytes = 0;
  if (cudaGetDevice(&dev) == cudaSuccess && cudaGetDeviceProperties(&prop, dev) == cudaSuccess) d.name = prop.name;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
    d.free_bytes = double(free_bytes);
    d.total_bytes = double(total_bytes);
  }
  if (cudaGetDeviceCount(&count) == cudaSuccess) d.devices_on_node = count;
#endif
  return d;
}

}  // namespace proxylab
