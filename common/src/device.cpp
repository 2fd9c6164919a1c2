// The accelerator a rank runs on, and which of its node's devices it takes (see device.hpp).
#include "proxylab/device.hpp"

#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <climits>
#include <cstdlib>
#include <map>
#include <vector>
#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

#include "proxylab/comm/gather.hpp"
#include "proxylab/errors.hpp"

namespace proxylab {
namespace {

// A device index or local rank: digits only, 0 to INT_MAX; -1 when `text` is not one.
int index_of(const std::string& text) {
  if (text.empty() || text.size() > 10 || text.find_first_not_of("0123456789") != std::string::npos) return -1;
  const long long n = std::stoll(text);
  return n <= INT_MAX ? int(n) : -1;
}

std::vector<std::string> comma_list(const std::string& text) {
  std::vector<std::string> items;
  for (std::size_t begin = 0; begin <= text.size();) {
    const std::size_t end = std::min(text.find(',', begin), text.size());
    items.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return items;
}

// A Kokkos setting as Kokkos reads it: the last --kokkos-<name>=V in argv wins over the variable KOKKOS_<NAME>.
// `from` says where it came from ("--kokkos-device-id=1", "KOKKOS_DEVICE_ID=1"); empty when unset.
struct Setting {
  std::string from, value;
};
Setting kokkos_setting(int argc, char** argv, const EnvironmentLookup& getenv, const std::string& flag,
                       const char* variable) {
  Setting s;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind(flag + "=", 0) == 0) s = {arg, arg.substr(flag.size() + 1)};
  }
  if (s.from.empty())
    if (const char* v = getenv(variable)) s = {std::string(variable) + "=" + v, v};
  return s;
}

// The node-local rank's launcher variables, inner launchers first (see device.hpp).
constexpr const char* local_rank_variables[] = {"OMPI_COMM_WORLD_LOCAL_RANK",
                                                "MV2_COMM_WORLD_LOCAL_RANK",
                                                "MPI_LOCALRANKID",
                                                "PALS_LOCAL_RANKID",
                                                "FLUX_TASK_LOCAL_ID",
                                                "SLURM_LOCALID",
                                                "PMI_LOCAL_RANK"};
// The runtimes' own restriction of the devices a process sees (the first that is set names the physical device).
constexpr const char* runtime_visibility_variables[] = {"CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES",
                                                        "HIP_VISIBLE_DEVICES"};

}  // namespace

DeviceInfo device_info() {
  DeviceInfo d;
  if constexpr (mem_space_on_host) return d;
  d.present = true;
  d.name = ExecSpace::name();
#if defined(KOKKOS_ENABLE_CUDA)
  int dev = 0, count = 0;
  cudaDeviceProp prop{};
  size_t free_bytes = 0, total_bytes = 0;
  char bus[32] = {0};
  if (cudaGetDevice(&dev) == cudaSuccess) {
    d.runtime_id = dev;
    if (cudaGetDeviceProperties(&prop, dev) == cudaSuccess) d.name = prop.name;
    if (cudaDeviceGetPCIBusId(bus, int(sizeof bus), dev) == cudaSuccess) d.pci_bus_id = bus;
  }
  if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
    d.free_bytes = double(free_bytes);
    d.total_bytes = double(total_bytes);
  }
  if (cudaGetDeviceCount(&count) == cudaSuccess) d.devices_on_node = count;
#endif
  return d;
}

int runtime_device_count() {
  if constexpr (mem_space_on_host) return -1;
  int count = 0;
#if defined(KOKKOS_ENABLE_CUDA)
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
#elif defined(KOKKOS_ENABLE_HIP)
  if (hipGetDeviceCount(&count) != hipSuccess) count = 0;
#endif
  return count;
}

