// All-to-all (transpose) strategies behind one interface: the data motion of distributed FFTs
// (CASTEP, fft3d), of PSTSWM's transpose Legendre transform and of EVH1's sweeps.
//
//   alltoall     MPI_Alltoall with every block padded to the largest count
//   alltoallv    MPI_Alltoallv (the reference)
//   pairwise     size-1 rounds of MPI_Sendrecv with partner rank ^ round (or (rank + round) % size)
//   nonblocking  MPI_Irecv / MPI_Isend to every rank, one MPI_Waitall
//   node_aware   gather to the node leader (shared memory), one alltoallv among leaders, scatter back
//                (CASTEP's "SHM" optimisation, seed 002)
//
// Buffers are contiguous doubles (pass complex data as 2 doubles per value), in the layout of
// MPI_Alltoallv: counts and displacements in elements, per rank of `comm`.
#pragma once
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "proxylab/comm/options.hpp"
#include "proxylab/named_choice.hpp"

namespace proxylab {

enum class TransposeStrategy { alltoall, alltoallv, pairwise, nonblocking, node_aware };
PROXYLAB_CHOICE_NAMES(TransposeStrategy, "transpose strategy", "alltoall", "alltoallv", "pairwise", "nonblocking",
                      "node_aware");
inline const std::vector<std::string>& transpose_strategy_names() { return choice_names<TransposeStrategy>(); }
inline TransposeStrategy parse_transpose_strategy(const std::string& name) {
  return parse_choice<TransposeStrategy>(name);
}

class Transpose {
 public:
  // Collective over comm (node_aware builds its node and leader communicators here).
  static std::unique_ptr<Transpose> create(TransposeStrategy s, MPI_Comm comm);
  // node_aware with "nodes" emulated as blocks of `ranks_per_node` consecutive ranks of comm (tests of
  // the multi-leader path on one machine, studies of the leader count); 0 = the real shared-memory nodes.
  static std::unique_ptr<Transpose> create_node_aware(MPI_Comm comm, int ranks_per_node);
  virtual ~Transpose() = default;
  // Whether the strategy hands the buffers only to MPI calls, so that they may be device memory given to a
  // GPU-aware MPI (alltoallv, nonblocking); the others copy blocks with host memcpy or through shared memory.
  static bool takes_device_memory(TransposeStrategy s) {
    return s == TransposeStrategy::alltoallv || s == TransposeStrategy::nonblocking;
  }
  // InputError naming the deck key where MPI would be handed device memory (comm.gpu_aware on a device back end)
  // and strategy s cannot take it.
  static void require_reachable(TransposeStrategy s, CommOptions comm, const std::string& key);

  // Collective: rank r receives sendcounts[r] doubles from send + sdispls[r] of every rank, stored
  // at recv + rdispls[src]. recvcounts[src] must equal what src sends here (as MPI_Alltoallv).
  virtual void exchange(const double* send, const int* sendcounts, const int* sdispls, double* recv,
                        const int* recvcounts, const int* rdispls) = 0;
  // Same with std::vectors.
  void exchange(const double* send, const std::vector<int>& sendcounts, const std::vector<int>& sdispls, double* recv,
                const std::vector<int>& recvcounts, const std::vector<int>& rdispls) {
    exchange(send, sendcounts.data(), sdispls.data(), recv, recvcounts.data(), rdispls.data());
  }

  TransposeStrategy strategy() const { return strategy_; }
  MPI_Comm comm() const { return comm_; }
  long long bytes_sent() const { return bytes_sent_; }  // by this rank, all calls, excluding padding
  long long calls() const { return calls_; }

 protected:
  Transpose(TransposeStrategy s, MPI_Comm comm) : strategy_(s), comm_(comm) {}
  void count(const int* sendcounts);  // adds to bytes_sent_ and calls_
  TransposeStrategy strategy_;
  MPI_Comm comm_;
  long long bytes_sent_ = 0, calls_ = 0;
};

}  // namespace proxylab
