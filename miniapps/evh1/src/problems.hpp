// The test problems and how each run verifies itself:
//   sod        Sod shock tube along x or y (Toro test 1): L1 density error against the exact solution
//   sedov      Sedov-Taylor blast in 2-D Cartesian (nu = 2): shock radius from the density maximum
//              against R(t) = xi0 (E t^2 / rho0)^(1/4), peak density jump, mirror symmetry
//   advection  a smooth density wave carried by a uniform flow through a periodic box: L1 error
//              against the exactly translated profile
// Every problem also checks that total mass and total energy are conserved to round-off.
#pragma once
#include <string>
#include <vector>

#include "domain.hpp"
#include "proxylab/app.hpp"

namespace proxylab::evh1 {

struct Problem {
  std::string name;
  GridSpec grid;
  double t_end = 0;
  InitialState init;
};

// Reads problem.*, grid.*, bc.*, time.t_end and the problem's section (InputError on bad values).
Problem make_problem(const Config& cfg, const Gas& gas);

struct Totals {
  double mass = 0, energy = 0, momentum_x = 0, momentum_y = 0;
};
Totals totals(const std::vector<double>& global, const GridSpec& g, const Gas& gas);

// Checks of the final state (global fields on every rank) at time t; adds results and checks to ctx.report.
void verify_problem(RunContext& ctx, const Problem& pb, const Gas& gas, const std::vector<double>& global, double t,
                    const Totals& initial);

}  // namespace proxylab::evh1
