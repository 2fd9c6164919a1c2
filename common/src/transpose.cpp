// All-to-all strategies (see comm/transpose.hpp). Every strategy reproduces MPI_Alltoallv exactly,
// for any counts (zero included) and displacements.
#include "proxylab/comm/transpose.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "proxylab/comm/grid.hpp"
#include "proxylab/errors.hpp"

namespace proxylab {

void Transpose::count(const int* sendcounts) {
  int size = 1;
  MPI_Comm_size(comm_, &size);
  long long n = 0;
  for (int r = 0; r < size; ++r) n += sendcounts[r];
  bytes_sent_ += n * static_cast<long long>(sizeof(double));
  calls_ += 1;
}

namespace {

int comm_size(MPI_Comm c) {
  int s = 1;
  MPI_Comm_size(c, &s);
  return s;
}
int comm_rank(MPI_Comm c) {
  int r = 0;
  MPI_Comm_rank(c, &r);
  return r;
}
void copy_doubles(double* to, const double* from, int n) {
  if (n > 0) std::memcpy(to, from, sizeof(double) * static_cast<size_t>(n));
}

// The reference: MPI_Alltoallv itself.
class AlltoallvTranspose : public Transpose {
 public:
  explicit AlltoallvTranspose(MPI_Comm comm) : Transpose(TransposeStrategy::alltoallv, comm) {}
  void exchange(const double* send, const int* sc, const int* sd, double* recv, const int* rc, const int* rd) override {
    count(sc);
    MPI_Alltoallv(send, sc, sd, MPI_DOUBLE, recv, rc, rd, MPI_DOUBLE, comm_);
  }
};

// MPI_Alltoall on blocks padded to the largest count anywhere (found by one MPI_Allreduce).
class PaddedAlltoall : public Transpose {
 public:
  explicit PaddedAlltoall(MPI_Comm comm) : Transpose(TransposeStrategy::alltoall, comm) {}
  void exchange(const double* send, const int* sc, const int* sd, double* recv, const int* rc, const int* rd) override {
    count(sc);
    const int p = comm_size(comm_);
    int block = 0;
    for (int r = 0; r < p; ++r) block = std::max(block, sc[r]);
    MPI_Allreduce(MPI_IN_PLACE, &block, 1, MPI_INT, MPI_MAX, comm_);
    if (block == 0) return;
    sbuf_.resize(static_cast<size_t>(block) * p);
    rbuf_.resize(static_cast<size_t>(block) * p);
    for (int r = 0; r < p; ++r) copy_doubles(&sbuf_[static_cast<size_t>(r) * block], send + sd[r], sc[r]);
    MPI_Alltoall(sbuf_.data(), block, MPI_DOUBLE, rbuf_.data(), block, MPI_DOUBLE, comm_);
    for (int r = 0; r < p; ++r) copy_doubles(recv + rd[r], &rbuf_[static_cast<size_t>(r) * block], rc[r]);
  }

 private:
  std::vector<double> sbuf_, rbuf_;
};

// size rounds of MPI_Sendrecv: in round k send to rank + k, receive from rank - k (round 0: self).
class PairwiseTranspose : public Transpose {
 public:
  explicit PairwiseTranspose(MPI_Comm comm) : Transpose(TransposeStrategy::pairwise, comm) {}
  void exchange(const double* send, const int* sc, const int* sd, double* recv, const int* rc, const int* rd) override {
    count(sc);
    const int p = comm_size(comm_), me = comm_rank(comm_);
    copy_doubles(recv + rd[me], send + sd[me], sc[me]);
    for (int k = 1; k < p; ++k) {
      const int to = (me + k) % p, from = (me - k + p) % p;
      MPI_Sendrecv(send + sd[to], sc[to], MPI_DOUBLE, to, 0, recv + rd[from], rc[from], MPI_DOUBLE, from, 0, comm_,
                   MPI_STATUS_IGNORE);
    }
  }
};

// MPI_Irecv / MPI_Isend to every rank with data, one MPI_Waitall.
class NonblockingTranspose : public Transpose {
 public:
  explicit NonblockingTranspose(MPI_Comm comm) : Transpose(TransposeStrategy::nonblocking, comm) {}
  void exchange(const double* send, const int* sc, const int* sd, double* recv, const int* rc, const int* rd) override {
    count(sc);
    const int p = comm_size(comm_), me = comm_rank(comm_);
    req_.clear();
    for (int k = 0; k < p; ++k) {  // staggered order spreads the load over partners
      const int from = (me - k + p) % p;
      if (rc[from] == 0) continue;
      req_.emplace_back();
      MPI_Irecv(recv + rd[from], rc[from], MPI_DOUBLE, from, 1, comm_, &req_.back());
    }
    for (int k = 0; k < p; ++k) {
      const int to = (me + k) % p;
      if (sc[to] == 0) continue;
      req_.emplace_back();
      MPI_Isend(send + sd[to], sc[to], MPI_DOUBLE, to, 1, comm_, &req_.back());
    }
    MPI_Waitall(static_cast<int>(req_.size()), req_.data(), MPI_STATUSES_IGNORE);
  }

