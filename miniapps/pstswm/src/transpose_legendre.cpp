// PSTSWM's transpose algorithm of the parallel Legendre transform: the Fourier halves go from the latitude
// decomposition to the wavenumber decomposition by one all-to-all, the Legendre transform runs over all latitudes
// of this rank's wavenumbers, and the inverse comes back the same way.
#include <array>
#include <cstring>

#include "backend.hpp"
#include "parallel_legendre.hpp"
#include "proxylab/comm/mpi_buffer.hpp"
#include "proxylab/comm/transpose.hpp"

namespace proxylab::pstswm {

namespace {

// Contiguous copies dst[0, n) = src[0, n) between the Fourier halves and the messages (the transposes' pack and
// unpack), fixed by the decomposition and the field count: planned once. Host: memcpy, run by run on the calling
// thread (contiguous runs, no kernel launch). Device: one kernel, a team per run.
class CopyRuns {
 public:
  struct Run {
    const double* src;
    double* dst;
    long long n;
  };
  CopyRuns() = default;
  explicit CopyRuns(const std::vector<Run>& runs) : runs_("pstswm::copy_runs", runs.size()) {
    auto h = Kokkos::create_mirror_view(runs_);
    for (size_t i = 0; i < runs.size(); ++i) h(i) = runs[i];
    Kokkos::deep_copy(runs_, h);
  }
  void execute(const char* name) const {
    const auto runs = runs_;
    const int count = int(runs.extent(0));
    if constexpr (backend::memcpy_runs) {
      for (int i = 0; i < count; ++i) std::memcpy(runs(i).dst, runs(i).src, size_t(runs(i).n) * sizeof(double));
    } else {
      using Team = Kokkos::TeamPolicy<ExecSpace>::member_type;
      if (count == 0) return;
      Kokkos::parallel_for(
          name, Kokkos::TeamPolicy<ExecSpace>(count, Kokkos::AUTO), KOKKOS_LAMBDA(const Team& team) {
            const Run r = runs(team.league_rank());
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, r.n), [&](long long i) { r.dst[i] = r.src[i]; });
          });
    }
  }

 private:
  View1D<Run> runs_;
};

class TransposeLegendre final : public ParallelLegendre {
 public:
  TransposeLegendre(const LegendreSetup& s, const SpectralLayout& own)
      : ParallelLegendre(s, own, pairs_mu(s, BlockRange{0, s.decomposition.npairs}), own),
        transpose_(Transpose::create(s.options.strategy, s.comm)) {
    const int ncol = columns(max_transform_fields);
    const size_t n = own.ms.size() * size_t(decomp_.npairs) * ncol;
    wavenumber_ = FourierHalves("pstswm::halves_wavenumber", n);
    latitude_side_ = MPIBuffer<double>(
        "pstswm::latitude_side", 2 * size_t(s.options.ntrunc + 1) * decomp_.my_pairs().size() * ncol, s.options.comm);
    wavenumber_side_ = MPIBuffer<double>("pstswm::wavenumber_side", 2 * n, s.options.comm);
  }

  void forward(const FourierHalves& local, int nfields, const View1D<double>& spec) override {
    {
      auto t = comm_scope();
      exchange(local, nfields, Toward::wavenumbers);
    }
    transform_forward(wavenumber_, nfields, spec);
  }

  void inverse(const View1D<double>& spec, int nfields, const FourierHalves& local) override {
    transform_inverse(spec, nfields, wavenumber_);
    auto t = comm_scope();
    exchange(local, nfields, Toward::latitudes);
  }

  enum class Toward { wavenumbers, latitudes };  // the decomposition an exchange goes to
  // The messages of one direction and field count: counts and displacements (doubles) and the copies, made for
  // the Fourier halves at `local` (rebuilt when a call names other halves).
  struct Plan {
    std::vector<int> sc, sd, rc, rd;
    CopyRuns pack, unpack;
    const double* local = nullptr;
  };

 private:
  void exchange(const FourierHalves& local, int nfields, Toward toward);
  const Plan& plan(const FourierHalves& local, int nfields, Toward toward);

  std::unique_ptr<Transpose> transpose_;
  FourierHalves wavenumber_;  // [owned m][global pair][col]
  // The messages of the latitude side (this rank's pairs) and of the wavenumber side (this rank's wavenumbers): the
  // send and receive buffers of one direction, the receive and send buffers of the other.
  MPIBuffer<double> latitude_side_, wavenumber_side_;
  std::array<Plan, 2 * max_transform_fields> plans_;  // [toward latitudes?][nfields - 1]
};

