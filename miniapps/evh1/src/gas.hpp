// Ideal-gas constants of a run, the floors VH-1 applies (smallp, smallr) and the Riemann solver's iteration
// control, shared by every kernel.
#pragma once

namespace proxylab::evh1 {

struct Gas {
  double gamma = 1.4;
  double smallp = 1e-30;  // pressure floor (VH-1: smallp)
  double smallr = 1e-30;  // density floor (VH-1: smallr)
  // Newton iterations of the Riemann solver (riemann.hpp): at most riemann_iterations per interface, fewer once
  // p* changes by less than riemann_tolerance (relative). VH-1: 12 and 1e-5; EVH1's vector template: 8 and 0.
  int riemann_iterations = 12;
  double riemann_tolerance = 1e-5;
};

// Primitive variables of the state arrays, in this order everywhere (fields(var, ...)).
enum Var : int { var_rho = 0, var_p = 1, var_ux = 2, var_uy = 3, nvars = 4 };

// Ghost zones per pencil end. VH-1 uses 6 and truncates the flattening at the outermost zone; with 7
// every interior zone's update depends only on data inside the ghost region (flatten reads p at n+-3
// of the zones that feed the Riemann problems three zones outside the remap stencil), which makes a
// decomposed run bit-identical to the serial one.
constexpr int nghost = 7;

}  // namespace proxylab::evh1
