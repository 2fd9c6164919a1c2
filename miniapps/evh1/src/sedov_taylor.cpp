// The energy integral alpha of the Sedov-Taylor blast. Similarity variables (Landau & Lifshitz, Fluid Mechanics,
// sec. 106, for any nu): at eta = r / R(t), with delta = 2 / (nu + 2),
//   u = delta (r / t) V(eta),   c^2 = delta^2 (r / t)^2 Z(eta),   rho = rho0 G(eta).
// Continuity, momentum and entropy give, per d ln(eta), the changes of V, ln G and ln Z; the energy inside every
// similarity surface is constant, which gives Z as a function of V alone,
//   Z = gamma (gamma - 1) (1 - V) V^2 / (2 (gamma V - 1)),
// so that d ln(eta) / dV and d ln(G) / dV are functions of V alone: the closed-form solution of Sedov (1959, ch. IV)
// and Kamm & Timmes (2007) is their integral, evaluated here numerically (the closed form's exponents are singular
// at gamma = 2). V runs from 2 / (gamma + 1) behind the shock (G = (gamma + 1) / (gamma - 1),
// Z = 2 gamma (gamma - 1) / (gamma + 1)^2) to 1 / gamma at the centre, which it approaches as a power of eta; the
// integration variable is s = ln(V - 1 / gamma), on which every rate tends to a constant. Then
//   E = sigma_nu rho0 delta^2 R^(nu + 2) / t^2  int_0^1 G (Z / (gamma (gamma - 1)) + V^2 / 2) eta^(nu + 1) d eta,
// sigma_2 = 2 pi, sigma_3 = 4 pi: alpha = sigma_nu delta^2 times the integral.
#include "sedov_taylor.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace proxylab::evh1 {
namespace {

constexpr double pi = 3.14159265358979323846;

// d/ds of y = (ln eta, ln G, the energy integral) at s = ln x, x = V - 1 / gamma.
using State = std::array<double, 3>;
State rates(double s, const State& y, double gamma, int nu) {
  const double delta = 2.0 / (nu + 2), x = std::exp(s), v = 1.0 / gamma + x;
  const double w_per_x = 2.0 / ((gamma - 1) * (1 - v) * v * v);  // 1 / (Z x): finite as x -> 0
  const double w = w_per_x * x;                                  // 1 / Z
  const double den = delta * (1 - w * (v - 1) * (v - 1));        // > 0: the flow behind the shock is subsonic
  // d V / d ln(eta), divided by x, and d ln(G) / d ln(eta)
  const double dv = (w_per_x * v * (v - 1) * (delta * v - 1) - nu * delta) / den;
  const double dg = (w * (v - delta * v * v + delta * nu * v * (v - 1)) -
                     (2 * delta / gamma + 2 * (1 - delta * v) / (gamma * (v - 1)))) /
                    den;
  const double deta = 1.0 / dv;  // d ln(eta) / ds
  // G (Z / (gamma (gamma - 1)) + V^2 / 2) eta^(nu + 2) d ln(eta) / ds, with Z = 1 / (w_per_x x)
  const double weight = y[1] + (nu + 2) * y[0];
  const double energy =
      (std::exp(weight - s) / (w_per_x * gamma * (gamma - 1)) + 0.5 * v * v * std::exp(weight)) * deta;
  return {deta, dg * deta, energy};
}

// Classical Runge-Kutta from the shock (eta = 1) inwards until eta^nu < 1e-18 (the rest of the integral, whose
// integrand falls as eta^nu, is below the round-off). Steps of at most 0.01 in ln(eta) and 0.01 in s near the
// shock, growing with the distance from it in s (near the centre every rate is nearly constant): about 2200 steps
// for any gamma, relative error 1e-9 (halving the step changes alpha by less than that over gamma = 1.01-5).
double energy_integral(double gamma, int nu) {
  constexpr double step = 0.01, ln_eta_nu_end = -41.4;  // eta^nu = 1e-18
  const double s0 = std::log(2.0 / (gamma + 1) - 1.0 / gamma);
  double s = s0;
  State y{0.0, std::log((gamma + 1) / (gamma - 1)), 0.0};  // at the shock
  auto along = [](const State& a, double h, const State& k) {
    return State{a[0] + h * k[0], a[1] + h * k[1], a[2] + h * k[2]};
  };
  while (nu * y[0] > ln_eta_nu_end) {
    const State k1 = rates(s, y, gamma, nu);
    const double h = -step * std::min(1.0 / std::fabs(k1[0]), 1.0 + (s0 - s));
    const State k2 = rates(s + 0.5 * h, along(y, 0.5 * h, k1), gamma, nu);
    const State k3 = rates(s + 0.5 * h, along(y, 0.5 * h, k2), gamma, nu);
    const State k4 = rates(s + h, along(y, h, k3), gamma, nu);
    for (int c = 0; c < 3; ++c) y[c] += h / 6 * (k1[c] + 2 * k2[c] + 2 * k3[c] + k4[c]);
    s += h;
  }
  return -y[2];  // the integral from eta = 0 to 1 (s ran downwards)
}

}  // namespace

double SedovTaylor::radius(double energy, double rho0, double t) const {
  return xi0 * std::pow(energy * t * t / rho0, 1.0 / (nu + 2));
}

double SedovTaylor::time_at(double energy, double rho0, double r) const {
  return std::sqrt(std::pow(r / xi0, nu + 2) * rho0 / energy);
}

double SedovTaylor::shock_speed(double energy, double rho0, double t) const {
  return 2.0 * radius(energy, rho0, t) / ((nu + 2) * t);
}

SedovTaylor sedov_taylor(double gamma, int nu) {
  SedovTaylor s;
  s.nu = nu;
  s.gamma = gamma;
  const double delta = 2.0 / (nu + 2), sigma = nu == 3 ? 4 * pi : 2 * pi;
  s.alpha = sigma * delta * delta * energy_integral(gamma, nu);
  s.xi0 = std::pow(s.alpha, -1.0 / (nu + 2));
  return s;
}

}  // namespace proxylab::evh1