 private:
  std::vector<MPI_Request> req_;
};

// Node-aware (CASTEP's "SHM" all-to-all, seed 002: docs/references.md): the ranks of a node hand their data to the node
// leader, the leaders run one MPI_Alltoallv among themselves (fewer, larger messages between nodes)
// and hand the received data back. The hand-over goes through an MPI shared-memory window
// (MPI_Win_allocate_shared on the node communicator): every rank writes its counts and packed data
// into its own segment, the leader reads all segments in place and writes each rank's result into
// that rank's segment; MPI_Win_sync + node barriers order the steps (the unified memory model).
class NodeAwareTranspose : public Transpose {
 public:
  NodeAwareTranspose(MPI_Comm comm, int ranks_per_node) : Transpose(TransposeStrategy::node_aware, comm) {
    const int me = comm_rank(comm), p = comm_size(comm);
    MPI_Comm shared, node, leaders;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &shared);
    if (ranks_per_node > 0) {  // emulated nodes: blocks of consecutive ranks (inside one shared-memory node)
      MPI_Comm_split(shared, me / ranks_per_node, me, &node);
      MPI_Comm_free(&shared);
    } else {
      node = shared;
    }
    node_ = make_comm_handle(node);
    node_rank_ = comm_rank(node);
    MPI_Comm_split(comm, node_rank_ == 0 ? 0 : MPI_UNDEFINED, me, &leaders);
    leaders_ = make_comm_handle(leaders);
    int node_id = node_rank_ == 0 ? comm_rank(leaders) : 0;
    MPI_Bcast(&node_id, 1, MPI_INT, 0, node);
    std::vector<int> mine{node_id, node_rank_}, all(2 * p);
    MPI_Allgather(mine.data(), 2, MPI_INT, all.data(), 2, MPI_INT, comm);
    int nodes = 0;
    for (int r = 0; r < p; ++r) nodes = std::max(nodes, all[2 * r] + 1);
    members_.assign(nodes, {});
    for (int r = 0; r < p; ++r) {
      auto& m = members_[all[2 * r]];
      if (static_cast<int>(m.size()) <= all[2 * r + 1]) m.resize(all[2 * r + 1] + 1);
      m[all[2 * r + 1]] = r;
    }
    local_ = members_[node_id];
  }
  ~NodeAwareTranspose() override { free_window(); }

  void exchange(const double* send, const int* sc, const int* sd, double* recv, const int* rc, const int* rd) override {
    count(sc);
    const int p = comm_size(comm_);
    long long in = 0, out = 0;
    for (int r = 0; r < p; ++r) {
      in += sc[r];
      out += rc[r];
    }
    reserve(2LL * p + in + out);  // segment: [send counts | recv counts] as doubles, send data, recv data
    // 1. Counts and data, in (node, member) order, into my own segment.
    double* seg = segment_[node_rank_];
    for (int r = 0; r < p; ++r) {
      seg[r] = sc[r];
      seg[p + r] = rc[r];
    }
    double* at = seg + 2 * p;
    for (const auto& m : members_)
      for (int dst : m) copy_doubles(at, send + sd[dst], sc[dst]), at += sc[dst];
    node_sync();
    // 2. The leader exchanges node-to-node blocks and writes every rank's data into its segment.
    if (node_rank_ == 0) leader_exchange();
    node_sync();
    // 3. My data, in source-rank order, after my send data.
    const double* got = seg + 2 * p + in;
    for (int src = 0; src < p; got += rc[src], ++src) copy_doubles(recv + rd[src], got, rc[src]);
  }

 private:
  int sent(int l, int r) const { return static_cast<int>(segment_[l][r]); }
  int got(int l, int r) const { return static_cast<int>(segment_[l][comm_size(comm_) + r]); }
  void node_sync() {
    MPI_Win_sync(win_);
    MPI_Barrier(*node_);
    MPI_Win_sync(win_);
  }

