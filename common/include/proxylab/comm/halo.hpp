// Halo (ghost-cell) exchange strategies behind one interface (the seeds' HALO benchmark and POP's
// boundary updates). Fields are 2-D, stored as View3D<double> fields(nfields, ny + 2w, nx + 2w)
// (LayoutRight: x contiguous), interior [w, w + ny) x [w, w + nx). Edges and corners are exchanged
// with the eight neighbours of a ProcessGrid (corners matter for 9-point stencils); off a
// non-periodic edge the ghosts are left untouched (the app applies its own boundary condition).
//
//   packed      pack edges into buffers (Kokkos kernels), MPI_Isend/Irecv all, unpack
//   sendrecv    MPI_Sendrecv per direction, in two phases (x then y, corners ride along with y)
//   persistent  MPI_Send_init/Recv_init once, MPI_Startall/Waitall each exchange (packed buffers)
//   datatype    MPI derived (subarray) types straight from the field, no packing
//   rma         one-sided MPI_Put of packed edges into the neighbours' windows, MPI_Win_fence
//               (the SHMEM / Co-Array Fortran analogue)
// With device fields the packed buffers are MPIBuffers (comm/mpi_buffer.hpp): staged through host memory, or handed
// to a GPU-aware MPI with comm.gpu_aware (packed, sendrecv, persistent; rma's window and datatype's subarrays of the
// field stay in host memory: MPI_Win_create and derived types over device memory are where GPU-aware MPIs differ).
// A direction in which the rank is its own neighbour (periodic, one rank that way) is, for packed, persistent and
// rma, one copy kernel between the field's interior and ghosts where the field lives: no buffer, no MPI, no wait.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "proxylab/comm/grid.hpp"
#include "proxylab/comm/options.hpp"
#include "proxylab/layout.hpp"
#include "proxylab/named_choice.hpp"

namespace proxylab {

enum class HaloStrategy { packed, sendrecv, persistent, datatype, rma };
PROXYLAB_CHOICE_NAMES(HaloStrategy, "halo strategy", "packed", "sendrecv", "persistent", "datatype", "rma");
inline const std::vector<std::string>& halo_strategy_names() { return choice_names<HaloStrategy>(); }
inline HaloStrategy parse_halo_strategy(const std::string& name) { return parse_choice<HaloStrategy>(name); }

class HaloExchange {
 public:
  // nx, ny: interior size of this rank's block; width: ghost width w (>= 1, <= nx and ny);
  // nfields: extent(0) of the views passed to exchange(); comm: what MPI is given (comm/options.hpp). Collective
  // over grid.comm().
  static std::unique_ptr<HaloExchange> create(HaloStrategy s, const ProcessGrid& grid, int nx, int ny, int width,
                                              int nfields, CommOptions comm);
  virtual ~HaloExchange() = default;

  // Blocking exchange of every field. Collective among neighbours (every rank must call it).
  virtual void exchange(const View3D<double>& fields) = 0;
  // One field stored as View2D(ny + 2w, nx + 2w); requires nfields == 1.
  void exchange(const View2D<double>& field);

  HaloStrategy strategy() const { return strategy_; }
  int width() const { return w_; }
  long long bytes_per_exchange() const { return bytes_; }  // sent by this rank
  int messages_per_exchange() const { return messages_; }  // sent by this rank

 protected:
  HaloExchange(HaloStrategy s, const ProcessGrid& grid, int nx, int ny, int w, int nfields);
  HaloStrategy strategy_;
  ProcessGrid grid_;  // a copy: communicators are shared handles, so a temporary grid cannot dangle
  int nx_, ny_, w_, nfields_;
  long long bytes_ = 0;
  int messages_ = 0;
};

}  // namespace proxylab
