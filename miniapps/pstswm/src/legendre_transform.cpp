// STSWM: fltsum (forward) and fltinv (inverse) Legendre transforms; ectrans: ledir / leinv.
#include "legendre_transform.hpp"

#include "legendre.hpp"
#include "proxylab/blas.hpp"

namespace proxylab::pstswm {
namespace {

// C2: complex columns per field (2 * levels) when fixed at compile time; 0 = run time (c2).
template <int C2>
struct LTKernels {
  HostView<const double*> P;
  HostView<const int*> row_m, row_r, m_offset;
  int K, nfields, c2_runtime;

  KOKKOS_INLINE_FUNCTION int c2() const { return C2 > 0 ? C2 : c2_runtime; }

  // STSWM: fltsum, one spectral row (m, n) for all columns.
  void forward(const HostView<const double*>& E, const HostView<const double*>& O, const HostView<double*>& S) const {
    const int rows = int(row_m.extent(0));
    const auto self = *this;
    Kokkos::parallel_for("pstswm::lt_forward_loop", Kokkos::RangePolicy<HostExec>(0, rows), [=](int row) {
      const int c2 = self.c2(), ncol = self.nfields * c2, mi = self.row_m(row);
      const double* src = ((self.row_r(row) % 2 == 0) ? E : O).data() + size_t(mi) * self.K * ncol;
      const double* p = self.P.data() + size_t(row) * self.K;
      double* out = S.data() + size_t(row) * ncol;
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
  void inverse(const HostView<const double*>& S, const HostView<double*>& E, const HostView<double*>& O) const {
    const int nm = int(m_offset.extent(0)) - 1;
    const auto self = *this;
    Kokkos::parallel_for("pstswm::lt_inverse_loop", Kokkos::RangePolicy<HostExec>(0, nm * K), [=](int idx) {
      const int mi = idx / self.K, k = idx % self.K, c2 = self.c2(), ncol = self.nfields * c2;
      const int r0 = self.m_offset(mi), r1 = self.m_offset(mi + 1);
      for (int parity = 0; parity < 2; ++parity) {  // even rows -> E, odd rows -> O: one accumulator each
        double* out = (parity == 0 ? E : O).data() + size_t(idx) * ncol;
        for (int f = 0; f < self.nfields; ++f) {
          double acc[C2 > 0 ? C2 : 1];
          double* a = C2 > 0 ? acc : out + f * c2;
          for (int c = 0; c < c2; ++c) a[c] = 0.0;
          for (int row = r0 + parity; row < r1; row += 2) {
            const double pk = self.P(size_t(row) * self.K + k);
            const double* s = S.data() + size_t(row) * ncol + f * c2;
            for (int c = 0; c < c2; ++c) a[c] += pk * s[c];
          }
          if (C2 > 0)
            for (int c = 0; c < c2; ++c) out[f * c2 + c] = acc[c];
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

LegendreTransform::LegendreTransform(SpectralLayout layout, const std::vector<double>& mu_pairs, LTVariant variant,
                                     int levels, bool fixed_levels)
    : layout_(std::move(layout)),
      pairs_(int(mu_pairs.size())),
      levels_(levels),
      variant_(variant),
      fixed_(fixed_levels && level_count_compiled(levels)) {
  table_ = legendre_table(layout_, mu_pairs);
  const int nm = int(layout_.ms.size());
  row_m_ = HostView<int*>("pstswm::row_m", layout_.rows);
  row_r_ = HostView<int*>("pstswm::row_r", layout_.rows);
  m_offset_ = HostView<int*>("pstswm::m_offset", nm + 1);
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
}

void LegendreTransform::forward(const HostView<double*>& E, const HostView<double*>& O, int nfields,
                                const HostView<double*>& S) const {
  const int ncol = nfields * 2 * levels_, K = pairs_;
  if (variant_ == LTVariant::gemm) {
    // ectrans ledir: one product per parity and wavenumber, (rows/2 x K) * (K x ncol).
    for (size_t i = 0; i < layout_.ms.size(); ++i) {
      const int R = layout_.rows_of(int(i)), off = layout_.offset[i];
      const double* P = table_.data() + size_t(off) * K;
      double* out = S.data() + size_t(off) * ncol;
      const size_t in = size_t(i) * K * ncol;
      gemm(false, false, (R + 1) / 2, ncol, K, 1.0, P, 2 * K, E.data() + in, ncol, 0.0, out, 2 * ncol);
      gemm(false, false, R / 2, ncol, K, 1.0, P + K, 2 * K, O.data() + in, ncol, 0.0, out + ncol, 2 * ncol);
    }
    return;
  }
  dispatch_levels(fixed_, levels_, [&](auto c2) {
    LTKernels<decltype(c2)::value>{table_, row_m_, row_r_, m_offset_, K, nfields, 2 * levels_}.forward(E, O, S);
  });
}

void LegendreTransform::inverse(const HostView<double*>& S, int nfields, const HostView<double*>& E,
                                const HostView<double*>& O) const {
  const int ncol = nfields * 2 * levels_, K = pairs_;
  if (variant_ == LTVariant::gemm) {
    // ectrans leinv: (K x rows/2) * (rows/2 x ncol) with the table read transposed.
    for (size_t i = 0; i < layout_.ms.size(); ++i) {
      const int R = layout_.rows_of(int(i)), off = layout_.offset[i];
      const double* P = table_.data() + size_t(off) * K;
      const double* in = S.data() + size_t(off) * ncol;
      const size_t out = size_t(i) * K * ncol;
      gemm(true, false, K, ncol, (R + 1) / 2, 1.0, P, 2 * K, in, 2 * ncol, 0.0, E.data() + out, ncol);
      gemm(true, false, K, ncol, R / 2, 1.0, P + K, 2 * K, in + ncol, 2 * ncol, 0.0, O.data() + out, ncol);
    }
    return;
  }
  dispatch_levels(fixed_, levels_, [&](auto c2) {
    LTKernels<decltype(c2)::value>{table_, row_m_, row_r_, m_offset_, K, nfields, 2 * levels_}.inverse(S, E, O);
  });
}

}  // namespace proxylab::pstswm
