// Two-shock Riemann solver of VH-1 (van Leer 1979 Newton iteration on the Lagrangian wave speeds):
// given left/right (p, u, rho) it returns the interface pressure p* and velocity u*.
// Iterations per interface (Gas::riemann_iterations, riemann_tolerance): VH-1 stops an interface when
// |p*_new - p*_old| / p*_new < tolerance (1e-5, at most 12 iterations); EVH1's vector template always runs 8
// (tolerance 0, iterations 8). Every mapping applies the rule per interface, so all give the same numbers.
#pragma once
#include <Kokkos_Core.hpp>

#include "gas.hpp"
#include "proxylab/kmath.hpp"

namespace proxylab::evh1 {

// One interface's Lagrangian states after the floors: pressures, velocities, sound speeds C = sqrt(gamma p rho)
// and specific volumes V = 1 / rho of the left (l) and right (r) side.
struct RiemannStates {
  double pl, ul, cl, vl, pr, ur, cr, vr;
};

KOKKOS_INLINE_FUNCTION RiemannStates riemann_states(double p_left, double u_left, double r_left, double p_right,
                                                    double u_right, double r_right, const Gas& gas) {
  RiemannStates s;
  s.pl = p_left > gas.smallp ? p_left : gas.smallp;
  const double rl = r_left > gas.smallr ? r_left : gas.smallr;
  s.pr = p_right > gas.smallp ? p_right : gas.smallp;
  const double rr = r_right > gas.smallr ? r_right : gas.smallr;
  s.ul = u_left;
  s.ur = u_right;
  s.cl = kmath::sqrt(gas.gamma * s.pl * rl);
  s.cr = kmath::sqrt(gas.gamma * s.pr * rr);
  s.vl = 1.0 / rl;
  s.vr = 1.0 / rr;
  return s;
}

// The acoustic first guess of p* (VH-1: riemann, before the iterations), (pl cr + pr cl - cl cr (ur - ul)) /
// (cl + cr) written symmetric in the two sides: the mirror image of an interface (sides swapped, velocities negated)
// gets the same p* bit for bit (the Newton steps are symmetric too).
KOKKOS_INLINE_FUNCTION double riemann_guess(const RiemannStates& s, double smallp) {
  const double pm = ((s.pl * s.cr + s.pr * s.cl) - s.cl * s.cr * (s.ur - s.ul)) / (s.cl + s.cr);
  return pm > smallp ? pm : smallp;
}

// One Newton step on p* (VH-1: riemann, the body of the iteration loop).
KOKKOS_INLINE_FUNCTION double riemann_newton(const RiemannStates& s, double pm, const Gas& gas) {
  const double gamfac1 = 0.5 * (gas.gamma + 1.0) / gas.gamma, gamfac2 = gas.gamma + 1.0;
  const double wl = s.cl * kmath::sqrt(1.0 + gamfac1 * (pm - s.pl) / s.pl);
  const double wr = s.cr * kmath::sqrt(1.0 + gamfac1 * (pm - s.pr) / s.pr);
  double zl = 4.0 * s.vl * wl * wl, zr = 4.0 * s.vr * wr * wr;
  zl = -zl * wl / (zl - gamfac2 * (pm - s.pl));
  zr = zr * wr / (zr - gamfac2 * (pm - s.pr));
  const double uml = s.ul - (pm - s.pl) / wl, umr = s.ur + (pm - s.pr) / wr;
  const double pnew = pm + (umr - uml) * (zl * zr) / (zr - zl);
  return pnew > gas.smallp ? pnew : gas.smallp;
}

// VH-1's stopping rule: the relative change of p* in the last step is below the tolerance.
KOKKOS_INLINE_FUNCTION bool riemann_converged(double pold, double pnew, double tolerance) {
  return kmath::fabs(pnew - pold) / pnew < tolerance;
}

// u* from p*: the mean of the left and right shock relations.
KOKKOS_INLINE_FUNCTION double riemann_velocity(const RiemannStates& s, double pm, double gamma) {
  const double gamfac1 = 0.5 * (gamma + 1.0) / gamma;
  const double wl = s.cl * kmath::sqrt(1.0 + gamfac1 * (pm - s.pl) / s.pl);
  const double wr = s.cr * kmath::sqrt(1.0 + gamfac1 * (pm - s.pr) / s.pr);
  return 0.5 * ((s.ul - (pm - s.pl) / wl) + (s.ur + (pm - s.pr) / wr));
}

// VH-1: riemann for one interface (the reference the vectorized loops of states.hpp are tested against).
KOKKOS_INLINE_FUNCTION void two_shock(double pl, double ul, double rl, double pr, double ur, double rr, const Gas& gas,
                                      double& pstar, double& ustar) {
  const RiemannStates s = riemann_states(pl, ul, rl, pr, ur, rr, gas);
  double pm = riemann_guess(s, gas.smallp);
  for (int it = 0; it < gas.riemann_iterations; ++it) {
    const double pnew = riemann_newton(s, pm, gas);
    const bool done = riemann_converged(pm, pnew, gas.riemann_tolerance);
    pm = pnew;
    if (done) break;
  }
  pstar = pm;
  ustar = riemann_velocity(s, pm, gas.gamma);
}

}  // namespace proxylab::evh1
