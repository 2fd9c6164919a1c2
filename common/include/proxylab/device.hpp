// The accelerator a rank's Kokkos runs on (how MPI reaches its memory: comm/options.hpp), and which one of a node's
// devices each rank takes.
#pragma once
#include <mpi.h>

#include <nlohmann/json.hpp>
#include <string>

#include "proxylab/launch_check.hpp"  // EnvironmentLookup
#include "proxylab/layout.hpp"

namespace proxylab {

struct DeviceInfo {
  bool present = false;     // the default execution space runs on a device
  std::string name;         // "NVIDIA H100 80GB HBM3"; the back end's name where the library gives none
  double total_bytes = 0;   // device memory (0: unknown)
  double free_bytes = 0;    // free now (0: unknown)
  int devices_on_node = 0;  // devices this process sees
  int runtime_id = -1;      // the runtime's current device (cudaGetDevice; -1: unknown)
  std::string pci_bus_id;   // its PCI address, "0000:3b:00.0" (CUDA; "": unknown): one name on the whole node
};

// The device of this process's Kokkos (CUDA: the runtime's properties and cudaMemGetInfo; HIP and SYCL: the back
// end's name only, memory unknown).
DeviceInfo device_info();

// Which device a rank takes. Kokkos 4.6's rule (Kokkos_Core.cpp get_gpu, Kokkos_CPUDiscovery.cpp
// mpi_local_rank_on_node): --kokkos-device-id / KOKKOS_DEVICE_ID when given, random when asked
// (--kokkos-map-device-id-by / KOKKOS_MAP_DEVICE_ID_BY=random), else the node-local rank modulo the devices it may
// use (KOKKOS_VISIBLE_DEVICES' list, else every device the runtime sees, which CUDA_VISIBLE_DEVICES,
// ROCR_VISIBLE_DEVICES or HIP_VISIBLE_DEVICES restrict). proxylab decides it the same way, hands Kokkos the result
// (--kokkos-device-id), and reports it, so what the header says is what Kokkos does. The node-local rank comes from
// the first of these launcher variables that holds a count (an outer launcher's variable is passed on to what an
// inner one starts, so the inner launchers' come first):
//   OMPI_COMM_WORLD_LOCAL_RANK (Open MPI), MV2_COMM_WORLD_LOCAL_RANK (MVAPICH2), MPI_LOCALRANKID (MPICH's and Intel
//   MPI's Hydra), PALS_LOCAL_RANKID (HPE Cray PALS), FLUX_TASK_LOCAL_ID (flux run), SLURM_LOCALID (srun),
//   PMI_LOCAL_RANK (PMI)
// and, where none is set (a PMIx launch passes no local rank in the environment), from MPI's node communicator
// (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED). More ranks on a node than devices is allowed: the ranks share them
// round robin, as Kokkos does, and the header notes each shared device.
struct RankDevice {
  int local_rank = 0;           // the rank's index on its node
  std::string local_rank_from;  // "MPI_LOCALRANKID=1", or "MPI_COMM_TYPE_SHARED"
  int visible = -1;             // devices the rank may take (-1: a host build)
  std::string visible_from;     // "KOKKOS_VISIBLE_DEVICES=1,3", "CUDA_VISIBLE_DEVICES=2,3", "" (every device)
  int index = -1;               // the one it takes, among `visible` (-1: none, or Kokkos' random choice)
  int runtime_id = -1;          // the runtime's id of it (KOKKOS_VISIBLE_DEVICES' entry, else `index`)
  std::string physical;         // CUDA/ROCR/HIP_VISIBLE_DEVICES' entry for runtime_id ("3", a UUID); "" if unset
  std::string chosen_by;        // "local rank % visible devices", "--kokkos-device-id=1", "random (...)", ""
  bool pass_to_kokkos = false;  // index is proxylab's choice: handed to Kokkos as --kokkos-device-id
};

// The rule above for a process whose runtime sees `runtime_devices` devices (-1: a host build, no device), whose
// MPI node-local rank is `node_rank`, with flags `argv` and environment `getenv`. InputError (the variable or flag,
// its value and what is allowed) for what Kokkos would abort on: a device build that sees no device, a device id
// beyond the visible ones, a KOKKOS_VISIBLE_DEVICES entry that is no device of the runtime's.
RankDevice choose_rank_device(int argc, char** argv, const EnvironmentLookup& getenv, int node_rank,
                              int runtime_devices);

// The devices the runtime sees (cudaGetDeviceCount after CUDA_VISIBLE_DEVICES), -1 on a host build.
int runtime_device_count();

// Collective on `comm`, before Kokkos::initialize: this rank's choose_rank_device with its node-local rank from MPI
// and the process's environment; InputError on every rank when any rank's choice is refused.
RankDevice rank_device(MPI_Comm comm, int argc, char** argv);

// One rank's choice for the record: {"local_rank", "local_rank_from", "visible", "visible_from", "index",
// "runtime_id", "physical", "chosen_by"} (index and runtime_id null when none).
nlohmann::json rank_device_json(const RankDevice& d);

// Collective, after Kokkos::initialize; on rank 0 every rank's rank_device_json with its "rank", "host" and
// "pci_bus_id" (device_info's; others: an empty array).
nlohmann::json gather_rank_devices(MPI_Comm comm, const RankDevice& mine);

// The header's line for gather_rank_devices' result: "rank 0: local rank 0 (MPI_LOCALRANKID=0) -> device 0 of 2
// (...)" for the first `max_ranks` ranks, or "no device" on a host build, then one note per device that several
// ranks of a host share: the same PCI address, or where none is known the same runtime id (a runtime id alone
// does not say: with one GPU per task every rank's is 0).
std::string rank_devices_summary(const nlohmann::json& ranks, int max_ranks = 8);

}  // namespace proxylab
