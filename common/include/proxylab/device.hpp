// The accelerator a rank's Kokkos runs on (how MPI reaches its memory: comm/options.hpp).
#pragma once
#include <string>

#include "proxylab/layout.hpp"

namespace proxylab {

struct DeviceInfo {
  bool present = false;     // the default execution space runs on a device
  std::string name;         // "NVIDIA H100 80GB HBM3"; the back end's name where the library gives none
  double total_bytes = 0;   // device memory (0: unknown)
  double free_bytes = 0;    // free now (0: unknown)
  int devices_on_node = 0;  // devices this process sees
};

// The device of this process's Kokkos (CUDA: the runtime's properties and cudaMemGetInfo; HIP and SYCL: the back
// end's name only, memory unknown).
DeviceInfo device_info();

}  // namespace proxylab
