// evh1's deck, read once into typed values (the schema is declared in evh1_app.cpp); the driver, the problems,
// their verification and the memory estimate take these, never a deck value of their own.
#pragma once
#include <string>
#include <vector>

#include "domain.hpp"
#include "exact_riemann.hpp"
#include "proxylab/comm/halo.hpp"
#include "proxylab/comm/transpose.hpp"
#include "proxylab/config.hpp"
#include "proxylab/named_choice.hpp"
#include "time_loop.hpp"

namespace proxylab::evh1 {

enum class ProblemKind { sod, sedov, advection };  // problem.name
PROXYLAB_CHOICE_NAMES(ProblemKind, "problem", "sod", "sedov", "advection");

// bc.x, bc.y: a boundary kind for both ends, or auto (the problem's own).
enum class BoundaryChoice { automatic, reflect, outflow, periodic };
PROXYLAB_CHOICE_NAMES(BoundaryChoice, "boundary", "auto", "reflect", "outflow", "periodic");

enum class TubeAxis { x, y, oblique };  // sod.direction
PROXYLAB_CHOICE_NAMES(TubeAxis, "shock tube direction", "x", "y", "oblique");

struct SodOptions {
  TubeAxis direction = TubeAxis::x;
  double x0 = 0.5;
  Primitive left, right;
  std::string label = "Sod";  // the tube's name in the output and its check (Toro's decks name their test)
};

struct SedovOptions {
  GridGeometry geometry = GridGeometry::cartesian;
  double rmin = 0.1, energy = 1, rho0 = 1, p0 = 1e-5, radius_zones = 3.5;
};

struct AdvectionOptions {
  double ux = 1, uy = 1, p = 1, amplitude = 0.2;
};

struct VerifyLimits {  // verify.*, in the order read_options initialises them
  double sod_l1 = 0, sedov_radius = 0, sedov_jump = 0, mirror = 0, diagonal = 0, sedov_theta_spread = 0;
  double advection_l1 = 0, conservation = 0;
  bool against_reference = false;
  double reference_tol = 0;
};

struct RunOptions {
  ProblemKind problem = ProblemKind::sedov;
  int nx = 128, ny = 128;
  double t_end = 0;  // 0 = the problem's default
  double courant = 0.5;
  long long max_steps = 0;
  StepGuard guard;
  SweepOptions sweep;  // the gas (hydro.*), the mapping and its lanes
  DomainAlgorithm algorithm = DomainAlgorithm::transpose;
  TransposeStrategy transpose = TransposeStrategy::alltoallv;
  HaloStrategy halo = HaloStrategy::packed;
  int px = 0, py = 0;  // algorithm=halo; 0 = automatic
  BoundaryChoice bc_x = BoundaryChoice::automatic, bc_y = BoundaryChoice::automatic;
  SodOptions sod;
  SedovOptions sedov;
  AdvectionOptions advection;
  VerifyLimits verify;
  std::string density_file;  // output.density_file ("" = none)
};

// InputError naming the key for values the schema's ranges cannot refuse alone (evh1.lanes, evh1.tile not one of
// the compiled choices).
RunOptions read_options(const Config& cfg);

// "4, 8 or 16": the allowed values of a key with a list of choices (evh1.lanes, evh1.tile), for its doc and errors.
std::string choice_list(const std::vector<int>& values);

}  // namespace proxylab::evh1
