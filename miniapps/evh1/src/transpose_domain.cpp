// algorithm = transpose (EVH1): rows [j0, j1) of every rank for the x sweeps, stored (var, j, i);
// columns [i0, i1) for the y sweeps, stored transposed (var, i, j) so that both sweeps run along the
// contiguous index. One all-to-all moves the state between the two layouts (x y | y x: two per two steps).
#include <Kokkos_Core.hpp>

#include "backend.hpp"
#include "domain.hpp"
#include "proxylab/comm/grid.hpp"
#include "proxylab/comm/mpi_buffer.hpp"
#include "proxylab/comm/transpose.hpp"
#include "proxylab/kmath.hpp"
#include "proxylab/mapping.hpp"
#include "zone_block.hpp"

namespace proxylab::evh1 {
namespace {

// One block of a transposing copy: dst[r * d_row + c] = src[r * s_row + c * s_col] for r < nrow, c < ncol (the
// pack and unpack of EVH1's transposes).
struct BlockCopy {
  const double* src;
  std::ptrdiff_t s_row, s_col;
  double* dst;
  std::ptrdiff_t d_row;
  int nrow, ncol;
};

// The blocks of one pack or unpack. Host: the blocks in parallel, each in 32 x 32 tiles so that the strided side of
// the copy stays in cache. Device: one kernel per block, one element per thread, neighbouring threads along c.
void copy_blocks(const char* name, const std::vector<BlockCopy>& blocks) {
  if constexpr (backend::block_copies_per_thread) {
    Kokkos::parallel_for(name, Kokkos::RangePolicy<HostExec>(0, int(blocks.size())), [&](int b) {
      constexpr int tile = 32;
      const BlockCopy& k = blocks[b];
      for (int r0 = 0; r0 < k.nrow; r0 += tile)
        for (int c0 = 0; c0 < k.ncol; c0 += tile) {
          const int r1 = r0 + tile < k.nrow ? r0 + tile : k.nrow, c1 = c0 + tile < k.ncol ? c0 + tile : k.ncol;
          for (int r = r0; r < r1; ++r)
            for (int c = c0; c < c1; ++c) k.dst[r * k.d_row + c] = k.src[r * k.s_row + c * k.s_col];
        }
    });
  } else {
    for (const BlockCopy& k : blocks) {
      const double* src = k.src;
      double* dst = k.dst;
      const std::ptrdiff_t s_row = k.s_row, s_col = k.s_col, d_row = k.d_row;
      for_each_2d<ExecSpace>(
          name, Mapping::flat, 0, k.nrow, 0, k.ncol,
          KOKKOS_LAMBDA(int r, int c) { dst[r * d_row + c] = src[r * s_row + c * s_col]; });
    }
  }
}

// The address of f(v, a, b) (LayoutRight), computed on the host whatever memory f is in.
template <class View>
auto element(const View& f, int v, int a, int b) {
  return f.data() + (std::ptrdiff_t(v) * f.extent(1) + a) * std::ptrdiff_t(f.extent(2)) + b;
}

class TransposeDomain : public Domain {
 public:
  TransposeDomain(MPI_Comm comm, const GridSpec& g, const SweepOptions& o, Timers& t, TransposeStrategy strategy,
                  CommOptions comm_options)
      : Domain(g, o, t), comm_(comm) {
    Transpose::require_reachable(strategy, comm_options, "evh1.transpose_strategy");
    MPI_Comm_rank(comm, &rank_);
    MPI_Comm_size(comm, &size_);
    for (int r = 0; r < size_; ++r) {
      rows_.push_back(split_range(g.ny, size_, r));
      cols_.push_back(split_range(g.nx, size_, r));
    }
    const int nyl = rows_[rank_].size(), nxl = cols_[rank_].size();
    xdata_ = View3D<double>("evh1::xdata", nvars, nyl, g.nx);
    ydata_ = View3D<double>("evh1::ydata", nvars, nxl, g.ny);
    send_ = MPIBuffer<double>("evh1::send", std::size_t(nvars) * nyl * g.nx, comm_options);
    recv_ = MPIBuffer<double>("evh1::recv", std::size_t(nvars) * nxl * g.ny, comm_options);
    // counts for x -> y: to rank s my rows times its columns; from rank r its rows times my columns. This rank's
    // own block goes straight from xdata to ydata (no buffer, no message).
    for (int r = 0; r < size_; ++r) {
      xy_send_.push_back(r == rank_ ? 0 : nvars * nyl * cols_[r].size());
      xy_recv_.push_back(r == rank_ ? 0 : nvars * rows_[r].size() * nxl);
    }
    displacements(xy_send_, xy_sdisp_);
    displacements(xy_recv_, xy_rdisp_);
    transpose_ = Transpose::create(strategy, comm);
    to_y_ = plan(x_layout(), y_layout(), send_, xy_sdisp_, recv_, xy_rdisp_);
    to_x_ = plan(y_layout(), x_layout(), recv_, xy_rdisp_, send_, xy_sdisp_);
  }

