// algorithm = transpose (EVH1): rows [j0, j1) of every rank for the x sweeps, stored (var, j, i);
// columns [i0, i1) for the y sweeps, stored transposed (var, i, j) so that both sweeps run along the
// contiguous index. One all-to-all moves the state between the two layouts (x y | y x: two per two steps).
#include <Kokkos_Core.hpp>
#include <cmath>

#include "domain.hpp"
#include "proxylab/comm/grid.hpp"
#include "proxylab/comm/transpose.hpp"

namespace proxylab::evh1 {
namespace {

using HostExec = Kokkos::DefaultHostExecutionSpace;

class TransposeDomain : public Domain {
 public:
  TransposeDomain(MPI_Comm comm, const GridSpec& g, const SweepOptions& o, Timers& t, const std::string& strategy)
      : Domain(g, o, t), comm_(comm) {
    MPI_Comm_rank(comm, &rank_);
    MPI_Comm_size(comm, &size_);
    for (int r = 0; r < size_; ++r) {
      rows_.push_back(split_range(g.ny, size_, r));
      cols_.push_back(split_range(g.nx, size_, r));
    }
    const int nyl = rows_[rank_].size(), nxl = cols_[rank_].size();
    xdata_ = View3D<double>("evh1::xdata", nvars, nyl, g.nx);
    ydata_ = View3D<double>("evh1::ydata", nvars, nxl, g.ny);
    send_ = std::vector<double>(std::size_t(nvars) * nyl * g.nx);
    recv_ = std::vector<double>(std::size_t(nvars) * nxl * g.ny);
    // counts for x -> y: to rank s my rows times its columns; from rank r its rows times my columns
    for (int r = 0; r < size_; ++r) {
      xy_send_.push_back(nvars * nyl * cols_[r].size());
      xy_recv_.push_back(nvars * rows_[r].size() * nxl);
    }
    displacements(xy_send_, xy_sdisp_);
    displacements(xy_recv_, xy_rdisp_);
    transpose_ = Transpose::create(parse_transpose_strategy(strategy), comm);
  }

  void initialize(const InitialState& init) override {
    const BlockRange rows = rows_[rank_];
    double w[nvars];
    for (int jl = 0; jl < rows.size(); ++jl)
      for (int i = 0; i < grid.nx; ++i) {
        init(i, rows.begin + jl, w);
        for (int v = 0; v < nvars; ++v) xdata_(v, jl, i) = w[v];
      }
    in_x_ = true;
  }

  void sweep_x(double dt) override {
    if (!in_x_) to_x();
    auto s = timers.scope("sweep_x");
    Pencils p{xdata_, 2, rows_[rank_].size(), 0, grid.nx, 0, var_ux, var_uy, grid.x_lo, grid.x_hi};
    grid.set_x_sweep(p, 0);
    add(sweep(p, dt, grid.dx, opt.gas, opt.mapping, opt.lanes));
  }

  void sweep_y(double dt) override {
    if (in_x_) to_y();
    auto s = timers.scope("sweep_y");
    Pencils p{ydata_, 2, cols_[rank_].size(), 0, grid.ny, 0, var_uy, var_ux, grid.y_lo, grid.y_hi};
    grid.set_y_sweep(p, cols_[rank_].begin, 0);
    add(sweep(p, dt, grid.dx, opt.gas, opt.mapping, opt.lanes));
  }

  double max_signal_rate() const override {
    const auto& f = in_x_ ? xdata_ : ydata_;  // x layout (var, j, i); y layout (var, i - i0, j)
    return signal_rate(f, 0, int(f.extent(1)), 0, int(f.extent(2)), grid, opt.gas.gamma, in_x_ ? 2 : 1,
                       in_x_ ? 0 : -cols_[rank_].begin);
  }

  std::vector<double> gather() const override {
    const auto& f = in_x_ ? xdata_ : ydata_;
    const auto& parts = in_x_ ? rows_ : cols_;
    const int line = in_x_ ? grid.nx : grid.ny;  // zones along the stored (contiguous) direction
    std::vector<int> counts(size_), displs(size_);
    for (int r = 0; r < size_; ++r) counts[r] = nvars * parts[r].size() * line;
    displacements(counts, displs);
    std::vector<double> all(std::size_t(nvars) * grid.nx * grid.ny), global(all.size());
    MPI_Allgatherv(f.data(), counts[rank_], MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE, comm_);
    for (int r = 0; r < size_; ++r)
      for (int v = 0; v < nvars; ++v)
        for (int k = 0; k < parts[r].size(); ++k)
          for (int z = 0; z < line; ++z) {
            const double x = all[displs[r] + (std::size_t(v) * parts[r].size() + k) * line + z];
            const int i = in_x_ ? z : parts[r].begin + k, j = in_x_ ? parts[r].begin + k : z;
            global[(std::size_t(v) * grid.ny + j) * grid.nx + i] = x;
          }
    return global;
  }

  std::string describe() const override {
    return "transpose (" + std::to_string(size_) + " x 1 ranks, strategy " + to_string(transpose_->strategy()) + ")";
  }

