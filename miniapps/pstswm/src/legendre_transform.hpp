// The Legendre transform over latitude, per zonal wavenumber m, on even/odd-split data
// (ectrans ledir/leinv; STSWM fltsum / fltinv):
//   forward  S(n, c) = Σ_k P̄_n^m(μ_k) E_m(k, c)   for n - m even,  O_m(k, c) for n - m odd
//   inverse  E_m(k, c) = Σ_{n-m even} P̄_n^m(μ_k) S(n, c),  O_m(k, c) = Σ_{n-m odd} ...
// where k runs over north/south latitude pairs, E = symmetric part (north + south, already weighted)
// and O = antisymmetric part, c over columns (field, level, real/imaginary).
// Layouts (flat doubles): E, O [m_i][k][c]; S [row][c] with rows of the extended SpectralLayout.
// Variants: `gemm` (two DGEMMs per m through common/blas.hpp) and `loop` (Kokkos kernels; the level
// count either a run-time value or a compile-time constant: 1, 18 or 96, the seed's "compile-time
// specification of number of vertical levels"). The loop variants give the same bits for either.
#pragma once
#include <string>
#include <vector>

#include "proxylab/layout.hpp"
#include "proxylab/named_choice.hpp"
#include "truncation.hpp"

namespace proxylab::pstswm {

enum class LTVariant { gemm, loop };
PROXYLAB_CHOICE_NAMES(LTVariant, "Legendre transform variant", "gemm", "loop");

class LegendreTransform {
 public:
  // mu_pairs: northern sines of latitude of the pairs this transform sums over.
  LegendreTransform(SpectralLayout layout, const std::vector<double>& mu_pairs, LTVariant variant, int levels,
                    bool fixed_levels);

  // nfields fields of `levels` complex columns each: ncol = nfields * 2 * levels. Host memory: BLAS (gemm) or
  // host loops (loop) read and write them.
  void forward(const HostView<double*>& E, const HostView<double*>& O, int nfields, const HostView<double*>& S) const;
  void inverse(const HostView<double*>& S, int nfields, const HostView<double*>& E, const HostView<double*>& O) const;

  const SpectralLayout& layout() const { return layout_; }
  int pairs() const { return pairs_; }
  double flops(int nfields) const { return 2.0 * layout_.rows * pairs_ * nfields * 2.0 * levels_; }
  // Compulsory memory traffic of one call, each array touched once (the table, both Fourier halves, the
  // spectral rows): the denominator of the LT's arithmetic intensity (roofline, `./proxylab roofline`).
  double bytes(int nfields) const {
    const double ncol = nfields * 2.0 * levels_, rows = layout_.rows, nm = double(layout_.ms.size());
    return 8.0 * (rows * pairs_ + 2.0 * nm * pairs_ * ncol + rows * ncol);
  }
  static bool level_count_compiled(int levels) { return levels == 1 || levels == 18 || levels == 96; }

 private:
  SpectralLayout layout_;
  int pairs_, levels_;
  LTVariant variant_;
  bool fixed_;
  HostView<double*> table_;
  HostView<int*> row_m_, row_r_, m_offset_;  // row -> (wavenumber index, n - m); index -> first row
};

}  // namespace proxylab::pstswm
