// Peak memory of one pop rank, from the deck alone (before any set-up work): the arrays the run holds at
// once, counted from the code that allocates them (memory_budget.hpp; the unit test compares it with what
// Kokkos allocates).
#pragma once
#include "proxylab/memory_budget.hpp"
#include "run_options.hpp"

namespace proxylab::pop {

MemoryEstimate estimate_memory(const RunOptions& o, int ranks);

}  // namespace proxylab::pop
