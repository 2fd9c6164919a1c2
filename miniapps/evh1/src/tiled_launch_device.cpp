// mapping=tiled on a device back end (tile_program.hpp): a team of `threads` threads per tile, a thread per zone.
#include <Kokkos_Core.hpp>

#include "tile_program.hpp"

namespace proxylab::evh1 {

// VH-1: sweepx / sweepy -> ppmlr over the tiles; thread t loads zone t - nghost of its tile, takes element t,
// t + threads, ... of every kernel's loop, stores zone t. Untimed inside (no host clock in a kernel).
PhaseTimes launch_tiles(const Tiles& tiles, int npencils, int threads) {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  const int per_pencil = tiles.map.tiles, width = tiles.map.width;
  const std::size_t bytes = tile_scratch_bytes(threads);
  Policy policy(npencils * per_pencil, threads);
  policy.set_scratch_size(0, Kokkos::PerTeam(bytes));
  Kokkos::parallel_for(
      "evh1::sweep_tiled", policy, KOKKOS_LAMBDA(const Member& team) {
        Work w(static_cast<double*>(team.team_scratch(0).get_shmem(bytes)), width, 1);
        const int r = team.league_rank();
        double t[nphases] = {};
        NoStopwatch watch;
        tiles.run(w, r / per_pencil, r % per_pencil, TeamThreads<Member>{team.team_rank(), threads, team}, t, watch);
      });
  Kokkos::fence();
  return PhaseTimes{};
}

}  // namespace proxylab::evh1
