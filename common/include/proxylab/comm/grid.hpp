// Process grids: 1-D and 2-D Cartesian arrangements of MPI ranks, block ownership of a global index
// range (uneven splits allowed), neighbours (including diagonals, for 9-point stencils), row and
// column sub-communicators, and the node communicator (ranks sharing memory).
//
// Convention: x is the first (i) direction; rank = cy * px + cx (x fastest).
#pragma once
#include <mpi.h>

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace proxylab {

// [begin, end) of part `index` when n items are split into `parts` nearly equal blocks
// (the first n % parts blocks hold one more item).
struct BlockRange {
  int begin = 0, end = 0;
  int size() const { return end - begin; }
};
BlockRange split_range(int n, int parts, int index);

// Owned communicator handle (freed on destruction, before MPI_Finalize).
using CommHandle = std::shared_ptr<MPI_Comm>;
CommHandle make_comm_handle(MPI_Comm comm);

class ProcessGrid {
 public:
  // 1-D grid over all ranks of `comm` (px = size, py = 1).
  static ProcessGrid make_1d(MPI_Comm comm, bool periodic = false);
  // The one process-grid factorisation: of the factor pairs a x b = size that `fits` accepts, the one of least
  // `cost`, the smallest a among equals; {0, 0} when none fits. Most square: cost |a - b| (dims_2d, fft3d's
  // pencils, which must also fit the grid); evh1's halo blocks: the least block perimeter.
  static std::array<int, 2> factor_pair(int size, const std::function<double(int a, int b)>& cost,
                                        const std::function<bool(int a, int b)>& fits);
  static double squareness_cost(int a, int b) { return a > b ? a - b : b - a; }
  // The px x py of a 2-D grid of `size` ranks: px = py = 0: the most square pair, px >= py (what MPI_Dims_create
  // gives; the unit test compares the two); one of them 0: derived from the other. A product that does not equal
  // the rank count is an InputError naming `key` (e.g. "decomp.px").
  static std::array<int, 2> dims_2d(int size, int px, int py, const std::string& key = "decomp.px/py");
  // 2-D grid px x py chosen by dims_2d.
  static ProcessGrid make_2d(MPI_Comm comm, int px, int py, bool periodic_x, bool periodic_y,
                             const std::string& key = "decomp.px/py");
  // px x py blocks of which only those with active[cy * px + cx] != 0 get a rank, one each, in
  // row-major block order (POP's land-block elimination). Neighbours in inactive blocks are
  // MPI_PROC_NULL, like those off a non-periodic edge. The rank count must equal the number of
  // active blocks (InputError naming `key` otherwise).
  static ProcessGrid make_masked_2d(MPI_Comm comm, int px, int py, bool periodic_x, bool periodic_y,
                                    const std::vector<int>& active, const std::string& key);

  MPI_Comm comm() const { return *cart_; }
  int rank() const { return rank_; }
  int size() const { return size_; }  // ranks (px * py unless blocks are masked out)
  int px() const { return px_; }
  int py() const { return py_; }
  int cx() const { return cx_; }
  int cy() const { return cy_; }
  bool periodic_x() const { return periodic_x_; }
  bool periodic_y() const { return periodic_y_; }

  // Rank at offset (dx, dy) in {-1,0,1}^2, or MPI_PROC_NULL off a non-periodic edge.
  int neighbor(int dx, int dy) const;
  // Rank owning block (cx, cy); MPI_PROC_NULL for a masked-out block.
  int rank_of(int cx, int cy) const { return block_rank_.empty() ? cy * px_ + cx : block_rank_[cy * px_ + cx]; }

  MPI_Comm row_comm() const { return *row_; }  // same cy, ranks ordered by cx
  MPI_Comm col_comm() const { return *col_; }  // same cx, ranks ordered by cy
  MPI_Comm node_comm() const { return *node_; }

 private:
  // The shape both makers give; the communicators, this rank and its coordinates come after.
  ProcessGrid(int px, int py, int size, bool periodic_x, bool periodic_y)
      : size_(size), px_(px), py_(py), periodic_x_(periodic_x), periodic_y_(periodic_y) {}
  void finish_setup(MPI_Comm parent);
  void split_row_col_node(MPI_Comm comm);
  CommHandle cart_, row_, col_, node_;
  std::vector<int> block_rank_;  // masked grids only: rank of each block, MPI_PROC_NULL if inactive
  int rank_ = 0, size_ = 1, px_ = 1, py_ = 1, cx_ = 0, cy_ = 0;
  bool periodic_x_ = false, periodic_y_ = false;
};

}  // namespace proxylab
