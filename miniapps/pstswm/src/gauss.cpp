// STSWM: glats / gauaw (Gaussian quadrature on [-1, 1]). Newton iteration and weights in long double
// (80-bit on x86): the weights then carry errors of a few ulp instead of O(N) ulp.
#include "gauss.hpp"

#include <cmath>

#include "proxylab/stop.hpp"

namespace proxylab::pstswm {
namespace {
using real = long double;
// P_n(x) and P_{n-1}(x) by the three-term recurrence.
void legendre_pair(int n, real x, real& pn, real& pn1) {
  real p0 = 1.0L, p1 = x;
  if (n == 0) {
    pn = 1.0L;
    pn1 = 0.0L;
    return;
  }
  for (int k = 2; k <= n; ++k) {
    const real p2 = ((2.0L * k - 1.0L) * x * p1 - (k - 1.0L) * p0) / k;
    p0 = p1;
    p1 = p2;
  }
  pn = p1;
  pn1 = p0;
}
}  // namespace

GaussGrid gauss_grid(int nlat) {
  GaussGrid g;
  g.mu.assign(nlat, 0.0);
  g.weight.assign(nlat, 0.0);
  const real pi = 3.141592653589793238462643383279502884L;
  // O(nlat^2) work (minutes at nlat = 100000): Ctrl-C breaks out, and the driver's collective check after it
  // (pstswm_app.cpp) ends the run before the points left zero are used.
  for (int i = 0; i < (nlat + 1) / 2 && !stop_pending(); ++i) {
    real x = std::cos(pi * (4.0L * i + 3.0L) / (4.0L * nlat + 2.0L)), pn = 0, pn1 = 0;
    for (int it = 0; it < 100; ++it) {
      legendre_pair(nlat, x, pn, pn1);
      const real dp = nlat * (x * pn - pn1) / (x * x - 1.0L);
      const real dx = pn / dp;
      x -= dx;
      if (std::fabs(dx) <= 1e-19L * std::fabs(x)) break;
    }
    legendre_pair(nlat, x, pn, pn1);
    const real w = 2.0L * (1.0L - x * x) / ((nlat * pn1) * (nlat * pn1));
    g.mu[i] = double(x);
    g.mu[nlat - 1 - i] = -double(x);
    g.weight[i] = g.weight[nlat - 1 - i] = double(w);
  }
  if (nlat % 2) g.mu[nlat / 2] = 0.0;
  return g;
}

}  // namespace proxylab::pstswm
