// algorithm = halo: a px x py block decomposition; each rank keeps fields(var, ny + 2g, nx + 2g) with
// g = nghost ghost zones, exchanged with the neighbours before every sweep. Pencil ends on the
// physical boundary get the boundary condition in the sweep; the others read the exchanged ghosts.
#include <Kokkos_Core.hpp>

#include "domain.hpp"
#include "proxylab/comm/grid.hpp"
#include "proxylab/comm/halo.hpp"
#include "zone_block.hpp"

namespace proxylab::evh1 {
namespace {

class HaloDomain : public Domain {
 public:
  HaloDomain(MPI_Comm comm, const GridSpec& g, const SweepOptions& o, Timers& t, HaloStrategy strategy, int px, int py,
             CommOptions comm_options)
      : Domain(g, o, t),
        pgrid_(ProcessGrid::make_2d(comm, px, py, periodic(g.x_lo) && px > 1, periodic(g.y_lo) && py > 1,
                                    "decomp.px/py")) {
    xr_ = split_range(g.nx, pgrid_.px(), pgrid_.cx());
    yr_ = split_range(g.ny, pgrid_.py(), pgrid_.cy());
    fields_ = View3D<double>("evh1::fields", nvars, yr_.size() + 2 * nghost, xr_.size() + 2 * nghost);
    halo_ = HaloExchange::create(strategy, pgrid_, xr_.size(), yr_.size(), nghost, nvars, comm_options);
  }

  void initialize(const InitialState& init) override {
    auto f = Kokkos::create_mirror_view(fields_);
    double w[nvars];
    for (int jl = 0; jl < yr_.size(); ++jl)
      for (int il = 0; il < xr_.size(); ++il) {
        init(xr_.begin + il, yr_.begin + jl, w);
        for (int v = 0; v < nvars; ++v) f(v, nghost + jl, nghost + il) = w[v];
      }
    Kokkos::deep_copy(fields_, f);
  }

  void sweep_x(double dt) override { sweep_along(dt, true); }
  void sweep_y(double dt) override { sweep_along(dt, false); }

  double max_signal_rate() const override {
    return signal_rate(fields_, nghost, nghost + yr_.size(), nghost, nghost + xr_.size(), grid, opt.gas.gamma, 2,
                       nghost - xr_.begin);
  }

  ZoneBlock local() const override {
    ZoneBlock b{xr_.begin, xr_.size(), yr_.begin, yr_.size(), {}};
    b.f.resize(std::size_t(nvars) * b.zones());
    const auto f = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fields_);
    for (int v = 0; v < nvars; ++v)
      for (int jl = 0; jl < b.nj; ++jl)
        for (int il = 0; il < b.ni; ++il)
          b.f[(std::size_t(v) * b.nj + jl) * b.ni + il] = f(v, nghost + jl, nghost + il);
    return b;
  }

  CommCount exchange_count() const override {
    return {"halo", 0, double(halo_->bytes_per_exchange()), double(halo_->messages_per_exchange()), pgrid_.size()};
  }

  std::string describe() const override {
    return "halo (" + std::to_string(pgrid_.px()) + " x " + std::to_string(pgrid_.py()) + " ranks, " +
           std::to_string(nghost) + " ghost zones, strategy " + to_string(halo_->strategy()) + ")";
  }

 private:
  static bool periodic(Boundary b) { return b == Boundary::periodic; }
  // A pencil end: the physical condition on the global edge, unless a split periodic direction makes
  // the wrap-around a neighbour exchange.
  static Boundary end(Boundary physical, bool on_edge, bool split) {
    if (physical == Boundary::periodic) return split ? Boundary::neighbor : Boundary::periodic;
    return on_edge ? physical : Boundary::neighbor;
  }
  // One sweep of this rank's block after the ghost-zone exchange: along x the pencils run along the last index of
  // fields_, along y along the middle one.
  void sweep_along(double dt, bool along_x) {
    exchange();
    auto s = timers.scope(along_x ? "sweep_x" : "sweep_y");
    const BlockRange &along = along_x ? xr_ : yr_, &across = along_x ? yr_ : xr_;
    const int coord = along_x ? pgrid_.cx() : pgrid_.cy(), ranks = along_x ? pgrid_.px() : pgrid_.py();
    const Boundary lo = along_x ? grid.x_lo : grid.y_lo, hi = along_x ? grid.x_hi : grid.y_hi;
    Pencils p{fields_,
              along_x ? 2 : 1,
              across.size(),
              nghost,
              along.size(),
              nghost,
              along_x ? var_ux : var_uy,
              along_x ? var_uy : var_ux,
              end(lo, coord == 0, ranks > 1),
              end(hi, coord == ranks - 1, ranks > 1)};
    if (along_x)
      grid.set_x_sweep(p, xr_.begin);
    else
      grid.set_y_sweep(p, xr_.begin, yr_.begin);
    add(sweep(p, dt, grid.dx, opt.gas, opt.mapping, opt.width()));
  }
  void exchange() {
    auto c = timers.scope("communication", Category::communication);
    halo_->exchange(fields_);
    ++messages;
  }

  ProcessGrid pgrid_;
  BlockRange xr_, yr_;
  View3D<double> fields_;
  std::unique_ptr<HaloExchange> halo_;
};

}  // namespace

std::unique_ptr<Domain> make_halo_domain(MPI_Comm comm, const GridSpec& g, const SweepOptions& o, Timers& t,
                                         HaloStrategy strategy, int px, int py, CommOptions comm_options) {
  return std::make_unique<HaloDomain>(comm, g, o, t, strategy, px, py, comm_options);
}

}  // namespace proxylab::evh1
