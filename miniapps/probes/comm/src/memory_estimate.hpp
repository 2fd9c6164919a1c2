// Peak memory of one comm-probe rank from its settings (before any buffer): sub-tests run one after the
// other and free their buffers, so the peak is the largest sub-test's (memory_budget.hpp).
#pragma once
#include "probe_common.hpp"
#include "proxylab/memory_budget.hpp"

namespace proxylab::comm {

MemoryEstimate estimate_memory(const Settings& s);

}  // namespace proxylab::comm
