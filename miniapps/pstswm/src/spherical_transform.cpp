// STSWM / PSTSWM: the transform phases of the time step (FFT over longitude, Legendre transform over
// latitude) and PSTSWM's two parallel Legendre transform algorithms (FTOPT/LTOPT: transpose vs
// distributed).
#include "spherical_transform.hpp"

#include <algorithm>
#include <cstring>

#include "proxylab/errors.hpp"
#include "proxylab/fft.hpp"
#include "proxylab/mapping.hpp"

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
    : opt_(opt), comm_(comm), timers_(timers), decomp_(decompose(opt, comm)) {
  gauss_ = gauss_grid(opt_.nlat);
  const BlockRange mine = decomp_.my_pairs();
  const int kloc = mine.size(), N = opt_.ntrunc, L = opt_.levels, nh = opt_.nlon / 2 + 1;
  std::vector<double> mu_local_pairs, mu_all_pairs;
  for (int p = 0; p < decomp_.npairs; ++p) mu_all_pairs.push_back(gauss_.mu[p]);
  for (int pl = 0; pl < kloc; ++pl) {
    const int p = mine.begin + pl;
    mu_local_pairs.push_back(gauss_.mu[p]);
    mu_loc_.push_back(gauss_.mu[p]), mu_loc_.push_back(gauss_.mu[opt_.nlat - 1 - p]);
    w_loc_.push_back(gauss_.weight[p]), w_loc_.push_back(gauss_.weight[opt_.nlat - 1 - p]);
  }
  full_layout_ = SpectralLayout(N, decomp_.concat_ms);
  const SpectralLayout own(N, decomp_.my_ms());
  const bool transpose = opt_.algorithm == Algorithm::transpose;
  lt_layout_ = transpose ? own : full_layout_;
  state_layout_ = (transpose || opt_.combine != Combine::allreduce) ? own : full_layout_;
  lt_ = std::make_unique<LegendreTransform>(lt_layout_, transpose ? mu_all_pairs : mu_local_pairs, opt_.lt, L,
                                            opt_.fixed_levels);
  const size_t maxcol = size_t(max_fields) * 2 * L;
  if (!opt_.fuse_fold) four_ = HostView<double*>("pstswm::fourier", size_t(max_fields) * 2 * kloc * L * 2 * nh);
  e_loc_ = HostView<double*>("pstswm::even_local", size_t(N + 1) * kloc * maxcol);
  o_loc_ = HostView<double*>("pstswm::odd_local", size_t(N + 1) * kloc * maxcol);
  if (transpose) {
    const size_t n = own.ms.size() * size_t(decomp_.npairs) * maxcol;
    e_lt_ = HostView<double*>("pstswm::even_wavenumber", n);
    o_lt_ = HostView<double*>("pstswm::odd_wavenumber", n);
    transpose_ = Transpose::create(opt_.strategy, comm_);
  } else if (opt_.combine != Combine::allreduce) {
    spec_full_ = HostView<double*>("pstswm::spectral_full", size_t(full_layout_.rows) * maxcol);
  }
  concat_ms_ = HostView<int*>("pstswm::concat_ms", N + 1);
  fold_scale_ = HostView<double*>("pstswm::fold_scale", 2 * size_t(kloc));
  auto hm = Kokkos::create_mirror_view(concat_ms_);
  auto hs = Kokkos::create_mirror_view(fold_scale_);
  for (int i = 0; i <= N; ++i) hm(i) = decomp_.concat_ms[i];
  for (int pl = 0; pl < kloc; ++pl) {
    const double mu = mu_loc_[2 * pl], base = w_loc_[2 * pl] / opt_.nlon;
    hs(pl) = base;
    hs(kloc + pl) = base / (earth_radius * (1.0 - mu * mu));
  }
  Kokkos::deep_copy(concat_ms_, hm);
  Kokkos::deep_copy(fold_scale_, hs);
}

// STSWM: the weighted symmetric / antisymmetric combination of north and south Fourier coefficients that precedes
// fltsum (fold), and its inverse before the inverse FFT (unfold), for one latitude pair and one field: its L north
// rows and L south rows of Fourier coefficients (row_stride doubles apart, north first) <-> columns 2 (f L + l) + ri
// of E and O at row (m, pair).
struct FoldKernel {  // runs on the host: FFTW's rows in, the Fourier halves out
  HostView<double*> E, O;
  HostView<int*> ms;
  HostView<double*> scale;  // [scaled?][local pair]
  int kloc, L, nm, ncol, nh, vec_mask;

