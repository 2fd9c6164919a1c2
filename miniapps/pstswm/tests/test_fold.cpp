// The two-pass path's tiled fold (src/fold.hpp): its index maps evaluated for 32 consecutive threads (a warp) count
// the 32-byte sectors each warp access touches, against the per-wavenumber fold it replaced and the field-innermost
// layout it was weighed against; and on the host the
// tiled fold and unfold give the per-wavenumber FoldKernel's numbers bit for bit.
#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "proxylab/testing.hpp"
#include "src/backend.hpp"
#include "src/decomposition.hpp"
#include "src/fold.hpp"

using namespace proxylab;
using namespace proxylab::pstswm;

namespace {
constexpr int warp = 32;

// Distinct 32-byte sectors of the doubles at these indices (an array starting on a 256-byte boundary, as
// cudaMalloc's do).
int sectors(const std::vector<size_t>& indices) {
  std::set<size_t> s;
  for (size_t i : indices) s.insert(i * sizeof(double) / 32);
  return int(s.size());
}

struct Shape {
  int N, nlon, L, kloc, nfields;
};

// The most sectors of any warp access of one phase over every tile of the shape's first pair.
template <class Index>
int worst_warp(int elements, const Index& index) {
  int worst = 0;
  for (int w0 = 0; w0 < elements; w0 += warp) {
    std::vector<size_t> at;
    for (int e = w0; e < std::min(elements, w0 + warp); ++e)
      if (index(e) != size_t(-1)) at.push_back(index(e));
    worst = std::max(worst, sectors(at));
  }
  return worst;
}
}  // namespace

TEST_CASE(
    "pstswm: the tiled fold's warp accesses touch 8-10 sectors of 32 bytes where the per-wavenumber fold's touch "
    "16 and 32, and a field-innermost FFT output would save at most one in nine",
    "[pstswm][fold]") {
  // T340L18, T680L18 and T680L96 at 1 rank, T85L18 at 4 ranks (its wavenumbers in the transpose's order), 5 fields
  for (const Shape& s : {Shape{340, 1024, 18, 256, 5}, Shape{680, 2048, 18, 512, 5}, Shape{680, 2048, 96, 512, 5},
                         Shape{85, 256, 18, 16, 5}}) {
    const int nh = s.nlon / 2 + 1;
    const Decomposition d(2 * s.kloc * (s.N == 85 ? 4 : 1), s.N, s.N == 85 ? 4 : 1, 0);
    std::vector<int> mi_of_m(s.N + 1);
    for (int i = 0; i <= s.N; ++i) mi_of_m[d.concat_ms[i]] = i;
    const FoldTiles tiles(s.L, nh, s.kloc, s.nfields, s.N + 1);
    CAPTURE(s.N, s.L, tiles.levels);
    int rows = 0, columns = 0;
    for (int ti = 0; ti < tiles.count(s.nfields); ti += tiles.count(s.nfields) / 97 + 1) {
      const FoldTiles::Tile t = tiles.tile(ti);
      rows = std::max(rows, worst_warp(tiles.row_elements(), [&](int e) {
                        return tiles.row_in_tile(t, e) ? tiles.row_index(t, e) : size_t(-1);
                      }));
      columns = std::max(columns, worst_warp(tiles.column_elements(t), [&](int e) {
                           return tiles.column_index(t, mi_of_m[tiles.column_m(t, e)], e);
                         }));
    }
    // the design: a warp reads 256 contiguous bytes of a row (8 sectors, 9 where the row does not start on a
    // sector) and writes at most two runs of a wavenumber's levels (256 bytes: 8 sectors, 1 more per run's ends)
    CHECK(rows <= 9);
    CHECK(columns <= 10);
    // The per-wavenumber fold it replaced: one thread per (pair, field, wavenumber index mi), mi fastest, each
    // looping over levels; a warp's access at level l and part ri.
    const int ncol = 2 * s.nfields * s.L;
    auto old_read = [&](int e) {
      const int mi = e % (s.N + 1);
      return size_t(2) * s.kloc * s.L * 2 * nh + size_t(2) * d.concat_ms[mi];  // pair 0, field 0 north, level 0
    };
    auto old_write = [&](int e) { return (size_t(e % (s.N + 1)) * s.kloc) * ncol; };
    const int old_rows = worst_warp(s.N + 1, old_read), old_columns = worst_warp(s.N + 1, old_write);
    CHECK(old_rows >= 16);
    CHECK(old_columns == warp);
    CHECK(3 * columns <= old_columns);
    // The field-innermost layout (ectrans's), the alternative to the tiles: the r2c plan writes wavenumber m of its
    // line b = (field, latitude, level) at complex element m nb + b (output stride nb, distance 1), and the fold runs
    // a thread per (mi, f, pl, c), c < 2L fastest: north, south and E, O each a run of 2L doubles, no scratch. Its
    // warps touch 8 sectors on both sides where the tiles' reads touch 9 (a row of 2 nh doubles, nh odd, starts
    // mid-sector): at most one sector in nine, the same bytes in the same two passes; not worth the FFT's stride.
    const size_t nb = size_t(s.nfields) * 2 * s.kloc * s.L;
    auto inner_read = [&](int e) {  // north; south 2L doubles further
      const int c = e % (2 * s.L), pl = (e / (2 * s.L)) % s.kloc, f = (e / (2 * s.L * s.kloc)) % s.nfields;
      const int mi = e / (2 * s.L * s.kloc * s.nfields);
      return 2 * (size_t(d.concat_ms[mi]) * nb + (size_t(f) * 2 * s.kloc + 2 * pl) * s.L) + c;
    };
    auto inner_write = [&](int e) {
      const int c = e % (2 * s.L), pl = (e / (2 * s.L)) % s.kloc, f = (e / (2 * s.L * s.kloc)) % s.nfields;
      return (size_t(e / (2 * s.L * s.kloc * s.nfields)) * s.kloc + pl) * ncol + 2 * size_t(f) * s.L + c;
    };
    const int three_wavenumbers = 3 * s.nfields * s.kloc * 2 * s.L;
    CHECK(worst_warp(three_wavenumbers, inner_read) == 8);
    CHECK(worst_warp(three_wavenumbers, inner_write) == 8);
  }
}

