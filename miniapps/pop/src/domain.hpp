// One rank's share of the global grid: a 2-D block of a ProcessGrid (periodic in x, closed in y),
// its ghost width, the halo exchange that fills the ghosts, and whether the block is all land.
// All-land blocks either stay on their rank, which then does no work, or (eliminate_land, as POP's
// block distribution does) get no rank at all: the px x py blocks are then a block grid, the run
// needs one rank per remaining block, and ghosts facing an eliminated block stay zero (land).
//
// Local fields are View2D(ny_local + 2w, nx_local + 2w): row j, column i (x contiguous); the block's
// own points are [w, w + ny_local) x [w, w + nx_local); local (j, i) is global (j0 + j - w, i0 + i - w).
#pragma once
#include <memory>

#include "grid.hpp"
#include "proxylab/comm/grid.hpp"
#include "proxylab/comm/halo.hpp"
#include "proxylab/layout.hpp"

namespace proxylab::pop {

class Domain {
 public:
  // Collective. px = py = 0: automatic (not with eliminate_land); InputError (all ranks) when the grid
  // cannot be split so that every block is at least `width` points wide in both directions, or when
  // the rank count does not match the blocks that remain after elimination.
  // comm_options: what MPI is given for the halo's buffers (comm/options.hpp).
  Domain(MPI_Comm comm, const GridSpec& spec, int px, int py, int width, HaloStrategy halo, bool eliminate_land,
         CommOptions comm_options);

  const GridSpec& spec() const { return spec_; }
  const ProcessGrid& grid() const { return *grid_; }
  MPI_Comm comm() const { return grid_->comm(); }
  int width() const { return w_; }
  int nx_local() const { return nxl_; }
  int ny_local() const { return nyl_; }
  int i0() const { return i0_; }  // global index of the first own column
  int j0() const { return j0_; }  // global index of the first own row
  bool all_land() const { return all_land_; }
  int all_land_blocks() const { return land_blocks_; }  // over all blocks
  bool land_eliminated() const { return eliminated_; }  // all-land blocks have no rank

  // Ranges of own points to compute on (empty on an all-land block).
  int jb() const { return w_; }
  int je() const { return all_land_ ? w_ : w_ + nyl_; }
  int ib() const { return w_; }
  int ie() const { return all_land_ ? w_ : w_ + nxl_; }

  View2D<double> field(const std::string& name) const;  // zero-initialised, with ghosts
  void exchange(const View2D<double>& f) const { halo_->exchange(f); }
  const HaloExchange& halo() const { return *halo_; }

 private:
  GridSpec spec_;
  std::unique_ptr<ProcessGrid> grid_;
  std::unique_ptr<HaloExchange> halo_;
  int w_, nxl_ = 0, nyl_ = 0, i0_ = 0, j0_ = 0, land_blocks_ = 0;
  bool all_land_ = false, eliminated_ = false;
};

}  // namespace proxylab::pop
