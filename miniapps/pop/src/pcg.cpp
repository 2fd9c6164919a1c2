// POP2's preconditioned conjugate gradient (POP_SolversMod: pcg): two global sums per iteration
// (<r, M^-1 r> and <s, A s>), one halo update (the search direction).
// Two variants, bit-identical (same arithmetic): unfused, as the Fortran is written, and fused (16 arrays per
// iteration instead of 17, one work array less).
#include "solver.hpp"

namespace proxylab::pop {
namespace {

// One kernel per array statement, as the Fortran is written: R, S, Q and the preconditioned residual Z.
void pcg_unfused(Workspace& w, const View2D<double>& b, const View2D<double>& x) {
  const auto r = w.field("pop::R"), s = w.field("pop::S"), q = w.field("pop::Q"), z = w.field("pop::Z");
  const auto rA0 = w.op.rA0;  // the sums need no land mask: see Workspace::sum
  w.halo(x);
  residual(w.op, w.dom, w.opt.mapping, b, x, r);
  double eta0 = 1.0;
  w.begin_iterations();
  int m = 1;
  for (; m <= w.opt.max_iters; ++m) {
    w.vector(
        "pop::pcg_precond", 3, 1, KOKKOS_LAMBDA(int j, int i) { z(j, i) = r(j, i) * rA0(j, i); });
    const double eta1 = w.sum<1>(
        "reduction", "pop::pcg_dot_rz", 2, 2, KOKKOS_LAMBDA(int j, int i, double* c) { c[0] = r(j, i) * z(j, i); })[0];
    const bool spent = w.recurrence_spent(eta1);
    const double beta = eta1 / eta0;
    w.xpby("pop::pcg_direction", s, z, beta);
    w.halo(s);
    w.apply(s, q);
    const double sq = w.sum<1>(
        "reduction", "pop::pcg_dot_sq", 2, 2, KOKKOS_LAMBDA(int j, int i, double* c) { c[0] = s(j, i) * q(j, i); })[0];
    const double alpha = eta1 / sq;
    eta0 = eta1;
    w.axpy("pop::pcg_update_x", x, alpha, s);
    w.axpy("pop::pcg_update_r", r, -alpha, q);
    if ((w.is_check(m) || spent) && w.check(m, b, x, r)) break;
  }
  w.end_iterations(m > w.opt.max_iters ? w.opt.max_iters : m);
}

// Three kernels per iteration (update + precondition + dot, search direction, operator + dot) on R, S and Q, and
// the solution update X = X + alpha S deferred into the next iteration's search-direction kernel, which reads S
// anyway; on a convergence-check iteration it is done at once, since the check needs X.
void pcg_fused(Workspace& w, const View2D<double>& b, const View2D<double>& x) {
  const auto r = w.field("pop::R"), s = w.field("pop::S"), q = w.field("pop::Q");
  const auto rA0 = w.op.rA0;  // the sums need no land mask: see Workspace::sum
  const Stencil A = w.op.A;
  w.halo(x);
  residual(w.op, w.dom, w.opt.mapping, b, x, r);
  auto precond_dot = [&]() {  // eta1 = <r, M^-1 r>
    return w.sum<1>(
        "reduction", "pop::pcg_precond_dot", 2, 3,
        KOKKOS_LAMBDA(int j, int i, double* c) { c[0] = r(j, i) * r(j, i) * rA0(j, i); })[0];
  };
  double eta0 = 1.0, eta1 = precond_dot();
  bool x_pending = false;  // X += alpha_pending S not yet done (never across a check or the last iteration)
  double alpha_pending = 0.0;
  w.begin_iterations();
  int m = 1;
  for (; m <= w.opt.max_iters; ++m) {
    const bool check = w.recurrence_spent(eta1) || w.is_check(m);
    const double beta = eta1 / eta0;
    if (x_pending) {
      const double a = alpha_pending;
      w.vector(
          "pop::pcg_direction_update_x", 6, 5, KOKKOS_LAMBDA(int j, int i) {
            x(j, i) += a * s(j, i);
            s(j, i) = r(j, i) * rA0(j, i) + beta * s(j, i);
          });
      x_pending = false;
    } else {
      w.vector(
          "pop::pcg_direction", 4, 3, KOKKOS_LAMBDA(int j, int i) { s(j, i) = r(j, i) * rA0(j, i) + beta * s(j, i); });
    }
    w.halo(s);
    const double sq = w.sum<1>(
        "operator+reduction", "pop::pcg_operator_dot", 6, 19, KOKKOS_LAMBDA(int j, int i, double* c) {
          const double v = A.apply(s, j, i);
          q(j, i) = v;
          c[0] = s(j, i) * v;
        })[0];
    const double alpha = eta1 / sq;
    eta0 = eta1;
    if (!check) {  // X += alpha S waits for the next search direction
      eta1 = w.sum<1>(
          "vector+reduction", "pop::pcg_update_r_dot", 4, 5, KOKKOS_LAMBDA(int j, int i, double* c) {
            const double rn = r(j, i) - alpha * q(j, i);
            r(j, i) = rn;
            c[0] = rn * rn * rA0(j, i);
          })[0];
      x_pending = true;
      alpha_pending = alpha;
    } else {
      eta1 = w.sum<1>(
          "vector+reduction", "pop::pcg_update_dot", 7, 7, KOKKOS_LAMBDA(int j, int i, double* c) {
            x(j, i) += alpha * s(j, i);
            const double rn = r(j, i) - alpha * q(j, i);
            r(j, i) = rn;
            c[0] = rn * rn * rA0(j, i);
          })[0];
      if (w.check(m, b, x, r)) break;
      eta1 = precond_dot();  // r is now the true residual
    }
  }
  w.end_iterations(m > w.opt.max_iters ? w.opt.max_iters : m);
}

}  // namespace

void solve_pcg(Workspace& w, const View2D<double>& b, const View2D<double>& x) {
  if (w.opt.fused)
    pcg_fused(w, b, x);
  else
    pcg_unfused(w, b, x);
}

}  // namespace proxylab::pop
