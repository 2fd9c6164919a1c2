// Which device a rank takes (proxylab/device.hpp choose_rank_device) on made-up launches: the launchers' local-rank
// variables and their order, the runtimes' and Kokkos' visible-device lists, the user's Kokkos flags, and the
// refusals; and the header's line. The real binaries' header: regression.rank-devices.* (miniapps/stream/tests).
#include <map>
#include <string>
#include <vector>

#include "proxylab/device.hpp"
#include "proxylab/errors.hpp"
#include "proxylab/testing.hpp"

namespace {

using Environment = std::map<std::string, std::string>;
constexpr int host_build = -1;

// choose_rank_device in the environment `env` with the flags `flags`, the runtime seeing `devices` devices.
proxylab::RankDevice choose(const Environment& env, int devices, std::vector<std::string> flags = {},
                            int node_rank = 0) {
  const proxylab::EnvironmentLookup getenv = [&](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  flags.insert(flags.begin(), "proxylab-test");
  std::vector<char*> argv;
  for (auto& f : flags) argv.push_back(f.data());
  return proxylab::choose_rank_device(int(argv.size()), argv.data(), getenv, node_rank, devices);
}

std::string refusal(const Environment& env, int devices, std::vector<std::string> flags = {}) {
  try {
    choose(env, devices, std::move(flags));
  } catch (const proxylab::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("rank device: the node-local rank from each launcher, inner launchers first", "[device]") {
  const std::pair<const char*, const char*> launchers[] = {{"OMPI_COMM_WORLD_LOCAL_RANK", "3"},
                                                           {"MV2_COMM_WORLD_LOCAL_RANK", "3"},
                                                           {"MPI_LOCALRANKID", "3"},
                                                           {"PALS_LOCAL_RANKID", "3"},
                                                           {"FLUX_TASK_LOCAL_ID", "3"},
                                                           {"SLURM_LOCALID", "3"},
                                                           {"PMI_LOCAL_RANK", "3"}};
  for (const auto& [variable, value] : launchers) {
    const proxylab::RankDevice d = choose({{variable, value}}, 4, {}, 7);
    CHECK(d.local_rank == 3);
    CHECK(d.local_rank_from == std::string(variable) + "=3");
    CHECK(d.index == 3);
  }
  // Hydra's mpiexec or flux run inside an srun step: the step's SLURM_LOCALID is passed on to every process
  CHECK(choose({{"SLURM_LOCALID", "0"}, {"MPI_LOCALRANKID", "1"}}, 2).local_rank_from == "MPI_LOCALRANKID=1");
  CHECK(choose({{"SLURM_LOCALID", "0"}, {"FLUX_TASK_LOCAL_ID", "1"}}, 2).local_rank_from == "FLUX_TASK_LOCAL_ID=1");
  // no launcher variable (a PMIx launch, a singleton): MPI's node communicator
  const proxylab::RankDevice fallback = choose({}, 4, {}, 2);
  CHECK(fallback.local_rank == 2);
  CHECK(fallback.local_rank_from == "MPI_COMM_TYPE_SHARED");
  // a value that is no rank is skipped, not trusted
  CHECK(choose({{"OMPI_COMM_WORLD_LOCAL_RANK", "x"}, {"SLURM_LOCALID", "1"}}, 2).local_rank_from == "SLURM_LOCALID=1");
}

TEST_CASE("rank device: a host build takes no device", "[device]") {
  const proxylab::RankDevice d =
      choose({{"MPI_LOCALRANKID", "1"}, {"CUDA_VISIBLE_DEVICES", "0,1"}}, host_build, {"--kokkos-device-id=5"});
  CHECK(d.local_rank == 1);
  CHECK(d.visible == -1);
  CHECK(d.index == -1);
  CHECK_FALSE(d.pass_to_kokkos);
}

TEST_CASE("rank device: local rank modulo the visible devices, handed to Kokkos", "[device]") {
  for (int local = 0; local < 8; ++local) {
    const proxylab::RankDevice d = choose({{"MPI_LOCALRANKID", std::to_string(local)}}, 4);
    CHECK(d.index == local % 4);
    CHECK(d.runtime_id == local % 4);
    CHECK(d.visible == 4);
    CHECK(d.pass_to_kokkos);
    CHECK(d.chosen_by == "local rank % visible devices");
    CHECK(d.physical.empty());
  }
  // --kokkos-map-device-id-by=mpi_rank is Kokkos' default rule, spelled out
  CHECK(choose({{"SLURM_LOCALID", "3"}}, 2, {"--kokkos-map-device-id-by=mpi_rank"}).index == 1);
}

TEST_CASE("rank device: the runtime's visible devices name the physical one", "[device]") {
  // a node's GPUs 2 and 3 given to the job: the runtime sees 2
  const proxylab::RankDevice d = choose({{"MPI_LOCALRANKID", "1"}, {"CUDA_VISIBLE_DEVICES", "2,3"}}, 2);
  CHECK(d.index == 1);
  CHECK(d.physical == "CUDA_VISIBLE_DEVICES entry 3");
  CHECK(d.visible_from == "CUDA_VISIBLE_DEVICES=2,3");
  // srun --gpus-per-task=1: every task sees one GPU, its own, whatever its local rank
  const proxylab::RankDevice task = choose({{"SLURM_LOCALID", "3"}, {"CUDA_VISIBLE_DEVICES", "7"}}, 1);
  CHECK(task.index == 0);
  CHECK(task.physical == "CUDA_VISIBLE_DEVICES entry 7");
  CHECK(choose({{"MPI_LOCALRANKID", "2"}, {"ROCR_VISIBLE_DEVICES", "4,5,6"}}, 3).physical ==
        "ROCR_VISIBLE_DEVICES entry 6");
}

TEST_CASE("rank device: KOKKOS_VISIBLE_DEVICES narrows Kokkos' choice", "[device]") {
  const proxylab::RankDevice d = choose({{"MPI_LOCALRANKID", "3"}, {"KOKKOS_VISIBLE_DEVICES", "1,3"}}, 4);
  CHECK(d.visible == 2);
  CHECK(d.index == 1);       // what Kokkos is given: an index into its list
  CHECK(d.runtime_id == 3);  // the runtime's device
  CHECK(d.visible_from == "KOKKOS_VISIBLE_DEVICES=1,3");
  const std::string text = refusal({{"KOKKOS_VISIBLE_DEVICES", "1,4"}}, 4);
  CHECK_THAT(text,
             Catch::Matchers::Contains(
                 "KOKKOS_VISIBLE_DEVICES='1,4': '4' is not a device; allowed: comma-separated device ids from 0 to 3"));
  CHECK_THAT(refusal({{"KOKKOS_VISIBLE_DEVICES", "gpu0"}}, 2), Catch::Matchers::Contains("'gpu0' is not a device"));
}

TEST_CASE("rank device: the user's Kokkos device flags win and are checked", "[device]") {
  const proxylab::RankDevice d =
      choose({{"MPI_LOCALRANKID", "0"}, {"KOKKOS_DEVICE_ID", "0"}}, 2, {"--kokkos-device-id=1"});
  CHECK(d.index == 1);  // the flag over the variable, as Kokkos reads them
  CHECK(d.chosen_by == "--kokkos-device-id=1");
  CHECK_FALSE(d.pass_to_kokkos);  // Kokkos reads it itself
  CHECK(choose({{"MPI_LOCALRANKID", "0"}, {"KOKKOS_DEVICE_ID", "1"}}, 2).chosen_by == "KOKKOS_DEVICE_ID=1");
  const std::string text = refusal({{"CUDA_VISIBLE_DEVICES", "0,1"}}, 2, {"--kokkos-device-id=2"});
  CHECK_THAT(text, Catch::Matchers::Contains("--kokkos-device-id=2: 2 devices visible (CUDA_VISIBLE_DEVICES=0,1); "
                                             "allowed: 0 to 1"));
  const proxylab::RankDevice random = choose({{"MPI_LOCALRANKID", "1"}}, 4, {"--kokkos-map-device-id-by=random"});
  CHECK(random.index == -1);
  CHECK_FALSE(random.pass_to_kokkos);
  CHECK(random.chosen_by == "random (--kokkos-map-device-id-by=random)");
}

TEST_CASE("rank device: a device build that sees no device is refused", "[device]") {
  CHECK_THAT(refusal({{"CUDA_VISIBLE_DEVICES", ""}}, 0),
             Catch::Matchers::Contains("this build runs on a GPU, but the process sees none (CUDA_VISIBLE_DEVICES=)"));
  CHECK_THAT(refusal({}, 0), Catch::Matchers::Contains("(no device on the node)"));
  CHECK(refusal({{"MPI_LOCALRANKID", "5"}}, 2).empty());  // more ranks than devices: shared, not refused
}

TEST_CASE("rank device: the header's line and the shared devices", "[device]") {
  nlohmann::json ranks = nlohmann::json::array();
  const int locals[] = {0, 1, 2, 0};
  for (int r = 0; r < 4; ++r) {
    nlohmann::json j = proxylab::rank_device_json(choose({{"MPI_LOCALRANKID", std::to_string(locals[r])}}, 2));
    j["rank"] = r;
    j["host"] = r < 3 ? "a" : "b";
    ranks.push_back(j);
  }
  const std::string line = proxylab::rank_devices_summary(ranks);
  CHECK_THAT(line, Catch::Matchers::Contains("rank 1 (local rank 1, MPI_LOCALRANKID=1): device 1 (1 of 2 visible) "
                                             "by local rank % visible devices"));
  CHECK_THAT(line, Catch::Matchers::Contains("shared device: device 0 of a runs ranks 0,2"));
  CHECK_THAT(line, !Catch::Matchers::Contains("of b runs"));  // rank 3 has host b's device 0 to itself
  CHECK_THAT(proxylab::rank_devices_summary(ranks, 2), Catch::Matchers::Contains("; ... (4 ranks)"));
  // one GPU per task (srun --gpus-per-task=1): every rank's runtime id is 0, its GPU its own (its PCI address)
  for (int r = 0; r < 4; ++r) {
    ranks[r] = proxylab::rank_device_json(choose({{"SLURM_LOCALID", std::to_string(r)}}, 1));
    ranks[r]["rank"] = r;
    ranks[r]["host"] = "a";
    ranks[r]["pci_bus_id"] = "0000:0" + std::to_string(r) + ":00.0";
  }
  CHECK_THAT(proxylab::rank_devices_summary(ranks), !Catch::Matchers::Contains("shared device"));
  ranks[3]["pci_bus_id"] = "0000:01:00.0";
  CHECK_THAT(proxylab::rank_devices_summary(ranks),
             Catch::Matchers::Contains("shared device: the device at PCI 0000:01:00.0 of a runs ranks 1,3"));
  nlohmann::json host = proxylab::rank_device_json(choose({}, host_build));
  host["rank"] = 0;
  host["host"] = "a";
  CHECK(proxylab::rank_devices_summary(nlohmann::json::array({host})) ==
        "rank 0 (local rank 0, MPI_COMM_TYPE_SHARED): no device");
}
