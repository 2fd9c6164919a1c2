// FFTW planning that a stop cuts short (see fftw_planning.hpp).
#include "proxylab/fftw_planning.hpp"

#include "proxylab/stop.hpp"

namespace proxylab {
namespace {

// Called from the signal handler while FFTW plans: fftw_set_timelimit stores into the planner, which exists then
// (plan_fftw made it first), and the planner compares its elapsed time with it after each candidate it times.
void stop_planning() { fftw_set_timelimit(0.0); }

unsigned estimate_instead(unsigned flags) { return (flags & ~(FFTW_PATIENT | FFTW_EXHAUSTIVE)) | FFTW_ESTIMATE; }

}  // namespace

fftw_plan plan_fftw(unsigned flags, const std::function<fftw_plan(unsigned)>& make, bool* cut_short) {
  // FFTW's default (no limit): the plans of a run without a stop are unchanged. This call also makes FFTW's planner
  // object, so that the signal handler never has to.
  fftw_set_timelimit(FFTW_NO_TIMELIMIT);
  fftw_plan plan = nullptr;
  bool stopped = false;
  {
    const CutShortOnStop cut(stop_planning);  // a stop that came before: the limit is zero at once
    if (!stop_pending()) plan = make(flags);
    // A stop: FFTW gave up at the limit with the best plan its search had, or none; FFTW_ESTIMATE never times out.
    stopped = stop_pending() && (flags & FFTW_ESTIMATE) == 0;
    if (!plan && stop_pending()) plan = make(estimate_instead(flags));
  }
  if (cut_short) *cut_short = stopped;
  return plan;
}

}  // namespace proxylab
