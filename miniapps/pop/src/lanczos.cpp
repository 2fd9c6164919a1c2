// Preconditioned Lanczos for P-CSI's eigenvalue bounds (see lanczos.hpp).
#include "lanczos.hpp"

#include <cmath>

#include "proxylab/errors.hpp"

extern "C" void dstev_(const char* jobz, const int* n, double* d, double* e, double* z, const int* ldz, double* work,
                       int* info);

namespace proxylab::pop {

std::vector<double> tridiagonal_eigenvalues(std::vector<double> diag, std::vector<double> offdiag) {
  const int n = static_cast<int>(diag.size()), one = 1;
  if (n == 0) return {};
  offdiag.resize(n > 1 ? n - 1 : 1);
  double z = 0, work = 0;
  int info = 0;
  dstev_("N", &n, diag.data(), offdiag.data(), &z, &one, &work, &info);
  if (info != 0) throw RuntimeError("pop: LAPACK dstev failed (info " + std::to_string(info) + ")");
  return diag;
}

EigenBounds lanczos_bounds(Workspace& w, int steps) {
  auto t = w.timers.scope("lanczos");
  const auto v = w.field("pop::lanczos_v"), vold = w.field("pop::lanczos_vold"), rv = w.field("pop::lanczos_r"),
             q = w.field("pop::lanczos_q"), aq = w.field("pop::lanczos_aq");
  const auto mask = w.op.mask, rA0 = w.op.rA0;
  const int gi0 = w.dom.i0() - w.dom.width(), gj0 = w.dom.j0() - w.dom.width();
  // start vector r (ocean points), and beta_0 = sqrt(<r, (-M)^-1 r>)
  w.vector(
      "pop::lanczos_start", 2, 1, KOKKOS_LAMBDA(int j, int i) { rv(j, i) = mask(j, i) * hash_unit(gi0 + i, gj0 + j); });
  auto norm_p = [&]() {
    return std::sqrt(w.sum<1>(
        "reduction", "pop::lanczos_norm", 3, 4,
        KOKKOS_LAMBDA(int j, int i, double* c) { c[0] = -mask(j, i) * rv(j, i) * rv(j, i) * rA0(j, i); })[0]);
  };
  double beta = norm_p();
  std::vector<double> alphas, betas;
  EigenBounds e;
  for (int k = 0; k < steps; ++k) {
    const double rb = 1.0 / beta;
    // v_k = r / beta, q_k = (-M)^-1 v_k; keep v_{k-1}
    w.vector(
        "pop::lanczos_vectors", 6, 3, KOKKOS_LAMBDA(int j, int i) {
          vold(j, i) = v(j, i);
          v(j, i) = rv(j, i) * rb;
          q(j, i) = -rv(j, i) * rb * rA0(j, i);
        });
    w.halo(q);
    w.apply(q, aq);  // aq = A q; (-A) q = -aq
    const double alpha = w.sum<1>(
        "reduction", "pop::lanczos_alpha", 3, 3,
        KOKKOS_LAMBDA(int j, int i, double* c) { c[0] = -mask(j, i) * q(j, i) * aq(j, i); })[0];
    const double beta_prev = beta;
    w.vector(
        "pop::lanczos_residual", 4, 4,
        KOKKOS_LAMBDA(int j, int i) { rv(j, i) = -aq(j, i) - alpha * v(j, i) - beta_prev * vold(j, i); });
    alphas.push_back(alpha);
    e.steps = k + 1;
    beta = norm_p();
    if (!(beta > 1e-14 * std::fabs(alpha))) break;  // invariant subspace: the Ritz values are exact
    betas.push_back(beta);
  }
  betas.resize(alphas.size() > 0 ? alphas.size() - 1 : 0);
  const auto ev = tridiagonal_eigenvalues(alphas, betas);
  e.nu = ev.front();
  e.mu = ev.back();
  return e;
}

}  // namespace proxylab::pop
