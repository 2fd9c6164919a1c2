// This rank's zones of the global nx x ny grid, and the collective operations verification needs on them, so
// that no rank ever holds the whole grid (a global gather would make the memory per rank independent of the rank
// count). Every decomposition evh1 has (rows or columns of the transpose algorithm,
// blocks of the halo algorithm) gives each rank one rectangle.
//
//   ZoneBlock b = domain.local();             // [i0, i0 + ni) x [j0, j0 + nj), state (var, j, i), a host copy
//   b.at(var_rho, i, j)                        // global zone indices
//   mapped_density(comm, b, g, Mirror::y)     // rho at the mirror image of each of this rank's zones
//   gather_density(comm, 0, b, g)             // the whole density field on rank 0 (output files only)
#pragma once
#include <mpi.h>

#include <cstddef>
#include <vector>

#include "domain.hpp"

namespace proxylab::evh1 {

struct ZoneBlock {
  int i0 = 0, ni = 0, j0 = 0, nj = 0;
  std::vector<double> f;  // (var, j - j0, i - i0), i fastest
  double at(int v, int i, int j) const { return f[(std::size_t(v) * nj + (j - j0)) * ni + (i - i0)]; }
  std::size_t zones() const { return std::size_t(ni) * nj; }
};

// The maps of the grid onto itself the symmetry checks compare with: y -> ny - 1 - j, x -> nx - 1 - i, and the
// diagonal x <-> y (square grids).
enum class Mirror { y, x, diagonal };

// Collective over comm: for each zone (i, j) of this rank's block, the density at the zone the mirror maps it to,
// in the block's order (j, i). An all-to-all of the rectangles where each rank's mirrored block meets the others':
// memory per rank stays that of its own block.
std::vector<double> mapped_density(MPI_Comm comm, const ZoneBlock& mine, const GridSpec& g, Mirror m);

// Collective over comm: the density of the whole grid (ny * nx, x fastest) on rank `root`, empty elsewhere.
std::vector<double> gather_density(MPI_Comm comm, int root, const ZoneBlock& mine, const GridSpec& g);

}  // namespace proxylab::evh1
