// STSWM pln's column recurrence, run per wavenumber across all latitude pairs at once (SHTns's on-the-fly
// Legendre functions).
#include "legendre_recurrence.hpp"

#include <algorithm>
#include <cmath>

#include "legendre.hpp"

namespace proxylab::pstswm {

LegendreRecurrence::LegendreRecurrence(const SpectralLayout& layout, const std::vector<double>& mu_pairs)
    : layout_(layout), mu_(mu_pairs), eps_(layout.rows) {
  const size_t K = mu_.size(), nm = layout_.ms.size();
  seed_.resize(nm * K);
  seed_exponent_.resize(nm * K);
  for (size_t i = 0; i < nm; ++i) {
    const int m = layout_.ms[i];
    for (size_t k = 0; k < K; ++k) {
      const ScaledValue s = legendre_seed(m, mu_[k]);
      seed_[i * K + k] = s.mantissa;
      seed_exponent_[i * K + k] = s.exponent;
    }
    for (int r = 0; r < layout_.rows_of(int(i)); ++r) eps_[layout_.offset[i] + r] = epsilon(m + r, m);
  }
}

size_t LegendreRecurrence::tile_doubles(const SpectralLayout& layout, size_t pairs) {
  if (layout.ms.empty()) return 0;
  return size_t(layout.ntrunc + 2 - *std::min_element(layout.ms.begin(), layout.ms.end())) * pairs;
}

double LegendreRecurrence::host_bytes(const SpectralLayout& layout, size_t pairs) {
  return sizeof(double) * (2.0 * layout.ms.size() * pairs + layout.rows + pairs + 3.0 * pairs);
}

// legendre_column for every pair at once: the rows in n, the pairs innermost. A pair whose numbers carry an
// extended exponent (a small seed: high m near the poles) is taken back to unit scale by the same select as there;
// its values (mantissa x 2^exponent) are written by a second, scalar pass while any pair still has one.
void LegendreRecurrence::wavenumber_block(int i, double* tile) const {
  const int K = int(mu_.size()), m = layout_.ms[i], rows = layout_.rows_of(i);
  const double* mu = mu_.data();
  const double* eps = eps_.data() + layout_.offset[i];
  const double big = std::ldexp(1.0, legendre_scale_bits), down = std::ldexp(1.0, -legendre_scale_bits);
  const double smallest = std::ldexp(1.0, -964);  // legendre_value's flush at unit scale
  std::vector<double> state(3 * size_t(K));       // the recurrence's previous and current value, the exponent
  double *prev = state.data(), *cur = prev + K, *ex = cur + K;
  int scaled = 0;  // pairs with an exponent below 0
  for (int k = 0; k < K; ++k) {
    prev[k] = seed_[size_t(i) * K + k];
    ex[k] = seed_exponent_[size_t(i) * K + k];
    tile[k] = legendre_value(prev[k], int(ex[k]));
    scaled += ex[k] < 0;
  }
  if (rows == 1) return;
  const double first = std::sqrt(2.0 * m + 3.0);  // P̄_{m+1}^m = sqrt(2m+3) μ P̄_m^m
  for (int k = 0; k < K; ++k) {
    cur[k] = first * mu[k] * prev[k];
    tile[K + k] = legendre_value(cur[k], int(ex[k]));
  }
  for (int r = 2; r < rows; ++r) {
    const double a = eps[r - 1], b = eps[r];
    double* out = tile + size_t(r) * K;
#pragma GCC ivdep
    // The conditions as 0.0 / 1.0 factors, not branches or selects: GCC (trapping math on) vectorises only this form.
    for (int k = 0; k < K; ++k) {
      const double c = cur[k], e = ex[k], next = (mu[k] * c - a * prev[k]) / b;
      const double rescale = double((e < 0) & (std::fabs(next) > big));  // back towards unit scale
      const double factor = down * rescale + (1.0 - rescale);            // 2^-256 or 1, exactly
      const double c1 = next * factor, e1 = e + legendre_scale_bits * rescale;
      prev[k] = c * factor;
      cur[k] = c1;
      ex[k] = e1;
      out[k] = c1 * double((e1 == 0) & (std::fabs(c1) >= smallest));  // legendre_value at unit scale
    }
    if (scaled == 0) continue;
    scaled = 0;
    for (int k = 0; k < K; ++k)
      if (ex[k] < 0) {
        out[k] = legendre_value(cur[k], int(ex[k]));
        ++scaled;
      }
  }
}

}  // namespace proxylab::pstswm