  // Segments of at least `need` doubles on every rank of the node (collective on the node).
  void reserve(long long need) {
    MPI_Allreduce(MPI_IN_PLACE, &need, 1, MPI_LONG_LONG, MPI_MAX, *node_);
    if (need <= capacity_) return;
    free_window();
    capacity_ = std::max(need, 2 * capacity_);
    double* base = nullptr;
    MPI_Win_allocate_shared(MPI_Aint(capacity_) * sizeof(double), sizeof(double), MPI_INFO_NULL, *node_, &base, &win_);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win_);
    segment_.assign(local_.size(), nullptr);
    for (size_t l = 0; l < local_.size(); ++l) {
      MPI_Aint bytes;
      int unit;
      MPI_Win_shared_query(win_, static_cast<int>(l), &bytes, &unit, &segment_[l]);
    }
  }
  void free_window() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (win_ == MPI_WIN_NULL || finalized) return;
    MPI_Win_unlock_all(win_);
    MPI_Win_free(&win_);
  }

  void leader_exchange() {
    const int nodes = static_cast<int>(members_.size()), nloc = static_cast<int>(local_.size());
    const int p = comm_size(comm_);
    std::vector<int> lsc(nodes, 0), lsd(nodes + 1, 0), lrc(nodes, 0), lrd(nodes + 1, 0);
    std::vector<const double*> cursor(nloc);  // walks each member's (node, member) ordered data
    for (int l = 0; l < nloc; ++l) cursor[l] = segment_[l] + 2 * p;
    outgoing_.clear();
    for (int m = 0; m < nodes; ++m) {
      for (int l = 0; l < nloc; ++l)
        for (int dst : members_[m]) {
          const int n = sent(l, dst);
          outgoing_.insert(outgoing_.end(), cursor[l], cursor[l] + n);
          cursor[l] += n;
          lsc[m] += n;
        }
      for (int src : members_[m])
        for (int l = 0; l < nloc; ++l) lrc[m] += got(l, src);
      lsd[m + 1] = lsd[m] + lsc[m];
      lrd[m + 1] = lrd[m] + lrc[m];
    }
    incoming_.resize(lrd[nodes]);
    MPI_Alltoallv(outgoing_.data(), lsc.data(), lsd.data(), MPI_DOUBLE, incoming_.data(), lrc.data(), lrd.data(),
                  MPI_DOUBLE, *leaders_);
    // [node][source member][local destination] -> each destination's segment, in source-rank order.
    std::vector<double*> start(static_cast<size_t>(nloc) * p);
    for (int l = 0; l < nloc; ++l) {
      double* at = segment_[l] + (cursor[l] - segment_[l]);  // after member l's send data
      for (int src = 0; src < p; at += got(l, src), ++src) start[static_cast<size_t>(l) * p + src] = at;
    }
    const double* from = incoming_.data();
    for (int m = 0; m < nodes; ++m)
      for (int src : members_[m])
        for (int l = 0; l < nloc; ++l) {
          const int n = got(l, src);
          copy_doubles(start[static_cast<size_t>(l) * p + src], from, n);
          from += n;
        }
  }

  CommHandle node_, leaders_;
  int node_rank_ = 0;
  std::vector<std::vector<int>> members_;  // members_[node][node rank] = rank in comm
  std::vector<int> local_;                 // members of my node
  MPI_Win win_ = MPI_WIN_NULL;
  long long capacity_ = 0;        // doubles per segment
  std::vector<double*> segment_;  // every node member's segment, mapped here
  std::vector<double> outgoing_, incoming_;
};

}  // namespace

void Transpose::require_reachable(TransposeStrategy s, CommOptions comm, const std::string& key) {
  if (comm.mpi_reads_device_memory() && !takes_device_memory(s))
    throw InputError("key '" + key + "' has value '" + to_string(s) +
                     "' with comm.gpu_aware=true, but that strategy copies blocks in host memory; allowed: alltoallv "
                     "or nonblocking (or comm.gpu_aware=false: buffers staged through host memory)");
}

std::unique_ptr<Transpose> Transpose::create(TransposeStrategy s, MPI_Comm comm) {
  switch (s) {
    case TransposeStrategy::alltoall:
      return std::make_unique<PaddedAlltoall>(comm);
    case TransposeStrategy::alltoallv:
      return std::make_unique<AlltoallvTranspose>(comm);
    case TransposeStrategy::pairwise:
      return std::make_unique<PairwiseTranspose>(comm);
    case TransposeStrategy::nonblocking:
      return std::make_unique<NonblockingTranspose>(comm);
    case TransposeStrategy::node_aware:
      return std::make_unique<NodeAwareTranspose>(comm, 0);
  }
  throw RuntimeError("Transpose::create: unknown strategy");
}

std::unique_ptr<Transpose> Transpose::create_node_aware(MPI_Comm comm, int ranks_per_node) {
  if (ranks_per_node < 0) throw InputError("ranks_per_node " + std::to_string(ranks_per_node) + "; allowed: >= 0");
  return std::make_unique<NodeAwareTranspose>(comm, ranks_per_node);
}

}  // namespace proxylab
