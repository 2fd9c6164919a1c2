// The fold into even and odd Fourier halves and the unfold back (STSWM: the weighted symmetric / antisymmetric
// combination of north and south Fourier coefficients around fltsum / fltinv), in the three shapes pstswm runs it:
// - FoldKernel::fold / unfold: one (latitude pair, field, wavenumber) per call, the fused FFT and fold per pair
//   (host back ends; its rows are in cache);
// - FoldKernel::fold_packed / unfold_packed: the latitude loop's packed rows (host);
// - fold_tiled / unfold_tiled: the two-pass path's fold over the whole Fourier array (the device path), a tiled
//   transpose through team scratch so that both sides are read and written by neighbouring threads on neighbouring
//   doubles (FoldTiles: the index maps; bench/pstswm/README.md, "The device fold").
#pragma once
#include <cstddef>

#include "proxylab/layout.hpp"

namespace proxylab::pstswm {

// STSWM: the weighted symmetric / antisymmetric combination of north and south Fourier coefficients that precedes
// fltsum (fold), and its inverse before the inverse FFT (unfold), for one latitude pair, field and wavenumber: its L
// north rows and L south rows of Fourier coefficients (row_stride doubles apart, north first) <-> columns
// 2 (f L + l) + ri of E and O at row (m, pair).
struct FoldKernel {
  double *E, *O;
  View1D<int> ms;
  View1D<double> scale;  // [scaled?][local pair]
  int kloc, L, nm, ncol, nh, vec_mask;

  KOKKOS_INLINE_FUNCTION void fold(int pl, int f, int mi, const double* rows, size_t row_stride) const {
    const double s = scale(((vec_mask >> f) & 1) * kloc + pl);
    const size_t m2 = 2 * size_t(ms(mi)), out = (size_t(mi) * kloc + pl) * ncol + 2 * size_t(f) * L;
    for (int l = 0; l < L; ++l) {
      const double* north = rows + l * row_stride + m2;
      const double* south = north + L * row_stride;
      for (int ri = 0; ri < 2; ++ri) {
        E[out + 2 * l + ri] = s * (north[ri] + south[ri]);
        O[out + 2 * l + ri] = s * (north[ri] - south[ri]);
      }
    }
  }

  // The latitude loop's packed rows (host code): a field's L levels as rows of nlon complex values z = north + i south,
  // row_distance complex values apart (one complex FFT transforms both latitudes), whose spectrum Z gives north
  // N(m) = (Z(m) + conj Z(-m)) / 2 and south S(m) = (Z(m) - conj Z(-m)) / 2i, folded as above.
  void fold_packed(int pl, int f, int mi, const double* z, int nlon, size_t row_distance) const {
    const double h = 0.5 * scale(((vec_mask >> f) & 1) * kloc + pl);
    const size_t m = ms(mi), minus = (nlon - m) % nlon, out = (size_t(mi) * kloc + pl) * ncol + 2 * size_t(f) * L;
    for (int l = 0; l < L; ++l) {
      const double* row = z + 2 * l * row_distance;
      // p = Z(m) + conj Z(-m) = 2 N, d = Z(m) - conj Z(-m) = 2i S
      const double p_re = row[2 * m] + row[2 * minus], p_im = row[2 * m + 1] - row[2 * minus + 1];
      const double d_re = row[2 * m] - row[2 * minus], d_im = row[2 * m + 1] + row[2 * minus + 1];
      E[out + 2 * l] = h * (p_re + d_im);
      E[out + 2 * l + 1] = h * (p_im - d_re);
      O[out + 2 * l] = h * (p_re - d_im);
      O[out + 2 * l + 1] = h * (p_im + d_re);
    }
  }