TEST_CASE("pstswm: the tiled fold and unfold give the per-wavenumber fold's numbers bit for bit", "[pstswm][fold]") {
  if (!backend::fields_on_host) return;  // the reference FoldKernel::fold runs on the host
  // levels 1 (a wavenumber a run of 2 doubles), 3 (one block), 18 (one block, two warps' runs per wavenumber), 96
  // (three blocks of 32); 2 of 3 ranks' wavenumber order (a permutation of m); fields scaled and not
  const int N = 21, nlon = 64, nh = nlon / 2 + 1, kloc = 3, nf = 3, nm = N + 1;
  const Decomposition d(2 * kloc * 3, N, 3, 1);
  for (const int L : {1, 3, 18, 96}) {
    const int ncol = 2 * nf * L;
    View1D<int> ms("ms", nm), mi_of_m("mi_of_m", nm);
    View1D<double> scale("scale", 2 * kloc);
    std::mt19937 gen(L);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int i = 0; i < nm; ++i) {
      ms(i) = d.concat_ms[i];
      mi_of_m(d.concat_ms[i]) = i;
    }
    for (int i = 0; i < 2 * kloc; ++i) scale(i) = u(gen);
    const size_t half = size_t(nm) * kloc * ncol, rows = size_t(nf) * 2 * kloc * L * 2 * nh;
    std::vector<double> four(rows), E1(half), O1(half), E2(half), O2(half);
    for (double& x : four) x = u(gen);
    FoldKernel old{E1.data(), O1.data(), ms, scale, kloc, L, nm, ncol, nh, 0b101};
    FoldKernel tiled{E2.data(), O2.data(), ms, scale, kloc, L, nm, ncol, nh, 0b101};
    for (int pl = 0; pl < kloc; ++pl)
      for (int f = 0; f < nf; ++f)
        for (int mi = 0; mi < nm; ++mi)
          old.fold(pl, f, mi, four.data() + (size_t(f) * 2 * kloc + 2 * pl) * L * 2 * nh, 2 * nh);
    fold_tiled(tiled, nf, four.data(), mi_of_m);
    Kokkos::fence();
    CHECK(E1 == E2);
    CHECK(O1 == O2);

    std::vector<double> four1(rows, u(gen)), four2(rows, u(gen));  // the unfold overwrites every value
    for (int pl = 0; pl < kloc; ++pl)
      for (int f = 0; f < nf; ++f)
        for (int mi = 0; mi <= nm; ++mi)
          old.unfold(pl, f, mi, four1.data() + (size_t(f) * 2 * kloc + 2 * pl) * L * 2 * nh, 2 * nh);
    unfold_tiled(tiled, nf, four2.data(), mi_of_m);
    Kokkos::fence();
    CHECK(four1 == four2);
  }
}
