// What evh1 does differently on the build's default execution space: the one place it asks whether that space is the
// host (kokkos-fft and ectrans keep a back end per file for the same reason). The sources and tests branch on these
// names, which say what differs, never on the space itself.
#pragma once
#include "proxylab/layout.hpp"

namespace proxylab::evh1::backend {

// The sweeps time their PPM phases inside the kernels, per block (a host thread reads a clock there). A device kernel
// has no host clock: a device times each sweep whole (sweep_x, sweep_y in the timer table).
constexpr bool phase_timers = mem_space_on_host;
// The fields live in host-readable memory: no host mirror for verification, and the host-only reference shapes (lane
// by lane, thread by thread) can read them. A device runs those shapes itself, in its own mappings.
constexpr bool fields_on_host = mem_space_on_host;
// Team scratch comes from each host thread's own pool, of any size and one per thread; on a device it is bounded
// (Kokkos' scratch_size_max) and shared by the teams in flight.
constexpr bool host_team_scratch = mem_space_on_host;
// The transposes' block copies run a block per host thread, in cache tiles; a device runs a kernel per block, a thread
// per element.
constexpr bool block_copies_per_thread = mem_space_on_host;

}  // namespace proxylab::evh1::backend
