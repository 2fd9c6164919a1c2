// STSWM: fltsum (forward) and fltinv (inverse) Legendre transforms; ectrans: ledir / leinv.
#include "legendre_transform.hpp"

#include "backend.hpp"
#include "legendre.hpp"
#include "proxylab/errors.hpp"

namespace proxylab::pstswm {
namespace {

// C2: complex columns per field (2 * levels) when fixed at compile time; 0 = run time (c2).
template <int C2>
struct LTKernels {
  View1D<double> P;
  View1D<int> row_m, row_r, m_offset, tile_row;
  int K, nfields, c2_runtime;

  KOKKOS_INLINE_FUNCTION int c2() const { return C2 > 0 ? C2 : c2_runtime; }

  // STSWM: fltsum, one spectral row (m, n) for all columns.
  void forward_rows(const double* E, const double* O, double* S) const {
    const int rows = int(row_m.extent(0));
    const auto self = *this;
    Kokkos::parallel_for(
        "pstswm::lt_forward_loop", Kokkos::RangePolicy<ExecSpace>(0, rows), KOKKOS_LAMBDA(int row) {
          const int c2 = self.c2(), ncol = self.nfields * c2, mi = self.row_m(row);
          const double* src = ((self.row_r(row) % 2 == 0) ? E : O) + size_t(mi) * self.K * ncol;
          const double* p = self.P.data() + size_t(row) * self.K;
          double* out = S + size_t(row) * ncol;
          for (int f = 0; f < self.nfields; ++f) {
            double acc[C2 > 0 ? C2 : 1];
            double* a = C2 > 0 ? acc : out + f * c2;
            for (int c = 0; c < c2; ++c) a[c] = 0.0;
            for (int k = 0; k < self.K; ++k) {
              const double pk = p[k];
              const double* s = src + size_t(k) * ncol + f * c2;
              for (int c = 0; c < c2; ++c) a[c] += pk * s[c];
            }
            if (C2 > 0)
              for (int c = 0; c < c2; ++c) out[f * c2 + c] = acc[c];
          }
        });
  }

  // STSWM: fltinv, one (m, latitude pair) for all columns: even rows -> E, odd rows -> O.
  void inverse_rows(const double* S, double* E, double* O) const {
    const int nm = int(m_offset.extent(0)) - 1;
    const auto self = *this;
    Kokkos::parallel_for(
        "pstswm::lt_inverse_loop", Kokkos::RangePolicy<ExecSpace>(0, nm * K), KOKKOS_LAMBDA(int idx) {
          const int mi = idx / self.K, k = idx % self.K, c2 = self.c2(), ncol = self.nfields * c2;
          const int r0 = self.m_offset(mi), r1 = self.m_offset(mi + 1);
          for (int parity = 0; parity < 2; ++parity) {  // even rows -> E, odd rows -> O: one accumulator each
            double* out = (parity == 0 ? E : O) + size_t(idx) * ncol;
            for (int f = 0; f < self.nfields; ++f) {
              double acc[C2 > 0 ? C2 : 1];
              double* a = C2 > 0 ? acc : out + f * c2;
              for (int c = 0; c < c2; ++c) a[c] = 0.0;
              for (int row = r0 + parity; row < r1; row += 2) {
                const double pk = self.P(size_t(row) * self.K + k);
                const double* s = S + size_t(row) * ncol + f * c2;
                for (int c = 0; c < c2; ++c) a[c] += pk * s[c];
              }
              if (C2 > 0)
                for (int c = 0; c < c2; ++c) out[f * c2 + c] = acc[c];
            }
          }
        });
  }

  // STSWM: fltsum as register tiles: thread t holds complex column q = t % (ncol / 2) of the forward tile
  // t / (ncol / 2), rows first, first + 2, ... of one (m, parity), all reading the same E or O values. A row beyond
  // the tile's last repeats the last (the same loads, no branch in the k loop) and is not stored.
  void forward_tiles(const double* E, const double* O, double* S) const {
    const size_t columns = size_t(nfields) * c2() / 2;
    const auto self = *this;
    Kokkos::parallel_for(
        "pstswm::lt_forward_tiles", Kokkos::RangePolicy<ExecSpace>(0, tile_row.extent(0) * columns),
        KOKKOS_LAMBDA(size_t t) {
          const int ncol = self.nfields * self.c2(), q = int(t % (ncol / 2)), first = self.tile_row(t / (ncol / 2));
          const int mi = self.row_m(first), rows = (self.m_offset(mi + 1) - first + 1) / 2;
          const int last = (rows < loop_tile ? rows : loop_tile) - 1;
          const double* src = ((self.row_r(first) % 2 == 0) ? E : O) + size_t(mi) * self.K * ncol + 2 * q;
          const double* p = self.P.data() + size_t(first) * self.K;
          double acc[loop_tile][2] = {};
          for (int k = 0; k < self.K; ++k) {
            const double re = src[size_t(k) * ncol], im = src[size_t(k) * ncol + 1];
            for (int j = 0; j < loop_tile; ++j) {
              const double pk = p[size_t(2 * (j < last ? j : last)) * self.K + k];
              acc[j][0] += pk * re;
              acc[j][1] += pk * im;
            }
          }
          for (int j = 0; j < loop_tile; ++j)
            if (j <= last) {
              double* out = S + size_t(first + 2 * j) * ncol + 2 * q;
              out[0] = acc[j][0];
              out[1] = acc[j][1];
            }
        });
  }

