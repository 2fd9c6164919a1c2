// How the nx x ny x nz grid is split over ranks in each stage of a distributed 3-D FFT.
//
// A p_row x p_col process grid (rank (r, c)); each stage keeps one axis whole on every rank (a
// "pencil") so that the 1-D FFTs along it are local and contiguous:
//   X stage  memory order (z, y, x): x whole, y split over p_row, z split over p_col   (input/output of the inverse)
//   Y stage  memory order (z, x, y): y whole, x split over p_row, z split over p_col (the unfused path, a device's,
//            lays it out otherwise: DistributedFFT's constructor)
//   Z stage  memory order (y, x, z): z whole, x split over p_row, y split over p_col   (output of the forward)
// X->Y transposes run among the p_row ranks sharing c, Y->Z among the p_col ranks sharing r
// (2DECOMP&FFT's scheme). `slab` is p_row = 1: x and y are both whole in the X stage, the y FFTs run
// strided in place there and the Y stage (and its transpose) is skipped: one transpose per transform.
// Splits are split_range() blocks, so sizes need not divide the rank counts.
#pragma once
#include <algorithm>
#include <string>

namespace proxylab::fft3d {

enum class DecompKind { slab, pencil };

// One rank's piece of the grid in one stage.
struct Pencil {
  int order[3] = {2, 1, 0};  // global axis (0 = x, 1 = y, 2 = z) of memory dims, slowest first
  int lo[3] = {0, 0, 0};     // first owned global index per axis
  int n[3] = {0, 0, 0};      // owned extent per axis
  long long size() const { return (long long)n[0] * n[1] * n[2]; }
  int extent(int dim) const { return n[order[dim]]; }  // extent of memory dim 0, 1, 2
  // Elements between neighbours along global axis `axis` in this piece's memory layout.
  long long stride(int axis) const {
    return axis == order[2] ? 1 : axis == order[1] ? n[order[2]] : (long long)n[order[2]] * n[order[1]];
  }
};

struct Decomposition {
  DecompKind kind = DecompKind::slab;
  int global[3] = {1, 1, 1};  // nx, ny, nz
  int p_row = 1, p_col = 1;

  // Validated decomposition (InputError, identical on every rank, naming the deck key when the
  // rank count cannot decompose the grid). p_row = p_col = 0 chooses the most square valid grid.
  static Decomposition make(DecompKind kind, int nx, int ny, int nz, int ranks, int p_row, int p_col);
  // The most ranks slabs decompose a grid over: a z plane and a y plane each at least.
  static int max_slab_ranks(int ny, int nz) { return std::min(ny, nz); }

  Pencil x_pencil(int r, int c) const;
  Pencil y_pencil(int r, int c) const;
  Pencil z_pencil(int r, int c) const;
  long long points() const { return (long long)global[0] * global[1] * global[2]; }
  std::string describe() const;  // "pencil 2 x 2" / "slab over 4 ranks"
};

}  // namespace proxylab::fft3d
