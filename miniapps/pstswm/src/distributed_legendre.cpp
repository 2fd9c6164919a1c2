// PSTSWM's distributed algorithm of the parallel Legendre transform: latitudes stay in place, every rank sums its
// own latitudes' share of every spectral coefficient, and the partial sums are combined:
//   allreduce       MPI_Allreduce; the spectral state is replicated and the inverse needs no communication
//   reduce_scatter  MPI_Reduce_scatter; the state is split by wavenumber, the inverse starts with MPI_Allgatherv
//   ring            PSTSWM's ring pipeline: P-1 neighbour steps of reduce-scatter, and of allgather
#include <algorithm>

#include "parallel_legendre.hpp"
#include "proxylab/comm/mpi_buffer.hpp"
#include "proxylab/errors.hpp"

namespace proxylab::pstswm {

namespace {

// The transform over this rank's latitude pairs into every wavenumber's rows (concatenated by owner).
SpectralLayout all_rows(const LegendreSetup& s) { return SpectralLayout(s.options.ntrunc, s.decomposition.concat_ms); }

// MPI's memory for a spectral state of nfields fields (the caller's View, or its host copy: comm/mpi_buffer.hpp).
MPIStage<double> spectral_stage(const LegendreSetup& s, const SpectralLayout& state) {
  return MPIStage<double>("pstswm::spectral", size_t(state.rows) * max_transform_fields * 2 * s.options.levels,
                          s.options.comm);
}

class AllreduceLegendre final : public ParallelLegendre {
 public:
  explicit AllreduceLegendre(const LegendreSetup& s)
      : ParallelLegendre(s, all_rows(s), pairs_mu(s, s.decomposition.my_pairs()), all_rows(s)),
        stage_(spectral_stage(s, state_layout())) {}

  void forward(const FourierHalves& local, int nfields, const View1D<double>& spec) override {
    transform_forward(local, nfields, spec);
    auto t = comm_scope();
    const int n = state_layout().rows * columns(nfields);
    stage_.to_mpi(spec, 0, n);
    MPI_Allreduce(MPI_IN_PLACE, stage_.mpi(spec), n, MPI_DOUBLE, MPI_SUM, comm_);
    stage_.from_mpi(spec, 0, n);
    stats_.comm_bytes += (long long)n * 8;  // payload each rank contributes
    stats_.comm_calls += 1;
  }
  void inverse(const View1D<double>& spec, int nfields, const FourierHalves& local) override {
    transform_inverse(spec, nfields, local);
  }

 private:
  MPIStage<double> stage_;
};

// The spectral state split by wavenumber: the forward transform writes every row into a full-size buffer, whose
// blocks are reduced onto their owners; the inverse gathers the blocks back into it first.
class SplitStateLegendre : public ParallelLegendre {
 public:
  explicit SplitStateLegendre(const LegendreSetup& s)
      : ParallelLegendre(s, all_rows(s), pairs_mu(s, s.decomposition.my_pairs()),
                         SpectralLayout(s.options.ntrunc, s.decomposition.my_ms())),
        full_("pstswm::spectral_full", size_t(all_rows(s).rows) * max_transform_fields * 2 * s.options.levels,
              s.options.comm),
        stage_(spectral_stage(s, state_layout())) {
    for (const std::vector<int>& ms : decomp_.ms) block_rows_.push_back(SpectralLayout(decomp_.ntrunc, ms).rows);
  }

  void forward(const FourierHalves& local, int nfields, const View1D<double>& spec) final {
    transform_forward(local, nfields, full_.view());
    auto t = comm_scope();
    reduce_scatter(block_counts(nfields), spec);
    stats_.comm_calls += 1;
  }
  void inverse(const View1D<double>& spec, int nfields, const FourierHalves& local) final {
    {
      auto t = comm_scope();
      Kokkos::fence();
      allgather(block_counts(nfields), spec);
      stats_.comm_calls += 1;
    }
    transform_inverse(full_.view(), nfields, local);
  }

 protected:
  // Rank r's block of full_ (its wavenumbers' rows): counts[r] doubles, the blocks in rank order.
  virtual void reduce_scatter(const std::vector<int>& counts, const View1D<double>& spec) = 0;
  virtual void allgather(const std::vector<int>& counts, const View1D<double>& spec) = 0;
  static std::vector<size_t> offsets(const std::vector<int>& counts) {
    std::vector<size_t> at(counts.size() + 1, 0);
    for (size_t b = 0; b < counts.size(); ++b) at[b + 1] = at[b] + counts[b];
    return at;
  }
  MPIBuffer<double> full_;       // [concat rows][col]
  MPIStage<double> stage_;       // MPI's memory for this rank's block (the caller's spectral state)
  std::vector<int> block_rows_;  // spectral rows of each rank's wavenumbers

 private:
  std::vector<int> block_counts(int nfields) const {
    std::vector<int> counts;
    for (int rows : block_rows_) counts.push_back(rows * columns(nfields));
    return counts;
  }
};

class ReduceScatterLegendre final : public SplitStateLegendre {
 public:
  using SplitStateLegendre::SplitStateLegendre;

