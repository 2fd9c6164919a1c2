// Peak memory of one pop rank, from the deck alone (before any set-up work): the arrays the run holds at
// once, counted from the code that allocates them (memory_budget.hpp; the unit test compares it with what
// Kokkos allocates).
#pragma once
#include "proxylab/memory_budget.hpp"
#include "run_options.hpp"

namespace proxylab::pop {

MemoryEstimate estimate_memory(const RunOptions& o, int ranks);

// The estimate is a sum of live arrays, which the address space matches only if a freed array leaves it. glibc's
// malloc raises its mmap threshold to the size of each mmapped block freed (up to 32 MiB): after build_operator frees
// its depth temporaries, fields of that size come from the heap, where a freed one keeps its address space (and its
// pages) below a live one. Measured at 1400 x 1400 (15 MiB fields): a peak 75 MiB above the estimate, and a Kokkos
// allocation failing under ulimit -v that the memory check had accepted. A fixed threshold (glibc's default, which
// setting it stops adjusting) keeps each field a mapping of its own, unmapped when freed. Call before set-up.
void unpool_large_allocations();

}  // namespace proxylab::pop
