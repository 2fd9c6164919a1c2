// STSWM: pln (normalized associated Legendre functions by the forward column recurrence in n).
#include "legendre.hpp"

#include <cmath>

namespace proxylab::pstswm {
namespace {
constexpr int scale_bits = legendre_scale_bits;  // renormalise by 2^256 (exact)
constexpr int flush_exponent = -963;             // |value| < 2^-963 (~1e-290): zero
}  // namespace

ScaledValue legendre_seed(int m, double mu) {
  const double s = std::sqrt((1.0 - mu) * (1.0 + mu));  // cos(latitude)
  // P̄_m^m = sqrt(1/2) prod_{k=1..m} sqrt((2k+1)/(2k)) s^m as mantissa * 2^e.
  double p = std::sqrt(0.5);
  int e = 0;
  for (int k = 1; k <= m; ++k) {
    p *= std::sqrt((2.0 * k + 1.0) / (2.0 * k)) * s;
    if (p != 0.0 && std::fabs(p) < std::ldexp(1.0, -scale_bits)) {
      p = std::ldexp(p, scale_bits);
      e -= scale_bits;
    }
  }
  return {p, e};
}

double legendre_value(double v, int e) {
  if (v == 0.0) return 0.0;
  int ev;
  std::frexp(v, &ev);
  return ev + e < flush_exponent ? 0.0 : std::ldexp(v, e);
}

void legendre_column(int m, int nmax, double mu, double* out) {
  if (nmax < m) return;
  const ScaledValue seed = legendre_seed(m, mu);
  const double p = seed.mantissa;
  int e = seed.exponent;
  out[0] = legendre_value(p, e);
  if (nmax == m) return;
  double prev = p, cur = std::sqrt(2.0 * m + 3.0) * mu * p;  // P̄_{m+1}^m
  out[1] = legendre_value(cur, e);
  for (int n = m + 2; n <= nmax; ++n) {
    const double next = (mu * cur - epsilon(n - 1, m) * prev) / epsilon(n, m);
    prev = cur;
    cur = next;
    if (e < 0 && std::fabs(cur) > std::ldexp(1.0, scale_bits)) {  // back towards unit scale
      prev = std::ldexp(prev, -scale_bits);
      cur = std::ldexp(cur, -scale_bits);
      e += scale_bits;
    }
    out[n - m] = legendre_value(cur, e);
  }
}

View1D<double> legendre_table(const SpectralLayout& layout, const std::vector<double>& mu_pairs) {
  const int K = int(mu_pairs.size()), N = layout.ntrunc;
  View1D<double> table("pstswm::legendre", size_t(layout.rows) * K);
  auto h = Kokkos::create_mirror_view(table);
  const int nm = int(layout.ms.size());
  Kokkos::parallel_for("pstswm::legendre_table", Kokkos::RangePolicy<HostExec>(0, nm * K), [&](int idx) {
    const int i = idx / K, k = idx % K, m = layout.ms[i];
    std::vector<double> col(N + 2 - m);
    legendre_column(m, N + 1, mu_pairs[k], col.data());
    double* base = h.data() + size_t(layout.offset[i]) * K;
    for (int r = 0; r <= N + 1 - m; ++r) base[size_t(r) * K + k] = col[r];
  });
  Kokkos::deep_copy(table, h);
  return table;
}

}  // namespace proxylab::pstswm
