// The barotropic solvers and what they share: options, the workspace that times and counts every
// operator application, vector update, halo update and global sum, and the POP2 convergence test
// (every check_freq iterations: true residual r = b - A x, stop when sum r^2 < crit^2 sum TAREA^2).
#pragma once
#include <cfloat>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "backend.hpp"
#include "btrop_operator.hpp"
#include "proxylab/comm/reduce.hpp"
#include "proxylab/kmath.hpp"
#include "proxylab/named_choice.hpp"
#include "proxylab/timers.hpp"

namespace proxylab::pop {

enum class SolverKind { pcg, chrongear, pcsi, pipecg };
PROXYLAB_CHOICE_NAMES(SolverKind, "solver", "pcg", "chrongear", "pcsi", "pipecg");
inline const std::vector<std::string>& solver_names() { return choice_names<SolverKind>(); }

struct SolverOptions {
  SolverKind kind = SolverKind::pcg;
  double crit = 1e-13;  // 0: benchmark mode, exactly max_iters iterations
  int max_iters = 1000;
  int check_freq = 10;
  Mapping mapping = Mapping::flat;
  bool fused = true;        // fused vector updates (one pass) or one kernel per array statement
  bool replace = true;      // pipecg: residual replacement at each convergence check
  int lanczos_steps = 40;   // pcsi: Lanczos steps for the eigenvalue bounds
  double mu_safety = 1.05;  // pcsi: factor on the largest Ritz value
  double nu_safety = 1.0;   // pcsi: factor on the smallest Ritz value
  // The iteration's phases (operator, vector, halo, reduction, ...) each timed in a region of its own. A timer region
  // fences on entry and exit, a host wait per kernel on a device: there the iterations are timed as a whole (one
  // region, "iterations"); on a host back end a fence costs nothing and the phases are timed.
  bool phase_timers = backend::synchronous_kernels;
};

struct SolveStats {
  int iterations = 0;
  bool converged = false;
  double rr_initial = 0, rr_final = 0, tolerance2 = 0;              // sums of squares
  double tarea2 = 0;                                                // sum of TAREA^2 over ocean points
  std::vector<std::pair<int, double>> history;                      // (iteration, sum r^2) at every check
  long long halo_updates = 0, reductions = 0, reduction_words = 0;  // in the iterations (not setup)
  long long setup_halo_updates = 0, setup_reductions = 0;
  double bytes = 0;       // bytes moved by this rank's operator and vector kernels in the iterations
  double flops = 0;       // their floating-point operations (+ - * /, one add per word a sum reduces)
  double nu = 0, mu = 0;  // pcsi eigenvalue bounds
};

// <r, M^-1 r> of the recursively updated residual as the kernels read it in device memory (Workspace::scalars, slot
// `at`), and Workspace::recurrence_spent's test made there: `ref` is the slot of the first such value after the last
// true residual. A spent recurrence freezes the CG step (alpha = beta = 0: x and r stay) until the next check
// replaces r by the true residual, so that it never underflows into 0 / 0 between checks.
struct DeviceRz {
  Kokkos::View<double*> s;
  int at = 0, ref = 0;
  KOKKOS_INLINE_FUNCTION double operator()() const { return s(at); }
  KOKKOS_INLINE_FUNCTION bool spent() const {
    return at != ref && kmath::fabs(s(at)) < DBL_EPSILON * DBL_EPSILON * kmath::fabs(s(ref));
  }
};

// A step coefficient's value, evaluated once by the host (Workspace::coefficient).
struct HostCoefficient {
  double v;
  KOKKOS_INLINE_FUNCTION double operator()() const { return v; }
};

// Everything a solver touches, with its bookkeeping. All timed regions are nested under the
// caller's current region: operator, vector, halo (communication), reduction (communication) with phase_timers, else
// iterations (begin_iterations to end_iterations, checks included).
class Workspace {
 public:
  Workspace(const Domain& d, const Operator& op, GlobalSum& gsum, Timers& timers, const SolverOptions& o);

  const Domain& dom;
  const Operator& op;
  GlobalSum& gsum;
  Timers& timers;
  SolverOptions opt;
  SolveStats stats;
  std::function<bool(int)> on_check;  // called after every check; false stops the solve (Ctrl-C)

