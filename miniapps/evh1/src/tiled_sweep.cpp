// VH-1: sweepx / sweepy -> sweepbc, ppmlr with a thread per zone (tiled_sweep.hpp). The launch: host back ends a
// team of one thread per tile, device back ends a team of `threads` threads; the tile program is the same.
#include "tiled_sweep.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>

#include "ppm_block.hpp"
#include "proxylab/errors.hpp"

namespace proxylab::evh1 {

const std::vector<int>& tile_thread_choices() {
  static const std::vector<int> n{32, 64, 128, 256, 512};
  return n;
}

namespace {

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

Tiles make_tiles(const Pencils& pc, double dt, double dx, const Gas& gas, int threads) {
  const TileMap map(pc, threads);
  SeamView seams(Kokkos::view_alloc(Kokkos::WithoutInitializing, "evh1::seams"), map.seam_index(pc.npencils, 0, 0, 0));
  return {Block<1>{pc, dt, dx, gas}, map, seams};
}

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

std::size_t tile_scratch_bytes(int threads) { return Work::doubles(threads - tile_margin, 1) * sizeof(double); }

std::size_t tile_seam_bytes(int npencils, int nzones, int threads) {
  Pencils pc;
  pc.nzones = nzones;
  return TileMap(pc, threads).seam_index(npencils, 0, 0, 0) * sizeof(double);
}

std::size_t tile_scratch_limit() {
  if constexpr (mem_space_on_host) return SIZE_MAX;
  return Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0);
}

namespace {

// One team per tile (league rank: pencil-major), its temporaries in level-0 team scratch. Host back ends: a team of
// one thread, the tile's zones its vector (AllLanes), phase times per tile summed. Device back ends: a team of
// `threads` threads, a thread per zone (TeamThreads).
template <class Space>
PhaseTimes launch_tiles(const Tiles& tiles, int npencils, int threads) {
  using Policy = Kokkos::TeamPolicy<Space>;
  using Member = typename Policy::member_type;
  const int per_pencil = tiles.map.tiles, nteams = npencils * per_pencil, width = tiles.map.width;
  const std::size_t bytes = tile_scratch_bytes(threads);
  PhaseTimes total{};
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible) {
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
    for (int b = 0; b < nteams; ++b)
      for (int k = 0; k < nphases; ++k) total[k] += times(b, k);
  } else {
    Policy policy(nteams, threads);
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
  }
  return total;
}

}  // namespace

PhaseTimes sweep_tiled(const Pencils& pc, double dt, double dx, const Gas& gas, int threads) {
  const Tiles tiles = make_tiles(pc, dt, dx, gas, threads);
  copy_seams(tiles, pc.npencils);
  return launch_tiles<ExecSpace>(tiles, pc.npencils, threads);
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
  if (!mem_space_on_host)  // the host thread reads the fields; a device runs this shape itself
    throw RuntimeError("evh1 sweep_tiled_thread_by_thread: host back ends only");
  const Tiles tiles = make_tiles(pc, dt, dx, gas, threads);
  copy_seams(tiles, pc.npencils);
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
