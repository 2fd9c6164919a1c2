// FFTW's planner, cut short by a stop (SIGINT / SIGTERM, stop.hpp). Planning with FFTW_MEASURE or FFTW_PATIENT times
// candidate plans and can run for minutes (a 3-D plan with fft3d.planning=patient), and FFTW's planner cannot look
// at the stop flag. While plan_fftw() plans, a signal sets FFTW's time limit to zero (fftw_set_timelimit: one store
// into the planner, which it reads after each candidate it times, so the handler can make it): the planner gives
// up with the best plan its search had found (or none: the plan is then made with FFTW_ESTIMATE, in milliseconds),
// and every plan asked for after a stop is an FFTW_ESTIMATE one. Every rank then goes on along the same code path
// to its next collective stop check, where the run ends as interrupted: no rank is left inside the planner while
// the others wait in a collective.
//
// Without a stop the plans are FFTW's own: no time limit is set (fftw_set_timelimit(FFTW_NO_TIMELIMIT), FFTW's
// default), so the search and the plans it finds are the ones an uninterrupted planner finds. (A time limit set
// up front would plan at rising patience until the limit and change the plans.)
//
//   bool cut_short = false;
//   fftw_plan p = plan_fftw(FFTW_PATIENT, [&](unsigned flags) { return fftw_plan_dft_3d(..., flags); }, &cut_short);
//
// Host FFTW, one planner call at a time (FFTW's planner is not thread-safe).
#pragma once
#include <fftw3.h>

#include <functional>

namespace proxylab {

// make(flags)'s plan, or after a stop make(flags with FFTW_ESTIMATE for the planning rigour)'s; nullptr when FFTW
// could not plan it. `cut_short` (when given): a stop came before or during the planning, so the plan is not the
// one the full search finds (false for an FFTW_ESTIMATE request, which no stop changes).
fftw_plan plan_fftw(unsigned flags, const std::function<fftw_plan(unsigned flags)>& make, bool* cut_short = nullptr);

}  // namespace proxylab
