// Point-to-point probes.
//   pingpong  one pair (0, distance): half round-trip latency and bandwidth (COMMS1, HPCC ping-pong)
//   echo      every pair i-(i+distance) at once, ping-pong in each (COMMTEST ECHO, unidirectional)
//   swap      every pair i-(i+distance) at once, MPI_Sendrecv both ways (COMMTEST SWAP, bidirectional)
//   ring      every rank exchanges with its X nearest ring neighbours at once, natural and random
//             order (X = 2: HPCC natural / random ring; X = 4, 8: the coarray benchmark's L4 / R4 ...)
#include <algorithm>
#include <numeric>
#include <random>

#include "probes.hpp"

namespace proxylab::comm {
namespace {

// Partner in the pairs i-(i+d): blocks of 2d ranks, the first half pairs with the second.
// -1 when this rank has no partner or its pair index is >= max_pairs (0 = no limit).
int partner_of(int rank, int size, int d, int max_pairs, int* pair_index) {
  const int block = rank / (2 * d), low = (rank % (2 * d)) < d;
  const int lo = low ? rank : rank - d, hi = lo + d;
  if (hi >= size) return -1;
  *pair_index = block * d + lo % (2 * d);
  if (max_pairs > 0 && *pair_index >= max_pairs) return -1;
  return low ? hi : lo;
}

int count_pairs(int size, int d, int max_pairs) {
  int n = 0, idx = 0;
  for (int r = 0; r < size; ++r)
    if (partner_of(r, size, d, max_pairs, &idx) > r) ++n;
  return n;
}

}  // namespace

void probe_pairs(RunContext& ctx, const Settings& s, const std::string& test) {
  const bool swap = test == "swap";
  const int max_pairs = test == "pingpong" ? 1 : s.pairs;
  int pair = 0;
  const int partner = partner_of(ctx.rank, ctx.size, s.distance, max_pairs, &pair);
  const int npairs = count_pairs(ctx.size, s.distance, max_pairs);
  const bool low = partner > ctx.rank;
  const std::string what = swap ? "bidirectional MPI_Sendrecv" : "ping-pong, time = half round trip";
  ResultTable table(ctx, test,
                    test + ": " + std::to_string(npairs) + " pair(s) i-(i+" + std::to_string(s.distance) + "), " +
                        what + "; GB/s per pair (" + (swap ? "both directions" : "one direction") + ")",
                    {"bytes", "reps", "t_min_us", "t_med_us", "t_max_us", "gbs_pair_med", "gbs_all_med"});
  std::vector<unsigned char> out, in;
  long long wrong = 0, checked = 0;
  for (long long bytes : s.sizes) {
    const int reps = repetitions_for(bytes, s.repetitions), total = s.warmup + reps;
    std::vector<double> t(total, 0.0);
    in.assign(std::max(bytes, 1LL), 0);
    for (int rep = 0; rep < total; ++rep) {
      start_repetition(ctx);
      if (partner < 0) continue;
      fill_payload(out, bytes, ctx.rank, rep);
      const int n = static_cast<int>(bytes), tag = rep % 32768;
      if (swap) {
        const double t0 = MPI_Wtime();
        MPI_Sendrecv(out.data(), n, MPI_BYTE, partner, tag, in.data(), n, MPI_BYTE, partner, tag, ctx.comm,
                     MPI_STATUS_IGNORE);
        t[rep] = MPI_Wtime() - t0;
      } else if (low) {
        const double t0 = MPI_Wtime();
        MPI_Send(out.data(), n, MPI_BYTE, partner, tag, ctx.comm);
        MPI_Recv(in.data(), n, MPI_BYTE, partner, tag, ctx.comm, MPI_STATUS_IGNORE);
        t[rep] = 0.5 * (MPI_Wtime() - t0);
      } else {
        MPI_Recv(in.data(), n, MPI_BYTE, partner, tag, ctx.comm, MPI_STATUS_IGNORE);
        MPI_Send(out.data(), n, MPI_BYTE, partner, tag, ctx.comm);
      }
      wrong += wrong_bytes(in, bytes, partner, rep);
      checked += bytes;
    }
    const Stats st = reduce_times(ctx.comm, t, s.warmup);
    const double moved = swap ? 2.0 * bytes : double(bytes);
    const double bw = st.median > 0 ? moved / st.median * 1e-9 : 0.0;
    table.row({bytes, reps, st.min * 1e6, st.median * 1e6, st.max * 1e6, bw, bw * npairs});
  }
  check_payloads(ctx, test, wrong, checked);
}

void probe_ring(RunContext& ctx, const Settings& s) {
  ResultTable table(ctx, "ring",
                    "ring: every rank exchanges with its X nearest ring neighbours at once (X = 2: HPCC natural / "
                    "random ring; X > 2: the coarray benchmark's LX / RX); GB/s per rank = X x bytes / time",
                    {"order", "partners", "bytes", "reps", "t_min_us", "t_med_us", "t_max_us", "gbs_rank_med"});
  std::vector<int> natural(ctx.size), random(ctx.size);
  std::iota(natural.begin(), natural.end(), 0);
  random = natural;
  std::mt19937 gen(static_cast<unsigned>(s.ring_seed));  // same seed, same permutation on every rank
  std::shuffle(random.begin(), random.end(), gen);
  std::vector<unsigned char> out;
  long long wrong = 0, checked = 0;
  for (const auto* order : {&natural, &random})
    for (int X : s.ring_partners) {
      // Partner k: offset o = k / 2 + 1 in the ring order, right (k even) or left (k odd); the message
      // to the right at offset o carries tag 2o - 1 and is received by that rank from its left.
      const int pos = static_cast<int>(std::find(order->begin(), order->end(), ctx.rank) - order->begin());
      std::vector<int> peer(X), send_tag(X), recv_tag(X);
      for (int k = 0; k < X; ++k) {
        const int o = k / 2 + 1, right = k % 2 == 0;
        peer[k] = (*order)[((pos + (right ? o : -o)) % ctx.size + ctx.size) % ctx.size];
        send_tag[k] = right ? 2 * o - 1 : 2 * o;
        recv_tag[k] = right ? 2 * o : 2 * o - 1;
      }
      for (long long bytes : s.ring_bytes) {
        const int reps = repetitions_for(bytes, s.repetitions), total = s.warmup + reps, n = static_cast<int>(bytes);
        std::vector<double> t(total, 0.0);
        std::vector<std::vector<unsigned char>> in(X, std::vector<unsigned char>(std::max(bytes, 1LL)));
        std::vector<MPI_Request> req(2 * X);
        for (int rep = 0; rep < total; ++rep) {
          fill_payload(out, bytes, ctx.rank, rep);
          start_repetition(ctx);
          const double t0 = MPI_Wtime();
          for (int k = 0; k < X; ++k) MPI_Irecv(in[k].data(), n, MPI_BYTE, peer[k], recv_tag[k], ctx.comm, &req[k]);
          for (int k = 0; k < X; ++k) MPI_Isend(out.data(), n, MPI_BYTE, peer[k], send_tag[k], ctx.comm, &req[X + k]);
          MPI_Waitall(2 * X, req.data(), MPI_STATUSES_IGNORE);
          t[rep] = MPI_Wtime() - t0;
          for (int k = 0; k < X; ++k) wrong += wrong_bytes(in[k], bytes, peer[k], rep);
          checked += X * bytes;
        }
        const Stats st = reduce_times(ctx.comm, t, s.warmup);
        const double bw = st.median > 0 ? double(X) * bytes / st.median * 1e-9 : 0.0;
        table.row({order == &natural ? "natural" : "random", X, bytes, reps, st.min * 1e6, st.median * 1e6,
                   st.max * 1e6, bw});
      }
    }
  check_payloads(ctx, "ring", wrong, checked);
}

}  // namespace proxylab::comm
