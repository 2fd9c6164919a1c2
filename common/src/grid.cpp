// Process grids (see comm/grid.hpp).
#include "proxylab/comm/grid.hpp"

#include "proxylab/errors.hpp"

namespace proxylab {

BlockRange split_range(int n, int parts, int index) {
  const int base = n / parts, extra = n % parts;
  BlockRange r;
  r.begin = index * base + (index < extra ? index : extra);
  r.end = r.begin + base + (index < extra ? 1 : 0);
  return r;
}

CommHandle make_comm_handle(MPI_Comm comm) {
  return CommHandle(new MPI_Comm(comm), [](MPI_Comm* c) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized && *c != MPI_COMM_NULL && *c != MPI_COMM_WORLD && *c != MPI_COMM_SELF) MPI_Comm_free(c);
    delete c;
  });
}

ProcessGrid ProcessGrid::make_1d(MPI_Comm comm, bool periodic) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  return make_2d(comm, size, 1, periodic, false);
}

std::array<int, 2> ProcessGrid::factor_pair(int size, const std::function<double(int, int)>& cost,
                                            const std::function<bool(int, int)>& fits) {
  std::array<int, 2> best = {0, 0};
  double best_cost = 0;
  for (int a = 1; a <= size; ++a) {
    if (size % a != 0 || !fits(a, size / a)) continue;
    const double c = cost(a, size / a);
    if (best[0] == 0 || c < best_cost) {
      best = {a, size / a};
      best_cost = c;
    }
  }
  return best;
}

std::array<int, 2> ProcessGrid::dims_2d(int size, int px, int py, const std::string& key) {
  if (px < 0 || py < 0)
    throw InputError("key '" + key + "' has value " + std::to_string(px) + "x" + std::to_string(py) +
                     "; allowed: positive process counts, or 0 for automatic");
  if (px == 0 && py == 0) {
    const std::array<int, 2> pair = factor_pair(size, squareness_cost, [](int, int) { return true; });
    px = pair[1];
    py = pair[0];  // px >= py
  } else if (px == 0) {
    if (size % py != 0)
      throw InputError("key '" + key + "': py = " + std::to_string(py) + " does not divide the " +
                       std::to_string(size) + " ranks; allowed: a divisor of the rank count");
    px = size / py;
  } else if (py == 0) {
    if (size % px != 0)
      throw InputError("key '" + key + "': px = " + std::to_string(px) + " does not divide the " +
                       std::to_string(size) + " ranks; allowed: a divisor of the rank count");
    py = size / px;
  }
  if (px * py != size)
    throw InputError("key '" + key + "' has value " + std::to_string(px) + "x" + std::to_string(py) + " = " +
                     std::to_string(px * py) + " processes, but the run has " + std::to_string(size) +
                     " ranks; allowed: px*py equal to the rank count (or 0 for automatic)");
  return {px, py};
}

ProcessGrid ProcessGrid::make_2d(MPI_Comm comm, int px, int py, bool periodic_x, bool periodic_y,
                                 const std::string& key) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  const std::array<int, 2> dims = dims_2d(size, px, py, key);
  ProcessGrid g(dims[0], dims[1], size, periodic_x, periodic_y);
  g.finish_setup(comm);
  return g;
}

ProcessGrid ProcessGrid::make_masked_2d(MPI_Comm comm, int px, int py, bool periodic_x, bool periodic_y,
                                        const std::vector<int>& active, const std::string& key) {
  int size = 1, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  if (px <= 0 || py <= 0 || int(active.size()) != px * py)
    throw InputError("key '" + key + "' has value " + std::to_string(px) + "x" + std::to_string(py) +
                     "; allowed: a given block grid (positive px and py) when blocks are eliminated");
  ProcessGrid g(px, py, size, periodic_x, periodic_y);
  g.block_rank_.assign(active.size(), MPI_PROC_NULL);
  int n_active = 0;
  for (size_t b = 0; b < active.size(); ++b)
    if (active[b]) {
      if (n_active == rank) {
        g.cx_ = int(b) % px;
        g.cy_ = int(b) / px;
      }
      g.block_rank_[b] = n_active++;
    }
  if (n_active != size)
    throw InputError("key '" + key + "' has value " + std::to_string(px) + "x" + std::to_string(py) + ": " +
                     std::to_string(n_active) + " of its " + std::to_string(px * py) +
                     " blocks remain after elimination, but the run has " + std::to_string(size) +
                     " ranks; allowed: as many ranks as remaining blocks (run with " + std::to_string(n_active) +
                     " ranks)");
  MPI_Comm dup;
  MPI_Comm_dup(comm, &dup);
  g.cart_ = make_comm_handle(dup);
  g.rank_ = rank;
  g.split_row_col_node(dup);
  return g;
}

void ProcessGrid::finish_setup(MPI_Comm parent) {
  // Cartesian dims are (y, x) so that the row-major cart rank is cy * px + cx.
  int dims[2] = {py_, px_}, periods[2] = {periodic_y_, periodic_x_};
  MPI_Comm cart;
  MPI_Cart_create(parent, 2, dims, periods, 0, &cart);
  cart_ = make_comm_handle(cart);
  MPI_Comm_rank(cart, &rank_);
  int coords[2];
  MPI_Cart_coords(cart, rank_, 2, coords);
  cy_ = coords[0];
  cx_ = coords[1];
  split_row_col_node(cart);
}

void ProcessGrid::split_row_col_node(MPI_Comm comm) {
  MPI_Comm row, col, node;
  MPI_Comm_split(comm, cy_, cx_, &row);
  MPI_Comm_split(comm, cx_, cy_, &col);
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
  row_ = make_comm_handle(row);
  col_ = make_comm_handle(col);
  node_ = make_comm_handle(node);
}

int ProcessGrid::neighbor(int dx, int dy) const {
  int x = cx_ + dx, y = cy_ + dy;
  if (x < 0 || x >= px_) {
    if (!periodic_x_) return MPI_PROC_NULL;
    x = (x + px_) % px_;
  }
  if (y < 0 || y >= py_) {
    if (!periodic_y_) return MPI_PROC_NULL;
    y = (y + py_) % py_;
  }
  return rank_of(x, y);
}

}  // namespace proxylab
