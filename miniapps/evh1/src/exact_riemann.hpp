// Exact solution of the Riemann problem for an ideal gas (Toro, "Riemann Solvers and Numerical
// Methods for Fluid Dynamics", ch. 4): Newton iteration for the star pressure, then sampling of the
// self-similar solution at x/t. Used to verify the Sod tube and to test the two-shock solver.
#pragma once

namespace proxylab::evh1 {

struct Primitive {
  double rho = 1, u = 0, p = 1;
};

struct StarRegion {
  double p = 0, u = 0, rho_left = 0, rho_right = 0;
  int iterations = 0;
};

// Star-region pressure and velocity (to relative 1e-14) and the densities either side of the contact.
StarRegion exact_star(const Primitive& left, const Primitive& right, double gamma);

// The solution at speed s = (x - x0) / t.
Primitive exact_sample(const Primitive& left, const Primitive& right, double gamma, const StarRegion& star, double s);

}  // namespace proxylab::evh1