  View2D<double> field(const char* name) const { return dom.field(name); }
  int points() const { return (dom.je() - dom.jb()) * (dom.ie() - dom.ib()); }

  void halo(const View2D<double>& f);
  void apply(const View2D<double>& x, const View2D<double>& q);  // q = A x (x's ghosts must be current)
  // A timed vector kernel over the own points moving `arrays` arrays with `flops` operations per point.
  template <class F>
  void vector(const char* name, int arrays, int flops, const F& f) {
    auto t = phase("vector");
    for_each_2d(name, opt.mapping, dom.jb(), dom.je(), dom.ib(), dom.ie(), f);
    count(arrays, flops);
  }
  // A CG step's coefficient (alpha, beta, ...): c() computes it from the step scalars. On a device the kernel that uses
  // it evaluates it at every point (the scalars stay in device memory; a few loads and a division, nothing next to the
  // bytes); on a host back end the host evaluates it once before the launch (the same memory, at no cost on a
  // synchronous back end), so that the kernel's loop keeps its vectorisation. Evaluate it after the sums it reads.
  static constexpr bool host_scalars = backend::host_step_scalars;
  template <class C>
  static auto coefficient(const C& c) {
    if constexpr (host_scalars)
      return HostCoefficient{c()};
    else
      return c;
  }
  // A scalar the recurrence carries to the next iteration: scalars(slot) = c(), written by the host before the
  // launch on a host back end, else by one point of the kernel (keeps_scalar).
  template <class C>
  void keep(int slot, const C& c) {
    if constexpr (host_scalars) scalars(slot) = c();
  }
  // Whether the point (j, i) of a kernel over the own points from (jb, ib) writes the carried scalars on a device.
  KOKKOS_INLINE_FUNCTION static bool keeps_scalar(int j, int i, int jb, int ib) {
    return !host_scalars && j == jb && i == ib;
  }
  // The unfused CG updates, one array statement each (3 arrays moved): y = x + beta y, and y += alpha x, the
  // coefficient a function of the step scalars (coefficient).
  template <class C>
  void xpby(const char* name, const View2D<double>& y, const View2D<double>& x, const C& beta_of_scalars) {
    const auto beta = coefficient(beta_of_scalars);
    vector(
        name, 3, 2, KOKKOS_LAMBDA(int j, int i) { y(j, i) = x(j, i) + beta() * y(j, i); });
  }
  template <class C>
  void axpy(const char* name, const View2D<double>& y, const C& alpha_of_scalars, const View2D<double>& x) {
    const auto alpha = coefficient(alpha_of_scalars);
    vector(
        name, 3, 2, KOKKOS_LAMBDA(int j, int i) { y(j, i) += alpha() * x(j, i); });
  }
  // A timed global sum of N words over the own points moving `arrays` arrays, its result on the host (set-up, checks).
  // Land points must add exactly 0:
  // the CG inner products get that without reading the mask, since each has a preconditioned factor
  // (z = M^-1 r with rA0 = 0 on land, and the rows of A are 0 there), so they are bit-identical to masked sums.
  // `region`: "reduction", or e.g. "operator+reduction" when a kernel is fused into it.
  template <int N, class F>
  std::array<double, N> sum(const char* region, const char* name, int arrays, int flops, const F& f) {
    {
      auto t = phase(region, Category::communication);
      gsum.start_2d<N>(name, opt.mapping, dom.jb(), dom.je(), dom.ib(), dom.ie(), f);
      count(arrays, flops);
    }
    auto t = phase("reduction", Category::communication);
    return gsum.wait<N>();
  }
  // The iterations' global sums: the N words land in scalars(first .. first + N - 1), in device memory, where the
  // next kernels read them (GlobalSum::start_2d_on_device: no host wait at one rank, one per sum at more). wait
  // returns the words when they passed through the host, for the host's own use at no cost.
  template <int N, class F>
  std::optional<std::array<double, N>> sum_on_device(const char* region, const char* name, int arrays, int flops,
                                                     int first, const F& f) {
    start_on_device<N>(region, name, arrays, flops, first, f);
    return wait_on_device<N>();
  }
  template <int N, class F>
  void start_on_device(const char* region, const char* name, int arrays, int flops, int first, const F& f) {
    auto t = phase(region, Category::communication);
    gsum.start_2d_on_device<N>(name, opt.mapping, dom.jb(), dom.je(), dom.ib(), dom.ie(), f, scalars, first);
    count(arrays, flops);
  }
  template <int N>
  std::optional<std::array<double, N>> wait_on_device() {
    auto t = phase("reduction", Category::communication);
    return gsum.wait_on_device<N>();
  }
  // The step scalars in device memory: the iterations' global sums and what each recurrence carries from one
  // iteration to the next, read there by the kernels that need them. Slot one_slot holds 1 (a first iteration's
  // "previous" value), slots 1, 3, 5, 7 the values of <r, M^-1 r> (next_rz), each followed by the second word of a
  // two-word sum; each solver's own from first_free_slot.
  static constexpr int one_slot = 0, first_free_slot = 9, scalar_slots = 16;
  Kokkos::View<double*> scalars;
  // The slot the next <r, M^-1 r> lands in: one of 1, 3, 5, 7 that holds neither the current value, nor the one
  // before (a CG step reads the last two), nor the reference; it becomes the reference when it is the first after a
  // true residual.
  int next_rz();
  DeviceRz rz(int at) const { return {scalars, at, rz_ref_}; }
  // The counts of one kernel over the own points: arrays of doubles moved, floating-point operations per point.
  void count(int arrays, int flops) {
    bytes_ += 8.0 * arrays * points();
    flops_ += double(flops) * points();
  }

