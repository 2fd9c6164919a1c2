// The comm.* keys and the options read from them (see comm/options.hpp).
#include "proxylab/comm/options.hpp"
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

std::string CommOptions::mpi_buffer_mode() const {
  if (mem_space_on_host) return "host memory";
  return gpu_aware ? "device memory (comm.gpu_aware)" : "device buffers staged through host memory";
}

}  // namespace proxylab
