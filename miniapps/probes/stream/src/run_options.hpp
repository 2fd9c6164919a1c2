// stream's deck, read once into typed values (the schema is declared in stream_app.cpp); the driver takes these,
// never the Config.
#pragma once
#include "proxylab/config.hpp"
#include "proxylab/mapping.hpp"

namespace proxylab::stream {

struct RunOptions {
  long long n = 0;  // elements per array per rank
  int iterations = 0;
  Mapping mapping = Mapping::flat;
  double scalar = 0;         // of mul and triad
  bool size_capped = false;  // the automatic size was cut to half the rank's memory: arrays under 4x the cache
};

// Where the automatic size comes from: the last-level cache, the ranks that share it, each rank's memory.
struct NodeMemory {
  long long last_level_cache_bytes = 0;
  int ranks_on_node = 1;
  double available_per_rank = 0;  // bytes (infinite when unknown)
};

// stream.n = 0 becomes STREAM's rule for the node: the ranks' arrays together 4x the last-level cache each, so
// 4x the cache over the ranks sharing it per rank (at least 2^22 elements), and at most half the rank's available
// memory for the three arrays (a large reported cache must not take the machine's memory). InputError naming the
// key for what the schema's ranges cannot refuse alone: fewer than 1024 elements, a scalar that drives the arrays
// out of the normal doubles within the run (nothing left to verify).
RunOptions read_options(const Config& cfg, const NodeMemory& node);

}  // namespace proxylab::stream
