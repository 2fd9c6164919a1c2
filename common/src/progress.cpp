// Progress line (see progress.hpp).
#include "proxylab/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace proxylab {

namespace {
bool stderr_is_terminal() {
  const char* front_end = std::getenv("PROXYLAB_PROGRESS_TERMINAL");
  return isatty(STDERR_FILENO) || (front_end && std::strcmp(front_end, "1") == 0);
}
}  // namespace

Progress::Progress(RunContext& ctx, long long total, std::string unit, double interval_s)
    : ctx_(ctx), total_(total), unit_(std::move(unit)), interval_(interval_s), on_terminal_(stderr_is_terminal()) {
  t_start_ = t_last_ = t_check_ = MPI_Wtime();
}

// Collective at the agreed calls: asks every rank for a stop and agrees the call of the next check, which rank 0
// proposes from its time per call since the last check (the others propose nothing: the reduction is a max). The
// interval at most doubles from one check to the next, so a slow start or steps that grow keep the checks close.
bool Progress::stop_agreed_now() {
  const double now = MPI_Wtime();
  long long every = 0;
  if (ctx_.rank == 0) {
    const double per_call = (now - t_check_) / double(std::max(1LL, calls_ - last_check_call_));
    const double fits = per_call > 0 ? check_interval_s / per_call : 2.0 * double(every_) + 1.0;
    every = (long long)std::clamp(fits, 1.0, 2.0 * double(every_) + 1.0);
  }
  t_check_ = now;
  last_check_call_ = calls_;
  const bool stop = ctx_.stop_requested(&every);
  ++checks_;
  every_ = std::max(1LL, every);
  next_check_ = calls_ + every_;
  return stop;
}

bool Progress::update(long long done, double sim_time, const std::string& sim_unit) {
  ++calls_;
  if (calls_ >= next_check_ && stop_agreed_now()) {
    finish();
    if (ctx_.rank == 0)
      std::fprintf(stderr, "interrupted at %s %lld of %lld; finishing cleanly\n", unit_.c_str(), done, total_);
    return false;
  }
  const double now = MPI_Wtime();
  if (ctx_.rank == 0 && !ctx_.quiet && now - t_last_ >= interval_) {
    const double elapsed = now - t_start_;
    // Nothing done yet: no estimate (not "~0.0 s": a run whose steps make no visible progress said so for days).
    char left[32] = "unknown";
    if (done > 0) std::snprintf(left, sizeof left, "~%.1f s", elapsed * double(total_ - done) / double(done));
    char simbuf[64] = "";
    if (sim_time >= 0) std::snprintf(simbuf, sizeof simbuf, "  t = %.4g %s", sim_time, sim_unit.c_str());
    std::fprintf(stderr, "%s  %s %lld/%lld (%.0f%%)%s  elapsed %.1f s  left %s%s", on_terminal_ ? "\r" : "",
                 unit_.c_str(), done, total_, 100.0 * double(done) / double(total_ > 0 ? total_ : 1), simbuf, elapsed,
                 left, on_terminal_ ? "   " : "\n");
    std::fflush(stderr);
    printed_ = on_terminal_;
    t_last_ = now;
  }
  return true;
}

void Progress::finish() {
  if (printed_ && ctx_.rank == 0) std::fprintf(stderr, "\n");
  printed_ = false;
}

}  // namespace proxylab
