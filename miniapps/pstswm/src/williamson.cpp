// STSWM: anlytc (analytic solutions of test cases 2 and 6).
#include "williamson.hpp"

#include <cmath>

#include "truncation.hpp"

namespace proxylab::pstswm {
namespace {
constexpr double pi = 3.14159265358979323846;
constexpr double rh_omega = 7.848e-6, rh_k = 7.848e-6, rh_h0 = 8000.0;
constexpr int rh_r = 4;
}  // namespace

double level_factor(int level) { return 1.0 + 0.01 * level; }

double coriolis(double lambda, double mu, double alpha) {
  const double c = std::sqrt((1.0 - mu) * (1.0 + mu));
  return 2.0 * omega * (-std::cos(lambda) * c * std::sin(alpha) + mu * std::cos(alpha));
}

FlowPoint case2(double lambda, double mu, double alpha, int level) {
  const double u0 = 2.0 * pi * earth_radius / (12.0 * 86400.0), gh0 = 2.94e4 * level_factor(level);
  const double c = std::sqrt((1.0 - mu) * (1.0 + mu)), sa = std::sin(alpha), ca = std::cos(alpha);
  const double s = -std::cos(lambda) * c * sa + mu * ca;
  FlowPoint p;
  p.u = u0 * (c * ca + std::cos(lambda) * mu * sa);
  p.v = -u0 * std::sin(lambda) * sa;
  p.phi = gh0 - (earth_radius * omega * u0 + 0.5 * u0 * u0) * s * s;
  return p;
}

FlowPoint case6(double lambda, double mu, int level) {
  const double w = rh_omega, K = rh_k, R = rh_r, a = earth_radius;
  const double c = std::sqrt((1.0 - mu) * (1.0 + mu)), c2 = c * c;
  const double cR = std::pow(c, R), cR1 = std::pow(c, R - 1.0), c2R = cR * cR;
  FlowPoint p;
  p.u = a * w * c + a * K * cR1 * (R * mu * mu - c2) * std::cos(R * lambda);
  p.v = -a * K * R * cR1 * mu * std::sin(R * lambda);
  const double A = 0.5 * w * (2.0 * omega + w) * c2 +
                   0.25 * K * K * c2R * ((R + 1.0) * c2 + (2.0 * R * R - R - 2.0) - 2.0 * R * R / c2);
  const double B =
      2.0 * (omega + w) * K / ((R + 1.0) * (R + 2.0)) * cR * ((R * R + 2.0 * R + 2.0) - (R + 1.0) * (R + 1.0) * c2);
  const double C = 0.25 * K * K * c2R * ((R + 1.0) * c2 - (R + 2.0));
  p.phi =
      gravity * rh_h0 * level_factor(level) + a * a * (A + B * std::cos(R * lambda) + C * std::cos(2.0 * R * lambda));
  return p;
}

double rossby_haurwitz_speed() {
  const double R = rh_r;
  return (R * (3.0 + R) * rh_omega - 2.0 * omega) / ((1.0 + R) * (2.0 + R));
}

FlowPoint initial_flow(int test_case, double alpha, double lambda, double mu, int level) {
  return test_case == 2 ? case2(lambda, mu, alpha, level) : case6(lambda, mu, level);
}

double case_coriolis(int test_case, double alpha, double lambda, double mu) {
  return coriolis(lambda, mu, test_case == 2 ? alpha : 0.0);
}

}  // namespace proxylab::pstswm
