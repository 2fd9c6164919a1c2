// POP2's Chronopoulos-Gear conjugate gradient (POP_SolversMod: ChronGear): the two inner products
// <r, M^-1 r> and <A z, z> of an iteration go in one two-word global sum; one halo update (z).
// fused: two kernels per iteration (operator+dots, all updates+precondition); unfused: seven.
// The sum lands in device memory (Workspace::sum_on_device), where the update kernels compute beta, sigma and alpha
// from it (ChronGearStep); the host reads none in an iteration at one rank.
#include "solver.hpp"

namespace proxylab::pop {
namespace {

// ChronGear's step as its kernels compute it from the step scalars: rho = <r, M^-1 r> and delta = <A z, z> (the
// slot after rho's), the last iteration's rho and sigma (slots rho_old, sigma_old); a spent recurrence freezes the
// step (DeviceRz). The iteration's sigma goes to slot sigma_new (Workspace::keep).
struct ChronGearStep {
  DeviceRz rho;
  int rho_old, sigma_old, sigma_new;
  KOKKOS_INLINE_FUNCTION double beta() const { return rho.spent() ? 0.0 : rho() / rho.s(rho_old); }
  KOKKOS_INLINE_FUNCTION double sigma() const {
    const double b = beta();
    return rho.s(rho.at + 1) - b * b * rho.s(sigma_old);
  }
  KOKKOS_INLINE_FUNCTION double alpha() const { return rho.spent() ? 0.0 : rho() / sigma(); }
  KOKKOS_INLINE_FUNCTION void keep_sigma(int j, int i, int jb, int ib) const {
    if (Workspace::keeps_scalar(j, i, jb, ib)) rho.s(sigma_new) = sigma();
  }
};
constexpr int sigma_slot = Workspace::first_free_slot;  // and the next: sigma of odd and even iterations

}  // namespace

void solve_chrongear(Workspace& w, const View2D<double>& b, const View2D<double>& x) {
  const auto r = w.field("pop::R"), s = w.field("pop::S"), q = w.field("pop::Q"), z = w.field("pop::Z"),
             az = w.field("pop::AZ");
  const auto rA0 = w.op.rA0;  // the sums need no land mask: see Workspace::sum
  const Stencil A = w.op.A;
  const bool fused = w.opt.fused;
  const int jb = w.dom.jb(), ib = w.dom.ib();
  w.halo(x);
  residual(w.op, w.dom, w.opt.mapping, b, x, r);
  auto precondition = [&]() {
    w.vector(
        "pop::cg_precond", 3, 1, KOKKOS_LAMBDA(int j, int i) { z(j, i) = r(j, i) * rA0(j, i); });
  };
  if (fused) precondition();
  int rho_old = Workspace::one_slot;  // sigma starts at 0 (the scalars are zero-initialised)
  w.begin_iterations();
  int m = 1;
  for (; m <= w.opt.max_iters; ++m) {
    if (!fused) precondition();
    w.halo(z);
    const int at = w.next_rz();
    std::optional<std::array<double, 2>> d;
    if (fused) {
      d = w.sum_on_device<2>(
          "operator+reduction", "pop::cg_operator_dots", 7, 21, at, KOKKOS_LAMBDA(int j, int i, double* c) {
            const double v = A.apply(z, j, i);
            az(j, i) = v;
            c[0] = r(j, i) * z(j, i);
            c[1] = v * z(j, i);
          });
    } else {
      w.apply(z, az);
      d = w.sum_on_device<2>(
          "reduction", "pop::cg_dots", 3, 4, at, KOKKOS_LAMBDA(int j, int i, double* c) {
            c[0] = r(j, i) * z(j, i);
            c[1] = az(j, i) * z(j, i);
          });
    }
    const bool spent = w.recurrence_spent(at, d ? std::optional<double>((*d)[0]) : std::nullopt);
    const ChronGearStep step{w.rz(at), rho_old, sigma_slot + (m + 1) % 2, sigma_slot + m % 2};
    rho_old = at;
    w.keep(
        step.sigma_new, KOKKOS_LAMBDA() { return step.sigma(); });
    if (fused) {
      const auto beta_c = Workspace::coefficient(KOKKOS_LAMBDA() { return step.beta(); });
      const auto alpha_c = Workspace::coefficient(KOKKOS_LAMBDA() { return step.alpha(); });
      w.vector(
          "pop::cg_update", 12, 9, KOKKOS_LAMBDA(int j, int i) {
            const double beta = beta_c(), alpha = alpha_c();
            step.keep_sigma(j, i, jb, ib);
            const double sn = z(j, i) + beta * s(j, i), qn = az(j, i) + beta * q(j, i);
            s(j, i) = sn;
            q(j, i) = qn;
            x(j, i) += alpha * sn;
            const double rn = r(j, i) - alpha * qn;
            r(j, i) = rn;
            z(j, i) = rn * rA0(j, i);
          });
    } else {
      const auto beta = Workspace::coefficient(KOKKOS_LAMBDA() { return step.beta(); });
      w.vector(
          "pop::cg_update_s", 3, 2, KOKKOS_LAMBDA(int j, int i) {
            step.keep_sigma(j, i, jb, ib);
            s(j, i) = z(j, i) + beta() * s(j, i);
          });
      w.xpby(
          "pop::cg_update_q", q, az, KOKKOS_LAMBDA() { return step.beta(); });
      w.axpy(
          "pop::cg_update_x", x, KOKKOS_LAMBDA() { return step.alpha(); }, s);
      w.axpy(
          "pop::cg_update_r", r, KOKKOS_LAMBDA() { return -step.alpha(); }, q);
    }
    if (w.is_check(m) || spent) {
      if (w.check(m, b, x, r)) break;
      if (fused) precondition();  // r is now the true residual
    }
  }
  w.end_iterations(m > w.opt.max_iters ? w.opt.max_iters : m);
}

}  // namespace proxylab::pop
