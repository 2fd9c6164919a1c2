// PSTSWM driver: reads the deck, builds the Gaussian grid, the spectral transform (LT variant, level
// binding, parallel algorithm) and the shallow water model, runs the time steps with progress, then
// verifies (case 2: height error norms against the exact steady solution; case 6: mass and energy
// conservation, drift speed of the Rossby–Haurwitz wave) and reports the time split (FFT, Legendre
// transform, grid-point work, communication), FFT and LT GFLOP/s and communication volume.
#include "pstswm_app.hpp"

#include <cmath>
#include <utility>

#include "backend.hpp"
#include "gauss.hpp"
#include "memory_estimate.hpp"
#include "proxylab/blas.hpp"
#include "proxylab/fft.hpp"
#include "proxylab/fft_wisdom.hpp"
#include "proxylab/launch_counter.hpp"
#include "proxylab/model_counts.hpp"
#include "proxylab/perf_limits.hpp"
#include "proxylab/progress.hpp"
#include "proxylab/run_results.hpp"
#include "pstswm_results.hpp"
#include "run_options.hpp"
#include "shallow_water.hpp"
#include "williamson.hpp"

namespace proxylab::pstswm {
namespace {

void declare(Schema& s) {
  s.integer("model.truncation", 42, 1, 4000,
            "triangular truncation N (TN); PSTSWM's table (seed 000): 5 10 21 42 85 170 340 680");
  s.integer("model.levels", 18, 1, 96, "independent vertical levels L (the vectorisable dimension)");
  s.choice("model.case", TestCase::case2,
           "Williamson test case: case2 steady zonal flow (exact), case6 Rossby-Haurwitz wave");
  s.real("model.alpha", 0.0, -4.0, 4.0, "case 2 rotation angle alpha [rad] (0, 0.05, pi/2-0.05, pi/2 in Williamson)");
  s.real("model.asselin", 0.01, 0.0, 0.5, "Robert-Asselin filter coefficient");
  s.integer("grid.nlat", 0, 0, 100000, "Gaussian latitudes (even); 0 = PSTSWM's table / 3N+1 rule");
  s.integer("grid.nlon", 0, 0, 200000, "longitudes; 0 = PSTSWM's table / 3N+1 rule");
  s.real("time.dt", 0.0, 0.0, 1e5,
         "time step [s], at most the explicit leapfrog's stability limit for the case and truncation; 0 = automatic "
         "(60% of that limit)");
  s.real("time.days", 5.0, 0.0, 1e4, "simulated days (used when time.steps = 0): a whole number of steps of time.dt");
  s.integer("time.steps", 0, 0, 100000000, "time steps; 0 = time.days / time.dt");
  s.choice(
      "transform.lt", LTVariant::gemm,
      "Legendre transform: gemm (DGEMM on even/odd-split fields, as ectrans), loop (Kokkos kernels), or "
      "recurrence (gemm's DGEMMs with the Legendre functions recomputed per wavenumber instead of stored, as SHTns; "
      "host back ends)");
  s.boolean("transform.fixed_levels", false,
            "loop LT with the level count fixed at compile time (levels 1, 18 or 96 only)");
  s.choice("parallel.algorithm", Algorithm::transpose,
           "parallel Legendre transform: transpose (alltoallv to wavenumbers) or distributed (partial sums)");
  s.choice("parallel.combine", Combine::allreduce,
           "distributed: combine partial sums by allreduce (inverse needs no communication) or reduce_scatter "
           "(+ allgather before the inverse) or ring (PSTSWM ring pipeline: neighbour reduce-scatter + allgather)");
  s.choice("parallel.transpose", TransposeStrategy::alltoallv, "transpose: all-to-all strategy (common/comm)");
  s.real("verify.case2_tolerance", 1e-10, 0.0, 1.0, "case 2: largest allowed normalized l1, l2, linf height error");
  s.real("verify.mass_tolerance", 1e-12, 0.0, 1.0,
         "largest allowed relative change of the global mean geopotential (mass); round-off only");
  s.real("verify.energy_tolerance", 1e-4, 0.0, 1.0, "case 6: largest allowed relative change of total energy");
  s.real("verify.drift_tolerance", 0.1, 0.0, 10.0,
         "case 6: largest allowed relative difference of the wave's drift speed from the analytic nu");
  s.boolean("transform.fuse_fold", backend::latitude_pair_ffts,
            "FFT and fold (north/south even/odd combination) per latitude pair and field while its rows are in cache "
            "(host back ends only: the default there); false: one batched FFT of all rows, then the fold (two passes "
            "over the Fourier coefficients; the default and the only way on a device)");
  s.boolean("transform.fuse_grid_point", backend::latitude_pair_ffts,
            "the latitude loop: per latitude pair, the inverse FFTs, the grid-point products and the forward "
            "FFTs while the pair's rows are in cache (needs transform.fuse_fold: host back ends, the default there); "
            "false: every latitude's inverse FFTs, the products over the whole grid, then the forward FFTs");
  s.choice("transform.fft_planning", FFTPlanning::estimate,
           "FFTW planning of the longitude FFTs: estimate (the same plan every run: bitwise reproducible), measure "
           "(FFTW times candidate plans at set-up and keeps the fastest, as SHTns does; results may differ in the last "
           "bits between runs) or patient (a wider set of candidates timed)");
  s.file("transform.fft_wisdom", FileUse::rewritten,
         "FFTW wisdom file for the longitude FFTs: read before planning when it exists (its plans are made at once "
         "and are the same from run to run), written after the run with every plan made (fft_planning measure or "
         "patient; host back ends); empty: none");
  s.boolean("perf.measure_dgemm", false,
            "measure the DGEMM rate (1024^3; OpenBLAS on a host, cuBLAS on a GPU) in the same run for the LT gemm "
            "fraction");
  s.boolean("perf.measure_fft", false,
            "measure one batched r2c + c2r plan (FFTW on a host, cuFFT on a GPU) of the run's own shape alone, in the "
            "same run, for the FFT stage's fraction of it");
}

// The ceiling of the FFT stage: one batched plan of the stage's shape (5 fields: every local row) on the default
// execution space (FFTW on a host, cuFFT on a GPU), r2c and c2r, best of 3, GFLOP/s per rank.
double measure_fft_gflops(const TransformOptions& t, MPI_Comm comm) {
  int size = 1, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  const int pairs = Decomposition(t.nlat, t.ntrunc, size, rank).my_pairs().size();
  const int rows = max_transform_fields * 2 * pairs * t.levels;
  const int nh = t.nlon / 2 + 1;
  View1D<double> grid("pstswm::fft_grid", size_t(rows) * t.nlon);
  View1D<Kokkos::complex<double>> four("pstswm::fft_four", size_t(rows) * nh);
  const auto r2c = fft_plan(ExecSpace(), FFTShape::lines(FFTKind::r2c, t.nlon, rows, false, t.fft_planning));
  const auto c2r = fft_plan(ExecSpace(), FFTShape::lines(FFTKind::c2r, t.nlon, rows, false, t.fft_planning));
  r2c.execute(grid, four);  // a device library plans on its first call
  c2r.execute(four, grid);
  Kokkos::fence();
  double best = 1e300;
  for (int k = 0; k < 3; ++k) {
    const double t0 = MPI_Wtime();
    r2c.execute(grid, four);
    c2r.execute(four, grid);
    Kokkos::fence();
    best = std::min(best, MPI_Wtime() - t0);
  }
  return (r2c.flops() + c2r.flops()) / best * 1e-9;
}

// Flops and bytes of the timed steps, per rank or summed over ranks (the model counts and rates come from these).
struct RunTotals {
  double fft_flops = 0, legendre_flops = 0, grid_point_flops = 0;
  double comm_bytes = 0, legendre_bytes = 0, grid_point_bytes = 0, spectral_bytes = 0;
};
constexpr int run_totals_count = sizeof(RunTotals) / sizeof(double);
static_assert(sizeof(RunTotals) == run_totals_count * sizeof(double), "RunTotals holds doubles only");

RunTotals sum_over_ranks(const RunTotals& mine, MPI_Comm comm) {
  RunTotals all;
  MPI_Allreduce(&mine, &all, run_totals_count, MPI_DOUBLE, MPI_SUM, comm);
  return all;
}

void run(RunContext& ctx) {
  const RunOptions s = read_options(ctx.config, ctx.comm_options);
  const auto& t = s.tr;
  require_memory(ctx.comm, estimate_memory(t, ctx.comm), "model.truncation, model.levels (grid.nlat, grid.nlon)");
  static_assert(sizeof(LegendreMemory) == 2 * sizeof(double), "LegendreMemory holds two doubles");
  LegendreMemory legendre = legendre_memory(t, ctx.comm);
  MPI_Allreduce(MPI_IN_PLACE, &legendre, 2, MPI_DOUBLE, MPI_MAX, ctx.comm);
  publish_results(ctx, SetupSummary{t, s.model, s.steps, ctx.size, legendre});
  if (t.lt != LTVariant::loop && backend::host_blas)  // the host BLAS runs the Legendre transform
    if (const std::string warning = host_blas_warning(); !warning.empty())
      ctx.out() << "  WARNING: " << warning << "\n";

  FFTWisdomFile wisdom(ctx.comm, "transform.fft_wisdom", s.fft_wisdom, t.fft_planning);  // before any plan
  publish_results(ctx, wisdom);
  const double dgemm = s.measure_dgemm ? measure_dgemm_gflops(1024, 3) : 0.0;
  const double fft_alone = s.measure_fft ? measure_fft_gflops(t, ctx.comm) : 0.0;
  ctx.check_stop();  // Ctrl-C is seen between the set-up phases (and inside the Gauss points' loop)
  GaussGrid gauss = gauss_grid(t.nlat);
  ctx.check_stop();
  SphericalTransform tr(t, std::move(gauss), ctx.comm, ctx.timers);
  ctx.check_stop();
  ShallowWater model(tr, s.model, ctx.timers);
  ctx.check_stop();
  const Diagnostics d0 = model.diagnose();
  const auto c0 = model.vorticity_coefficient(4, 5);
  const TransformStats before = tr.stats();
  const PhaseCounts gp_before = model.grid_point_counts(), sp_before = model.spectral_counts();

  // Time loop; the case 6 phase of ζ(m=4, n=5) is sampled every simulated hour (unwrapped).
  const long long sample = std::max<long long>(1, (long long)std::llround(3600.0 / s.model.dt));
  double phase = std::arg(c0), phase_prev = phase;
  Progress progress(ctx, s.steps, "step");
  const double t0 = MPI_Wtime();
  double launched = 0;  // Kokkos kernel launches of this rank in the time loop
  {
    auto region = ctx.timers.scope("timestep");
    LaunchCounter launches;
    for (long long k = 0; k < s.steps; ++k) {
      model.step();
      if (model.steps() % sample == 0 || k + 1 == s.steps) {
        const double p = std::arg(model.vorticity_coefficient(4, 5));
        phase += std::remainder(p - phase_prev, 2.0 * M_PI);
        phase_prev = p;
        ctx.require_finite(p, "vorticity coefficient (4,5) at step " + std::to_string(model.steps()));
      }
      if (!progress.update(model.steps(), model.time() / 86400.0, "days")) break;
    }
    launched = double(launches.launches());
  }
  // The counts of the time loop only: the diagnostics below transform the state once more.
  const TransformStats st = tr.stats();
  const PhaseCounts gp = model.grid_point_counts(), sp = model.spectral_counts();
  progress.finish();
  double wall = MPI_Wtime() - t0;
  MPI_Allreduce(MPI_IN_PLACE, &wall, 1, MPI_DOUBLE, MPI_MAX, ctx.comm);
  const Diagnostics d = model.diagnose();
  ctx.require_finite(d.mass + d.energy + d.l2, "diagnostics");

  // ---- verification -----------------------------------------------------------------------------
  RunResults r;
  r.test_case = s.model.test_case;
  r.steps = model.steps();
  r.l1 = d.l1;
  r.l2 = d.l2;
  r.linf = d.linf;
  r.mass_rel_change = std::fabs(d.mass - d0.mass) / std::fabs(d0.mass);
  r.energy_rel_change = std::fabs(d.energy - d0.energy) / std::fabs(d0.energy);
  const double days = model.time() / 86400.0;
  if (s.model.test_case == 2) {
    const double tol = s.verify.case2;
    const std::string after = text_printf("after %.3g days vs the exact steady solution", days);
    ctx.report.check_le("case 2 normalized l1 height error", d.l1, tol, after);
    ctx.report.check_le("case 2 normalized l2 height error", d.l2, tol, after);
    ctx.report.check_le("case 2 normalized linf height error", d.linf, tol, after);
  }
  ctx.report.check_le("mass conservation (relative change)", r.mass_rel_change, s.verify.mass,
                      "spectral: the global mean of Phi has no tendency; round-off only");
  if (s.model.test_case == 6) {
    ctx.report.check_le("total energy conservation (relative change)", r.energy_rel_change, s.verify.energy,
                        "time truncation and Asselin filter");
    const double nu = rossby_haurwitz_speed(), nu_num = -(phase - std::arg(c0)) / (4.0 * model.time());
    const double rel = std::fabs(nu_num / nu - 1.0);
    if (days >= 0.5)
      ctx.report.check_le(
          "Rossby-Haurwitz drift speed (relative difference)", rel, s.verify.drift,
          text_printf("measured %.5e rad/s vs analytic nu %.5e rad/s (non-divergent theory)", nu_num, nu));
    r.drift_measured = true;
    r.drift_speed = nu_num;
    r.drift_speed_analytic = nu;
  }

  // ---- performance record -----------------------------------------------------------------------
  RunTotals mine;
  mine.fft_flops = st.fft_flops - before.fft_flops;
  mine.legendre_flops = st.lt_flops - before.lt_flops;
  mine.grid_point_flops = gp.flops - gp_before.flops;
  mine.comm_bytes = double(st.comm_bytes - before.comm_bytes);
  mine.legendre_bytes = st.lt_bytes - before.lt_bytes;
  mine.grid_point_bytes = gp.bytes - gp_before.bytes;
  mine.spectral_bytes = sp.bytes - sp_before.bytes;
  const RunTotals total = sum_over_ranks(mine, ctx.comm);
  // The slowest rank's seconds in each stage, the inverse and forward transforms together. The latitude loop
  // (transform.fuse_grid_point) counts as FFT time: its FFTs, fold and unfold with the grid-point products between.
  auto both = [](const std::string& leaf) {
    return Timers::PathGroup{"timestep/inverse/" + leaf, "timestep/forward/" + leaf};
  };
  Timers::PathGroup fft_stage = both("fft");
  fft_stage.push_back("timestep/latitude_loop");
  const std::vector<double> secs = ctx.timers.reduce(ctx.comm,
                                                     {fft_stage,
                                                      both("legendre"),
                                                      both("comm"),
                                                      {"timestep/grid_point", "timestep/spectral"},
                                                      {"timestep/grid_point"},
                                                      {"timestep/spectral"}},
                                                     Timers::OverRanks::max);
  const double t_fft = secs[0], t_lt = secs[1], t_comm = secs[2], t_gp = secs[3];
  // One field transform: one field at one level, grid -> spectral or back (the unit of SHTns' timings).
  const double transforms = double(st.field_transforms - before.field_transforms);
  const double n = double(model.steps());
  r.field_transforms_per_step = transforms / n;
  r.seconds_per_field_transform = transforms > 0 ? (t_fft + t_lt + t_comm) / transforms : 0.0;
  r.per_step = {t_fft / n, t_lt / n, t_gp / n, t_comm / n, wall / n};
  r.fft_gflops = t_fft > 0 ? total.fft_flops / t_fft * 1e-9 / ctx.size : 0;
  r.legendre_gflops = t_lt > 0 ? total.legendre_flops / t_lt * 1e-9 / ctx.size : 0;
  r.dgemm_gflops = dgemm;
  r.fft_alone_gflops = fft_alone;
  r.flops_per_step = {total.fft_flops / n, total.legendre_flops / n, total.grid_point_flops / n};
  r.legendre_bytes_per_step = total.legendre_bytes / n;
  r.communication_bytes_per_step = total.comm_bytes / n;
  const double calls = double(st.comm_calls - before.comm_calls), sent = double(st.comm_bytes - before.comm_bytes);
  const double copied = st.copy_bytes - before.copy_bytes;
  const bool transpose = t.algorithm == Algorithm::transpose;
  std::vector<CommCount> comms;
  if (ctx.size > 1)
    comms.push_back({transpose ? alltoall_pattern(t.strategy) : "allreduce", calls / n, calls > 0 ? sent / calls : 0.0,
                     transpose ? double(ctx.size - 1) : 1.0, ctx.size, calls > 0 ? copied / calls : 0.0});
  r.model_counts = model_counts_json(
      "time step",
      {{"fft", "fft", total.fft_flops / n, 0, 0, t_fft / n},
       {"legendre", "dgemm", total.legendre_flops / n, total.legendre_bytes / n, 0, t_lt / n},
       {"grid_point", "memory", total.grid_point_flops / n, total.grid_point_bytes / n, 0, secs[4] / n},
       {"spectral", "memory", 0, total.spectral_bytes / n, 0, secs[5] / n}},
      comms, launched / n, ctx.comm);
  set_max_ranks(r.model_counts, Decomposition::max_ranks(t.nlat, t.ntrunc));
  publish_results(ctx, r);
  if (limits_requested(ctx.config)) {
    LimitsBuilder limits("time step", ctx.comm);
    limits.fft({"FFT", fft_stage}, mine.fft_flops / n, t_fft / n, "one batched r2c + c2r plan of the stage's shape",
               1e9 * measure_fft_gflops(t, ctx.comm));
    limits.dgemm({"Legendre transform", both("legendre")}, mine.legendre_flops / n, t_lt / n);
    limits.memory({"grid-point products", {"timestep/grid_point"}}, mine.grid_point_bytes / n, secs[4] / n);
    limits.memory({"spectral update", {"timestep/spectral"}}, mine.spectral_bytes / n, secs[5] / n);
    if (!comms.empty()) limits.exchange({"transform communication", both("comm")}, comms.front(), t_comm / n);
    publish_results(ctx, limits.section());
  }
  const double rate = (total.fft_flops + total.legendre_flops + total.grid_point_flops) / wall * 1e-9;
  ctx.report.set_fom("spectral model rate", rate, "GFLOP/s");
  if (!ctx.interrupted()) wisdom.save();  // every plan a finished run made, for the next run with this file
}

}  // namespace

AppSpec app_spec() {
  return {"pstswm",
          "spectral transform shallow water model (PSTSWM): FFT + Legendre transform, transpose vs distributed",
          declare, run};
}

}  // namespace proxylab::pstswm
