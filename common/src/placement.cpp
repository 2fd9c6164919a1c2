// Rank and thread placement (see placement.hpp).
#include "proxylab/placement.hpp"

#include <sched.h>
#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <vector>

#include "proxylab/comm/gather.hpp"
#include "proxylab/layout.hpp"

namespace proxylab {
namespace {

std::string cpu_list(const cpu_set_t& set) {
  std::string out;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (!CPU_ISSET(c, &set)) continue;
    int end = c;
    while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, &set)) ++end;
    out += (out.empty() ? "" : ",") + std::to_string(c) + (end > c ? "-" + std::to_string(end) : "");
    c = end;
  }
  return out.empty() ? "?" : out;
}

std::string calling_thread_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return "?";
  return cpu_list(set);
}

}  // namespace

std::string process_cpus() { return calling_thread_cpus(); }

nlohmann::json gather_placement(MPI_Comm comm, const std::string& cpus_at_start) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  // One iteration per host thread (static schedule, chunk 1: iteration i on thread i).
  const int threads = HostExec().concurrency();
  std::vector<std::string> per_thread(threads);
  Kokkos::parallel_for("proxylab::placement",
                       Kokkos::RangePolicy<HostExec, Kokkos::Schedule<Kokkos::Static>>(0, threads).set_chunk_size(1),
                       [&](int t) { per_thread[t] = calling_thread_cpus(); });
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  const nlohmann::json mine{{"rank", rank}, {"host", host}, {"cpus", cpus_at_start}, {"thread_cpus", per_thread}};
  nlohmann::json out = nlohmann::json::array();
  for (const auto& text : gather_text(comm, mine.dump())) out.push_back(nlohmann::json::parse(text));
  return out;
}

std::string placement_summary(const nlohmann::json& placement, int max_ranks) {
  std::string out;
  int shown = 0;
  for (const auto& p : placement) {
    if (shown++ == max_ranks) {
      out += ", ... (" + std::to_string(placement.size()) + " ranks: see the record)";
      break;
    }
    std::string threads;
    for (const auto& t : p["thread_cpus"]) threads += (threads.empty() ? "" : " ") + t.get<std::string>();
    out += (out.empty() ? "" : ", ") + std::string("rank ") + std::to_string(p["rank"].get<int>()) + " " +
           p["host"].get<std::string>() + " cpus " + p["cpus"].get<std::string>() + " (threads " + threads + ")";
  }
  return out;
}

}  // namespace proxylab
