// Error types that decide a run's exit code (see app.hpp):
//   InputError   -> 2 (bad deck, bad flag, impossible size, undecomposable grid, missing file)
//   RuntimeError -> 3 (NaN in the state, a library call that failed, anything unexpected)
// Throw them on every rank alike where you can (validation of replicated data); collective_check()
// turns a condition known on some ranks into an error raised on all of them.
#pragma once
#include <mpi.h>

#include <stdexcept>
#include <string>

namespace proxylab {

struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct RuntimeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum ExitCode : int { exit_ok = 0, exit_verification_failed = 1, exit_bad_input = 2, exit_runtime_failure = 3, exit_interrupted = 130 };

// Collective: every rank passes its own `ok`; if any rank has ok == false, every rank throws
// ErrorT carrying the message of the lowest failing rank.
template <class ErrorT = RuntimeError>
void collective_check(MPI_Comm comm, bool ok, const std::string& message);

}  // namespace proxylab

#include "proxylab/detail/collective_check.ipp"
