// Workshop exercise 07 (Begin): two global sums per iteration, as in POP's PCG before fusing.
// Each iteration of a CG-like solver needs two inner products, <r,r> and <r,z>. Here each is its own
// GlobalSum call: two local reductions and two MPI_Allreduce messages, each paying the full latency.
// EXERCISE: compute both words in ONE call of gsum.sum_2d<2> (one pass over the data, one message).
// Verification: r = 1 and z = 2 everywhere, so <r,r> = N and <r,z> = 2N exactly (N = global points).
#include <Kokkos_Core.hpp>
#include <cmath>

#include "proxylab/app.hpp"
#include "proxylab/comm/reduce.hpp"
#include "proxylab/layout.hpp"

namespace {
using namespace proxylab;

void declare(Schema& s) {
  s.integer("ex.nx", 64, 1, 100000, "points per rank in x");
  s.integer("ex.ny", 48, 1, 100000, "points per rank in y");
  s.integer("ex.iterations", 2000, 1, 100000000, "iterations, each with <r,r> and <r,z>");
  s.choice("ex.reduce", "allreduce", reduce_strategy_names(), "global sum strategy (common/comm/reduce.hpp)");
}

void run(RunContext& ctx) {
  const auto& cfg = ctx.config;
  const int nx = static_cast<int>(cfg.integer("ex.nx")), ny = static_cast<int>(cfg.integer("ex.ny"));
  const long long iterations = cfg.integer("ex.iterations");
  View2D<double> r("r", ny, nx), z("z", ny, nx);
  Kokkos::deep_copy(r, 1.0);
  Kokkos::deep_copy(z, 2.0);
  GlobalSum gsum(parse_reduce_strategy(cfg.choice("ex.reduce")), ctx.comm);
  double rr = 0, rz = 0;
  long long done = 0;  // iterations made (Ctrl-C ends the loop early, collectively)
  MPI_Barrier(ctx.comm);
  const double t0 = MPI_Wtime();
  {
    auto t = ctx.timers.scope("dots", Category::communication);
    for (; done < iterations; ++done) {
      if (done % 1000 == 999 && ctx.stop_requested()) break;
      // POP: PCG's two GLOBAL_SUM calls
      rr = gsum.sum_2d<1>(
          "ex07::rr", Mapping::flat, 0, ny, 0, nx,
          KOKKOS_LAMBDA(int j, int i, double* c) { c[0] = r(j, i) * r(j, i); })[0];
      rz = gsum.sum_2d<1>(
          "ex07::rz", Mapping::flat, 0, ny, 0, nx,
          KOKKOS_LAMBDA(int j, int i, double* c) { c[0] = r(j, i) * z(j, i); })[0];
    }
  }
  const double seconds = MPI_Wtime() - t0;
  const double n = double(nx) * ny * ctx.size;
  ctx.report.check_le("<r,r> - N", std::abs(rr - n), 0.0);
  ctx.report.check_le("<r,z> - 2N", std::abs(rz - 2 * n), 0.0);
  ctx.report.set_fom("time per iteration", 1e6 * seconds / double(done), "us");
}
}  // namespace

int main(int argc, char** argv) {
  return proxylab::run_app(argc, argv,
                           {"workshop-07-begin", "exercise 07: two global sums per iteration", declare, run});
}
