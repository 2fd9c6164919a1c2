// Peak memory of one pop rank (see memory_estimate.hpp).
#include "memory_estimate.hpp"

#include <mpi.h>

#include <algorithm>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "proxylab/comm/grid.hpp"
#include "proxylab/comm/halo.hpp"

namespace proxylab::pop {

MemoryEstimate estimate_memory(const RunOptions& o, int ranks) {
  // The largest block of the process grid the Domain will build (ProcessGrid::make_2d; with land
  // elimination decomp.px x decomp.py is the block grid).
  int px = o.px, py = o.py;
  if (!o.eliminate_land) {
    const std::array<int, 2> dims = ProcessGrid::dims_2d(ranks, px, py, "decomp.px/py");  // as Domain's
    px = dims[0];
    py = dims[1];
  }
  px = std::max(px, 1);
  py = std::max(py, 1);
  const double w = double(o.halo_width);
  const double nx = double((o.grid.nx + px - 1) / px), ny = double((o.grid.ny + py - 1) / py);
  const double field = (nx + 2 * w) * (ny + 2 * w) * sizeof(double);  // Domain::field

  // Solver work arrays beside the initial residual pop::r0 (solver.cpp and one file per solver).
  auto work_arrays = [](SolverKind kind, bool fused) -> double {
    return kind == SolverKind::pcg         ? (fused ? 3 : 4)  // R, S, Q (+ Z unfused)
           : kind == SolverKind::chrongear ? 5
           : kind == SolverKind::pipecg    ? 9
                                           : 5;  // pcsi: Lanczos
  };
  double work = work_arrays(o.solver.kind, o.solver.fused);
  // benchmark mode (solver.crit = 0): the reference variant (bench_check.cpp: unfused pcg or pcsi) runs once the
  // run's work arrays are freed, beside the reference's iterate pop::bench_xref
  const bool bench = o.solver.crit == 0;
  if (bench)
    work = std::max(work, work_arrays(o.solver.kind == SolverKind::pcsi ? SolverKind::pcsi : SolverKind::pcg, false));
  MemoryEstimate e;
  e.view("pop::X, Xstar, B", 3, field)
      .view("pop operator (A0, AN, AE, ANE, rA0, mask, TAREA)", 7, field)
      // build_operator's depth temporaries HT and HU are freed before the solver allocates
      .view("pop solver work arrays", std::max(1 + work, 2.0), field)
      // the energy norm's four fields (bench_check.cpp) come after the run's work arrays are freed, and are no more
      .view("pop::bench_xref", bench ? 1 : 0, field)
      // halo buffers: x is periodic, y closed (a neighbour in y once the grid has more than one block row)
      .view("halo buffers", 1, halo_buffer_bytes(o.halo == HaloStrategy::rma, nx, ny, w, 1, 2, py > 1 ? 2 : 0));
  return e;
}

void unpool_large_allocations() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

}  // namespace proxylab::pop
