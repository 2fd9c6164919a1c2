// stream's deck into RunOptions (see run_options.hpp).
#include "run_options.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "replay.hpp"

namespace proxylab::stream {
namespace {

// Every iteration multiplies the arrays by scalar * (2 + scalar) (replay.hpp). A scalar that drives them, or the
// dot product, to zero, into denormals or to infinity within the run leaves nothing to verify (the relative errors
// become 0/0): such a deck is refused before the run.
void require_normal_replay(const Config& cfg, int iterations, double scalar, long long n) {
  Gold g;
  for (int it = 1; it <= iterations; ++it) {
    replay_iteration(g, scalar);
    const double dot = g.a * g.b * double(n);
    if (!std::isnormal(g.a) || !std::isnormal(g.b) || !std::isnormal(g.c) || !std::isnormal(dot)) {
      char growth[64];
      std::snprintf(growth, sizeof growth, "%.6g", scalar * (2 + scalar));
      cfg.reject("stream.scalar",
                 std::string("a scalar that keeps the arrays normal doubles for all stream.iterations (") +
                     std::to_string(iterations) + "): the arrays scale by scalar * (2 + scalar) = " + growth +
                     " per iteration and leave the normal range in iteration " + std::to_string(it) +
                     " (e.g. 0.4, BabelStream's scalar)");
    }
  }
}

}  // namespace

RunOptions read_options(const Config& cfg, const NodeMemory& node) {
  RunOptions o;
  o.mapping = cfg.choice<Mapping>("stream.mapping");
  o.iterations = static_cast<int>(cfg.integer("stream.iterations"));
  o.scalar = cfg.real("stream.scalar");
  o.n = cfg.integer("stream.n");
  if (o.n == 0) {
    const double rule = std::max(double(1LL << 22), 4.0 * double(node.last_level_cache_bytes) / 8 / node.ranks_on_node);
    const double cap = node.available_per_rank / 2 / (3 * sizeof(double));
    o.size_capped = cap < rule;
    o.n = static_cast<long long>(std::min({rule, cap, double((1LL << 31) - 1)}));
  }
  if (o.n < 1024) cfg.reject("stream.n", "at least 1024 elements (or 0 for automatic)");
  require_normal_replay(cfg, o.iterations, o.scalar, o.n);
  return o;
}

}  // namespace proxylab::stream
