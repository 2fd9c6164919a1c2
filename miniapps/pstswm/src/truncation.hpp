// Triangular truncation TN: spectral coefficients (m, n) with 0 <= m <= n <= N, stored m-major with
// one extra row n = N+1 per wavenumber (the "extended" layout: the vector transforms need P̄_{N+1}^m,
// as in STSWM's and ectrans' derivative recurrences; the model keeps that row zero).
// Grid sizes of PSTSWM's resolution table (seed 000: docs/references.md) and a rule for other N (alias-free for
// quadratic terms: nlon >= 3N+1).
#pragma once
#include <cmath>
#include <vector>

namespace proxylab::pstswm {

// Williamson et al. (1992) / STSWM constants.
constexpr double earth_radius = 6.37122e6;  // a [m]
constexpr double omega = 7.292e-5;          // Ω [1/s]
constexpr double gravity = 9.80616;         // g [m/s^2]

// ε_n^m = sqrt((n² - m²) / (4n² - 1)): μ P̄_{n-1}^m = ε_n^m P̄_n^m + ε_{n-1}^m P̄_{n-2}^m.
inline double epsilon(int n, int m) {
  return n <= 0 ? 0.0 : std::sqrt((double(n) * n - double(m) * m) / (4.0 * n * n - 1.0));
}

struct GridSize {
  int nlat = 0, nlon = 0;
};
// PSTSWM's table (T5 8x16 ... T680 1024x2048) and, for other N, the smallest nlon >= 3N+1 with
// factors 2, 3, 5 only (even), nlat = nlon / 2.
GridSize default_grid(int truncation);

// Per-wavenumber offsets of the extended spectral layout for a list of wavenumbers.
struct SpectralLayout {
  int ntrunc = 0;
  std::vector<int> ms;      // the wavenumbers held (ascending or any order)
  std::vector<int> offset;  // first row of ms[i]; rows n = m .. N+1
  int rows = 0;             // total rows
  SpectralLayout() = default;
  SpectralLayout(int n, std::vector<int> wavenumbers) : ntrunc(n), ms(std::move(wavenumbers)) {
    for (int m : ms) offset.push_back(rows), rows += n + 2 - m;
  }
  int rows_of(int i) const { return ntrunc + 2 - ms[i]; }
  static SpectralLayout all(int n) {
    std::vector<int> m(n + 1);
    for (int i = 0; i <= n; ++i) m[i] = i;
    return SpectralLayout(n, m);
  }
};

}  // namespace proxylab::pstswm
