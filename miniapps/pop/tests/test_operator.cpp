// The barotropic operator on a small grid (one rank), assembled column by column from the Kokkos
// operator: it matches the stencil formula of docs/references.md (pop) applied on the host, it is symmetric, its rows
// sum to the time term (the spatial part conserves), it is negative definite on ocean points (LAPACK
// dsyev), less its time term it is negative semi-definite (the error bound's premise), and a LAPACK banded direct solve
// (dgbsv) of b = A x* returns x* and the iterative solution.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "backend.hpp"
#include "problem.hpp"
#include "proxylab/testing.hpp"

extern "C" void dgbsv_(const int* n, const int* kl, const int* ku, const int* nrhs, double* ab, const int* ldab,
                       int* ipiv, double* b, const int* ldb, int* info);
extern "C" void dsyev_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w,
                       double* work, const int* lwork, int* info);

using namespace proxylab;
using namespace proxylab::pop;
using proxylab::pop::testing::Problem;

namespace {

constexpr int NX = 24, NY = 16, N = NX * NY, W = 2;

struct Dense {
  std::vector<double> a = std::vector<double>(size_t(N) * N, 0.0);  // A(p, q), p = j * NX + i
  double& operator()(int p, int q) { return a[size_t(p) * N + q]; }
};

// Column q of the operator as implemented: A e_q (ghosts exchanged: periodic in x).
Dense assemble(Problem& pb) {
  Dense A;
  auto e = pb.dom.field("e"), col = pb.dom.field("col");
  auto he = Kokkos::create_mirror_view(e);
  for (int q = 0; q < N; ++q) {
    Kokkos::deep_copy(he, 0.0);
    he(W + q / NX, W + q % NX) = 1.0;
    Kokkos::deep_copy(e, he);
    pb.dom.exchange(e);
    apply_operator(pb.op, pb.dom, Mapping::flat, e, col);
    auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), col);
    for (int p = 0; p < N; ++p) A(p, q) = hc(W + p / NX, W + p % NX);
  }
  return A;
}

// The stencil of docs/references.md (pop) on the host, from the coefficient arrays, periodic in x, closed in y.
Dense assemble_from_formula(Problem& pb) {
  Dense A;
  auto a0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pb.op.A.a0);
  auto an = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pb.op.A.an);
  auto ae = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pb.op.A.ae);
  auto ane = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pb.op.A.ane);
  for (int j = 0; j < NY; ++j)
    for (int i = 0; i < NX; ++i) {
      const int J = j + W, I = i + W, p = j * NX + i;
      auto add = [&](int dj, int di, double c) {
        const int jj = j + dj, ii = (i + di + NX) % NX;
        if (jj >= 0 && jj < NY)
          A(p, jj * NX + ii) += c;
        else
          REQUIRE(c == 0.0);  // closed boundary: no weight on points outside the grid
      };
      add(0, 0, a0(J, I));
      add(1, 0, an(J, I)), add(-1, 0, an(J - 1, I));
      add(0, 1, ae(J, I)), add(0, -1, ae(J, I - 1));
      add(1, 1, ane(J, I)), add(-1, 1, ane(J - 1, I)), add(1, -1, ane(J, I - 1)), add(-1, -1, ane(J - 1, I - 1));
    }
  return A;
}

std::vector<double> own_points(const View2D<double>& f) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
  std::vector<double> v(N);
  for (int p = 0; p < N; ++p) v[p] = h(W + p / NX, W + p % NX);
  return v;
}

}  // namespace

