// Peak memory of one evh1 rank (see memory_estimate.hpp).
#include "memory_estimate.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>

#include "backend.hpp"
#include "proxylab/comm/halo.hpp"
#include "proxylab/comm/mpi_buffer.hpp"
#include "proxylab/comm/transpose.hpp"
#include "sweep.hpp"
#include "tiled_sweep.hpp"

namespace proxylab::evh1 {

MemoryEstimate estimate_memory(const RunOptions& o, CommOptions comm, const GridSpec& g, int rank, int ranks, int px,
                               int py) {
  const SweepOptions& opt = o.sweep;
  const bool transpose = px == 0 && py == 0;
  const double nx = g.nx, ny = g.ny, zone = nvars * sizeof(double);
  const double global = nx * ny * zone;  // the whole grid's state
  const int lanes = opt.mapping == SweepMapping::batched ? opt.lanes : 1;
  MemoryEstimate e;
  if (transpose) {  // TransposeDomain: rows (nx long) and columns (ny long) of this rank, as views and as buffers
    const double rows = (g.ny + ranks - 1) / ranks, cols = (g.nx + ranks - 1) / ranks;
    const double state = (rows * nx + cols * ny) * zone;
    const TransposeStrategy strategy = o.transpose;
    e.view("evh1::xdata, ydata", 1, state)
        .view("evh1::send, recv", 1, state)
        .host("evh1::send, recv (host copies for MPI)", 1,
              MPIBuffer<double>::host_copy_bytes(state / sizeof(double), comm))
        .host("host mirror of the state (verification copy, device back ends)", backend::fields_on_host ? 0 : 1,
              std::max(rows * nx, cols * ny) * zone)
        .host("alltoall padding / node_aware leader buffers",
              strategy == TransposeStrategy::alltoall || strategy == TransposeStrategy::node_aware ? 2 : 0,
              std::max(rows * nx, cols * ny) * zone);
  } else {  // HaloDomain: the largest block with its ghost zones, halo buffers of 8 directions
    const double bx = (g.nx + px - 1) / px, by = (g.ny + py - 1) / py;
    const int x_sides = px > 1 || g.x_lo == Boundary::periodic ? 2 : 0;
    const int y_sides = py > 1 || g.y_lo == Boundary::periodic ? 2 : 0;
    const double state = (bx + 2 * nghost) * (by + 2 * nghost) * zone;
    e.view("evh1::fields", 1, state)
        .host("host mirror of the state (verification copy, device back ends)", backend::fields_on_host ? 0 : 1, state)
        .view("halo buffers", 1,
              halo_buffer_bytes(o.halo == HaloStrategy::rma, bx, by, nghost, nvars, x_sides, y_sides));
  }
  // Per sweep: the team scratch of the blocks in flight and the per-block phase timers (host back ends).
  const int line = transpose ? std::max(g.nx, g.ny) : std::max((g.nx + px - 1) / px, (g.ny + py - 1) / py);
  const double pencils = transpose ? std::max((g.nx + ranks - 1) / ranks, (g.ny + ranks - 1) / ranks) : line;
  const int blocks = int(std::ceil(pencils / lanes));
  if (opt.mapping == SweepMapping::tiled) {  // level-0 scratch (on chip on a GPU) and the seams of the sweep
    const int tiles = int(pencils) * int(std::ceil(double(line) / (opt.tile - tile_margin)));
    e.view("evh1::seams", 1, double(tile_seam_bytes(int(pencils), line, opt.tile)))
        .view("evh1 tile scratch (host: per thread)", backend::host_team_scratch ? HostExec().concurrency() : 0,
              double(tile_scratch_bytes(opt.tile)))
        .view("evh1::phase_times", backend::phase_timers ? tiles * int(nphases) : 0, sizeof(double));
  } else {
    e.view("evh1 sweep scratch (per team in flight)", sweep_teams_in_flight(blocks),
           double(sweep_scratch_bytes(line, lanes)))
        .view("evh1::phase_times", backend::phase_timers ? blocks * int(nphases) : 0, sizeof(double));
  }
  // Verification (zone_block.hpp): a copy of this rank's zones (Domain::local) and, for Sedov's symmetry checks,
  // the densities of their mirror images with the all-to-all's buffers, and the radial bins (summed over ranks).
  const double local = transpose ? std::max(std::ceil(ny / ranks) * nx, std::ceil(nx / ranks) * ny)
                                 : std::ceil(nx / px) * std::ceil(ny / py);
  const bool sedov = o.problem == ProblemKind::sedov;
  e.host("this rank's zones (verification copy)", 1, local * zone)
      .host("mirror images of this rank's densities (send, receive, mapped)", sedov ? 3 : 0, local * sizeof(double))
      .host("Sedov radial bins (sum, count)", sedov ? 2 : 0, (std::hypot(nx, ny) + 2) * sizeof(double));
  // verify.against_reference: a one-rank reference of the whole grid on every rank (tests of small grids)
  if (o.verify.against_reference)
    e.view("reference domain (xdata, ydata, send, recv)", 4, global).host("reference zones (copy)", 1, global);
  // output.density_file: rank 0 gathers the density (Gatherv buffer and the ordered field)
  if (!o.density_file.empty() && rank == 0) e.host("density file (gathered on rank 0)", 2, nx * ny * sizeof(double));
  return e;
}

}  // namespace proxylab::evh1
