// pstswm's deck into RunOptions (see run_options.hpp).
#include "run_options.hpp"

#include <cmath>
#include <string>

#include "legendre_transform.hpp"
#include "truncation.hpp"

namespace proxylab::pstswm {

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
  t.fixed_levels = cfg.boolean("transform.fixed_levels");
  t.fuse_fold = cfg.boolean("transform.fuse_fold");
  if (t.fuse_fold && !mem_space_on_host)
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
  m.dt = cfg.real("time.dt");
  if (m.dt == 0.0) {  // explicit limit: (c + |u|) sqrt(N(N+1)) dt / a < 1
    const double speed = m.test_case == 2 ? std::sqrt(2.94e4 * 1.96) + 40.0 : std::sqrt(gravity * 8000 * 1.96) + 110.0;
    const double limit = earth_radius / (speed * std::sqrt(double(t.ntrunc) * (t.ntrunc + 1)));
    m.dt = 3600.0 / std::ceil(3600.0 / (0.6 * limit));  // a divisor of one hour
  }
  s.steps = cfg.integer("time.steps");
  if (s.steps == 0) s.steps = (long long)std::llround(cfg.real("time.days") * 86400.0 / m.dt);
  if (s.steps < 1) cfg.reject("time.days", "a run of at least one time step (time.days * 86400 >= time.dt)");
  s.case2_tolerance = cfg.real("verify.case2_tolerance");
  s.mass_tolerance = cfg.real("verify.mass_tolerance");
  s.energy_tolerance = cfg.real("verify.energy_tolerance");
  s.drift_tolerance = cfg.real("verify.drift_tolerance");
  s.measure_dgemm = cfg.boolean("perf.measure_dgemm");
  s.measure_fft = cfg.boolean("perf.measure_fft");
  s.fft_wisdom = cfg.text("transform.fft_wisdom");
  return s;
}

}  // namespace proxylab::pstswm
