// Process grids: 1-D and 2-D Cartesian arrangements of MPI ranks, block ownership of a global index
// range (uneven splits allowed), neighbours (including diagonals, for 9-point stencils), row and
// column sub-communicators, and the node communicator (ranks sharing memory).
//
// Convention: x is the first (i) direction; rank = cy * px + cx (x fastest).
#pragma once
#include <mpi.h>

#include <memory>
#include <string>

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
  // 2-D grid px x py; px = py = 0: MPI_Dims_create chooses; one of them 0: derived from the other.
  // A product that does not equal the rank count is an InputError naming `key` (e.g. "decomp.px").
  static ProcessGrid make_2d(MPI_Comm comm, int px, int py, bool periodic_x, bool periodic_y,
                             const std::string& key = "decomp.px/py");

  MPI_Comm comm() const { return *cart_; }
  int rank() const { return rank_; }
  int size() const { return px_ * py_; }
  int px() const { return px_; }
  int py() const { return py_; }
  int cx() const { return cx_; }
  int cy() const { return cy_; }
  bool periodic_x() const { return periodic_x_; }
  bool periodic_y() const { return periodic_y_; }

  // Rank at offset (dx, dy) in {-1,0,1}^2, or MPI_PROC_NULL off a non-periodic edge.
  int neighbor(int dx, int dy) const;
  int rank_of(int cx, int cy) const { return cy * px_ + cx; }

  MPI_Comm row_comm() const { return *row_; }  // same cy, ranks ordered by cx
  MPI_Comm col_comm() const { return *col_; }  // same cx, ranks ordered by cy
  MPI_Comm node_comm() const { return *node_; }

 private:
  ProcessGrid() = default;
  void finish_setup(MPI_Comm parent);
  CommHandle cart_, row_, col_, node_;
  int rank_ = 0, px_ = 1, py_ = 1, cx_ = 0, cy_ = 0;
  bool periodic_x_ = false, periodic_y_ = false;
};

}  // namespace proxylab
