// EVH1 driver (VH-1: vhone): deck -> problem -> distributed state -> time steps of x y | y x sweeps with a
// Courant time step from a global minimum (VH-1: dtcon) -> verification -> FOM (zone-cycles per second).
#include "evh1_app.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>

#include "density_output.hpp"
#include "evh1_results.hpp"
#include "memory_estimate.hpp"
#include "problems.hpp"
#include "proxylab/comm/grid.hpp"
#include "proxylab/comm/halo.hpp"
#include "proxylab/comm/transpose.hpp"
#include "proxylab/launch_counter.hpp"
#include "proxylab/perf_limits.hpp"
#include "proxylab/progress.hpp"
#include "proxylab/run_results.hpp"
#include "run_options.hpp"
#include "shock_tube.hpp"
#include "tiled_sweep.hpp"
#include "time_loop.hpp"
#include "zone_block.hpp"

namespace proxylab::evh1 {
namespace {

void declare(Schema& s) {
  s.choice("problem.name", ProblemKind::sedov, "test problem (see README)");
  s.integer("grid.nx", 128, 8, 1 << 16, "zones in x (the x extent is 1; zones are square)");
  s.integer("grid.ny", 128, 8, 1 << 16, "zones in y");
  s.real("time.t_end", 0, 0, 1e6, "end time; 0 = the problem's default (sod 0.25, sedov 0.1, advection 1)");
  s.real("time.courant", 0.5, 0.01, 0.95, "Courant number of the time step (VH-1: courant)");
  s.integer("time.max_steps", 0, 0, 1000000000,
            "stop after this many steps (0 = run to t_end); checks use the time reached");
  s.real("time.dt_min_ratio", 1e-6, 0, 1,
         "end the run (exit 3) when the time step falls below this fraction of the first step's (a collapsing "
         "step: the state has gone extreme); 0 = never");
  s.real("time.wall_limit", 86400, 0, 1e9,
         "end the run (exit 3) when reaching t_end at the current Courant step would take more than this many "
         "seconds of wall time (checked every 16 steps from step 16); 0 = never");
  s.real("hydro.gamma", 1.4, 1.01, 5.0, "ratio of specific heats");
  s.integer("hydro.riemann_iterations", 12, 1, 100,
            "most Newton iterations of the Riemann solver per interface (VH-1: 12; EVH1's vector template: 8)");
  s.real("hydro.riemann_tolerance", 1e-5, 0, 0.1,
         "an interface stops iterating once p* changes by less than this (relative; VH-1: 1e-5); 0 = always "
         "hydro.riemann_iterations (EVH1's fixed loop)");
  s.choice("evh1.algorithm", DomainAlgorithm::transpose,
           "parallel algorithm: transpose (EVH1 all-to-all between sweeps) or halo (2-D blocks, ghost-zone exchange)");
  s.choice("evh1.mapping", SweepMapping::batched,
           "pencil (one pencil at a time, 1-D temporaries, as EVH1), batched (lanes pencils at once, vector across "
           "pencils) or tiled (a thread per zone: pencils cut into tiles, a team per tile)");
  const auto &lanes = batched_lane_choices(), &tiles = tile_thread_choices();
  s.integer("evh1.lanes", 8, lanes.front(), lanes.back(),
            "pencils per block for mapping=batched: " + choice_list(lanes));
  s.integer("evh1.tile", 128, tiles.front(), tiles.back(),
            "threads per tile for mapping=tiled (a team per tile on a device; it updates tile - 16 zones): " +
                choice_list(tiles));
  s.choice("evh1.transpose_strategy", TransposeStrategy::alltoallv, "all-to-all strategy (algorithm=transpose)");
  s.choice("evh1.halo_strategy", HaloStrategy::packed, "halo exchange strategy (algorithm=halo)");
  s.integer("decomp.px", 0, 0, 1 << 16, "ranks in x for algorithm=halo (0 = automatic)");
  s.integer("decomp.py", 0, 0, 1 << 16, "ranks in y for algorithm=halo (0 = automatic)");
  s.choice("bc.x", BoundaryChoice::automatic, "x boundaries (auto = the problem's own)");
  s.choice("bc.y", BoundaryChoice::automatic, "y boundaries (auto = the problem's own)");
  s.choice("sod.direction", TubeAxis::x,
           "shock tube along x or y (the other extent is grid.ny or grid.nx zones), or oblique: along the diagonal of "
           "a periodic unit square (the problem (left, right) at x + y = 0.75, (right, left) at 0.25; t_end 0.07)");
  s.real("sod.x0", 0.5, 0.0, 1.0, "initial discontinuity position (x or y tube), 0 < x0 < 1");
  s.text("sod.label", "Sod",
         "the tube's name in the output and its check (Toro's decks: e.g. \"Toro 2 (123 problem)\")");
  s.real("sod.rho_left", 1.0, 1e-10, 1e10, "left density");
  s.real("sod.u_left", 0.0, -1e6, 1e6,
         "left velocity along the tube (oblique: along (1, 1)/sqrt 2); a moving end state makes that end open (auto)");
  s.real("sod.p_left", 1.0, 1e-10, 1e10, "left pressure");
  s.real("sod.rho_right", 0.125, 1e-10, 1e10, "right density");
  s.real("sod.u_right", 0.0, -1e6, 1e6, "right velocity along the tube");
  s.real("sod.p_right", 0.1, 1e-10, 1e10, "right pressure");
  s.choice("sedov.geometry", GridGeometry::cartesian,
           "cartesian: x-y slab, a line blast (nu = 2); cylindrical: x = r, y = z, a point blast on the axis (nu = 3); "
           "spherical: x = r in [rmin, 1], y = theta in [0, pi], a point blast at the centre (nu = 3, EVH1's "
           "benchmark)");
  s.real("sedov.rmin", 0.1, 0.0, 1.0,
         "spherical: inner radius of the grid, a reflecting sphere (0 = the centre: allowed, but the theta widths "
         "r dtheta of the innermost zones then cut the time step ~100x at 128^2)");
  s.real("sedov.energy", 1.0, 1e-10, 1e10, "blast energy (per unit length in cartesian)");
  s.real("sedov.rho0", 1.0, 1e-10, 1e10, "ambient density");
  s.real("sedov.p0", 1e-5, 1e-20, 1e10,
         "ambient pressure; at most what keeps the shock strong to t_end (derived from the blast and the checks' "
         "limits: README)");
  s.real("sedov.radius_zones", 3.5, 0.5, 100,
         "zones: the radius of the disc (cartesian) or ball (cylindrical) about the centre, or the width of the shell "
         "at the inner sphere (spherical), that the blast energy fills uniformly (each zone gets the share of its "
         "volume inside)");
  s.real("advection.ux", 1.0, -100, 100, "flow velocity x");
  s.real("advection.uy", 1.0, -100, 100, "flow velocity y");
  s.real("advection.p", 1.0, 1e-10, 1e10, "uniform pressure");
  s.real("advection.amplitude", 0.2, 0.0, 0.9, "density wave amplitude");
  s.real("verify.sod_l1", 0, 0, 1e10,
         "shock tube: limit of the mean |rho - rho_exact| (exact Riemann solution); 0 = first order at the run's "
         "resolution, 2 (rho_max - rho_min) n^-0.8 (README)");
  s.real("verify.sedov_radius", 0, 0, 1e10,
         "Sedov: limit of |R_num - R(t)| / R(t); 0 = 2 zones (the densest ring sits about a zone behind) + 0.3 a^2 / R "
         "(a blast from a source of radius a) (README)");
  s.real("verify.sedov_jump", 0, 0, 1000,
         "Sedov: lower limit of the peak density jump rho_max / rho0; 0 = J - 1.5 (J - 1) (1 + m / 0.8)^-0.6, J = "
         "(gamma + 1) / (gamma - 1) the strong-shock jump, m = R / (nu J dx) the zones across the shell (README)");
  s.real("verify.mirror", 1e-8, 0, 1e10,
         "Sedov: limit of the mirror asymmetry (0 in slab directions, where the deposit and the sweeps are "
         "mirror-symmetric bit for bit; round-off in the theta sweeps of r-theta)");
  s.real("verify.diagonal", 0.05, 0, 1e10, "Sedov: limit of the x <-> y asymmetry (operator-splitting error)");
  s.real("verify.sedov_theta_spread", 1.0, 0, 1e10,
         "Sedov spherical: limit of the variation over theta of the density-maximum radius (zones)");
  s.real("verify.advection_l1", 0, 0, 1e10,
         "advection: limit of the mean |rho - rho_exact|; 0 = the second-order bound at the run's resolution and end "
         "time, 16 amplitude sum_d (1 + |u_d| t / L_d) / n_d^2 (README)");
  s.real("verify.conservation", 0, 0, 1e10,
         "limit of the relative drift of total mass and energy; 0 = the round-off bound of the run's steps, "
         "eps (8 + 32 steps) (README)");
  s.boolean("verify.against_reference", false,
            "also run the serial pencil reference on every rank and compare the fields (tests; small grids)");
  s.real("verify.reference_tol", 0.0, 0, 1e10,
         "limit of the max abs difference from the reference (0 = bit-identical)");
  s.file("output.density_file", FileUse::output,
         "write the final density (raw float64 + .json header) for plot_density.py", density_file_names);
}

// Factor pair px * py = size with blocks of at least nghost zones and the least halo perimeter.
void choose_halo_grid(const RunOptions& o, const Config& cfg, int size, int nx, int ny, int& px, int& py) {
  px = o.px;
  py = o.py;
  if (px > 0 && py == 0 && size % px == 0) py = size / px;
  if (py > 0 && px == 0 && size % py == 0) px = size / py;
  if (px == 0 && py == 0) {
    const std::array<int, 2> best = ProcessGrid::factor_pair(
        size, [&](int a, int b) { return double(nx) / a + double(ny) / b; },
        [&](int a, int b) { return nx / a >= nghost && ny / b >= nghost; });
    px = best[0];
    py = best[1];
    if (px == 0)
      cfg.reject("grid.nx", "a grid that " + std::to_string(size) + " ranks can split into blocks of at least " +
                                std::to_string(nghost) + " x " + std::to_string(nghost) + " zones (algorithm=halo)");
  }
  if (px * py != size)
    cfg.reject("decomp.px", "px * py = number of ranks (" + std::to_string(size) + "); got " + std::to_string(px) +
                                " x " + std::to_string(py));
  if (nx / px < nghost)
    cfg.reject("grid.nx", "at least " + std::to_string(nghost) + " zones per rank in x (px = " + std::to_string(px) +
                              ", algorithm=halo)");
  if (ny / py < nghost)
    cfg.reject("grid.ny", "at least " + std::to_string(nghost) + " zones per rank in y (py = " + std::to_string(py) +
                              ", algorithm=halo)");
}

// The sweeps keep a block's temporaries in team scratch (sweep.hpp), of which the execution space gives one team at
// most sweep_scratch_limit(): pencils of this rank's x and y sweeps (zones_x, zones_y long) must fit. A tile's
// (tiled_sweep.hpp) does not depend on the pencils: its level-0 scratch must fit tile_scratch_limit().
void check_sweep_scratch(const Config& cfg, const RunOptions& o, int zones_x, int zones_y) {
  if (o.sweep.mapping == SweepMapping::tiled) {
    const std::size_t need = tile_scratch_bytes(o.sweep.tile), limit = tile_scratch_limit();
    if (need > limit)
      cfg.reject("evh1.tile", "a tile of " + std::to_string(o.sweep.tile) + " threads needs " +
                                  std::to_string(need >> 10) + " KiB of level-0 team scratch, more than the " +
                                  std::to_string(limit >> 10) +
                                  " KiB this execution space gives a team; allowed: a "
                                  "smaller tile");
    return;
  }
  const bool batched = o.sweep.mapping == SweepMapping::batched;
  const int line = std::max(zones_x, zones_y);
  const std::size_t need = sweep_scratch_bytes(line, batched ? o.sweep.lanes : 1), limit = sweep_scratch_limit();
  if (need > limit)
    cfg.reject(batched ? "evh1.lanes" : (zones_x >= zones_y ? "grid.nx" : "grid.ny"),
               "pencils of " + std::to_string(line) + " zones" +
                   (batched ? " in blocks of " + std::to_string(o.sweep.lanes) : std::string()) + " need " +
                   std::to_string(need >> 20) + " MiB of team scratch, more than the " + std::to_string(limit >> 20) +
                   " MiB this execution space gives a team; allowed: fewer lanes, evh1.mapping=pencil, or more ranks");
}

std::unique_ptr<Domain> make_domain(RunContext& ctx, const RunOptions& o, const GridSpec& g) {
  const auto& cfg = ctx.config;  // names deck values in errors
  const std::string grid_keys = "grid.nx x grid.ny";
  if (o.algorithm == DomainAlgorithm::transpose) {
    if (g.nx < ctx.size)
      cfg.reject("grid.nx",
                 "at least one column per rank for algorithm=transpose (nx >= " + std::to_string(ctx.size) + " ranks)");
    if (g.ny < ctx.size)
      cfg.reject("grid.ny",
                 "at least one row per rank for algorithm=transpose (ny >= " + std::to_string(ctx.size) + " ranks)");
    check_sweep_scratch(cfg, o, g.nx, g.ny);
    require_memory(ctx.comm, estimate_memory(o, ctx.comm_options, g, ctx.rank, ctx.size, 0, 0), grid_keys);
    return make_transpose_domain(ctx.comm, g, o.sweep, ctx.timers, o.transpose, ctx.comm_options);
  }
  int px = 0, py = 0;
  choose_halo_grid(o, cfg, ctx.size, g.nx, g.ny, px, py);
  check_sweep_scratch(cfg, o, (g.nx + px - 1) / px, (g.ny + py - 1) / py);
  require_memory(ctx.comm, estimate_memory(o, ctx.comm_options, g, ctx.rank, ctx.size, px, py), grid_keys);
  return make_halo_domain(ctx.comm, g, o.sweep, ctx.timers, o.halo, px, py, ctx.comm_options);
}

// The reference variant: the same problem for the same number of steps on one rank (transpose
// algorithm on MPI_COMM_SELF, mapping pencil), run on every rank; the fields must agree bit for bit
// (verify.reference_tol = 0) whatever the algorithm, strategy, mapping and rank count of the run. Each rank compares
// its own zones; the reference holds the whole grid on every rank (a test of small grids: its memory does not fall
// with the rank count).
void compare_with_reference(RunContext& ctx, const RunOptions& o, const Problem& pb, const ZoneBlock& mine,
                            long long steps) {
  Timers quiet(nullptr, false);
  SweepOptions opt = o.sweep;
  opt.mapping = SweepMapping::pencil;
  auto ref = make_transpose_domain(MPI_COMM_SELF, pb.grid, opt, quiet, TransposeStrategy::alltoallv, CommOptions{});
  ref->initialize(pb.init);
  run_to(*ref, MPI_COMM_SELF, pb.t_end, o.courant, steps);
  const ZoneBlock expect = ref->local();  // one rank: the whole grid
  double diff = 0;
  for (int v = 0; v < nvars; ++v)
    for (int j = mine.j0; j < mine.j0 + mine.nj; ++j)
      for (int i = mine.i0; i < mine.i0 + mine.ni; ++i)
        diff = std::max(diff, std::fabs(mine.at(v, i, j) - expect.at(v, i, j)));
  double worst = 0;
  MPI_Allreduce(&diff, &worst, 1, MPI_DOUBLE, MPI_MAX, ctx.comm);
  publish_results(ctx, ReferenceComparison{steps, worst});
  ctx.report.check_le("fields vs serial pencil reference (max abs difference)", worst, o.verify.reference_tol);
}

void run(RunContext& ctx) {
  const RunOptions o = read_options(ctx.config);
  const SweepOptions& opt = o.sweep;
  const Gas& gas = opt.gas;
  const Problem pb = make_problem(o, ctx.config);
  const GridSpec& g = pb.grid;
  DensityOutput density(ctx.comm, o.density_file);  // checked before the run
  auto domain = make_domain(ctx, o, g);
  ctx.check_stop();  // Ctrl-C is seen between the set-up phases
  domain->initialize(pb.init);
  ctx.check_stop();
  const Totals initial = totals(domain->local(), g, gas, ctx.comm);
  publish_results(ctx,
                  SetupSummary{to_string(pb.kind), g.nx, g.ny, pb.t_end, domain->describe(), opt.mapping, opt.width()});

  Progress progress(ctx, 1000, "permille of t_end");
  MPI_Barrier(ctx.comm);
  const double t0 = MPI_Wtime();
  LoopResult done;
  double launched = 0;  // Kokkos kernel launches of this rank in the time loop
  {
    auto hydro = ctx.timers.scope("hydro");
    LaunchCounter launches;
    done = run_to(
        *domain, ctx.comm, pb.t_end, o.courant, o.max_steps,
        [&](long long, double t) { return progress.update(static_cast<long long>(1000 * t / pb.t_end), t); }, o.guard);
    launched = double(launches.launches());
  }
  MPI_Barrier(ctx.comm);
  const double elapsed = MPI_Wtime() - t0;
  progress.finish();
  const double t = done.time;
  const long long steps = done.steps;

  const ZoneBlock mine = domain->local();
  double local_max = 0;
  for (double x : mine.f) local_max = std::max(local_max, std::fabs(x));
  ctx.require_finite(local_max, "final state");
  verify_problem(ctx, o, pb, mine, t, steps, initial);
  if (o.verify.against_reference) compare_with_reference(ctx, o, pb, mine, steps);

  RunResults r;
  r.steps = steps;
  r.time = t;
  r.elapsed_s = elapsed;
  r.zone_cycles = double(g.nx) * g.ny * steps;
  // phase times: this rank's kernel seconds (summed over threads), averaged over ranks
  PhaseTimes ph = domain->phase_times;
  MPI_Allreduce(ph.data(), r.phases_s.data(), nphases, MPI_DOUBLE, MPI_SUM, ctx.comm);
  for (double& seconds : r.phases_s) seconds /= ctx.size;
  r.communication_mean_s = ctx.timers.reduce(ctx.comm, {{"hydro/communication"}}, Timers::OverRanks::mean)[0];
  r.exchanges = domain->messages;
  const std::vector<double> slowest =
      ctx.timers.reduce(ctx.comm, {{"hydro/communication"}, {"hydro/courant"}}, Timers::OverRanks::max);
  r.communication_s = slowest[0];
  r.courant_s = slowest[1];
  const double per_step = steps > 0 ? 1.0 / double(steps) : 0.0;
  CommCount exchange = domain->exchange_count();
  exchange.calls = double(domain->messages) * per_step;
  std::vector<CommCount> comms{{"allreduce", 1, 8, 1, ctx.size}};  // dtcon's global max, once per step
  if (ctx.size > 1) comms.push_back(exchange);
  r.model_counts =
      model_counts_json("time step (an x and a y sweep)",
                        {{"ppm_sweeps", "calibrated", 0, 0, 2.0 * g.nx * g.ny,
                          (ctx.timers.seconds("hydro/sweep_x") + ctx.timers.seconds("hydro/sweep_y")) * per_step}},
                        comms, launched * per_step, ctx.comm);
  if (o.algorithm == DomainAlgorithm::transpose)
    set_max_ranks(r.model_counts, std::min(g.nx, g.ny));  // a column and a row per rank (make_domain)
  publish_results(ctx, r);
  if (limits_requested(ctx.config)) {
    // The sweeps have no byte count of their own: each reads and writes this rank's state once (every variable of
    // every own zone, ghosts left out), the compulsory traffic of a PPM sweep.
    const double state_bytes = 8.0 * double(mine.f.size());
    const std::vector<double> sweeps =
        ctx.timers.reduce(ctx.comm, {{"hydro/sweep_x"}, {"hydro/sweep_y"}}, Timers::OverRanks::max);
    LimitsBuilder limits("time step (an x and a y sweep)", ctx.comm);
    limits.memory({"x sweep", {"hydro/sweep_x"}}, 2 * state_bytes, sweeps[0] * per_step);
    limits.memory({"y sweep", {"hydro/sweep_y"}}, 2 * state_bytes, sweeps[1] * per_step);
    if (ctx.size > 1) limits.exchange({"exchange", {"hydro/communication"}}, exchange, r.communication_s * per_step);
    publish_results(ctx, limits.section());
  }
  ctx.report.set_fom("zone-cycles per second", r.zone_cycles / elapsed, "zone-cycles/s");

  // the whole density on rank 0, only when a file asks for it
  if (!o.density_file.empty())
    ctx.write_outputs([&] { density.write(gather_density(ctx.comm, 0, mine, g), g, t, to_string(pb.kind)); });
}

}  // namespace

AppSpec app_spec() {
  return {"evh1", "EVH1 / VH-1 PPM Lagrangian-remap hydrodynamics (Sod, Sedov, advection; transpose or halo)", declare,
          run};
}

}  // namespace proxylab::evh1