 private:
  void reduce_scatter(const std::vector<int>& counts, const View1D<double>& spec) override {
    const std::vector<size_t> at = offsets(counts);
    full_.to_mpi(0, at.back());
    MPI_Reduce_scatter(full_.mpi(), stage_.mpi(spec), counts.data(), MPI_DOUBLE, MPI_SUM, comm_);
    stage_.from_mpi(spec, 0, counts[decomp_.rank]);
    stats_.comm_bytes += (long long)(at.back() - counts[decomp_.rank]) * 8;
  }
  void allgather(const std::vector<int>& counts, const View1D<double>& spec) override {
    const std::vector<size_t> at = offsets(counts);
    std::vector<int> displs(at.begin(), at.end() - 1);
    stage_.to_mpi(spec, 0, counts[decomp_.rank]);
    MPI_Allgatherv(stage_.mpi(spec), counts[decomp_.rank], MPI_DOUBLE, full_.mpi(), counts.data(), displs.data(),
                   MPI_DOUBLE, comm_);
    full_.from_mpi(0, at.back());
    stats_.comm_bytes += (long long)counts[decomp_.rank] * (decomp_.ranks - 1) * 8;
  }
};

class RingLegendre final : public SplitStateLegendre {
 public:
  explicit RingLegendre(const LegendreSetup& s)
      : SplitStateLegendre(s),
        recv_("pstswm::ring_receive",
              size_t(*std::max_element(block_rows_.begin(), block_rows_.end())) * columns(max_transform_fields),
              s.options.comm) {}

  // (Public only because it holds a KOKKOS_LAMBDA, which nvcc rejects in private or protected member functions.)
  // In step s rank r passes the running sum of block r-s-1 to r+1 and adds its own partial sums to block r-s-2
  // received from r-1; after P-1 steps block r is complete on rank r.
  void reduce_scatter(const std::vector<int>& counts, const View1D<double>& spec) override {
    const int P = decomp_.ranks, r = decomp_.rank, right = (r + 1) % P, left = (r + P - 1) % P;
    const std::vector<size_t> at = offsets(counts);
    const View1D<double> full = full_.view(), received = recv_.view();
    for (int s = 0; s + 1 < P; ++s) {
      const int sb = (r - s - 1 + 2 * P) % P, rb = (r - s - 2 + 2 * P) % P;
      full_.to_mpi(at[sb], counts[sb]);
      MPI_Sendrecv(full_.mpi() + at[sb], counts[sb], MPI_DOUBLE, right, 71, recv_.mpi(), counts[rb], MPI_DOUBLE, left,
                   71, comm_, MPI_STATUS_IGNORE);
      recv_.from_mpi(0, counts[rb]);
      const size_t base = at[rb];
      Kokkos::parallel_for(
          "pstswm::ring_sum", Kokkos::RangePolicy<ExecSpace>(0, counts[rb]),
          KOKKOS_LAMBDA(int i) { full(base + i) += received(i); });
      Kokkos::fence();
      stats_.comm_bytes += (long long)counts[sb] * 8;
    }
    Kokkos::deep_copy(elements(spec, 0, counts[r]), elements(full, at[r], counts[r]));
  }

 private:
  // P-1 neighbour steps, each passing on the block received in the step before.
  void allgather(const std::vector<int>& counts, const View1D<double>& spec) override {
    const int P = decomp_.ranks, r = decomp_.rank, right = (r + 1) % P, left = (r + P - 1) % P;
    const std::vector<size_t> at = offsets(counts);
    Kokkos::deep_copy(elements(full_.view(), at[r], counts[r]), elements(spec, 0, counts[r]));
    full_.to_mpi(at[r], counts[r]);
    double* full = full_.mpi();
    for (int s = 0; s + 1 < P; ++s) {
      const int sb = (r - s + P) % P, rb = (r - s - 1 + P) % P;
      MPI_Sendrecv(full + at[sb], counts[sb], MPI_DOUBLE, right, 72, full + at[rb], counts[rb], MPI_DOUBLE, left, 72,
                   comm_, MPI_STATUS_IGNORE);
      stats_.comm_bytes += (long long)counts[sb] * 8;
    }
    full_.from_mpi(0, at.back());
  }
  MPIBuffer<double> recv_;
};

}  // namespace

std::unique_ptr<ParallelLegendre> make_distributed_legendre(const LegendreSetup& setup) {
  switch (setup.options.combine) {
    case Combine::allreduce:
      return std::make_unique<AllreduceLegendre>(setup);
    case Combine::reduce_scatter:
      return std::make_unique<ReduceScatterLegendre>(setup);
    case Combine::ring:
      return std::make_unique<RingLegendre>(setup);
  }
  throw RuntimeError("make_distributed_legendre: unknown combine");
}

}  // namespace proxylab::pstswm
