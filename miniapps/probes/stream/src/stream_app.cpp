// STREAM probe driver: runs the five kernels `iterations` times on every rank at once (the seeds'
// "all processors in the SMP node" experiment), times each kernel between barriers, verifies the
// arrays against a scalar replay, and reports per-kernel best / min / max / average bandwidth, the
// aggregate over ranks and the per-rank spread. FOM: aggregate triad GB/s (best iteration).
#include "stream_app.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "proxylab/memory_budget.hpp"
#include "proxylab/progress.hpp"
#include "proxylab/run_results.hpp"
#include "stream_kernels.hpp"

namespace proxylab::stream {
namespace {

struct Kernel {
  const char* name;
  double bytes_per_element;
};
constexpr Kernel kernels[] = {
    {"copy", bytes_copy}, {"mul", bytes_mul}, {"add", bytes_add}, {"triad", bytes_triad}, {"dot", bytes_dot}};
constexpr int nkernels = 5;

// CPUs named by a sysfs cpu list ("0-1", "0,2,4-7").
int cpus_in_list(const std::string& list) {
  int n = 0;
  size_t at = 0;
  while (at < list.size()) {
    const size_t end = std::min(list.find(',', at), list.size());
    const std::string item = list.substr(at, end - at);
    const size_t dash = item.find('-');
    n += dash == std::string::npos ? 1 : std::atoi(item.c_str() + dash + 1) - std::atoi(item.c_str()) + 1;
    at = end + 1;
  }
  return n;
}

struct LastLevelCache {
  long long bytes = 0;  // 0 if unknown
  int cpus = 1;         // CPUs sharing it
};

// The last-level cache of the CPU this rank runs on as Linux describes it (sysfs: the highest cache level of
// cpu0, its size and the CPUs that share it), else sysconf's. sysfs first: inside a VM sysconf can report the
// host's whole L3 (seen: 256 MiB where the guest's 2 CPUs share one 32 MiB L3).
LastLevelCache last_level_cache() {
  LastLevelCache best;
  int best_level = 0;
  const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index";
  for (int index = 0; index < 8; ++index) {
    std::ifstream size_file(dir + std::to_string(index) + "/size"), level_file(dir + std::to_string(index) + "/level"),
        type_file(dir + std::to_string(index) + "/type"), cpus_file(dir + std::to_string(index) + "/shared_cpu_list");
    std::string size, type, cpus;
    int level = 0;
    if (!(size_file >> size) || !(level_file >> level) || !(type_file >> type) || type == "Instruction") continue;
    long long v = std::atoll(size.c_str());
    if (size.back() == 'K') v *= 1024;
    if (size.back() == 'M') v *= 1024 * 1024;
    if (v > 0 && level > best_level) {
      best_level = level;
      best.bytes = v;
      best.cpus = (cpus_file >> cpus) ? std::max(1, cpus_in_list(cpus)) : 1;
    }
  }
#ifdef _SC_LEVEL3_CACHE_SIZE
  if (best.bytes == 0) best.bytes = std::max(0L, sysconf(_SC_LEVEL3_CACHE_SIZE));
#endif
  return best;
}

void declare(Schema& s) {
  s.integer("stream.n", 0, 0, (1LL << 31) - 1,
            "elements per array per rank; 0 = automatic (each array 4x the last-level cache, at least 2^22)");
  s.integer("stream.iterations", 20, 2, 100000, "timed repetitions of the five kernels (the first is a warm-up)");
  s.choice("stream.mapping", Mapping::flat, "loop mapping of the kernels (common/mapping.hpp)");
  s.real("stream.scalar", 0.4, -1e6, 1e6, "the scalar of mul and triad");
}

struct Gold {
  double a = init_a, b = init_b, c = init_c, dot = 0;
};

// Scalar replay of the kernels (BabelStream's check).
void replay_iteration(Gold& g, double scalar) {
  g.c = g.a;
  g.b = scalar * g.c;
  g.c = g.a + g.b;
  g.a = g.b + scalar * g.c;
}
Gold replay(int iterations, double scalar, int n) {
  Gold g;
  for (int it = 0; it < iterations; ++it) replay_iteration(g, scalar);
  g.dot = g.a * g.b * n;
  return g;
}

// Every iteration multiplies the arrays by scalar * (2 + scalar) (replay above). A scalar that drives them,
// or the dot product, to zero, into denormals or to infinity within the run leaves nothing to verify (the
// relative errors become 0/0): such a deck is refused before the run.
void require_normal_replay(const Config& cfg, int iterations, double scalar, long long n) {
  Gold g;
  for (int it = 1; it <= iterations; ++it) {
    replay_iteration(g, scalar);
    const double dot = g.a * g.b * double(n);
    if (!std::isnormal(g.a) || !std::isnormal(g.b) || !std::isnormal(g.c) || !std::isnormal(dot)) {
      char growth[64];
      std::snprintf(growth, sizeof growth, "%.6g", scalar * (2 + scalar));
      cfg.reject("stream.scalar",
                 std::string("a scalar that keeps the arrays normal doubles for all stream.iterations (") +
                     std::to_string(iterations) + "): the arrays scale by scalar * (2 + scalar) = " + growth +
                     " per iteration and leave the normal range in iteration " + std::to_string(it) +
                     " (e.g. 0.4, BabelStream's scalar)");
    }
  }
}

void run(RunContext& ctx) {
  const auto& cfg = ctx.config;
  const Mapping mapping = cfg.choice<Mapping>("stream.mapping");
  const int iterations = static_cast<int>(cfg.integer("stream.iterations"));
  const double scalar = cfg.real("stream.scalar");
  long long n = cfg.integer("stream.n");
  const LastLevelCache cache = last_level_cache();
  const long long llc = cache.bytes;
  if (n == 0) n = std::max<long long>(1LL << 22, 4 * llc / 8);
  if (n < 1024) cfg.reject("stream.n", "at least 1024 elements (or 0 for automatic)");
  require_normal_replay(cfg, iterations, scalar, n);
  require_memory(ctx.comm, MemoryEstimate().view("stream arrays a, b, c", 3, double(n) * sizeof(double)), "stream.n");
  ctx.out() << "  arrays: 3 x " << n << " doubles per rank (" << 3.0 * n * 8 / 1048576.0 << " MiB); last-level cache "
            << llc / 1048576.0 << " MiB (shared by " << cache.cpus << " CPUs); mapping " << to_string(mapping) << "\n";

  Arrays x(static_cast<int>(n));
  init(x, mapping);
  Kokkos::fence();
  ctx.check_stop();  // Ctrl-C during set-up

  // times[k][it]: this rank's seconds for kernel k in iteration it
  std::vector<std::vector<double>> times(nkernels, std::vector<double>(iterations, 0.0));
  double last_dot = 0;
  Progress progress(ctx, iterations, "iteration");
  int done = 0;
  for (int it = 0; it < iterations; ++it) {
    for (int k = 0; k < nkernels; ++k) {
      MPI_Barrier(ctx.comm);
      auto region = ctx.timers.scope(kernels[k].name);
      const double t0 = MPI_Wtime();
      switch (k) {
        case 0:
          copy(x, mapping);
          break;
        case 1:
          mul(x, mapping, scalar);
          break;
        case 2:
          add(x, mapping);
          break;
        case 3:
          triad(x, mapping, scalar);
          break;
        case 4:
          last_dot = dot(x, mapping);
          break;
      }
      Kokkos::fence();
      times[k][it] = MPI_Wtime() - t0;
    }
    done = it + 1;
    ctx.require_finite(last_dot, "the dot product (array state) in iteration " + std::to_string(done));
    if (!progress.update(done)) break;
  }
  progress.finish();

  // ---- verification: scalar replay of `done` iterations --------------------------------------------
  const Gold gold = replay(done, scalar, static_cast<int>(n));
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
  // Aggregate: all ranks' bytes over the slowest rank's time, per iteration. Per rank: own bytes / own time.
  const int first = done > 1 ? 1 : 0;  // iteration 0 is the warm-up
  nlohmann::json table = nlohmann::json::array();
  char line[256];
  ctx.out() << "\n";
  std::snprintf(line, sizeof line, "%-8s %14s %14s %12s %12s %12s %16s %16s\n", "Function", "GB/s(all best)",
                "GB/s(all avg)", "Min [s]", "Max [s]", "Avg [s]", "GB/s/rank(min)", "GB/s/rank(max)");
  ctx.out() << line;
  double triad_best = 0;
  for (int k = 0; k < nkernels; ++k) {
    std::vector<double> tmax(done);
    MPI_Allreduce(times[k].data(), tmax.data(), done, MPI_DOUBLE, MPI_MAX, ctx.comm);
    double tmin = 1e300, tworst = 0, tsum = 0;
    for (int it = first; it < done; ++it) {
      tmin = std::min(tmin, tmax[it]);
      tworst = std::max(tworst, tmax[it]);
      tsum += tmax[it];
    }
    const double tavg = tsum / (done - first);
    const double bytes_rank = kernels[k].bytes_per_element * double(n);
    const double best = ctx.size * bytes_rank / tmin * 1e-9, avg = ctx.size * bytes_rank / tavg * 1e-9;
    double own_best = 1e300;
    for (int it = first; it < done; ++it) own_best = std::min(own_best, times[k][it]);
    const double own_bw = bytes_rank / own_best * 1e-9;
    double rank_min = 0, rank_max = 0;
    MPI_Allreduce(&own_bw, &rank_min, 1, MPI_DOUBLE, MPI_MIN, ctx.comm);
    MPI_Allreduce(&own_bw, &rank_max, 1, MPI_DOUBLE, MPI_MAX, ctx.comm);
    std::snprintf(line, sizeof line, "%-8s %14.3f %14.3f %12.4e %12.4e %12.4e %16.3f %16.3f\n", kernels[k].name, best,
                  avg, tmin, tworst, tavg, rank_min, rank_max);
    ctx.out() << line;
    table.push_back({{"kernel", kernels[k].name},
                     {"gbs_best", best},
                     {"gbs_avg", avg},
                     {"t_min_s", tmin},
                     {"t_max_s", tworst},
                     {"t_avg_s", tavg},
                     {"gbs_per_rank_min", rank_min},
                     {"gbs_per_rank_max", rank_max},
                     {"bytes_per_rank", bytes_rank}});
    if (k == 3) triad_best = best;
  }
  // The fixed cost of a kernel: an empty one (one index per thread) and a fence, best of 10 batches of 200.
  double launch_us = 1e6 * launch_seconds(10, 200), launch_max_us = 0;
  MPI_Allreduce(&launch_us, &launch_max_us, 1, MPI_DOUBLE, MPI_MAX, ctx.comm);
  ctx.out() << text_printf("%-8s %.3f us per empty kernel + fence (slowest rank, best of 10 x 200)\n\n", "launch",
                           launch_max_us);
  ctx.report.results()["kernels"] = table;
  ctx.report.results()["launch_us"] = launch_max_us;
  ctx.report.results()["elements_per_rank"] = n;
  ctx.report.results()["iterations_done"] = done;
  ctx.report.results()["last_level_cache_bytes"] = llc;
  ctx.report.results()["last_level_cache_cpus"] = cache.cpus;
  ctx.report.set_fom("triad bandwidth, all ranks, best iteration", triad_best, "GB/s");
}

}  // namespace

AppSpec app_spec() { return {"stream", "STREAM memory bandwidth probe (copy, mul, add, triad, dot)", declare, run}; }

}  // namespace proxylab::stream
