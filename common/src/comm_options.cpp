// The comm.* keys and the options read from them (see comm/options.hpp), and what the MPI library says of device
// memory (comm/mpi_device_memory.hpp).
#include <mpi.h>

#include "proxylab/comm/options.hpp"
#if defined(OPEN_MPI) && __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include "proxylab/comm/mpi_device_memory.hpp"
#include "proxylab/config.hpp"

namespace proxylab {

void declare_comm_keys(Schema& schema) {
  schema.boolean("comm.gpu_aware", false,
                 "device builds: hand MPI the device buffers of halos and transposes (a GPU-aware MPI); false: stage "
                 "them through host memory (any MPI). No effect on host back ends");
}

CommOptions read_comm_options(const Config& cfg) {
  CommOptions o;
  o.gpu_aware = cfg.boolean("comm.gpu_aware");
  return o;
}

MpiDeviceMemory mpi_device_memory() {
#if defined(MPICH_VERSION) && defined(MPIX_GPU_SUPPORT_CUDA)
  int readable = 0;
  if (MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &readable) != MPI_SUCCESS) return MpiDeviceMemory::unknown;
  return readable ? MpiDeviceMemory::readable : MpiDeviceMemory::not_readable;
#elif defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() ? MpiDeviceMemory::readable : MpiDeviceMemory::not_readable;
#elif defined(MPIX_CUDA_AWARE_SUPPORT)
  return MpiDeviceMemory::not_readable;  // Open MPI built without CUDA support
#else
  return MpiDeviceMemory::unknown;
#endif
}

std::string gpu_aware_refusal(const CommOptions& o, bool device_build, MpiDeviceMemory mpi) {
  if (!o.gpu_aware || !device_build || mpi != MpiDeviceMemory::not_readable) return "";
  return "key 'comm.gpu_aware' has value 'true'; allowed: false with this MPI, which says it cannot read CUDA device "
         "memory (MPIX_GPU_query_support / MPIX_Query_cuda_support): MPI gets host copies with false; or a "
         "CUDA-aware MPI (docs/gpu.md, section 3)";
}

std::string CommOptions::mpi_buffer_mode() const {
  if (mem_space_on_host) return "host memory";
  return gpu_aware ? "device memory (comm.gpu_aware)" : "device buffers staged through host memory";
}

}  // namespace proxylab
