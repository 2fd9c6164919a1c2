// What one step of a proxy costs, in counts the performance model (python/proxylab_tools/model.py,
// docs/model.md) turns into time on any machine description: per kernel its flops and memory bytes (totals over
// all ranks) and the machine rate that bounds it; per communication pattern the calls per step and, per call,
// the bytes and messages of the busiest rank and the group size. Written to the record as results.model_counts.
#pragma once
#include <mpi.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "proxylab/comm/transpose.hpp"

namespace proxylab {

struct KernelCount {
  std::string kernel;
  std::string rate;    // the machine rate that bounds it: "fft", "dgemm", "memory" or "calibrated"
  double flops = 0;    // per step, all ranks
  double bytes = 0;    // compulsory memory traffic per step, all ranks
  double work = 0;     // "calibrated" kernels: work units per step, all ranks (cost per unit measured)
  double seconds = 0;  // measured seconds per step of this rank (the slowest rank's is recorded)
};

struct CommCount {
  std::string pattern;    // "halo", "alltoall", "allreduce" (reduce-scatter and ring reductions count as allreduce)
  double calls = 0;       // per step
  double bytes = 0;       // per call, sent by this rank (the busiest rank's is recorded)
  double messages = 0;    // per call, sent by this rank (the busiest rank's is recorded)
  int group = 0;          // ranks taking part in one call
  double copy_bytes = 0;  // per call, memory traffic of this rank's packing and unpacking (read + write)
  // A 2-D process grid's communicators: 0 = its rows (p_row ranks), 1 = its columns (p_col ranks), factored as the
  // code factors P (most square, p_row <= p_col); -1: not a grid communicator (the group follows P).
  int grid_axis = -1;
};

// The largest rank count the run's deck decomposes over, where the proxy's rule is a plain upper bound (record key
// model_counts.max_ranks; the model marks predictions beyond it). Set by the driver where it knows one.
inline void set_max_ranks(nlohmann::json& counts, long long max_ranks) { counts["max_ranks"] = max_ranks; }

// The pattern name of a transpose strategy.
inline std::string alltoall_pattern(TransposeStrategy s) {
  return s == TransposeStrategy::node_aware ? "alltoall_node_aware" : "alltoall";
}

// Collective over comm: the record entry, with seconds, bytes, messages and launches maxed over ranks.
// launches: Kokkos kernel launches per step of this rank (LaunchCounter over the timed loop / steps).
inline nlohmann::json model_counts_json(const std::string& step, const std::vector<KernelCount>& kernels,
                                        const std::vector<CommCount>& comms, double launches, MPI_Comm comm) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  std::vector<double> v{launches};
  for (const auto& k : kernels) v.push_back(k.seconds);
  for (const auto& c : comms) v.push_back(c.bytes), v.push_back(c.messages), v.push_back(c.copy_bytes);
  MPI_Allreduce(MPI_IN_PLACE, v.data(), int(v.size()), MPI_DOUBLE, MPI_MAX, comm);
  nlohmann::json j = {{"step", step},
                      {"ranks", ranks},
                      {"launches", v[0]},
                      {"kernels", nlohmann::json::array()},
                      {"communication", nlohmann::json::array()}};
  size_t at = 1;
  for (const auto& k : kernels)
    j["kernels"].push_back({{"kernel", k.kernel},
                            {"rate", k.rate},
                            {"flops", k.flops},
                            {"bytes", k.bytes},
                            {"work", k.work},
                            {"seconds", v[at++]}});
  for (const auto& c : comms) {
    j["communication"].push_back({{"pattern", c.pattern},
                                  {"calls", c.calls},
                                  {"bytes", v[at]},
                                  {"messages", v[at + 1]},
                                  {"group", c.group},
                                  {"copy_bytes", v[at + 2]},
                                  {"grid_axis", c.grid_axis}});
    at += 3;
  }
  return j;
}

}  // namespace proxylab
