// Lagrangian characteristic states (VH-1: states): the average of each parabola over the domain of
// dependence of the interface in half a time step (fraction y = c dt / dx of the zone), then the
// Riemann problems at the interfaces (VH-1: riemann) giving umid, pmid.
#pragma once
#include "parabola.hpp"
#include "riemann.hpp"

namespace proxylab::evh1 {

// Edge states of one quantity for zones [lo, hi): at the right edge (feeds face n+1 from the left) and
// at the left edge (feeds face n from the right). y: Courant fraction of each zone.
template <int B>
inline void edge_states(const double* al, const double* ar, const double* a6, const double* y, double* right,
                        double* left, int lo, int hi) {
  for (int i = lo * B; i < hi * B; ++i) {
    right[i] = right_edge_average(al[i], ar[i], a6[i], y[i]);
    left[i] = left_edge_average(al[i], ar[i], a6[i], y[i]);
  }
}

// y = c dt / dx with the sound speed of the zone, zones [lo, hi).
template <int B>
inline void courant_fraction(const double* r, const double* p, double gamma, double dt_over_dx, double* y, int lo,
                             int hi) {
  for (int i = lo * B; i < hi * B; ++i) y[i] = kmath::sqrt(gamma * p[i] / r[i]) * dt_over_dx;
}

// The same with a width per lane (curvilinear sweeps): dt_over_width[l].
template <int B>
inline void courant_fraction_lanes(const double* r, const double* p, double gamma, const double* dt_over_width,
                                   double* y, int lo, int hi) {
  for (int n = lo; n < hi; ++n)
    for (int l = 0; l < B; ++l) y[n * B + l] = kmath::sqrt(gamma * p[n * B + l] / r[n * B + l]) * dt_over_width[l];
}

// Riemann problems at faces [lo, hi) (face n between zones n - 1 and n): left input is zone n - 1's
// right-edge state, right input zone n's left-edge state; floors as VH-1. Written as EVH1's riemann:
// the 8 Newton iterations outside, the loop over faces inside, so that the inner loop vectorizes.
// Same arithmetic as two_shock() (tested bit-identical). s[0..7]: scratch arrays.
template <int B>
inline void riemann_faces(const double* KOKKOS_RESTRICT pr_edge, const double* KOKKOS_RESTRICT ur_edge,
                          const double* KOKKOS_RESTRICT rr_edge, const double* KOKKOS_RESTRICT pl_edge,
                          const double* KOKKOS_RESTRICT ul_edge, const double* KOKKOS_RESTRICT rl_edge, const Gas& gas,
                          double* const* s, double* KOKKOS_RESTRICT umid, double* KOKKOS_RESTRICT pmid, int lo,
                          int hi) {
  double* KOKKOS_RESTRICT pl = s[0];
  double* KOKKOS_RESTRICT ul = s[1];
  double* KOKKOS_RESTRICT cl = s[2];
  double* KOKKOS_RESTRICT vl = s[3];
  double* KOKKOS_RESTRICT pr = s[4];
  double* KOKKOS_RESTRICT ur = s[5];
  double* KOKKOS_RESTRICT cr = s[6];
  double* KOKKOS_RESTRICT vr = s[7];
  const double gamma = gas.gamma, smallp = gas.smallp, smallr = gas.smallr;
  const double gamfac1 = 0.5 * (gamma + 1.0) / gamma, gamfac2 = gamma + 1.0;
  for (int i = lo * B; i < hi * B; ++i) {
    const int j = i - B;
    pl[i] = pr_edge[j] > smallp ? pr_edge[j] : smallp;
    const double rl = rr_edge[j] > smallr ? rr_edge[j] : smallr;
    pr[i] = pl_edge[i] > smallp ? pl_edge[i] : smallp;
    const double rr = rl_edge[i] > smallr ? rl_edge[i] : smallr;
    ul[i] = ur_edge[j];
    ur[i] = ul_edge[i];
    cl[i] = kmath::sqrt(gamma * pl[i] * rl);
    cr[i] = kmath::sqrt(gamma * pr[i] * rr);
    vl[i] = 1.0 / rl;
    vr[i] = 1.0 / rr;
    const double pm = pl[i] + (pr[i] - pl[i] - cr[i] * (ur[i] - ul[i])) * cl[i] / (cl[i] + cr[i]);
    pmid[i] = pm > smallp ? pm : smallp;
  }
  for (int it = 0; it < riemann_iterations; ++it) {  // EVH1: do 27 n = 1, 8
    for (int i = lo * B; i < hi * B; ++i) {          // EVH1: do 25 l = lmin, lmax (vectorized)
      const double pm = pmid[i];
      const double wl = cl[i] * kmath::sqrt(1.0 + gamfac1 * (pm - pl[i]) / pl[i]);
      const double wr = cr[i] * kmath::sqrt(1.0 + gamfac1 * (pm - pr[i]) / pr[i]);
      double zl = 4.0 * vl[i] * wl * wl, zr = 4.0 * vr[i] * wr * wr;
      zl = -zl * wl / (zl - gamfac2 * (pm - pl[i]));
      zr = zr * wr / (zr - gamfac2 * (pm - pr[i]));
      const double uml = ul[i] - (pm - pl[i]) / wl, umr = ur[i] + (pm - pr[i]) / wr;
      const double pnew = pm + (umr - uml) * (zl * zr) / (zr - zl);
      pmid[i] = pnew > smallp ? pnew : smallp;
    }
  }
  for (int i = lo * B; i < hi * B; ++i) {
    const double pm = pmid[i];
    const double wl = cl[i] * kmath::sqrt(1.0 + gamfac1 * (pm - pl[i]) / pl[i]);
    const double wr = cr[i] * kmath::sqrt(1.0 + gamfac1 * (pm - pr[i]) / pr[i]);
    umid[i] = 0.5 * ((ul[i] - (pm - pl[i]) / wl) + (ur[i] + (pm - pr[i]) / wr));
  }
}

// The same Riemann problems for a block of B pencils with the lanes (pencils) innermost: per face, the B
// lanes' state stays in registers through the 8 Newton iterations (iteration loop inside, lane loop
// innermost, vectorized across pencils) instead of streaming 9 face arrays through memory per iteration.
// The arithmetic of riemann_faces(), operation for operation (tested bit-identical).
template <int B>
inline void riemann_faces_lanes(const double* KOKKOS_RESTRICT pr_edge, const double* KOKKOS_RESTRICT ur_edge,
                                const double* KOKKOS_RESTRICT rr_edge, const double* KOKKOS_RESTRICT pl_edge,
                                const double* KOKKOS_RESTRICT ul_edge, const double* KOKKOS_RESTRICT rl_edge,
                                const Gas& gas, double* KOKKOS_RESTRICT umid, double* KOKKOS_RESTRICT pmid, int lo,
                                int hi) {
  const double gamma = gas.gamma, smallp = gas.smallp, smallr = gas.smallr;
  const double gamfac1 = 0.5 * (gamma + 1.0) / gamma, gamfac2 = gamma + 1.0;
  for (int n = lo; n < hi; ++n) {
    const int i0 = n * B, j0 = i0 - B;
    double pl[B], ul[B], cl[B], vl[B], pr[B], ur[B], cr[B], vr[B], pm[B];
    for (int l = 0; l < B; ++l) {
      pl[l] = pr_edge[j0 + l] > smallp ? pr_edge[j0 + l] : smallp;
      const double rl = rr_edge[j0 + l] > smallr ? rr_edge[j0 + l] : smallr;
      pr[l] = pl_edge[i0 + l] > smallp ? pl_edge[i0 + l] : smallp;
      const double rr = rl_edge[i0 + l] > smallr ? rl_edge[i0 + l] : smallr;
      ul[l] = ur_edge[j0 + l];
      ur[l] = ul_edge[i0 + l];
      cl[l] = kmath::sqrt(gamma * pl[l] * rl);
      cr[l] = kmath::sqrt(gamma * pr[l] * rr);
      vl[l] = 1.0 / rl;
      vr[l] = 1.0 / rr;
      const double p0 = pl[l] + (pr[l] - pl[l] - cr[l] * (ur[l] - ul[l])) * cl[l] / (cl[l] + cr[l]);
      pm[l] = p0 > smallp ? p0 : smallp;
    }
    for (int it = 0; it < riemann_iterations; ++it)
      for (int l = 0; l < B; ++l) {
        const double p = pm[l];
        const double wl = cl[l] * kmath::sqrt(1.0 + gamfac1 * (p - pl[l]) / pl[l]);
        const double wr = cr[l] * kmath::sqrt(1.0 + gamfac1 * (p - pr[l]) / pr[l]);
        double zl = 4.0 * vl[l] * wl * wl, zr = 4.0 * vr[l] * wr * wr;
        zl = -zl * wl / (zl - gamfac2 * (p - pl[l]));
        zr = zr * wr / (zr - gamfac2 * (p - pr[l]));
        const double uml = ul[l] - (p - pl[l]) / wl, umr = ur[l] + (p - pr[l]) / wr;
        const double pnew = p + (umr - uml) * (zl * zr) / (zr - zl);
        pm[l] = pnew > smallp ? pnew : smallp;
      }
    for (int l = 0; l < B; ++l) {
      const double p = pm[l];
      const double wl = cl[l] * kmath::sqrt(1.0 + gamfac1 * (p - pl[l]) / pl[l]);
      const double wr = cr[l] * kmath::sqrt(1.0 + gamfac1 * (p - pr[l]) / pr[l]);
      pmid[i0 + l] = p;
      umid[i0 + l] = 0.5 * ((ul[l] - (p - pl[l]) / wl) + (ur[l] + (p - pr[l]) / wr));
    }
  }
}

}  // namespace proxylab::evh1
