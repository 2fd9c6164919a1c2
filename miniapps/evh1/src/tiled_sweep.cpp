// VH-1: sweepx / sweepy -> sweepbc, ppmlr with a thread per zone (tiled_sweep.hpp): the seams, the sweep and its
// thread-by-thread emulation; the tile program in tile_program.hpp, its launches in tiled_launch_{host,device}.cpp.
#include "tiled_sweep.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>

#include "backend.hpp"
#include "proxylab/errors.hpp"
#include "tile_program.hpp"

namespace proxylab::evh1 {

const std::vector<int>& tile_thread_choices() {
  static const std::vector<int> n{32, 64, 128, 256, 512};
  return n;
}

namespace {

void copy_seams(const Tiles& tiles, int npencils) {
  const int per_pencil = (tiles.map.tiles + 1) * nvars * seam_zones;
  Kokkos::parallel_for(
      "evh1::seams", Kokkos::RangePolicy<ExecSpace>(0, std::int64_t(npencils) * per_pencil),
      KOKKOS_LAMBDA(std::int64_t i) {
        const int q = int(i / per_pencil), r = int(i % per_pencil);
        tiles.copy_seam(q, r / (nvars * seam_zones), r / seam_zones % nvars, r % seam_zones);
      });
}

}  // namespace

Tiles seamed_tiles(const Pencils& pc, double dt, double dx, const Gas& gas, int threads) {
  const TileMap map(pc, threads);
  SeamView seams(Kokkos::view_alloc(Kokkos::WithoutInitializing, "evh1::seams"), map.seam_index(pc.npencils, 0, 0, 0));
  const Tiles tiles{Block<1>{pc, dt, dx, gas}, map, seams};
  copy_seams(tiles, pc.npencils);
  return tiles;
}

std::size_t tile_scratch_bytes(int threads) { return Work::doubles(threads - tile_margin, 1) * sizeof(double); }

std::size_t tile_seam_bytes(int npencils, int nzones, int threads) {
  Pencils pc;
  pc.nzones = nzones;
  return TileMap(pc, threads).seam_index(npencils, 0, 0, 0) * sizeof(double);
}

std::size_t tile_scratch_limit() {
  if constexpr (backend::host_team_scratch) return SIZE_MAX;
  return Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0);
}

PhaseTimes sweep_tiled(const Pencils& pc, double dt, double dx, const Gas& gas, int threads) {
  return launch_tiles(seamed_tiles(pc, dt, dx, gas, threads), pc.npencils, threads);
}

namespace {

// The barrier count of one emulated thread and which stretch between barriers it runs now. first: the thread's
// index during that stretch, past every loop's end during the others.
struct EmulatedClock {
  static constexpr int idle = 1 << 28;
  int barriers = 0, active = 0, index = 0, first = idle;
  KOKKOS_INLINE_FUNCTION void at(int barrier) { first = barrier == active ? index : idle; }
};

// A thread of a tile's team on the host (lanes.hpp's interface): loops read `first` afresh, so a sync() inside a
// kernel moves the thread into the next stretch for the rest of the program.
struct EmulatedThread {
  const int& first;
  int step;
  EmulatedClock* clock;
  KOKKOS_INLINE_FUNCTION void sync() const { clock->at(++clock->barriers); }
};

}  // namespace

void sweep_tiled_thread_by_thread(const Pencils& pc, double dt, double dx, const Gas& gas, int threads,
                                  ThreadIndex index) {
  if (!backend::fields_on_host)  // the host thread reads the fields; a device runs this shape itself
    throw RuntimeError("evh1 sweep_tiled_thread_by_thread: host back ends only");
  const Tiles tiles = seamed_tiles(pc, dt, dx, gas, threads);
  Kokkos::fence();
  std::vector<double> scratch(tile_scratch_bytes(threads) / sizeof(double));
  std::vector<int> order(threads);
  for (int t = 0; t < threads; ++t) order[t] = (13 * t + 5) % threads;  // a permutation (threads: powers of 2)
  for (int q = 0; q < pc.npencils; ++q)
    for (int k = 0; k < tiles.map.tiles; ++k) {
      Work w(scratch.data(), tiles.map.width, 1);
      double t[nphases] = {};
      NoStopwatch watch;
      int stretches = 1;
      for (int s = 0; s < stretches; ++s)
        for (int thread : order) {
          EmulatedClock clock{0, s, index == ThreadIndex::used ? thread : 0};
          clock.at(0);
          tiles.run(w, q, k, EmulatedThread{clock.first, threads, &clock}, t, watch);
          if (s == 0 && thread == order[0]) stretches = clock.barriers + 1;
          if (clock.barriers + 1 != stretches)
            throw RuntimeError("evh1 tiled: the threads of a tile reach different numbers of team barriers");
        }
    }
}

}  // namespace proxylab::evh1
