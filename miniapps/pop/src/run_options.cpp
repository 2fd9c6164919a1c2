#include "run_options.hpp"

namespace proxylab::pop {
namespace {

SolverOptions read_solver(const Config& cfg) {
  SolverOptions o;
  o.kind = cfg.choice<SolverKind>("solver.name");
  o.crit = cfg.real("solver.crit");
  o.max_iters = int(cfg.integer("solver.max_iters"));
  o.check_freq = int(cfg.integer("solver.check_freq"));
  o.mapping = cfg.choice<Mapping>("solver.mapping");
  o.fused = cfg.boolean("solver.fused");
  o.replace = cfg.boolean("solver.replace");
  o.phase_timers = cfg.boolean("solver.phase_timers");
  o.lanczos_steps = int(cfg.integer("pcsi.lanczos_steps"));
  o.mu_safety = cfg.real("pcsi.mu_safety");
  o.nu_safety = cfg.real("pcsi.nu_safety");
  return o;
}

GridSpec read_grid(const Config& cfg) {
  GridSpec g;
  g.nx = int(cfg.integer("grid.nx"));
  g.ny = int(cfg.integer("grid.ny"));
  g.lat_south = cfg.real("grid.lat_south");
  g.lat_north = cfg.real("grid.lat_north");
  g.dt = cfg.real("grid.dt");
  if (g.lat_north <= g.lat_south) cfg.reject("grid.lat_north", "a latitude north of grid.lat_south");
  return g;
}

}  // namespace

RunOptions read_options(const Config& cfg) {
  RunOptions o;
  o.grid = read_grid(cfg);
  o.solver = read_solver(cfg);
  o.px = int(cfg.integer("decomp.px"));
  o.py = int(cfg.integer("decomp.py"));
  o.eliminate_land = cfg.boolean("decomp.eliminate_land");
  o.halo = cfg.choice<HaloStrategy>("comm.halo");
  o.halo_width = int(cfg.integer("comm.halo_width"));
  o.reduce = cfg.choice<ReduceStrategy>("comm.reduce");
  o.error_tol = cfg.real("verify.error_tol");
  o.bench_stream = cfg.boolean("bench.stream");
  o.operator_file = cfg.text("output.operator_file");
  return o;
}

}  // namespace proxylab::pop
