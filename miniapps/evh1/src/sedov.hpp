// Sedov-Taylor blasts (problem.name = sedov): energy sedov.energy put into a disc (cartesian x-y, a line blast,
// nu = 2) or a ball (cylindrical r-z: a point blast on the axis; spherical r-theta: a shell at the inner radius;
// nu = 3) of radius sedov.radius_zones zones at the centre, in gas of density sedov.rho0 and pressure sedov.p0.
// Verified against the similarity solution (sedov_taylor.hpp, for the run's gamma): the radius of the densest ring
// against R(t), the peak density jump against the strong-shock limit (gamma + 1) / (gamma - 1), mirror symmetry
// (exact: the deposit and the sweeps are mirror-symmetric bit for bit), and in r-theta the independence of theta.
#pragma once
#include "problems.hpp"

namespace proxylab::evh1 {

// Grid, end time and initial state of the blast.
void make_sedov(const RunOptions& o, const Config& cfg, Problem& pb);

// After the boundaries are final: InputError when the similarity solution cannot judge the run: the shock comes
// near a wall by t_end, has not yet grown beyond the injection radius, or is not strong (sedov.p0 too high).
void check_sedov(const RunOptions& o, const Config& cfg, const Problem& pb);

// The checks of the blast at time t (results, printout and checks in ctx.report); collective.
void verify_sedov(RunContext& ctx, const RunOptions& o, const Problem& pb, const ZoneBlock& mine, double t);

}  // namespace proxylab::evh1
