// Peak memory of one fft3d rank from its decomposition (before any plan or array): the arrays of
// DistributedFFT and of the driver, counted from the code that allocates them (memory_budget.hpp; the
// unit test compares it with what Kokkos allocates).
#pragma once
#include "decomposition.hpp"
#include "proxylab/memory_budget.hpp"
#include "run_options.hpp"

namespace proxylab::fft3d {

// The in-run copy ceiling of pack + unpack copies the bytes they copy per transform, at most this many complex
// values (128 MiB: far beyond the caches, so the rate is the memory's; a bigger copy would cost memory only).
constexpr long long copy_ceiling_max_values = 1LL << 23;

MemoryEstimate estimate_memory(const Decomposition& d, const RunOptions& o, int rank, int ranks);

}  // namespace proxylab::fft3d
