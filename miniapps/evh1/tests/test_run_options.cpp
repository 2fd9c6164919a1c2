// evh1's deck read once into RunOptions: every value lands in its own field (the verification limits and the
// problem sections are aggregates filled in order, so a swapped pair would pass the schema unnoticed).
#include "evh1_app.hpp"
#include "proxylab/testing.hpp"
#include "run_options.hpp"

using namespace proxylab::evh1;

TEST_CASE("evh1: read_options puts each deck value in its field", "[evh1][options]") {
  proxylab::Schema schema;
  app_spec().declare(schema);
  proxylab::declare_common_keys(schema);
  const proxylab::Config cfg(schema, "", "test",
                             {"problem.name=advection",
                              "grid.nx=40",
                              "grid.ny=24",
                              "time.t_end=0.3",
                              "evh1.algorithm=halo",
                              "evh1.halo_strategy=rma",
                              "evh1.transpose_strategy=pairwise",
                              "bc.y=outflow",
                              "sod.direction=oblique",
                              "sod.rho_left=2",
                              "sod.u_right=0.5",
                              "sedov.geometry=spherical",
                              "sedov.rmin=0.2",
                              "sedov.p0=1e-6",
                              "advection.uy=-2",
                              "advection.amplitude=0.1",
                              "verify.sod_l1=0.011",
                              "verify.sedov_radius=0.052",
                              "verify.sedov_jump=3.1",
                              "verify.mirror=1e-9",
                              "verify.diagonal=0.053",
                              "verify.sedov_theta_spread=1.1",
                              "verify.advection_l1=0.0012",
                              "verify.conservation=1e-11",
                              "verify.against_reference=true",
                              "verify.reference_tol=1e-13",
                              "hydro.gamma=1.6667",
                              "evh1.mapping=pencil",
                              "evh1.lanes=16"});
  const RunOptions o = read_options(cfg);
  CHECK(o.problem == ProblemKind::advection);
  CHECK((o.nx == 40 && o.ny == 24 && o.t_end == 0.3));
  CHECK(o.algorithm == DomainAlgorithm::halo);
  CHECK(o.halo == proxylab::HaloStrategy::rma);
  CHECK(o.transpose == proxylab::TransposeStrategy::pairwise);
  CHECK((o.bc_x == BoundaryChoice::automatic && o.bc_y == BoundaryChoice::outflow));
  CHECK(o.sod.direction == TubeAxis::oblique);
  CHECK((o.sod.left.rho == 2 && o.sod.left.u == 0 && o.sod.right.u == 0.5 && o.sod.right.rho == 0.125));
  CHECK((o.sedov.geometry == GridGeometry::spherical && o.sedov.rmin == 0.2 && o.sedov.p0 == 1e-6));
  CHECK((o.sedov.energy == 1.0 && o.sedov.rho0 == 1.0 && o.sedov.radius_zones == 3.5));
  CHECK((o.advection.ux == 1.0 && o.advection.uy == -2 && o.advection.p == 1.0 && o.advection.amplitude == 0.1));
  const VerifyLimits& v = o.verify;
  CHECK((v.sod_l1 == 0.011 && v.sedov_radius == 0.052 && v.sedov_jump == 3.1 && v.mirror == 1e-9));
  CHECK((v.diagonal == 0.053 && v.sedov_theta_spread == 1.1 && v.advection_l1 == 0.0012));
  CHECK((v.conservation == 1e-11 && v.against_reference && v.reference_tol == 1e-13));
  CHECK((o.sweep.gas.gamma == 1.6667 && o.sweep.mapping == SweepMapping::pencil && o.sweep.lanes == 16));
}
