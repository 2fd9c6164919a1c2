// Halo strategies at 1, 2 and 4 ranks: after an exchange every ghost cell (edges and corners) holds
// the global-index value of the neighbour's interior cell it mirrors; ghosts off a non-periodic edge
// keep their sentinel. Periodic and not, width 1 with one field and width 2 with three, uneven blocks, three grid
// shapes.
#include <utility>

#include "proxylab/comm/halo.hpp"
#include "proxylab/errors.hpp"
#include "proxylab/launch_counter.hpp"
#include "proxylab/testing.hpp"

namespace {

using proxylab::CommOptions;
using proxylab::HaloExchange;
using proxylab::HaloStrategy;
using proxylab::ProcessGrid;

constexpr double sentinel = -1.0;

double value(int f, int gy, int gx, int pass) { return f * 1.0e6 + gy * 1.0e3 + gx + 0.25 * pass; }

// Global index of local index c (ghosts included), wrapped if periodic; -1 if outside a closed edge.
int global_index(int c, int w, int begin, int n_global, bool periodic) {
  int g = begin + c - w;
  if (g >= 0 && g < n_global) return g;
  return periodic ? (g + n_global) % n_global : -1;
}

struct Block {
  int nx, ny, x0, y0;
};

Block block_of(const ProcessGrid& g, int NX, int NY) {
  auto rx = proxylab::split_range(NX, g.px(), g.cx()), ry = proxylab::split_range(NY, g.py(), g.cy());
  return {rx.size(), ry.size(), rx.begin, ry.begin};
}

void fill(const proxylab::View3D<double>& v, const Block& b, int w, int pass) {
  auto h = Kokkos::create_mirror_view(v);
  for (int f = 0; f < int(v.extent(0)); ++f)
    for (int y = 0; y < b.ny + 2 * w; ++y)
      for (int x = 0; x < b.nx + 2 * w; ++x) {
        const bool interior = y >= w && y < b.ny + w && x >= w && x < b.nx + w;
        h(f, y, x) = interior ? value(f, b.y0 + y - w, b.x0 + x - w, pass) : sentinel;
      }
  Kokkos::deep_copy(v, h);
}

// Number of cells that differ from the reference fill.
int mismatches(const proxylab::View3D<double>& v, const ProcessGrid& g, const Block& b, int NX, int NY, int w,
               int pass) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  int bad = 0;
  for (int f = 0; f < int(v.extent(0)); ++f)
    for (int y = 0; y < b.ny + 2 * w; ++y)
      for (int x = 0; x < b.nx + 2 * w; ++x) {
        const int gy = global_index(y, w, b.y0, NY, g.periodic_y()), gx = global_index(x, w, b.x0, NX, g.periodic_x());
        const double expect = (gy < 0 || gx < 0) ? sentinel : value(f, gy, gx, pass);
        bad += h(f, y, x) != expect;
      }
  return bad;
}

}  // namespace

TEST_CASE("halo: every strategy fills edges and corners from the neighbours' interiors", "[halo][mpi]") {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // (px, py, periodic x, periodic y): automatic 2-D, then 1-D rows and columns (0 = automatic).
  const int cases[5][4] = {{0, 0, 1, 1}, {0, 0, 0, 0}, {0, 0, 1, 0}, {size, 1, 0, 1}, {1, size, 1, 0}};
  for (const auto& c : cases) {
    const bool per[2] = {c[2] != 0, c[3] != 0};
    const auto grid = ProcessGrid::make_2d(MPI_COMM_WORLD, c[0], c[1], per[0], per[1]);
    const int NX = 3 * grid.px() + 1, NY = 4 * grid.py() + 2;  // uneven blocks of 3-4 and 4-5 cells
    const Block b = block_of(grid, NX, NY);
    for (const auto& name : proxylab::halo_strategy_names())
      for (auto [w, nf] : {std::pair{1, 1}, std::pair{2, 3}}) {  // widths 1, 2; one field and three
        INFO("strategy " << name << " px " << grid.px() << " py " << grid.py() << " periodic " << per[0] << per[1]
                         << " width " << w << " fields " << nf);
        auto halo = HaloExchange::create(proxylab::parse_halo_strategy(name), grid, b.nx, b.ny, w, nf, CommOptions{});
        CHECK(halo->strategy() == proxylab::parse_halo_strategy(name));
        CHECK(halo->width() == w);
        proxylab::View3D<double> v("fields", nf, b.ny + 2 * w, b.nx + 2 * w);
        for (int pass = 0; pass < 2; ++pass) {  // a repeated exchange reuses requests, windows, buffers
          fill(v, b, w, pass);
          halo->exchange(v);
          CHECK(mismatches(v, grid, b, NX, NY, w, pass) == 0);
        }
      }
  }
}

