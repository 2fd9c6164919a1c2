// Spectral transforms between the Gaussian grid and the triangular spectral space, in parallel over
// latitude (PSTSWM's 1-D decomposition): real FFTs over longitude (batched over fields, latitudes and
// levels), then the Legendre transform by one of PSTSWM's two parallel algorithms:
//   transpose    alltoallv from latitude to wavenumber decomposition (common/comm/transpose.hpp),
//                a serial Legendre transform over all latitudes, and back for the inverse;
//   distributed  latitudes stay in place: local partial sums of the forward transform are combined
//                by MPI_Allreduce (spectral state replicated, inverse needs no communication) or by
//                MPI_Reduce_scatter (spectral state split by wavenumber, inverse starts with allgather),
//                or PSTSWM's ring pipeline (P-1 neighbour steps of reduce-scatter, and of allgather).
// Grid fields: flat [field][local latitude][level][longitude], local latitude 2*pair + (0 north, 1 south).
// Spectral fields: flat [row of state_layout()][field][level][re, im].
#pragma once
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "decomposition.hpp"
#include "gauss.hpp"
#include "legendre_transform.hpp"
#include "proxylab/comm/transpose.hpp"
#include "proxylab/fft.hpp"
#include "proxylab/timers.hpp"

namespace proxylab::pstswm {

enum class Algorithm { transpose, distributed };
PROXYLAB_CHOICE_NAMES(Algorithm, "parallel algorithm", "transpose", "distributed");
enum class Combine { allreduce, reduce_scatter, ring };
PROXYLAB_CHOICE_NAMES(Combine, "combine", "allreduce", "reduce_scatter", "ring");
struct FoldKernel;  // spherical_transform.cpp

struct TransformOptions {
  int ntrunc = 42, nlat = 64, nlon = 128, levels = 1;
  LTVariant lt = LTVariant::gemm;
  bool fixed_levels = false;
  bool fuse_fold = true;  // FFT and fold per (latitude pair, field) in cache; false: two passes over all rows
  FFTPlanning fft_planning = FFTPlanning::estimate;  // FFTW_ESTIMATE (bitwise reproducible runs) or FFTW_MEASURE
  Algorithm algorithm = Algorithm::transpose;
  Combine combine = Combine::allreduce;
  TransposeStrategy strategy = TransposeStrategy::alltoallv;
};

struct TransformStats {
  double fft_flops = 0, lt_flops = 0, lt_bytes = 0;  // this rank
  long long comm_bytes = 0, comm_calls = 0;
  double copy_bytes = 0;           // the transposes' packing and unpacking of the other ranks' blocks (read + write)
  long long field_transforms = 0;  // 2-D transforms of one field at one level (all ranks together), either way
};

class SphericalTransform {
 public:
  static constexpr int max_fields = 5;
  SphericalTransform(const TransformOptions& opt, MPI_Comm comm, Timers& timers);

  // scaled[f]: divide field f by a(1 - μ²) (the U, V -> vorticity/divergence integrals).
  void forward(const View1D<double>& grid, int nfields, const std::vector<bool>& scaled, const View1D<double>& spec);
  void inverse(const View1D<double>& spec, int nfields, const View1D<double>& grid);

  const TransformOptions& options() const { return opt_; }
  const Decomposition& decomposition() const { return decomp_; }
  const SpectralLayout& state_layout() const { return state_layout_; }
  int local_lats() const { return 2 * decomp_.my_pairs().size(); }
  double mu(int jloc) const { return mu_loc_[jloc]; }     // sin(latitude) of a local latitude
  double weight(int jloc) const { return w_loc_[jloc]; }  // its Gaussian weight
  size_t grid_size(int nfields) const { return size_t(nfields) * local_lats() * opt_.levels * opt_.nlon; }
  size_t spec_size(int nfields) const { return size_t(state_layout_.rows) * nfields * 2 * opt_.levels; }
  const TransformStats& stats() const { return stats_; }
  MPI_Comm comm() const { return comm_; }

  // The FFT + fold stages. Public only because they hold KOKKOS_LAMBDAs, which nvcc rejects in private or
  // protected member functions; not meant to be called from outside.
  void fft_fold(const View1D<double>& grid, int nfields, const std::vector<bool>& scaled);
  void unfold_fft(int nfields, const View1D<double>& grid);

 private:
  FoldKernel fold_kernel(int nfields, const std::vector<bool>* scaled) const;
  template <class Body>
  void for_each_pair_field(int nfields, size_t doubles, const Body& body) const;
  enum class Toward { wavenumbers, latitudes };  // the decomposition a transpose exchange goes to
  void exchange(int ncol, Toward toward);
  std::vector<int> block_counts(int ncol) const;  // doubles of each rank's wavenumbers
  void ring_reduce_scatter(int ncol, const View1D<double>& spec);
  void ring_allgather(int ncol, const View1D<double>& spec);
  void count_legendre(int nfields) {
    stats_.lt_flops += lt_->flops(nfields);
    stats_.lt_bytes += lt_->bytes(nfields);
  }

  TransformOptions opt_;
  MPI_Comm comm_;
  Timers& timers_;
  Decomposition decomp_;
  GaussGrid gauss_;
  std::vector<double> mu_loc_, w_loc_;
  SpectralLayout lt_layout_, state_layout_, full_layout_;
  std::unique_ptr<LegendreTransform> lt_;
  std::unique_ptr<Transpose> transpose_;
  // Host memory: FFTW writes four_, BLAS (the LT) reads and writes the Fourier halves, memcpy and MPI move them.
  HostView<double*> four_;           // unfused: [field][jloc][level][2 (nlon/2+1)]
  HostView<double*> e_loc_, o_loc_;  // [concat m][local pair][col]
  HostView<double*> e_lt_, o_lt_;    // transpose: [owned m][global pair][col]
  HostView<double*> spec_full_;      // distributed: [concat rows][col]
  HostView<int*> concat_ms_;
  HostView<double*> fold_scale_;  // [vector?][local pair]: w / nlon (/ a(1-μ²))
  std::vector<double> send_, recv_;
  TransformStats stats_;
};

}  // namespace proxylab::pstswm
