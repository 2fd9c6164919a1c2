// Decomposition-independent measures of a solution: the area-weighted relative L2 error and the
// relative max error against the known x* (exact sums: bit-identical for any rank count), and the
// ocean fraction of the grid.
#pragma once
#include "btrop_operator.hpp"

namespace proxylab::pop {

struct SolutionError {
  double rel_l2 = 0;   // sqrt(sum TAREA (x - x*)^2 / sum TAREA x*^2) over ocean points
  double rel_max = 0;  // max |x - x*| / max |x*| over ocean points
};

SolutionError solution_error(const Domain& d, const Operator& op, const View2D<double>& x, const View2D<double>& xstar);

double ocean_fraction(const Domain& d, const Operator& op);

}  // namespace proxylab::pop