  // Z(m) = N + i S and Z(-m) = conj N + i conj S from N = E + O, S = E - O; at m = 0 the real parts only (what a c2r
  // reads of the mean); mi = nm: the wavenumbers N < |m| < nlon - N, zero.
  void unfold_packed(int pl, int f, int mi, double* z, int nlon, size_t row_distance) const {
    if (mi == nm) {
      for (int l = 0; l < L; ++l)
        for (size_t k = 2 * size_t(nm); k < 2 * size_t(nlon - nm + 1); ++k) z[2 * l * row_distance + k] = 0.0;
      return;
    }
    const size_t m = ms(mi), in = (size_t(mi) * kloc + pl) * ncol + 2 * size_t(f) * L;
    for (int l = 0; l < L; ++l) {
      double* row = z + 2 * l * row_distance;
      const double n_re = E[in + 2 * l] + O[in + 2 * l], n_im = E[in + 2 * l + 1] + O[in + 2 * l + 1];
      const double s_re = E[in + 2 * l] - O[in + 2 * l], s_im = E[in + 2 * l + 1] - O[in + 2 * l + 1];
      if (m == 0) {
        row[0] = n_re;
        row[1] = s_re;
        continue;
      }
      row[2 * m] = n_re - s_im;
      row[2 * m + 1] = n_im + s_re;
      row[2 * (nlon - m)] = n_re + s_im;
      row[2 * (nlon - m) + 1] = s_re - n_im;
    }
  }

  // north = E + O, south = E - O (no weights); mi = nm: the wavenumbers above N, zero.
  KOKKOS_INLINE_FUNCTION void unfold(int pl, int f, int mi, double* rows, size_t row_stride) const {
    if (mi == nm) {
      for (int l = 0; l < 2 * L; ++l)
        for (int k = 2 * nm; k < 2 * nh; ++k) rows[l * row_stride + k] = 0.0;
      return;
    }
    const size_t m2 = 2 * size_t(ms(mi)), in = (size_t(mi) * kloc + pl) * ncol + 2 * size_t(f) * L;
    for (int l = 0; l < L; ++l) {
      double* north = rows + l * row_stride + m2;
      double* south = north + L * row_stride;
      for (int ri = 0; ri < 2; ++ri) {
        north[ri] = E[in + 2 * l + ri] + O[in + 2 * l + ri];
        south[ri] = E[in + 2 * l + ri] - O[in + 2 * l + ri];
      }
    }
  }
};

// The tiles of the two-pass fold. The Fourier array holds rows of 2 nh doubles (nh = nlon/2 + 1 complex values),
// [field][local latitude 2 pair + (0 north, 1 south)][level][2 nh]; E and O hold, per (wavenumber index mi, pair), a
// run of ncol doubles with field f's levels at 2 f L + 2 l + ri. The per-wavenumber fold reads a row along m and
// writes a run along the levels: a transpose. A tile is one (pair, field, block of `levels` levels, block of
// `wavenumbers` wavenumbers m0 ..): its 2 x levels rows' stretches of 2 x wavenumbers doubles (256 bytes) are read
// into team scratch with the wavenumber innermost, and written to E and O with the level innermost (a run of
// 2 x levels doubles per wavenumber), each side by consecutive threads on consecutive doubles.
struct FoldTiles {
  static constexpr int wavenumbers = 16;  // per tile: a row's stretch of 16 complex values, eight 32-byte sectors
  static constexpr int max_levels = 32;   // per tile at most (scratch: 2 x 32 rows of `pitch` doubles, 17 KiB)
  static constexpr int pitch = 2 * wavenumbers + 2;  // a scratch row; the pad puts a level's rows in other banks
  int L = 1, levels = 1;                             // levels per tile: the largest divisor of L up to max_levels
  int nh = 1, kloc = 1, ncol = 2, ms = 1;            // ms: wavenumbers a row covers (the fold: N + 1; unfold: nh)

