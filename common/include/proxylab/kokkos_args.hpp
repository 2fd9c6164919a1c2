// The --kokkos-* flags and KOKKOS_* variables whose values Kokkos reads, checked before Kokkos::initialize:
// a bad value there ends the process (Kokkos 4.x aborts, 3.x throws from std::stoi), so it would escape
// the bad-input contract (exit 2 on every rank, the flag, the value and what is allowed).
#pragma once
#include <string>

namespace proxylab {

// The thread-count flag the linked Kokkos accepts: --kokkos-num-threads (3.7 and later) or --kokkos-threads.
std::string kokkos_num_threads_flag();
std::string kokkos_version_text();  // "4.6.1"

// "" when every --kokkos-* value in argv and every KOKKOS_* value in the environment is well formed,
// else a message naming the flag or variable, its value and what is allowed.
std::string kokkos_arguments_problem(int argc, char** argv);

}  // namespace proxylab
