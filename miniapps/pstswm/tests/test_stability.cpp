// The explicit leapfrog's stability limit (src/stability.hpp): the Robert–Asselin filtered leapfrog's bound against the
// amplification factors of the scheme, and the fastest wave of case 2 against its closed form.
#include <algorithm>
#include <cmath>
#include <complex>

#include "proxylab/testing.hpp"
#include "src/stability.hpp"
#include "src/truncation.hpp"
#include "src/williamson.hpp"

using namespace proxylab;

namespace {

// The larger modulus of the amplification factors of the leapfrog y+ = y- + 2 dt iω y with the Robert–Asselin filter
// y- <- y + ν (y+ - 2y + y-) (ShallowWater::update) at ω dt = p: the roots of A² - 2(ν + ip) A + 2ν - 1 + 2iνp = 0.
double amplification(double p, double nu) {
  const std::complex<double> i(0.0, 1.0), b = nu + i * p, c = 2.0 * nu - 1.0 + 2.0 * i * nu * p;
  const std::complex<double> root = std::sqrt(b * b - c);
  return std::max(std::abs(b + root), std::abs(b - root));
}

}  // namespace

TEST_CASE("pstswm: the filtered leapfrog is stable up to its bound and unstable beyond", "[pstswm][stability]") {
  for (double nu : {0.0, 0.01, 0.1, 0.5}) {
    const double bound = pstswm::leapfrog_stability_bound(nu);
    INFO("asselin " << nu << " bound " << bound);
    for (double below : {0.1, 0.5, 0.9, 0.999999}) CHECK(amplification(below * bound, nu) <= 1.0 + 1e-12);
    CHECK(amplification(1.000001 * bound, nu) > 1.0 + 1e-9);
  }
}

TEST_CASE("pstswm: the fastest wave of case 2 is on its rotated equator", "[pstswm][stability]") {
  // From N = 6 on, the Coriolis term no longer outweighs the drop of wind and geopotential away from the rotated
  // equator, where the wind is u0, the geopotential g h0 (top level) and f = 0: ω = (u0 + sqrt(g h0)) sqrt(N(N+1))/a.
  for (double alpha : {0.0, 0.05, 0.7, -2.1})
    for (int n : {6, 42, 340})
      for (int levels : {1, 18}) {
        pstswm::ModelOptions m;
        m.test_case = 2;
        m.alpha = alpha;
        const pstswm::FastestWave w = pstswm::fastest_wave(m, n, levels);
        const double u0 = 2.0 * M_PI * pstswm::earth_radius / (12.0 * 86400.0);
        const double c = std::sqrt(2.94e4 * pstswm::level_factor(levels - 1));
        INFO("alpha " << alpha << " N " << n << " levels " << levels);
        CHECK(w.wind == Approx(u0).epsilon(1e-12));
        CHECK(w.phase_speed == Approx(c).epsilon(1e-12));
        CHECK(w.frequency == Approx((u0 + c) * std::sqrt(n * (n + 1.0)) / pstswm::earth_radius).epsilon(1e-12));
        CHECK(pstswm::stable_time_step(m, n, levels) ==
              Approx(pstswm::leapfrog_stability_bound(m.asselin) / w.frequency));
      }
}
