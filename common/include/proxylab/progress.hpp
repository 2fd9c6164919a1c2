// Progress line for long runs: step, simulated time, elapsed and estimated time left, printed by rank 0
// to stderr at most every `interval` seconds (never with --quiet). update() is collective: every
// check_interval_s or so (at the first call, then every k-th call, k agreed by all ranks from rank 0's
// time per call) it asks whether Ctrl-C was pressed on any rank, so all ranks stop at the same step.
// The check is an allreduce: made at every step it would add one to each step of the solvers whose
// global sums are what they teach (the SMPI runs showed it), hence the interval.
// On a terminal the line is redrawn in place (carriage return); into a file or pipe each update is a line of its
// own, so a batch log stays readable. The front end, whose pipe the ranks write into, sets
// PROXYLAB_PROGRESS_TERMINAL=1 when its own stderr is a terminal.
//
//   Progress progress(ctx, nsteps, "step");
//   for (long s = 0; s < nsteps; ++s) { ...; if (!progress.update(s + 1, t)) break; }
#pragma once
#include <string>

#include "proxylab/app.hpp"

namespace proxylab {

class Progress {
 public:
  static constexpr double check_interval_s = 0.2;
  Progress(RunContext& ctx, long long total, std::string unit = "step", double interval_s = 2.0);
  // Returns false when the run should stop (interrupted). sim_time < 0: not shown.
  bool update(long long done, double sim_time = -1.0, const std::string& sim_unit = "s");
  void finish();                                // ends the progress line
  long long checks() const { return checks_; }  // stop checks (collective agreements) made so far

 private:
  RunContext& ctx_;
  long long total_;
  std::string unit_;
  double interval_, t_start_, t_last_;
  bool on_terminal_;                      // redraw the line in place (else one line per update)
  bool printed_ = false;                  // a redrawn line is open
  long long calls_ = 0, next_check_ = 1;  // update() calls so far; the call that checks for a stop next
  long long last_check_call_ = 0;         // the call of the last check
  long long every_ = 1;                   // calls between the last two checks
  long long checks_ = 0;
  double t_check_ = 0;  // when the last check was made
  bool stop_agreed_now();
};

}  // namespace proxylab