  void initialize(const InitialState& init) override {
    const BlockRange rows = rows_[rank_];
    auto x = Kokkos::create_mirror_view(xdata_);
    double w[nvars];
    for (int jl = 0; jl < rows.size(); ++jl)
      for (int i = 0; i < grid.nx; ++i) {
        init(i, rows.begin + jl, w);
        for (int v = 0; v < nvars; ++v) x(v, jl, i) = w[v];
      }
    Kokkos::deep_copy(xdata_, x);
    in_x_ = true;
  }

  void sweep_x(double dt) override {
    if (!in_x_) to_x();
    sweep_along(dt, true);
  }

  void sweep_y(double dt) override {
    if (in_x_) to_y();
    sweep_along(dt, false);
  }

  double max_signal_rate() const override {
    const auto& f = in_x_ ? xdata_ : ydata_;  // x layout (var, j, i); y layout (var, i - i0, j)
    return signal_rate(f, 0, int(f.extent(1)), 0, int(f.extent(2)), grid, opt.gas.gamma, in_x_ ? 2 : 1,
                       in_x_ ? 0 : -cols_[rank_].begin);
  }

  // Rows [j0, j1) x every column in the x layout, every row x columns [i0, i1) in the y layout (stored transposed).
  ZoneBlock local() const override {
    ZoneBlock b;
    const BlockRange lines = (in_x_ ? rows_ : cols_)[rank_];
    b.i0 = in_x_ ? 0 : lines.begin;
    b.ni = in_x_ ? grid.nx : lines.size();
    b.j0 = in_x_ ? lines.begin : 0;
    b.nj = in_x_ ? lines.size() : grid.ny;
    b.f.resize(std::size_t(nvars) * b.zones());
    // (var, j - j0, i) or (var, i - i0, j)
    const auto f = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), in_x_ ? xdata_ : ydata_);
    for (int v = 0; v < nvars; ++v)
      for (int jl = 0; jl < b.nj; ++jl)
        for (int il = 0; il < b.ni; ++il)
          b.f[(std::size_t(v) * b.nj + jl) * b.ni + il] = in_x_ ? f(v, jl, il) : f(v, il, jl);
    return b;
  }

  CommCount exchange_count() const override {
    const long long calls = size_ > 1 ? transpose_->calls() : 0;
    return {alltoall_pattern(transpose_->strategy()), 0,
            calls > 0 ? double(transpose_->bytes_sent()) / double(calls) : 0.0, double(size_ - 1), size_};
  }

  std::string describe() const override {
    return "transpose (" + std::to_string(size_) + " x 1 ranks, strategy " + to_string(transpose_->strategy()) + ")";
  }

 private:
  // One sweep of this rank's lines in their own layout (rows in xdata_, columns in ydata_): every pencil along the
  // last index.
  void sweep_along(double dt, bool along_x) {
    auto s = timers.scope(along_x ? "sweep_x" : "sweep_y");
    const BlockRange lines = (along_x ? rows_ : cols_)[rank_];
    Pencils p{along_x ? xdata_ : ydata_,
              2,
              lines.size(),
              0,
              along_x ? grid.nx : grid.ny,
              0,
              along_x ? var_ux : var_uy,
              along_x ? var_uy : var_ux,
              along_x ? grid.x_lo : grid.y_lo,
              along_x ? grid.x_hi : grid.y_hi};
    if (along_x)
      grid.set_x_sweep(p, 0);
    else
      grid.set_y_sweep(p, lines.begin, 0);
    add(sweep(p, dt, grid.dx, opt.gas, opt.mapping, opt.width()));
  }
  static void displacements(const std::vector<int>& counts, std::vector<int>& displs) {
    displs.assign(counts.size(), 0);
    for (std::size_t r = 1; r < counts.size(); ++r) displs[r] = displs[r - 1] + counts[r - 1];
  }

  // One side of the transpose: the state stored (var, line, z) with lines split over ranks by `split`.
  struct Layout {
    View3D<double> data;
    int line;                              // points along a line (nx in the x layout, ny in the y layout)
    const std::vector<BlockRange>& split;  // the lines of each rank
    const char *pack_kernel, *unpack_kernel;
  };
  Layout x_layout() const { return {xdata_, grid.nx, rows_, "evh1::pack_x", "evh1::unpack_x"}; }
  Layout y_layout() const { return {ydata_, grid.ny, cols_, "evh1::pack_y", "evh1::unpack_y"}; }

