// Piecewise parabolic reconstruction (Colella & Woodward 1984, eqs. 1.6-1.10; VH-1 paraset/parabola)
// on a possibly non-uniform grid, and the averages of a parabola over a fraction y of its zone next
// to either edge (used by the characteristic states and by the conservative remap).
// Arrays are zone-major with `B` lanes (element of zone n, lane l at n*B + l).
#pragma once
#include "lanes.hpp"
#include "proxylab/kmath.hpp"
#include "proxylab/mapping.hpp"  // PROXYLAB_PRAGMA_IVDEP

namespace proxylab::evh1 {

// Coefficients of the grid (VH-1: paraset). Zone j: slope da_j = c1 (a_{j+1} - a_j) + c2 (a_j - a_{j-1})
// (eq. 1.7); face j+1/2: a = (a_j + a_{j+1}) / 2 + c3 (a_{j+1} - a_j) + (c4 da_{j+1} + c5 da_j) (eq. 1.6, with c3
// the weight of a_{j+1} less 1/2). Every sum is grouped so that the mirror image of a grid and a state (the zones
// in reverse order) gives the mirror image of the slopes and face values bit for bit: a symmetric problem (a
// Sedov blast) stays exactly symmetric, and no round-off difference between a zone and its mirror image can flip
// one of the scheme's switches (flattening, monotonicity) on one side only.
// ParaCoef holds them per element (a non-uniform grid: the Lagrangian zones of the remap); UniformCoef is the
// same interface for a uniform grid, where every zone has the same five numbers (no arrays to write or read).
struct ParaCoef {
  double *c1, *c2, *c3, *c4, *c5;
  KOKKOS_INLINE_FUNCTION double k1(int i) const { return c1[i]; }
  KOKKOS_INLINE_FUNCTION double k2(int i) const { return c2[i]; }
  KOKKOS_INLINE_FUNCTION double k3(int i) const { return c3[i]; }
  KOKKOS_INLINE_FUNCTION double k4(int i) const { return c4[i]; }
  KOKKOS_INLINE_FUNCTION double k5(int i) const { return c5[i]; }
};

KOKKOS_INLINE_FUNCTION void paraset_zone(double dxm, double dx0, double dxp, double& c1, double& c2) {
  const double s = dx0 / ((dxm + dxp) + dx0);
  c1 = s * (2.0 * dxm + dx0) / (dxp + dx0);
  c2 = s * (dx0 + 2.0 * dxp) / (dxm + dx0);
}
KOKKOS_INLINE_FUNCTION void paraset_face(double dxm, double dx0, double dxp, double dxpp, double& c3, double& c4,
                                         double& c5) {
  const double sum = 1.0 / ((dxm + dxpp) + (dx0 + dxp)), a = dx0 + dxp;
  const double left = (dxm + dx0) / (2.0 * dx0 + dxp), right = (dxpp + dxp) / (2.0 * dxp + dx0);
  c3 = 0.5 * (dx0 - dxp) / a + sum * 2.0 * (dxp * dx0) / a * (left - right);
  c4 = -sum * dx0 * left;
  c5 = sum * dxp * right;
}

// VH-1: paraset. From widths dx: zone coefficients c1, c2 for zones [zlo, zhi) (read dx in [zlo-1, zhi+1))
// and face coefficients c3..c5 of faces j+1/2 for zones j in [flo, fhi) (read dx in [flo-1, fhi+2)).
template <int B, class Lanes = AllLanes>
KOKKOS_INLINE_FUNCTION void paraset(const double* dx, const ParaCoef& c, int zlo, int zhi, int flo, int fhi,
                                    Lanes lanes = {}) {
  for (int i = zlo * B + lanes.first; i < zhi * B; i += lanes.step)
    paraset_zone(dx[i - B], dx[i], dx[i + B], c.c1[i], c.c2[i]);
  for (int i = flo * B + lanes.first; i < fhi * B; i += lanes.step)
    paraset_face(dx[i - B], dx[i], dx[i + B], dx[i + 2 * B], c.c3[i], c.c4[i], c.c5[i]);
}

// The coefficients of a uniform grid (the values paraset gives for equal widths).
struct UniformCoef {
  double c1, c2, c3, c4, c5;
  KOKKOS_INLINE_FUNCTION UniformCoef() {
    paraset_zone(1.0, 1.0, 1.0, c1, c2);
    paraset_face(1.0, 1.0, 1.0, 1.0, c3, c4, c5);
  }
  KOKKOS_INLINE_FUNCTION double k1(int) const { return c1; }
  KOKKOS_INLINE_FUNCTION double k2(int) const { return c2; }
  KOKKOS_INLINE_FUNCTION double k3(int) const { return c3; }
  KOKKOS_INLINE_FUNCTION double k4(int) const { return c4; }
  KOKKOS_INLINE_FUNCTION double k5(int) const { return c5; }
};

// The per-element steps of VH-1's parabola, shared by its two loop forms below.
// Monotonized slope of a zone from its neighbours' averages (eq. 1.8); branch-free, so loops vectorize.
KOKKOS_INLINE_FUNCTION double monotonized_slope(double am, double a0, double ap, double k1, double k2) {
  const double dr = ap - a0, dl = a0 - am;
  const double d = k1 * dr + k2 * dl, adl = kmath::fabs(dl), adr = kmath::fabs(dr);
  const double lim = 2.0 * (adl < adr ? adl : adr);
  const double upper = d > lim ? lim : d, clipped = upper < -lim ? -lim : upper;
  return dr * dl > 0.0 ? clipped : 0.0;
}
// The value at the face between zone j (left) and zone i (eq. 1.6), with zone j's coefficients.
KOKKOS_INLINE_FUNCTION double face_value(double aj, double ai, double daj, double dai, double k3, double k4,
                                         double k5) {
  return (0.5 * (aj + ai) + k3 * (ai - aj)) + (k4 * dai + k5 * daj);
}
// Flattening towards the average, then monotonicity (eq. 1.10): edge values and curvature of zone i from its
// face values.
KOKKOS_INLINE_FUNCTION void monotone_parabola(double ai, double face_l, double face_r, double f, double& al, double& ar,
                                              double& a6) {
  const double g = 1.0 - f;
  double l = f * ai + g * face_l, r = f * ai + g * face_r;
  const bool extremum = (r - ai) * (ai - l) <= 0.0;
  l = extremum ? ai : l;
  r = extremum ? ai : r;
  const double d = r - l, s6 = 6.0 * (ai - 0.5 * (l + r));
  const double l2 = d * s6 > d * d ? 3.0 * ai - 2.0 * r : l;
  const double r2 = -d * d > d * s6 ? 3.0 * ai - 2.0 * l : r;
  al = l2;
  ar = r2;
  a6 = 6.0 * (ai - 0.5 * (l2 + r2));
}

// VH-1: parabola. For zones [lo, hi): left/right edge values al, ar and the curvature a6 of the
// monotone parabola of `a`, blended with the zone average by `flat` (0: no flattening).
// Reads a in [lo - 2, hi + 2) and coefficients of zones [lo - 2, hi + 1). Two loop forms, same numbers:
//   B = 1 (pencil, tiled): VH-1's three loops along the pencil (slopes, faces, monotonicity; da, face: scratch arrays);
//   B > 1 (batched): one pass along the zones with the B pencils' lanes as the vector; the slopes and faces of
//     the zone and its right neighbour ride along in registers (no scratch arrays: da, face unused).
template <int B, class Coef, class Lanes = AllLanes>
KOKKOS_INLINE_FUNCTION void parabola(const double* KOKKOS_RESTRICT a, const double* KOKKOS_RESTRICT flat, const Coef& c,
                                     double* KOKKOS_RESTRICT da, double* KOKKOS_RESTRICT face,
                                     double* KOKKOS_RESTRICT al, double* KOKKOS_RESTRICT ar, double* KOKKOS_RESTRICT a6,
                                     int lo, int hi, Lanes lanes = {}) {
  if constexpr (B == 1) {  // (a team on one pencil shares da and face: a sync() after each loop)
    for (int i = lo - 1 + lanes.first; i < hi + 1; i += lanes.step)
      da[i] = monotonized_slope(a[i - 1], a[i], a[i + 1], c.k1(i), c.k2(i));
    lanes.sync();
    for (int i = lo + lanes.first; i < hi + 1; i += lanes.step)  // face n - 1/2, from zone n - 1
      face[i] = face_value(a[i - 1], a[i], da[i - 1], da[i], c.k3(i - 1), c.k4(i - 1), c.k5(i - 1));
    lanes.sync();
    for (int i = lo + lanes.first; i < hi; i += lanes.step)
      monotone_parabola(a[i], face[i], face[i + 1], flat[i], al[i], ar[i], a6[i]);
  } else {
    double slope[B], left_face[B];  // of the current zone, per lane
    for (int l = lanes.first; l < B; l += lanes.step) {
      const int m = (lo - 1) * B + l, i = lo * B + l;
      const double dm = monotonized_slope(a[m - B], a[m], a[i], c.k1(m), c.k2(m));
      slope[l] = monotonized_slope(a[m], a[i], a[i + B], c.k1(i), c.k2(i));
      left_face[l] = face_value(a[m], a[i], dm, slope[l], c.k3(m), c.k4(m), c.k5(m));
    }
    for (int z = lo; z < hi; ++z) {
      PROXYLAB_PRAGMA_IVDEP  // the lanes are independent pencils: no run-time alias checks per zone
          for (int l = lanes.first; l < B; l += lanes.step) {
        const int i = z * B + l, p = i + B;  // this zone and its right neighbour
        const double dp = monotonized_slope(a[i], a[p], a[p + B], c.k1(p), c.k2(p));
        const double right_face = face_value(a[i], a[p], slope[l], dp, c.k3(i), c.k4(i), c.k5(i));
        monotone_parabola(a[i], left_face[l], right_face, flat[i], al[i], ar[i], a6[i]);
        slope[l] = dp;
        left_face[l] = right_face;
      }
    }
  }
}

// Average of the parabola over the fraction y of the zone next to its right / left edge.
KOKKOS_INLINE_FUNCTION double right_edge_average(double al, double ar, double a6, double y) {
  return ar - 0.5 * y * ((ar - al) - (1.0 - 2.0 / 3.0 * y) * a6);
}
KOKKOS_INLINE_FUNCTION double left_edge_average(double al, double ar, double a6, double y) {
  return al + 0.5 * y * ((ar - al) + (1.0 - 2.0 / 3.0 * y) * a6);
}

}  // namespace proxylab::evh1
