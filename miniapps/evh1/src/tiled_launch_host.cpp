// mapping=tiled on a host back end (tile_program.hpp): a team of one thread per tile.
#include <Kokkos_Core.hpp>

#include "tile_program.hpp"

namespace proxylab::evh1 {

// VH-1: sweepx / sweepy -> ppmlr over the tiles, each tile's zones the thread's vector.
PhaseTimes launch_tiles(const Tiles& tiles, int npencils, int threads) {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  const int per_pencil = tiles.map.tiles, nteams = npencils * per_pencil, width = tiles.map.width;
  const std::size_t bytes = tile_scratch_bytes(threads);
  Policy policy(nteams, 1);
  policy.set_scratch_size(0, Kokkos::PerTeam(bytes));
  Kokkos::View<double**, Kokkos::HostSpace> times("evh1::phase_times", nteams, nphases);
  Kokkos::parallel_for("evh1::sweep_tiled", policy, [=](const Member& team) {
    Work w(static_cast<double*>(team.team_scratch(0).get_shmem(bytes)), width, 1);
    const int r = team.league_rank();
    PhaseTimes t{};
    HostStopwatch watch;
    tiles.run(w, r / per_pencil, r % per_pencil, AllLanes{}, t.data(), watch);
    for (int k = 0; k < nphases; ++k) times(r, k) = t[k];
  });
  Kokkos::fence();
  PhaseTimes total{};
  for (int b = 0; b < nteams; ++b)
    for (int k = 0; k < nphases; ++k) total[k] += times(b, k);
  return total;
}

}  // namespace proxylab::evh1
