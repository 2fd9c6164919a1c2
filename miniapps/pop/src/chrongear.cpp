// POP2's Chronopoulos-Gear conjugate gradient (POP_SolversMod: ChronGear): the two inner products
// <r, M^-1 r> and <A z, z> of an iteration go in one two-word global sum; one halo update (z).
// fused: two kernels per iteration (operator+dots, all updates+precondition); unfused: seven.
#include "solver.hpp"

namespace proxylab::pop {

void solve_chrongear(Workspace& w, const View2D<double>& b, const View2D<double>& x) {
  const auto r = w.field("pop::R"), s = w.field("pop::S"), q = w.field("pop::Q"), z = w.field("pop::Z"),
             az = w.field("pop::AZ");
  const auto rA0 = w.op.rA0;  // the sums need no land mask: see Workspace::sum
  const Stencil A = w.op.A;
  const bool fused = w.opt.fused;
  w.halo(x);
  residual(w.op, w.dom, w.opt.mapping, b, x, r);
  auto precondition = [&]() {
    w.vector(
        "pop::cg_precond", 3, 1, KOKKOS_LAMBDA(int j, int i) { z(j, i) = r(j, i) * rA0(j, i); });
  };
  if (fused) precondition();
  double rho_old = 1.0, sigma = 0.0;
  w.begin_iterations();
  int m = 1;
  for (; m <= w.opt.max_iters; ++m) {
    if (!fused) precondition();
    w.halo(z);
    std::array<double, 2> d;
    if (fused) {
      d = w.sum<2>(
          "operator+reduction", "pop::cg_operator_dots", 7, 21, KOKKOS_LAMBDA(int j, int i, double* c) {
            const double v = A.apply(z, j, i);
            az(j, i) = v;
            c[0] = r(j, i) * z(j, i);
            c[1] = v * z(j, i);
          });
    } else {
      w.apply(z, az);
      d = w.sum<2>(
          "reduction", "pop::cg_dots", 3, 4, KOKKOS_LAMBDA(int j, int i, double* c) {
            c[0] = r(j, i) * z(j, i);
            c[1] = az(j, i) * z(j, i);
          });
    }
    const double rho = d[0], delta = d[1];
    const bool spent = w.recurrence_spent(rho);
    const double beta = rho / rho_old;
    sigma = delta - beta * beta * sigma;
    const double alpha = rho / sigma;
    rho_old = rho;
    if (fused) {
      w.vector(
          "pop::cg_update", 12, 9, KOKKOS_LAMBDA(int j, int i) {
            const double sn = z(j, i) + beta * s(j, i), qn = az(j, i) + beta * q(j, i);
            s(j, i) = sn;
            q(j, i) = qn;
            x(j, i) += alpha * sn;
            const double rn = r(j, i) - alpha * qn;
            r(j, i) = rn;
            z(j, i) = rn * rA0(j, i);
          });
    } else {
      w.xpby("pop::cg_update_s", s, z, beta);
      w.xpby("pop::cg_update_q", q, az, beta);
      w.axpy("pop::cg_update_x", x, alpha, s);
      w.axpy("pop::cg_update_r", r, -alpha, q);
    }
    if (w.is_check(m) || spent) {
      if (w.check(m, b, x, r)) break;
      if (fused) precondition();  // r is now the true residual
    }
  }
  w.end_iterations(m > w.opt.max_iters ? w.opt.max_iters : m);
}

}  // namespace proxylab::pop
