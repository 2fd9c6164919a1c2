// Mappings: flat, mdrange and team give bit-identical results for a nontrivial kernel (a 9-point
// stencil with transcendental coefficients) on every enabled back end (host and device), in 1-D, 2-D and 3-D;
// reductions agree to round-off.
#include "proxylab/kmath.hpp"
#include "proxylab/mapping.hpp"
#include "proxylab/testing.hpp"

using proxylab::Mapping;

namespace {
namespace kmath = proxylab::kmath;
KOKKOS_INLINE_FUNCTION double coeff(int i, int j) { return kmath::sin(0.1 * i) * kmath::exp(-0.01 * j) + 2.0; }
// y = the 9-point stencil of x with coeff's weights
template <class View>
struct Stencil9 {
  View x, y;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j) const {
    double s = 0;
    for (int di = -1; di <= 1; ++di)
      for (int dj = -1; dj <= 1; ++dj) s += coeff(i + di, j + dj) * x(i + di, j + dj);
    y(i, j) = s;
  }
};
}  // namespace

TEMPLATE_LIST_TEST_CASE("mapping: 2-D stencil is bit-identical across mappings", "[mapping]",
                        proxylab::testing::EnabledSpaces) {
  using proxylab::testing::on_host;
  using Space = TestType;
  const int n0 = 37, n1 = 53;  // odd sizes: partial tiles and chunks
  Kokkos::View<double**, Kokkos::LayoutRight, typename Space::memory_space> x("x", n0 + 2, n1 + 2);
  Kokkos::parallel_for(
      "fill", Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>>({0, 0}, {n0 + 2, n1 + 2}),
      KOKKOS_LAMBDA(int i, int j) { x(i, j) = proxylab::kmath::cos(0.3 * i + 0.7 * j); });
  std::vector<Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>> out;
  for (Mapping m : {Mapping::flat, Mapping::mdrange, Mapping::team}) {
    Kokkos::View<double**, Kokkos::LayoutRight, typename Space::memory_space> y("y", n0 + 2, n1 + 2);
    proxylab::for_each_2d<Space>("stencil", m, 1, n0 + 1, 1, n1 + 1, Stencil9<decltype(y)>{x, y});
    out.push_back(on_host(y));
  }
  int mismatches = 0, untouched_border = 0;
  for (int i = 0; i < n0 + 2; ++i)
    for (int j = 0; j < n1 + 2; ++j) {
      if (out[1](i, j) != out[0](i, j) || out[2](i, j) != out[0](i, j)) ++mismatches;
      bool border = i == 0 || j == 0 || i == n0 + 1 || j == n1 + 1;
      if (border && out[0](i, j) != 0.0) ++untouched_border;
    }
  CHECK(mismatches == 0);
  CHECK(untouched_border == 0);
  CHECK(out[0](5, 7) != 0.0);
}

TEMPLATE_LIST_TEST_CASE("mapping: 1-D and 3-D kernels cover the range exactly once", "[mapping]",
                        proxylab::testing::EnabledSpaces) {
  using Space = TestType;
  using proxylab::testing::on_host;
  for (Mapping m : {Mapping::flat, Mapping::mdrange, Mapping::team}) {
    Kokkos::View<int*, typename Space::memory_space> hits("hits", 1500);
    proxylab::for_each_1d<Space>(
        "hits1", m, 3, 1203, KOKKOS_LAMBDA(int i) { hits(i) += 1; });
    const auto hits_host = on_host(hits);
    int bad = 0;
    for (int i = 0; i < 1500; ++i) bad += hits_host(i) != ((i >= 3 && i < 1203) ? 1 : 0);
    CHECK(bad == 0);

    Kokkos::View<double***, Kokkos::LayoutRight, typename Space::memory_space> v("v", 5, 6, 7);
    proxylab::for_each_3d<Space>(
        "fill3", m, 1, 5, 0, 6, 2, 7,
        KOKKOS_LAMBDA(int i, int j, int k) { v(i, j, k) += proxylab::kmath::sqrt(double(100 * i + 10 * j + k)); });
    const auto v_host = on_host(v);
    double s = 0;
    for (int i = 1; i < 5; ++i)
      for (int j = 0; j < 6; ++j)
        for (int k = 2; k < 7; ++k) s += v_host(i, j, k) - std::sqrt(double(100 * i + 10 * j + k));
    CHECK(s == 0.0);
    CHECK(v_host(0, 0, 0) == 0.0);
    CHECK(v_host(1, 0, 1) == 0.0);
  }
}

