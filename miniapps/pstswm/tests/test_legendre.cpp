// Gaussian quadrature and the normalized associated Legendre functions, including T680 near the poles, stored or
// recomputed by the recurrence variant.
#include <cmath>
#include <vector>

#include "proxylab/testing.hpp"
#include "src/gauss.hpp"
#include "src/legendre.hpp"
#include "src/legendre_recurrence.hpp"
#include "src/truncation.hpp"

using namespace proxylab::pstswm;

TEST_CASE("pstswm: Gaussian quadrature integrates polynomials of degree 2 nlat - 1 exactly", "[pstswm][gauss]") {
  for (int nlat : {8, 64, 1024}) {
    const GaussGrid g = gauss_grid(nlat);
    for (int deg : {0, 2, 10, 2 * nlat - 2}) {
      double s = 0;
      for (int j = 0; j < nlat; ++j) s += g.weight[j] * std::pow(g.mu[j], deg);
      CHECK(s == Approx(2.0 / (deg + 1)).epsilon(1e-12));
    }
    for (int j = 0; j + 1 < nlat; ++j) REQUIRE(g.mu[j] > g.mu[j + 1]);  // north to south
    REQUIRE(g.mu[0] == -g.mu[nlat - 1]);
  }
}

// Σ_j w_j P̄_n^m P̄_n'^m over the Gaussian grid = δ_nn' (exact for n + n' <= 2 nlat - 1).
double orthonormality_error(int N, int nlat, int m) {
  const GaussGrid g = gauss_grid(nlat);
  std::vector<std::vector<double>> p(nlat, std::vector<double>(N + 2 - m));
  for (int j = 0; j < nlat; ++j) legendre_column(m, N + 1, g.mu[j], p[j].data());
  double worst = 0;
  for (int a = 0; a <= N + 1 - m; ++a)
    for (int b = a; b <= N + 1 - m; b += (b - a < 4 || b > N - 4) ? 1 : 7) {
      double s = 0;
      for (int j = 0; j < nlat; ++j) s += g.weight[j] * p[j][a] * p[j][b];
      worst = std::max(worst, std::fabs(s - (a == b ? 1.0 : 0.0)));
    }
  return worst;
}

TEST_CASE("pstswm: Legendre functions are orthonormal on the Gaussian grid", "[pstswm][legendre]") {
  REQUIRE(orthonormality_error(5, 8, 0) < 1e-14);
  REQUIRE(orthonormality_error(42, 64, 17) < 1e-13);
  REQUIRE(orthonormality_error(85, 128, 85) < 1e-13);
}

TEST_CASE("pstswm: T680 Legendre functions near the poles: finite, no denormals, orthonormal", "[pstswm][legendre]") {
  const int N = 680, nlat = 1024;
  const GaussGrid g = gauss_grid(nlat);
  std::vector<double> col(N + 2);
  for (int m : {0, 400, 680}) {
    for (int j : {0, 1, 100, 511}) {
      legendre_column(m, N + 1, g.mu[j], col.data());
      for (int r = 0; r <= N + 1 - m; ++r) {
        REQUIRE(std::isfinite(col[r]));
        REQUIRE(std::fpclassify(col[r]) != FP_SUBNORMAL);
        REQUIRE(std::fabs(col[r]) < 40.0);
      }
    }
    // The naive seed P̄_mm = c (1-μ²)^{m/2} underflows at the first latitude for m = 680 (~1e-1790) and
    // the recurrence would give zeros where the function is representable; the scaled seed does not.
    legendre_column(m, N + 1, g.mu[200], col.data());
    REQUIRE(std::fabs(col[N + 1 - m]) > 0.0);
  }
  CHECK(orthonormality_error(N, nlat, 680) < 1e-12);
  CHECK(orthonormality_error(N, nlat, 400) < 1e-12);
}

TEST_CASE("pstswm: the recurrence's blocks are the stored table's values bit for bit, T340 and T680 near the poles",
          "[pstswm][legendre]") {
  for (const int N : {340, 680}) {
    const GridSize g = default_grid(N);
    const GaussGrid gauss = gauss_grid(g.nlat);
    std::vector<double> mu(gauss.mu.begin(), gauss.mu.begin() + g.nlat / 2);
    // every wavenumber at T340; at T680 the lowest, the highest and three between (the table would take 950 MB)
    std::vector<int> ms;
    for (int m = 0; m <= N; m += N == 340 ? 1 : 170) ms.push_back(m);
    const SpectralLayout layout(N, ms);
    const LegendreRecurrence rec(layout, mu);
    std::vector<double> tile(rec.tile_doubles()), column(N + 2);
    long long differ = 0, scaled_nonzero = 0;
    for (size_t i = 0; i < ms.size(); ++i) {
      rec.wavenumber_block(int(i), tile.data());
      for (size_t k = 0; k < mu.size(); ++k) {
        legendre_column(ms[i], N + 1, mu[k], column.data());
        scaled_nonzero += legendre_seed(ms[i], mu[k]).exponent < 0 && column[N + 1 - ms[i]] != 0.0;
        for (int r = 0; r <= N + 1 - ms[i]; ++r) differ += tile[r * mu.size() + k] != column[r];
      }
    }
    INFO("T" << N);
    CHECK(differ == 0);
    CHECK(scaled_nonzero > 0);  // the extended-exponent path was taken and came back to unit scale
  }
}
