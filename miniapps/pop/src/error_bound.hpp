// The error against x* that POP2's convergence criterion guarantees, the limit of the converged runs' error check.
// -A = S + tf W on the ocean: S = the spatial part, a sum over U-cells of HU-weighted squared differences (positive
// semi-definite), W = diag(TAREA), tf = 1 / (beta 2 dt^2 g) the implicit time term. For e = x - x*:
// (S + tf W) e = r - d, r = b - A x the true residual, d = b - A x* the round-off of b = A x*; so
// tf ||e||_W^2 <= e.(S + tf W) e <= ||e||_W ||W^-1/2 (r - d)|| and, with ||r|| <= crit ||TAREA||,
//   ||e||_W / ||x*||_W <= (crit ||TAREA|| + rho) / (tf sqrt(min TAREA) ||x*||_W),
// rho = 20 eps max|x*| ||4 A0|| bounding the round-off of b and of the residual the check computes (each at most
// 10 eps sum_j |A_ij x*_j| in a row, whose sum_j |A_ij| is at most 4 |A0_i|). A bound, not an estimate: every
// converged run is within it, whatever the grid, decomposition, solver or dt (pcsi on a 1-degree band comes within
// 2%: the checkerboard mode is in S's null space); the conditioning enters through tf and the smallest cell.
#pragma once
#include "btrop_operator.hpp"

namespace proxylab::pop {

struct ErrorBound {
  double per_crit = 0;            // ||TAREA|| / (tf sqrt(min TAREA) ||x*||_W)
  double rounding = 0;            // rho / (tf sqrt(min TAREA) ||x*||_W)
  double residual_round_off = 0;  // rho / ||TAREA||: a ||r|| / ||TAREA|| at this level may be round-off alone
  // The largest area-weighted relative L2 error against x* of an x whose true residual meets solver.crit = crit.
  double limit(double crit) const { return per_crit * crit + rounding; }
  // The largest crit whose limit stays below `error` (0 when the round-off alone reaches it).
  double crit_for(double error) const { return error > rounding ? (error - rounding) / per_crit : 0.0; }
};

// Collective over the domain's ranks; the same value on every rank, for any decomposition (exact sums).
ErrorBound error_bound(const Domain& d, const Operator& op, const View2D<double>& xstar);

}  // namespace proxylab::pop
