// Named, nested timer regions. Each region is also pushed to Kokkos::Profiling (so Kokkos Tools see
// the same names) and, when tracing, recorded as a span. Regions fence the default execution space
// on entry and exit so that asynchronous back ends are timed honestly.
//
//   { auto t = timers.scope("solve"); ... { auto h = timers.scope("halo", Category::communication); ... } }
//
// Paths are nested with '/': "solve/halo". reduce() gives min/avg/max over ranks and the imbalance
// (max - avg) / max in percent. The cost of one start/stop pair is measured at construction.
#pragma once
#include <mpi.h>

#include <map>
#include <string>
#include <vector>

#include "proxylab/trace.hpp"

namespace proxylab {

struct RegionStats {
  std::string path;
  std::string category;
  long long calls = 0;  // on rank 0
  double min = 0, avg = 0, max = 0, imbalance_pct = 0;
};

// The median of timing samples (the mean of the middle two for an even count; 0 for none).
double median(std::vector<double> samples);

class Timers {
 public:
  explicit Timers(Trace* trace = nullptr, bool fence = true);

  void start(const std::string& name, Category cat = Category::compute);
  void stop();

  class Scope {
   public:
    Scope(Timers& t, const std::string& name, Category cat) : t_(&t) { t_->start(name, cat); }
    Scope(Scope&& o) noexcept : t_(o.t_) { o.t_ = nullptr; }
    Scope(const Scope&) = delete;
    ~Scope() {
      if (t_) t_->stop();
    }

   private:
    Timers* t_;
  };
  [[nodiscard]] Scope scope(const std::string& name, Category cat = Category::compute) {
    return Scope(*this, name, cat);
  }

  // Injected load imbalance (workshop lesson 10, the seeds' Gantt-chart studies): every compute region
  // of this rank takes `factor` times its own time (busy wait). 1 = off. Timers must be enabled.
  void set_slowdown(double factor) { slowdown_ = factor; }
  double slowdown() const { return slowdown_; }

  // Timers off: start/stop become no-ops (for the timers-on/off perturbation study).
  void set_enabled(bool on) { enabled_ = on; }
  bool enabled() const { return enabled_; }

  double seconds(const std::string& path) const;         // this rank's total, 0 if never entered
  long long calls(const std::string& path) const;        // this rank's count
  double overhead_seconds() const { return overhead_; }  // one start/stop pair

  // Collective over comm: union of region paths over ranks, statistics of each.
  std::vector<RegionStats> reduce(MPI_Comm comm) const;
  // Collective over comm, one reduction for all groups: each group's seconds on this rank (its paths summed in
  // order), then the max or the mean over ranks. {{"forward/pack", "inverse/pack"}} with OverRanks::max: the
  // slowest rank's pack time in both directions.
  enum class OverRanks { max, mean };
  using PathGroup = std::vector<std::string>;
  std::vector<double> reduce(MPI_Comm comm, const std::vector<PathGroup>& groups, OverRanks how) const;

 private:
  struct ProbeTag {};
  Timers(Trace* trace, bool fence, ProbeTag) : trace_(trace), fence_(fence), probe_(true) {}
  struct Entry {
    Category cat = Category::compute;
    long long calls = 0;
    double seconds = 0;
  };
  struct Open {
    std::string path;
    Category cat;
    double t0;
    double child_seconds = 0;  // time spent in nested regions
  };
  Trace* trace_;
  bool fence_, enabled_ = true, probe_ = false;
  double overhead_ = 0, slowdown_ = 1.0;
  std::vector<Open> stack_;
  std::map<std::string, Entry> entries_;
  std::vector<std::string> order_;  // first-entered order, for printing
};

// Text table: region, calls, min/avg/max seconds over ranks, imbalance %.
std::string format_timer_table(const std::vector<RegionStats>& stats);

}  // namespace proxylab
