// STSWM / PSTSWM: the transform phases of the time step (FFT over longitude with the fold, then the parallel
// Legendre transform over latitude).
#include "spherical_transform.hpp"

#include <algorithm>
#include <utility>

#include "backend.hpp"
#include "fold.hpp"
#include "proxylab/errors.hpp"
#include "proxylab/fft.hpp"

namespace proxylab::pstswm {

namespace {
Decomposition decompose(const TransformOptions& opt, MPI_Comm comm) {
  int size = 1, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  return Decomposition(opt.nlat, opt.ntrunc, size, rank);
}
}  // namespace

SphericalTransform::SphericalTransform(const TransformOptions& opt, MPI_Comm comm, Timers& timers)
    : SphericalTransform(opt, gauss_grid(opt.nlat), comm, timers) {}

SphericalTransform::SphericalTransform(const TransformOptions& opt, GaussGrid gauss, MPI_Comm comm, Timers& timers)
    : opt_(opt), comm_(comm), timers_(timers), decomp_(decompose(opt, comm)), gauss_(std::move(gauss)) {
  const BlockRange mine = decomp_.my_pairs();
  const int kloc = mine.size(), N = opt_.ntrunc, L = opt_.levels, nh = opt_.nlon / 2 + 1;
  for (int pl = 0; pl < kloc; ++pl) {
    const int p = mine.begin + pl;
    mu_loc_.push_back(gauss_.mu[p]);
    mu_loc_.push_back(gauss_.mu[opt_.nlat - 1 - p]);
    w_loc_.push_back(gauss_.weight[p]);
    w_loc_.push_back(gauss_.weight[opt_.nlat - 1 - p]);
  }
  if (opt_.fuse_fold && !backend::latitude_pair_ffts)  // read_options refuses it (transform.fuse_fold)
    throw RuntimeError("SphericalTransform: the fused FFT and fold need a host back end");
  if (opt_.fuse_grid_point && !opt_.fuse_fold)  // read_options refuses it (transform.fuse_grid_point)
    throw RuntimeError("SphericalTransform: the latitude loop needs the fused FFT and fold");
  if (!opt_.fuse_fold) four_ = View1D<double>("pstswm::fourier", size_t(max_transform_fields) * 2 * kloc * L * 2 * nh);
  halves_ = local_halves("pstswm::halves_local", opt_, decomp_);
  if (opt_.fuse_grid_point) inverse_halves_ = local_halves("pstswm::halves_inverse", opt_, decomp_);
  legendre_ = ParallelLegendre::create({opt_, decomp_, gauss_.mu, comm_, timers_, stats_});
  concat_ms_ = View1D<int>("pstswm::concat_ms", N + 1);
  mi_of_m_ = View1D<int>("pstswm::mi_of_m", N + 1);
  fold_scale_ = View1D<double>("pstswm::fold_scale", 2 * size_t(kloc));
  auto hm = Kokkos::create_mirror_view(concat_ms_);
  auto hi = Kokkos::create_mirror_view(mi_of_m_);
  auto hs = Kokkos::create_mirror_view(fold_scale_);
  for (int i = 0; i <= N; ++i) {
    hm(i) = decomp_.concat_ms[i];
    hi(decomp_.concat_ms[i]) = i;
  }
  for (int pl = 0; pl < kloc; ++pl) {
    const double mu = mu_loc_[2 * pl], base = w_loc_[2 * pl] / opt_.nlon;
    hs(pl) = base;
    hs(kloc + pl) = base / (earth_radius * (1.0 - mu * mu));
  }
  Kokkos::deep_copy(concat_ms_, hm);
  Kokkos::deep_copy(mi_of_m_, hi);
  Kokkos::deep_copy(fold_scale_, hs);
  plan_fused_ffts();
}

namespace {

using HostFFT = FFTPlan<HostExec>;

// The serial plan of one (pair, field): its 2 L latitude-level rows, r2c or c2r, Fourier rows `fdist` doubles apart.
HostFFT pair_plan(FFTKind kind, int nlon, int L, int fdist, FFTPlanning planning) {
  FFTShape sh;
  sh.kind = kind;
  sh.n = nlon;
  sh.inner = kind == FFTKind::r2c ? FFTBatch{2 * L, nlon, fdist / 2} : FFTBatch{2 * L, fdist / 2, nlon};
  sh.threaded = false;
  sh.planning = planning;
  return fft_plan(HostExec(), sh);
}

// The latitude loop's serial plan of one pair: `rows` packed rows (north + i south) of nlon complex values, c2c.
HostFFT packed_plan(FFTKind kind, int nlon, int rows, FFTPlanning planning) {
  FFTShape sh;
  sh.kind = kind;
  sh.n = nlon;
  sh.inner = FFTBatch{rows, packed_row_distance(nlon), packed_row_distance(nlon)};
  sh.threaded = false;
  sh.planning = planning;
  return fft_plan(HostExec(), sh);
}

// Fourier coefficients stored as (re, im) pairs of doubles, seen as the complex values an FFT reads or writes.
Kokkos::complex<double>* as_complex(double* p) { return reinterpret_cast<Kokkos::complex<double>*>(p); }

// The fused path for one latitude pair: the grid rows of its field f from rows + f * field_stride, its Fourier rows
// in buf (field_rows doubles a field, rows fdist apart). Forward: the r2c FFTs of nf fields, then the fold of each
// wavenumber of every field (one run of all columns per (wavenumber, pair) row of E and O).
void fft_fold_pair(const HostFFT& r2c, const FoldKernel& k, int pl, int nf, const double* rows, size_t field_stride,
                   double* buf, size_t field_rows, int fdist) {
  for (int f = 0; f < nf; ++f)
    r2c.execute(fft_input_at(r2c, rows + f * field_stride), fft_output_at(r2c, as_complex(buf + f * field_rows)));
  for (int mi = 0; mi < k.nm; ++mi)
    for (int f = 0; f < nf; ++f) k.fold(pl, f, mi, buf + f * field_rows, fdist);
}

// Inverse: the unfold of every wavenumber of nf fields, then their c2r FFTs into the grid rows.
void unfold_fft_pair(const HostFFT& c2r, const FoldKernel& k, int pl, int nf, double* buf, size_t field_rows, int fdist,
                     double* rows, size_t field_stride) {
  for (int mi = 0; mi <= k.nm; ++mi)
    for (int f = 0; f < nf; ++f) k.unfold(pl, f, mi, buf + f * field_rows, fdist);
  for (int f = 0; f < nf; ++f)
    c2r.execute(fft_input_at(c2r, as_complex(buf + f * field_rows)), fft_output_at(c2r, rows + f * field_stride));
}

}  // namespace

// The fused paths' FFTW plans, made at set-up so that no timed step plans (FFTW_MEASURE times its candidates there):
// the plans are cached by shape, and the time step's calls find them.
void SphericalTransform::plan_fused_ffts() const {
  const int nlon = opt_.nlon, L = opt_.levels;
  if (opt_.fuse_grid_point) {
    packed_plan(FFTKind::c2c_backward, nlon, L, opt_.fft_planning);
    packed_plan(FFTKind::c2c_forward, nlon, L, opt_.fft_planning);
  } else if (opt_.fuse_fold) {
    pair_plan(FFTKind::r2c, nlon, L, fused_row_distance(nlon), opt_.fft_planning);
    pair_plan(FFTKind::c2r, nlon, L, fused_row_distance(nlon), opt_.fft_planning);
  }
}

FoldKernel SphericalTransform::fold_kernel(const FourierHalves& halves, int nf, const std::vector<bool>* scaled) const {
  const int kloc = decomp_.my_pairs().size(), L = opt_.levels;
  int vec_mask = 0;
  for (int f = 0; scaled && f < nf; ++f) vec_mask |= (*scaled)[f] ? (1 << f) : 0;
  return FoldKernel{halves.even_data(), halves.odd_data(), concat_ms_,        fold_scale_, kloc, L,
                    opt_.ntrunc + 1,    nf * 2 * L,        opt_.nlon / 2 + 1, vec_mask};
}

// Grid -> E, O for nf fields. Fused (transform.fuse_fold, host back ends): per latitude pair in parallel, the FFTs
// of its fields' 2 L rows into buffers that stay in cache, folded from there wavenumber by wavenumber, so that each
// (wavenumber, pair) row of E and O is written in one run of all its columns. Unfused: one batched FFT of every row
// into the Fourier array, then the fold from it as a tiled transpose (fold.hpp: coalesced on a device).
void SphericalTransform::fft_fold(const View1D<double>& grid, int nf, const std::vector<bool>& scaled) {
  const FoldKernel k = fold_kernel(halves_, nf, &scaled);
  const int kloc = k.kloc, L = k.L, nlon = opt_.nlon;
  if (!opt_.fuse_fold) {
    const auto plan =
        fft_plan(ExecSpace(), FFTShape::lines(FFTKind::r2c, nlon, nf * 2 * kloc * L, false, opt_.fft_planning));
    plan.execute(grid, fourier_lines(plan.output_span()));
    stats_.fft_flops += plan.flops();
    fold_tiled(k, nf, four_.data(), mi_of_m_);
    Kokkos::fence();
    return;
  }
  const double* g = grid.data();
  const int fdist = fused_row_distance(nlon);
  const size_t field_rows = size_t(2) * L * fdist;
  const HostFFT plan = pair_plan(FFTKind::r2c, nlon, L, fdist, opt_.fft_planning);
  stats_.fft_flops += plan.flops() * kloc * nf;
  for_each_pair(nf * field_rows, [=, &plan](int pl, double* buf) {
    fft_fold_pair(plan, k, pl, nf, g + size_t(2) * pl * L * nlon, size_t(2) * kloc * L * nlon, buf, field_rows, fdist);
  });
}

// E, O -> grid for nf fields (the reverse of fft_fold).
void SphericalTransform::unfold_fft(int nf, const View1D<double>& grid) {
  const FoldKernel k = fold_kernel(halves_, nf, nullptr);
  const int kloc = k.kloc, L = k.L, nlon = opt_.nlon;
  if (!opt_.fuse_fold) {
    unfold_tiled(k, nf, four_.data(), mi_of_m_);
    Kokkos::fence();  // the host FFT library does not wait for the kernel
    const auto plan =
        fft_plan(ExecSpace(), FFTShape::lines(FFTKind::c2r, nlon, nf * 2 * kloc * L, false, opt_.fft_planning));
    plan.execute(fourier_lines(plan.input_span()), grid);
    stats_.fft_flops += plan.flops();
    Kokkos::fence();
    return;
  }
  double* g = grid.data();
  const int fdist = fused_row_distance(nlon);
  const size_t field_rows = size_t(2) * L * fdist;
  const HostFFT plan = pair_plan(FFTKind::c2r, nlon, L, fdist, opt_.fft_planning);
  stats_.fft_flops += plan.flops() * kloc * nf;
  for_each_pair(nf * field_rows, [=, &plan](int pl, double* buf) {
    unfold_fft_pair(plan, k, pl, nf, buf, field_rows, fdist, g + size_t(2) * pl * L * nlon,
                    size_t(2) * kloc * L * nlon);
  });
}

// The latitude loop (a cache blocking of STSWM's ftrnex / comp1 phases), per local pair in parallel: the unfold of its
// nin fields' wavenumbers from inverse_halves_ and their inverse FFTs into the pair's grid rows, grid_point on those
// rows, then the forward FFTs of its nout fields and the fold into halves_, the pair's data in cache from the first
// step to the last. The rows are packed: each level's north and south rows as one complex row (north + i south), so
// that one complex FFT of L rows replaces the real FFTs of 2 L (1.4-1.7x faster at 256-1024 points,
// bench/pstswm/split_fft.cpp), and the fold and unfold separate and join the two latitudes' spectra.
void SphericalTransform::latitude_loop(int nin, const PairKernel& grid_point, int nout,
                                       const std::vector<bool>& scaled) {
  const FoldKernel in = fold_kernel(inverse_halves_, nin, nullptr), out = fold_kernel(halves_, nout, &scaled);
  const int L = opt_.levels, nlon = opt_.nlon, nf = std::max(nin, nout);
  const size_t field = packed_field_doubles(opt_), row = packed_row_distance(nlon);
  const HostFFT backward = packed_plan(FFTKind::c2c_backward, nlon, L, opt_.fft_planning);
  const HostFFT forward = packed_plan(FFTKind::c2c_forward, nlon, L, opt_.fft_planning);
  stats_.fft_flops += (backward.flops() * nin + forward.flops() * nout) * in.kloc;
  for_each_pair(2 * nf * field, [&](int pl, double* buf) {
    double* rows = buf + nf * field;  // buf: the fields' packed spectra, then their packed grid rows
    for (int mi = 0; mi <= in.nm; ++mi)
      for (int f = 0; f < nin; ++f) in.unfold_packed(pl, f, mi, buf + f * field, nlon, row);
    for (int f = 0; f < nin; ++f)
      backward.execute(fft_input_at(backward, as_complex(buf + f * field)),
                       fft_output_at(backward, as_complex(rows + f * field)));
    grid_point(pl, rows);
    for (int f = 0; f < nout; ++f)
      forward.execute(fft_input_at(forward, as_complex(rows + f * field)),
                      fft_output_at(forward, as_complex(buf + f * field)));
    for (int mi = 0; mi < out.nm; ++mi)
      for (int f = 0; f < nout; ++f) out.fold_packed(pl, f, mi, buf + f * field, nlon, row);
  });
}

void SphericalTransform::through_grid(const View1D<double>& spec_in, int nin, const PairKernel& grid_point, int nout,
                                      const std::vector<bool>& scaled, const View1D<double>& spec_out) {
  if (!opt_.fuse_grid_point) throw RuntimeError("SphericalTransform::through_grid: transform.fuse_grid_point is off");
  if (nin > max_transform_fields || nout > max_transform_fields || int(scaled.size()) < nout)
    throw RuntimeError("SphericalTransform::through_grid: too many fields");
  {
    auto t = timers_.scope("inverse");
    legendre_->inverse(spec_in, nin, inverse_halves_);
  }
  {
    auto t = timers_.scope("latitude_loop");  // the FFTs, the fold and unfold, and the grid-point kernel
    latitude_loop(nin, grid_point, nout, scaled);
  }
  stats_.field_transforms += (nin + nout) * opt_.levels;
  auto t = timers_.scope("forward");
  legendre_->forward(halves_, nout, spec_out);
}

// The Fourier array's first `count` complex values, as the batched FFTs read and write them.
FFTLines<ExecSpace, Kokkos::complex<double>> SphericalTransform::fourier_lines(long long count) const {
  return FFTLines<ExecSpace, Kokkos::complex<double>>(as_complex(four_.data()), size_t(count));
}

int fused_row_distance(int nlon) {
  const int nh = nlon / 2 + 1;
  return 2 * (nh + (nh & 1));
}

int packed_row_distance(int nlon) { return nlon + 4; }

size_t packed_field_doubles(const TransformOptions& opt) {
  return size_t(2) * opt.levels * packed_row_distance(opt.nlon);
}

// body(pair, buffer of `doubles`) for every local latitude pair, in parallel.
template <class Body>
void SphericalTransform::for_each_pair(size_t doubles, const Body& body) const {
  using Policy = Kokkos::TeamPolicy<HostExec>;
  const size_t bytes = doubles * sizeof(double);
  Policy policy(decomp_.my_pairs().size(), 1);
  policy.set_scratch_size(1, Kokkos::PerTeam(bytes));
  Kokkos::parallel_for("pstswm::fft_fold", policy, [&](const Policy::member_type& team) {
    body(team.league_rank(), static_cast<double*>(team.team_scratch(1).get_shmem(bytes)));
  });
  Kokkos::fence();
}

void SphericalTransform::forward(const View1D<double>& grid, int nf, const std::vector<bool>& scaled,
                                 const View1D<double>& spec) {
  if (nf > max_transform_fields || int(scaled.size()) < nf)
    throw RuntimeError("SphericalTransform::forward: too many fields");
  {
    auto t = timers_.scope("fft");  // the FFTs and the fold (fused or in two passes: transform.fuse_fold)
    fft_fold(grid, nf, scaled);
  }
  stats_.field_transforms += nf * opt_.levels;
  legendre_->forward(halves_, nf, spec);
}

void SphericalTransform::inverse(const View1D<double>& spec, int nf, const View1D<double>& grid) {
  if (nf > max_transform_fields) throw RuntimeError("SphericalTransform::inverse: too many fields");
  legendre_->inverse(spec, nf, halves_);
  auto t = timers_.scope("fft");  // the unfold and the FFTs
  unfold_fft(nf, grid);
  stats_.field_transforms += nf * opt_.levels;
}

}  // namespace proxylab::pstswm
