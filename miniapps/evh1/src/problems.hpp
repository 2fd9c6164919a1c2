// The test problems and how each run verifies itself:
//   sod        shock tube with any left/right states along x, y or the diagonal (Sod, Toro's tests 1-5;
//              shock_tube.hpp): L1 density error against the exact Riemann solution
//   sedov      Sedov-Taylor blast, a line blast in x-y (nu = 2) or a point blast in r-z or r-theta (nu = 3;
//              sedov.hpp): shock radius from the density maximum against R(t) = xi0 (E t^2 / rho0)^(1/(nu + 2)),
//              peak density jump, mirror symmetry
//   advection  a smooth density wave carried by a uniform flow through a periodic box: L1 error
//              against the exactly translated profile
// Every problem also checks that total mass and total energy are conserved to round-off (shock tubes with open
// ends: the initial totals plus the known inflow through the ends).
#pragma once
#include <string>
#include <vector>

#include "domain.hpp"
#include "proxylab/app.hpp"
#include "run_options.hpp"
#include "zone_block.hpp"

namespace proxylab::evh1 {

struct Totals {
  double mass = 0, energy = 0, momentum_x = 0, momentum_y = 0;
};

// A problem's own boundaries per end (bc.* = auto picks them).
struct Boundaries {
  Boundary x_lo = Boundary::reflect, x_hi = Boundary::reflect, y_lo = Boundary::reflect, y_hi = Boundary::reflect;
};

struct Problem {
  ProblemKind kind = ProblemKind::sedov;
  GridSpec grid;
  double t_end = 0;
  InitialState init;
  // Net inflow of mass and energy per unit time through the boundaries, known in closed form for closed boxes
  // (zero) and shock tubes (the initial states' fluxes at open ends). Conservation is checked against it when
  // conservation_checked; otherwise unchecked_because says why.
  Totals inflow_rate;
  bool conservation_checked = false;
  std::string unchecked_because = "outflow boundaries";
};

// The problem of o.problem on o's grid with o's boundaries and end time. InputError on values that cannot work
// together (cfg only names the deck value in the message).
Problem make_problem(const RunOptions& o, const Config& cfg);

// Volume of zone (i, j): dx^2 per unit length (slab), 2 pi (r_R^2 - r_L^2) / 2 dz (cylindrical r-z) or
// 2 pi (r_R^3 - r_L^3) / 3 (cos theta_L - cos theta_R) (spherical r-theta), with the sweeps' formulas.
double zone_volume(const GridSpec& g, int i, int j);

// Collective: the totals of the grid, from each rank's zones (exact sums: the same bits on every decomposition).
Totals totals(const ZoneBlock& mine, const GridSpec& g, const Gas& gas, MPI_Comm comm);

// The round-off bound of the conservation check (verify.conservation = 0). Each sweep rounds each zone's mass and
// energy (both positive) at most conservation_sweep_roundings times by at most eps of the zone's content (the
// conversions between primitive and conserved variables, the Lagrangian update, the remap's flux sums), so the
// relative drift of a total grows by at most that many eps per sweep, two sweeps a step, however many zones share
// it; each total is an exact sum of terms rounded at most conservation_total_roundings times, at the start and at
// the end. Measured drifts are 0-10 eps after 80-2200 steps (README), far inside the bound; a flux that does not
// telescope moves the totals by its own size.
constexpr int conservation_sweep_roundings = 16;
constexpr int conservation_total_roundings = 4;
double conservation_limit(long long steps);

// Collective: checks of the final state (each rank's zones, reduced over ctx.comm: no rank holds the whole grid)
// at time t after `steps` steps against o's limits; adds results and checks to ctx.report.
void verify_problem(RunContext& ctx, const RunOptions& o, const Problem& pb, const ZoneBlock& mine, double t,
                    long long steps, const Totals& initial);

}  // namespace proxylab::evh1
