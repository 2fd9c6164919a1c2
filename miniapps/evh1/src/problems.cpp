#include "problems.hpp"

#include <cmath>
#include <limits>

#include "proxylab/comm/reduce.hpp"
#include "sedov.hpp"
#include "shock_tube.hpp"
#include "zone_block.hpp"

namespace proxylab::evh1 {
namespace {

constexpr double pi = 3.14159265358979323846;

Boundary pick(BoundaryChoice choice, Boundary natural) {
  switch (choice) {
    case BoundaryChoice::reflect:
      return Boundary::reflect;
    case BoundaryChoice::outflow:
      return Boundary::outflow;
    case BoundaryChoice::periodic:
      return Boundary::periodic;
    case BoundaryChoice::automatic:
      break;
  }
  return natural;
}

// Zone average of the advected density 1 + amp sin(2 pi x / Lx) sin(2 pi y / Ly) over the zone centred at
// (x, y): one period across each extent (Lx = nx dx, Ly = ny dx), so the box is periodic on any grid, square or
// not. The zone average of sin * sin is the point value times sinc(pi / nx) sinc(pi / ny).
double advection_zone_density(const GridSpec& g, double amplitude, double x, double y) {
  const double lx = g.nx * g.dx, ly = g.ny * g.dy();
  const double sx = std::sin(pi / g.nx) / (pi / g.nx), sy = std::sin(pi / g.ny) / (pi / g.ny);
  return 1.0 + amplitude * std::sin(2 * pi * x / lx) * std::sin(2 * pi * y / ly) * sx * sy;
}

// The L1 limit of the advection check: PPM is second order or better on this smooth profile, its error growing
// with the distance travelled, so L1 <= c amplitude sum_d (1 + |u_d| t / L_d) / n_d^2 over both directions
// (L_d the extent, n_d its zones: one wavelength each). c = 16: measured over 8-512 zones a side, aspect
// ratios 1/10 to 55, amplitudes 0.01-0.9, Courant 0.1-0.95 and t = 0.02-10, the largest c a correct run needs
// is 7 (README); a first-order scheme (error ~ 1 / n) stays above it.
double advection_limit(const GridSpec& g, const AdvectionOptions& a, double t) {
  constexpr double c = 16;
  const double lx = g.nx * g.dx, ly = g.ny * g.dy();
  return c * a.amplitude *
         ((1 + std::fabs(a.ux) * t / lx) / (double(g.nx) * g.nx) +
          (1 + std::fabs(a.uy) * t / ly) / (double(g.ny) * g.ny));
}

void verify_advection(RunContext& ctx, const RunOptions& o, const Problem& pb, const ZoneBlock& f, double t) {
  const GridSpec& g = pb.grid;
  const double ux = o.advection.ux, uy = o.advection.uy;
  double l1 = 0;
  for (int j = f.j0; j < f.j0 + f.nj; ++j)
    for (int i = f.i0; i < f.i0 + f.ni; ++i) {
      // the exact solution is the initial profile translated
      const double exact = advection_zone_density(g, o.advection.amplitude, g.xc(i) - ux * t, g.yc(j) - uy * t);
      l1 += std::fabs(f.at(var_rho, i, j) - exact);
    }
  MPI_Allreduce(MPI_IN_PLACE, &l1, 1, MPI_DOUBLE, MPI_SUM, ctx.comm);
  l1 /= double(g.nx) * g.ny;
  const bool derived = o.verify.advection_l1 == 0;
  const double limit = derived ? advection_limit(g, o.advection, t) : o.verify.advection_l1;
  ctx.report.results()["advection"] = {{"time", t}, {"l1_density", l1}, {"l1_limit", limit}};
  ctx.out() << "  advection: L1 density error vs translated profile " << l1 << ", limit " << limit
            << (derived ? " (second order at this resolution: 16 amplitude sum_d (1 + |u_d| t / L_d) / n_d^2)"
                        : " (verify.advection_l1)")
            << "\n";
  ctx.report.check_le("advection L1 density error vs exact translation", l1, limit);
}

}  // namespace

double zone_volume(const GridSpec& g, int i, int j) {
  constexpr double two_pi = 2 * pi;
  const double rl = g.x0 + i * g.dx, rr = rl + g.dx;
  if (g.geometry == GridGeometry::cylindrical) return two_pi * 0.5 * (rr * rr - rl * rl) * g.dx;
  if (g.geometry == GridGeometry::spherical) {
    const double tl = g.y0 + j * g.dtheta, tr = tl + g.dtheta;
    return two_pi * geometry_volume(SweepGeometry::spherical_radius, rl, rr) *
           geometry_volume(SweepGeometry::spherical_theta, tl, tr);
  }
  return g.dx * g.dx;
}

Problem make_problem(const RunOptions& o, const Config& cfg) {
  Problem pb;
  pb.kind = o.problem;
  GridSpec& g = pb.grid;
  g.nx = o.nx;
  g.ny = o.ny;
  g.dx = 1.0 / g.nx;   // the x extent is 1, square zones
  Boundaries natural;  // reflecting box unless the problem says otherwise
  if (pb.kind == ProblemKind::sod) {
    make_shock_tube(o, cfg, pb, natural);
  } else if (pb.kind == ProblemKind::sedov) {
    make_sedov(o, cfg, pb);
  } else {  // advection
    natural = {Boundary::periodic, Boundary::periodic, Boundary::periodic, Boundary::periodic};
    pb.t_end = 1.0;
    const double ux = o.advection.ux, uy = o.advection.uy, p = o.advection.p, amp = o.advection.amplitude;
    pb.init = [g, ux, uy, p, amp](int i, int j, double* w) {
      w[var_rho] = advection_zone_density(g, amp, g.xc(i), g.yc(j));
      w[var_p] = p;
      w[var_ux] = ux;
      w[var_uy] = uy;
    };
  }
  g.x_lo = pick(o.bc_x, natural.x_lo);
  g.x_hi = pick(o.bc_x, natural.x_hi);
  g.y_lo = pick(o.bc_y, natural.y_lo);
  g.y_hi = pick(o.bc_y, natural.y_hi);
  if (g.geometry != GridGeometry::cartesian && g.x_lo == Boundary::periodic)
    cfg.reject("bc.x", std::string("reflect or outflow for a radial x (sedov.geometry=") + to_string(g.geometry) + ")");
  if (g.geometry == GridGeometry::spherical && g.y_lo != Boundary::reflect)
    cfg.reject("bc.y", "reflect (or auto) for sedov.geometry=spherical: theta = 0 and pi are the axis");
  if (pb.kind == ProblemKind::advection && g.x_lo != Boundary::periodic)
    cfg.reject("bc.x",
               "periodic (or auto) for problem.name=advection: the check compares with the wave carried "
               "through a periodic box");
  if (pb.kind == ProblemKind::advection && g.y_lo != Boundary::periodic)
    cfg.reject("bc.y",
               "periodic (or auto) for problem.name=advection: the check compares with the wave carried "
               "through a periodic box");
  if (o.t_end > 0) pb.t_end = o.t_end;
  const bool closed = g.x_lo != Boundary::outflow && g.x_hi != Boundary::outflow && g.y_lo != Boundary::outflow &&
                      g.y_hi != Boundary::outflow;
  pb.conservation_checked = closed;  // a reflecting or periodic box: nothing enters or leaves
  if (pb.kind == ProblemKind::sod) check_shock_tube(o, cfg, pb);
  if (pb.kind == ProblemKind::sedov) check_sedov(o, cfg, pb);
  return pb;
}

// Summed exactly (ExactSum) over this rank's zones and then over the ranks, so that the drift the conservation
// check sees is the scheme's round-off alone, not that of a sum of nx * ny terms (up to nx * ny * eps relative,
// naively), and the same bits on every decomposition.
Totals totals(const ZoneBlock& f, const GridSpec& g, const Gas& gas, MPI_Comm comm) {
  ExactSum s[4];  // mass, energy, momentum x, momentum y
  for (int j = f.j0; j < f.j0 + f.nj; ++j) {
    for (int i = f.i0; i < f.i0 + f.ni; ++i) {
      const double area = zone_volume(g, i, j);
      const double r = f.at(var_rho, i, j), p = f.at(var_p, i, j), u = f.at(var_ux, i, j), v = f.at(var_uy, i, j);
      s[0].add(r * area);
      s[1].add((p / (gas.gamma - 1.0) + 0.5 * r * (u * u + v * v)) * area);
      s[2].add(r * u * area);
      s[3].add(r * v * area);
    }
    for (ExactSum& sum : s) sum.normalize();  // room for the next row
  }
  double t[4];
  GlobalSum(ReduceStrategy::reproducible, comm).sum_exact(s, t, 4);
  return {t[0], t[1], t[2], t[3]};
}

double conservation_limit(long long steps) {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  return eps * (2 * conservation_total_roundings + conservation_sweep_roundings * 2.0 * double(steps));
}

void verify_problem(RunContext& ctx, const RunOptions& o, const Problem& pb, const ZoneBlock& f, double t,
                    long long steps, const Totals& initial) {
  const Totals now = totals(f, pb.grid, o.sweep.gas, ctx.comm);
  const Totals& inflow = pb.inflow_rate;
  const double dmass = std::fabs(now.mass - (initial.mass + inflow.mass * t)) / initial.mass;
  const double denergy = std::fabs(now.energy - (initial.energy + inflow.energy * t)) / initial.energy;
  ctx.report.results()["conservation"] = {{"mass_initial", initial.mass},
                                          {"mass_final", now.mass},
                                          {"mass_rel_drift", dmass},
                                          {"energy_initial", initial.energy},
                                          {"energy_final", now.energy},
                                          {"energy_rel_drift", denergy},
                                          {"momentum_x_final", now.momentum_x},
                                          {"momentum_y_final", now.momentum_y}};
  ctx.out() << "  conservation: mass drift " << dmass << ", energy drift " << denergy << " (relative";
  if (inflow.mass != 0 || inflow.energy != 0)
    ctx.out() << ", after the inflow through the open ends: mass " << inflow.mass * t << ", energy "
              << inflow.energy * t;
  ctx.out() << ")\n";
  if (pb.conservation_checked) {  // the fluxes telescope: the sums are exact up to round-off
    const bool derived = o.verify.conservation == 0;
    const double tol = derived ? conservation_limit(steps) : o.verify.conservation;
    ctx.report.results()["conservation"]["limit"] = tol;
    ctx.out() << "  conservation limit " << tol
              << (derived ? " (the round-off of " + std::to_string(steps) + " steps: eps (" +
                                std::to_string(2 * conservation_total_roundings) + " + " +
                                std::to_string(2 * conservation_sweep_roundings) + " steps))"
                          : std::string(" (verify.conservation)"))
              << "\n";
    ctx.report.check_le("total mass conserved (rel. drift)", dmass, tol);
    ctx.report.check_le("total energy conserved (rel. drift)", denergy, tol);
  } else {
    ctx.out() << "  (" << pb.unchecked_because << ": the drift is reported, not checked)\n";
  }
  switch (pb.kind) {
    case ProblemKind::sod:
      verify_shock_tube(ctx, o, pb, f, t);
      break;
    case ProblemKind::sedov:
      verify_sedov(ctx, o, pb, f, t);
      break;
    case ProblemKind::advection:
      verify_advection(ctx, o, pb, f, t);
      break;
  }
}

}  // namespace proxylab::evh1
