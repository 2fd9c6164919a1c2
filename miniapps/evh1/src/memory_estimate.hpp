// Peak memory of one evh1 rank from the grid and its decomposition (before the domain allocates): the
// state arrays, transpose or halo buffers, the sweep's per-thread scratch and the global fields that
// verification gathers on every rank, counted from the code that allocates them (memory_budget.hpp; the
// unit test compares it with what Kokkos allocates).
#pragma once
#include "domain.hpp"
#include "proxylab/memory_budget.hpp"
#include "run_options.hpp"

namespace proxylab::evh1 {

// px = py = 0: algorithm transpose over `ranks`; otherwise the halo algorithm's px x py blocks.
MemoryEstimate estimate_memory(const RunOptions& o, const GridSpec& g, int ranks, int px, int py);

}  // namespace proxylab::evh1
