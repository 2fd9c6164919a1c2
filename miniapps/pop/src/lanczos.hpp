// Eigenvalue bounds of the preconditioned operator M^-1 A by a few Lanczos steps (P-CSI's set-up,
// Hu et al. SC15): Lanczos on (-M)^-1 (-A), which is symmetric positive definite in the (-M) inner
// product, from a decomposition-independent pseudo-random start vector; the extreme eigenvalues of
// the tridiagonal matrix (LAPACK dstev) bound the spectrum from inside. Two global sums per step.
#pragma once
#include "solver.hpp"

namespace proxylab::pop {

struct EigenBounds {
  double nu = 0, mu = 0;  // smallest and largest Ritz values
  int steps = 0;          // steps taken (fewer when an invariant subspace is found)
};

EigenBounds lanczos_bounds(Workspace& w, int steps);

// Eigenvalues of the symmetric tridiagonal matrix (diag, offdiag), ascending (LAPACK dstev).
std::vector<double> tridiagonal_eigenvalues(std::vector<double> diag, std::vector<double> offdiag);

}  // namespace proxylab::pop
