// The sub-tests of the communication probe (one function each; see the .cpp files).
#pragma once
#include <string>

#include "probe_common.hpp"

namespace proxylab::comm {

void probe_pairs(RunContext& ctx, const Settings& s, const std::string& test);  // pingpong, echo, swap
void probe_ring(RunContext& ctx, const Settings& s);
void probe_halo(RunContext& ctx, const Settings& s);
void probe_halo3d(RunContext& ctx, const Settings& s);
void probe_alltoall(RunContext& ctx, const Settings& s);
void probe_allreduce(RunContext& ctx, const Settings& s);

}  // namespace proxylab::comm
