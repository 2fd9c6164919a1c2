// Collective probes, each on communicators of several sizes (consecutive blocks of ranks, all
// blocks at once: the seeds' "vs job size" axis).
//   alltoall   every strategy of common/comm/transpose.hpp over bytes per rank pair (the seeds'
//              MPI_Alltoall vs job size and message length; CASTEP's SHM all-to-all)
//   allreduce  every strategy of common/comm/reduce.hpp, 1 and more words (POP's global sums), and
//              MPI_Barrier (SYNCH1: barrier time vs number of processes)
#include <memory>

#include "probes.hpp"
#include "proxylab/comm/reduce.hpp"
#include "proxylab/comm/transpose.hpp"

namespace proxylab::comm {
namespace {

// Exact (integer-valued) double carried from `src` to `dst` at position k in repetition rep.
double block_value(int src, int dst, int rep, int k) {
  return ((static_cast<double>(src) * 4096 + dst) * 64 + rep % 64) * 1048576.0 + k % 1048576;
}

struct Group {
  MPI_Comm comm;
  int rank, size;
  explicit Group(MPI_Comm world, int g) : comm(split_groups(world, g)) {
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
  }
  ~Group() { MPI_Comm_free(&comm); }
};

}  // namespace

void probe_alltoall(RunContext& ctx, const Settings& s) {
  ResultTable table(ctx, "alltoall",
                    "alltoall: ranks in blocks of `group`, all blocks at once; bytes = per rank pair; GB/s = bytes "
                    "sent to other ranks per rank / time",
                    {"strategy", "group", "bytes", "reps", "t_min_us", "t_med_us", "t_max_us", "gbs_rank_med"});
  long long wrong = 0, checked = 0;
  for (int g : s.group_sizes) {
    if (g == 1 && s.group_sizes.size() > 1) continue;  // a one-rank all-to-all is a local copy
    Group grp(ctx.comm, g);
    for (const auto& name : s.transpose_strategies) {
      auto tr = Transpose::create(parse_transpose_strategy(name), grp.comm);
      for (long long bytes : s.alltoall_sizes) {
        const int n = static_cast<int>(std::max(1LL, bytes / 8)), reps = repetitions_for(8LL * n * g, s.repetitions);
        const int total = s.warmup + reps;
        std::vector<int> counts(grp.size, n), displs(grp.size);
        for (int r = 0; r < grp.size; ++r) displs[r] = r * n;
        std::vector<double> send(static_cast<size_t>(n) * grp.size), recv(send.size()), t(total, 0.0);
        for (int rep = 0; rep < total; ++rep) {
          for (int r = 0; r < grp.size; ++r)
            for (int k = 0; k < n; ++k) send[displs[r] + k] = block_value(grp.rank, r, rep, k);
          std::fill(recv.begin(), recv.end(), -1.0);
          start_repetition(ctx);
          const double t0 = MPI_Wtime();
          tr->exchange(send.data(), counts, displs, recv.data(), counts, displs);
          t[rep] = MPI_Wtime() - t0;
          for (int r = 0; r < grp.size; ++r)
            for (int k = 0; k < n; ++k) wrong += recv[displs[r] + k] != block_value(r, grp.rank, rep, k);
          checked += static_cast<long long>(n) * grp.size;
        }
        const Stats st = reduce_times(ctx.comm, t, s.warmup);
        const double bw = st.median > 0 ? 8.0 * n * (grp.size - 1) / st.median * 1e-9 : 0.0;
        table.row({name, g, 8LL * n, reps, st.min * 1e6, st.median * 1e6, st.max * 1e6, bw});
      }
    }
  }
  check_payloads(ctx, "alltoall", wrong, checked);
}

void probe_allreduce(RunContext& ctx, const Settings& s) {
  ResultTable table(ctx, "allreduce",
                    "allreduce / barrier: latency per call vs group size (SYNCH1); sums of (rank+1)*(word+1)+1/8 "
                    "checked exactly",
                    {"operation", "group", "words", "reps", "t_min_us", "t_med_us", "t_max_us"});
  long long wrong = 0, checked = 0;
  const int total = s.warmup + s.repetitions;
  for (int g : s.group_sizes) {
    Group grp(ctx.comm, g);
    for (const auto& name : s.reduce_strategies) {
      GlobalSum gsum(parse_reduce_strategy(name), grp.comm);
      for (int words : s.words) {
        std::vector<double> t(total, 0.0), v(words);
        for (int rep = 0; rep < total; ++rep) {
          for (int k = 0; k < words; ++k) v[k] = (grp.rank + 1.0) * (k + 1 + rep % 3) + 0.125;
          start_repetition(ctx);
          const double t0 = MPI_Wtime();
          gsum.sum(v.data(), words);
          t[rep] = MPI_Wtime() - t0;
          for (int k = 0; k < words; ++k)
            wrong += v[k] != 0.5 * grp.size * (grp.size + 1.0) * (k + 1 + rep % 3) + 0.125 * grp.size;
          checked += words;
        }
        const Stats st = reduce_times(ctx.comm, t, s.warmup);
        table.row({name, g, words, s.repetitions, st.min * 1e6, st.median * 1e6, st.max * 1e6});
      }
    }
    // SYNCH1: a sequence of 10 barriers per repetition, time per barrier.
    std::vector<double> t(total, 0.0);
    for (int rep = 0; rep < total; ++rep) {
      start_repetition(ctx);
      const double t0 = MPI_Wtime();
      for (int k = 0; k < 10; ++k) MPI_Barrier(grp.comm);
      t[rep] = (MPI_Wtime() - t0) / 10;
    }
    const Stats st = reduce_times(ctx.comm, t, s.warmup);
    table.row({"barrier", g, 0, s.repetitions, st.min * 1e6, st.median * 1e6, st.max * 1e6});
  }
  check_payloads(ctx, "allreduce", wrong, checked);
}

}  // namespace proxylab::comm
