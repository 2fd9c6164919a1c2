#include "exact_riemann.hpp"

#include <algorithm>
#include <cmath>

#include "proxylab/errors.hpp"

namespace proxylab::evh1 {
namespace {

// Toro eq. 4.6/4.7: the pressure function of one side and its derivative.
void pressure_function(double p, const Primitive& k, double gamma, double& f, double& df) {
  const double c = std::sqrt(gamma * k.p / k.rho);
  if (p > k.p) {  // shock
    const double a = 2.0 / ((gamma + 1.0) * k.rho), b = (gamma - 1.0) / (gamma + 1.0) * k.p;
    const double q = std::sqrt(a / (p + b));
    f = (p - k.p) * q;
    df = q * (1.0 - 0.5 * (p - k.p) / (b + p));
  } else {  // rarefaction
    const double pr = p / k.p;
    f = 2.0 * c / (gamma - 1.0) * (std::pow(pr, (gamma - 1.0) / (2.0 * gamma)) - 1.0);
    df = 1.0 / (k.rho * c) * std::pow(pr, -(gamma + 1.0) / (2.0 * gamma));
  }
}

double star_density(double pstar, const Primitive& k, double gamma) {
  const double g = (gamma - 1.0) / (gamma + 1.0);
  if (pstar > k.p) return k.rho * (pstar / k.p + g) / (g * pstar / k.p + 1.0);
  return k.rho * std::pow(pstar / k.p, 1.0 / gamma);
}

}  // namespace

StarRegion exact_star(const Primitive& left, const Primitive& right, double gamma) {
  const double cl = std::sqrt(gamma * left.p / left.rho), cr = std::sqrt(gamma * right.p / right.rho);
  if (2.0 / (gamma - 1.0) * (cl + cr) <= right.u - left.u)
    throw RuntimeError("exact Riemann solver: vacuum is generated");
  // PVRS guess (Toro eq. 4.47)
  double p = 0.5 * (left.p + right.p) - 0.125 * (right.u - left.u) * (left.rho + right.rho) * (cl + cr);
  p = std::max(p, 1e-8 * std::min(left.p, right.p));
  StarRegion s;
  for (s.iterations = 1; s.iterations <= 100; ++s.iterations) {
    double fl, dfl, fr, dfr;
    pressure_function(p, left, gamma, fl, dfl);
    pressure_function(p, right, gamma, fr, dfr);
    double pnew = p - (fl + fr + right.u - left.u) / (dfl + dfr);
    if (pnew < 0) pnew = 1e-8 * p;
    const double change = 2.0 * std::fabs(pnew - p) / (pnew + p);
    p = pnew;
    if (change < 1e-15) break;
  }
  double fl, dfl, fr, dfr;
  pressure_function(p, left, gamma, fl, dfl);
  pressure_function(p, right, gamma, fr, dfr);
  s.p = p;
  s.u = 0.5 * (left.u + right.u) + 0.5 * (fr - fl);
  s.rho_left = star_density(p, left, gamma);
  s.rho_right = star_density(p, right, gamma);
  return s;
}

Primitive exact_sample(const Primitive& left, const Primitive& right, double gamma, const StarRegion& star, double s) {
  const double g1 = (gamma - 1.0) / (2.0 * gamma), g2 = (gamma + 1.0) / (2.0 * gamma);
  const double g4 = 2.0 / (gamma - 1.0), g5 = 2.0 / (gamma + 1.0), g6 = (gamma - 1.0) / (gamma + 1.0);
  // Mirror the right side onto the left: sampling the right wave is sampling the left wave of the
  // mirrored problem (u -> -u, s -> -s).
  const bool left_side = s <= star.u;
  const Primitive k = left_side ? left : Primitive{right.rho, -right.u, right.p};
  const double us = left_side ? star.u : -star.u, ss = left_side ? s : -s;
  const double rho_star = left_side ? star.rho_left : star.rho_right;
  const double c = std::sqrt(gamma * k.p / k.rho);
  Primitive w;
  if (star.p > k.p) {  // shock
    const double shock_speed = k.u - c * std::sqrt(g2 * star.p / k.p + g1);
    w = ss <= shock_speed ? k : Primitive{rho_star, us, star.p};
  } else {  // rarefaction
    const double head = k.u - c, tail = us - c * std::pow(star.p / k.p, g1);
    if (ss <= head) {
      w = k;
    } else if (ss > tail) {
      w = Primitive{rho_star, us, star.p};
    } else {
      const double cf = g5 * (c + (k.u - ss) / g4);
      w.rho = k.rho * std::pow(cf / c, g4);
      w.u = g5 * (c + k.u / g4 + ss);
      w.p = k.p * std::pow(cf / c, 1.0 / g1);
    }
  }
  if (!left_side) w.u = -w.u;
  return w;
}

}  // namespace proxylab::evh1
