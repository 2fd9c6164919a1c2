// Two-shock Riemann solver of VH-1 (van Leer 1979 Newton iteration on the Lagrangian wave speeds):
// given left/right (p, u, rho) it returns the interface pressure p* and velocity u*. A fixed count
// of 8 iterations (as EVH1) keeps the loop branch-free, so it vectorizes; an early exit would not.
#pragma once
#include <Kokkos_Core.hpp>

#include "gas.hpp"
#include "proxylab/kmath.hpp"

namespace proxylab::evh1 {

constexpr int riemann_iterations = 8;

// VH-1: riemann (inner body for one interface)
KOKKOS_INLINE_FUNCTION void two_shock(double pl, double ul, double rl, double pr, double ur, double rr, double gamma,
                                      double smallp, double& pstar, double& ustar) {
  const double cl = kmath::sqrt(gamma * pl * rl), cr = kmath::sqrt(gamma * pr * rr);  // Lagrangian sound speeds
  const double vl = 1.0 / rl, vr = 1.0 / rr;
  const double gamfac1 = 0.5 * (gamma + 1.0) / gamma, gamfac2 = gamma + 1.0;
  double pm = pl + (pr - pl - cr * (ur - ul)) * cl / (cl + cr);
  pm = pm > smallp ? pm : smallp;
  double uml = ul, umr = ur;
  for (int it = 0; it < riemann_iterations; ++it) {
    const double wl = cl * kmath::sqrt(1.0 + gamfac1 * (pm - pl) / pl);
    const double wr = cr * kmath::sqrt(1.0 + gamfac1 * (pm - pr) / pr);
    double zl = 4.0 * vl * wl * wl, zr = 4.0 * vr * wr * wr;
    zl = -zl * wl / (zl - gamfac2 * (pm - pl));
    zr = zr * wr / (zr - gamfac2 * (pm - pr));
    uml = ul - (pm - pl) / wl;
    umr = ur + (pm - pr) / wr;
    pm = pm + (umr - uml) * (zl * zr) / (zr - zl);
    pm = pm > smallp ? pm : smallp;
  }
  const double wl = cl * kmath::sqrt(1.0 + gamfac1 * (pm - pl) / pl);
  const double wr = cr * kmath::sqrt(1.0 + gamfac1 * (pm - pr) / pr);
  uml = ul - (pm - pl) / wl;
  umr = ur + (pm - pr) / wr;
  pstar = pm;
  ustar = 0.5 * (uml + umr);
}

}  // namespace proxylab::evh1
