// PSTSWM's distributed algorithm of the parallel Legendre transform: latitudes stay in place, every rank sums its
// own latitudes' share of every spectral coefficient, and the partial sums are combined:
//   allreduce       MPI_Allreduce; the spectral state is replicated and the inverse needs no communication
//   reduce_scatter  MPI_Reduce_scatter; the state is split by wavenumber, the inverse starts with MPI_Allgatherv
//   ring            PSTSWM's ring pipeline: P-1 neighbour steps of reduce-scatter, and of allgather
#include <algorithm>
#include <cstring>

#include "parallel_legendre.hpp"
#include "proxylab/errors.hpp"

namespace proxylab::pstswm {

namespace {

// The transform over this rank's latitude pairs into every wavenumber's rows (concatenated by owner).
SpectralLayout all_rows(const LegendreSetup& s) { return SpectralLayout(s.options.ntrunc, s.decomposition.concat_ms); }

class AllreduceLegendre final : public ParallelLegendre {
 public:
  explicit AllreduceLegendre(const LegendreSetup& s)
      : ParallelLegendre(s, all_rows(s), pairs_mu(s, s.decomposition.my_pairs()), all_rows(s)) {}

  void forward(int nfields, const View1D<double>& spec) override {
    transform_forward(local_, nfields, spec);
    auto t = comm_scope();
    const int n = state_layout().rows * columns(nfields);
    MPI_Allreduce(MPI_IN_PLACE, spec.data(), n, MPI_DOUBLE, MPI_SUM, comm_);
    stats_.comm_bytes += (long long)n * 8;  // payload each rank contributes
    stats_.comm_calls += 1;
  }
  void inverse(const View1D<double>& spec, int nfields) override { transform_inverse(spec, nfields, local_); }
};

// The spectral state split by wavenumber: the forward transform writes every row into a full-size buffer, whose
// blocks are reduced onto their owners; the inverse gathers the blocks back into it first.
class SplitStateLegendre : public ParallelLegendre {
 public:
  explicit SplitStateLegendre(const LegendreSetup& s)
      : ParallelLegendre(s, all_rows(s), pairs_mu(s, s.decomposition.my_pairs()),
                         SpectralLayout(s.options.ntrunc, s.decomposition.my_ms())),
        full_("pstswm::spectral_full", size_t(all_rows(s).rows) * max_transform_fields * 2 * s.options.levels) {
    for (const std::vector<int>& ms : decomp_.ms) block_rows_.push_back(SpectralLayout(decomp_.ntrunc, ms).rows);
  }

  void forward(int nfields, const View1D<double>& spec) final {
    transform_forward(local_, nfields, full_);
    auto t = comm_scope();
    reduce_scatter(block_counts(nfields), spec);
    stats_.comm_calls += 1;
  }
  void inverse(const View1D<double>& spec, int nfields) final {
    {
      auto t = comm_scope();
      Kokkos::fence();
      allgather(block_counts(nfields), spec);
      stats_.comm_calls += 1;
    }
    transform_inverse(full_, nfields, local_);
  }

 protected:
  // Rank r's block of full_ (its wavenumbers' rows): counts[r] doubles, the blocks in rank order.
  virtual void reduce_scatter(const std::vector<int>& counts, const View1D<double>& spec) = 0;
  virtual void allgather(const std::vector<int>& counts, const View1D<double>& spec) = 0;
  HostView<double*> full_;  // [concat rows][col]

 private:
  std::vector<int> block_counts(int nfields) const {
    std::vector<int> counts;
    for (int rows : block_rows_) counts.push_back(rows * columns(nfields));
    return counts;
  }
  std::vector<int> block_rows_;  // spectral rows of each rank's wavenumbers
};

class ReduceScatterLegendre final : public SplitStateLegendre {
 public:
  using SplitStateLegendre::SplitStateLegendre;

 private:
  void reduce_scatter(const std::vector<int>& counts, const View1D<double>& spec) override {
    MPI_Reduce_scatter(full_.data(), spec.data(), counts.data(), MPI_DOUBLE, MPI_SUM, comm_);
    long long all = 0;
    for (int c : counts) all += c;
    stats_.comm_bytes += (all - counts[decomp_.rank]) * 8;
  }
  void allgather(const std::vector<int>& counts, const View1D<double>& spec) override {
    std::vector<int> displs(decomp_.ranks, 0);
    for (int r = 1; r < decomp_.ranks; ++r) displs[r] = displs[r - 1] + counts[r - 1];
    MPI_Allgatherv(spec.data(), counts[decomp_.rank], MPI_DOUBLE, full_.data(), counts.data(), displs.data(),
                   MPI_DOUBLE, comm_);
    stats_.comm_bytes += (long long)counts[decomp_.rank] * (decomp_.ranks - 1) * 8;
  }
};

class RingLegendre final : public SplitStateLegendre {
 public:
  using SplitStateLegendre::SplitStateLegendre;

 private:
  // In step s rank r passes the running sum of block r-s-1 to r+1 and adds its own partial sums to block r-s-2
  // received from r-1; after P-1 steps block r is complete on rank r.
  void reduce_scatter(const std::vector<int>& counts, const View1D<double>& spec) override {
    const int P = decomp_.ranks, r = decomp_.rank, right = (r + 1) % P, left = (r + P - 1) % P;
    const std::vector<size_t> at = offsets(counts);
    recv_.resize(*std::max_element(counts.begin(), counts.end()));
    double* full = full_.data();
    for (int s = 0; s + 1 < P; ++s) {
      const int sb = (r - s - 1 + 2 * P) % P, rb = (r - s - 2 + 2 * P) % P;
      MPI_Sendrecv(full + at[sb], counts[sb], MPI_DOUBLE, right, 71, recv_.data(), counts[rb], MPI_DOUBLE, left, 71,
                   comm_, MPI_STATUS_IGNORE);
      for (int i = 0; i < counts[rb]; ++i) full[at[rb] + i] += recv_[i];
      stats_.comm_bytes += (long long)counts[sb] * 8;
    }
    std::memcpy(spec.data(), full + at[r], size_t(counts[r]) * sizeof(double));
  }
  // P-1 neighbour steps, each passing on the block received in the step before.
  void allgather(const std::vector<int>& counts, const View1D<double>& spec) override {
    const int P = decomp_.ranks, r = decomp_.rank, right = (r + 1) % P, left = (r + P - 1) % P;
    const std::vector<size_t> at = offsets(counts);
    double* full = full_.data();
    std::memcpy(full + at[r], spec.data(), size_t(counts[r]) * sizeof(double));
    for (int s = 0; s + 1 < P; ++s) {
      const int sb = (r - s + P) % P, rb = (r - s - 1 + P) % P;
      MPI_Sendrecv(full + at[sb], counts[sb], MPI_DOUBLE, right, 72, full + at[rb], counts[rb], MPI_DOUBLE, left, 72,
                   comm_, MPI_STATUS_IGNORE);
      stats_.comm_bytes += (long long)counts[sb] * 8;
    }
  }
  static std::vector<size_t> offsets(const std::vector<int>& counts) {
    std::vector<size_t> at(counts.size() + 1, 0);
    for (size_t b = 0; b < counts.size(); ++b) at[b + 1] = at[b] + counts[b];
    return at;
  }
  std::vector<double> recv_;
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
