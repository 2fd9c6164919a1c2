// stream's run summary, each value once (proxylab/run_results.hpp): the set-up (array size, cache, mapping) and
// the run's results (per kernel bandwidth and times, launch cost); the text lines and the record's keys are
// rendered from these structs. Values are the same on every rank (reduced first).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "last_level_cache.hpp"
#include "proxylab/mapping.hpp"

namespace proxylab::stream {

struct SetupSummary {
  long long n = 0;  // elements per array per rank
  LastLevelCache cache;
  Mapping mapping = Mapping::flat;
  bool size_capped = false;  // the automatic size stopped at half the memory, under 4x the cache

  std::string to_text() const;
  nlohmann::json to_json() const;
};

// One kernel over the timed iterations (the first is a warm-up). Aggregate: all ranks' bytes over the slowest
// rank's time, per iteration; per rank: a rank's own bytes over its own best time.
struct KernelResult {
  std::string name;
  double gbs_best = 0, gbs_avg = 0;              // aggregate GB/s, best and average iteration
  double t_min_s = 0, t_max_s = 0, t_avg_s = 0;  // the slowest rank's seconds per iteration
  double gbs_per_rank_min = 0, gbs_per_rank_max = 0;
  double bytes_per_rank = 0;
};

struct RunResults {
  std::vector<KernelResult> kernels;  // copy, mul, add, triad, dot
  double launch_us = 0;               // an empty kernel + fence, slowest rank
  int iterations_done = 0;

  const KernelResult& kernel(const std::string& name) const;
  std::string to_text() const;
  nlohmann::json to_json() const;
};

}  // namespace proxylab::stream