  KOKKOS_INLINE_FUNCTION void fold(int pl, int f, const double* rows, size_t row_stride) const {
    const double s = scale(((vec_mask >> f) & 1) * kloc + pl);
    for (int mi = 0; mi < nm; ++mi) {
      const size_t m2 = 2 * size_t(ms(mi)), out = (size_t(mi) * kloc + pl) * ncol + 2 * size_t(f) * L;
      for (int l = 0; l < L; ++l) {
        const double* north = rows + l * row_stride + m2;
        const double* south = north + L * row_stride;
        for (int ri = 0; ri < 2; ++ri) {
          E(out + 2 * l + ri) = s * (north[ri] + south[ri]);
          O(out + 2 * l + ri) = s * (north[ri] - south[ri]);
        }
      }
    }
  }

  // north = E + O, south = E - O (no weights); wavenumbers above N are zero.
  KOKKOS_INLINE_FUNCTION void unfold(int pl, int f, double* rows, size_t row_stride) const {
    for (int l = 0; l < 2 * L; ++l)
      for (int k = 2 * nm; k < 2 * nh; ++k) rows[l * row_stride + k] = 0.0;
    for (int mi = 0; mi < nm; ++mi) {
      const size_t m2 = 2 * size_t(ms(mi)), in = (size_t(mi) * kloc + pl) * ncol + 2 * size_t(f) * L;
      for (int l = 0; l < L; ++l) {
        double* north = rows + l * row_stride + m2;
        double* south = north + L * row_stride;
        for (int ri = 0; ri < 2; ++ri) {
          north[ri] = E(in + 2 * l + ri) + O(in + 2 * l + ri);
          south[ri] = E(in + 2 * l + ri) - O(in + 2 * l + ri);
        }
      }
    }
  }
};

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

// Fourier coefficients stored as (re, im) pairs of doubles, seen as the complex values an FFT reads or writes.
Kokkos::complex<double>* as_complex(double* p) { return reinterpret_cast<Kokkos::complex<double>*>(p); }

}  // namespace

FoldKernel SphericalTransform::fold_kernel(int nf, const std::vector<bool>* scaled) const {
  const int kloc = decomp_.my_pairs().size(), L = opt_.levels;
  int vec_mask = 0;
  for (int f = 0; scaled && f < nf; ++f) vec_mask |= (*scaled)[f] ? (1 << f) : 0;
  return FoldKernel{e_loc_, o_loc_,          concat_ms_, fold_scale_,       kloc,
                    L,      opt_.ntrunc + 1, nf * 2 * L, opt_.nlon / 2 + 1, vec_mask};
}

// Grid -> E, O for nf fields. Fused (transform.fuse_fold): per (latitude pair, field) in parallel, the FFT of its
// 2 L rows into a buffer that stays in cache, folded from there. Unfused: one batched FFT of every row into the
// Fourier array, then the fold of every (pair, field) from it.
void SphericalTransform::fft_fold(const View1D<double>& grid, int nf, const std::vector<bool>& scaled) {
  const FoldKernel k = fold_kernel(nf, &scaled);
  const int kloc = k.kloc, L = k.L, nlon = opt_.nlon, nh = k.nh;
  require_accessible<HostExec>(grid, four_, e_loc_, o_loc_);  // FFTW reads the grid; the fold runs on the host
  const double* g = grid.data();
  if (!opt_.fuse_fold) {
    const HostFFT plan =
        fft_plan(HostExec(), FFTShape::lines(FFTKind::r2c, nlon, nf * 2 * kloc * L, false, opt_.fft_planning));
    plan.execute(fft_input_at(plan, g), fft_output_at(plan, as_complex(four_.data())));
    stats_.fft_flops += plan.flops();
    const double* four = four_.data();
    for_each_2d<HostExec>(
        "pstswm::fold", Mapping::flat, 0, kloc, 0, nf,
        KOKKOS_LAMBDA(int pl, int f) { k.fold(pl, f, four + (size_t(f) * 2 * kloc + 2 * pl) * L * 2 * nh, 2 * nh); });
    Kokkos::fence();
    return;
  }
  const int fdist = 2 * (nh + (nh & 1));  // even complex count: every row aligned
  const HostFFT plan = pair_plan(FFTKind::r2c, nlon, L, fdist, opt_.fft_planning);
  stats_.fft_flops += plan.flops() * kloc * nf;
  for_each_pair_field(nf, size_t(2) * L * fdist, [=, &plan](int pl, int f, double* buf) {
    plan.execute(fft_input_at(plan, g + (size_t(f) * 2 * kloc + 2 * pl) * L * nlon),
                 fft_output_at(plan, as_complex(buf)));
    k.fold(pl, f, buf, fdist);
  });
}

