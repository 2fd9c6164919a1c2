// Spectral transforms on one rank: single harmonics, inverse∘forward identity for random band-limited
// spectra at T5..T85, loop vs gemm, compile-time vs run-time levels and the loop's two shapes (bit for bit).
#include <cmath>
#include <random>
#include <vector>

#include "proxylab/testing.hpp"
#include "src/backend.hpp"
#include "src/decomposition.hpp"
#include "src/gauss.hpp"
#include "src/legendre.hpp"
#include "src/legendre_transform.hpp"
#include "src/shallow_water.hpp"

using namespace proxylab;
using namespace proxylab::pstswm;

namespace {
TransformOptions options(int N, int L, LTVariant lt, bool fixed = false) {
  TransformOptions o;
  const GridSize g = default_grid(N);
  o.ntrunc = N;
  o.nlat = g.nlat;
  o.nlon = g.nlon;
  o.levels = L;
  o.lt = lt;
  o.fixed_levels = fixed;
  return o;
}
// Random band-limited spectrum (n <= N, m = 0 real, row N+1 zero) with `nf` fields.
View1D<double> random_view(size_t n, unsigned seed) {
  View1D<double> v("random", n);
  const auto h = Kokkos::create_mirror_view(v);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (size_t i = 0; i < n; ++i) h(i) = u(gen);
  Kokkos::deep_copy(v, h);
  return v;
}
View1D<double> random_spectrum(const SphericalTransform& tr, int nf, unsigned seed) {
  const auto& lay = tr.state_layout();
  const int L = tr.options().levels, N = tr.options().ntrunc;
  View1D<double> S("S", tr.spec_size(nf));
  const auto h = Kokkos::create_mirror_view(S);  // the spectra may live on a GPU
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (size_t i = 0; i < lay.ms.size(); ++i)
    for (int r = 0; r < lay.rows_of(int(i)); ++r)
      for (int f = 0; f < nf; ++f)
        for (int l = 0; l < L; ++l)
          for (int ri = 0; ri < 2; ++ri) {
            const bool zero = lay.ms[i] + r > N || (lay.ms[i] == 0 && ri == 1);
            h((((size_t(lay.offset[i]) + r) * nf + f) * L + l) * 2 + ri) = zero ? 0.0 : u(gen);
          }
  Kokkos::deep_copy(S, h);
  return S;
}
double max_diff(const View1D<double>& a, const View1D<double>& b) {
  const auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  const auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  double d = 0;
  for (size_t i = 0; i < ha.extent(0); ++i) d = std::max(d, std::fabs(ha(i) - hb(i)));
  return d;
}
}  // namespace

TEST_CASE("pstswm: a single spherical harmonic is synthesised and recovered exactly", "[pstswm][transform]") {
  Timers timers;
  SphericalTransform tr(options(21, 1, LTVariant::gemm), MPI_COMM_SELF, timers);
  const auto& lay = tr.state_layout();
  const int nlon = tr.options().nlon, nlat = tr.local_lats();
  for (auto [m, n] : {std::pair{0, 0}, {3, 7}, {21, 21}, {10, 20}}) {
    View1D<double> S("S", tr.spec_size(1)), back("back", tr.spec_size(1)), grid("grid", tr.grid_size(1));
    const size_t row = lay.offset[m] + (n - m);  // one rank: ms = 0..N in order
    Kokkos::deep_copy(Kokkos::subview(S, row * 2), 1.0);
    tr.inverse(S, 1, grid);
    const auto g = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), grid);
    std::vector<double> p(n - m + 1);
    double err = 0;
    for (int j = 0; j < nlat; ++j) {
      legendre_column(m, n, tr.mu(j), p.data());
      for (int i = 0; i < nlon; ++i) {
        const double expect = (m == 0 ? 1.0 : 2.0) * p[n - m] * std::cos(2.0 * M_PI * m * i / nlon);
        err = std::max(err, std::fabs(g(size_t(j) * nlon + i) - expect));
      }
    }
    CHECK(err < 1e-12);
    tr.forward(grid, 1, {false}, back);
    CHECK(max_diff(back, S) < 1e-13);
  }
}