TEMPLATE_LIST_TEST_CASE("mapping: reductions agree across mappings", "[mapping]", proxylab::testing::EnabledSpaces) {
  using Space = TestType;
  const double exact1 = 0.5 * 999.0 * 1000.0;
  for (Mapping m : {Mapping::flat, Mapping::mdrange, Mapping::team}) {
    double s1 = proxylab::reduce_1d<Kokkos::Sum<double>, Space>(
        "sum1", m, 0, 1000, KOKKOS_LAMBDA(int i, double& a) { a += i; });
    CHECK(s1 == exact1);
    double s2 = proxylab::reduce_2d<Kokkos::Sum<double>, Space>(
        "sum2", m, 0, 33, 0, 45, KOKKOS_LAMBDA(int i, int j, double& a) { a += coeff(i, j); });
    double ref = 0;
    for (int i = 0; i < 33; ++i)
      for (int j = 0; j < 45; ++j) ref += coeff(i, j);
    CHECK(proxylab::testing::allclose(s2, ref, 1e-13));
    double mn = proxylab::reduce_2d<Kokkos::Min<double>, Space>(
        "min2", m, 0, 33, 0, 45, KOKKOS_LAMBDA(int i, int j, double& a) {
          double v = coeff(i, j);
          if (v < a) a = v;
        });
    double ref_min = 1e300;
    for (int i = 0; i < 33; ++i)
      for (int j = 0; j < 45; ++j) ref_min = std::min(ref_min, coeff(i, j));
    CHECK(proxylab::testing::allclose(mn, ref_min, 1e-15));  // a device's sin and exp may differ in the last bit
    double s3 = proxylab::reduce_3d<Kokkos::Sum<double>, Space>(
        "sum3", m, 0, 4, 0, 5, 0, 6, KOKKOS_LAMBDA(int i, int j, int k, double& a) { a += i * 100 + j * 10 + k; });
    CHECK(s3 == 4 * 5 * 6 * (1.5 * 100 + 2 * 10 + 2.5));
  }
}

// The GPU's team shape (a warp over the contiguous index, a row per warp) run on the host, with the host's own threads
// per team: the same rows per team and lanes, so the same partition of the work a GPU gets. The stencil is bit for bit
// flat's, the sums flat's to round-off, on row counts that leave a partial team.
TEMPLATE_LIST_TEST_CASE("mapping: the GPU's team shape, emulated on the host, gives the flat mapping's numbers",
                        "[mapping]", proxylab::testing::HostSpaces) {
  using Space = TestType;
  using View = Kokkos::View<double**, Kokkos::LayoutRight, typename Space::memory_space>;
  const proxylab::TeamShape gpu = proxylab::gpu_team_shape, emulated{gpu.rows, gpu.vector, 0};
  CHECK(gpu.vector == 32);
  CHECK(gpu.threads == gpu.rows);
  CHECK(proxylab::team_shape<Space>().name() == proxylab::host_team_shape.name());
  const int n0 = 37, n1 = 75;  // 37 rows: 4 full teams of 8 and one of 5; 75 columns: two full warps and a part
  View x("x", n0 + 2, n1 + 2), flat("flat", n0 + 2, n1 + 2), team("team", n0 + 2, n1 + 2);
  Kokkos::parallel_for(
      "fill", Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>>({0, 0}, {n0 + 2, n1 + 2}),
      KOKKOS_LAMBDA(int i, int j) { x(i, j) = proxylab::kmath::cos(0.3 * i + 0.7 * j); });
  proxylab::for_each_2d<Space>("stencil_flat", Mapping::flat, 1, n0 + 1, 1, n1 + 1, Stencil9<View>{x, flat});
  proxylab::for_each_2d<Space>("stencil_gpu_shape", Mapping::team, 1, n0 + 1, 1, n1 + 1, Stencil9<View>{x, team},
                               emulated);
  Space().fence();
  int mismatches = 0;
  for (int i = 0; i < n0 + 2; ++i)
    for (int j = 0; j < n1 + 2; ++j) mismatches += team(i, j) != flat(i, j);
  CHECK(mismatches == 0);
  CHECK(flat(n0, n1) != 0.0);
  auto product = KOKKOS_LAMBDA(int i, int j, double& a) { a += x(i, j) * coeff(i, j); };
  const double s_flat =
      proxylab::reduce_2d<Kokkos::Sum<double>, Space>("sum_flat", Mapping::flat, 1, n0 + 1, 1, n1 + 1, product);
  const double s_team = proxylab::reduce_2d<Kokkos::Sum<double>, Space>("sum_gpu_shape", Mapping::team, 1, n0 + 1, 1,
                                                                        n1 + 1, product, emulated);
  CHECK(proxylab::testing::allclose(s_team, s_flat, 1e-13));
  CHECK(s_flat != 0.0);
}

TEST_CASE("mapping: names round-trip and unknown names are input errors", "[mapping]") {
  for (auto& n : proxylab::mapping_names()) CHECK(proxylab::to_string(proxylab::parse_mapping(n)) == n);
  CHECK_THROWS_WITH(proxylab::parse_mapping("simd"), Catch::Matchers::Contains("allowed: flat, mdrange, team"));
}
