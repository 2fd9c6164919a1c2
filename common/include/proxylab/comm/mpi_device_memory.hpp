// Whether the MPI library can read CUDA device memory, as it says itself, and the refusal of comm.gpu_aware=true
// where it says no (the life cycle checks it before the run, app.cpp).
#pragma once
#include <string>

#include "proxylab/comm/options.hpp"

namespace proxylab {

// MPICH's MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA), Open MPI's MPIX_Query_cuda_support (mpi-ext.h); unknown
// where the library has no such query. Call after MPI_Init.
enum class MpiDeviceMemory { readable, not_readable, unknown };
MpiDeviceMemory mpi_device_memory();

// "" or why the run cannot hand MPI device memory: comm.gpu_aware=true on a device build whose MPI says it cannot
// read it (its first message would crash inside MPI). Unknown is allowed: the user's word stands.
std::string gpu_aware_refusal(const CommOptions& o, bool device_build, MpiDeviceMemory mpi);

}  // namespace proxylab
