// Progress line (see progress.hpp).
#include "proxylab/progress.hpp"

#include <cstdio>

namespace proxylab {

Progress::Progress(RunContext& ctx, long long total, std::string unit, double interval_s)
    : ctx_(ctx), total_(total), unit_(std::move(unit)), interval_(interval_s) {
  t_start_ = t_last_ = MPI_Wtime();
}

bool Progress::update(long long done, double sim_time, const std::string& sim_unit) {
  if (ctx_.stop_requested()) {
    finish();
    if (ctx_.rank == 0) std::fprintf(stderr, "interrupted at %s %lld of %lld; finishing cleanly\n", unit_.c_str(), done, total_);
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
    std::fprintf(stderr, "\r  %s %lld/%lld (%.0f%%)%s  elapsed %.1f s  left %s   ", unit_.c_str(), done, total_,
                 100.0 * double(done) / double(total_ > 0 ? total_ : 1), simbuf, elapsed, left);
    std::fflush(stderr);
    printed_ = true;
    t_last_ = now;
  }
  return true;
}

void Progress::finish() {
  if (printed_ && ctx_.rank == 0) std::fprintf(stderr, "\n");
  printed_ = false;
}

}  // namespace proxylab
