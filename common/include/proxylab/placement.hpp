// Where a run's ranks and threads ran: each rank's host and the cores (CPU numbers) the launcher bound
// it to and each of its threads may run on (sched_getaffinity), gathered on rank 0 for the header and
// the record, so a multi-node run can be reconstructed and a shared core seen (tests check bound ranks
// get disjoint sets).
#pragma once
#include <mpi.h>

#include <nlohmann/json.hpp>
#include <string>

namespace proxylab {

// This process's CPU set as the launcher left it, e.g. "0-3,8". Call before Kokkos::initialize (the
// OpenMP runtime then binds the main thread to its first place).
std::string process_cpus();

// Collective; the result on rank 0 (other ranks: an empty array): one object per rank with
// "rank", "host", "cpus" (the process's set from process_cpus) and "thread_cpus" (per host thread).
nlohmann::json gather_placement(MPI_Comm comm, const std::string& cpus_at_start);

// One line for the header: "rank 0 host cpus 0 (threads 0), rank 1 ..." (the first `max_ranks` ranks).
std::string placement_summary(const nlohmann::json& placement, int max_ranks = 8);

}  // namespace proxylab
