// Cylindrical radial sweeps (VH-1: volume and the area factors of evolve/remap for ngeom = 1): zone
// volumes 0.5 (r_R^2 - r_L^2) per radian and unit length, face areas r. Signed forms r|r| keep the ghost
// zones mirrored across the axis r = 0. Slab sweeps use evolve() / remap_* with volume = width.
#pragma once
#include <Kokkos_Core.hpp>

#include "gas.hpp"
#include "parabola.hpp"
#include "proxylab/kmath.hpp"

namespace proxylab::evh1 {

KOKKOS_INLINE_FUNCTION double radial_volume(double rl, double rr) {
  return 0.5 * (rr * kmath::fabs(rr) - rl * kmath::fabs(rl));
}

// Face radii of zones [lo, hi] (face n at origin + (first + n) dx) into rf (one value per zone, no lanes).
inline void face_radii(double origin, int first, double dx, double* rf, int lo, int hi) {
  for (int n = lo; n <= hi; ++n) rf[n] = origin + double(first + n) * dx;
}

// evolve() for a radial sweep: the faces move to r + dt umid, the pressure force acts through the mean
// of the half-time face areas, the work through each face's half-time area.
template <int B>
inline void evolve_radial(const double* KOKKOS_RESTRICT umid, const double* KOKKOS_RESTRICT pmid,
                          const double* KOKKOS_RESTRICT rf, double dt, double dx, const Gas& gas,
                          double* KOKKOS_RESTRICT r, const double* KOKKOS_RESTRICT p, double* KOKKOS_RESTRICT u,
                          const double* KOKKOS_RESTRICT v, double* KOKKOS_RESTRICT e, double* KOKKOS_RESTRICT dm,
                          double* KOKKOS_RESTRICT dxl, int lo, int hi) {
  const double gm1 = gas.gamma - 1.0;
  for (int n = lo; n < hi; ++n)
    for (int l = 0; l < B; ++l) {
      const int i = n * B + l, k = i + B;
      const double r0 = rf[n], r1 = rf[n + 1];
      const double a0 = kmath::fabs(r0 + 0.5 * dt * umid[i]), a1 = kmath::fabs(r1 + 0.5 * dt * umid[k]);
      const double mass = r[i] * radial_volume(r0, r1), dtbdm = dt / mass;
      const double etot = p[i] / (gm1 * r[i]) + 0.5 * (u[i] * u[i] + v[i] * v[i]);
      dm[i] = mass;
      dxl[i] = dx + dt * (umid[k] - umid[i]);
      r[i] = mass / radial_volume(r0 + dt * umid[i], r1 + dt * umid[k]);
      u[i] = u[i] - dtbdm * 0.5 * (a0 + a1) * (pmid[k] - pmid[i]);
      e[i] = etot - dtbdm * (a1 * umid[k] * pmid[k] - a0 * umid[i] * pmid[i]);
    }
}

// remap_flux() volume factor for a radial sweep: flux[i] holds the sliver's average of rho (from
// remap_flux with fm = nullptr, i.e. delta * average); turn delta into the sliver's volume.
template <int B>
inline void radial_sliver_volumes(const double* KOKKOS_RESTRICT umid, const double* KOKKOS_RESTRICT rf, double dt,
                                  double* KOKKOS_RESTRICT flux, int lo, int hi) {
  for (int n = lo; n <= hi; ++n)
    for (int l = 0; l < B; ++l) {
      const int i = n * B + l;
      const double delta = dt * umid[i];
      flux[i] = delta != 0.0 ? flux[i] / delta * radial_volume(rf[n], rf[n] + delta) : 0.0;
    }
}

}  // namespace proxylab::evh1
