// The program of mapping=tiled (tiled_sweep.hpp): what one team does to one tile, the seams it reads, and the
// launch that runs it, a file per shape since the host's and the device's differ (tiled_launch_host.cpp,
// tiled_launch_device.cpp; CMake builds the one of the default execution space).
#pragma once
#include <Kokkos_Core.hpp>

#include "ppm_block.hpp"
#include "tiled_sweep.hpp"

namespace proxylab::evh1 {

using SeamView = View1D<double>;

struct Tiles {
  Block<1> block;  // the whole pencils; a tile is a Block<1> of its own zones (tile_block)
  TileMap map;
  SeamView seams;

  // VH-1: sweepbc's sources, read once before any tile writes: seam element o of (pencil q, seam s, var).
  KOKKOS_INLINE_FUNCTION void copy_seam(int q, int s, int var, int o) const {
    const int z = map.begin(s) - nghost + o;
    if (map.readable(z)) seams(map.seam_index(q, s, var, o)) = block.at(var, q, z);
  }

  KOKKOS_INLINE_FUNCTION Block<1> tile_block(int k) const {
    Block<1> b = block;
    b.pc.nzones = map.begin(k + 1) - map.begin(k);
    b.pc.first_face += map.begin(k);  // global face indices: the whole pencil's face coordinates
    b.pc.left = k == 0 ? block.pc.left : Boundary::neighbor;
    b.pc.right = k == map.tiles - 1 ? block.pc.right : Boundary::neighbor;
    return b;
  }

  // VH-1: ppmlr on tile k of pencil q: load the tile and its ghost zones (thread t: zone t - nghost), sweep, store
  // its zones (thread t: zone t).
  template <class Lanes, class Stopwatch>
  KOKKOS_INLINE_FUNCTION void run(Work& w, int q, int k, const Lanes& lanes, double* t, Stopwatch& watch) const {
    const Block<1> tile = tile_block(k);
    const int z0 = map.begin(k), len = tile.pc.nzones;
    const int vars[4] = {var_rho, var_p, block.pc.normal, block.pc.transverse};
    const int slots[4] = {Work::r, Work::p, Work::u, Work::v};
    watch.restart();
    for (int z = -nghost + lanes.first; z < len + nghost; z += lanes.step) {
      const TileMap::Source src = map.source(k, z0 + z);
      for (int v = 0; v < 4; ++v) {
        const double x = src.seam < 0
                             ? block.at(vars[v], q, src.zone)
                             : seams(map.seam_index(q, src.seam, vars[v], map.seam_offset(src.seam, src.zone)));
        w.a[slots[v]][z] = slots[v] == Work::u ? src.normal_sign * x : x;
      }
    }
    lanes.sync();
    t[phase_parabola] += watch.lap();
    tile.advance(w, q, lanes, t, watch);
    watch.restart();
    for (int z = lanes.first; z < len; z += lanes.step)
      for (int v = 0; v < 4; ++v) block.at(vars[v], q, z0 + z) = w.a[slots[v]][z];
    t[phase_remap] += watch.lap();
  }
};

// The tiles of a sweep, their seams copied (VH-1 sweepbc's sources, read before any tile writes).
Tiles seamed_tiles(const Pencils& pc, double dt, double dx, const Gas& gas, int threads);

// One team per tile (league rank: pencil-major), its temporaries in level-0 team scratch. Host back ends: a team of
// one thread, the tile's zones its vector (AllLanes), the phase times per tile summed. Device back ends: a team of
// `threads` threads, a thread per zone (TeamThreads); no host clock inside the kernel (the sweep is timed whole).
PhaseTimes launch_tiles(const Tiles& tiles, int npencils, int threads);

}  // namespace proxylab::evh1
