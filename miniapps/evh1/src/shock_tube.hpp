// Shock tubes (problem.name = sod): a Riemann problem with any left and right states (sod.rho_*, sod.u_*, sod.p_*:
// Sod, Toro's tests 1-5, a user's own) along x or y, or along the diagonal of the periodic unit square (oblique:
// the left state fills 0.25 <= x + y mod 1 < 0.75, so the problem (left, right) sits at x + y = 0.75 and the
// problem (right, left) at x + y = 0.25; velocities are along the normal (1, 1) / sqrt 2).
// Verified against the exact solution (exact_riemann.hpp): L1 density error, and mass and energy against their
// initial totals plus the inflow through the tube ends, which see the initial states until a wave arrives.
#pragma once
#include <vector>

#include "problems.hpp"

namespace proxylab::evh1 {

// Grid spacing, end time, initial state and the natural boundaries (per end: reflect where the gas at the end
// is at rest, outflow where it moves; periodic for oblique) of a shock tube.
void make_shock_tube(const RunOptions& o, const Config& cfg, Problem& pb, Boundaries& natural);

// After the boundaries are final: InputError when the exact solution cannot verify the run (a wave reaches a tube
// end by t_end, gas flows into a reflecting wall, the two oblique problems meet, a periodic tube along x or y);
// sets the boundary inflow rates of mass and energy.
void check_shock_tube(const RunOptions& o, const Config& cfg, Problem& pb);

// L1 density error against the exact solution at time t (results, printout and check in ctx.report).
void verify_shock_tube(RunContext& ctx, const RunOptions& o, const Problem& pb, const ZoneBlock& mine, double t);

}  // namespace proxylab::evh1
