// All-to-all strategies (see comm/transpose.hpp). Every strategy reproduces MPI_Alltoallv exactly,
// for any counts (zero included) and displacements.
#include "proxylab/comm/transpose.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "proxylab/comm/grid.hpp"
#include "proxylab/errors.hpp"

namespace proxylab {

const std::vector<std::string>& transpose_strategy_names() {
  static const std::vector<std::string> names{"alltoall", "alltoallv", "pairwise", "nonblocking", "node_aware"};
  return names;
}

TransposeStrategy parse_transpose_strategy(const std::string& name) {
  const auto& names = transpose_strategy_names();
  for (size_t k = 0; k < names.size(); ++k)
    if (names[k] == name) return static_cast<TransposeStrategy>(k);
  throw InputError("transpose strategy '" + name +
                   "' is unknown; allowed: alltoall, alltoallv, pairwise, nonblocking, node_aware");
}

const char* to_string(TransposeStrategy s) { return transpose_strategy_names()[static_cast<int>(s)].c_str(); }

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

// Node-aware (the seed's CASTEP "SHM" all-to-all): the ranks of a node hand their data to the node
// leader, the leaders run one MPI_Alltoallv among themselves (fewer, larger messages on the network)
// and hand the received data back. Node-local traffic goes through MPI_Gatherv / MPI_Scatterv on
// the node communicator (shared memory inside MPICH).
class NodeAwareTranspose : public Transpose {
 public:
  NodeAwareTranspose(MPI_Comm comm, int ranks_per_node) : Transpose(TransposeStrategy::node_aware, comm) {
    const int me = comm_rank(comm), p = comm_size(comm);
    MPI_Comm node, leaders;
    if (ranks_per_node > 0)
      MPI_Comm_split(comm, me / ranks_per_node, me, &node);
    else
      MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &node);
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

  void exchange(const double* send, const int* sc, const int* sd, double* recv, const int* rc, const int* rd) override {
    count(sc);
    const int p = comm_size(comm_), nloc = static_cast<int>(local_.size());
    // 1. My data in (node, member) order, and my counts, to the leader.
    mine_.clear();
    for (const auto& m : members_)
      for (int dst : m) mine_.insert(mine_.end(), send + sd[dst], send + sd[dst] + sc[dst]);
    std::vector<int> my_counts(sc, sc + p);
    my_counts.insert(my_counts.end(), rc, rc + p);
    const bool leader = node_rank_ == 0;
    counts_.resize(leader ? static_cast<size_t>(2) * p * nloc : 0);
    MPI_Gather(my_counts.data(), 2 * p, MPI_INT, counts_.data(), 2 * p, MPI_INT, 0, *node_);
    std::vector<int> gcount(nloc, 0), gdispl(nloc + 1, 0), scount(nloc, 0), sdispl(nloc + 1, 0);
    if (leader)
      for (int l = 0; l < nloc; ++l) {
        for (int r = 0; r < p; ++r) gcount[l] += sent(l, r), scount[l] += got(l, r);
        gdispl[l + 1] = gdispl[l] + gcount[l];
        sdispl[l + 1] = sdispl[l] + scount[l];
      }
    gathered_.resize(gdispl[nloc]);
    MPI_Gatherv(mine_.data(), static_cast<int>(mine_.size()), MPI_DOUBLE, gathered_.data(), gcount.data(),
                gdispl.data(), MPI_DOUBLE, 0, *node_);
    // 2. Leaders exchange node-to-node blocks: [local source][destination member] for each node.
    if (leader) leader_exchange(gdispl, sdispl);
    // 3. Every rank gets its data back in source-rank order.
    int total = 0;
    for (int r = 0; r < p; ++r) total += rc[r];
    mine_.resize(total);
    MPI_Scatterv(scattered_.data(), scount.data(), sdispl.data(), MPI_DOUBLE, mine_.data(), total, MPI_DOUBLE, 0,
                 *node_);
    for (int src = 0, at = 0; src < p; at += rc[src], ++src) copy_doubles(recv + rd[src], mine_.data() + at, rc[src]);
  }

 private:
  int sent(int l, int r) const { return counts_[static_cast<size_t>(2 * l) * comm_size(comm_) + r]; }
  int got(int l, int r) const { return counts_[static_cast<size_t>(2 * l + 1) * comm_size(comm_) + r]; }

  void leader_exchange(const std::vector<int>& gdispl, const std::vector<int>& sdispl) {
    const int nodes = static_cast<int>(members_.size()), nloc = static_cast<int>(local_.size());
    std::vector<int> lsc(nodes, 0), lsd(nodes + 1, 0), lrc(nodes, 0), lrd(nodes + 1, 0);
    std::vector<int> cursor(gdispl.begin(), gdispl.end() - 1);  // walks each source's (node, member) order
    outgoing_.clear();
    for (int m = 0; m < nodes; ++m) {
      for (int l = 0; l < nloc; ++l)
        for (int dst : members_[m]) {
          const int n = sent(l, dst);
          outgoing_.insert(outgoing_.end(), gathered_.begin() + cursor[l], gathered_.begin() + cursor[l] + n);
          cursor[l] += n, lsc[m] += n;
        }
      for (int src : members_[m])
        for (int l = 0; l < nloc; ++l) lrc[m] += got(l, src);
      lsd[m + 1] = lsd[m] + lsc[m];
      lrd[m + 1] = lrd[m] + lrc[m];
    }
    incoming_.resize(lrd[nodes]);
    MPI_Alltoallv(outgoing_.data(), lsc.data(), lsd.data(), MPI_DOUBLE, incoming_.data(), lrc.data(), lrd.data(),
                  MPI_DOUBLE, *leaders_);
    // Reorder [node][source member][local destination] into [local destination][source rank].
    const int p = comm_size(comm_);
    std::vector<int> start(static_cast<size_t>(nloc) * p);
    for (int l = 0; l < nloc; ++l)
      for (int src = 0, at = sdispl[l]; src < p; at += got(l, src), ++src) start[static_cast<size_t>(l) * p + src] = at;
    scattered_.resize(sdispl[nloc]);
    int at = 0;
    for (int m = 0; m < nodes; ++m)
      for (int src : members_[m])
        for (int l = 0; l < nloc; ++l) {
          const int n = got(l, src);
          copy_doubles(scattered_.data() + start[static_cast<size_t>(l) * p + src], incoming_.data() + at, n);
          at += n;
        }
  }

  CommHandle node_, leaders_;
  int node_rank_ = 0;
  std::vector<std::vector<int>> members_;  // members_[node][node rank] = rank in comm
  std::vector<int> local_;                 // members of my node
  std::vector<int> counts_;                // leader: [local rank][send counts | recv counts]
  std::vector<double> mine_, gathered_, outgoing_, incoming_, scattered_;
};

}  // namespace

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
