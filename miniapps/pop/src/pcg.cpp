// POP2's preconditioned conjugate gradient (POP_SolversMod: pcg): two global sums per iteration
// (<r, M^-1 r> and <s, A s>), one halo update (the search direction).
// Two variants, bit-identical (same arithmetic): unfused, as the Fortran is written, and fused (16 arrays per
// iteration instead of 17, one work array less).
// The sums land in device memory (Workspace::sum_on_device), where the kernels compute alpha and beta from them
// (PcgStep); the host reads none in an iteration at one rank.
#include "solver.hpp"

namespace proxylab::pop {
namespace {

// PCG's step as its kernels compute it from the step scalars: eta1 = <r, M^-1 r> of this iteration, eta0 the last
// one's (slot eta0), <s, A s> (slot sq); a spent recurrence freezes the step (DeviceRz).
struct PcgStep {
  DeviceRz eta1;
  int eta0, sq;
  KOKKOS_INLINE_FUNCTION double beta() const { return eta1.spent() ? 0.0 : eta1() / eta1.s(eta0); }
  KOKKOS_INLINE_FUNCTION double alpha() const { return eta1.spent() ? 0.0 : eta1() / eta1.s(sq); }
};
constexpr int sq_slot = Workspace::first_free_slot;

// One kernel per array statement, as the Fortran is written: R, S, Q and the preconditioned residual Z.
void pcg_unfused(Workspace& w, const View2D<double>& b, const View2D<double>& x) {
  const auto r = w.field("pop::R"), s = w.field("pop::S"), q = w.field("pop::Q"), z = w.field("pop::Z");
  const auto rA0 = w.op.rA0;  // the sums need no land mask: see Workspace::sum
  w.halo(x);
  residual(w.op, w.dom, w.opt.mapping, b, x, r);
  int eta0 = Workspace::one_slot;
  w.begin_iterations();
  int m = 1;
  for (; m <= w.opt.max_iters; ++m) {
    w.vector(
        "pop::pcg_precond", 3, 1, KOKKOS_LAMBDA(int j, int i) { z(j, i) = r(j, i) * rA0(j, i); });
    const int at = w.next_rz();
    const auto eta1 = w.sum_on_device<1>(
        "reduction", "pop::pcg_dot_rz", 2, 2, at, KOKKOS_LAMBDA(int j, int i, double* c) { c[0] = r(j, i) * z(j, i); });
    const bool spent = w.recurrence_spent(at, eta1 ? std::optional<double>((*eta1)[0]) : std::nullopt);
    const PcgStep step{w.rz(at), eta0, sq_slot};
    w.xpby(
        "pop::pcg_direction", s, z, KOKKOS_LAMBDA() { return step.beta(); });
    w.halo(s);
    w.apply(s, q);
    w.sum_on_device<1>(
        "reduction", "pop::pcg_dot_sq", 2, 2, sq_slot,
        KOKKOS_LAMBDA(int j, int i, double* c) { c[0] = s(j, i) * q(j, i); });
    eta0 = at;
    w.axpy(
        "pop::pcg_update_x", x, KOKKOS_LAMBDA() { return step.alpha(); }, s);
    w.axpy(
        "pop::pcg_update_r", r, KOKKOS_LAMBDA() { return -step.alpha(); }, q);
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
  std::optional<double> eta1_host;  // eta1 where it passed through the host
  auto words = [](const std::optional<std::array<double, 1>>& v) {
    return v ? std::optional<double>((*v)[0]) : std::nullopt;
  };
  auto precond_dot = [&]() {  // eta1 = <r, M^-1 r>
    const int at = w.next_rz();
    eta1_host = words(w.sum_on_device<1>(
        "reduction", "pop::pcg_precond_dot", 2, 3, at,
        KOKKOS_LAMBDA(int j, int i, double* c) { c[0] = r(j, i) * r(j, i) * rA0(j, i); }));
    return at;
  };
  int eta0 = Workspace::one_slot, eta1 = precond_dot();
  bool x_pending = false;  // X += alpha_pending S not yet done (never across a check or the last iteration)
  PcgStep pending{};       // the step whose X update is pending
  w.begin_iterations();
  int m = 1;
  for (; m <= w.opt.max_iters; ++m) {
    const bool check = w.recurrence_spent(eta1, eta1_host) || w.is_check(m);
    const PcgStep step{w.rz(eta1), eta0, sq_slot};
    const auto beta = Workspace::coefficient(KOKKOS_LAMBDA() { return step.beta(); });
    if (x_pending) {
      const PcgStep a = pending;
      const auto alpha_pending = Workspace::coefficient(KOKKOS_LAMBDA() { return a.alpha(); });
      w.vector(
          "pop::pcg_direction_update_x", 6, 5, KOKKOS_LAMBDA(int j, int i) {
            x(j, i) += alpha_pending() * s(j, i);
            s(j, i) = r(j, i) * rA0(j, i) + beta() * s(j, i);
          });
      x_pending = false;
    } else {
      w.vector(
          "pop::pcg_direction", 4, 3,
          KOKKOS_LAMBDA(int j, int i) { s(j, i) = r(j, i) * rA0(j, i) + beta() * s(j, i); });
    }
    w.halo(s);
    w.sum_on_device<1>(
        "operator+reduction", "pop::pcg_operator_dot", 6, 19, sq_slot, KOKKOS_LAMBDA(int j, int i, double* c) {
          const double v = A.apply(s, j, i);
          q(j, i) = v;
          c[0] = s(j, i) * v;
        });
    eta0 = eta1;
    const auto alpha = Workspace::coefficient(KOKKOS_LAMBDA() { return step.alpha(); });
    if (!check) {  // X += alpha S waits for the next search direction
      eta1 = w.next_rz();
      eta1_host = words(w.sum_on_device<1>(
          "vector+reduction", "pop::pcg_update_r_dot", 4, 5, eta1, KOKKOS_LAMBDA(int j, int i, double* c) {
            const double rn = r(j, i) - alpha() * q(j, i);
            r(j, i) = rn;
            c[0] = rn * rn * rA0(j, i);
          }));
      x_pending = true;
      pending = step;
    } else {
      eta1 = w.next_rz();
      eta1_host = words(w.sum_on_device<1>(
          "vector+reduction", "pop::pcg_update_dot", 7, 7, eta1, KOKKOS_LAMBDA(int j, int i, double* c) {
            const double a = alpha();
            x(j, i) += a * s(j, i);
            const double rn = r(j, i) - a * q(j, i);
            r(j, i) = rn;
            c[0] = rn * rn * rA0(j, i);
          }));
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
