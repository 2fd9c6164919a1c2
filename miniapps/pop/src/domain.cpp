// Block decomposition of the POP grid (see domain.hpp).
#include "domain.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "proxylab/errors.hpp"
#include "proxylab/run_results.hpp"
#include "proxylab/stop.hpp"

namespace proxylab::pop {

namespace {

// Ocean T-points in the own points [j0, j0 + ny) x [i0, i0 + nx) of a block.
int count_ocean(const GridSpec& g, int i0, int j0, int nx, int ny) {
  int ocean = 0;
  Kokkos::parallel_reduce(
      "pop::count_ocean", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({j0, i0}, {j0 + ny, i0 + nx}),
      KOKKOS_LAMBDA(int j, int i, int& n) { n += g.ht(i, j) > 0.0 ? 1 : 0; }, ocean);
  return ocean;
}

// POP's land-block elimination: which blocks of a px x py block grid hold ocean (every rank
// computes the same list from the analytic grid, so all ranks agree without communication).
std::vector<int> ocean_blocks(const GridSpec& g, int px, int py) {
  std::vector<int> active(size_t(px) * py);
  for (int cy = 0; cy < py && !stop_pending(); ++cy)  // Ctrl-C: the caller agrees on stopping before any use
    for (int cx = 0; cx < px; ++cx) {
      const BlockRange bx = split_range(g.nx, px, cx), by = split_range(g.ny, py, cy);
      active[size_t(cy) * px + cx] = count_ocean(g, bx.begin, by.begin, bx.size(), by.size()) > 0 ? 1 : 0;
    }
  return active;
}

// A grid without an ocean T-point has no system to solve (every sum of the solve and its checks would be 0 / 0).
InputError no_ocean(const GridSpec& g) {
  return InputError(text_printf(
      "keys grid.lat_south = %g, grid.lat_north = %g, grid.nx = %d, grid.ny = %d give a grid whose T-points are all "
      "land (the synthetic bathymetry is land at every longitude south of 70 S); allowed: a grid with ocean: "
      "another latitude band (grid.lat_south, grid.lat_north) or more points (grid.nx, grid.ny)",
      g.lat_south, g.lat_north, g.nx, g.ny));
}

}  // namespace

Domain::Domain(MPI_Comm comm, const GridSpec& spec, int px, int py, int width, HaloStrategy halo, bool eliminate_land,
               CommOptions comm_options)
    : spec_(spec), w_(width), eliminated_(eliminate_land) {
  if (eliminate_land) {
    if (px <= 0 || py <= 0)
      throw InputError("key 'decomp.eliminate_land' is true but decomp.px x decomp.py is " + std::to_string(px) + "x" +
                       std::to_string(py) +
                       "; allowed: a given block grid (both positive) to eliminate land blocks from");
    const std::vector<int> active = ocean_blocks(spec, px, py);
    if (stop_agreed(comm)) throw Interrupted();  // a partial list must never reach the collective grid set-up
    if (std::find(active.begin(), active.end(), 1) == active.end()) throw no_ocean(spec);
    grid_ =
        std::make_unique<ProcessGrid>(ProcessGrid::make_masked_2d(comm, px, py, true, false, active, "decomp.px/py"));
  } else {
    grid_ = std::make_unique<ProcessGrid>(ProcessGrid::make_2d(comm, px, py, true, false, "decomp.px/py"));
  }
  // The smallest block is n / parts (floor): every rank checks the same numbers, so all throw alike.
  const int min_x = spec.nx / grid_->px(), min_y = spec.ny / grid_->py();
  if (min_x < width || min_y < width)
    throw InputError("grid " + std::to_string(spec.nx) + "x" + std::to_string(spec.ny) + " over a " +
                     std::to_string(grid_->px()) + "x" + std::to_string(grid_->py()) +
                     " process grid (decomp.px x decomp.py) gives blocks of " + std::to_string(min_x) + "x" +
                     std::to_string(min_y) + " points; allowed: blocks at least comm.halo_width=" +
                     std::to_string(width) + " points wide in x and y (use fewer ranks or another decomp.px/py)");
  const BlockRange bx = split_range(spec.nx, grid_->px(), grid_->cx());
  const BlockRange by = split_range(spec.ny, grid_->py(), grid_->cy());
  i0_ = bx.begin;
  j0_ = by.begin;
  nxl_ = bx.size();
  nyl_ = by.size();

  if (eliminate_land) {  // every block with a rank holds ocean; the others were dropped
    land_blocks_ = grid_->px() * grid_->py() - grid_->size();
  } else {
    all_land_ = count_ocean(spec_, i0_, j0_, nxl_, nyl_) == 0;
    int mine = all_land_ ? 1 : 0;
    MPI_Allreduce(&mine, &land_blocks_, 1, MPI_INT, MPI_SUM, grid_->comm());
    if (land_blocks_ == grid_->size()) throw no_ocean(spec);  // the same sum on every rank
  }

  halo_ = HaloExchange::create(halo, *grid_, nxl_, nyl_, w_, 1, comm_options);
}

View2D<double> Domain::field(const std::string& name) const {
  return View2D<double>(name, nyl_ + 2 * w_, nxl_ + 2 * w_);
}

}  // namespace proxylab::pop
