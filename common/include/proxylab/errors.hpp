// Error types that decide a run's exit code (see app.hpp):
//   InputError   -> 2 (bad deck, bad flag, impossible size, undecomposable grid, missing file)
//   RuntimeError -> 3 (NaN in the state, a library call that failed, anything unexpected)
// Throw them on every rank alike where you can (validation of replicated data); collective_check()
// turns a condition known on some ranks into an error raised on all of them.
#pragma once
#include <mpi.h>

#include <new>
#include <stdexcept>
#include <string>

#include "proxylab/user_text.hpp"  // quote(), excerpt(): user text in messages

namespace proxylab {

struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct RuntimeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The message a run ends with after an exception. std::bad_alloc's own text ("std::bad_alloc") names neither
// cause nor remedy, so it is spelled out.
inline std::string failure_message(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e) == nullptr) return e.what();
  return std::string("out of memory (") + e.what() +
         "): an allocation failed although the run's memory estimate fitted the memory available when it started; "
         "reduce the problem size, run fewer ranks per node, or free memory on the node";
}

enum ExitCode : int {
  exit_ok = 0,
  exit_verification_failed = 1,
  exit_bad_input = 2,
  exit_runtime_failure = 3,
  exit_interrupted = 130
};

// Collective: every rank passes its own `ok`; if any rank has ok == false, every rank throws
// ErrorT carrying the message of the lowest failing rank.
template <class ErrorT = RuntimeError>
void collective_check(MPI_Comm comm, bool ok, const std::string& message);

}  // namespace proxylab

#include "proxylab/detail/collective_check.ipp"