TEST_CASE("pstswm: inverse then forward transform is the identity for band-limited spectra", "[pstswm][transform]") {
  Timers timers;
  for (int N : {5, 10, 21, 42, 85})
    for (LTVariant lt : {LTVariant::gemm, LTVariant::loop, LTVariant::recurrence}) {
      if (lt == LTVariant::recurrence && !backend::legendre_recurrence) continue;
      SphericalTransform tr(options(N, 3, lt), MPI_COMM_SELF, timers);
      const auto S = random_spectrum(tr, 2, 7u + N);
      View1D<double> grid("grid", tr.grid_size(2)), back("back", tr.spec_size(2));
      tr.inverse(S, 2, grid);
      tr.forward(grid, 2, {false, false}, back);
      INFO("T" << N << " " << to_string(lt));
      const double err = max_diff(back, S);
      CHECK(err < 1e-13);  // measured 2.7e-14 at T85 (coefficients of size 1)
    }
}

TEST_CASE("pstswm: loop and gemm Legendre transforms agree; compile-time levels are bit-identical",
          "[pstswm][transform]") {
  Timers timers;
  for (int L : {1, 18}) {
    SphericalTransform gemm_tr(options(21, L, LTVariant::gemm), MPI_COMM_SELF, timers);
    SphericalTransform loop_tr(options(21, L, LTVariant::loop), MPI_COMM_SELF, timers);
    SphericalTransform fixed_tr(options(21, L, LTVariant::loop, true), MPI_COMM_SELF, timers);
    const auto S = random_spectrum(gemm_tr, 4, 11u);
    View1D<double> g1("g1", gemm_tr.grid_size(4)), g2("g2", gemm_tr.grid_size(4)), g3("g3", gemm_tr.grid_size(4));
    gemm_tr.inverse(S, 4, g1);
    loop_tr.inverse(S, 4, g2);
    fixed_tr.inverse(S, 4, g3);
    CHECK(max_diff(g1, g2) < 1e-12);
    CHECK(max_diff(g2, g3) == 0.0);
    View1D<double> s1("s1", gemm_tr.spec_size(4)), s2("s2", gemm_tr.spec_size(4)), s3("s3", gemm_tr.spec_size(4));
    const std::vector<bool> scaled{true, false, true, false};
    gemm_tr.forward(g1, 4, scaled, s1);
    loop_tr.forward(g1, 4, scaled, s2);
    fixed_tr.forward(g1, 4, scaled, s3);
    CHECK(max_diff(s1, s2) < 1e-12 * 1e7);  // scaled fields carry 1/a ~ 1.6e-7: compare relative to size
    CHECK(max_diff(s2, s3) == 0.0);
  }
}

TEST_CASE(
    "pstswm: the loop LT's register tiles give its row kernels' numbers bit for bit (L = 1, 3, 18, 96; run-time and "
    "compiled levels; 1, 2 and 5 fields)",
    "[pstswm][transform]") {
  if (!backend::loop_lt_rows) return;  // the row kernels are host code
  // T21 in 2 of 3 ranks' wavenumber order; 11 latitude pairs (a partial last tile of pairs), 12 and 11 rows of a
  // parity at m = 0 (a partial last tile of rows)
  const int N = 21, K = 11;
  const Decomposition d(44, N, 3, 1);
  const SpectralLayout layout(N, d.concat_ms);
  const GaussGrid g = gauss_grid(2 * K);
  const std::vector<double> mu(g.mu.begin(), g.mu.begin() + K);
  for (const int L : {1, 3, 18, 96})
    for (const bool fixed : {false, true}) {
      if (fixed && !LegendreTransform::level_count_compiled(L)) continue;
      const LegendreTransform rows(layout, mu, LTVariant::loop, L, fixed, LTLoopShape::rows);
      const LegendreTransform tiles(layout, mu, LTVariant::loop, L, fixed, LTLoopShape::tiles);
      for (const int nf : {1, 2, 5}) {
        INFO("L = " << L << (fixed ? " compiled" : " run time") << ", " << nf << " fields");
        const size_t ncol = size_t(nf) * 2 * L, odd = layout.ms.size() * K * ncol + 6;  // O not after E's end
        const auto EO = random_view(2 * odd, unsigned(L + nf)), S = random_view(layout.rows * ncol, unsigned(L * nf));
        View1D<double> S1("S1", layout.rows * ncol), S2("S2", layout.rows * ncol), EO1("EO1", 2 * odd),
            EO2("EO2", 2 * odd);
        rows.forward(EO, odd, nf, S1);
        tiles.forward(EO, odd, nf, S2);
        rows.inverse(S, nf, EO1, odd);
        tiles.inverse(S, nf, EO2, odd);
        Kokkos::fence();
        CHECK(max_diff(S1, S2) == 0.0);
        CHECK(max_diff(EO1, EO2) == 0.0);
        CHECK(max_diff(S1, View1D<double>("zero", S1.extent(0))) > 0.0);  // not two kernels that wrote nothing
      }
    }
}

