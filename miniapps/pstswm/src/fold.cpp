// STSWM: the fold before fltsum and the unfold after fltinv, over the two-pass path's whole Fourier array as tiled
// transposes (fold.hpp).
#include "fold.hpp"

namespace proxylab::pstswm {
namespace {
using Policy = Kokkos::TeamPolicy<ExecSpace>;
using Member = Policy::member_type;

Policy tile_policy(const FoldTiles& tiles, int nfields) {
  Policy policy(tiles.count(nfields), Kokkos::AUTO);
  policy.set_scratch_size(0, Kokkos::PerTeam(tiles.scratch_bytes()));
  return policy;
}
}  // namespace

void fold_tiled(const FoldKernel& k, int nfields, const double* four, const View1D<int>& mi_of_m) {
  const FoldTiles tiles(k.L, k.nh, k.kloc, nfields, k.nm);
  const int below = tiles.levels * FoldTiles::pitch;  // a north value's south value in scratch
  Kokkos::parallel_for(
      "pstswm::fold", tile_policy(tiles, nfields), KOKKOS_LAMBDA(const Member& team) {
        const FoldTiles::Tile t = tiles.tile(team.league_rank());
        double* s = static_cast<double*>(team.team_scratch(0).get_shmem(tiles.scratch_bytes()));
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tiles.row_elements()), [&](int e) {
          if (tiles.row_in_tile(t, e)) s[tiles.row_scratch(e)] = four[tiles.row_index(t, e)];
        });
        team.team_barrier();
        const double w = k.scale(((k.vec_mask >> t.f) & 1) * k.kloc + t.pl);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tiles.column_elements(t)), [&](int e) {
          const double north = s[tiles.column_scratch(e)], south = s[tiles.column_scratch(e) + below];
          const size_t at = tiles.column_index(t, mi_of_m(tiles.column_m(t, e)), e);
          k.E[at] = w * (north + south);
          k.O[at] = w * (north - south);
        });
      });
}

void unfold_tiled(const FoldKernel& k, int nfields, double* four, const View1D<int>& mi_of_m) {
  const FoldTiles tiles(k.L, k.nh, k.kloc, nfields, k.nh);
  const int below = tiles.levels * FoldTiles::pitch;
  Kokkos::parallel_for(
      "pstswm::unfold", tile_policy(tiles, nfields), KOKKOS_LAMBDA(const Member& team) {
        const FoldTiles::Tile t = tiles.tile(team.league_rank());
        double* s = static_cast<double*>(team.team_scratch(0).get_shmem(tiles.scratch_bytes()));
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tiles.column_elements(t)), [&](int e) {
          const int m = tiles.column_m(t, e);
          double north = 0.0, south = 0.0;  // the wavenumbers above N
          if (m < k.nm) {
            const size_t at = tiles.column_index(t, mi_of_m(m), e);
            north = k.E[at] + k.O[at];
            south = k.E[at] - k.O[at];
          }
          s[tiles.column_scratch(e)] = north;
          s[tiles.column_scratch(e) + below] = south;
        });
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tiles.row_elements()), [&](int e) {
          if (tiles.row_in_tile(t, e)) four[tiles.row_index(t, e)] = s[tiles.row_scratch(e)];
        });
      });
}

}  // namespace proxylab::pstswm