// E, O -> grid for nf fields (the reverse of fft_fold).
void SphericalTransform::unfold_fft(int nf, const View1D<double>& grid) {
  const FoldKernel k = fold_kernel(nf, nullptr);
  const int kloc = k.kloc, L = k.L, nlon = opt_.nlon, nh = k.nh;
  require_accessible<HostExec>(grid, four_, e_loc_, o_loc_);  // FFTW writes the grid; the unfold runs on the host
  double* g = grid.data();
  if (!opt_.fuse_fold) {
    double* four = four_.data();
    for_each_2d<HostExec>(
        "pstswm::unfold", Mapping::flat, 0, kloc, 0, nf,
        KOKKOS_LAMBDA(int pl, int f) { k.unfold(pl, f, four + (size_t(f) * 2 * kloc + 2 * pl) * L * 2 * nh, 2 * nh); });
    Kokkos::fence();
    const HostFFT plan =
        fft_plan(HostExec(), FFTShape::lines(FFTKind::c2r, nlon, nf * 2 * kloc * L, false, opt_.fft_planning));
    plan.execute(fft_input_at(plan, as_complex(four_.data())), fft_output_at(plan, g));
    stats_.fft_flops += plan.flops();
    return;
  }
  const int fdist = 2 * (nh + (nh & 1));
  const HostFFT plan = pair_plan(FFTKind::c2r, nlon, L, fdist, opt_.fft_planning);
  stats_.fft_flops += plan.flops() * kloc * nf;
  for_each_pair_field(nf, size_t(2) * L * fdist, [=, &plan](int pl, int f, double* buf) {
    k.unfold(pl, f, buf, fdist);
    plan.execute(fft_input_at(plan, as_complex(buf)),
                 fft_output_at(plan, g + (size_t(f) * 2 * kloc + 2 * pl) * L * nlon));
  });
}

// body(pair, field, buffer of `doubles`) for every local latitude pair and field, in parallel.
template <class Body>
void SphericalTransform::for_each_pair_field(int nf, size_t doubles, const Body& body) const {
  using Policy = Kokkos::TeamPolicy<HostExec>;
  const int kloc = decomp_.my_pairs().size();
  const size_t bytes = doubles * sizeof(double);
  Policy policy(kloc * nf, 1);
  policy.set_scratch_size(1, Kokkos::PerTeam(bytes));
  Kokkos::parallel_for("pstswm::fft_fold", policy, [&](const Policy::member_type& team) {
    const int pl = team.league_rank() / nf, f = team.league_rank() % nf;
    body(pl, f, static_cast<double*>(team.team_scratch(1).get_shmem(bytes)));
  });
  Kokkos::fence();
}

// The transposes between the latitude decomposition ([concat m][local pair][col] in e_loc_, o_loc_) and the
// wavenumber decomposition ([owned m][global pair][col] in e_lt_, o_lt_), one routine for both directions: rank r's
// message holds the even then the odd part of r's wavenumbers at this rank's pairs (latitude side) or of this
// rank's wavenumbers at r's pairs (wavenumber side). toward = wavenumbers sends the latitude side and receives the
// wavenumber side; toward = latitudes the reverse.
void SphericalTransform::exchange(int ncol, Toward toward) {
  const auto& d = decomp_;
  const int P = d.ranks, kloc = d.my_pairs().size(), nown = int(d.my_ms().size());
  const bool to_wavenumbers = toward == Toward::wavenumbers;
  // doubles of rank r's message on each side
  auto latitude_side = [&](int r) { return 2 * (d.concat_begin[r + 1] - d.concat_begin[r]) * kloc * ncol; };
  auto wavenumber_side = [&](int r) { return 2 * nown * int(d.pairs[r].size()) * ncol; };
  std::vector<int> sc(P), sd(P), rc(P), rd(P);
  int so = 0, ro = 0;
  for (int r = 0; r < P; ++r) {
    sc[r] = to_wavenumbers ? latitude_side(r) : wavenumber_side(r);
    sd[r] = so;
    so += sc[r];
    rc[r] = to_wavenumbers ? wavenumber_side(r) : latitude_side(r);
    rd[r] = ro;
    ro += rc[r];
  }
  send_.resize(so), recv_.resize(ro);
  Kokkos::fence();
  // Copies n doubles between a message and a field, in the direction of `pack`.
  auto copy = [](double* message, double* field, size_t n, bool pack) {
    std::memcpy(pack ? message : field, pack ? field : message, n * sizeof(double));
  };
  auto latitude_blocks = [&](double* buffer, const std::vector<int>& displ, bool pack) {
    for (int r = 0; r < P; ++r) {
      const size_t block = size_t(d.concat_begin[r + 1] - d.concat_begin[r]) * kloc * ncol;
      const size_t at = size_t(d.concat_begin[r]) * kloc * ncol;
      copy(buffer + displ[r], e_loc_.data() + at, block, pack);
      copy(buffer + displ[r] + block, o_loc_.data() + at, block, pack);
    }
  };
  auto wavenumber_blocks = [&](double* buffer, const std::vector<int>& displ, bool pack) {
    for (int s = 0; s < P; ++s) {
      const int ks = d.pairs[s].size();
      const size_t block = size_t(nown) * ks * ncol;
      for (int mi = 0; mi < nown; ++mi) {
        const size_t field = (size_t(mi) * d.npairs + d.pairs[s].begin) * ncol, message = size_t(mi) * ks * ncol;
        copy(buffer + displ[s] + message, e_lt_.data() + field, size_t(ks) * ncol, pack);
        copy(buffer + displ[s] + block + message, o_lt_.data() + field, size_t(ks) * ncol, pack);
      }
    }
  };
  if (to_wavenumbers)
    latitude_blocks(send_.data(), sd, true);
  else
    wavenumber_blocks(send_.data(), sd, true);
  transpose_->exchange(send_.data(), sc, sd, recv_.data(), rc, rd);
  if (to_wavenumbers)
    wavenumber_blocks(recv_.data(), rd, false);
  else
    latitude_blocks(recv_.data(), rd, false);
  stats_.comm_bytes += (long long)(so - sc[d.rank]) * 8;
  stats_.comm_calls += 1;
  stats_.copy_bytes += 16.0 * ((so - sc[d.rank]) + (ro - rc[d.rank]));
}

