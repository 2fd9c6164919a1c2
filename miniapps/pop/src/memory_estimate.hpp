// Peak memory of one pop rank, from the deck alone (before any set-up work): the arrays the run holds at
// once, counted from the code that allocates them (memory_budget.hpp; the unit test compares it with what
// Kokkos allocates).
#pragma once
#include "proxylab/config.hpp"
#include "proxylab/memory_budget.hpp"

namespace proxylab::pop {

MemoryEstimate estimate_memory(const Config& cfg, int ranks);

}  // namespace proxylab::pop
