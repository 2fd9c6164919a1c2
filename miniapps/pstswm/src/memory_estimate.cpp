// Peak memory of one pstswm rank (see memory_estimate.hpp).
#include "memory_estimate.hpp"

#include <algorithm>

#include "proxylab/comm/mpi_buffer.hpp"
#include "proxylab/report.hpp"
#include "spherical_transform.hpp"

namespace proxylab::pstswm {
namespace {
// The wavenumbers and latitude pairs this rank's Legendre transform covers (parallel_legendre.hpp: the transpose's
// own wavenumbers at every pair, else every wavenumber at the rank's pairs).
struct LegendreExtent {
  SpectralLayout layout;
  double pairs = 0;
};
LegendreExtent legendre_extent(const TransformOptions& opt, const Decomposition& d) {
  if (opt.algorithm == Algorithm::transpose && d.ranks > 1)
    return {SpectralLayout(opt.ntrunc, d.my_ms()), double(d.npairs)};
  return {SpectralLayout(opt.ntrunc, d.concat_ms), double(d.my_pairs().size())};
}

LegendreMemory legendre_memory(const LegendreExtent& lt, LTVariant variant) {
  const double table = sizeof(double) * double(lt.layout.rows) * lt.pairs;
  if (variant != LTVariant::recurrence) return {table, table};
  return {table, LegendreRecurrence::host_bytes(lt.layout, size_t(lt.pairs)) +
                     sizeof(double) * double(LegendreRecurrence::tile_doubles(lt.layout, size_t(lt.pairs)))};
}

Decomposition decomposition(const TransformOptions& opt, MPI_Comm comm) {
  int size = 1, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  return Decomposition(opt.nlat, opt.ntrunc, size, rank);  // integer bookkeeping only
}
}  // namespace

LegendreMemory legendre_memory(const TransformOptions& opt, MPI_Comm comm) {
  return legendre_memory(legendre_extent(opt, decomposition(opt, comm)), opt.lt);
}

MemoryEstimate estimate_memory(const TransformOptions& opt, MPI_Comm comm) {
  const Decomposition d = decomposition(opt, comm);
  const int size = d.ranks;
  const int N = opt.ntrunc, L = opt.levels, F = max_transform_fields;
  const double kloc = d.my_pairs().size(), nh = opt.nlon / 2 + 1, maxcol = 2.0 * F * L;
  // The parallel Legendre transform (parallel_legendre.hpp): one rank runs the serial algorithm, no exchange buffers.
  const bool transpose = opt.algorithm == Algorithm::transpose && size > 1;
  const bool distributed = opt.algorithm == Algorithm::distributed && size > 1;
  const bool split_state = distributed && opt.combine != Combine::allreduce;
  const bool ring = split_state && opt.combine == Combine::ring;
  const SpectralLayout full(N, d.concat_ms), own(N, d.my_ms());
  const LegendreExtent lt = legendre_extent(opt, d);
  const bool recurrence = opt.lt == LTVariant::recurrence;
  const SpectralLayout& state = (transpose || opt.combine != Combine::allreduce) ? own : full;
  const double lats = 2 * kloc, spec_row = 2.0 * L, grid_row = double(L) * opt.nlon;
  const double own_lt = double(own.ms.size()) * d.npairs * maxcol;
  const double transpose_sides = transpose ? 2 * (N + 1) * kloc * maxcol + 2 * own_lt : 0;
  double largest_block = 0;  // rows of the largest rank's wavenumbers (the ring's receive buffer)
  for (const std::vector<int>& ms : d.ms) largest_block = std::max(largest_block, double(SpectralLayout(N, ms).rows));
  // What MPI gets host copies of on a device back end without comm.gpu_aware (comm/mpi_buffer.hpp): the
  // transposes' messages; the spectral state and the full-size buffer the distributed algorithms combine.
  const double staged = transpose_sides + (distributed ? state.rows * maxcol : 0) +
                        (split_state ? full.rows * maxcol : 0) + (ring ? largest_block * maxcol : 0);

  MemoryEstimate e;
  // SphericalTransform
  // fused FFT and fold: one pair's Fourier rows of every field per thread; in the latitude loop its packed spectra
  // and grid rows
  const double pair_doubles =
      opt.fuse_grid_point ? 2.0 * packed_field_doubles(opt) : 2.0 * L * fused_row_distance(opt.nlon);
  e.view("pstswm::fourier (two-pass FFT and fold)", opt.fuse_fold ? 0 : double(F) * 2 * kloc * L * 2 * nh,
         sizeof(double))
      .view("pstswm fused FFT and fold rows (team scratch per thread)", opt.fuse_fold ? host_threads() : 0,
            double(F) * pair_doubles * sizeof(double))
      .view("pstswm::halves_local", 2 * (N + 1) * kloc * maxcol, sizeof(double))
      .view("pstswm::halves_inverse (latitude loop)", opt.fuse_grid_point ? 2 * (N + 1) * kloc * maxcol : 0,
            sizeof(double))
      .view("pstswm::halves_wavenumber", transpose ? 2 * own_lt : 0, sizeof(double))
      .view("pstswm::latitude_side, wavenumber_side (transpose messages)", transpose_sides, sizeof(double))
      .view("pstswm::spectral_full", split_state ? full.rows * maxcol : 0, sizeof(double))
      .view("pstswm::ring_receive", ring ? largest_block * maxcol : 0, sizeof(double))
      .view("pstswm::concat_ms, fold_scale", 1, (N + 1) * sizeof(int) + 2 * kloc * sizeof(double))
      // LegendreTransform: the P table, or the recurrence's tile and what it keeps on the host; the row index
      .view("pstswm::legendre", recurrence ? 0 : double(lt.layout.rows) * lt.pairs, sizeof(double))
      .view("pstswm::legendre_tile", recurrence ? LegendreRecurrence::tile_doubles(lt.layout, size_t(lt.pairs)) : 0,
            sizeof(double))
      .host("pstswm Legendre recurrence (seeds, coefficients, sines)", 1,
            recurrence ? LegendreRecurrence::host_bytes(lt.layout, size_t(lt.pairs)) : 0)
      .view("pstswm::row_m, row_r, m_offset", 2.0 * lt.layout.rows + lt.layout.ms.size() + 1, sizeof(int))
      .view("pstswm::lt_tile_row (loop LT in tiles)",
            opt.lt == LTVariant::loop && default_loop_shape == LTLoopShape::tiles
                ? double(LegendreTransform::row_tiles(lt.layout))
                : 0.0,
            sizeof(int))
      // ShallowWater: 3 time levels of 3 fields, transform work arrays, grid-point constants, set-up temporaries
      .view("pstswm state (old, cur, new)", 3 * 3 * state.rows * spec_row, sizeof(double))
      .view("pstswm::inverse_spectral, forward_spectral", (4 + 5) * state.rows * spec_row, sizeof(double))
      .view("pstswm::inverse_grid, forward_grid", (opt.fuse_grid_point ? 4 : 4 + 5) * lats * grid_row, sizeof(double))
      .view("pstswm::row_m, row_n, row_first, row_last", 4.0 * state.rows, sizeof(int))
      .view("pstswm::row_eps, row_eps_next, row_inv_lap", 3.0 * state.rows, sizeof(double))
      .view("pstswm::coriolis, mu", lats * opt.nlon + lats, sizeof(double))
      .view("pstswm::initial_grid, initial_spectral", 3 * lats * grid_row + 3 * state.rows * spec_row, sizeof(double))
      .host("pstswm host copies for MPI", 1, MPIStage<double>::host_copy_bytes(staged, opt.comm))
      .host("pstswm gathered spectral state", double(SpectralLayout::all(N).rows) * 3 * spec_row, sizeof(double));
  return e;
}

}  // namespace proxylab::pstswm
