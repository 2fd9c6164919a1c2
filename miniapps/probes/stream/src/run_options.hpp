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
  double scalar = 0;  // of mul and triad
};

// stream.n = 0 becomes 4x the last-level cache per array (at least 2^22 elements). InputError naming the key for
// what the schema's ranges cannot refuse alone: fewer than 1024 elements, a scalar that drives the arrays out of
// the normal doubles within the run (nothing left to verify).
RunOptions read_options(const Config& cfg, long long last_level_cache_bytes);

}  // namespace proxylab::stream