  // POP2's convergence check at iteration m: halo x, r = b - A x (unless r is already the true
  // residual: recompute = false), sum r^2. Returns true when done (converged, or stopped by
  // on_check). Records the history; RuntimeError (all ranks) when the residual is not finite.
  bool check(int m, const View2D<double>& b, const View2D<double>& x, const View2D<double>& r, bool recompute = true);
  bool is_check(int m) const { return m % opt.check_freq == 0 || m == opt.max_iters; }
  // Whether the recurrence has run dry: rz, the recursively updated residual's inner product (<r, M^-1 r>), has fallen
  // below eps^2 times its first value after the last true residual (the start or a check). The true residual
  // stagnates at round-off while the recursive one decreases on: that far below, it no longer describes b - A x, and
  // left alone it underflows to 0 and the next step divides 0 by 0 (a run far past convergence between two checks,
  // as benchmark mode with a large check_freq). The kernels freeze such a step on the device (DeviceRz); where rz
  // passed through the host (more than one rank) the CG solvers also check at once, which replaces it by the true
  // one. `at`: rz's slot (next_rz); rz: its value when the host has it, else the answer is false.
  bool recurrence_spent(int at, const std::optional<double>& rz);
  // A timed region of the iteration's phases (SolverOptions::phase_timers), or none.
  std::optional<Timers::Scope> phase(const std::string& name, Category cat = Category::compute) {
    if (!opt.phase_timers) return std::nullopt;
    return timers.scope(name, cat);
  }
  void begin_iterations();  // marks the end of set-up for the counters (and opens "iterations" without phase_timers)
  void end_iterations(int iterations);

 private:
  double bytes_ = 0, flops_ = 0;
  double rz_true_ = 0;                        // recurrence_spent's reference
  bool rz_from_true_ = true;                  // the next rz comes from a true residual
  int rz_at_ = 1, rz_prev_ = 1, rz_ref_ = 1;  // slots of the current <r, M^-1 r>, the one before, the reference
  long long halo_count_ = 0, red0_ = 0, words0_ = 0, halo0_ = 0;
  double bytes0_ = 0, flops0_ = 0;
  std::optional<Timers::Scope> iterations_;  // the iterations' region without phase_timers
};

// Solves A x = b (x holds the initial guess, ghosts included) with the chosen solver.
SolveStats solve(const Domain& d, const Operator& op, GlobalSum& gsum, Timers& timers, const SolverOptions& o,
                 const View2D<double>& b, const View2D<double>& x, std::function<bool(int)> on_check = {});

// The four solvers (one file each).
void solve_pcg(Workspace& w, const View2D<double>& b, const View2D<double>& x);
void solve_chrongear(Workspace& w, const View2D<double>& b, const View2D<double>& x);
void solve_pcsi(Workspace& w, const View2D<double>& b, const View2D<double>& x);
void solve_pipecg(Workspace& w, const View2D<double>& b, const View2D<double>& x);

}  // namespace proxylab::pop
