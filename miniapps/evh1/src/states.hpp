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
    // loads outside the selects: a load inside a ?: arm is a conditional load, which stops GCC vectorizing
    const double p_left = pr_edge[j], r_left = rr_edge[j], p_right = pl_edge[i], r_right = rl_edge[i];
    pl[i] = p_left > smallp ? p_left : smallp;
    const double rl = r_left > smallr ? r_left : smallr;
    pr[i] = p_right > smallp ? p_right : smallp;
    const double rr = r_right > smallr ? r_right : smallr;
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

}  // namespace proxylab::evh1