TEST_CASE("pstswm: the vector transform gives case 2's vorticity exactly (one harmonic) and zero divergence",
          "[pstswm][transform]") {
  Timers timers;
  SphericalTransform tr(options(10, 2, LTVariant::gemm), MPI_COMM_SELF, timers);
  ModelOptions mo;
  mo.test_case = 2;
  mo.alpha = 0.0;
  mo.dt = 600;
  ShallowWater model(tr, mo, timers);
  const auto state = model.gather_state();  // [row][ζ, δ, Φ][level][re, im]
  const double u0 = 2.0 * M_PI * earth_radius / (12.0 * 86400.0);
  const double expect = 2.0 * u0 / earth_radius * std::sqrt(2.0 / 3.0);  // ζ = 2 u0 μ / a, μ = sqrt(2/3) P̄_1^0
  const int L = 2;
  double other = 0, div = 0;
  for (size_t row = 0; row * 3 * L * 2 < state.size(); ++row)
    for (int l = 0; l < L; ++l)
      for (int ri = 0; ri < 2; ++ri) {
        const double z = state[((row * 3 + 0) * L + l) * 2 + ri], d = state[((row * 3 + 1) * L + l) * 2 + ri];
        if (row == 1 && ri == 0)
          CHECK(z == Approx(expect).epsilon(1e-14));
        else
          other = std::max(other, std::fabs(z));
        div = std::max(div, std::fabs(d));
      }
  CHECK(other < 1e-14 * expect);
  CHECK(div < 1e-14 * expect);
}

TEST_CASE(
    "pstswm: the recurrence Legendre transform gives the stored table's transform to round-off, at 1 and 18 "
    "levels and T85 (polar seeds with an extended exponent)",
    "[pstswm][transform]") {
  if (!backend::legendre_recurrence) return;  // a host variant (read_options refuses it on a device)
  Timers timers;
  for (auto [N, L] : {std::pair{21, 1}, {21, 18}, {85, 3}}) {
    SphericalTransform table_tr(options(N, L, LTVariant::gemm), MPI_COMM_SELF, timers);
    SphericalTransform rec_tr(options(N, L, LTVariant::recurrence), MPI_COMM_SELF, timers);
    const auto S = random_spectrum(table_tr, 4, 13u + N);
    View1D<double> g1("g1", table_tr.grid_size(4)), g2("g2", table_tr.grid_size(4));
    table_tr.inverse(S, 4, g1);
    rec_tr.inverse(S, 4, g2);
    INFO("T" << N << "L" << L);
    CHECK(max_diff(g1, g2) < 1e-13);
    View1D<double> s1("s1", table_tr.spec_size(4)), s2("s2", table_tr.spec_size(4));
    const std::vector<bool> scaled{true, false, true, false};
    table_tr.forward(g1, 4, scaled, s1);
    rec_tr.forward(g1, 4, scaled, s2);
    CHECK(max_diff(s1, s2) < 1e-13);
  }
}
