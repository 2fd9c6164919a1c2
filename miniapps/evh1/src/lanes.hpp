// Which pencils (lanes) of a block of B the calling thread sweeps. The kernels loop over zone-major arrays (element
// of zone n, lane l at n * B + l) as `for (i = lo * B + lanes.first; i < hi * B; i += lanes.step)` and over lanes as
// `for (l = lanes.first; l < B; l += lanes.step)`:
//   AllLanes    one thread sweeps the whole block, the lanes are its vector (host back ends): first 0, step 1
//   OneLane     thread l of a team of B sweeps lane l alone (device back ends: neighbouring threads touch
//               neighbouring doubles): first l, step B
//   TeamThreads a team of T threads on one pencil (B = 1; mapping tiled on device back ends, tiled_sweep.hpp):
//               thread t takes elements t, t + T, ... of every loop: first t, step T
// Lanes never read each other's elements, so AllLanes and OneLane give the same numbers; the one array the lanes
// share (the face coordinates of a block) is written by lane 0 before a sync(). TeamThreads' threads read their
// neighbours' elements: the kernels sync() wherever a loop reads what the loop before wrote (a team barrier there).
#pragma once
#include <Kokkos_Core.hpp>

namespace proxylab::evh1 {

struct AllLanes {
  static constexpr int first = 0, step = 1;
  KOKKOS_INLINE_FUNCTION void sync() const {}
};

// Team: a Kokkos team member (or anything with team_barrier()).
template <int B, class Team>
struct OneLane {
  int first;
  const Team& team;
  static constexpr int step = B;
  KOKKOS_INLINE_FUNCTION void sync() const { team.team_barrier(); }
};

template <class Team>
struct TeamThreads {
  int first, step;
  const Team& team;
  KOKKOS_INLINE_FUNCTION void sync() const { team.team_barrier(); }
};

}  // namespace proxylab::evh1
