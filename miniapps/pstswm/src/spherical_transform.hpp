// Spectral transforms between the Gaussian grid and the triangular spectral space, in parallel over
// latitude (PSTSWM's 1-D decomposition): real FFTs over longitude (batched over fields, latitudes and
// levels) and the fold into even / odd Fourier halves, then the Legendre transform by one of PSTSWM's parallel
// algorithms (parallel_legendre.hpp: transpose, or distributed with allreduce, reduce_scatter or ring).
// Grid fields: flat [field][local latitude][level][longitude], local latitude 2*pair + (0 north, 1 south).
// Spectral fields: flat [row of state_layout()][field][level][re, im]. Everything on the default execution space
// (FFTW on a host, cuFFT through kokkos-fft on a GPU: common/fft.hpp).
#pragma once
#include <mpi.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "decomposition.hpp"
#include "gauss.hpp"
#include "parallel_legendre.hpp"
#include "proxylab/fft.hpp"
#include "proxylab/timers.hpp"
#include "transform_options.hpp"

namespace proxylab::pstswm {

struct FoldKernel;  // fold.hpp

// The fused path's distance between a latitude pair's Fourier rows in its buffer, in doubles: an even number of
// complex values, so that every row is aligned as the first (the memory estimate counts the buffers with it).
int fused_row_distance(int nlon);
// The latitude loop's packed rows: nlon complex values north + i south per level, one every packed_row_distance
// complex values (64 bytes more than a row: at a power-of-two nlon the rows would be a multiple of 4 KiB apart, and a
// wavenumber's values of every level and field would share one set of the L1 cache); one field's L rows of a pair in
// doubles (its spectra take as many).
int packed_row_distance(int nlon);
size_t packed_field_doubles(const TransformOptions& opt);

class SphericalTransform {
 public:
  // The Gauss grid of opt.nlat latitudes computed here, or given: the driver computes it as a set-up phase of its
  // own with a stop check after it (O(nlat^2): minutes at grid.nlat = 100000).
  SphericalTransform(const TransformOptions& opt, MPI_Comm comm, Timers& timers);
  SphericalTransform(const TransformOptions& opt, GaussGrid gauss, MPI_Comm comm, Timers& timers);

  // scaled[f]: divide field f by a(1 - μ²) (the U, V -> vorticity/divergence integrals).
  void forward(const View1D<double>& grid, int nfields, const std::vector<bool>& scaled, const View1D<double>& spec);
  void inverse(const View1D<double>& spec, int nfields, const View1D<double>& grid);

  // The latitude loop (transform.fuse_grid_point, host back ends): the inverse transform of nin fields of
  // spec_in and the forward transform of nout fields into spec_out, with grid_point(pair, rows) between them, per
  // local latitude pair in parallel while its rows are in cache. rows: the pair's grid packed,
  // [field][level][longitude][north, south] (fields packed_field_doubles apart, levels packed_row_distance complex
  // values), nin fields on entry, to be replaced by nout (at most max_transform_fields each).
  using PairKernel = std::function<void(int pair, double* rows)>;
  void through_grid(const View1D<double>& spec_in, int nin, const PairKernel& grid_point, int nout,
                    const std::vector<bool>& scaled, const View1D<double>& spec_out);

  const TransformOptions& options() const { return opt_; }
  const Decomposition& decomposition() const { return decomp_; }
  const SpectralLayout& state_layout() const { return legendre_->state_layout(); }
  int local_lats() const { return 2 * decomp_.my_pairs().size(); }
  double mu(int jloc) const { return mu_loc_[jloc]; }     // sin(latitude) of a local latitude
  double weight(int jloc) const { return w_loc_[jloc]; }  // its Gaussian weight
  size_t grid_size(int nfields) const { return size_t(nfields) * local_lats() * opt_.levels * opt_.nlon; }
  size_t spec_size(int nfields) const { return size_t(state_layout().rows) * nfields * 2 * opt_.levels; }
  const TransformStats& stats() const { return stats_; }
  MPI_Comm comm() const { return comm_; }

  // The FFT + fold stages. Public only because they hold KOKKOS_LAMBDAs, which nvcc rejects in private or
  // protected member functions; not meant to be called from outside.
  void fft_fold(const View1D<double>& grid, int nfields, const std::vector<bool>& scaled);
  void unfold_fft(int nfields, const View1D<double>& grid);

 private:
  void plan_fused_ffts() const;
  FoldKernel fold_kernel(const FourierHalves& halves, int nfields, const std::vector<bool>* scaled) const;
  void latitude_loop(int nin, const PairKernel& grid_point, int nout, const std::vector<bool>& scaled);
  FFTLines<ExecSpace, Kokkos::complex<double>> fourier_lines(long long count) const;
  // The fused FFT and fold (host back ends): per latitude pair in parallel, body(pair, buffer of `doubles`).
  template <class Body>
  void for_each_pair(size_t doubles, const Body& body) const;
  TransformOptions opt_;
  MPI_Comm comm_;
  Timers& timers_;
  Decomposition decomp_;
  GaussGrid gauss_;
  std::vector<double> mu_loc_, w_loc_;
  View1D<double> four_;   // unfused: [field][jloc][level][2 (nlon/2+1)]
  FourierHalves halves_;  // at this rank's pairs, folded from the FFTs' output
  // through_grid's inverse halves, read by the latitude loop while it writes halves_ (empty without it)
  FourierHalves inverse_halves_;
  View1D<int> concat_ms_;
  View1D<int> mi_of_m_;        // the index of wavenumber m in the halves (the inverse of concat_ms_)
  View1D<double> fold_scale_;  // [vector?][local pair]: w / nlon (/ a(1-μ²))
  TransformStats stats_;
  std::unique_ptr<ParallelLegendre> legendre_;
};

}  // namespace proxylab::pstswm
