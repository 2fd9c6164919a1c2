// The barotropic solvers and what they share: options, the workspace that times and counts every
// operator application, vector update, halo update and global sum, and the POP2 convergence test
// (every check_freq iterations: true residual r = b - A x, stop when sum r^2 < crit^2 sum TAREA^2).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "btrop_operator.hpp"
#include "proxylab/comm/reduce.hpp"
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

// Everything a solver touches, with its bookkeeping. All timed regions are nested under the
// caller's current region: operator, vector, halo (communication), reduction (communication).
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
    auto t = timers.scope("vector");
    for_each_2d(name, opt.mapping, dom.jb(), dom.je(), dom.ib(), dom.ie(), f);
    count(arrays, flops);
  }
  // The unfused CG updates, one array statement each (3 arrays moved): y = x + beta y, and y += alpha x.
  void xpby(const char* name, const View2D<double>& y, const View2D<double>& x, double beta) {
    vector(
        name, 3, 2, KOKKOS_LAMBDA(int j, int i) { y(j, i) = x(j, i) + beta * y(j, i); });
  }
  void axpy(const char* name, const View2D<double>& y, double alpha, const View2D<double>& x) {
    vector(
        name, 3, 2, KOKKOS_LAMBDA(int j, int i) { y(j, i) += alpha * x(j, i); });
  }
  // A timed global sum of N words over the own points moving `arrays` arrays. Land points must add exactly 0:
  // the CG inner products get that without reading the mask, since each has a preconditioned factor
  // (z = M^-1 r with rA0 = 0 on land, and the rows of A are 0 there), so they are bit-identical to masked sums.
  // `region`: "reduction", or e.g. "operator+reduction" when a kernel is fused into it.
  template <int N, class F>
  std::array<double, N> sum(const char* region, const char* name, int arrays, int flops, const F& f) {
    start<N>(region, name, arrays, flops, f);
    return wait<N>();
  }
  template <int N, class F>
  void start(const char* region, const char* name, int arrays, int flops, const F& f) {
    auto t = timers.scope(region, Category::communication);
    gsum.start_2d<N>(name, opt.mapping, dom.jb(), dom.je(), dom.ib(), dom.ie(), f);
    count(arrays, flops);
  }
  template <int N>
  std::array<double, N> wait() {
    auto t = timers.scope("reduction", Category::communication);
    return gsum.wait<N>();
  }
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
  // as benchmark mode with a large check_freq). The CG solvers then check at once, which replaces it by the true one.
  bool recurrence_spent(double rz);
  void begin_iterations();  // marks the end of set-up for the counters
  void end_iterations(int iterations);

 private:
  double bytes_ = 0, flops_ = 0;
  double rz_true_ = 0;        // recurrence_spent's reference
  bool rz_from_true_ = true;  // the next rz comes from a true residual
  long long halo_count_ = 0, red0_ = 0, words0_ = 0, halo0_ = 0;
  double bytes0_ = 0, flops0_ = 0;
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
