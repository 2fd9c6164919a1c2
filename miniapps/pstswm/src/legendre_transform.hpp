// The Legendre transform over latitude, per zonal wavenumber m, on even/odd-split data
// (ectrans ledir/leinv; STSWM fltsum / fltinv):
//   forward  S(n, c) = Σ_k P̄_n^m(μ_k) E_m(k, c)   for n - m even,  O_m(k, c) for n - m odd
//   inverse  E_m(k, c) = Σ_{n-m even} P̄_n^m(μ_k) S(n, c),  O_m(k, c) = Σ_{n-m odd} ...
// where k runs over north/south latitude pairs, E = symmetric part (north + south, already weighted)
// and O = antisymmetric part, c over columns (field, level, real/imaginary).
// Layouts (flat doubles): E, O [m_i][k][c], O `odd` doubles after E in one array; S [row][c] with rows of the
// extended SpectralLayout. All on the default execution space.
// Variants: `gemm` (two DGEMMs per m, one batch through common/blas.hpp: OpenBLAS per product on a host, one grouped
// cuBLAS call on a GPU), `loop` (Kokkos kernels in one of two shapes, LTLoopShape; the level
// count either a run-time value or a compile-time constant: 1, 18 or 96, seed 000's "compile-time
// specification of number of vertical levels"; the loop variants give the same bits for either), and `recurrence`
// (host back ends: gemm's products per m, each from a tile of P̄ recomputed for that m by legendre_recurrence.hpp
// instead of from the stored table, SHTns's trade of arithmetic for memory; the same P̄ bit for bit).
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "backend.hpp"
#include "legendre_recurrence.hpp"
#include "proxylab/blas.hpp"
#include "proxylab/layout.hpp"
#include "proxylab/named_choice.hpp"
#include "truncation.hpp"

namespace proxylab::pstswm {

enum class LTVariant { gemm, loop, recurrence };

// The most fields one transform call carries (the shallow water step's U, V, Phi and tendencies).
constexpr int max_transform_fields = 5;
PROXYLAB_CHOICE_NAMES(LTVariant, "Legendre transform variant", "gemm", "loop", "recurrence");

// How the loop kernels split the work (the same sums in the same order, so the same bits):
// - rows (host back ends): an iteration per spectral row (forward) or (wavenumber, latitude pair) (inverse), every
//   column of it, the columns innermost (vectorised on a host core);
// - tiles: a thread per complex column (re, im) of a register tile of loop_tile rows of one (m, parity) (forward) or
//   loop_tile latitude pairs of one m (inverse): 2 loop_tile accumulators whatever the level count, neighbouring
//   threads on neighbouring columns (a GPU's warps; bench/pstswm/README.md, "The device loop LT").
enum class LTLoopShape { rows, tiles };
constexpr LTLoopShape default_loop_shape = backend::loop_lt_rows ? LTLoopShape::rows : LTLoopShape::tiles;
constexpr int loop_tile = 8;

class LegendreTransform {
 public:
  // mu_pairs: northern sines of latitude of the pairs this transform sums over.
  LegendreTransform(SpectralLayout layout, const std::vector<double>& mu_pairs, LTVariant variant, int levels,
                    bool fixed_levels, LTLoopShape loop_shape = default_loop_shape);

  // nfields (at most max_transform_fields) fields of `levels` complex columns each: ncol = nfields * 2 * levels. EO
  // holds E, then O from element `odd` on.
  void forward(const View1D<double>& EO, size_t odd, int nfields, const View1D<double>& S) const;
  void inverse(const View1D<double>& S, int nfields, const View1D<double>& EO, size_t odd) const;

  const SpectralLayout& layout() const { return layout_; }
  int pairs() const { return pairs_; }
  double flops(int nfields) const { return 2.0 * layout_.rows * pairs_ * nfields * 2.0 * levels_; }
  // Compulsory memory traffic of one call, each array touched once (the table, unless recomputed; both Fourier
  // halves, the spectral rows): the denominator of the LT's arithmetic intensity (roofline, `./proxylab roofline`).
  double bytes(int nfields) const {
    const double ncol = nfields * 2.0 * levels_, rows = layout_.rows, nm = double(layout_.ms.size());
    const double table = variant_ == LTVariant::recurrence ? 0.0 : rows * pairs_;
    return 8.0 * (table + 2.0 * nm * pairs_ * ncol + rows * ncol);
  }
  static bool level_count_compiled(int levels) { return levels == 1 || levels == 18 || levels == 96; }
  // The forward tiles of the loop kernels' tiles shape: up to loop_tile rows of one (m, parity) each.
  static size_t row_tiles(const SpectralLayout& layout);

 private:
  // The products of nfields fields (ectrans ledir / leinv), planned on first use: gemm's in one batch reading the
  // table, recurrence's in one batch per wavenumber reading its tile.
  using Batch = GemmBatch<ExecSpace>;
  const std::vector<Batch>& products(bool forward, int nfields, size_t odd) const;
  template <class In, class Out>
  void recompute_and_multiply(const std::vector<Batch>& batches, const In& in, const Out& out) const;
  SpectralLayout layout_;
  int pairs_, levels_;
  LTVariant variant_;
  bool fixed_;
  LTLoopShape loop_shape_;
  View1D<double> table_;  // gemm and loop: the stored P̄; recurrence: one wavenumber's tile
  std::unique_ptr<LegendreRecurrence> recurrence_;
  View1D<int> row_m_, row_r_, m_offset_;  // row -> (wavenumber index, n - m); index -> first row
  View1D<int> tile_row_;                  // the tiles shape: the first row of each forward tile
  struct Planned {
    size_t odd = 0;
    std::vector<Batch> batches;
  };
  mutable std::array<Planned, 2 * max_transform_fields> planned_;  // [forward?][nfields - 1]
};

}  // namespace proxylab::pstswm
