// Pipelined preconditioned CG (Ghysels & Vanroose 2014, Alg. 3): the two inner products of an
// iteration go in one non-blocking global sum, started before and completed after the halo update
// and the operator application they overlap with (GlobalSum::start/wait; overlap with `iallreduce`).
// Its recurrences lose accuracy; with replace (deck solver.replace) the vectors r, u, w, s, q, z are
// recomputed from x and p at every convergence check (residual replacement, Cools et al. 2018).
// The sum lands in device memory (Workspace::start_on_device), where the update kernels compute alpha and beta from
// it (PipeCgStep); the host reads none in an iteration at one rank.
#include "solver.hpp"

namespace proxylab::pop {
namespace {

// Pipelined CG's step as its kernels compute it from the step scalars: gamma = <r, u> and delta = <w, u> (the slot
// after gamma's), the last iteration's gamma and alpha (slots gamma_old, alpha_old; none in the first iteration).
// The iteration's alpha goes to slot alpha_new (Workspace::keep).
struct PipeCgStep {
  Kokkos::View<double*> s;
  int gamma, gamma_old, alpha_old, alpha_new;
  bool first;
  KOKKOS_INLINE_FUNCTION double beta() const { return first ? 0.0 : s(gamma) / s(gamma_old); }
  KOKKOS_INLINE_FUNCTION double alpha() const {
    return first ? s(gamma) / s(gamma + 1) : s(gamma) / (s(gamma + 1) - beta() * s(gamma) / s(alpha_old));
  }
  KOKKOS_INLINE_FUNCTION void keep_alpha(int j, int i, int jb, int ib) const {
    if (Workspace::keeps_scalar(j, i, jb, ib)) s(alpha_new) = alpha();
  }
};
constexpr int alpha_slot = Workspace::first_free_slot;  // and the next: alpha of odd and even iterations

}  // namespace

void solve_pipecg(Workspace& w, const View2D<double>& b, const View2D<double>& x) {
  const auto r = w.field("pop::R"), u = w.field("pop::U"), wv = w.field("pop::W"), mv = w.field("pop::M"),
             n = w.field("pop::N"), z = w.field("pop::Z"), q = w.field("pop::Q"), s = w.field("pop::S"),
             p = w.field("pop::P");
  const auto rA0 = w.op.rA0;  // the sums need no land mask: see Workspace::sum
  const bool fused = w.opt.fused;
  auto precondition = [&](const View2D<double>& out, const View2D<double>& in) {
    w.vector(
        "pop::pipecg_precond", 3, 1, KOKKOS_LAMBDA(int j, int i) { out(j, i) = in(j, i) * rA0(j, i); });
  };
  // (re)start: r = b - A x, u = M^-1 r, w = A u; with replacement also s = A p, q = M^-1 s, z = A q
  auto recompute = [&](bool with_directions) {
    precondition(u, r);
    w.halo(u);
    w.apply(u, wv);
    if (!with_directions) return;
    w.halo(p);
    w.apply(p, s);
    precondition(q, s);
    w.halo(q);
    w.apply(q, z);
  };
  w.halo(x);
  residual(w.op, w.dom, w.opt.mapping, b, x, r);
  recompute(false);
  w.begin_iterations();
  const int jb = w.dom.jb(), ib = w.dom.ib();
  int gamma_old = Workspace::one_slot;
  int m = 1;
  for (; m <= w.opt.max_iters; ++m) {
    const int at = w.next_rz();
    if (fused) {
      w.start_on_device<2>(
          "precond+reduction", "pop::pipecg_precond_dots", 5, 5, at, KOKKOS_LAMBDA(int j, int i, double* c) {
            mv(j, i) = wv(j, i) * rA0(j, i);
            c[0] = r(j, i) * u(j, i);
            c[1] = wv(j, i) * u(j, i);
          });
    } else {
      w.start_on_device<2>(
          "reduction", "pop::pipecg_dots", 3, 4, at, KOKKOS_LAMBDA(int j, int i, double* c) {
            c[0] = r(j, i) * u(j, i);
            c[1] = wv(j, i) * u(j, i);
          });
      precondition(mv, wv);
    }
    w.halo(mv);  // overlapped with the global sum in flight
    w.apply(mv, n);
    w.wait_on_device<2>();
    const PipeCgStep step{w.scalars, at, gamma_old, alpha_slot + (m + 1) % 2, alpha_slot + m % 2, m == 1};
    gamma_old = at;
    const auto beta_c = Workspace::coefficient(KOKKOS_LAMBDA() { return step.beta(); });
    const auto alpha_c = Workspace::coefficient(KOKKOS_LAMBDA() { return step.alpha(); });
    w.keep(step.alpha_new, alpha_c);
    if (fused) {
      w.vector(
          "pop::pipecg_update", 17, 16, KOKKOS_LAMBDA(int j, int i) {
            const double beta = beta_c(), alpha = alpha_c();
            step.keep_alpha(j, i, jb, ib);
            const double zn = n(j, i) + beta * z(j, i), qn = mv(j, i) + beta * q(j, i);
            const double sn = wv(j, i) + beta * s(j, i), pn = u(j, i) + beta * p(j, i);
            z(j, i) = zn;
            q(j, i) = qn;
            s(j, i) = sn;
            p(j, i) = pn;
            x(j, i) += alpha * pn;
            r(j, i) -= alpha * sn;
            u(j, i) -= alpha * qn;
            wv(j, i) -= alpha * zn;
          });
    } else {
      const auto minus_alpha = KOKKOS_LAMBDA() { return -alpha_c(); };
      w.vector(
          "pop::pipecg_update_z", 3, 2, KOKKOS_LAMBDA(int j, int i) {
            step.keep_alpha(j, i, jb, ib);
            z(j, i) = n(j, i) + beta_c() * z(j, i);
          });
      w.xpby("pop::pipecg_update_q", q, mv, beta_c);
      w.xpby("pop::pipecg_update_s", s, wv, beta_c);
      w.xpby("pop::pipecg_update_p", p, u, beta_c);
      w.axpy("pop::pipecg_update_x", x, alpha_c, p);
      w.axpy("pop::pipecg_update_r", r, minus_alpha, s);
      w.axpy("pop::pipecg_update_u", u, minus_alpha, q);
      w.axpy("pop::pipecg_update_w", wv, minus_alpha, z);
    }
    if (w.is_check(m)) {
      // with replacement r becomes the true residual; without, the check writes into n (free here)
      if (w.check(m, b, x, w.opt.replace ? r : n)) break;
      if (w.opt.replace) recompute(true);
    }
  }
  w.end_iterations(m > w.opt.max_iters ? w.opt.max_iters : m);
}

}  // namespace proxylab::pop
