// Williamson et al. (1992) shallow water test cases as STSWM sets them up (anlytc / ics):
// case 2, steady zonal geostrophic flow rotated by α (the exact solution is the initial state), and
// case 6, the Rossby–Haurwitz wave of wavenumber R = 4 (drifts eastward at ν, approximately).
// Each vertical level is an independent layer; level l uses the mean height h0 * (1 + 0.01 l) so
// that the levels differ (a level mixed up with another shows in the errors).
#pragma once

namespace proxylab::pstswm {

struct FlowPoint {
  double u = 0, v = 0, phi = 0;  // wind [m/s] and geopotential g h [m^2/s^2]
};

double level_factor(int level);
FlowPoint case2(double lambda, double mu, double alpha, int level);
FlowPoint case6(double lambda, double mu, int level);
double coriolis(double lambda, double mu, double alpha);  // 2Ω(-cosλ cosθ sinα + sinθ cosα)
double rossby_haurwitz_speed();                           // ν [rad/s]

// The state of Williamson case 2 (rotated by alpha) or 6 at a point, and the Coriolis parameter the model uses
// with it (case 6 is not rotated).
FlowPoint initial_flow(int test_case, double alpha, double lambda, double mu, int level);
double case_coriolis(int test_case, double alpha, double lambda, double mu);

}  // namespace proxylab::pstswm
