// Halo probe: the POP / HALO-benchmark 2-D ghost-cell update (edges and corners, eight neighbours,
// doubly periodic process grid) for every strategy of common/comm/halo.hpp, over tile sizes and halo
// widths: microseconds per exchange. Before each exchange the ghosts are reset to a sentinel; after
// it every ghost must hold the global-index value of the cell it mirrors.
#include <algorithm>
#include <map>

#include "probes.hpp"
#include "proxylab/comm/halo.hpp"

namespace proxylab::comm {
namespace {

KOKKOS_INLINE_FUNCTION double cell_value(int f, int gy, int gx, int NX) {
  return f * 1.0e9 + static_cast<double>(gy) * NX + gx;
}
constexpr double sentinel = -1.0;

void fill_interior(const View3D<double>& v, int w, int x0, int y0, int NX) {
  const int nf = v.extent(0), ny = v.extent(1) - 2 * w, nx = v.extent(2) - 2 * w;
  Kokkos::parallel_for(
      "comm::halo_fill", Kokkos::RangePolicy<ExecSpace>(0, nf * ny * nx), KOKKOS_LAMBDA(int idx) {
        const int f = idx / (ny * nx), r = idx % (ny * nx), y = r / nx, x = r % nx;
        v(f, y + w, x + w) = cell_value(f, y0 + y, x0 + x, NX);
      });
}

// Ghost cells only: w rows at the bottom and top (full width), w columns left and right.
void reset_ghosts(const View3D<double>& v, int w) {
  const int nf = v.extent(0), H = v.extent(1), W = v.extent(2), ny = H - 2 * w;
  const int rows = 2 * w * W, cols = 2 * w * ny, per = rows + cols;
  Kokkos::parallel_for(
      "comm::halo_reset", Kokkos::RangePolicy<ExecSpace>(0, nf * per), KOKKOS_LAMBDA(int idx) {
        const int f = idx / per, r = idx % per;
        if (r < rows) {
          const int y = r / W, x = r % W;
          v(f, y < w ? y : H - 2 * w + y, x) = sentinel;
        } else {
          const int y = (r - rows) / (2 * w), c = (r - rows) % (2 * w);
          v(f, w + y, c < w ? c : W - 2 * w + c) = sentinel;
        }
      });
  Kokkos::fence();
}

// Ghosts that do not hold the value of the (periodic) global cell they mirror.
long long wrong_ghosts(const View3D<double>& v, int w, int x0, int y0, int NX, int NY) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  const int nf = h.extent(0), H = h.extent(1), W = h.extent(2);
  long long wrong = 0;
  auto check = [&](int f, int y, int x) {
    const int gy = (y0 + y - w + NY) % NY, gx = (x0 + x - w + NX) % NX;
    wrong += h(f, y, x) != cell_value(f, gy, gx, NX);
  };
  for (int f = 0; f < nf; ++f)
    for (int y = 0; y < H; ++y) {
      if (y < w || y >= H - w) {
        for (int x = 0; x < W; ++x) check(f, y, x);
      } else {
        for (int x = 0; x < w; ++x) check(f, y, x), check(f, y, W - w + x);
      }
    }
  return wrong;
}

}  // namespace

void probe_halo(RunContext& ctx, const Settings& s) {
  const auto grid = ProcessGrid::make_2d(ctx.comm, 0, 0, true, true);
  ResultTable table(ctx, "halo",
                    "halo: 2-D ghost update, edges + corners, " + std::to_string(grid.px()) + " x " +
                        std::to_string(grid.py()) + " periodic ranks, " + std::to_string(s.halo_fields) +
                        " field(s); tile = interior cells per rank per side; GB/s = bytes sent per rank / time",
                    {"strategy", "tile", "width", "messages", "bytes", "t_min_us", "t_med_us", "t_max_us", "gbs_med"});
  long long wrong = 0, checked = 0;
  std::map<std::pair<int, int>, std::pair<double, std::string>> best;  // (tile, width) -> fastest median
  for (int tile : s.halo_tiles)
    for (int w : s.halo_widths) {
      if (w > tile) continue;  // reported by the deck check; skipped here
      const int NX = tile * grid.px(), NY = tile * grid.py(), x0 = tile * grid.cx(), y0 = tile * grid.cy();
      View3D<double> v("comm::halo_fields", s.halo_fields, tile + 2 * w, tile + 2 * w);
      fill_interior(v, w, x0, y0, NX);
      const int reps = repetitions_for(8LL * s.halo_fields * tile * tile, s.repetitions), total = s.warmup + reps;
      for (const auto& name : s.halo_strategies) {
        auto halo =
            HaloExchange::create(parse_halo_strategy(name), grid, tile, tile, w, s.halo_fields, ctx.comm_options);
        std::vector<double> t(total, 0.0);
        for (int rep = 0; rep < total; ++rep) {
          reset_ghosts(v, w);
          start_repetition(ctx);
          const double t0 = MPI_Wtime();
          halo->exchange(v);
          t[rep] = MPI_Wtime() - t0;
          wrong += wrong_ghosts(v, w, x0, y0, NX, NY);
          checked += static_cast<long long>(s.halo_fields) * ((tile + 2 * w) * (tile + 2 * w) - tile * tile);
        }
        const Stats st = reduce_times(ctx.comm, t, s.warmup);
        const long long bytes = halo->bytes_per_exchange();
        const double bw = st.median > 0 ? bytes / st.median * 1e-9 : 0.0;
        table.row(
            {name, tile, w, halo->messages_per_exchange(), bytes, st.min * 1e6, st.median * 1e6, st.max * 1e6, bw});
        auto& b = best[{tile, w}];
        if (b.second.empty() || st.median < b.first) b = {st.median, name};
      }
    }
  nlohmann::json winners = nlohmann::json::array();
  std::string line = "  fastest (median):";
  for (const auto& [key, b] : best) {
    winners.push_back(
        {{"tile", key.first}, {"width", key.second}, {"strategy", b.second}, {"t_med_us", b.first * 1e6}});
    line += " " + std::to_string(key.first) + "/w" + std::to_string(key.second) + "=" + b.second;
  }
  ctx.out() << line << "\n";
  ctx.report.results()["halo_fastest"] = winners;
  check_payloads(ctx, "halo", wrong, checked);
}

}  // namespace proxylab::comm
