// Workshop exercise 12 (Solution): a 5-point smoothing sweep whose array layout matches its loop order.
// The loops of proxylab::for_each_2d run the LAST index fastest (as POP's and EVH1's kernels do), but the
// arrays here are LayoutLeft (Fortran order: FIRST index contiguous), so every inner step jumps n doubles.
// SOLVED: LayoutRight (C order: LAST index contiguous), so the inner loop walks memory with stride 1.
// Verification: a(j,i) = j + 2 i is linear, so the 5-point average reproduces it exactly in the interior.
#include <Kokkos_Core.hpp>
#include <cmath>

#include "proxylab/app.hpp"
#include "proxylab/mapping.hpp"

namespace {
using namespace proxylab;
using Field = Kokkos::View<double**, Kokkos::LayoutRight>;

void declare(Schema& s) {
  s.integer("ex.n", 2048, 8, 32768, "points per side (two n x n arrays)");
  s.integer("ex.sweeps", 20, 1, 100000, "smoothing sweeps (timed)");
}

void run(RunContext& ctx) {
  const int n = static_cast<int>(ctx.config.integer("ex.n")),
            sweeps = static_cast<int>(ctx.config.integer("ex.sweeps"));
  Field a("a", n, n), b("b", n, n);
  for_each_2d(
      "ex12::init", Mapping::flat, 0, n, 0, n, KOKKOS_LAMBDA(int j, int i) { a(j, i) = j + 2.0 * i; });
  Kokkos::fence();
  const double t0 = MPI_Wtime();
  {
    auto t = ctx.timers.scope("sweeps");
    for (int s = 0; s < sweeps; ++s)  // POP: the 9-point operator's neighbour reads, reduced to 5 points
      for_each_2d(
          "ex12::smooth", Mapping::flat, 1, n - 1, 1, n - 1,
          KOKKOS_LAMBDA(int j, int i) { b(j, i) = 0.25 * (a(j - 1, i) + a(j + 1, i) + a(j, i - 1) + a(j, i + 1)); });
    Kokkos::fence();
  }
  const double seconds = MPI_Wtime() - t0;
  const double err = reduce_2d<Kokkos::Max<double>>(
      "ex12::check", Mapping::flat, 1, n - 1, 1, n - 1, KOKKOS_LAMBDA(int j, int i, double& m) {
        const double d = b(j, i) > a(j, i) ? b(j, i) - a(j, i) : a(j, i) - b(j, i);
        if (d > m) m = d;
      });
  ctx.report.check_le("max |b - a| in the interior (exact for a linear field)", err, 0.0);
  ctx.report.set_fom("bandwidth", 2.0 * 8.0 * double(n - 2) * (n - 2) * sweeps / seconds / 1e9, "GB/s");
}
}  // namespace

int main(int argc, char** argv) {
  return proxylab::run_app(argc, argv,
                           {"workshop-12-solution", "exercise 12: layout matching loop order", declare, run});
}