TEST_CASE("halo: the View2D form and the message and byte counts", "[halo][mpi]") {
  const auto grid = ProcessGrid::make_2d(MPI_COMM_WORLD, 0, 0, true, true);
  const int nx = 5, ny = 4, w = 2;
  const Block b{nx, ny, grid.cx() * nx, grid.cy() * ny};
  for (const auto& name : proxylab::halo_strategy_names()) {
    INFO("strategy " << name);
    auto halo = HaloExchange::create(proxylab::parse_halo_strategy(name), grid, nx, ny, w, 1, CommOptions{});
    proxylab::View3D<double> v("field", 1, ny + 2 * w, nx + 2 * w);
    fill(v, b, w, 0);
    halo->exchange(Kokkos::subview(v, 0, Kokkos::ALL, Kokkos::ALL));
    CHECK(mismatches(v, grid, b, nx * grid.px(), ny * grid.py(), w, 0) == 0);
    const long long eight = 8LL * (2 * w * ny + 2 * w * nx + 4 * w * w);
    if (name == "sendrecv") {  // four messages; the y messages carry the corners
      CHECK(halo->messages_per_exchange() == 4);
      CHECK(halo->bytes_per_exchange() == 8LL * (2 * w * ny + 2 * w * (nx + 2 * w)));
    } else {
      CHECK(halo->messages_per_exchange() == 8);
      CHECK(halo->bytes_per_exchange() == eight);
    }
  }
}

// A rank that is its own neighbour (periodic, one rank in that direction; here y) fills those ghosts in one kernel
// where the field lives: no MPI, no buffer, no wait. The directions to other ranks (x, from 2 ranks on) cost a pack
// and an unpack kernel and one wait, for the packed edges, before MPI reads them. Counted as LaunchCounter counts
// them on a GPU; an added host round trip fails here.
TEST_CASE("halo: an exchange with itself is one kernel and no wait; other ranks add pack, unpack, one wait",
          "[halo][mpi]") {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const auto grid = ProcessGrid::make_2d(MPI_COMM_WORLD, size, 1, true, true);
  const int nx = 6, ny = 5, w = 2;
  const Block b{nx, ny, grid.cx() * nx, 0};
  const bool remote = size > 1;
  for (HaloStrategy s : {HaloStrategy::packed, HaloStrategy::persistent, HaloStrategy::rma}) {
    INFO("strategy " << proxylab::to_string(s) << ", " << size << " ranks");
    auto halo = HaloExchange::create(s, grid, nx, ny, w, 2, CommOptions{});
    proxylab::View3D<double> v("fields", 2, ny + 2 * w, nx + 2 * w);
    fill(v, b, w, 0);
    long long launches = 0, fences = 0;
    {
      proxylab::LaunchCounter counter;
      halo->exchange(v);
      launches = static_cast<long long>(counter.launches());
      fences = static_cast<long long>(counter.fences());
    }
    CHECK(mismatches(v, grid, b, nx * size, ny, w, 0) == 0);
    CHECK(launches == (remote ? 3 : 1));
    if (proxylab::LaunchCounter::sees_internal_fences) CHECK(fences == (remote ? 1 : 0));
  }
}

TEST_CASE("halo: names, parsing and impossible widths", "[halo][mpi]") {
  for (const auto& name : proxylab::halo_strategy_names())
    CHECK(std::string(proxylab::to_string(proxylab::parse_halo_strategy(name))) == name);
  CHECK_THROWS_AS(proxylab::parse_halo_strategy("shmem"), proxylab::InputError);
  const auto grid = ProcessGrid::make_2d(MPI_COMM_WORLD, 0, 0, false, false);
  CHECK_THROWS_AS(HaloExchange::create(HaloStrategy::packed, grid, 3, 3, 4, 1, CommOptions{}), proxylab::InputError);
  CHECK_THROWS_AS(HaloExchange::create(HaloStrategy::rma, grid, 3, 3, 0, 1, CommOptions{}), proxylab::InputError);
  // Only rank 0 has a block too thin for the width: every rank still throws (no hang).
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  CHECK_THROWS_AS(HaloExchange::create(HaloStrategy::datatype, grid, rank == 0 ? 1 : 3, 3, 2, 1, CommOptions{}),
                  proxylab::InputError);
}
