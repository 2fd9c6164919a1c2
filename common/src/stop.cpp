// Signal flag and its collective agreement (see stop.hpp).
#include "proxylab/stop.hpp"

#include <sched.h>

#include <atomic>
#include <csignal>

namespace proxylab {
namespace {

volatile std::sig_atomic_t g_signal = 0;
std::atomic<void (*)()> g_cut_short{nullptr};  // CutShortOnStop's function while one is alive
static_assert(std::atomic<void (*)()>::is_always_lock_free, "the signal handler reads it");

extern "C" void on_stop_signal(int sig) {
  if (g_signal == 0) g_signal = sig;
  if (void (*cut_short)() = g_cut_short.load()) cut_short();
}

}  // namespace

void install_stop_handlers() {
  struct sigaction action = {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // blocking calls resume; the flag is looked at when they return
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

bool stop_pending() { return g_signal != 0; }

int stop_signal() { return static_cast<int>(g_signal); }

bool stop_agreed(MPI_Comm comm, long long* value) {
  long long mine[2] = {stop_pending() ? 1 : 0, value ? *value : 0}, any[2] = {0, 0};
#ifdef SMPI_H
  // SimGrid's SMPI (its mpi.h defines SMPI_H): a simulated rank that waits costs no core, and every MPI_Test of a
  // polling loop adds smpi/test (100 us) of simulated time, which made each check cost milliseconds.
  MPI_Allreduce(mine, any, 2, MPI_LONG_LONG, MPI_MAX, comm);
#else
  MPI_Request req;
  MPI_Iallreduce(mine, any, 2, MPI_LONG_LONG, MPI_MAX, comm, &req);
  // Waiting politely: with more ranks than cores, the ranks still working get the cores.
  int done = 0;
  for (MPI_Test(&req, &done, MPI_STATUS_IGNORE); !done; MPI_Test(&req, &done, MPI_STATUS_IGNORE)) sched_yield();
#endif
  if (value) *value = any[1];
  return any[0] != 0;
}

CutShortOnStop::CutShortOnStop(void (*cut_short)()) {
  g_cut_short.store(cut_short);
  if (stop_pending()) cut_short();  // (a signal in between calls it twice: it only stores)
}

CutShortOnStop::~CutShortOnStop() { g_cut_short.store(nullptr); }

}  // namespace proxylab
