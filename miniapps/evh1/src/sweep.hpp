// One 1-D PPM Lagrangian-remap sweep over a set of pencils (VH-1: sweepx/sweepy -> ppmlr):
// gather a pencil (with its ghost zones), boundary conditions, flatten, parabolae and characteristic
// states, Riemann problems, Lagrangian evolve, conservative remap, scatter back.
//
// Two mappings of the same arithmetic (bit-identical results):
//   pencil   one pencil at a time with 1-D temporaries, vector lanes along the pencil (EVH1); on a device one
//            thread per pencil
//   batched  a block of `lanes` pencils at once, temporaries zone-major with the pencils innermost,
//            vector lanes across pencils (the restructuring the seed asks for); on a device a team of `lanes`
//            threads per block, one pencil each (lanes.hpp), neighbouring threads on neighbouring doubles
//   tiled    a thread per zone: pencils cut into tiles, a team per tile, its temporaries in level-0 team scratch
//            (tiled_sweep.hpp); on a host one thread per tile
#pragma once
#include <array>
#include <string>
#include <vector>

#include "gas.hpp"
#include "geometry.hpp"
#include "proxylab/layout.hpp"
#include "proxylab/named_choice.hpp"

namespace proxylab::evh1 {

enum class Boundary { reflect, outflow, periodic, neighbor };  // neighbor: ghosts already in the array
enum class SweepMapping { pencil, batched, tiled };
PROXYLAB_CHOICE_NAMES(SweepMapping, "mapping", "pencil", "batched", "tiled");

// The pencils of a sweep inside fields(var, a, b): along the last index (axis 2) or the middle one (axis 1).
// Zone n of pencil q is fields(var, pencil_begin + q, zone_begin + n) (axis 2) or
// fields(var, zone_begin + n, pencil_begin + q) (axis 1); with a `neighbor` end the array holds the
// nghost ghost zones beyond it.
struct Pencils {
  View3D<double> fields;
  int axis = 2;
  int npencils = 0, pencil_begin = 0;
  int nzones = 0, zone_begin = 0;
  int normal = var_ux, transverse = var_uy;  // velocity along / across the sweep
  Boundary left = Boundary::reflect, right = Boundary::reflect;
  // Curvilinear sweeps (geometry.hpp): face n of every pencil sits at coordinate
  // origin + (first_face + n) * dcoord (global face index, so every decomposition computes the same values);
  // dcoord is dx for radial sweeps and dtheta for theta sweeps. In a theta sweep pencil q has the radius
  // radius_origin + (first_pencil + q + 0.5) * dr and zone width radius * dtheta (the dx argument of sweep()
  // is then unused).
  SweepGeometry geometry = SweepGeometry::slab;
  double origin = 0, dcoord = 0;
  int first_face = 0;
  double radius_origin = 0, dr = 0;
  int first_pencil = 0;
};

enum Phase : int { phase_parabola = 0, phase_riemann, phase_evolve, phase_remap, nphases };
constexpr std::array<const char*, nphases> phase_names{"parabola", "riemann", "evolve", "remap"};
using PhaseTimes = std::array<double, nphases>;  // seconds summed over threads

// Advances every pencil by dt on a uniform grid of width dx. width: the mapping's width, pencils per block for
// batched (batched_lane_choices()), threads per tile for tiled (tile_thread_choices()); unused for pencil.
PhaseTimes sweep(const Pencils& pencils, double dt, double dx, const Gas& gas, SweepMapping mapping, int width);

// The device shape of `batched` (one thread per lane, lanes.hpp) run on the host, the lanes of each block one after
// another: the unit test that holds the device's per-lane loops to the host's numbers without a device (host back
// ends only: on a device `batched` is this shape, tested against `pencil`).
void sweep_lane_by_lane(const Pencils& pencils, double dt, double dx, const Gas& gas, int lanes);

// Team scratch of one sweep block (pencils of nzones zones, `lanes` per block; 1 for pencil): the
// temporaries each team holds while it sweeps (memory estimates).
std::size_t sweep_scratch_bytes(int nzones, int lanes);
// The most team scratch the execution space gives one team (Kokkos on CUDA: 20 MiB; host: no limit but memory), and how
// many teams of a sweep over `blocks` blocks hold theirs at once (host: every thread's; CUDA: as many as can be
// resident).
std::size_t sweep_scratch_limit();
int sweep_teams_in_flight(int blocks);

// Lane counts compiled for `batched`.
const std::vector<int>& batched_lane_choices();

}  // namespace proxylab::evh1
