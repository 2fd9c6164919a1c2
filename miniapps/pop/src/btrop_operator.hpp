// POP's barotropic operator: the 9-point stencil of the implicit free-surface equation on T-points
// (docs/references.md, pop: the 9-point operator). Coefficients per T-point from the four U-corners
// (xne = HU DYU / (4 DXU), yne = HU DXU / (4 DYU) at the NE corner, the others at the neighbouring U-points):
//   ANE = xne + yne,  AE = xne + xse - yne - yse,  AN = yne + ynw - xne - xnw,
//   A0  = -(ane + ase + anw + asw) - TAREA / (beta 2 dt dt g)   on ocean points, 0 on land.
// The coefficients are computed on the ghosts too (from global indices), so they need no exchange.
// Land T-points have zero rows and columns; on ocean points the matrix is symmetric negative definite.
#pragma once
#include "domain.hpp"
#include "proxylab/mapping.hpp"

namespace proxylab::pop {

struct Stencil {
  View2D<double> a0, an, ae, ane;
  // (A x)(j, i) with x's ghosts current. // POP: btropOperator (NINEPT_4 in POP 1.4, seed 000: docs/references.md)
  KOKKOS_INLINE_FUNCTION double apply(const View2D<double>& x, int j, int i) const {
    return a0(j, i) * x(j, i) + an(j, i) * x(j + 1, i) + an(j - 1, i) * x(j - 1, i) + ae(j, i) * x(j, i + 1) +
           ae(j, i - 1) * x(j, i - 1) + ane(j, i) * x(j + 1, i + 1) + ane(j - 1, i) * x(j - 1, i + 1) +
           ane(j, i - 1) * x(j + 1, i - 1) + ane(j - 1, i - 1) * x(j - 1, i - 1);
  }
};

struct Operator {
  Stencil A;
  View2D<double> rA0;    // diagonal preconditioner: 1 / A0 on ocean points, 0 on land
  View2D<double> mask;   // 1 on ocean T-points, 0 on land (global sums are masked with it)
  View2D<double> tarea;  // T-cell area (m^2)
};

// Coefficients of the local block and its ghosts (no communication).
Operator build_operator(const Domain& d, Mapping m);

// Bytes one application moves per point: x, a0, an, ae, ane read, q written (8 bytes each).
constexpr double operator_bytes_per_point = 6 * 8;

// q = A x on the own points (x's ghosts must be current).
void apply_operator(const Operator& op, const Domain& d, Mapping m, const View2D<double>& x, const View2D<double>& q);
// r = b - A x on the own points (x's ghosts must be current).
void residual(const Operator& op, const Domain& d, Mapping m, const View2D<double>& b, const View2D<double>& x,
              const View2D<double>& r);

// x* on the own points and ghosts (0 on land) and b = A x* on the own points (0 on land).
void exact_problem(const Operator& op, const Domain& d, Mapping m, const View2D<double>& xstar,
                   const View2D<double>& b);

}  // namespace proxylab::pop