void SphericalTransform::forward(const View1D<double>& grid, int nf, const std::vector<bool>& scaled,
                                 const View1D<double>& spec) {
  if (nf > max_fields || int(scaled.size()) < nf) throw RuntimeError("SphericalTransform::forward: too many fields");
  const int L = opt_.levels, ncol = nf * 2 * L;
  {
    auto t = timers_.scope("fft");  // the FFTs and the fold (fused or in two passes: transform.fuse_fold)
    fft_fold(grid, nf, scaled);
  }
  stats_.field_transforms += nf * opt_.levels;
  if (opt_.algorithm == Algorithm::transpose) {
    if (decomp_.ranks > 1) {
      auto t = timers_.scope("comm", Category::communication);
      exchange(ncol, Toward::wavenumbers);
    } else {
      std::swap(e_lt_, e_loc_), std::swap(o_lt_, o_loc_);  // one rank: the layouts coincide
    }
    {
      auto t = timers_.scope("legendre");
      lt_->forward(e_lt_, o_lt_, nf, spec);
      Kokkos::fence();
    }
    if (decomp_.ranks == 1) std::swap(e_lt_, e_loc_), std::swap(o_lt_, o_loc_);
    count_legendre(nf);
    return;
  }
  const bool scatter = opt_.combine != Combine::allreduce && decomp_.ranks > 1;
  const View1D<double> target = scatter ? spec_full_ : spec;
  {
    auto t = timers_.scope("legendre");
    lt_->forward(e_loc_, o_loc_, nf, target);
    Kokkos::fence();
  }
  count_legendre(nf);
  if (decomp_.ranks == 1) return;
  auto t = timers_.scope("comm", Category::communication);
  const std::vector<int> counts = block_counts(ncol);
  if (opt_.combine == Combine::allreduce) {
    MPI_Allreduce(MPI_IN_PLACE, spec.data(), full_layout_.rows * ncol, MPI_DOUBLE, MPI_SUM, comm_);
    stats_.comm_bytes += (long long)full_layout_.rows * ncol * 8;  // payload each rank contributes
  } else if (opt_.combine == Combine::reduce_scatter) {
    MPI_Reduce_scatter(spec_full_.data(), spec.data(), counts.data(), MPI_DOUBLE, MPI_SUM, comm_);
    stats_.comm_bytes += (long long)(full_layout_.rows * ncol - counts[decomp_.rank]) * 8;
  } else {
    ring_reduce_scatter(ncol, spec);
  }
  stats_.comm_calls += 1;
}

std::vector<int> SphericalTransform::block_counts(int ncol) const {
  std::vector<int> counts(decomp_.ranks);
  for (int r = 0; r < decomp_.ranks; ++r) counts[r] = SpectralLayout(opt_.ntrunc, decomp_.ms[r]).rows * ncol;
  return counts;
}

