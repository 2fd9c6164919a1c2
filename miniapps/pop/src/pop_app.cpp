// POP barotropic proxy driver: builds the grid, the block decomposition and POP's 9-point operator,
// sets b = A x* for a smooth known x*, solves A x = b with the chosen solver and communication
// variants, verifies (true residual against POP2's criterion, error against x*), and records
// iterations, global sums, halo updates and bytes per iteration with the time split into
// operator / vector updates / halo / reductions. FOM: solver time per iteration.
#include "pop_app.hpp"

#include <cmath>

#include "backend.hpp"
#include "bench_check.hpp"
#include "convergence_hint.hpp"
#include "error_bound.hpp"
#include "memory_estimate.hpp"
#include "operator_output.hpp"
#include "pop_results.hpp"
#include "proxylab/launch_counter.hpp"
#include "proxylab/model_counts.hpp"
#include "proxylab/perf_limits.hpp"
#include "proxylab/progress.hpp"
#include "proxylab/run_results.hpp"
#include "run_options.hpp"
#include "solver.hpp"
#include "verify.hpp"

namespace proxylab::pop {
namespace {

void declare(Schema& s) {
  s.integer("grid.nx", 320, 4, 100000, "T-points in longitude (periodic); x1 = 320, tenth = 3600");
  s.integer("grid.ny", 384, 4, 100000, "T-points in latitude (closed at both ends); x1 = 384, tenth = 2400");
  s.real("grid.lat_south", -78.0, -89.0, 89.0, "southern edge of the grid (degrees)");
  s.real("grid.lat_north", 78.0, -89.0, 89.0, "northern edge of the grid (degrees)");
  s.real("grid.dt", 3600.0, 1.0, 1e6, "barotropic time step (s): sets the implicit time term of the operator");
  s.integer("decomp.px", 0, 0, 1 << 20, "process grid in x (0 = automatic)");
  s.integer("decomp.py", 0, 0, 1 << 20, "process grid in y (0 = automatic)");
  s.boolean("decomp.eliminate_land", false,
            "POP's land-block elimination: decomp.px x decomp.py is the block grid, all-land blocks get no rank, "
            "and the run needs one rank per remaining block (false: every block has a rank; all-land ones idle)");
  s.choice("comm.halo", HaloStrategy::packed, "halo update strategy (common/comm/halo.hpp)");
  s.integer("comm.halo_width", 2, 1, 2, "ghost cells per side (POP2 uses 2)");
  s.choice("comm.reduce", ReduceStrategy::allreduce, "global sum strategy (common/comm/reduce.hpp)");
  s.choice("solver.name", SolverKind::pcg, "barotropic solver");
  s.real("solver.crit", 1e-13, 0.0, 1.0,
         "convergence: sum r^2 < crit^2 sum TAREA^2 (POP2); 0 = benchmark mode, exactly max_iters iterations");
  s.integer("solver.max_iters", 1000, 1, 100000000, "iteration limit");
  s.integer("solver.check_freq", 10, 1, 100000, "iterations between true-residual convergence checks");
  s.choice("solver.mapping", Mapping::flat, "loop mapping of the operator and vector kernels");
  s.boolean("solver.fused", true, "fused vector updates (one pass per iteration phase) or one kernel per statement");
  s.boolean("solver.replace", true, "pipecg: residual replacement at each convergence check");
  s.boolean("solver.phase_timers", backend::synchronous_kernels,
            "time each phase of the iteration in its own (fenced) timer region; false: the iterations as one region "
            "(no host wait per kernel: the default on a device)");
  s.integer("pcsi.lanczos_steps", 40, 2, 1000, "pcsi: Lanczos steps for the eigenvalue bounds");
  s.real("pcsi.mu_safety", 1.05, 1.0, 10.0, "pcsi: factor on the largest Ritz value");
  s.real("pcsi.nu_safety", 1.0, 0.01, 1.0, "pcsi: factor on the smallest Ritz value");
  s.real("verify.error_tol", 0.0, 0.0, 1.0,
         "limit on the area-weighted relative L2 error against x* (converged runs); 0 = the error solver.crit "
         "guarantees on this grid and dt (README: how a run verifies itself)");
  s.boolean("bench.stream", false, "also measure STREAM triad on arrays of the block's size and compare bandwidths");
  s.file("output.operator_file", FileUse::output,
         "write the operator on the ocean points, b, the solution and the index map in Matrix Market format (PATH, "
         "STEM.rhs.mtx, STEM.solution.mtx, STEM.index.mtx) for outside solvers: verify/pop_direct_solve.py PATH",
         operator_file_names);
}

// The converged runs' limit on the error against x*: verify.error_tol when set, else the error that a true residual
// within solver.crit guarantees (error_bound.hpp). A guarantee that x = 0 (error exactly 1) meets would judge
// nothing: refused before the solve, with the largest solver.crit that gives a meaningful one.
double converged_error_limit(const Config& cfg, const RunOptions& o, const ErrorBound& bound) {
  if (o.error_tol > 0) return o.error_tol;
  const double limit = bound.limit(o.solver.crit);
  if (limit >= 1.0)
    cfg.reject("solver.crit",
               text_printf("below %.2e on this grid with grid.dt = %g s: a true residual within solver.crit = %.2e "
                           "guarantees an error against x* below %.3g only, which x = 0 (error 1) would pass; or a "
                           "smaller grid.dt, or verify.error_tol to set the error limit yourself",
                           bound.crit_for(1.0), o.grid.dt, o.solver.crit, limit));
  return limit;
}

double max_over_ranks(double v, MPI_Comm comm) {
  double g = v;
  MPI_Allreduce(&v, &g, 1, MPI_DOUBLE, MPI_MAX, comm);
  return g;
}
double sum_over_ranks(double v, MPI_Comm comm) {
  double g = v;
  MPI_Allreduce(&v, &g, 1, MPI_DOUBLE, MPI_SUM, comm);
  return g;
}

void run(RunContext& ctx) {
  const RunOptions o = read_options(ctx.config);
  const GridSpec& g = o.grid;
  const SolverOptions& opt = o.solver;
  const HaloStrategy halo = o.halo;
  const ReduceStrategy red = o.reduce;
  const int width = o.halo_width;
  unpool_large_allocations();
  require_memory(ctx.comm, estimate_memory(o, ctx.size), "grid.nx x grid.ny");

  OperatorFiles operator_files(ctx.comm, o.operator_file);  // checked before the run
  std::unique_ptr<Domain> dom;
  Operator op;
  View2D<double> x, xstar, b;
  {
    auto t = ctx.timers.scope("setup");
    dom = std::make_unique<Domain>(ctx.comm, g, o.px, o.py, width, halo, o.eliminate_land, ctx.comm_options);
    ctx.check_stop();  // Ctrl-C is seen between the set-up phases (and inside build_operator's bathymetry)
    op = build_operator(*dom, opt.mapping);
    ctx.check_stop();
    x = dom->field("pop::X");
    xstar = dom->field("pop::Xstar");
    b = dom->field("pop::B");
    exact_problem(op, *dom, opt.mapping, xstar, b);
    ctx.check_stop();
  }
  const ErrorBound bound = opt.crit > 0 ? error_bound(*dom, op, xstar) : ErrorBound{};
  const double error_limit = opt.crit > 0 ? converged_error_limit(ctx.config, o, bound) : 0.0;
  SetupSummary setup;
  setup.grid = g;
  setup.ocean_fraction = ocean_fraction(*dom, op);
  setup.px = dom->grid().px();
  setup.py = dom->grid().py();
  setup.ranks = dom->grid().size();
  setup.land_blocks_eliminated = dom->land_eliminated();
  setup.all_land_blocks = dom->all_land_blocks();
  setup.nx_local = dom->nx_local();
  setup.ny_local = dom->ny_local();
  setup.halo_width = width;
  setup.halo = halo;
  setup.reduce = red;
  setup.solver = opt;
  publish_results(ctx, setup);

  GlobalSum gsum(red, dom->comm());
  Progress progress(ctx, opt.max_iters, "iteration");
  MPI_Barrier(ctx.comm);
  const double t0 = MPI_Wtime();
  SolveStats st;
  double launched = 0, waits = 0;  // Kokkos kernel launches and fences of this rank in the solve
  {
    LaunchCounter launches;
    st = solve(*dom, op, gsum, ctx.timers, opt, b, x, [&](int m) { return progress.update(m); });
    launched = double(launches.launches());
    waits = double(launches.fences());
    Kokkos::fence();
  }
  const double t_solve = max_over_ranks(MPI_Wtime() - t0, ctx.comm);
  const double launches_per_iteration = launched / std::max(1, st.iterations);
  progress.finish();

  // ---- verification -----------------------------------------------------------------------------
  const SolutionError err = solution_error(*dom, op, x, xstar);
  ctx.require_finite(err.rel_l2, "error against x*");
  const double tarea_norm = std::sqrt(st.tarea2);
  const double res_rel = std::sqrt(st.rr_final) / tarea_norm;
  if (opt.crit > 0) {
    const bool ran_out = !st.converged && st.iterations == opt.max_iters;  // not stopped by Ctrl-C
    ctx.report.check_le("true residual ||r|| / ||TAREA|| below solver.crit", res_rel, opt.crit,
                        "after " + std::to_string(st.iterations) + " iterations" +
                            (ran_out ? "; " + convergence_hint(st, opt, bound.residual_round_off) : std::string()));
    ctx.report.check_le("area-weighted relative L2 error against x*", err.rel_l2, error_limit,
                        o.error_tol > 0 ? "limit verify.error_tol" : "limit: what solver.crit guarantees");
  } else {
    const std::string after = "after exactly " + std::to_string(st.iterations) + " iterations";
    const double energy = energy_norm_difference(*dom, op, x, xstar);
    ctx.report.check("benchmark mode: energy norm of the error ||x - x*||_A / ||x*||_A", energy < 1.0, energy, 1.0,
                     after + " from x = 0, strictly below the limit (a Krylov solver reduces it)");
    if (!ctx.interrupted()) {  // a stopped run promised no iteration count: no reference run to hold it to
      const ReferenceCheck rc = compare_with_reference(*dom, op, opt, b, x, xstar, st.iterations);
      ctx.report.check_le("benchmark mode: iterate vs the reference variant's (" + rc.reference + ")", rc.difference,
                          rc.limit, after + ", limit 1000 eps per iteration + 2 x the reference's error vs x*");
    }
  }

  if (operator_files.matrix.enabled())
    ctx.write_outputs([&] {
      const OperatorCounts n = write_operator(operator_files, *dom, op, b, x,
                                              {to_string(opt.kind), st.iterations, st.converged, opt.crit, tarea_norm});
      publish_results(
          ctx, OperatorFileSummary{operator_files.matrix.path(), operator_files.rhs.path(),
                                   operator_files.solution.path(), operator_files.index.path(), n.rows, n.entries});
    });

  // ---- record -------------------------------------------------------------------------------------
  const int it = st.iterations > 0 ? st.iterations : 1;
  const double bytes_all = sum_over_ranks(st.bytes, ctx.comm), flops_all = sum_over_ranks(st.flops, ctx.comm);
  // The slowest rank's seconds in each region of the solve.
  const std::vector<double> t = ctx.timers.reduce(ctx.comm,
                                                  {{"solve/operator"},
                                                   {"solve/vector"},
                                                   {"solve/halo"},
                                                   {"solve/reduction"},
                                                   {"solve/operator+reduction"},
                                                   {"solve/vector+reduction"},
                                                   {"solve/precond+reduction"},
                                                   {"solve/lanczos"},
                                                   {"solve/iterations"}},
                                                  Timers::OverRanks::max);
  const double t_op = t[0], t_vec = t[1], t_halo = t[2], t_red = t[3], t_fused = t[4] + t[5] + t[6];
  // The kernels' time: their phases' where they are timed (SolverOptions::phase_timers), else the whole iterations'.
  const double t_kernels = opt.phase_timers ? t_op + t_vec + t_fused : t[8];
  SolveResults r;
  r.solver = opt.kind;
  r.iterations = st.iterations;
  r.converged = st.converged;
  r.residual_rel_tarea = res_rel;
  r.residual_initial_rel_tarea = std::sqrt(st.rr_initial) / tarea_norm;
  r.error_rel_l2 = err.rel_l2;
  r.error_rel_max = err.rel_max;
  r.reductions_per_iteration = double(st.reductions) / it;
  r.reduction_words_per_iteration = double(st.reduction_words) / it;
  r.halo_updates_per_iteration = double(st.halo_updates) / it;
  r.halo_bytes_per_update_per_rank_max = max_over_ranks(double(dom->halo().bytes_per_exchange()), ctx.comm);
  r.bytes_per_iteration_all_ranks = bytes_all / it;
  r.flops_per_iteration_all_ranks = flops_all / it;
  r.host_waits_per_iteration = waits / it;
  r.setup_reductions = st.setup_reductions;
  r.setup_halo_updates = st.setup_halo_updates;
  r.setup_seconds = t[7];  // pcsi's eigenvalue bounds (inside the solve time)
  r.solve_seconds = t_solve;
  r.seconds_per_iteration = t_solve / it;  // solve time (set-up included) / iterations
  r.per_iteration = {t_op / it, t_vec / it, t_fused / it, t_halo / it, t_red / it};
  for (const auto& [m, rr] : st.history) r.residual_history.emplace_back(m, std::sqrt(rr) / tarea_norm);
  r.pcsi_nu = st.nu;
  r.pcsi_mu = st.mu;
  const double words_per_sum = st.reductions > 0 ? double(st.reduction_words) / double(st.reductions) : 0.0;
  r.model_counts = model_counts_json(
      "solver iteration", {{"operator and vectors", "memory", flops_all / it, bytes_all / it, 0, t_kernels / it}},
      {{"halo", double(st.halo_updates) / it, double(dom->halo().bytes_per_exchange()),
        double(dom->halo().messages_per_exchange()), dom->grid().size()},
       {"allreduce", double(st.reductions) / it, 8.0 * words_per_sum, 1, dom->grid().size()}},
      launches_per_iteration, ctx.comm);
  if (o.bench_stream) {
    const double block_bytes = 8.0 * (dom->nx_local() + 2 * width) * (dom->ny_local() + 2 * width);
    r.stream_measured = true;
    r.kernel_bandwidth_gbs = t_kernels > 0 ? bytes_all / t_kernels * 1e-9 : 0.0;
    r.triad_bandwidth_gbs = sum_over_ranks(triad_bytes_per_second(3 * block_bytes), ctx.comm) * 1e-9;
  }
  publish_results(ctx, r);
  if (limits_requested(ctx.config)) {
    // The operator and vector kernels are counted together (Workspace::count), the fused kernel+sum regions with them.
    LimitsBuilder limits("solver iteration", ctx.comm);
    if (opt.phase_timers) {
      limits.memory({"operator and vector kernels",
                     {"solve/operator", "solve/vector", "solve/operator+reduction", "solve/vector+reduction",
                      "solve/precond+reduction"}},
                    st.bytes / it, t_kernels / it);
      limits.exchange({"halo", {"solve/halo"}},
                      {"halo", double(st.halo_updates) / it, double(dom->halo().bytes_per_exchange()),
                       double(dom->halo().messages_per_exchange()), dom->grid().size()},
                      t_halo / it);
      limits.exchange({"global sums", {"solve/reduction"}},
                      {"allreduce", double(st.reductions) / it, 8.0 * words_per_sum, 1, ctx.size}, t_red / it);
    } else {  // one phase: the kernels' bytes over the whole iteration's time (halo and sums in it)
      limits.memory({"whole iteration (kernels+halo+sums)", {"solve/iterations"}}, st.bytes / it, t_kernels / it);
    }
    publish_results(ctx, limits.section());
  }
  ctx.report.set_fom("solver time per iteration", t_solve / it * 1e6, "us");
}

}  // namespace

AppSpec app_spec() {
  return {"pop", "POP barotropic solver: 9-point operator, PCG / ChronGear / P-CSI / pipelined CG", declare, run};
}

}  // namespace proxylab::pop
