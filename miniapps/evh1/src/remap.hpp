// Conservative remap of the Lagrangian zones back onto the fixed grid (VH-1: remap, slab geometry).
// Face n moved by delta = dt * umid(n); the sliver between old and new face position is moved to the
// neighbouring fixed zone with the parabola average of the donor Lagrangian zone. Mass, momentum and
// total energy move as fluxes (mass flux times the specific quantity), so their sums telescope.
#pragma once
#include <Kokkos_Core.hpp>

#include "gas.hpp"
#include "lanes.hpp"
#include "parabola.hpp"
#include "proxylab/kmath.hpp"

namespace proxylab::evh1 {

// Fluxes through faces [lo, hi] of a quantity with parabola (al, ar, a6) per Lagrangian zone of width
// dxl: fq(n) = fm(n) * average of q over the sliver. fm: mass flux (already computed), or nullptr to
// compute the volume-weighted flux itself (for density: fm = delta * rho average).
template <int B, class Lanes = AllLanes>
KOKKOS_INLINE_FUNCTION void remap_flux(const double* KOKKOS_RESTRICT umid, double dt, const double* KOKKOS_RESTRICT dxl,
                                       const double* KOKKOS_RESTRICT al, const double* KOKKOS_RESTRICT ar,
                                       const double* KOKKOS_RESTRICT a6, const double* KOKKOS_RESTRICT fm,
                                       double* KOKKOS_RESTRICT flux, int lo, int hi, Lanes lanes = {}) {
  for (int i = lo * B + lanes.first; i < (hi + 1) * B; i += lanes.step) {
    const int j = i - B;  // zone n - 1 (left of face n); zone n is i
    const double delta = dt * umid[i];
    const double from_left = right_edge_average(al[j], ar[j], a6[j], delta / dxl[j]);
    const double from_right = left_edge_average(al[i], ar[i], a6[i], -delta / dxl[i]);
    flux[i] = delta >= 0.0 ? from_left : from_right;  // the average over the sliver
  }
  if (fm)
    for (int i = lo * B + lanes.first; i < (hi + 1) * B; i += lanes.step) flux[i] *= fm[i];
  else
    for (int i = lo * B + lanes.first; i < (hi + 1) * B; i += lanes.step) flux[i] *= dt * umid[i];
}

// New fixed-grid zones [lo, hi): r, u, v, p from the Lagrangian masses dm and the fluxes at faces i and
// k = i + B; vol(i): the fixed-grid volume of element i. The body stays in this loop with plain gas
// constants: called through an inline helper taking pointers and a Gas reference, GCC 12 does not
// vectorize it ("no vectype for stmt"); written here it does, in both mappings.
template <int B, class Volume, class Lanes = AllLanes>
KOKKOS_INLINE_FUNCTION void remap_update_with(const double* KOKKOS_RESTRICT dm, const double* KOKKOS_RESTRICT fm,
                                              const double* KOKKOS_RESTRICT fu, const double* KOKKOS_RESTRICT fv,
                                              const double* KOKKOS_RESTRICT fe, Volume vol, const Gas& gas,
                                              double* KOKKOS_RESTRICT r, double* KOKKOS_RESTRICT p,
                                              double* KOKKOS_RESTRICT u, double* KOKKOS_RESTRICT v,
                                              const double* KOKKOS_RESTRICT e, int lo, int hi, Lanes lanes = {}) {
  const double gm1 = gas.gamma - 1.0, smallr = gas.smallr, smallp = gas.smallp;
  for (int i = lo * B + lanes.first; i < hi * B; i += lanes.step) {
    const int k = i + B;
    // each net flux first: the mirror image of the zone gets the same sums bit for bit
    const double mass = dm[i] + (fm[i] - fm[k]);
    const double unew = (dm[i] * u[i] + (fu[i] - fu[k])) / mass;
    const double vnew = (dm[i] * v[i] + (fv[i] - fv[k])) / mass;
    const double enew = (dm[i] * e[i] + (fe[i] - fe[k])) / mass;
    const double rnew = mass / vol(i);
    // A cold, fast zone can come out of the remap with more kinetic energy than total energy (the parabolae of u
    // and e are separate); VH-1 then raises p to smallp, which adds energy. Here the velocity is scaled down to
    // leave the floor's thermal energy, so that the total energy stays what the fluxes brought.
    const double kinetic = 0.5 * (unew * unew + vnew * vnew), thermal_min = smallp / (gm1 * rnew);
    const double spare = enew - thermal_min;
    const double scale = enew - kinetic >= thermal_min ? 1.0 : spare > 0.0 ? kmath::sqrt(spare / kinetic) : 0.0;
    const double pnew = gm1 * rnew * (enew - kinetic * (scale * scale));
    r[i] = rnew > smallr ? rnew : smallr;
    u[i] = unew * scale;
    v[i] = vnew * scale;
    p[i] = pnew > smallp ? pnew : smallp;
  }
}

// Slab: every zone has the volume dx.
template <int B, class Lanes = AllLanes>
KOKKOS_INLINE_FUNCTION void remap_update(const double* dm, const double* fm, const double* fu, const double* fv,
                                         const double* fe, double dx, const Gas& gas, double* r, double* p, double* u,
                                         double* v, const double* e, int lo, int hi, Lanes lanes = {}) {
  remap_update_with<B>(
      dm, fm, fu, fv, fe, [dx](int) { return dx; }, gas, r, p, u, v, e, lo, hi, lanes);
}

// Curvilinear: the volume of element i is vol[i] (zone-major with lanes).
template <int B, class Lanes = AllLanes>
KOKKOS_INLINE_FUNCTION void remap_update_volumes(const double* dm, const double* fm, const double* fu, const double* fv,
                                                 const double* fe, const double* vol, const Gas& gas, double* r,
                                                 double* p, double* u, double* v, const double* e, int lo, int hi,
                                                 Lanes lanes = {}) {
  remap_update_with<B>(
      dm, fm, fu, fv, fe, [vol](int i) { return vol[i]; }, gas, r, p, u, v, e, lo, hi, lanes);
}

}  // namespace proxylab::evh1