// PSTSWM's ring pipeline: in step s rank r passes the running sum of block r-s-1 to r+1 and adds its
// own partial sums to block r-s-2 received from r-1; after P-1 steps block r is complete on rank r.
void SphericalTransform::ring_reduce_scatter(int ncol, const View1D<double>& spec) {
  const int P = decomp_.ranks, r = decomp_.rank, right = (r + 1) % P, left = (r + P - 1) % P;
  const std::vector<int> counts = block_counts(ncol);
  std::vector<size_t> at(P + 1, 0);
  for (int b = 0; b < P; ++b) at[b + 1] = at[b] + counts[b];
  recv_.resize(*std::max_element(counts.begin(), counts.end()));
  double* full = spec_full_.data();
  for (int s = 0; s + 1 < P; ++s) {
    const int sb = (r - s - 1 + 2 * P) % P, rb = (r - s - 2 + 2 * P) % P;
    MPI_Sendrecv(full + at[sb], counts[sb], MPI_DOUBLE, right, 71, recv_.data(), counts[rb], MPI_DOUBLE, left, 71,
                 comm_, MPI_STATUS_IGNORE);
    for (int i = 0; i < counts[rb]; ++i) full[at[rb] + i] += recv_[i];
    stats_.comm_bytes += (long long)counts[sb] * 8;
  }
  std::memcpy(spec.data(), full + at[r], size_t(counts[r]) * sizeof(double));
}

// Ring allgather of the wavenumber blocks before the inverse transform (P-1 neighbour steps).
void SphericalTransform::ring_allgather(int ncol, const View1D<double>& spec) {
  const int P = decomp_.ranks, r = decomp_.rank, right = (r + 1) % P, left = (r + P - 1) % P;
  const std::vector<int> counts = block_counts(ncol);
  std::vector<size_t> at(P + 1, 0);
  for (int b = 0; b < P; ++b) at[b + 1] = at[b] + counts[b];
  double* full = spec_full_.data();
  std::memcpy(full + at[r], spec.data(), size_t(counts[r]) * sizeof(double));
  for (int s = 0; s + 1 < P; ++s) {
    const int sb = (r - s + P) % P, rb = (r - s - 1 + P) % P;
    MPI_Sendrecv(full + at[sb], counts[sb], MPI_DOUBLE, right, 72, full + at[rb], counts[rb], MPI_DOUBLE, left, 72,
                 comm_, MPI_STATUS_IGNORE);
    stats_.comm_bytes += (long long)counts[sb] * 8;
  }
}

void SphericalTransform::inverse(const View1D<double>& spec, int nf, const View1D<double>& grid) {
  if (nf > max_fields) throw RuntimeError("SphericalTransform::inverse: too many fields");
  const int L = opt_.levels, ncol = nf * 2 * L;
  if (opt_.algorithm == Algorithm::transpose) {
    const bool one = decomp_.ranks == 1;
    if (one) std::swap(e_lt_, e_loc_), std::swap(o_lt_, o_loc_);
    {
      auto t = timers_.scope("legendre");
      lt_->inverse(spec, nf, e_lt_, o_lt_);
      Kokkos::fence();
    }
    if (one) {
      std::swap(e_lt_, e_loc_), std::swap(o_lt_, o_loc_);
    } else {
      auto t = timers_.scope("comm", Category::communication);
      exchange(ncol, Toward::latitudes);
    }
  } else {
    View1D<double> source = spec;
    if (opt_.combine != Combine::allreduce && decomp_.ranks > 1) {
      auto t = timers_.scope("comm", Category::communication);
      Kokkos::fence();
      if (opt_.combine == Combine::ring) {
        ring_allgather(ncol, spec);
      } else {
        const std::vector<int> counts = block_counts(ncol);
        std::vector<int> displs(decomp_.ranks, 0);
        for (int r = 1; r < decomp_.ranks; ++r) displs[r] = displs[r - 1] + counts[r - 1];
        MPI_Allgatherv(spec.data(), counts[decomp_.rank], MPI_DOUBLE, spec_full_.data(), counts.data(), displs.data(),
                       MPI_DOUBLE, comm_);
        stats_.comm_bytes += (long long)counts[decomp_.rank] * (decomp_.ranks - 1) * 8;
      }
      stats_.comm_calls += 1;
      source = spec_full_;
    }
    auto t = timers_.scope("legendre");
    lt_->inverse(source, nf, e_loc_, o_loc_);
    Kokkos::fence();
  }
  count_legendre(nf);
  auto t = timers_.scope("fft");  // the unfold and the FFTs
  unfold_fft(nf, grid);
  stats_.field_transforms += nf * opt_.levels;
}

}  // namespace proxylab::pstswm
