// PSTSWM: what the parallel Legendre transform algorithms share (the serial transform, timed and counted), the
// choice among them, and the one-rank algorithm.
#include "parallel_legendre.hpp"

namespace proxylab::pstswm {

ParallelLegendre::ParallelLegendre(const LegendreSetup& setup, const SpectralLayout& lt_layout,
                                   const std::vector<double>& mu_pairs, const SpectralLayout& state_layout)
    : decomp_(setup.decomposition),
      comm_(setup.comm),
      stats_(setup.stats),
      timers_(setup.timers),
      levels_(setup.options.levels),
      lt_(lt_layout, mu_pairs, setup.options.lt, setup.options.levels, setup.options.fixed_levels),
      state_layout_(state_layout) {}

FourierHalves local_halves(const std::string& label, const TransformOptions& options, const Decomposition& d) {
  return FourierHalves(label,
                       size_t(options.ntrunc + 1) * d.my_pairs().size() * max_transform_fields * 2 * options.levels);
}

std::vector<double> ParallelLegendre::pairs_mu(const LegendreSetup& setup, const BlockRange& pairs) {
  return std::vector<double>(setup.mu.begin() + pairs.begin, setup.mu.begin() + pairs.end);
}

void ParallelLegendre::transform_forward(const FourierHalves& halves, int nfields, const View1D<double>& spec) {
  {
    auto t = timers_.scope("legendre");
    lt_.forward(halves.data, halves.odd, nfields, spec);
    Kokkos::fence();
  }
  stats_.lt_flops += lt_.flops(nfields);
  stats_.lt_bytes += lt_.bytes(nfields);
}

void ParallelLegendre::transform_inverse(const View1D<double>& spec, int nfields, const FourierHalves& halves) {
  {
    auto t = timers_.scope("legendre");
    lt_.inverse(spec, nfields, halves.data, halves.odd);
    Kokkos::fence();
  }
  stats_.lt_flops += lt_.flops(nfields);
  stats_.lt_bytes += lt_.bytes(nfields);
}

std::unique_ptr<ParallelLegendre> ParallelLegendre::create(const LegendreSetup& setup) {
  if (setup.decomposition.ranks == 1) return make_serial_legendre(setup);
  if (setup.options.algorithm == Algorithm::transpose) return make_transpose_legendre(setup);
  return make_distributed_legendre(setup);
}

namespace {

// One rank: every latitude and wavenumber is local, both decompositions coincide.
class SerialLegendre final : public ParallelLegendre {
 public:
  explicit SerialLegendre(const LegendreSetup& s, const SpectralLayout& all)
      : ParallelLegendre(s, all, pairs_mu(s, s.decomposition.my_pairs()), all) {}
  void forward(const FourierHalves& local, int nfields, const View1D<double>& spec) override {
    transform_forward(local, nfields, spec);
  }
  void inverse(const View1D<double>& spec, int nfields, const FourierHalves& local) override {
    transform_inverse(spec, nfields, local);
  }
};

}  // namespace

std::unique_ptr<ParallelLegendre> make_serial_legendre(const LegendreSetup& setup) {
  return std::make_unique<SerialLegendre>(setup, SpectralLayout(setup.options.ntrunc, setup.decomposition.my_ms()));
}

}  // namespace proxylab::pstswm
