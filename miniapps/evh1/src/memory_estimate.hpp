// Peak memory of one evh1 rank from the grid and its decomposition (before the domain allocates): the
// state arrays, transpose or halo buffers, the sweep's per-thread scratch and what verification holds (a copy of
// the rank's own zones and their mirror images; the whole grid only for verify.against_reference, and for the
// density file on rank 0), counted from the code that allocates them (memory_budget.hpp; the unit tests compare it
// with what Kokkos allocates and check that it falls as 1 / ranks).
#pragma once
#include "domain.hpp"
#include "proxylab/memory_budget.hpp"
#include "run_options.hpp"

namespace proxylab::evh1 {

// px = py = 0: algorithm transpose over `ranks`; otherwise the halo algorithm's px x py blocks. `rank`: this rank
// (rank 0 writes the density file). comm: the run's comm options (host copies for MPI).
MemoryEstimate estimate_memory(const RunOptions& o, CommOptions comm, const GridSpec& g, int rank, int ranks, int px,
                               int py);

}  // namespace proxylab::evh1