// One plan for both directions: rank r's message holds the even then the odd half of r's wavenumbers at this rank's
// pairs (latitude side) or of this rank's wavenumbers at r's pairs (wavenumber side). toward = wavenumbers sends the
// latitude side and receives the wavenumber side; toward = latitudes the reverse.
const TransposeLegendre::Plan& TransposeLegendre::plan(const FourierHalves& local, int nfields, Toward toward) {
  const bool to_wavenumbers = toward == Toward::wavenumbers;
  Plan& p = plans_[(to_wavenumbers ? 0 : max_transform_fields) + nfields - 1];
  if (p.local == local.data.data()) return p;
  p = Plan();
  const auto& d = decomp_;
  const int P = d.ranks, kloc = d.my_pairs().size(), nown = int(d.my_ms().size()), ncol = columns(nfields);
  // doubles of rank r's message on each side
  auto latitude_side = [&](int r) { return 2 * (d.concat_begin[r + 1] - d.concat_begin[r]) * kloc * ncol; };
  auto wavenumber_side = [&](int r) { return 2 * nown * int(d.pairs[r].size()) * ncol; };
  int so = 0, ro = 0;
  for (int r = 0; r < P; ++r) {
    p.sc.push_back(to_wavenumbers ? latitude_side(r) : wavenumber_side(r));
    p.sd.push_back(so);
    so += p.sc[r];
    p.rc.push_back(to_wavenumbers ? wavenumber_side(r) : latitude_side(r));
    p.rd.push_back(ro);
    ro += p.rc[r];
  }
  // Copies n doubles between a message and a field, in the direction of `pack`.
  using Run = CopyRuns::Run;
  auto run = [](double* message, double* field, size_t n, bool pack) {
    return pack ? Run{field, message, (long long)n} : Run{message, field, (long long)n};
  };
  auto latitude_blocks = [&](double* buffer, const std::vector<int>& displ, bool pack) {
    std::vector<Run> runs;
    for (int r = 0; r < P; ++r) {
      const size_t block = size_t(d.concat_begin[r + 1] - d.concat_begin[r]) * kloc * ncol;
      const size_t at = size_t(d.concat_begin[r]) * kloc * ncol;
      runs.push_back(run(buffer + displ[r], local.even_data() + at, block, pack));
      runs.push_back(run(buffer + displ[r] + block, local.odd_data() + at, block, pack));
    }
    return CopyRuns(runs);
  };
  auto wavenumber_blocks = [&](double* buffer, const std::vector<int>& displ, bool pack) {
    std::vector<Run> runs;
    for (int s = 0; s < P; ++s) {
      const int ks = d.pairs[s].size();
      const size_t block = size_t(nown) * ks * ncol;
      for (int mi = 0; mi < nown; ++mi) {
        const size_t field = (size_t(mi) * d.npairs + d.pairs[s].begin) * ncol, message = size_t(mi) * ks * ncol;
        runs.push_back(run(buffer + displ[s] + message, wavenumber_.even_data() + field, size_t(ks) * ncol, pack));
        runs.push_back(
            run(buffer + displ[s] + block + message, wavenumber_.odd_data() + field, size_t(ks) * ncol, pack));
      }
    }
    return CopyRuns(runs);
  };
  if (to_wavenumbers) {
    p.pack = latitude_blocks(latitude_side_.data(), p.sd, true);
    p.unpack = wavenumber_blocks(wavenumber_side_.data(), p.rd, false);
  } else {
    p.pack = wavenumber_blocks(wavenumber_side_.data(), p.sd, true);
    p.unpack = latitude_blocks(latitude_side_.data(), p.rd, false);
  }
  p.local = local.data.data();
  return p;
}

void TransposeLegendre::exchange(const FourierHalves& local, int nfields, Toward toward) {
  const Plan& p = plan(local, nfields, toward);
  const bool to_wavenumbers = toward == Toward::wavenumbers;
  const MPIBuffer<double>& send = to_wavenumbers ? latitude_side_ : wavenumber_side_;
  const MPIBuffer<double>& recv = to_wavenumbers ? wavenumber_side_ : latitude_side_;
  const int me = decomp_.rank, so = p.sd.back() + p.sc.back(), ro = p.rd.back() + p.rc.back();
  p.pack.execute("pstswm::transpose_pack");
  Kokkos::fence();
  send.to_mpi(0, so);
  transpose_->exchange(send.mpi(), p.sc, p.sd, recv.mpi(), p.rc, p.rd);
  recv.from_mpi(0, ro);
  p.unpack.execute("pstswm::transpose_unpack");
  Kokkos::fence();
  stats_.comm_bytes += (long long)(so - p.sc[me]) * 8;
  stats_.comm_calls += 1;
  stats_.copy_bytes += 16.0 * ((so - p.sc[me]) + (ro - p.rc[me]));
}

}  // namespace

std::unique_ptr<ParallelLegendre> make_transpose_legendre(const LegendreSetup& setup) {
  Transpose::require_reachable(setup.options.strategy, setup.options.comm, "parallel.transpose");
  return std::make_unique<TransposeLegendre>(setup, SpectralLayout(setup.options.ntrunc, setup.decomposition.my_ms()));
}

}  // namespace proxylab::pstswm
