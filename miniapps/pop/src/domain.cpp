// Block decomposition of the POP grid (see domain.hpp).
#include "domain.hpp"

#include <string>

#include "proxylab/errors.hpp"

namespace proxylab::pop {

Domain::Domain(MPI_Comm comm, const GridSpec& spec, int px, int py, int width, HaloStrategy halo)
    : spec_(spec), w_(width) {
  grid_ = std::make_unique<ProcessGrid>(ProcessGrid::make_2d(comm, px, py, true, false, "decomp.px/py"));
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
  i0_ = bx.begin, j0_ = by.begin, nxl_ = bx.size(), nyl_ = by.size();

  // All-land block: no ocean T-point among the own points.
  int ocean = 0;
  const GridSpec g = spec_;
  Kokkos::parallel_reduce(
      "pop::count_ocean", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({j0_, i0_}, {j0_ + nyl_, i0_ + nxl_}),
      KOKKOS_LAMBDA(int j, int i, int& n) { n += g.ht(i, j) > 0.0 ? 1 : 0; }, ocean);
  all_land_ = ocean == 0;
  int mine = all_land_ ? 1 : 0;
  MPI_Allreduce(&mine, &land_blocks_, 1, MPI_INT, MPI_SUM, grid_->comm());

  halo_ = HaloExchange::create(halo, *grid_, nxl_, nyl_, w_, 1);
}

View2D<double> Domain::field(const std::string& name) const {
  return View2D<double>(name, nyl_ + 2 * w_, nxl_ + 2 * w_);
}

}  // namespace proxylab::pop