 private:
  static void displacements(const std::vector<int>& counts, std::vector<int>& displs) {
    displs.assign(counts.size(), 0);
    for (std::size_t r = 1; r < counts.size(); ++r) displs[r] = displs[r - 1] + counts[r - 1];
  }

  // EVH1: the MPI_ALLTOALL after sweepx. Block for rank s ordered (var, i, j) as its ydata.
  void to_y() {
    auto c = timers.scope("communication", Category::communication);
    const int nyl = rows_[rank_].size(), nxl = cols_[rank_].size();
    auto x = xdata_;
    double* sbuf = send_.data();
    const auto& cols = cols_;
    const auto& sd = xy_sdisp_;
    Kokkos::parallel_for("evh1::pack_x", Kokkos::RangePolicy<HostExec>(0, size_ * nvars), [&](int k) {
      const int s = k / nvars, v = k % nvars, w = cols[s].size();
      for (int il = 0; il < w; ++il)
        for (int jl = 0; jl < nyl; ++jl) sbuf[sd[s] + (v * w + il) * nyl + jl] = x(v, jl, cols[s].begin + il);
    });
    transpose_->exchange(sbuf, xy_send_, xy_sdisp_, recv_.data(), xy_recv_, xy_rdisp_);
    auto y = ydata_;
    const double* rbuf = recv_.data();
    const auto& rows = rows_;
    const auto& rd = xy_rdisp_;
    Kokkos::parallel_for("evh1::unpack_y", Kokkos::RangePolicy<HostExec>(0, size_ * nvars), [&](int k) {
      const int r = k / nvars, v = k % nvars, h = rows[r].size();
      for (int il = 0; il < nxl; ++il)
        for (int jl = 0; jl < h; ++jl) y(v, il, rows[r].begin + jl) = rbuf[rd[r] + (v * nxl + il) * h + jl];
    });
    in_x_ = false;
    ++messages;
  }

  // The reverse all-to-all before the next x sweep (block for rank s ordered (var, j, i) as its xdata).
  void to_x() {
    auto c = timers.scope("communication", Category::communication);
    const int nyl = rows_[rank_].size(), nxl = cols_[rank_].size();
    auto y = ydata_;
    double* sbuf = recv_.data();  // y layout is the send side now: buffers swap roles
    const auto& rows = rows_;
    const auto& sd = xy_rdisp_;
    Kokkos::parallel_for("evh1::pack_y", Kokkos::RangePolicy<HostExec>(0, size_ * nvars), [&](int k) {
      const int s = k / nvars, v = k % nvars, h = rows[s].size();
      for (int jl = 0; jl < h; ++jl)
        for (int il = 0; il < nxl; ++il) sbuf[sd[s] + (v * h + jl) * nxl + il] = y(v, il, rows[s].begin + jl);
    });
    transpose_->exchange(sbuf, xy_recv_, xy_rdisp_, send_.data(), xy_send_, xy_sdisp_);
    auto x = xdata_;
    const double* rbuf = send_.data();
    const auto& cols = cols_;
    const auto& rd = xy_sdisp_;
    Kokkos::parallel_for("evh1::unpack_x", Kokkos::RangePolicy<HostExec>(0, size_ * nvars), [&](int k) {
      const int r = k / nvars, v = k % nvars, w = cols[r].size();
      for (int jl = 0; jl < nyl; ++jl)
        for (int il = 0; il < w; ++il) x(v, jl, cols[r].begin + il) = rbuf[rd[r] + (v * nyl + jl) * w + il];
    });
    in_x_ = true;
    ++messages;
  }

  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  std::vector<BlockRange> rows_, cols_;
  View3D<double> xdata_, ydata_;
  std::vector<double> send_, recv_;
  std::vector<int> xy_send_, xy_sdisp_, xy_recv_, xy_rdisp_;
  std::unique_ptr<Transpose> transpose_;
  bool in_x_ = true;
};

}  // namespace

std::unique_ptr<Domain> make_transpose_domain(MPI_Comm comm, const GridSpec& g, const SweepOptions& o, Timers& t,
                                              const std::string& strategy) {
  return std::make_unique<TransposeDomain>(comm, g, o, t, strategy);
}

double signal_rate(const View3D<double>& f, int a0, int a1, int b0, int b1, const GridSpec& g, double gamma, int i_axis,
                   int i_shift) {
  double rate = 0;
  const double dx = g.dx;
  const bool spherical = g.geometry == GridGeometry::spherical;
  const double r0 = g.x0, dtheta = g.dtheta;
  Kokkos::parallel_reduce(
      "evh1::courant", Kokkos::MDRangePolicy<HostExec, Kokkos::Rank<2>>({a0, b0}, {a1, b1}),
      [=](int a, int b, double& m) {
        const double c = std::sqrt(gamma * f(var_p, a, b) / f(var_rho, a, b));
        const double ux = std::fabs(f(var_ux, a, b)), uy = std::fabs(f(var_uy, a, b));
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