  // STSWM: fltinv as register tiles: thread t holds complex column q = t % (ncol / 2) of loop_tile latitude pairs
  // k0 .. of one wavenumber, summing its even rows into E, then its odd rows into O. Pairs beyond K repeat the last.
  void inverse_tiles(const double* S, double* E, double* O) const {
    const int nm = int(m_offset.extent(0)) - 1, kblocks = (K + loop_tile - 1) / loop_tile;
    const size_t columns = size_t(nfields) * c2() / 2;
    const auto self = *this;
    Kokkos::parallel_for(
        "pstswm::lt_inverse_tiles", Kokkos::RangePolicy<ExecSpace>(0, size_t(nm) * kblocks * columns),
        KOKKOS_LAMBDA(size_t t) {
          const int ncol = self.nfields * self.c2(), q = int(t % (ncol / 2));
          const int block = int(t / (ncol / 2)), mi = block / kblocks, k0 = (block % kblocks) * loop_tile;
          const int last = (self.K - k0 < loop_tile ? self.K - k0 : loop_tile) - 1, r0 = self.m_offset(mi),
                    r1 = self.m_offset(mi + 1);
          for (int parity = 0; parity < 2; ++parity) {
            double acc[loop_tile][2] = {};
            for (int row = r0 + parity; row < r1; row += 2) {
              const double re = S[size_t(row) * ncol + 2 * q], im = S[size_t(row) * ncol + 2 * q + 1];
              const double* p = self.P.data() + size_t(row) * self.K + k0;
              for (int j = 0; j < loop_tile; ++j) {
                const double pk = p[j < last ? j : last];
                acc[j][0] += pk * re;
                acc[j][1] += pk * im;
              }
            }
            double* out = (parity == 0 ? E : O) + (size_t(mi) * self.K + k0) * ncol + 2 * q;
            for (int j = 0; j < loop_tile; ++j)
              if (j <= last) {
                out[size_t(j) * ncol] = acc[j][0];
                out[size_t(j) * ncol + 1] = acc[j][1];
              }
          }
        });
  }
};

template <class F>
void dispatch_levels(bool fixed, int levels, const F& f) {
  if (fixed && levels == 1) return f(std::integral_constant<int, 2>());
  if (fixed && levels == 18) return f(std::integral_constant<int, 36>());
  if (fixed && levels == 96) return f(std::integral_constant<int, 192>());
  f(std::integral_constant<int, 0>());
}

}  // namespace

size_t LegendreTransform::row_tiles(const SpectralLayout& layout) {
  size_t tiles = 0;
  for (size_t i = 0; i < layout.ms.size(); ++i)
    for (int parity = 0; parity < 2; ++parity)
      tiles += ((layout.rows_of(int(i)) + 1 - parity) / 2 + loop_tile - 1) / loop_tile;
  return tiles;
}

LegendreTransform::LegendreTransform(SpectralLayout layout, const std::vector<double>& mu_pairs, LTVariant variant,
                                     int levels, bool fixed_levels, LTLoopShape loop_shape)
    : layout_(std::move(layout)),
      pairs_(int(mu_pairs.size())),
      levels_(levels),
      variant_(variant),
      fixed_(fixed_levels && level_count_compiled(levels)),
      loop_shape_(loop_shape) {
  if (loop_shape_ == LTLoopShape::rows && !backend::loop_lt_rows)  // not compiled for a device: 2 L nfields registers
    throw RuntimeError("LegendreTransform: the loop kernels' rows shape needs a host back end");
  if (variant_ == LTVariant::recurrence) {
    if (!backend::legendre_recurrence)  // read_options refuses it (transform.lt)
      throw RuntimeError("LegendreTransform: the recurrence variant needs a host back end");
    recurrence_ = std::make_unique<LegendreRecurrence>(layout_, mu_pairs);
    table_ = View1D<double>("pstswm::legendre_tile", recurrence_->tile_doubles());
  } else {
    table_ = legendre_table(layout_, mu_pairs);
  }
  const int nm = int(layout_.ms.size());
  row_m_ = View1D<int>("pstswm::row_m", layout_.rows);
  row_r_ = View1D<int>("pstswm::row_r", layout_.rows);
  m_offset_ = View1D<int>("pstswm::m_offset", nm + 1);
  auto hm = Kokkos::create_mirror_view(row_m_), hr = Kokkos::create_mirror_view(row_r_);
  auto ho = Kokkos::create_mirror_view(m_offset_);
  for (int i = 0; i < nm; ++i) {
    ho(i) = layout_.offset[i];
    for (int r = 0; r < layout_.rows_of(i); ++r) {
      hm(layout_.offset[i] + r) = i;
      hr(layout_.offset[i] + r) = r;
    }
  }
  ho(nm) = layout_.rows;
  Kokkos::deep_copy(row_m_, hm);
  Kokkos::deep_copy(row_r_, hr);
  Kokkos::deep_copy(m_offset_, ho);
  if (variant_ == LTVariant::loop && loop_shape_ == LTLoopShape::tiles) {
    tile_row_ = View1D<int>("pstswm::lt_tile_row", row_tiles(layout_));
    auto ht = Kokkos::create_mirror_view(tile_row_);
    size_t t = 0;
    for (int i = 0; i < nm; ++i)
      for (int parity = 0; parity < 2; ++parity)
        for (int r = parity; r < layout_.rows_of(i); r += 2 * loop_tile) ht(t++) = layout_.offset[i] + r;
    Kokkos::deep_copy(tile_row_, ht);
  }
}

// ectrans ledir (forward): per wavenumber and parity, (rows/2 x K) * (K x ncol); leinv (inverse): (K x rows/2) *
// (rows/2 x ncol) with the table read transposed. Even rows from / into E, odd rows from / into O. The table's rows of
// wavenumber i start at row offset[i] of the stored table, or at row 0 of the recurrence's tile.
const std::vector<LegendreTransform::Batch>& LegendreTransform::products(bool forward, int nfields, size_t odd) const {
  Planned& p = planned_[(forward ? max_transform_fields : 0) + nfields - 1];
  if (!p.batches.empty() && p.odd == odd) return p.batches;
  const int ncol = nfields * 2 * levels_, K = pairs_;
  const bool per_wavenumber = variant_ == LTVariant::recurrence;
  std::vector<GemmProduct> list;
  p = {odd, {}};
  for (size_t i = 0; i < layout_.ms.size(); ++i) {
    const int R = layout_.rows_of(int(i)), off = layout_.offset[i], first = per_wavenumber ? 0 : off;
    for (int parity = 0; parity < 2; ++parity) {
      const int rows = parity == 0 ? (R + 1) / 2 : R / 2;
      const long long table = (long long)(first + parity) * K, spec = (long long)(off + parity) * ncol;
      const long long half = (long long)i * K * ncol + (parity == 0 ? 0 : (long long)odd);
      if (forward)  // A: table, B: E or O, C: S
        list.push_back({false, rows, ncol, K, table, 2 * K, half, ncol, spec, 2 * ncol});
      else  // A: table, B: S, C: E or O
        list.push_back({true, K, ncol, rows, table, 2 * K, spec, 2 * ncol, half, ncol});
    }
    if (per_wavenumber) {
      p.batches.emplace_back(list);
      list.clear();
    }
  }
  if (!per_wavenumber) p.batches.emplace_back(list);
  return p.batches;
}

// The recurrence variant: per wavenumber, its tile of P̄, then its products from the tile while it is in cache.
template <class In, class Out>
void LegendreTransform::recompute_and_multiply(const std::vector<Batch>& batches, const In& in, const Out& out) const {
  for (size_t i = 0; i < batches.size(); ++i) {
    recurrence_->wavenumber_block(int(i), table_.data());
    batches[i].execute(table_, in, out);
  }
}

void LegendreTransform::forward(const View1D<double>& EO, size_t odd, int nfields, const View1D<double>& S) const {
  if (variant_ == LTVariant::gemm) return products(true, nfields, odd).front().execute(table_, EO, S);
  if (variant_ == LTVariant::recurrence) return recompute_and_multiply(products(true, nfields, odd), EO, S);
  dispatch_levels(fixed_, levels_, [&](auto c2) {
    const LTKernels<decltype(c2)::value> k{table_, row_m_, row_r_, m_offset_, tile_row_, pairs_, nfields, 2 * levels_};
    if (loop_shape_ == LTLoopShape::tiles) return k.forward_tiles(EO.data(), EO.data() + odd, S.data());
    if constexpr (backend::loop_lt_rows) k.forward_rows(EO.data(), EO.data() + odd, S.data());
  });
}

void LegendreTransform::inverse(const View1D<double>& S, int nfields, const View1D<double>& EO, size_t odd) const {
  if (variant_ == LTVariant::gemm) return products(false, nfields, odd).front().execute(table_, S, EO);
  if (variant_ == LTVariant::recurrence) return recompute_and_multiply(products(false, nfields, odd), S, EO);
  dispatch_levels(fixed_, levels_, [&](auto c2) {
    const LTKernels<decltype(c2)::value> k{table_, row_m_, row_r_, m_offset_, tile_row_, pairs_, nfields, 2 * levels_};
    if (loop_shape_ == LTLoopShape::tiles) return k.inverse_tiles(S.data(), EO.data(), EO.data() + odd);
    if constexpr (backend::loop_lt_rows) k.inverse_rows(S.data(), EO.data(), EO.data() + odd);
  });
}

}  // namespace proxylab::pstswm
