// Curvilinear sweeps (VH-1: volume, forces and the ngeom cases of evolve/remap):
//   cylindrical_radius  ngeom = 1: zone volume (r_R^2 - r_L^2)/2, face area r
//   spherical_radius    ngeom = 2: zone volume (r_R^3 - r_L^3)/3, face area r^2, centrifugal force v^2/r
//   spherical_theta     ngeom = 4: the sweep coordinate is r theta (zone widths r dtheta); zone volume
//                       r (cos theta_L - cos theta_R), face area sin theta, force -u v / r
// Volumes and areas are per radian (the constant factors cancel in every ratio a sweep uses). Every form is
// mirror-symmetric across r = 0 and theta = 0, pi, so reflecting ghost zones beyond an axis are the mirror
// image of the interior ones. Slab sweeps use evolve() / remap_update() with volume = width.
#pragma once
#include <Kokkos_Core.hpp>

#include "gas.hpp"
#include "lanes.hpp"
#include "proxylab/kmath.hpp"

namespace proxylab::evh1 {

enum class SweepGeometry { slab, cylindrical_radius, spherical_radius, spherical_theta };

// Volume between face coordinates a < b (r, or theta); signed: negative for b < a (remap slivers).
KOKKOS_INLINE_FUNCTION double geometry_volume(SweepGeometry g, double a, double b) {
  switch (g) {
    case SweepGeometry::cylindrical_radius:
      return 0.5 * (b * kmath::fabs(b) - a * kmath::fabs(a));
    case SweepGeometry::spherical_radius:  // (b^3 - a^3) / 3 without the cancellation of the cubes
      return (b - a) * (a * a + a * b + b * b) / 3.0;
    case SweepGeometry::spherical_theta:  // cos a - cos b = 2 sin((a + b)/2) sin((b - a)/2), |.| beyond an axis
      return 2.0 * kmath::fabs(kmath::sin(0.5 * (a + b))) * kmath::sin(0.5 * (b - a));
    default:
      return b - a;
  }
}

// Face area averaged over the face's path from coordinate x to x + d during the step (VH-1: amid).
KOKKOS_INLINE_FUNCTION double geometry_area(SweepGeometry g, double x, double d) {
  switch (g) {
    case SweepGeometry::cylindrical_radius:
      return kmath::fabs(x + 0.5 * d);
    case SweepGeometry::spherical_radius:
      return d * (d / 3.0 + x) + x * x;
    case SweepGeometry::spherical_theta:
      return d != 0.0 ? geometry_volume(g, x, x + d) / d : kmath::fabs(kmath::sin(x));
    default:
      return 1.0;
  }
}

// The geometry of one sweep over a block of B pencils: face n at coordinate rf[n]; per lane l the physical
// length of one coordinate unit scale[l] (1, or the pencil's radius in a theta sweep) and the zone width
// width[l] = scale[l] * dcoord; radius[l] the pencil's radius in a theta sweep.
struct SweepShape {
  SweepGeometry kind = SweepGeometry::slab;
  const double* rf = nullptr;     // per zone (no lanes)
  const double* scale = nullptr;  // per lane
  const double* width = nullptr;  // per lane
};

// VH-1: forces (no gravity, no rotation). Fictitious force on the normal velocity u of a zone centred at
// coordinate xc with transverse velocity v: spherical radius v^2 / r, spherical theta -u v / r.
KOKKOS_INLINE_FUNCTION double fictitious_force(SweepGeometry g, double xc, double scale, double u, double v) {
  if (g == SweepGeometry::spherical_radius) return v * v / xc;
  if (g == SweepGeometry::spherical_theta) return -u * v / scale;
  return 0.0;
}

// Fixed-grid volumes of zones [lo, hi), zone-major with lanes.
template <int B, class Lanes = AllLanes>
KOKKOS_INLINE_FUNCTION void zone_volumes(const SweepShape& s, double* KOKKOS_RESTRICT vol, int lo, int hi,
                                         Lanes lanes = {}) {
  for (int n = lo; n < hi; ++n)
    for (int l = lanes.first; l < B; l += lanes.step)
      vol[n * B + l] = s.scale[l] * geometry_volume(s.kind, s.rf[n], s.rf[n + 1]);
}

// VH-1 states: the half-step force at the zone centre added to the u edge states (zones [lo, hi)).
template <int B, class Lanes = AllLanes>
KOKKOS_INLINE_FUNCTION void force_edge_states(const SweepShape& s, double dt, const double* u, const double* v,
                                              double* u_right, double* u_left, int lo, int hi, Lanes lanes = {}) {
  if (s.kind != SweepGeometry::spherical_radius && s.kind != SweepGeometry::spherical_theta) return;
  for (int n = lo; n < hi; ++n)
    for (int l = lanes.first; l < B; l += lanes.step) {
      const int i = n * B + l;
      const double f = 0.5 * dt * fictitious_force(s.kind, 0.5 * (s.rf[n] + s.rf[n + 1]), s.scale[l], u[i], v[i]);
      u_right[i] += f;
      u_left[i] += f;
    }
}

// evolve() for a curvilinear sweep: the faces move by dt umid (coordinate dt umid / scale), mass is kept,
// the pressure force acts through the mean of the path-averaged face areas, the work through each face's
// path-averaged area; the fictitious force is averaged over the old and new zone centres (VH-1: fict0, fict1).
template <int B, class Lanes = AllLanes>
KOKKOS_INLINE_FUNCTION void evolve_curvilinear(const SweepShape& s, const double* KOKKOS_RESTRICT umid,
                                               const double* KOKKOS_RESTRICT pmid, double dt, const Gas& gas,
                                               double* KOKKOS_RESTRICT r, const double* KOKKOS_RESTRICT p,
                                               double* KOKKOS_RESTRICT u, const double* KOKKOS_RESTRICT v,
                                               double* KOKKOS_RESTRICT e, double* KOKKOS_RESTRICT dm,
                                               double* KOKKOS_RESTRICT dxl, int lo, int hi, Lanes lanes = {}) {
  const double gm1 = gas.gamma - 1.0;
  const bool forces = s.kind == SweepGeometry::spherical_radius || s.kind == SweepGeometry::spherical_theta;
  for (int n = lo; n < hi; ++n)
    for (int l = lanes.first; l < B; l += lanes.step) {
      const int i = n * B + l, k = i + B;
      const double x0 = s.rf[n], x1 = s.rf[n + 1], scale = s.scale[l];
      const double d0 = dt * umid[i] / scale, d1 = dt * umid[k] / scale;  // face displacements (coordinate)
      const double a0 = geometry_area(s.kind, x0, d0), a1 = geometry_area(s.kind, x1, d1);
      const double mass = r[i] * (scale * geometry_volume(s.kind, x0, x1)), dtbdm = dt / mass;
      const double etot = p[i] / (gm1 * r[i]) + 0.5 * (u[i] * u[i] + v[i] * v[i]);
      double force = 0.0;
      if (forces)
        force = 0.5 * dt *
                (fictitious_force(s.kind, 0.5 * (x0 + x1), scale, u[i], v[i]) +
                 fictitious_force(s.kind, 0.5 * (x0 + d0 + x1 + d1), scale, u[i], v[i]));
      dm[i] = mass;
      dxl[i] = s.width[l] + dt * (umid[k] - umid[i]);
      r[i] = mass / (scale * geometry_volume(s.kind, x0 + d0, x1 + d1));
      u[i] = u[i] - dtbdm * 0.5 * (a0 + a1) * (pmid[k] - pmid[i]) + force;
      e[i] = etot - dtbdm * (a1 * umid[k] * pmid[k] - a0 * umid[i] * pmid[i]);
    }
}

// remap_flux() volume factor for a curvilinear sweep: flux[i] holds the sliver's average of rho times the
// sliver's length delta = dt umid (remap_flux with fm = nullptr); turn delta into the sliver's volume.
template <int B, class Lanes = AllLanes>
KOKKOS_INLINE_FUNCTION void sliver_volumes(const SweepShape& s, const double* KOKKOS_RESTRICT umid, double dt,
                                           double* KOKKOS_RESTRICT flux, int lo, int hi, Lanes lanes = {}) {
  for (int n = lo; n <= hi; ++n)
    for (int l = lanes.first; l < B; l += lanes.step) {
      const int i = n * B + l;
      const double delta = dt * umid[i], scale = s.scale[l];
      flux[i] =
          delta != 0.0 ? flux[i] / delta * (scale * geometry_volume(s.kind, s.rf[n], s.rf[n] + delta / scale)) : 0.0;
    }
}

}  // namespace proxylab::evh1