RankDevice choose_rank_device(int argc, char** argv, const EnvironmentLookup& getenv, int node_rank,
                              int runtime_devices) {
  RankDevice d;
  d.local_rank = node_rank;
  d.local_rank_from = "MPI_COMM_TYPE_SHARED";
  for (const char* variable : local_rank_variables) {
    const char* value = getenv(variable);
    if (!value || index_of(value) < 0) continue;  // a launcher's value that is no rank: not ours to judge
    d.local_rank = index_of(value);
    d.local_rank_from = std::string(variable) + "=" + value;
    break;
  }
  if (runtime_devices < 0) return d;  // a host build

  std::string runtime_visibility;  // "CUDA_VISIBLE_DEVICES=2,3", the first of the runtimes' variables set
  std::vector<std::string> physical_ids;
  for (const char* variable : runtime_visibility_variables)
    if (const char* value = getenv(variable)) {
      runtime_visibility = std::string(variable) + "=" + value;
      physical_ids = comma_list(value);
      break;
    }
  if (runtime_devices == 0)
    throw InputError("this build runs on a GPU, but the process sees none (" +
                     (runtime_visibility.empty() ? std::string("no device on the node") : escaped(runtime_visibility)) +
                     "); allowed: a node with a GPU and a launch that gives each rank one (srun --gpus-per-task, "
                     "flux run -g, ./proxylab run --gpus-per-task; docs/gpu.md)");

  // The devices Kokkos chooses among: KOKKOS_VISIBLE_DEVICES' runtime ids, else all of the runtime's.
  std::vector<int> runtime_ids;
  d.visible_from = runtime_visibility;
  if (const char* value = getenv("KOKKOS_VISIBLE_DEVICES")) {
    d.visible_from = std::string("KOKKOS_VISIBLE_DEVICES=") + value;
    for (const std::string& item : comma_list(value)) {
      const int id = index_of(item);
      if (id < 0 || id >= runtime_devices)
        throw InputError("environment KOKKOS_VISIBLE_DEVICES=" + excerpt(value) + ": " + excerpt(item) +
                         " is not a device; allowed: comma-separated device ids from 0 to " +
                         std::to_string(runtime_devices - 1) + " (the runtime sees " + std::to_string(runtime_devices) +
                         (runtime_visibility.empty() ? "" : ", " + escaped(runtime_visibility)) + ")");
      runtime_ids.push_back(id);
    }
  } else {
    for (int id = 0; id < runtime_devices; ++id) runtime_ids.push_back(id);
  }
  d.visible = int(runtime_ids.size());

  const Setting device_id = kokkos_setting(argc, argv, getenv, "--kokkos-device-id", "KOKKOS_DEVICE_ID");
  const Setting map_by = kokkos_setting(argc, argv, getenv, "--kokkos-map-device-id-by", "KOKKOS_MAP_DEVICE_ID_BY");
  if (!device_id.from.empty()) {  // the user's choice; Kokkos reads it itself
    d.index = index_of(device_id.value);
    if (d.index < 0 || d.index >= d.visible)
      throw InputError(escaped(device_id.from) + ": " + std::to_string(d.visible) + " device" +
                       (d.visible == 1 ? "" : "s") + " visible" +
                       (d.visible_from.empty() ? "" : " (" + escaped(d.visible_from) + ")") + "; allowed: 0 to " +
                       std::to_string(d.visible - 1));
    d.chosen_by = device_id.from;
  } else if (map_by.value == "random") {  // Kokkos draws it; the record's runtime_id says which it took
    d.chosen_by = "random (" + map_by.from + ")";
    return d;
  } else {
    d.index = d.local_rank % d.visible;
    d.chosen_by = "local rank % visible devices";
    d.pass_to_kokkos = true;
  }
  d.runtime_id = runtime_ids[std::size_t(d.index)];
  if (std::size_t(d.runtime_id) < physical_ids.size())
    d.physical = runtime_visibility.substr(0, runtime_visibility.find('=')) + " entry " +
                 physical_ids[std::size_t(d.runtime_id)];
  return d;
}

RankDevice rank_device(MPI_Comm comm, int argc, char** argv) {
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_rank = 0;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_free(&node);
  const EnvironmentLookup getenv = [](const char* name) { return std::getenv(name); };
  RankDevice d;
  std::string problem;
  try {
    d = choose_rank_device(argc, argv, getenv, node_rank, runtime_device_count());
  } catch (const InputError& e) {
    problem = e.what();
  }
  collective_check<InputError>(comm, problem.empty(), problem);
  return d;
}

nlohmann::json rank_device_json(const RankDevice& d) {
  const auto or_null = [](int v) { return v < 0 ? nlohmann::json() : nlohmann::json(v); };
  return {{"local_rank", d.local_rank},    {"local_rank_from", d.local_rank_from},
          {"visible", or_null(d.visible)}, {"visible_from", d.visible_from},
          {"index", or_null(d.index)},     {"runtime_id", or_null(d.runtime_id)},
          {"physical", d.physical},        {"chosen_by", d.chosen_by}};
}

nlohmann::json gather_rank_devices(MPI_Comm comm, const RankDevice& mine) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  nlohmann::json record = rank_device_json(mine);
  record["rank"] = rank;
  record["host"] = host;
  record["pci_bus_id"] = device_info().pci_bus_id;
  nlohmann::json all = nlohmann::json::array();
  for (const auto& text : gather_text(comm, record.dump())) all.push_back(nlohmann::json::parse(text));
  return all;
}

std::string rank_devices_summary(const nlohmann::json& ranks, int max_ranks) {
  std::string line;
  std::map<std::pair<std::string, std::string>, std::vector<int>> sharers;  // (host, device) -> its ranks
  for (const auto& r : ranks) {
    const int rank = r["rank"].get<int>();
    const std::string bus = r.value("pci_bus_id", "");
    if (!r["runtime_id"].is_null())
      sharers[{r["host"].get<std::string>(),
               bus.empty() ? "device " + std::to_string(r["runtime_id"].get<int>()) : "the device at PCI " + bus}]
          .push_back(rank);
    if (rank >= max_ranks) continue;
    std::string what;
    if (r["visible"].is_null()) {
      what = "no device";
    } else if (r["index"].is_null()) {
      what = "device chosen by Kokkos, " + escaped(r["chosen_by"].get<std::string>());
    } else {
      const std::string from = r["visible_from"].get<std::string>();
      const std::string physical = r["physical"].get<std::string>();
      what = "device " + std::to_string(r["runtime_id"].get<int>()) + " (" + std::to_string(r["index"].get<int>()) +
             " of " + std::to_string(r["visible"].get<int>()) + " visible" +
             (from.empty() ? "" : ", " + escaped(from)) + (physical.empty() ? "" : ", " + escaped(physical)) + ") by " +
             escaped(r["chosen_by"].get<std::string>());
    }
    line += (line.empty() ? "" : "; ") + std::string("rank ") + std::to_string(rank) + " (local rank " +
            std::to_string(r["local_rank"].get<int>()) + ", " + escaped(r["local_rank_from"].get<std::string>()) +
            "): " + what;
  }
  if (int(ranks.size()) > max_ranks) line += "; ... (" + std::to_string(ranks.size()) + " ranks)";
  for (const auto& [device, users] : sharers) {
    if (users.size() < 2) continue;
    std::string list;
    for (int u : users) list += (list.empty() ? "" : ",") + std::to_string(u);
    line += "\n  shared device: " + escaped(device.second) + " of " + escaped(device.first) + " runs ranks " + list +
            " (more ranks on the node than devices: allowed, they take turns on it)";
  }
  return line;
}

}  // namespace proxylab
