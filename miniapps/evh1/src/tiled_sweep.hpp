// mapping=tiled: the PPM sweep with a thread per zone (bench/evh1/README.md, "GPU design"). Each pencil is cut into
// tiles of `width` zones; a team of `threads` = width + tile_margin threads sweeps one tile, thread t loading zone
// t - nghost of it (the tile and its nghost ghost zones each side) and taking element t, t + threads, ... of every
// kernel's loop (lanes.hpp TeamThreads), the tile's temporaries in level-0 team scratch (shared memory on a GPU),
// team barriers between the kernels (ppm_block.hpp). Host back ends run the same tile program with one thread per
// team (AllLanes on a pencil of the tile's zones).
//
// The sweep updates the fields in place while neighbouring tiles read each other's zones, so a first pass copies
// the original values of the zones within nghost of every tile boundary (the seams, pencil ends included) into a
// buffer; a tile reads those from the seams and only its own interior from the fields (which only it writes).
// Every zone's update reads the state within nghost zones (gas.hpp), so a tile's zones get the numbers of the
// whole-pencil sweep bit for bit.
#pragma once
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <vector>

#include "gas.hpp"
#include "sweep.hpp"

namespace proxylab::evh1 {

// Threads of a team beyond the zones it updates: nghost ghost zones and one face each side.
constexpr int tile_margin = 2 * (nghost + 1);
// Zones per seam: nghost each side of a tile boundary.
constexpr int seam_zones = 2 * nghost;

// Threads per tile compiled for `tiled` (evh1.tile).
const std::vector<int>& tile_thread_choices();

// The index maps of a sweep's tiles and seams (pencils of nzones zones, tiles of width zones).
struct TileMap {
  int nzones = 0, width = 0, tiles = 0;
  Boundary left = Boundary::reflect, right = Boundary::reflect;

  TileMap() = default;
  TileMap(const Pencils& pc, int threads)
      : nzones(pc.nzones),
        width(threads - tile_margin),
        tiles((pc.nzones + threads - tile_margin - 1) / (threads - tile_margin)),
        left(pc.left),
        right(pc.right) {}

  // First zone of tile k (k = tiles: the pencil's end); seam s sits at the boundary begin(s).
  KOKKOS_INLINE_FUNCTION int begin(int k) const { return k * width < nzones ? k * width : nzones; }
  // Whether zone z (of [-nghost, nzones + nghost)) exists in the fields: inside, or a neighbour's ghost zone.
  KOKKOS_INLINE_FUNCTION bool readable(int z) const {
    return (z >= 0 || left == Boundary::neighbor) && (z < nzones || right == Boundary::neighbor);
  }
  // Element o of seam s, variable var, of pencil q in the seam buffer.
  KOKKOS_INLINE_FUNCTION std::size_t seam_index(int q, int s, int var, int o) const {
    return ((std::size_t(q) * (tiles + 1) + s) * nvars + var) * seam_zones + o;
  }

  // Where tile k finds zone g of its pencil (g in [begin(k) - nghost, begin(k + 1) + nghost)): VH-1 sweepbc's
  // source zone of a ghost zone (g itself inside the pencil or beyond a neighbour end), the sign of the normal
  // velocity there (-1 beyond a reflecting wall), and the seam that holds its original value (-1: the tile's own
  // interior, read from the fields).
  struct Source {
    int zone;
    double normal_sign;
    int seam;
  };
  KOKKOS_INLINE_FUNCTION Source source(int k, int g) const {
    Source s{g, 1.0, -1};
    const int n = nzones;
    if (g < 0 && left != Boundary::neighbor) {
      const int d = -g;  // ghost d = 1..nghost
      s.zone = left == Boundary::reflect ? d - 1 : left == Boundary::outflow ? 0 : n - d;
      s.normal_sign = left == Boundary::reflect ? -1.0 : 1.0;
    } else if (g >= n && right != Boundary::neighbor) {
      const int d = g - n + 1;
      s.zone = right == Boundary::reflect ? n - d : right == Boundary::outflow ? n - 1 : d - 1;
      s.normal_sign = right == Boundary::reflect ? -1.0 : 1.0;
    }
    const int z = s.zone, lo = begin(k), hi = begin(k + 1);
    if (z >= lo + nghost && z < hi - nghost) return s;  // the interior: only this tile writes it
    if (z >= lo - nghost && z < lo + nghost)
      s.seam = k;
    else if (z >= hi - nghost && z < hi + nghost)
      s.seam = k + 1;
    else if (z < nghost)  // a boundary condition's source near the left end
      s.seam = 0;
    else  // ... or near the right end
      s.seam = tiles;
    return s;
  }
  KOKKOS_INLINE_FUNCTION int seam_offset(int s, int zone) const { return zone - (begin(s) - nghost); }
};

// Advances every pencil by dt (sweep()): tiles of `threads` threads (evh1.tile).
PhaseTimes sweep_tiled(const Pencils& pencils, double dt, double dx, const Gas& gas, int threads);

// Whether the emulation below gives each thread its own index (used) or thread 0's (ignored: the check that the
// emulation can fail).
enum class ThreadIndex { used, ignored };

// The device shape of `tiled` run on the host thread by thread: every thread of a tile in turn (in an order unlike
// their index order), each doing its own elements of the stretch between two team barriers, one stretch after
// another. Throws RuntimeError when the threads of a tile reach different numbers of barriers (a device would
// hang). Host back ends only.
void sweep_tiled_thread_by_thread(const Pencils& pencils, double dt, double dx, const Gas& gas, int threads,
                                  ThreadIndex index = ThreadIndex::used);

// Level-0 team scratch of one tile of `threads` threads; the seam buffer of a sweep (bytes).
std::size_t tile_scratch_bytes(int threads);
std::size_t tile_seam_bytes(int npencils, int nzones, int threads);
// The most level-0 scratch the execution space gives one team (CUDA: the shared memory of a block).
std::size_t tile_scratch_limit();

}  // namespace proxylab::evh1
