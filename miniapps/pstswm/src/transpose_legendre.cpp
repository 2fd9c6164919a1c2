// PSTSWM's transpose algorithm of the parallel Legendre transform: the Fourier halves go from the latitude
// decomposition to the wavenumber decomposition by one all-to-all, the Legendre transform runs over all latitudes
// of this rank's wavenumbers, and the inverse comes back the same way.
#include <cstring>

#include "parallel_legendre.hpp"
#include "proxylab/comm/transpose.hpp"

namespace proxylab::pstswm {

namespace {

class TransposeLegendre final : public ParallelLegendre {
 public:
  TransposeLegendre(const LegendreSetup& s, const SpectralLayout& own)
      : ParallelLegendre(s, own, pairs_mu(s, BlockRange{0, s.decomposition.npairs}), own),
        transpose_(Transpose::create(s.options.strategy, s.comm)) {
    const size_t n = own.ms.size() * size_t(decomp_.npairs) * max_transform_fields * 2 * s.options.levels;
    wavenumber_ = {HostView<double*>("pstswm::even_wavenumber", n), HostView<double*>("pstswm::odd_wavenumber", n)};
  }

  void forward(int nfields, const View1D<double>& spec) override {
    {
      auto t = comm_scope();
      exchange(columns(nfields), Toward::wavenumbers);
    }
    transform_forward(wavenumber_, nfields, spec);
  }

  void inverse(const View1D<double>& spec, int nfields) override {
    transform_inverse(spec, nfields, wavenumber_);
    auto t = comm_scope();
    exchange(columns(nfields), Toward::latitudes);
  }

 private:
  enum class Toward { wavenumbers, latitudes };  // the decomposition an exchange goes to
  void exchange(int ncol, Toward toward);

  std::unique_ptr<Transpose> transpose_;
  FourierHalves wavenumber_;  // [owned m][global pair][col]
  std::vector<double> send_, recv_;
};

// One routine for both directions: rank r's message holds the even then the odd half of r's wavenumbers at this
// rank's pairs (latitude side) or of this rank's wavenumbers at r's pairs (wavenumber side). toward = wavenumbers
// sends the latitude side and receives the wavenumber side; toward = latitudes the reverse.
void TransposeLegendre::exchange(int ncol, Toward toward) {
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
  send_.resize(so);
  recv_.resize(ro);
  Kokkos::fence();
  // Copies n doubles between a message and a field, in the direction of `pack`.
  auto copy = [](double* message, double* field, size_t n, bool pack) {
    std::memcpy(pack ? message : field, pack ? field : message, n * sizeof(double));
  };
  auto latitude_blocks = [&](double* buffer, const std::vector<int>& displ, bool pack) {
    for (int r = 0; r < P; ++r) {
      const size_t block = size_t(d.concat_begin[r + 1] - d.concat_begin[r]) * kloc * ncol;
      const size_t at = size_t(d.concat_begin[r]) * kloc * ncol;
      copy(buffer + displ[r], local_.even.data() + at, block, pack);
      copy(buffer + displ[r] + block, local_.odd.data() + at, block, pack);
    }
  };
  auto wavenumber_blocks = [&](double* buffer, const std::vector<int>& displ, bool pack) {
    for (int s = 0; s < P; ++s) {
      const int ks = d.pairs[s].size();
      const size_t block = size_t(nown) * ks * ncol;
      for (int mi = 0; mi < nown; ++mi) {
        const size_t field = (size_t(mi) * d.npairs + d.pairs[s].begin) * ncol, message = size_t(mi) * ks * ncol;
        copy(buffer + displ[s] + message, wavenumber_.even.data() + field, size_t(ks) * ncol, pack);
        copy(buffer + displ[s] + block + message, wavenumber_.odd.data() + field, size_t(ks) * ncol, pack);
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

}  // namespace

std::unique_ptr<ParallelLegendre> make_transpose_legendre(const LegendreSetup& setup) {
  return std::make_unique<TransposeLegendre>(setup, SpectralLayout(setup.options.ntrunc, setup.decomposition.my_ms()));
}

}  // namespace proxylab::pstswm
