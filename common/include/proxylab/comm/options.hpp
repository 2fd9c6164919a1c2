// The communication options of every proxy's deck (the comm.* keys the life cycle declares for all of them): read
// once from the deck into RunContext::comm_options and passed by value to what hands memory to MPI (halo exchanges,
// MPIBuffer and MPIStage, the transposes' strategy check), as heFFTe's plan_options is built once and handed to a
// plan. An app's own communication choices (strategies, widths) stay in its deck and its RunOptions.
//
// What MPI is given for a default-space View:
//   host back ends                the View's own memory
//   device, comm.gpu_aware=false  the default: host copies of the communication buffers (MPIBuffer stages them); an
//                                 MPI without GPU support, such as Debian's MPICH, cannot read device pointers
//   device, comm.gpu_aware=true   the device memory itself, for a CUDA-aware (GPU-aware) MPI
#pragma once
#include <string>

#include "proxylab/layout.hpp"

namespace proxylab {

class Config;
class Schema;

struct CommOptions {
  bool gpu_aware = false;  // comm.gpu_aware: MPI is handed device memory (device back ends)

  // A device back end with gpu_aware: MPI reads and writes device memory.
  bool mpi_reads_device_memory() const { return !mem_space_on_host && gpu_aware; }
  // A device back end without gpu_aware: MPI gets host copies of the device buffers.
  bool staged_through_host() const { return !mem_space_on_host && !gpu_aware; }
  // The header's "MPI buffers" and the record's provenance.device.mpi_buffers: "host memory", "device buffers staged
  // through host memory" or "device memory (comm.gpu_aware)".
  std::string mpi_buffer_mode() const;
};

// The comm.* keys (declare_common_keys, app.hpp, adds them to every proxy's Schema), and the options read from them.
void declare_comm_keys(Schema& schema);
CommOptions read_comm_options(const Config& cfg);

}  // namespace proxylab
