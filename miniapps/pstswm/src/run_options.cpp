// pstswm's deck into RunOptions (see run_options.hpp).
#include "run_options.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "backend.hpp"
#include "legendre_transform.hpp"
#include "proxylab/run_results.hpp"
#include "stability.hpp"
#include "truncation.hpp"

namespace proxylab::pstswm {
namespace {

// The steps of a run of time.days: whole steps that end on it (a millionth of a step is round-off). The automatic
// step is lowered to the next divisor of the run; a step given that does not divide it is refused.
long long steps_of_days(const Config& cfg, double& dt, bool automatic_dt) {
  const double run = cfg.real("time.days") * 86400.0, steps = run / dt;
  if (run == 0.0 || (!automatic_dt && steps < 1.0 - 1e-6))
    cfg.reject("time.days",
               text_printf("a run of at least one time step: time.days * 86400 >= time.dt = %g s (or time.steps)", dt));
  const double whole = automatic_dt ? std::max(1.0, std::ceil(steps - 1e-6)) : std::round(steps);
  if (automatic_dt)
    dt = run / whole;
  else if (std::fabs(steps - whole) > 1e-6)
    cfg.reject("time.dt", text_printf("a divisor of the run, time.days * 86400 = %g s (it holds %.6g steps of %g s, "
                                      "not a whole number): e.g. %.12g s (%.0f steps), or time.steps = %.0f",
                                      run, steps, dt, run / std::ceil(steps), std::ceil(steps), std::floor(steps)));
  return (long long)whole;
}

}  // namespace

RunOptions read_options(const Config& cfg, CommOptions comm) {
  RunOptions s;
  auto& t = s.tr;
  t.ntrunc = int(cfg.integer("model.truncation"));
  t.levels = int(cfg.integer("model.levels"));
  const GridSize g = default_grid(t.ntrunc);
  const long long nlat = cfg.integer("grid.nlat"), nlon = cfg.integer("grid.nlon");  // 0 = the table's
  t.nlat = nlat ? int(nlat) : g.nlat;
  t.nlon = nlon ? int(nlon) : g.nlon;
  if (t.nlon < 3 * t.ntrunc + 1)
    cfg.reject("grid.nlon", "at least 3N+1 = " + std::to_string(3 * t.ntrunc + 1) + " (alias-free quadratic terms)");
  if (t.nlat % 2 != 0 || 2 * t.nlat < 3 * t.ntrunc + 1)
    cfg.reject("grid.nlat", "an even number >= (3N+1)/2 = " + std::to_string((3 * t.ntrunc + 2) / 2));
  t.lt = cfg.choice<LTVariant>("transform.lt");
  if (t.lt == LTVariant::recurrence && !backend::legendre_recurrence)
    cfg.reject("transform.lt", std::string("gemm or loop on a device back end (this build's is ") + ExecSpace::name() +
                                   "): recurrence recomputes the Legendre functions on the host");
  t.fixed_levels = cfg.boolean("transform.fixed_levels");
  t.fuse_fold = cfg.boolean("transform.fuse_fold");
  if (t.fuse_fold && !backend::latitude_pair_ffts)
    cfg.reject("transform.fuse_fold",
               std::string("false on a device back end (this build's is ") + ExecSpace::name() +
                   "): the fused FFT and fold call the FFT library per latitude pair from a parallel loop");
  t.fuse_grid_point = cfg.boolean("transform.fuse_grid_point");
  if (t.fuse_grid_point && !t.fuse_fold)
    cfg.reject("transform.fuse_grid_point",
               "false when transform.fuse_fold is false: the latitude loop runs the fused FFT and fold of each pair");
  t.fft_planning = cfg.choice<FFTPlanning>("transform.fft_planning");
  if (t.fixed_levels && !LegendreTransform::level_count_compiled(t.levels))
    cfg.reject("transform.fixed_levels", "true only with model.levels 1, 18 or 96 (the compiled level counts)");
  if (t.fixed_levels && t.lt != LTVariant::loop)
    cfg.reject("transform.fixed_levels", "true only with transform.lt = loop");
  t.algorithm = cfg.choice<Algorithm>("parallel.algorithm");
  t.combine = cfg.choice<Combine>("parallel.combine");
  t.strategy = cfg.choice<TransposeStrategy>("parallel.transpose");
  t.comm = comm;
  auto& m = s.model;
  m.test_case = cfg.choice<TestCase>("model.case") == TestCase::case6 ? 6 : 2;
  // A truncation that cannot hold the test case's fields makes its checks meaningless (case 2 at T1
  // failed 1.9e-2 against 1e-10): case 2's exact steady height goes as sin^2 of the latitude (degree 2),
  // case 6's Rossby-Haurwitz wave of zonal wavenumber 4 has degree 5 (P_5^4).
  const int least = m.test_case == 2 ? 2 : 5;
  if (t.ntrunc < least)
    cfg.reject("model.truncation", "at least " + std::to_string(least) + " for model.case=case" +
                                       std::to_string(m.test_case) + " (" +
                                       (m.test_case == 2 ? "its exact steady height field has degree 2"
                                                         : "the Rossby-Haurwitz wave has degree 5") +
                                       "; a lower truncation cannot hold it)");
  m.alpha = cfg.real("model.alpha");
  m.asselin = cfg.real("model.asselin");
  const double stable_dt = stable_time_step(m, t.ntrunc, t.levels);
  m.dt = cfg.real("time.dt");
  const bool automatic_dt = m.dt == 0.0;
  if (m.dt > stable_dt) {
    const FastestWave w = fastest_wave(m, t.ntrunc, t.levels);
    cfg.reject(
        "time.dt",
        text_printf("at most %.1f s (0 = automatic): the explicit leapfrog's stability limit for model.case=case%d "
                    "at model.truncation=%d, model.levels=%d: omega dt <= %.4f (the Robert-Asselin filtered "
                    "leapfrog's bound at model.asselin=%g), omega = |v| k + sqrt(c^2 k^2 + f^2) of the initial "
                    "state's fastest wave at k = sqrt(N(N+1))/a: wind |v| = %.1f m/s, gravity-wave speed c = "
                    "sqrt(Phi) = %.1f m/s there",
                    std::floor(stable_dt * 10.0) / 10.0, m.test_case, t.ntrunc, t.levels,
                    leapfrog_stability_bound(m.asselin), m.asselin, w.wind, w.phase_speed));
  }
  if (automatic_dt) m.dt = 3600.0 / std::ceil(3600.0 / (0.6 * stable_dt));  // 60% of the limit, a divisor of one hour
  s.steps = cfg.integer("time.steps");
  if (s.steps == 0) s.steps = steps_of_days(cfg, m.dt, automatic_dt);
  s.verify = {cfg.real("verify.case2_tolerance"), cfg.real("verify.mass_tolerance"),
              cfg.real("verify.energy_tolerance"), cfg.real("verify.drift_tolerance")};
  s.measure_dgemm = cfg.boolean("perf.measure_dgemm");
  s.measure_fft = cfg.boolean("perf.measure_fft");
  s.fft_wisdom = cfg.text("transform.fft_wisdom");
  return s;
}

}  // namespace proxylab::pstswm
