// Lagrangian characteristic states (VH-1: states): the average of each parabola over the domain of
// dependence of the interface in half a time step (fraction y = c dt / dx of the zone), then the
// Riemann problems at the interfaces (VH-1: riemann) giving umid, pmid.
#pragma once
#include "lanes.hpp"
#include "parabola.hpp"
#include "riemann.hpp"

namespace proxylab::evh1 {

// Edge states of one quantity for zones [lo, hi): at the right edge (feeds face n+1 from the left) and
// at the left edge (feeds face n from the right). y: Courant fraction of each zone.
template <int B, class Lanes = AllLanes>
KOKKOS_INLINE_FUNCTION void edge_states(const double* al, const double* ar, const double* a6, const double* y,
                                        double* right, double* left, int lo, int hi, Lanes lanes = {}) {
  for (int i = lo * B + lanes.first; i < hi * B; i += lanes.step) {
    right[i] = right_edge_average(al[i], ar[i], a6[i], y[i]);
    left[i] = left_edge_average(al[i], ar[i], a6[i], y[i]);
  }
}

// y = c dt / dx with the sound speed of the zone, zones [lo, hi).
template <int B, class Lanes = AllLanes>
KOKKOS_INLINE_FUNCTION void courant_fraction(const double* r, const double* p, double gamma, double dt_over_dx,
                                             double* y, int lo, int hi, Lanes lanes = {}) {
  for (int i = lo * B + lanes.first; i < hi * B; i += lanes.step) y[i] = kmath::sqrt(gamma * p[i] / r[i]) * dt_over_dx;
}

// The same with a width per lane (curvilinear sweeps): dt_over_width[l].
template <int B, class Lanes = AllLanes>
KOKKOS_INLINE_FUNCTION void courant_fraction_lanes(const double* r, const double* p, double gamma,
                                                   const double* dt_over_width, double* y, int lo, int hi,
                                                   Lanes lanes = {}) {
  for (int n = lo; n < hi; ++n)
    for (int l = lanes.first; l < B; l += lanes.step)
      y[n * B + l] = kmath::sqrt(gamma * p[n * B + l] / r[n * B + l]) * dt_over_width[l];
}

// Riemann problems at faces [lo, hi) (face n between zones n - 1 and n): left input is zone n - 1's
// right-edge state, right input zone n's left-edge state; floors and iteration rule as two_shock() (tested
// bit-identical). Written as EVH1's riemann: the Newton iterations outside, the loop over faces inside, so that
// the inner loop vectorizes; the iterations stop once every face of [lo, hi) has converged (a converged face keeps
// its p*, so each face gets exactly its own iteration count). s[0..8]: scratch arrays.
template <int B, class Lanes = AllLanes>
KOKKOS_INLINE_FUNCTION void riemann_faces(const double* KOKKOS_RESTRICT pr_edge, const double* KOKKOS_RESTRICT ur_edge,
                                          const double* KOKKOS_RESTRICT rr_edge, const double* KOKKOS_RESTRICT pl_edge,
                                          const double* KOKKOS_RESTRICT ul_edge, const double* KOKKOS_RESTRICT rl_edge,
                                          const Gas& gas, double* const* s, double* KOKKOS_RESTRICT umid,
                                          double* KOKKOS_RESTRICT pmid, int lo, int hi, Lanes lanes = {}) {
  double* KOKKOS_RESTRICT pl = s[0];
  double* KOKKOS_RESTRICT ul = s[1];
  double* KOKKOS_RESTRICT cl = s[2];
  double* KOKKOS_RESTRICT vl = s[3];
  double* KOKKOS_RESTRICT pr = s[4];
  double* KOKKOS_RESTRICT ur = s[5];
  double* KOKKOS_RESTRICT cr = s[6];
  double* KOKKOS_RESTRICT vr = s[7];
  double* KOKKOS_RESTRICT active = s[8];  // 1: still iterating, 0: converged
  const double tol = gas.riemann_tolerance;
  for (int i = lo * B + lanes.first; i < hi * B; i += lanes.step) {
    const RiemannStates st =
        riemann_states(pr_edge[i - B], ur_edge[i - B], rr_edge[i - B], pl_edge[i], ul_edge[i], rl_edge[i], gas);
    pl[i] = st.pl;
    ul[i] = st.ul;
    cl[i] = st.cl;
    vl[i] = st.vl;
    pr[i] = st.pr;
    ur[i] = st.ur;
    cr[i] = st.cr;
    vr[i] = st.vr;
    pmid[i] = riemann_guess(st, gas.smallp);
    active[i] = 1.0;
  }
  for (int it = 0; it < gas.riemann_iterations; ++it) {  // EVH1: do 27 n = 1, 8
    long long still = 0;
    for (int i = lo * B + lanes.first; i < hi * B; i += lanes.step) {  // EVH1: do 25 l = lmin, lmax (vectorized)
      const RiemannStates st{pl[i], ul[i], cl[i], vl[i], pr[i], ur[i], cr[i], vr[i]};
      const double pm = pmid[i], pnew = riemann_newton(st, pm, gas);
      const bool go = active[i] != 0.0, more = go && !riemann_converged(pm, pnew, tol);
      pmid[i] = go ? pnew : pm;
      active[i] = more ? 1.0 : 0.0;
      still += more ? 1 : 0;
    }
    if (still == 0) break;
  }
  for (int i = lo * B + lanes.first; i < hi * B; i += lanes.step) {
    const RiemannStates st{pl[i], ul[i], cl[i], vl[i], pr[i], ur[i], cr[i], vr[i]};
    umid[i] = riemann_velocity(st, pmid[i], gas.gamma);
  }
}

}  // namespace proxylab::evh1
