// The accelerator a rank's Kokkos runs on, and how MPI reaches device memory (comm.gpu_aware).
//
//   host back ends                no device; MPI reads and writes the (host) views themselves
//   device, comm.gpu_aware=false  the default: MPI is given host copies of the communication buffers (MPIBuffer
//                                 stages them); Debian's MPICH is not CUDA-aware and crashed on device pointers
//   device, comm.gpu_aware=true   MPI is given the device buffers, for a CUDA-aware (GPU-aware) MPI
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

// How MPI is given the communication buffers: "host memory" (host back ends), "device buffers staged through host
// memory" or "device memory (comm.gpu_aware)".
std::string mpi_buffer_mode(bool gpu_aware);

// True where MPI is handed device memory: a device back end with comm.gpu_aware.
inline bool mpi_reads_device_memory(bool gpu_aware) { return !mem_space_on_host && gpu_aware; }

}  // namespace proxylab
