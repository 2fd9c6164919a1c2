// pop's deck, read once into typed values (the schema is declared in pop_app.cpp); the driver and the memory
// estimate take these, never the Config.
#pragma once
#include <string>

#include "grid.hpp"
#include "proxylab/comm/halo.hpp"
#include "proxylab/config.hpp"
#include "solver.hpp"

namespace proxylab::pop {

struct RunOptions {
  GridSpec grid;
  SolverOptions solver;
  int px = 0, py = 0;           // process (or, with land elimination, block) grid; 0 = automatic
  bool eliminate_land = false;  // decomp.eliminate_land
  HaloStrategy halo = HaloStrategy::packed;
  int halo_width = 2;
  ReduceStrategy reduce = ReduceStrategy::allreduce;
  double error_tol = 0;       // verify.error_tol
  bool bench_stream = false;  // bench.stream
  std::string operator_file;  // output.operator_file ("" = none)
};

// InputError naming the key for values the schema's ranges cannot refuse alone (grid.lat_north <= lat_south).
RunOptions read_options(const Config& cfg);

}  // namespace proxylab::pop