TEST_CASE("pop operator: stencil, symmetry, conservation, negative definite, banded direct solve", "[pop]") {
  MPI_Comm self = MPI_COMM_SELF;
  Problem pb(self, pop::testing::small_grid(NX, NY), W, HaloStrategy::packed);
  Dense A = assemble(pb);
  const std::vector<double> mask = own_points(pb.op.mask), tarea = own_points(pb.op.tarea);
  int ocean = 0;
  for (double m : mask) ocean += m > 0;
  REQUIRE(ocean > N / 2);
  REQUIRE(ocean < N);  // the grid has land: coastlines cut through it

  double amax = 0;
  for (double v : A.a) amax = std::max(amax, std::fabs(v));

  SECTION("the Kokkos operator is the POP 9-point stencil (periodic in x, closed in y)") {
    Dense F = assemble_from_formula(pb);
    double d = 0;
    for (size_t k = 0; k < A.a.size(); ++k) d = std::max(d, std::fabs(A.a[k] - F.a[k]));
    CHECK(d <= 1e-14 * amax);
  }
  SECTION("symmetric to round-off; land rows and columns are zero") {
    double asym = 0;
    for (int p = 0; p < N; ++p)
      for (int q = 0; q < N; ++q) {
        asym = std::max(asym, std::fabs(A(p, q) - A(q, p)));
        if (mask[p] == 0 || mask[q] == 0) REQUIRE(A(p, q) == 0.0);
      }
    CHECK(asym <= 1e-14 * amax);
  }
  SECTION("rows sum to the time term -TAREA / (beta 2 dt^2 g): the spatial part conserves") {
    const double dt = pb.dom.spec().dt;
    for (int p = 0; p < N; ++p) {
      if (mask[p] == 0) continue;
      double s = 0;
      for (int q = 0; q < N; ++q) s += A(p, q);
      CHECK(s == Approx(-tarea[p] / (implicit_beta * 2 * dt * dt * gravity)).epsilon(1e-9));
    }
  }
  SECTION("negative definite on ocean points (all eigenvalues < 0, LAPACK dsyev)") {
    std::vector<int> idx;
    for (int p = 0; p < N; ++p)
      if (mask[p] > 0) idx.push_back(p);
    const int n = int(idx.size()), lwork = 4 * n;
    std::vector<double> a(size_t(n) * n), ev(n), work(lwork);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) a[size_t(c) * n + r] = A(idx[r], idx[c]);
    int info = 0;
    dsyev_("N", "U", &n, a.data(), &n, ev.data(), work.data(), &lwork, &info);
    REQUIRE(info == 0);
    CHECK(ev.back() < 0.0);
    // and x^T A x < 0 through the Kokkos operator for a pseudo-random x
    std::vector<double> x(N), ax(N, 0.0);
    for (int p = 0; p < N; ++p) x[p] = mask[p] * hash_unit(p % NX, p / NX);
    double xax = 0;
    for (int p = 0; p < N; ++p)
      for (int q = 0; q < N; ++q) xax += x[p] * A(p, q) * x[q];
    CHECK(xax < 0.0);
  }
  SECTION("-A - tf TAREA is positive semi-definite and a row's |A| sums to at most 4 |A0| (error_bound.hpp)") {
    const double tf = pb.dom.spec().time_term();
    std::vector<int> idx;
    for (int p = 0; p < N; ++p)
      if (mask[p] > 0) idx.push_back(p);
    const int n = int(idx.size()), lwork = 4 * n;
    std::vector<double> a(size_t(n) * n), ev(n), work(lwork);
    for (int r = 0; r < n; ++r) {
      double row = 0;
      for (int q = 0; q < N; ++q) row += std::fabs(A(idx[r], q));
      CHECK(row <= 4.0 * std::fabs(A(idx[r], idx[r])));
      for (int c = 0; c < n; ++c) a[size_t(c) * n + r] = -A(idx[r], idx[c]) - (r == c ? tf * tarea[idx[r]] : 0.0);
    }
    int info = 0;
    dsyev_("N", "U", &n, a.data(), &n, ev.data(), work.data(), &lwork, &info);
    REQUIRE(info == 0);
    CHECK(ev.front() >= -1e-12 * amax);  // the spatial part: a sum of weighted squares
  }
  SECTION("LAPACK dgbsv of b = A x* returns x*, and PCG converges to the same solution") {
    int kl = 0;
    for (int p = 0; p < N; ++p)
      for (int q = 0; q < N; ++q)
        if (A(p, q) != 0.0) kl = std::max(kl, std::abs(p - q));
    const int ku = kl, ldab = 2 * kl + ku + 1, nrhs = 1;
    std::vector<double> ab(size_t(ldab) * N, 0.0), b = own_points(pb.b);
    for (int p = 0; p < N; ++p) {
      if (mask[p] == 0) A(p, p) = 1.0;  // land: identity row, b = 0
      for (int q = std::max(0, p - kl); q <= std::min(N - 1, p + ku); ++q)
        ab[size_t(q) * ldab + kl + ku + p - q] = A(p, q);
    }
    std::vector<int> ipiv(N);
    int info = 0;
    dgbsv_(&N, &kl, &ku, &nrhs, ab.data(), &ldab, ipiv.data(), b.data(), &N, &info);
    REQUIRE(info == 0);
    const std::vector<double> xs = own_points(pb.xstar);
    double e = 0, s = 0;
    for (int p = 0; p < N; ++p) {
      e = std::max(e, std::fabs(b[p] - xs[p]));
      s = std::max(s, std::fabs(xs[p]));
    }
    CHECK(e <= 1e-11 * s);  // the direct solve recovers x* to round-off (condition number ~ 1e2)

    SolverOptions o;
    o.crit = 1e-15;
    const SolveStats st = pb.solve(o, ReduceStrategy::allreduce);
    REQUIRE(st.converged);
    const std::vector<double> xi = own_points(pb.x);
    double d = 0;
    for (int p = 0; p < N; ++p) d = std::max(d, std::fabs(xi[p] - b[p]));
    CHECK(d <= 1e-9 * s);
  }
}

