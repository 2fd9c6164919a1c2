// Progress line for long runs: step, simulated time, elapsed and estimated time left, printed by rank 0
// to stderr at most every `interval` seconds (never with --quiet). update() is collective: it also
// asks whether Ctrl-C was pressed on any rank, so all ranks stop at the same step.
//
//   Progress progress(ctx, nsteps, "step");
//   for (long s = 0; s < nsteps; ++s) { ...; if (!progress.update(s + 1, t)) break; }
#pragma once
#include <string>

#include "proxylab/app.hpp"

namespace proxylab {

class Progress {
 public:
  Progress(RunContext& ctx, long long total, std::string unit = "step", double interval_s = 2.0);
  // Returns false when the run should stop (interrupted). sim_time < 0: not shown.
  bool update(long long done, double sim_time = -1.0, const std::string& sim_unit = "s");
  void finish();  // ends the progress line

 private:
  RunContext& ctx_;
  long long total_;
  std::string unit_;
  double interval_, t_start_, t_last_;
  bool printed_ = false;
};

}  // namespace proxylab
