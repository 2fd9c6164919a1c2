// The associated Legendre functions recomputed while the transform runs, as SHTns does (Schaeffer 2013), instead of
// read from a stored table (legendre_table: PSTSWM's and ectrans's way): per wavenumber m, the block of P̄_n^m(μ_k) for
// n = m .. N+1 and every latitude pair k, by the column recurrence in n with the latitudes innermost (so that it
// vectorises across them), into a tile the wavenumber's products then read from cache. It keeps per (wavenumber,
// pair) only the seed P̄_m^m. The values are legendre_column's bit for bit: the same arithmetic and extended exponent.
#pragma once
#include <vector>

#include "truncation.hpp"

namespace proxylab::pstswm {

class LegendreRecurrence {
 public:
  // mu_pairs: the northern sines of latitude of the pairs.
  LegendreRecurrence(const SpectralLayout& layout, const std::vector<double>& mu_pairs);

  // The rows n = m .. N+1 of wavenumber index i into tile, each `pairs` doubles (legendre_table's block of i).
  void wavenumber_block(int i, double* tile) const;
  // The tile: the largest block, in doubles.
  size_t tile_doubles() const { return tile_doubles(layout_, mu_.size()); }
  static size_t tile_doubles(const SpectralLayout& layout, size_t pairs);
  // The host memory it holds besides the tile, in bytes (seeds, coefficients, sines, the recurrence's state).
  static double host_bytes(const SpectralLayout& layout, size_t pairs);

 private:
  SpectralLayout layout_;
  std::vector<double> mu_;
  std::vector<double> seed_, seed_exponent_;  // [i][pair]: P̄_m^m = seed * 2^exponent
  std::vector<double> eps_;                   // [row]: ε_n^m of the layout's rows
};

}  // namespace proxylab::pstswm
