// Communication probe driver: reads which sub-tests to run and their sizes from the deck, runs them
// in order, and reports one table each. FOM: the ping-pong half round-trip latency of an 8-byte
// message (median, microseconds); without a ping-pong, the median time of the first row of the first
// sub-test run (its name says which).
#include "comm_app.hpp"

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

#include "memory_estimate.hpp"
#include "probes.hpp"
#include "proxylab/comm/halo.hpp"
#include "proxylab/comm/reduce.hpp"
#include "proxylab/comm/transpose.hpp"
#include "proxylab/perf_limits.hpp"
#include "proxylab/progress.hpp"

namespace proxylab::comm {
namespace {

const std::vector<std::string> all_tests{"pingpong", "echo", "swap", "ring", "halo", "halo3d", "alltoall", "allreduce"};

void declare(Schema& s) {
  s.text("probe.tests", "all",
         "comma-separated sub-tests from pingpong, echo, swap, ring, halo, halo3d, alltoall, allreduce, or 'all'; "
         "run in that order");
  s.integer("probe.repetitions", 20, 1, 1000000, "timed repetitions per point (fewer above 64 KiB: at least 5)");
  s.integer("probe.warmup", 2, 0, 1000, "untimed repetitions before the timed ones");
  s.integer("probe.min_bytes", 0, 0, 1LL << 30, "smallest message (pingpong, echo, swap); then powers of probe.step");
  s.integer("probe.max_bytes", 1 << 20, 1, 1LL << 30, "largest message (pingpong, echo, swap)");
  s.integer("probe.step", 2, 2, 16, "ratio of successive message sizes in the ladders (pingpong/echo/swap, alltoall)");
  s.boolean("probe.odd_sizes", true, "add the odd sizes 3, 1000, 100000 and 3000000 B that fall in the range");
  s.integer("pairs.distance", 1, 1, 1 << 20, "j of the pairs i-(i+j) (pingpong uses the pair 0-j)");
  s.integer("pairs.count", 0, 0, 1 << 20, "simultaneous pairs for echo and swap; 0 = every pair that fits");
  s.text("ring.bytes", "8,2000000", "message sizes of the ring test (HPCC: 8 B latency, 2,000,000 B bandwidth)");
  s.text("ring.partners", "2,4",
         "X nearest ring neighbours exchanged with at once (even; 2 = HPCC ring, 4 = the coarray L4 / R4)");
  s.integer("ring.seed", 1, 0, 1 << 30, "seed of the random ring order");
  s.text("halo.strategies", "all",
         "comma-separated halo strategies (packed, sendrecv, persistent, datatype, rma) or 'all'");
  s.text("halo.tiles", "16,128", "interior cells per rank per side (comma-separated)");
  s.text("halo.widths", "1,2", "ghost widths (comma-separated; each <= the smallest tile)");
  s.integer("halo.fields", 1, 1, 64, "fields exchanged together");
  s.text("halo3d.sizes", "8,32", "n of the n^3 cells per rank of the 3-D six-neighbour swap (comma-separated)");
  s.text("alltoall.strategies", "all",
         "comma-separated transpose strategies (alltoall, alltoallv, pairwise, nonblocking, node_aware) or 'all'");
  s.integer("alltoall.min_bytes", 8, 8, 1LL << 26,
            "smallest block per rank pair (then times probe.step up to the largest)");
  s.integer("alltoall.max_bytes", 65536, 8, 1LL << 26, "largest block per rank pair");
  s.text("allreduce.strategies", "all",
         "comma-separated reduce strategies (allreduce, iallreduce, reproducible) or 'all'");
  s.text("allreduce.words", "1,8", "words per reduction (comma-separated)");
  s.text("groups.sizes", "all",
         "communicator sizes for alltoall and allreduce (each divides the rank count), or 'all' = 1, 2, 4, ... and "
         "the rank count");
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// A list of names from `allowed` ('all' = every one), in the order given.
std::vector<std::string> name_list(const Config& cfg, const std::string& key, const std::vector<std::string>& allowed) {
  auto items = split_list(cfg.text(key));
  if (items.size() == 1 && items[0] == "all") return allowed;
  std::set<std::string> seen;
  for (const auto& x : items)
    if (std::find(allowed.begin(), allowed.end(), x) == allowed.end() || !seen.insert(x).second)
      cfg.reject(key, "a comma-separated list of distinct names from: " + join(allowed) + ", or 'all'");
  if (items.empty()) cfg.reject(key, "at least one of: " + join(allowed) + ", or 'all'");
  return items;
}

std::vector<long long> number_list(const Config& cfg, const std::string& key, long long lo, long long hi) {
  std::vector<long long> out;
  for (const auto& x : split_list(cfg.text(key))) {
    size_t used = 0;
    long long v = -1;
    try {
      v = std::stoll(x, &used);
    } catch (...) {
      used = 0;
    }
    if (used != x.size() || v < lo || v > hi)
      cfg.reject(key, "comma-separated integers in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    out.push_back(v);
  }
  if (out.empty()) cfg.reject(key, "at least one integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return out;
}

std::vector<long long> size_ladder(long long lo, long long hi, bool odd, long long factor) {
  std::set<long long> sizes;
  if (lo == 0) sizes.insert(0);
  for (long long b = 1; b <= hi; b *= factor)
    if (b >= lo) sizes.insert(b);
  if (lo <= 8 && hi >= 8) sizes.insert(8);  // the latency figure of merit
  if (odd)
    for (long long b : {3LL, 1000LL, 100000LL, 3000000LL})
      if (b >= lo && b <= hi) sizes.insert(b);
  return {sizes.begin(), sizes.end()};
}

Settings read_settings(const Config& cfg, int ranks) {
  Settings s;
  s.tests = name_list(cfg, "probe.tests", all_tests);
  std::vector<std::string> runnable;
  for (const auto& t : s.tests)
    if (ranks > 1 || (t != "pingpong" && t != "echo" && t != "swap")) runnable.push_back(t);
  if (runnable.empty())
    cfg.reject("probe.tests",
               "on 1 rank at least one of ring, halo, halo3d, alltoall, allreduce (pingpong, echo and swap need "
               "2 ranks)");
  s.tests = runnable;
  s.repetitions = static_cast<int>(cfg.integer("probe.repetitions"));
  s.warmup = static_cast<int>(cfg.integer("probe.warmup"));
  const long long lo = cfg.integer("probe.min_bytes"), hi = cfg.integer("probe.max_bytes");
  if (lo > hi) cfg.reject("probe.min_bytes", "at most probe.max_bytes (" + std::to_string(hi) + ")");
  const long long step = cfg.integer("probe.step");
  s.sizes = size_ladder(lo, hi, cfg.boolean("probe.odd_sizes"), step);
  s.distance = static_cast<int>(cfg.integer("pairs.distance"));
  s.pairs = static_cast<int>(cfg.integer("pairs.count"));
  const bool pairs_used = std::count_if(s.tests.begin(), s.tests.end(), [](const std::string& t) {
    return t == "pingpong" || t == "echo" || t == "swap";
  });
  if (pairs_used && s.distance >= ranks)
    cfg.reject("pairs.distance", "1 .. ranks - 1 = " + std::to_string(ranks - 1) + " (the pair 0-j must exist)");
  s.ring_bytes = number_list(cfg, "ring.bytes", 0, 1LL << 30);
  for (long long x : number_list(cfg, "ring.partners", 2, 64)) {
    if (x % 2) cfg.reject("ring.partners", "even numbers in [2, 64] (X/2 neighbours on each side)");
    s.ring_partners.push_back(static_cast<int>(x));
  }
  s.ring_seed = static_cast<int>(cfg.integer("ring.seed"));
  s.halo_strategies = name_list(cfg, "halo.strategies", halo_strategy_names());
  for (long long v : number_list(cfg, "halo.tiles", 1, 1 << 14)) s.halo_tiles.push_back(static_cast<int>(v));
  for (long long v : number_list(cfg, "halo.widths", 1, 64)) s.halo_widths.push_back(static_cast<int>(v));
  const int smallest_tile = *std::min_element(s.halo_tiles.begin(), s.halo_tiles.end());
  for (int w : s.halo_widths)
    if (w > smallest_tile)
      cfg.reject("halo.widths", "widths no larger than the smallest tile (" + std::to_string(smallest_tile) + ")");
  s.halo_fields = static_cast<int>(cfg.integer("halo.fields"));
  for (long long v : number_list(cfg, "halo3d.sizes", 1, 1024)) s.halo3d_sizes.push_back(static_cast<int>(v));
  s.transpose_strategies = name_list(cfg, "alltoall.strategies", transpose_strategy_names());
  const long long alo = cfg.integer("alltoall.min_bytes"), ahi = cfg.integer("alltoall.max_bytes");
  if (alo > ahi) cfg.reject("alltoall.min_bytes", "at most alltoall.max_bytes (" + std::to_string(ahi) + ")");
  for (long long b = alo; b <= ahi; b *= step) s.alltoall_sizes.push_back(b);
  s.reduce_strategies = name_list(cfg, "allreduce.strategies", reduce_strategy_names());
  for (long long v : number_list(cfg, "allreduce.words", 1, 64)) s.words.push_back(static_cast<int>(v));
  if (cfg.text("groups.sizes") == "all") {
    for (int g = 1; g < ranks; g *= 2)
      if (ranks % g == 0) s.group_sizes.push_back(g);
    s.group_sizes.push_back(ranks);
  } else {
    for (long long g : number_list(cfg, "groups.sizes", 1, ranks)) {
      if (ranks % g != 0) cfg.reject("groups.sizes", "divisors of the rank count " + std::to_string(ranks));
      s.group_sizes.push_back(static_cast<int>(g));
    }
  }
  return s;
}

// FOM: ping-pong latency at 8 B if measured, else the first row's median time.
void set_fom(RunContext& ctx) {
  const auto& res = ctx.report.results();
  if (res.contains("pingpong"))
    for (const auto& row : res["pingpong"])
      if (row["bytes"].get<long long>() == 8) {
        ctx.report.set_fom("pingpong latency, 8 B, median half round trip", row["t_med_us"].get<double>(), "us");
        return;
      }
  for (const auto& t : all_tests)
    if (res.contains(t) && !res[t].empty()) {
      const auto& row = res[t][0];
      std::string what = t;
      for (const char* k : {"strategy", "operation", "order"})
        if (row.contains(k)) what += " " + row[k].get<std::string>();
      ctx.report.set_fom(what + ", first point, median time", row["t_med_us"].get<double>(), "us");
      return;
    }
}

void run(RunContext& ctx) {
  if (limits_requested(ctx.config))
    ctx.config.reject("perf.limits",
                      "false: the comm probe's calls are the ceilings the proxies' exchanges are compared with "
                      "(perf.limits=true in pop, pstswm, evh1, fft3d and stream)");
  const Settings s = read_settings(ctx.config, ctx.size);
  require_memory(ctx.comm, estimate_memory(s),
                 "probe.max_bytes, ring.bytes, halo.tiles, halo.fields, halo3d.sizes or alltoall.max_bytes");
  ctx.out() << "  " << ctx.size << " ranks; sub-tests: " << join(s.tests) << "; " << s.repetitions
            << " repetitions per point (+" << s.warmup << " warm-up), timer overhead " << timer_overhead() * 1e9
            << " ns subtracted; times are the slowest rank's per repetition\n";
  if (ctx.size == 1) ctx.out() << "  (1 rank: pingpong, echo and swap need 2 ranks and are skipped)\n";
  Progress progress(ctx, static_cast<long long>(s.tests.size()), "sub-test");
  try {
    for (size_t i = 0; i < s.tests.size(); ++i) {
      const std::string& t = s.tests[i];
      {
        auto region = ctx.timers.scope(t, Category::communication);  // each sub-test in its own timer region
        if (t == "pingpong" || t == "echo" || t == "swap") probe_pairs(ctx, s, t);
        if (t == "ring") probe_ring(ctx, s);
        if (t == "halo") probe_halo(ctx, s);
        if (t == "halo3d") probe_halo3d(ctx, s);
        if (t == "alltoall") probe_alltoall(ctx, s);
        if (t == "allreduce") probe_allreduce(ctx, s);
      }
      if (!progress.update(static_cast<long long>(i + 1))) break;  // Ctrl-C between sub-tests
    }
  } catch (const Interrupted&) {
    // Ctrl-C inside a sub-test (start_repetition): the rows finished so far stay in the tables
    if (ctx.rank == 0) std::fprintf(stderr, "\ninterrupted inside a sub-test; finishing cleanly\n");
  }
  progress.finish();
  ctx.out() << "\n";
  set_fom(ctx);
}

}  // namespace

AppSpec app_spec() {
  return {"comm", "communication probes: ping-pong, swap/echo pairs, rings, halo protocols, all-to-all, reductions",
          declare, run};
}

}  // namespace proxylab::comm
