// The life cycle every proxy shares:
//   MPI_Init -> Kokkos::initialize -> flags (CLI11) -> deck + --set overrides (Config) -> run ->
//   timers, summary, JSON record, trace -> exit code
// Exit codes: 0 ran and verified; 1 verification failed; 2 bad input; 3 runtime failure; 130 interrupted
// (SIGINT or SIGTERM: the results so far are printed and the record is written with status `interrupted`).
// An error raised on every rank (InputError from validation, collective_check) ends the run on all
// ranks with one message; an error raised on some ranks only ends it with MPI_Abort after a grace
// period: never a hang.
//
// A proxy's main.cpp is one line: return proxylab::run_app(argc, argv, my_app_spec());
#pragma once
#include <mpi.h>

#include <functional>
#include <iosfwd>
#include <string>

#include "proxylab/comm/options.hpp"
#include "proxylab/config.hpp"
#include "proxylab/errors.hpp"
#include "proxylab/report.hpp"
#include "proxylab/stop.hpp"
#include "proxylab/timers.hpp"
#include "proxylab/trace.hpp"

namespace proxylab {

class RunContext {
 public:
  RunContext(const Config& cfg, MPI_Comm comm, Timers& timers, Trace& trace, Report& report, bool quiet);

  const Config& config;
  MPI_Comm comm;
  int rank = 0, size = 1;
  Timers& timers;
  Trace& trace;
  Report& report;
  bool quiet;
  const CommOptions comm_options;  // the deck's comm.* keys, for what hands memory to MPI (comm/options.hpp)

  int threads() const;     // host threads per rank
  std::ostream& out();     // rank 0's stdout (unless --quiet); other ranks write nowhere
  std::ostream& always();  // rank 0's stdout even with --quiet (results a user asked for)

  // Collective: true once any rank has received SIGINT/SIGTERM. Call at step boundaries (and at least
  // every second: set-up phases, each repetition of a probe; Progress::update calls it about every 0.2 s).
  // value (optional): max-reduced over ranks in the same call, while no stop has been agreed.
  bool stop_requested(long long* value = nullptr);
  // Collective: throws Interrupted on every rank when stop_requested(); the life cycle reports what ran.
  void check_stop();
  // Local, no communication: this rank has received a signal. For loops only this rank runs (their trip
  // counts differ between ranks): break out, then call check_stop() where every rank arrives.
  static bool stop_pending();
  bool interrupted() const { return interrupted_; }

  // Collective: RuntimeError on all ranks if `value` is not finite on any rank.
  void require_finite(double value, const std::string& what);

  // Collective: runs `write` (which commits output files: OutputFile::commit); a file it could not write is noted
  // in the report (Report::output_failed) instead of ending the run, whose results are kept.
  void write_outputs(const std::function<void()>& write);

 private:
  bool interrupted_ = false;
};

struct AppSpec {
  std::string name;     // "stream", "pop", ...
  std::string summary;  // one line for --help
  std::function<void(Schema&)> declare;
  std::function<void(RunContext&)> run;
};

int run_app(int argc, char** argv, const AppSpec& spec);

// The keys every proxy's deck has besides its own (imbalance.*, comm.*): run_app declares them after spec.declare;
// so does anything else that builds an app's Schema (tests).
void declare_common_keys(Schema& schema);

}  // namespace proxylab
