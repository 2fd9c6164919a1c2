// Stopping a run on SIGINT / SIGTERM (Ctrl-C, a batch system's time limit, the front end forwarding
// either): the handlers only set a flag; the run looks at it at points every rank reaches together and
// ends with the results gathered so far, the record marked `interrupted`, exit code 130.
//
//   stop_pending()        this rank has received a signal (no communication): for loops that only
//                         this rank runs, to break out early; a collective check must follow
//   stop_agreed(comm)     collective: some rank has received one (yields the core while it waits); an optional
//                         value is max-reduced in the same call (Progress agrees its next check with it)
//   Interrupted           thrown by RunContext::check_stop() on every rank at the same point; the life
//                         cycle catches it and reports what ran
//   CutShortOnStop        while alive, a signal also makes a long library call that cannot look at the flag
//                         return early (FFTW's planner: fftw_planning.hpp); the caller then goes on to the next
//                         collective check like every other rank
#pragma once
#include <mpi.h>

#include <exception>

namespace proxylab {

struct Interrupted : std::exception {
  const char* what() const noexcept override { return "interrupted by a signal"; }
};

void install_stop_handlers();  // SIGINT and SIGTERM set the flag (SIGTERM behaves as SIGINT)
bool stop_pending();
int stop_signal();  // the first signal received, 0 if none
bool stop_agreed(MPI_Comm comm, long long* value = nullptr);

// While alive, SIGINT / SIGTERM also call `cut_short` from the signal handler, so it must be async-signal-safe (a
// store that the running library call reads); made after a signal, it calls it at once. One at a time.
class CutShortOnStop {
 public:
  explicit CutShortOnStop(void (*cut_short)());
  ~CutShortOnStop();
  CutShortOnStop(const CutShortOnStop&) = delete;
  CutShortOnStop& operator=(const CutShortOnStop&) = delete;
};

}  // namespace proxylab