  FoldTiles() = default;
  FoldTiles(int L_, int nh_, int kloc_, int nfields, int ms_)
      : L(L_), nh(nh_), kloc(kloc_), ncol(2 * nfields * L_), ms(ms_) {
    for (int d = 1; d <= max_levels && d <= L; ++d)
      if (L % d == 0) levels = d;
  }
  KOKKOS_INLINE_FUNCTION int level_blocks() const { return L / levels; }
  KOKKOS_INLINE_FUNCTION int wavenumber_blocks() const { return (ms + wavenumbers - 1) / wavenumbers; }
  // tiles of nfields fields (the kernel's league)
  int count(int nfields) const { return kloc * nfields * level_blocks() * wavenumber_blocks(); }
  KOKKOS_INLINE_FUNCTION size_t scratch_bytes() const { return sizeof(double) * 2 * levels * pitch; }

  struct Tile {
    int pl, f, l0, m0, nm;  // nm: the tile's wavenumbers (fewer in the last block)
  };
  KOKKOS_INLINE_FUNCTION Tile tile(int t) const {
    const int mb = t % wavenumber_blocks(), lb = (t / wavenumber_blocks()) % level_blocks();
    const int pf = t / (wavenumber_blocks() * level_blocks()), m0 = mb * wavenumbers;
    return Tile{pf % kloc, pf / kloc, lb * levels, m0, ms - m0 < wavenumbers ? ms - m0 : wavenumbers};
  }
  // The row side: element e < row_elements() is row r = e / (2 wavenumbers) of the tile (north level l0 + r, then
  // south level l0 + r - levels), double j = e % (2 wavenumbers) of its stretch (wavenumber m0 + j / 2).
  KOKKOS_INLINE_FUNCTION int row_elements() const { return 2 * levels * 2 * wavenumbers; }
  KOKKOS_INLINE_FUNCTION size_t row_index(const Tile& t, int e) const {
    const int r = e / (2 * wavenumbers), j = e % (2 * wavenumbers), south = r >= levels ? 1 : 0;
    return ((size_t(t.f) * 2 * kloc + 2 * t.pl + south) * L + t.l0 + r - south * levels) * 2 * nh + 2 * t.m0 + j;
  }
  KOKKOS_INLINE_FUNCTION int row_scratch(int e) const {
    return (e / (2 * wavenumbers)) * pitch + e % (2 * wavenumbers);
  }
  KOKKOS_INLINE_FUNCTION bool row_in_tile(const Tile& t, int e) const { return (e % (2 * wavenumbers)) / 2 < t.nm; }
  // The column side: element e < column_elements(t) is wavenumber m0 + e / (2 levels), double c = e % (2 levels) of
  // its run (level l0 + c / 2, real or imaginary part c % 2); its north value in scratch at column_scratch, its
  // south value `levels` rows further; in E and O at column_index, given the wavenumber's index mi in E and O.
  KOKKOS_INLINE_FUNCTION int column_elements(const Tile& t) const { return t.nm * 2 * levels; }
  KOKKOS_INLINE_FUNCTION int column_m(const Tile& t, int e) const { return t.m0 + e / (2 * levels); }
  KOKKOS_INLINE_FUNCTION int column_scratch(int e) const {
    const int c = e % (2 * levels);
    return (c / 2) * pitch + 2 * (e / (2 * levels)) + c % 2;
  }
  KOKKOS_INLINE_FUNCTION size_t column_index(const Tile& t, int mi, int e) const {
    return (size_t(mi) * kloc + t.pl) * ncol + 2 * size_t(t.f) * L + 2 * t.l0 + e % (2 * levels);
  }
};

// The two-pass fold of nfields fields: the Fourier array `four` (FoldTiles' layout) -> E, O, through k's weights.
// mi_of_m: the index of wavenumber m in E and O (the inverse of k.ms). Gives FoldKernel::fold's numbers bit for bit.
void fold_tiled(const FoldKernel& k, int nfields, const double* four, const View1D<int>& mi_of_m);
// E, O -> the Fourier array (every row's nh values; those above N zero), the reverse of fold_tiled.
void unfold_tiled(const FoldKernel& k, int nfields, double* four, const View1D<int>& mi_of_m);

}  // namespace proxylab::pstswm
