// Exact solution of the Riemann problem for an ideal gas (Toro, "Riemann Solvers and Numerical
// Methods for Fluid Dynamics", ch. 4): every wave pattern (shock or rarefaction on either side,
// transonic fans included), vacuum generated between two rarefactions (2/(gamma-1) (cL + cR) <= uR - uL,
// Toro 4.6) and initial vacuum states (rho = 0). Newton iteration for the star pressure, then sampling
// of the self-similar solution at s = (x - x0) / t. Verifies the evh1 shock tubes, tests the two-shock solver.
#pragma once
#include <string>

namespace proxylab::evh1 {

struct Primitive {
  double rho = 1, u = 0, p = 1;  // rho = 0 is vacuum (then u and p are ignored)
};

// The star region between the two nonlinear waves, or the vacuum between them.
struct StarRegion {
  double p = 0, u = 0, rho_left = 0, rho_right = 0;  // vacuum: p = rho = 0, u undefined
  int iterations = 0;                                // Newton iterations for p (0: no iteration needed)
  bool vacuum = false;  // the gas does not fill the star region: vacuum generated or given as a state
  double vacuum_left = 0, vacuum_right = 0;  // vacuum: speeds of its edges (-inf / +inf at a vacuum state)
};

// Star-region pressure and velocity (to relative 1e-14) and the densities either side of the contact, or
// the vacuum edges. InputError-free: any two states with rho >= 0, p > 0 (where rho > 0) and gamma > 1.
StarRegion exact_star(const Primitive& left, const Primitive& right, double gamma);

// The solution at speed s = (x - x0) / t. In a vacuum rho = p = 0 and u = s (the limit of the fans'
// velocity at their vacuum edge).
Primitive exact_sample(const Primitive& left, const Primitive& right, double gamma, const StarRegion& star, double s);

// Speeds of the outermost wave fronts: outside [left, right] the solution is the initial state.
struct WaveSpan {
  double left = 0, right = 0;
};
WaveSpan wave_span(const Primitive& left, const Primitive& right, double gamma, const StarRegion& star);

// The waves in words, left to right, e.g. "rarefaction (-1.18 .. -0.07), contact 0.93, shock 1.75".
std::string describe_waves(const Primitive& left, const Primitive& right, double gamma, const StarRegion& star);

}  // namespace proxylab::evh1
