// P-CSI, the preconditioned Chebyshev-Stiefel iteration of POP (Hu et al. SC15; Huang et al. GMD 2016):
// eigenvalue bounds [nu, mu] of M^-1 A from a few Lanczos steps at set-up, then
//   alpha = 2/(mu-nu), beta = (mu+nu)/(mu-nu), gamma = beta/alpha, omega_0 = 2/gamma,
//   omega <- 1/(gamma - omega/(4 alpha^2)), dx = omega M^-1 r + (gamma omega - 1) dx, x += dx, r = b - A x.
// One halo update per iteration and no global sum except at the convergence checks.
#include "lanczos.hpp"
#include "solver.hpp"

namespace proxylab::pop {

void solve_pcsi(Workspace& w, const View2D<double>& b, const View2D<double>& x) {
  const EigenBounds eb = lanczos_bounds(w, w.opt.lanczos_steps);
  const double nu = eb.nu * w.opt.nu_safety, mu = eb.mu * w.opt.mu_safety;
  w.stats.nu = nu;
  w.stats.mu = mu;
  const double alpha = 2.0 / (mu - nu), beta = (mu + nu) / (mu - nu), gamma = beta / alpha;
  const auto r = w.field("pop::R"), dx = w.field("pop::DX"), z = w.field("pop::Z");
  const auto rA0 = w.op.rA0;
  const bool fused = w.opt.fused;
  w.halo(x);
  residual(w.op, w.dom, w.opt.mapping, b, x, r);
  w.begin_iterations();
  double omega = 2.0 / gamma;
  int m = 1;
  for (; m <= w.opt.max_iters; ++m) {
    // iteration 1: dx = M^-1 r / gamma; later: the Chebyshev three-term recurrence
    const double c1 = m == 1 ? 1.0 / gamma : (omega = 1.0 / (gamma - omega / (4.0 * alpha * alpha)));
    const double c2 = m == 1 ? 0.0 : gamma * omega - 1.0;
    if (fused) {
      w.vector(
          "pop::pcsi_update", 6, 5, KOKKOS_LAMBDA(int j, int i) {
            const double d = c1 * r(j, i) * rA0(j, i) + c2 * dx(j, i);
            dx(j, i) = d;
            x(j, i) += d;
          });
    } else {
      w.vector(
          "pop::pcsi_precond", 3, 1, KOKKOS_LAMBDA(int j, int i) { z(j, i) = r(j, i) * rA0(j, i); });
      w.vector(
          "pop::pcsi_update_dx", 3, 3, KOKKOS_LAMBDA(int j, int i) { dx(j, i) = c1 * z(j, i) + c2 * dx(j, i); });
      w.vector(
          "pop::pcsi_update_x", 3, 1, KOKKOS_LAMBDA(int j, int i) { x(j, i) += dx(j, i); });
    }
    w.halo(x);
    {
      auto t = w.phase("operator");
      residual(w.op, w.dom, w.opt.mapping, b, x, r);
      w.count(7, 18);  // r = b - A x
    }
    if (w.is_check(m) && w.check(m, b, x, r, false)) break;
  }
  w.end_iterations(m > w.opt.max_iters ? w.opt.max_iters : m);
}

}  // namespace proxylab::pop
