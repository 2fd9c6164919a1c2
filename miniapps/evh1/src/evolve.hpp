// Lagrangian update of one sweep (VH-1: evolve, slab geometry): the zone faces move with umid for dt,
// mass per zone is kept, velocity and total energy change by the pressure forces and the pdV work
// of the interface pressures pmid.
#pragma once
#include <Kokkos_Core.hpp>

#include "gas.hpp"
#include "lanes.hpp"

namespace proxylab::evh1 {

// Zones [lo, hi); reads umid/pmid on faces [lo, hi]. In: r, p, u, v. Out: dm (zone mass), dxl (Lagrangian
// width), r, u and e (specific total energy).
template <int B, class Lanes = AllLanes>
KOKKOS_INLINE_FUNCTION void evolve(const double* KOKKOS_RESTRICT umid, const double* KOKKOS_RESTRICT pmid, double dt,
                                   double dx, const Gas& gas, double* KOKKOS_RESTRICT r,
                                   const double* KOKKOS_RESTRICT p, double* KOKKOS_RESTRICT u,
                                   const double* KOKKOS_RESTRICT v, double* KOKKOS_RESTRICT e,
                                   double* KOKKOS_RESTRICT dm, double* KOKKOS_RESTRICT dxl, int lo, int hi,
                                   Lanes lanes = {}) {
  const double gm1 = gas.gamma - 1.0;
  for (int i = lo * B + lanes.first; i < hi * B; i += lanes.step) {
    const int k = i + B;
    const double mass = r[i] * dx, dtbdm = dt / mass;
    const double etot = p[i] / (gm1 * r[i]) + 0.5 * (u[i] * u[i] + v[i] * v[i]);
    dm[i] = mass;
    dxl[i] = dx + dt * (umid[k] - umid[i]);
    r[i] = mass / dxl[i];
    u[i] = u[i] - dtbdm * (pmid[k] - pmid[i]);
    e[i] = etot - dtbdm * (umid[k] * pmid[k] - umid[i] * pmid[i]);
  }
}

}  // namespace proxylab::evh1
