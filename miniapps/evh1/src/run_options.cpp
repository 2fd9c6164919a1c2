#include "run_options.hpp"

#include <algorithm>

#include "tiled_sweep.hpp"

namespace proxylab::evh1 {
namespace {

Primitive tube_state(const Config& cfg, const std::string& side) {
  return {cfg.real("sod.rho_" + side), cfg.real("sod.u_" + side), cfg.real("sod.p_" + side)};
}

}  // namespace

std::string choice_list(const std::vector<int>& values) {
  std::string text;
  for (std::size_t k = 0; k < values.size(); ++k)
    text += (k == 0 ? "" : k + 1 == values.size() ? " or " : ", ") + std::to_string(values[k]);
  return text;
}

RunOptions read_options(const Config& cfg) {
  RunOptions o;
  o.problem = cfg.choice<ProblemKind>("problem.name");
  o.nx = int(cfg.integer("grid.nx"));
  o.ny = int(cfg.integer("grid.ny"));
  o.t_end = cfg.real("time.t_end");
  o.courant = cfg.real("time.courant");
  o.max_steps = cfg.integer("time.max_steps");
  o.guard = {cfg.real("time.dt_min_ratio"), cfg.real("time.wall_limit")};
  Gas& gas = o.sweep.gas;
  gas.gamma = cfg.real("hydro.gamma");
  gas.riemann_iterations = int(cfg.integer("hydro.riemann_iterations"));
  gas.riemann_tolerance = cfg.real("hydro.riemann_tolerance");
  o.sweep.mapping = cfg.choice<SweepMapping>("evh1.mapping");
  o.sweep.lanes = int(cfg.integer("evh1.lanes"));
  const auto& lanes = batched_lane_choices();
  if (std::find(lanes.begin(), lanes.end(), o.sweep.lanes) == lanes.end()) cfg.reject("evh1.lanes", choice_list(lanes));
  o.sweep.tile = int(cfg.integer("evh1.tile"));
  const auto& tiles = tile_thread_choices();
  if (std::find(tiles.begin(), tiles.end(), o.sweep.tile) == tiles.end()) cfg.reject("evh1.tile", choice_list(tiles));
  o.algorithm = cfg.choice<DomainAlgorithm>("evh1.algorithm");
  o.transpose = cfg.choice<TransposeStrategy>("evh1.transpose_strategy");
  o.halo = cfg.choice<HaloStrategy>("evh1.halo_strategy");
  o.px = int(cfg.integer("decomp.px"));
  o.py = int(cfg.integer("decomp.py"));
  o.bc_x = cfg.choice<BoundaryChoice>("bc.x");
  o.bc_y = cfg.choice<BoundaryChoice>("bc.y");
  o.sod = {cfg.choice<TubeAxis>("sod.direction"), cfg.real("sod.x0"), tube_state(cfg, "left"), tube_state(cfg, "right"),
           cfg.text("sod.label")};
  o.sedov = {cfg.choice<GridGeometry>("sedov.geometry"),
             cfg.real("sedov.rmin"),
             cfg.real("sedov.energy"),
             cfg.real("sedov.rho0"),
             cfg.real("sedov.p0"),
             cfg.real("sedov.radius_zones")};
  o.advection = {cfg.real("advection.ux"), cfg.real("advection.uy"), cfg.real("advection.p"),
                 cfg.real("advection.amplitude")};
  o.verify = {cfg.real("verify.sod_l1"),       cfg.real("verify.sedov_radius"), cfg.real("verify.sedov_jump"),
              cfg.real("verify.mirror"),       cfg.real("verify.diagonal"),     cfg.real("verify.sedov_theta_spread"),
              cfg.real("verify.advection_l1"), cfg.real("verify.conservation"), cfg.boolean("verify.against_reference"),
              cfg.real("verify.reference_tol")};
  o.density_file = cfg.text("output.density_file");
  return o;
}

}  // namespace proxylab::evh1
