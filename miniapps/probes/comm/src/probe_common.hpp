// What every communication probe shares: the settings read from the deck, the message-size ladder,
// repetition counts, per-repetition timing reduced over ranks (min / median / max), payload patterns
// checked on receipt, and the result table printed on rank 0 and stored in the JSON record.
#pragma once
#include <mpi.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "proxylab/app.hpp"

namespace proxylab::comm {

struct Settings {
  std::vector<std::string> tests;  // sub-tests in run order
  int repetitions = 20, warmup = 2;
  std::vector<long long> sizes;  // message sizes (bytes) for pingpong / echo / swap
  int distance = 1, pairs = 0;   // pairs i-(i+distance); 0 = every pair that fits
  std::vector<long long> ring_bytes;
  std::vector<int> ring_partners;  // X of the LX / RX patterns (2 = HPCC ring)
  int ring_seed = 1;
  std::vector<int> halo_tiles, halo_widths;
  int halo_fields = 1;
  std::vector<int> halo3d_sizes;  // n of the n^3 blocks
  std::vector<std::string> halo_strategies, transpose_strategies, reduce_strategies;
  std::vector<long long> alltoall_sizes;  // bytes per rank pair
  std::vector<int> group_sizes;           // communicator sizes for alltoall / allreduce / barrier
  std::vector<int> words;                 // allreduce words per call
};

// Repetitions for a message of `bytes`: all of them up to 64 KiB, fewer above (at least 5).
int repetitions_for(long long bytes, int repetitions);

// Timing statistics over the timed repetitions (warm-up excluded), in seconds.
struct Stats {
  double min = 0, median = 0, max = 0;
};
// Collective over `comm`: per repetition the slowest rank's time (ranks that took no part pass 0),
// minus the timer overhead, then min / median / max over the repetitions after `warmup`.
Stats reduce_times(MPI_Comm comm, const std::vector<double>& seconds, int warmup);
double timer_overhead();  // median cost of one MPI_Wtime() pair, measured once

// Payloads: byte k of a message from rank `src` in repetition `rep`. A stale, truncated, misplaced
// or foreign payload fails the check.
inline unsigned char payload_byte(int src, int rep, long long k) {
  return static_cast<unsigned char>((src * 131 + rep * 17 + k * 7 + (k >> 8)) & 0xff);
}
void fill_payload(std::vector<unsigned char>& buf, long long n, int src, int rep);
long long wrong_bytes(const std::vector<unsigned char>& buf, long long n, int src, int rep);

// A table per sub-test: printed on rank 0, stored as ctx.report.results()[key] (one object per row,
// for the plotting tools). Values must already be identical on every rank.
class ResultTable {
 public:
  ResultTable(RunContext& ctx, std::string key, const std::string& title, std::vector<std::string> columns);
  ~ResultTable();
  void row(const std::vector<nlohmann::json>& values);
  const nlohmann::json& rows() const { return rows_; }

 private:
  RunContext& ctx_;
  std::string key_;
  std::vector<std::string> columns_;
  nlohmann::json rows_ = nlohmann::json::array();
};

// Payload check of a sub-test: wrong bytes (or values) summed over ranks, one verification check.
void check_payloads(RunContext& ctx, const std::string& test, long long wrong_local, long long checked_local);

// Barrier that yields the processor while it waits (MPI_Ibarrier + MPI_Test + sched_yield): with more
// ranks than cores, ranks waiting for the next repetition leave the cores to the ranks still working.
void polite_barrier(MPI_Comm comm);

// Starts a timed repetition, on every rank of ctx.comm: a barrier (yielding like polite_barrier) that also
// carries a pending SIGINT/SIGTERM, so a stop is seen within one repetition: Interrupted is thrown on
// every rank together (comm_app.cpp keeps the finished tables).
inline void start_repetition(RunContext& ctx) { ctx.check_stop(); }

// Communicator of consecutive blocks of `group` ranks (the block containing this rank).
MPI_Comm split_groups(MPI_Comm comm, int group);

}  // namespace proxylab::comm
