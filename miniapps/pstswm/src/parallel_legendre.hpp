// PSTSWM's parallel Legendre transform algorithms (LTOPT), one interface chosen at run time by create():
//   serial       one rank: the Legendre transform over every latitude and wavenumber, no communication
//   transpose    alltoallv from the latitude to the wavenumber decomposition (common/comm/transpose.hpp), a
//                serial Legendre transform over all latitudes, and back for the inverse (transpose_legendre.cpp)
//   distributed  latitudes stay in place; the local partial sums of the forward transform are combined by
//                MPI_Allreduce (spectral state replicated, the inverse needs no communication), MPI_Reduce_scatter
//                (state split by wavenumber, the inverse starts with an allgather) or PSTSWM's ring pipeline
//                (P-1 neighbour steps of reduce-scatter, and of allgather) (distributed_legendre.cpp)
// Every algorithm reads (forward) and writes (inverse) the Fourier halves at this rank's latitude pairs (the caller's
// array: one for both directions, or two where the grid-point phase runs between them), and
// writes (forward) and reads (inverse) the spectral state in its state_layout(), all on the default execution
// space; MPI gets host copies of what it sends and receives, or the device data itself with comm.gpu_aware
// (comm/mpi_buffer.hpp).
#pragma once
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "decomposition.hpp"
#include "legendre_transform.hpp"
#include "proxylab/timers.hpp"
#include "transform_options.hpp"

namespace proxylab::pstswm {

// The even (north + south) and odd (north - south) Fourier halves of a block of latitude pairs, in one array on the
// default execution space (even, then odd from element `odd` on): each flat [m][pair][col],
// col = 2 (field L + level) + (re, im).
struct FourierHalves {
  FourierHalves() = default;
  FourierHalves(const std::string& label, size_t half) : data(label, 2 * half), odd(half) {}
  double* even_data() const { return data.data(); }
  double* odd_data() const { return data.data() + odd; }
  View1D<double> data;
  size_t odd = 0;
};

// The Fourier halves at this rank's latitude pairs, sized for max_transform_fields fields.
FourierHalves local_halves(const std::string& label, const TransformOptions& options, const Decomposition& d);

// What every algorithm is built from. mu: the northern sines of latitude of all pairs (GaussGrid::mu).
struct LegendreSetup {
  const TransformOptions& options;
  const Decomposition& decomposition;
  const std::vector<double>& mu;
  MPI_Comm comm;
  Timers& timers;
  TransformStats& stats;
};

class ParallelLegendre {
 public:
  // The algorithm of options.algorithm and options.combine (serial at one rank).
  static std::unique_ptr<ParallelLegendre> create(const LegendreSetup& setup);
  virtual ~ParallelLegendre() = default;

  // Fourier halves (local_halves()) of nfields fields -> spectral state (flat [row of state_layout()][field][level]
  // [re, im]).
  virtual void forward(const FourierHalves& local, int nfields, const View1D<double>& spec) = 0;
  // Spectral state -> Fourier halves.
  virtual void inverse(const View1D<double>& spec, int nfields, const FourierHalves& local) = 0;

  // The rows of the spectral state on this rank: its own wavenumbers, or all of them where the state is replicated.
  const SpectralLayout& state_layout() const { return state_layout_; }

 protected:
  // The transform sums over the pairs of mu_pairs into the rows of lt_layout.
  ParallelLegendre(const LegendreSetup& setup, const SpectralLayout& lt_layout, const std::vector<double>& mu_pairs,
                   const SpectralLayout& state_layout);
  // The serial Legendre transform, timed as "legendre" and counted in the stats.
  void transform_forward(const FourierHalves& halves, int nfields, const View1D<double>& spec);
  void transform_inverse(const View1D<double>& spec, int nfields, const FourierHalves& halves);
  // The combine and exchange steps, timed as "comm".
  Timers::Scope comm_scope() { return timers_.scope("comm", Category::communication); }
  int columns(int nfields) const { return nfields * 2 * levels_; }
  // The northern sines of latitude of a block of pairs.
  static std::vector<double> pairs_mu(const LegendreSetup& setup, const BlockRange& pairs);

  Decomposition decomp_;
  MPI_Comm comm_;
  TransformStats& stats_;

 private:
  Timers& timers_;
  int levels_;
  LegendreTransform lt_;
  SpectralLayout state_layout_;
};

// The algorithms, one file each (create() chooses).
std::unique_ptr<ParallelLegendre> make_serial_legendre(const LegendreSetup& setup);
std::unique_ptr<ParallelLegendre> make_transpose_legendre(const LegendreSetup& setup);
std::unique_ptr<ParallelLegendre> make_distributed_legendre(const LegendreSetup& setup);

}  // namespace proxylab::pstswm
