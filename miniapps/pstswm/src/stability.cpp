// The explicit leapfrog's time step limit (see stability.hpp).
#include "stability.hpp"

#include <cmath>

#include "truncation.hpp"
#include "williamson.hpp"

namespace proxylab::pstswm {

double leapfrog_stability_bound(double asselin) { return std::sqrt((1.0 - asselin) / (1.0 + asselin)); }

// The initial state sampled every degree of latitude (poles excluded: case 6's formula divides by cos²θ there) and
// longitude: its largest ω is within 3e-5 of the maximum over the sphere (against a 0.1° sample, T2-T4000, 1 and 96
// levels, α from -4 to 4). The geopotential grows with the level (level_factor): the top level holds the fastest waves.
FastestWave fastest_wave(const ModelOptions& model, int ntrunc, int levels) {
  constexpr double degree = 3.14159265358979323846 / 180.0;
  const double k = std::sqrt(double(ntrunc) * (ntrunc + 1.0)) / earth_radius;
  FastestWave fastest;
  for (int lat = -89; lat <= 89; ++lat)
    for (int lon = 0; lon < 360; ++lon) {
      const double lambda = lon * degree, mu = std::sin(lat * degree);
      const FlowPoint p = initial_flow(model.test_case, model.alpha, lambda, mu, levels - 1);
      const double f = case_coriolis(model.test_case, model.alpha, lambda, mu);
      const double wind = std::hypot(p.u, p.v), phase_speed = std::sqrt(p.phi);
      const double frequency = wind * k + std::sqrt(p.phi * k * k + f * f);
      if (frequency > fastest.frequency) fastest = {frequency, wind, phase_speed};
    }
  return fastest;
}

double stable_time_step(const ModelOptions& model, int ntrunc, int levels) {
  return leapfrog_stability_bound(model.asselin) / fastest_wave(model, ntrunc, levels).frequency;
}

}  // namespace proxylab::pstswm
