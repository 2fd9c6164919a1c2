// Timer regions (see timers.hpp).
#include "proxylab/timers.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

#include "proxylab/comm/gather.hpp"

namespace proxylab {

Timers::Timers(Trace* trace, bool fence) : trace_(trace), fence_(fence) {
  // Measure one start/stop pair on a scratch instance (no fences, no trace, no profiling hooks).
  Timers probe(nullptr, false, ProbeTag{});
  constexpr int pairs = 2000;
  double t0 = MPI_Wtime();
  for (int k = 0; k < pairs; ++k) {
    probe.start("overhead");
    probe.stop();
  }
  overhead_ = (MPI_Wtime() - t0) / pairs;
}

void Timers::start(const std::string& name, Category cat) {
  if (!enabled_) return;
  if (fence_) Kokkos::fence();
  std::string path = stack_.empty() ? name : stack_.back().path + "/" + name;
  if (!probe_) Kokkos::Profiling::pushRegion(path);
  stack_.push_back({std::move(path), cat, MPI_Wtime()});
}

void Timers::stop() {
  if (!enabled_ || stack_.empty()) return;
  if (fence_) Kokkos::fence();
  double t1 = MPI_Wtime();
  Open o = std::move(stack_.back());
  stack_.pop_back();
  if (slowdown_ > 1.0 && o.cat == Category::compute) {
    // Injected imbalance: stretch this region's own compute time (children excluded) by busy waiting.
    const double until = t1 + (slowdown_ - 1.0) * (t1 - o.t0 - o.child_seconds);
    while ((t1 = MPI_Wtime()) < until) {
    }
  }
  const double elapsed = t1 - o.t0;
  if (!stack_.empty()) stack_.back().child_seconds += elapsed;
  if (!probe_) Kokkos::Profiling::popRegion();
  auto [it, inserted] = entries_.try_emplace(o.path);
  if (inserted) order_.push_back(o.path), it->second.cat = o.cat;
  it->second.calls += 1;
  it->second.seconds += elapsed;
  if (trace_ && trace_->enabled()) {
    const double now = trace_->now();
    trace_->span(o.path, o.cat, now - elapsed, now);
  }
}

double Timers::seconds(const std::string& path) const {
  auto it = entries_.find(path);
  return it == entries_.end() ? 0.0 : it->second.seconds;
}

long long Timers::calls(const std::string& path) const {
  auto it = entries_.find(path);
  return it == entries_.end() ? 0 : it->second.calls;
}

std::vector<double> Timers::reduce(MPI_Comm comm, const std::vector<PathGroup>& groups, OverRanks how) const {
  std::vector<double> mine(groups.size(), 0.0), all(groups.size(), 0.0);
  for (size_t g = 0; g < groups.size(); ++g)
    for (const auto& path : groups[g]) mine[g] += seconds(path);
  MPI_Allreduce(mine.data(), all.data(), static_cast<int>(groups.size()), MPI_DOUBLE,
                how == OverRanks::max ? MPI_MAX : MPI_SUM, comm);
  if (how == OverRanks::mean) {
    int size = 1;
    MPI_Comm_size(comm, &size);
    for (double& v : all) v /= size;
  }
  return all;
}

std::vector<RegionStats> Timers::reduce(MPI_Comm comm) const {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // Union of paths: gather "path\tcategory\n" lists on rank 0, broadcast the merged list.
  std::string mine;
  for (const auto& p : order_) mine += p + "\t" + to_string(entries_.at(p).cat) + "\n";
  std::string merged;
  std::set<std::string> seen;
  for (const auto& list : gather_text(comm, mine)) {
    std::istringstream in(list);
    for (std::string line; std::getline(in, line);)
      if (seen.insert(line.substr(0, line.find('\t'))).second) merged += line + "\n";
  }
  int mlen = static_cast<int>(merged.size());
  MPI_Bcast(&mlen, 1, MPI_INT, 0, comm);
  merged.resize(mlen);
  MPI_Bcast(merged.data(), mlen, MPI_CHAR, 0, comm);

  std::vector<RegionStats> out;
  std::istringstream in(merged);
  for (std::string line; std::getline(in, line);) {
    RegionStats s;
    s.path = line.substr(0, line.find('\t'));
    s.category = line.substr(line.find('\t') + 1);
    out.push_back(s);
  }
  const size_t n = out.size();
  std::vector<double> t(n), tmin(n), tmax(n), tsum(n);
  for (size_t k = 0; k < n; ++k) t[k] = seconds(out[k].path);
  MPI_Allreduce(t.data(), tmin.data(), static_cast<int>(n), MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(t.data(), tmax.data(), static_cast<int>(n), MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(t.data(), tsum.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, comm);
  for (size_t k = 0; k < n; ++k) {
    out[k].calls = calls(out[k].path);
    out[k].min = tmin[k];
    out[k].max = tmax[k];
    out[k].avg = tsum[k] / size;
    out[k].imbalance_pct = tmax[k] > 0 ? 100.0 * (tmax[k] - out[k].avg) / tmax[k] : 0.0;
  }
  return out;
}

std::string format_timer_table(const std::vector<RegionStats>& stats) {
  size_t w = 6;
  for (const auto& s : stats) w = std::max(w, s.path.size());
  std::ostringstream os;
  char buf[256];
  std::snprintf(buf, sizeof buf, "%-*s %-13s %9s %11s %11s %11s %7s\n", int(w), "region", "category", "calls",
                "min [s]", "avg [s]", "max [s]", "imbal%");
  os << buf;
  for (const auto& s : stats) {
    std::snprintf(buf, sizeof buf, "%-*s %-13s %9lld %11.4e %11.4e %11.4e %7.1f\n", int(w), s.path.c_str(),
                  s.category.c_str(), s.calls, s.min, s.avg, s.max, s.imbalance_pct);
    os << buf;
  }
  return os.str();
}

double median(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  const size_t n = samples.size();
  return n == 0 ? 0 : n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

}  // namespace proxylab
