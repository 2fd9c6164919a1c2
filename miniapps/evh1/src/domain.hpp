// The distributed state of a 2-D run and the two parallel algorithms that sweep it:
//   transpose  EVH1: 1-D decomposition, every sweep on-processor; the data are transposed with an
//              all-to-all between the x and the y sweeps (common's Transpose strategies)
//   halo       2-D decomposition; before each sweep nghost ghost zones are exchanged with the
//              neighbours (common's HaloExchange strategies)
// Both give results bit-identical to a 1-rank run (every zone's update reads the same numbers).
#pragma once
#include <mpi.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "proxylab/comm/halo.hpp"
#include "proxylab/comm/transpose.hpp"
#include "proxylab/model_counts.hpp"
#include "proxylab/timers.hpp"
#include "sweep.hpp"

namespace proxylab::evh1 {

// cartesian: x-y slab, square zones (dy = dx). cylindrical: x = r, y = z (r-z), square zones.
// spherical: x = r with width dx, y = theta with width dtheta (r-theta; theta sweeps have zone widths r dtheta).
enum class GridGeometry { cartesian, cylindrical, spherical };
PROXYLAB_CHOICE_NAMES(GridGeometry, "geometry", "cartesian", "cylindrical", "spherical");

// The parallel algorithm (evh1.algorithm): TransposeDomain or HaloDomain.
enum class DomainAlgorithm { transpose, halo };
PROXYLAB_CHOICE_NAMES(DomainAlgorithm, "algorithm", "transpose", "halo");

struct GridSpec {
  int nx = 128, ny = 128;
  double x0 = 0, y0 = 0, dx = 1.0 / 128;
  double dtheta = 0;  // spherical only
  Boundary x_lo = Boundary::reflect, x_hi = Boundary::reflect, y_lo = Boundary::reflect, y_hi = Boundary::reflect;
  GridGeometry geometry = GridGeometry::cartesian;
  double dy() const { return geometry == GridGeometry::spherical ? dtheta : dx; }
  double xc(int i) const { return x0 + (i + 0.5) * dx; }  // zone centres
  double yc(int j) const { return y0 + (j + 0.5) * dy(); }
  // The geometry of the x and y sweeps (x: radial for cylindrical and spherical; y: theta for spherical).
  SweepGeometry x_sweep() const {
    return geometry == GridGeometry::cylindrical ? SweepGeometry::cylindrical_radius
           : geometry == GridGeometry::spherical ? SweepGeometry::spherical_radius
                                                 : SweepGeometry::slab;
  }
  SweepGeometry y_sweep() const {
    return geometry == GridGeometry::spherical ? SweepGeometry::spherical_theta : SweepGeometry::slab;
  }
  // Pencils' geometry fields for an x sweep whose zones start at global column i0, and for a y sweep of the
  // pencils (columns) starting at global column i0 whose zones start at global row j0.
  void set_x_sweep(Pencils& p, int i0) const {
    p.geometry = x_sweep();
    p.origin = x0;
    p.dcoord = dx;
    p.first_face = i0;
  }
  void set_y_sweep(Pencils& p, int i0, int j0) const {
    p.geometry = y_sweep();
    p.origin = y0;
    p.dcoord = dy();
    p.first_face = j0;
    p.radius_origin = x0;
    p.dr = dx;
    p.first_pencil = i0;
  }
};

struct ZoneBlock;  // zone_block.hpp

struct SweepOptions {
  Gas gas;
  SweepMapping mapping = SweepMapping::batched;
  int lanes = 8;   // batched: pencils per block (evh1.lanes)
  int tile = 128;  // tiled: threads per tile (evh1.tile)
  int width() const { return mapping == SweepMapping::tiled ? tile : lanes; }  // sweep()'s
};

// Primitive state of global zone (i, j): w[var_rho], w[var_p], w[var_ux], w[var_uy].
using InitialState = std::function<void(int i, int j, double* w)>;

class Domain {
 public:
  virtual ~Domain() = default;
  virtual void initialize(const InitialState& init) = 0;
  virtual void sweep_x(double dt) = 0;
  virtual void sweep_y(double dt) = 0;
  // Local max over zones of (|u| + c) / dx in either direction (the Courant rate of VH-1: dtcon).
  virtual double max_signal_rate() const = 0;
  // This rank's zones and their state (zone_block.hpp): a rectangle of the grid, a host copy.
  virtual ZoneBlock local() const = 0;
  virtual std::string describe() const = 0;
  // One exchange (halo update or transpose) of this rank, for the model (calls are set by the caller).
  virtual CommCount exchange_count() const = 0;

  PhaseTimes phase_times{};  // this rank's kernel phase seconds so far
  long long messages = 0;    // exchanges done (halo exchanges or transposes)

 protected:
  Domain(const GridSpec& g, const SweepOptions& o, Timers& t) : grid(g), opt(o), timers(t) {}
  void add(const PhaseTimes& t) {
    for (int k = 0; k < nphases; ++k) phase_times[k] += t[k];
  }
  GridSpec grid;
  SweepOptions opt;
  Timers& timers;
};

// algorithm = transpose. comm_options: what MPI is given for the buffers (comm/options.hpp).
std::unique_ptr<Domain> make_transpose_domain(MPI_Comm comm, const GridSpec& g, const SweepOptions& o, Timers& t,
                                              TransposeStrategy strategy, CommOptions comm_options);
// algorithm = halo; px x py ranks (validated by the caller).
std::unique_ptr<Domain> make_halo_domain(MPI_Comm comm, const GridSpec& g, const SweepOptions& o, Timers& t,
                                         HaloStrategy strategy, int px, int py, CommOptions comm_options);

// Local Courant rate over a block of fields(var, a, b) with indices [a0, a1) x [b0, b1): the max of
// (|u| + c) / width over both directions. Global column i of index (a, b) is a - i_shift (i_axis = 1) or
// b - i_shift (i_axis = 2); it gives the radius of the theta widths r dtheta of a spherical grid.
double signal_rate(const View3D<double>& f, int a0, int a1, int b0, int b1, const GridSpec& g, double gamma, int i_axis,
                   int i_shift);

}  // namespace proxylab::evh1
