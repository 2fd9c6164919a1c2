// Workshop exercise 12 (Begin): a 5-point smoothing sweep whose array layout fights its loop order.
// The loops of proxylab::for_each_2d run the LAST index fastest (as POP's and EVH1's kernels do), but the
// arrays here are LayoutLeft (Fortran order: FIRST index contiguous), so every inner step jumps n doubles.
// EXERCISE: make the layout match the loop order (change one type; nothing else needs to change).
// Verification: a(j,i) = j + 2 i is linear, so the 5-point average reproduces it exactly in the interior.
// Two more knobs of the lesson, the same in Begin and Solution: ex.pad allocates n + pad points per row and
// column (the T3E's padding against cache-set conflicts of power-of-two strides), and ex.first_touch says
// who writes the arrays first (the parallel mapping of the sweeps, or one host thread: NUMA page placement).
#include <Kokkos_Core.hpp>
#include <cmath>
#include <string>

#include "proxylab/app.hpp"
#include "proxylab/mapping.hpp"

namespace {
using namespace proxylab;
using Field = Kokkos::View<double**, Kokkos::LayoutLeft>;

void declare(Schema& s) {
  s.integer("ex.n", 2048, 8, 32768, "points per side (two n x n arrays)");
  s.integer("ex.sweeps", 20, 1, 100000, "smoothing sweeps (timed)");
  s.integer("ex.pad", 0, 0, 4096, "extra points allocated per row and column: the stride becomes n + pad");
  s.choice("ex.first_touch", "parallel", {"parallel", "serial"},
           "who writes the arrays first: the sweeps' parallel mapping, or one host thread (page placement)");
}

// Allocate without Kokkos' (parallel) zero fill, so that the first write below decides where pages live.
Field allocate(const std::string& name, int extent) {
  return Field(Kokkos::view_alloc(Kokkos::WithoutInitializing, name), extent, extent);
}

void run(RunContext& ctx) {
  const int n = static_cast<int>(ctx.config.integer("ex.n")),
            sweeps = static_cast<int>(ctx.config.integer("ex.sweeps"));
  const int extent = n + static_cast<int>(ctx.config.integer("ex.pad"));
  Field a = allocate("a", extent), b = allocate("b", extent);
  if (ctx.config.choice("ex.first_touch") == "serial") {
    if (!Kokkos::SpaceAccessibility<Kokkos::HostSpace, Field::memory_space>::accessible)
      ctx.config.reject("ex.first_touch", "parallel (the arrays live in device memory)");
    for (int j = 0; j < extent; ++j)  // one host thread touches every page, in the sweeps' loop order
      for (int i = 0; i < extent; ++i) a(j, i) = j + 2.0 * i, b(j, i) = 0.0;
  } else {
    for_each_2d(
        "ex12::init", Mapping::flat, 0, extent, 0, extent,
        KOKKOS_LAMBDA(int j, int i) { a(j, i) = j + 2.0 * i, b(j, i) = 0.0; });
  }
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
  return proxylab::run_app(argc, argv, {"workshop-12-begin", "exercise 12: layout against loop order", declare, run});
}
