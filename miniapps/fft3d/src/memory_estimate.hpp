// Peak memory of one fft3d rank from its decomposition (before any plan or array): the arrays of
// DistributedFFT and of the driver, counted from the code that allocates them (memory_budget.hpp; the
// unit test compares it with what Kokkos allocates).
#pragma once
#include "decomposition.hpp"
#include "proxylab/config.hpp"
#include "proxylab/memory_budget.hpp"

namespace proxylab::fft3d {

MemoryEstimate estimate_memory(const Decomposition& d, const Config& cfg, int rank, int ranks);

}  // namespace proxylab::fft3d
