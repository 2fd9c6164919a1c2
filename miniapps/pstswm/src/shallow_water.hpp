// The shallow water equations on the sphere in vorticity–divergence form with the spectral transform
// method (STSWM 2.0, NCAR TN-343), explicit leapfrog with a Robert–Asselin filter:
//   ∂ζ/∂t = -∇·((ζ+f) v),  ∂δ/∂t = k·∇×((ζ+f) v) - ∇²(Φ + v·v/2),  ∂Φ/∂t = -∇·(Φ v)
// One time step: inverse transforms (ζ, Φ and U = u cosθ, V = v cosθ from ψ, χ), grid-point products,
// forward transforms (the vector transforms of (ζ+f)U, (ζ+f)V, ΦU, ΦV and the scalar Φ + v·v/2), and
// the spectral update; with transform.fuse_grid_point the middle three run per latitude pair (the latitude loop,
// SphericalTransform::through_grid). Spectral state: [row][field ζ, δ, Φ][level][re, im] in the transform's state
// layout.
#pragma once
#include <string>

#include "spherical_transform.hpp"

namespace proxylab::pstswm {

struct ModelOptions {
  int test_case = 2;      // Williamson case 2 or 6
  double alpha = 0.0;     // case 2 rotation angle [rad]
  double dt = 600.0;      // [s]
  double asselin = 0.01;  // Robert–Asselin filter coefficient
};

// What the model counts of a phase outside the transforms (docs/model.md): flops and compulsory memory bytes
// (each array read or written once), summed over the phase's calls on this rank.
struct PhaseCounts {
  double flops = 0, bytes = 0;
};

struct Diagnostics {
  double l1 = 0, l2 = 0, linf = 0;  // case 2: normalized height errors (all levels)
  double mass = 0, energy = 0;      // global integrals (all levels)
};

class ShallowWater {
 public:
  ShallowWater(SphericalTransform& tr, const ModelOptions& opt, Timers& timers);

  void step();             // one time step (the first is forward Euler)
  Diagnostics diagnose();  // collective: inverse transform of the current state and integrals
  double time() const { return steps_ * opt_.dt; }
  long long steps() const { return steps_; }
  // Collective: spectral coefficient ζ(m, n) of level 0 on every rank (0 if m > n).
  std::complex<double> vorticity_coefficient(int m, int n);
  // Collective: the whole current state (ζ, δ, Φ) in canonical order (m ascending) on every rank.
  std::vector<double> gather_state();
  const PhaseCounts& grid_point_counts() const { return grid_point_; }  // grid_products
  const PhaseCounts& spectral_counts() const { return spectral_; }      // prepare_inverse + update

  // The phases of a step. Public only because they hold KOKKOS_LAMBDAs, which nvcc rejects in private or
  // protected member functions; step() is the interface.
  void initial_state();
  void prepare_inverse();                                    // state -> [ζ, Φ, U, V] spectral coefficients
  void grid_products();                                      // [ζ, Φ, U, V] grid -> [A, B, C, D, Q] grid
  void grid_products_of_pair(int pair, double* rows) const;  // the same on one pair's packed rows (the latitude loop)
  void update();                                             // tendencies from [A', B', C', D', Q'], leapfrog, filter

 private:
  SphericalTransform& tr_;
  ModelOptions opt_;
  Timers& timers_;
  int L_, N_;
  long long steps_ = 0;
  PhaseCounts grid_point_, spectral_;
  View1D<double> old_, cur_, new_;      // state (3 fields)
  View1D<double> inv_spec_, fwd_spec_;  // 4 and 5 fields
  View1D<double> inv_grid_;  // the inverse transforms' grid (the diagnostics'; the step's without the latitude loop)
  View1D<double> fwd_grid_;  // the forward transforms' grid (without the latitude loop)
  View1D<int> row_m_, row_n_, row_first_, row_last_;  // per state row: m, n, first/last row of its m
  View1D<double> row_eps_, row_eps_next_;             // per state row: ε(n, m), ε(n+1, m)
  View1D<double> row_inv_lap_;                        // per state row: -a²/(n(n+1)), 0 for n = 0 and n > N
  View1D<double> coriolis_;  // [jloc][lon]; with the latitude loop as its packed rows, [pair][lon][north, south]
  View1D<double> mu_;        // [jloc]
};

}  // namespace proxylab::pstswm
