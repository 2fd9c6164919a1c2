// Process grids at 1, 2 and 4 ranks: block splits, neighbours, sub-communicators, bad shapes.
#include "proxylab/comm/grid.hpp"
#include "proxylab/errors.hpp"
#include "proxylab/testing.hpp"

TEST_CASE("grid: split_range covers n exactly, uneven parts differ by at most one", "[grid]") {
  for (int n : {0, 1, 7, 320, 384, 3601})
    for (int parts : {1, 2, 3, 4, 7}) {
      int next = 0, lo = n, hi = 0;
      for (int p = 0; p < parts; ++p) {
        auto r = proxylab::split_range(n, parts, p);
        CHECK(r.begin == next);
        next = r.end;
        lo = std::min(lo, r.size());
        hi = std::max(hi, r.size());
      }
      CHECK(next == n);
      CHECK(hi - lo <= 1);
    }
}

TEST_CASE("grid: 2-D grid neighbours and sub-communicators", "[grid][mpi]") {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  auto g = proxylab::ProcessGrid::make_2d(MPI_COMM_WORLD, 0, 0, true, false);
  CHECK(g.px() * g.py() == size);
  CHECK(g.rank_of(g.cx(), g.cy()) == g.rank());
  // Periodic in x: the east neighbour of the last column is the first column.
  int east = g.neighbor(1, 0);
  CHECK(east == g.rank_of((g.cx() + 1) % g.px(), g.cy()));
  // Not periodic in y: the bottom row has no south neighbour.
  if (g.cy() == 0) CHECK(g.neighbor(0, -1) == MPI_PROC_NULL);
  if (g.cy() == g.py() - 1) CHECK(g.neighbor(1, 1) == MPI_PROC_NULL);
  int row_size = 0, col_size = 0, node_size = 0;
  MPI_Comm_size(g.row_comm(), &row_size);
  MPI_Comm_size(g.col_comm(), &col_size);
  MPI_Comm_size(g.node_comm(), &node_size);
  CHECK(row_size == g.px());
  CHECK(col_size == g.py());
  CHECK(node_size >= 1);
  // A neighbour relation is symmetric: my east's west is me (exchange and compare).
  int west_of_east = -1, me = g.rank();
  MPI_Sendrecv(&me, 1, MPI_INT, g.neighbor(-1, 0), 0, &west_of_east, 1, MPI_INT, g.neighbor(1, 0), 0, g.comm(),
               MPI_STATUS_IGNORE);
  CHECK(west_of_east == g.neighbor(1, 0));
}

TEST_CASE("grid: a shape that does not match the rank count is an input error", "[grid][mpi]") {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK_THROWS_AS(proxylab::ProcessGrid::make_2d(MPI_COMM_WORLD, size + 1, 1, false, false), proxylab::InputError);
  CHECK_THROWS_AS(proxylab::ProcessGrid::make_2d(MPI_COMM_WORLD, -1, 1, false, false), proxylab::InputError);
  if (size > 1)
    CHECK_THROWS_AS(proxylab::ProcessGrid::make_2d(MPI_COMM_WORLD, 0, size + 1, false, false), proxylab::InputError);
  auto g1 = proxylab::ProcessGrid::make_1d(MPI_COMM_WORLD);
  CHECK(g1.px() == size);
  CHECK(g1.py() == 1);
}

TEST_CASE("grid: dims_2d is the one factorisation (MPI_Dims_create, or the given side)", "[grid]") {
  using proxylab::ProcessGrid;
  using Dims = std::array<int, 2>;
  CHECK(ProcessGrid::dims_2d(4, 0, 0) == Dims{2, 2});
  CHECK(ProcessGrid::dims_2d(6, 0, 0) == Dims{3, 2});  // MPI_Dims_create: non-increasing
  CHECK(ProcessGrid::dims_2d(6, 1, 0) == Dims{1, 6});
  CHECK(ProcessGrid::dims_2d(6, 0, 3) == Dims{2, 3});
  CHECK(ProcessGrid::dims_2d(6, 3, 2) == Dims{3, 2});
  CHECK_THROWS_WITH(ProcessGrid::dims_2d(2, 3, 0, "decomp.px/py"),
                    Catch::Matchers::Contains("decomp.px/py") && Catch::Matchers::Contains("px = 3 does not divide"));
  CHECK_THROWS_AS(ProcessGrid::dims_2d(4, 3, 2), proxylab::InputError);
  CHECK_THROWS_AS(ProcessGrid::dims_2d(4, -1, 0), proxylab::InputError);
}

TEST_CASE("grid: factor_pair is MPI_Dims_create's choice when nothing is excluded, and skips pairs that do not fit",
          "[grid]") {
  using proxylab::ProcessGrid;
  using Dims = std::array<int, 2>;
  int differ = 0;
  for (int n = 1; n <= 5000; ++n) {  // dims_2d's automatic grid is the most square pair, as MPI_Dims_create's
    int dims[2] = {0, 0};
    MPI_Dims_create(n, 2, dims);
    differ += ProcessGrid::dims_2d(n, 0, 0) != Dims{dims[0], dims[1]};
  }
  CHECK(differ == 0);
  auto all = [](int, int) { return true; };
  CHECK(ProcessGrid::factor_pair(12, ProcessGrid::squareness_cost, all) == Dims{3, 4});  // smallest a among equals
  CHECK(ProcessGrid::factor_pair(12, ProcessGrid::squareness_cost, [](int a, int) { return a >= 4; }) == Dims{4, 3});
  CHECK(ProcessGrid::factor_pair(12, ProcessGrid::squareness_cost, [](int a, int b) { return a == 5 || b > 12; }) ==
        Dims{0, 0});  // nothing fits
  // another cost: the least block perimeter of a 100 x 10 grid on 4 ranks is 4 x 1 (25 + 10), not 2 x 2 (50 + 5)
  CHECK(ProcessGrid::factor_pair(
            4, [](int a, int b) { return 100.0 / a + 10.0 / b; }, all) == Dims{4, 1});
}
