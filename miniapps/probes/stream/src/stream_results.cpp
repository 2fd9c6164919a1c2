#include "stream_results.hpp"

#include <sstream>
#include <stdexcept>

#include "proxylab/run_results.hpp"

namespace proxylab::stream {

std::string SetupSummary::to_text() const {
  std::ostringstream out;
  out << "  arrays: 3 x " << n << " doubles per rank (" << 3.0 * n * 8 / 1048576.0 << " MiB); last-level cache "
      << cache.bytes / 1048576.0 << " MiB (shared by " << cache.cpus << " CPUs); mapping " << to_string(mapping)
      << "\n";
  if (size_capped)
    out << "  note: the automatic size stops at half this rank's available memory, under STREAM's 4x the cache: "
           "a figure above the machine's DRAM bandwidth is the cache's\n";
  return out.str();
}

nlohmann::json SetupSummary::to_json() const {
  return {{"elements_per_rank", n},
          {"last_level_cache_bytes", cache.bytes},
          {"last_level_cache_cpus", cache.cpus},
          {"automatic_size_capped", size_capped}};
}

const KernelResult& RunResults::kernel(const std::string& name) const {
  for (const KernelResult& k : kernels)
    if (k.name == name) return k;
  throw std::logic_error("stream: no kernel named " + name);
}

std::string RunResults::to_text() const {
  std::string text =
      "\n" + text_printf("%-8s %14s %14s %12s %12s %12s %16s %16s\n", "Function", "GB/s(all best)", "GB/s(all avg)",
                         "Min [s]", "Max [s]", "Avg [s]", "GB/s/rank(min)", "GB/s/rank(max)");
  for (const KernelResult& k : kernels)
    text += text_printf("%-8s %14.3f %14.3f %12.4e %12.4e %12.4e %16.3f %16.3f\n", k.name.c_str(), k.gbs_best,
                        k.gbs_avg, k.t_min_s, k.t_max_s, k.t_avg_s, k.gbs_per_rank_min, k.gbs_per_rank_max);
  return text +
         text_printf("%-8s %.3f us per empty kernel + fence (slowest rank, best of 10 x 200)\n\n", "launch", launch_us);
}

nlohmann::json RunResults::to_json() const {
  nlohmann::json table = nlohmann::json::array();
  for (const KernelResult& k : kernels)
    table.push_back({{"kernel", k.name},
                     {"gbs_best", k.gbs_best},
                     {"gbs_avg", k.gbs_avg},
                     {"t_min_s", k.t_min_s},
                     {"t_max_s", k.t_max_s},
                     {"t_avg_s", k.t_avg_s},
                     {"gbs_per_rank_min", k.gbs_per_rank_min},
                     {"gbs_per_rank_max", k.gbs_per_rank_max},
                     {"bytes_per_rank", k.bytes_per_rank}});
  return {{"kernels", table}, {"launch_us", launch_us}, {"iterations_done", iterations_done}};
}

}  // namespace proxylab::stream
