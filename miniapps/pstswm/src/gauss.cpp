// STSWM: glats / gauaw (Gaussian quadrature on [-1, 1]).
#include "gauss.hpp"

#include <cmath>

#include "proxylab/errors.hpp"

namespace proxylab::pstswm {

GaussGrid gauss_grid(int nlat) {
  GaussGrid g;
  g.mu.assign(nlat, 0.0);
  g.weight.assign(nlat, 0.0);
  const double pi = std::acos(-1.0);
  for (int i = 0; i < (nlat + 1) / 2; ++i) {
    double x = std::cos(pi * (4.0 * i + 3.0) / (4.0 * nlat + 2.0)), pm1 = 0;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1.0, p1 = x;  // P_0, P_1; three-term recurrence to P_N
      for (int k = 2; k <= nlat; ++k) {
        const double p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
        p0 = p1, p1 = p2;
      }
      const double dp = nlat * (x * p1 - p0) / (x * x - 1.0);
      const double dx = p1 / dp;
      x -= dx;
      pm1 = p0;
      if (std::fabs(dx) < 1e-16 * std::fabs(x) && it > 2) {
        double q0 = 1.0, q1 = x;  // P_{N-1} at the converged root
        for (int k = 2; k < nlat; ++k) {
          const double q2 = ((2.0 * k - 1.0) * x * q1 - (k - 1.0) * q0) / k;
          q0 = q1, q1 = q2;
        }
        pm1 = nlat > 1 ? q1 : 1.0;
        break;
      }
    }
    const double w = 2.0 * (1.0 - x * x) / (nlat * pm1 * nlat * pm1);
    g.mu[i] = x, g.mu[nlat - 1 - i] = -x;
    g.weight[i] = g.weight[nlat - 1 - i] = w;
  }
  if (nlat % 2) g.mu[nlat / 2] = 0.0;
  return g;
}

}  // namespace proxylab::pstswm
