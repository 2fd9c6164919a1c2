// The --kokkos-* flags and KOKKOS_* variables whose values Kokkos reads, checked before Kokkos::initialize:
// a bad value there ends the process (Kokkos 4.x aborts, 3.x throws from std::stoi), so it would escape
// the bad-input contract (exit 2 on every rank, the flag, the value and what is allowed).
#pragma once
#include <string>

namespace proxylab {

// The thread-count flag the linked Kokkos accepts: --kokkos-num-threads (3.7 and later) or --kokkos-threads.
std::string kokkos_num_threads_flag();
std::string kokkos_version_text();  // "4.6.1"

// "" when every --kokkos-* value in argv and every KOKKOS_* value in the environment is well formed, and no thread
// count exceeds max_threads_per_rank (thread_count_problem), else a message naming the flag or variable, its value
// and what is allowed.
std::string kokkos_arguments_problem(int argc, char** argv);

// The most threads a rank may ask for (--kokkos-num-threads, KOKKOS_NUM_THREADS, OMP_NUM_THREADS): OpenMP runtimes
// aborted at 3000 and segfaulted at 99999999 inside Kokkos::initialize. The front end's cap
// is the same (python/proxylab_tools/launch.py MAX_THREADS_PER_RANK).
constexpr long long max_threads_per_rank = 1024;
std::string thread_count_problem(int argc, char** argv);

// The smallest address-space limit (RLIMIT_AS, ulimit -v) a rank can start under: below about 120 MiB MPICH's UCX
// asserted inside MPI_Init (exit 6); "" when the limit is higher (or none), else the message. Checked before
// MPI_Init, so each rank checks alone.
constexpr double min_address_space_bytes = 256.0 * 1024 * 1024;
std::string address_space_problem();

}  // namespace proxylab
