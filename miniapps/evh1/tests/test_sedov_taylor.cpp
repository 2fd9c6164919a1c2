// The Sedov-Taylor constant for any gamma: against the published values, and against a second, independent
// integration of the similarity equations (continuity, momentum and entropy stepped in ln(eta), without the energy
// integral Z(V) that sedov_taylor.cpp relies on).
#include <array>
#include <cmath>

#include "proxylab/testing.hpp"
#include "sedov_taylor.hpp"

using namespace proxylab::evh1;
using proxylab::testing::allclose;

namespace {

// alpha from the similarity ODEs in s = ln(eta): with a = d ln G / ds, b = d ln(G Z) / ds, c = dV/ds,
//   continuity (V - 1) a + c = -nu V,
//   momentum   (delta / gamma) b + delta (V - 1) c / Z = (V - delta V^2) / Z - 2 delta / gamma,
//   entropy    delta (V - 1) (b - gamma a) = 2 - 2 delta V,
// from the strong-shock values at eta = 1 inwards to eta = e^-12 (classical Runge-Kutta, 20000 steps).
double alpha_by_ode(double gamma, int nu) {
  const double delta = 2.0 / (nu + 2), pi = 3.14159265358979323846;
  using State = std::array<double, 4>;  // V, ln G, ln(G Z), energy integral
  auto rates = [&](double s, const State& y) {
    const double v = y[0], w = std::exp(y[1] - y[2]);           // w = 1 / Z
    const double e2 = (2 - 2 * delta * v) / (delta * (v - 1));  // b - gamma a
    // substitute b = gamma a + e2 and c = -nu V - (V - 1) a into the momentum equation
    const double a = ((v - delta * v * v) * w - 2 * delta / gamma - delta / gamma * e2 + delta * (v - 1) * nu * v * w) /
                     (delta - delta * (v - 1) * (v - 1) * w);
    const double energy =
        (std::exp(y[2] + (nu + 2) * s) / (gamma * (gamma - 1)) + 0.5 * v * v * std::exp(y[1] + (nu + 2) * s));
    return State{-nu * v - (v - 1) * a, a, gamma * a + e2, energy};
  };
  const double z = 2 * gamma * (gamma - 1) / ((gamma + 1) * (gamma + 1)), g = (gamma + 1) / (gamma - 1);
  State y{2 / (gamma + 1), std::log(g), std::log(g * z), 0.0};
  const int n = 20000;
  const double h = -12.0 / n;
  auto along = [](const State& a, double f, const State& k) {
    return State{a[0] + f * k[0], a[1] + f * k[1], a[2] + f * k[2], a[3] + f * k[3]};
  };
  for (int k = 0; k < n; ++k) {
    const double s = k * h;
    const State k1 = rates(s, y), k2 = rates(s + h / 2, along(y, h / 2, k1)),
                k3 = rates(s + h / 2, along(y, h / 2, k2)), k4 = rates(s + h, along(y, h, k3));
    for (int c = 0; c < 4; ++c) y[c] += h / 6 * (k1[c] + 2 * k2[c] + 2 * k3[c] + k4[c]);
  }
  return (nu == 3 ? 4 * pi : 2 * pi) * delta * delta * -y[3];
}

}  // namespace

TEST_CASE("Sedov-Taylor constant: the published values", "[evh1][sedov]") {
  // gamma = 1.4 (docs/references.md, evh1): xi0 = 1.00402 (nu = 2), 1.03278 (nu = 3); Kamm & Timmes' alpha
  CHECK(allclose(sedov_taylor(1.4, 2).xi0, 1.00402, 5e-6));
  CHECK(allclose(sedov_taylor(1.4, 3).xi0, 1.03278, 5e-6));
  CHECK(allclose(sedov_taylor(1.4, 2).alpha, 0.984074, 1e-6));
  CHECK(allclose(sedov_taylor(1.4, 3).alpha, 0.851072, 1e-6));
  // a monatomic gas, spherical: xi0 = 1.15167
  CHECK(allclose(sedov_taylor(5.0 / 3.0, 3).xi0, 1.15167, 5e-6));
}

TEST_CASE("Sedov-Taylor constant: the energy integral agrees with the similarity ODEs at every gamma",
          "[evh1][sedov]") {
  for (int nu : {2, 3})
    for (double gamma : {1.2, 1.4, 2.0, 3.0, 5.0}) {
      INFO("nu = " << nu << ", gamma = " << gamma);
      CHECK(allclose(sedov_taylor(gamma, nu).alpha, alpha_by_ode(gamma, nu), 1e-6));
    }
}

TEST_CASE("Sedov-Taylor solution: R(t) and the time at a radius invert each other", "[evh1][sedov]") {
  const SedovTaylor s = sedov_taylor(1.1, 2);  // a thin, dense shell: xi0 = 0.70708
  CHECK(allclose(s.xi0, 0.707079, 1e-5));
  CHECK(allclose(s.time_at(2.0, 0.5, s.radius(2.0, 0.5, 0.03)), 0.03, 1e-12));
  CHECK(allclose(s.shock_speed(2.0, 0.5, 0.03), 0.5 * s.radius(2.0, 0.5, 0.03) / 0.03, 1e-12));
  CHECK(allclose(s.density_jump(), 21.0, 1e-12));
}