  // The copies of one direction (the pack into the messages and this rank's own block, the unpack of the others'),
  // fixed by the decomposition: planned once, in the constructor.
  struct Direction {
    const char *pack_kernel = nullptr, *unpack_kernel = nullptr;
    std::vector<BlockCopy> pack, unpack;
  };
  Direction plan(const Layout& from, const Layout& to, const MPIBuffer<double>& sbuf, const std::vector<int>& sd,
                 const MPIBuffer<double>& rbuf, const std::vector<int>& rd) const {
    const int me = rank_, from_lines = from.split[me].size(), to_lines = to.split[me].size();
    Direction d{from.pack_kernel, to.unpack_kernel, {}, {}};
    for (int s = 0; s < size_; ++s)
      for (int v = 0; v < nvars; ++v) {  // (to-line, from-line) <- from(v, from-line, to-line)
        const int w = to.split[s].size();
        double* out = s == me ? element(to.data, v, 0, from.split[me].begin)
                              : sbuf.data() + sd[s] + std::ptrdiff_t(v) * w * from_lines;
        d.pack.push_back({element(from.data, v, 0, to.split[s].begin), 1, from.line, out,
                          s == me ? to.line : from_lines, w, from_lines});
      }
    for (int r = 0; r < size_; ++r)
      for (int v = 0; v < nvars; ++v) {  // r's lines are contiguous on both sides
        const int h = from.split[r].size();
        if (r != me)
          d.unpack.push_back({rbuf.data() + rd[r] + std::ptrdiff_t(v) * to_lines * h, h, 1,
                              element(to.data, v, 0, from.split[r].begin), to.line, to_lines, h});
      }
    return d;
  }

  // EVH1's MPI_ALLTOALL between the sweeps, one direction of it (x -> y after sweepx, y -> x before the next): the
  // block for rank s holds, per var, the points of this rank's lines that lie in s's lines of the other layout;
  // the own block is transposed straight across. The message buffers and their counts and displacements are those
  // of the direction (send_ / recv_ swap roles for y -> x).
  void transpose(const Direction& d, const MPIBuffer<double>& sbuf, const std::vector<int>& sc,
                 const std::vector<int>& sd, const MPIBuffer<double>& rbuf, const std::vector<int>& rc,
                 const std::vector<int>& rd) {
    auto c = timers.scope("communication", Category::communication);
    copy_blocks(d.pack_kernel, d.pack);
    if (size_ > 1) {  // one rank: its block moved already
      Kokkos::fence();
      sbuf.to_mpi();
      transpose_->exchange(sbuf.mpi(), sc, sd, rbuf.mpi(), rc, rd);
      rbuf.from_mpi();
    }
    copy_blocks(d.unpack_kernel, d.unpack);  // none at one rank
    Kokkos::fence();
    in_x_ = !in_x_;
    ++messages;
  }
  void to_y() { transpose(to_y_, send_, xy_send_, xy_sdisp_, recv_, xy_recv_, xy_rdisp_); }
  void to_x() { transpose(to_x_, recv_, xy_recv_, xy_rdisp_, send_, xy_send_, xy_sdisp_); }

  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  std::vector<BlockRange> rows_, cols_;
  View3D<double> xdata_, ydata_;
  MPIBuffer<double> send_, recv_;
  std::vector<int> xy_send_, xy_sdisp_, xy_recv_, xy_rdisp_;
  std::unique_ptr<Transpose> transpose_;
  Direction to_y_, to_x_;
  bool in_x_ = true;
};

}  // namespace

std::unique_ptr<Domain> make_transpose_domain(MPI_Comm comm, const GridSpec& g, const SweepOptions& o, Timers& t,
                                              TransposeStrategy strategy, CommOptions comm_options) {
  return std::make_unique<TransposeDomain>(comm, g, o, t, strategy, comm_options);
}

double signal_rate(const View3D<double>& f, int a0, int a1, int b0, int b1, const GridSpec& g, double gamma, int i_axis,
                   int i_shift) {
  double rate = 0;
  const double dx = g.dx;
  const bool spherical = g.geometry == GridGeometry::spherical;
  const double r0 = g.x0, dtheta = g.dtheta;
  Kokkos::parallel_reduce(
      "evh1::courant", Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>({a0, b0}, {a1, b1}),
      KOKKOS_LAMBDA(int a, int b, double& m) {
        const double c = kmath::sqrt(gamma * f(var_p, a, b) / f(var_rho, a, b));
        const double ux = kmath::fabs(f(var_ux, a, b)), uy = kmath::fabs(f(var_uy, a, b));
        double r;
        if (spherical) {  // VH-1 dtcon: theta widths r dtheta
          const double radius = r0 + ((i_axis == 1 ? a : b) - i_shift + 0.5) * dx;
          const double rx = (ux + c) / dx, ry = (uy + c) / (radius * dtheta);
          r = rx > ry ? rx : ry;
        } else {
          r = ((ux > uy ? ux : uy) + c) / dx;
        }
        m = r > m ? r : m;
      },
      Kokkos::Max<double>(rate));
  return rate;
}

}  // namespace proxylab::evh1
