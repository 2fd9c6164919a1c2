// STREAM probe driver: runs the five kernels `iterations` times on every rank at once (the seeds'
// "all processors in the SMP node" experiment), times each kernel between barriers, verifies the
// arrays against a scalar replay, and reports per-kernel best / min / max / average bandwidth, the
// aggregate over ranks and the per-rank spread. FOM: aggregate triad GB/s (best iteration).
// The smallest complete proxy, and the template for a new one: the schema (declare), the deck into typed options
// (run_options), set-up, the timed loop with progress and Ctrl-C, verification, results in a struct that renders
// itself (stream_results).
#include "stream_app.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <vector>

#include "last_level_cache.hpp"
#include "proxylab/memory_budget.hpp"
#include "proxylab/perf_limits.hpp"
#include "proxylab/progress.hpp"
#include "proxylab/run_results.hpp"
#include "replay.hpp"
#include "run_options.hpp"
#include "stream_kernels.hpp"
#include "stream_results.hpp"

namespace proxylab::stream {
namespace {

// The kernels in the order they run (STREAM's four, then BabelStream's dot, which also hands back its product).
struct Kernel {
  const char* name;
  double bytes_per_element;
  void (*run)(Arrays& x, Mapping m, double scalar, double& dot_product);
};
constexpr Kernel kernels[] = {
    {"copy", bytes_copy, [](Arrays& x, Mapping m, double, double&) { copy(x, m); }},
    {"mul", bytes_mul, [](Arrays& x, Mapping m, double s, double&) { mul(x, m, s); }},
    {"add", bytes_add, [](Arrays& x, Mapping m, double, double&) { add(x, m); }},
    {"triad", bytes_triad, [](Arrays& x, Mapping m, double s, double&) { triad(x, m, s); }},
    {"dot", bytes_dot, [](Arrays& x, Mapping m, double, double& d) { d = dot(x, m); }},
};
constexpr int nkernels = int(std::size(kernels));

void declare(Schema& s) {
  s.integer("stream.n", 0, 0, (1LL << 31) - 1,
            "elements per array per rank; 0 = automatic (the ranks' arrays 4x the last-level cache, at least 2^22, "
            "at most half the memory)");
  s.integer("stream.iterations", 20, 2, 100000, "timed repetitions of the five kernels (the first is a warm-up)");
  s.choice("stream.mapping", Mapping::flat, "loop mapping of the kernels (common/mapping.hpp)");
  s.real("stream.scalar", 0.4, -1e6, 1e6, "the scalar of mul and triad");
}

void run(RunContext& ctx) {
  const LastLevelCache cache = last_level_cache();
  const MemoryAvailable memory = available_memory(ctx.comm);
  const RunOptions o = read_options(ctx.config, {cache.bytes, memory.ranks_on_node, memory.per_rank()});
  const long long n = o.n;
  require_memory(ctx.comm, MemoryEstimate().view("stream arrays a, b, c", 3, double(n) * sizeof(double)), "stream.n");
  publish_results(ctx, SetupSummary{n, cache, o.mapping, o.size_capped});

  Arrays x(static_cast<int>(n));
  init(x, o.mapping);
  Kokkos::fence();
  ctx.check_stop();  // Ctrl-C during set-up

  // times[k][it]: this rank's seconds for kernel k in iteration it
  std::vector<std::vector<double>> times(nkernels, std::vector<double>(o.iterations, 0.0));
  double last_dot = 0;
  Progress progress(ctx, o.iterations, "iteration");
  int done = 0;
  for (int it = 0; it < o.iterations; ++it) {
    for (int k = 0; k < nkernels; ++k) {
      MPI_Barrier(ctx.comm);
      auto region = ctx.timers.scope(kernels[k].name);
      const double t0 = MPI_Wtime();
      kernels[k].run(x, o.mapping, o.scalar, last_dot);
      Kokkos::fence();
      times[k][it] = MPI_Wtime() - t0;
    }
    done = it + 1;
    ctx.require_finite(last_dot, "the dot product (array state) in iteration " + std::to_string(done));
    if (!progress.update(done)) break;
  }
  progress.finish();

  // ---- verification: scalar replay of `done` iterations --------------------------------------------
  const Gold gold = replay(done, o.scalar, n);
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x.a);
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x.b);
  auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x.c);
  double err[3] = {0, 0, 0};
  for (long long i = 0; i < n; ++i) {
    err[0] += std::fabs(ha(i) - gold.a);
    err[1] += std::fabs(hb(i) - gold.b);
    err[2] += std::fabs(hc(i) - gold.c);
  }
  double rel[4] = {err[0] / n / std::fabs(gold.a), err[1] / n / std::fabs(gold.b), err[2] / n / std::fabs(gold.c),
                   std::fabs(last_dot - gold.dot) / std::fabs(gold.dot)};
  double rel_max[4];
  MPI_Allreduce(rel, rel_max, 4, MPI_DOUBLE, MPI_MAX, ctx.comm);
  const double eps = 1e-8;  // BabelStream's bound on the mean relative error
  ctx.report.check_le("array a vs scalar replay (mean rel. error)", rel_max[0], eps);
  ctx.report.check_le("array b vs scalar replay (mean rel. error)", rel_max[1], eps);
  ctx.report.check_le("array c vs scalar replay (mean rel. error)", rel_max[2], eps);
  ctx.report.check_le("dot vs scalar replay (rel. error)", rel_max[3], eps);

  // ---- statistics -----------------------------------------------------------------------------------
  RunResults r;
  r.iterations_done = done;
  const int first = done > 1 ? 1 : 0;  // iteration 0 is the warm-up
  for (int k = 0; k < nkernels; ++k) {
    KernelResult kr;
    kr.name = kernels[k].name;
    std::vector<double> tmax(done);
    MPI_Allreduce(times[k].data(), tmax.data(), done, MPI_DOUBLE, MPI_MAX, ctx.comm);
    double tmin = 1e300, tworst = 0, tsum = 0;
    for (int it = first; it < done; ++it) {
      tmin = std::min(tmin, tmax[it]);
      tworst = std::max(tworst, tmax[it]);
      tsum += tmax[it];
    }
    kr.t_min_s = tmin;
    kr.t_max_s = tworst;
    kr.t_avg_s = tsum / (done - first);
    kr.bytes_per_rank = kernels[k].bytes_per_element * double(n);
    kr.gbs_best = ctx.size * kr.bytes_per_rank / kr.t_min_s * 1e-9;
    kr.gbs_avg = ctx.size * kr.bytes_per_rank / kr.t_avg_s * 1e-9;
    double own_best = 1e300;
    for (int it = first; it < done; ++it) own_best = std::min(own_best, times[k][it]);
    const double own_bw = kr.bytes_per_rank / own_best * 1e-9;
    MPI_Allreduce(&own_bw, &kr.gbs_per_rank_min, 1, MPI_DOUBLE, MPI_MIN, ctx.comm);
    MPI_Allreduce(&own_bw, &kr.gbs_per_rank_max, 1, MPI_DOUBLE, MPI_MAX, ctx.comm);
    r.kernels.push_back(kr);
  }
  // The fixed cost of a kernel: an empty one (one index per thread) and a fence, best of 10 batches of 200.
  const double launch_us = 1e6 * launch_seconds(10, 200);
  MPI_Allreduce(&launch_us, &r.launch_us, 1, MPI_DOUBLE, MPI_MAX, ctx.comm);
  publish_results(ctx, r);
  if (limits_requested(ctx.config)) {  // each kernel, best iteration, against the triad of its bytes
    LimitsBuilder limits("iteration", ctx.comm);
    for (const KernelResult& k : r.kernels) limits.memory({k.name, {k.name}}, k.bytes_per_rank, k.t_min_s);
    publish_results(ctx, limits.section());
  }
  ctx.report.set_fom("triad bandwidth, all ranks, best iteration", r.kernel("triad").gbs_best, "GB/s");
}

}  // namespace

AppSpec app_spec() { return {"stream", "STREAM memory bandwidth probe (copy, mul, add, triad, dot)", declare, run}; }

}  // namespace proxylab::stream