// The set-up evaluates each depth once (stored HT, HU); the coefficients must equal, bit for bit, the
// point-wise evaluation straight from the grid functions (the set-up as it was before that change).
// Bit for bit where the set-up runs on the host; on a GPU the set-up's sin, cos and exp are the device's (CUDA's
// math library, 1-2 ulp from glibc's), so there they must agree to 1e-12 of each array's largest magnitude
// (on an H200 the exact comparison failed at 160 and 438 points, with -fmad=false too).
TEST_CASE("pop operator: coefficients from stored depths equal the point-wise grid evaluation", "[pop]") {
  MPI_Comm self = MPI_COMM_SELF;
  for (const auto& [nx, ny] : {std::pair<int, int>{NX, NY}, {37, 29}}) {
    const GridSpec g = pop::testing::small_grid(nx, ny);
    Problem pb(self, g, W, HaloStrategy::packed);
    const Operator& op = pb.op;
    auto a0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), op.A.a0);
    auto an = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), op.A.an);
    auto ae = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), op.A.ae);
    auto ane = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), op.A.ane);
    auto ra0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), op.rA0);
    auto mask = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), op.mask);
    const double tf = 1.0 / (implicit_beta * 2.0 * g.dt * g.dt * gravity), dyu = g.dyu();
    auto xw = [&](int i, int j) { return j < 0 || j >= g.ny ? 0.0 : 0.25 * g.hu(i, j) * dyu / g.dxu(j); };
    auto yw = [&](int i, int j) { return j < 0 || j >= g.ny ? 0.0 : 0.25 * g.hu(i, j) * g.dxu(j) / dyu; };
    auto largest = [](const auto& v) {
      double m = 0;
      for (size_t j = 0; j < v.extent(0); ++j)
        for (size_t i = 0; i < v.extent(1); ++i) m = std::max(m, std::fabs(v(j, i)));
      return m;
    };
    const double tol = pop::backend::setup_on_host ? 0.0 : 1e-12;  // the set-up ran on the host, or on a GPU
    const double s0 = tol * largest(a0), sn = tol * largest(an), se = tol * largest(ae), sne = tol * largest(ane),
                 sr = tol * largest(ra0);
    auto differs = [](double got, double want, double slack) { return !(std::fabs(got - want) <= slack); };
    int mismatches = 0, land = 0;
    for (int j = 0; j < ny + 2 * W; ++j)
      for (int i = 0; i < nx + 2 * W; ++i) {
        const int gi = i - W, gj = j - W;
        const double xne = xw(gi, gj), xse = xw(gi, gj - 1), xnw = xw(gi - 1, gj), xsw = xw(gi - 1, gj - 1);
        const double yne = yw(gi, gj), yse = yw(gi, gj - 1), ynw = yw(gi - 1, gj), ysw = yw(gi - 1, gj - 1);
        const bool ocean = gj >= 0 && gj < g.ny && g.ht(gi, gj) > 0.0;
        const double ac = -((xne + yne) + (xse + yse) + (xnw + ynw) + (xsw + ysw));
        const double c0 = ocean ? ac - (gj >= 0 && gj < g.ny ? g.tarea(gj) : 0.0) * tf : 0.0;
        land += ocean ? 0 : 1;
        mismatches += differs(ane(j, i), xne + yne, sne) || differs(ae(j, i), xne + xse - yne - yse, se) ||
                      differs(an(j, i), yne + ynw - xne - xnw, sn) || differs(a0(j, i), c0, s0) ||
                      differs(ra0(j, i), ocean ? 1.0 / c0 : 0.0, sr) || mask(j, i) != (ocean ? 1.0 : 0.0);
      }
    CHECK(land > 0);  // the grid has coasts (and the closed rows)
    CHECK(mismatches == 0);
  }
}
