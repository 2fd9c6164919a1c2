// VH-1: sweepx / sweepy -> sweepbc, ppmlr (flatten, paraset, parabola, states, riemann, evolve, remap).
#include "sweep.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "backend.hpp"
#include "ppm_block.hpp"
#include "proxylab/errors.hpp"
#include "tiled_sweep.hpp"

namespace proxylab::evh1 {

namespace {

// The lane counts compiled for batched, written once: batched_lane_choices() lists them, with_batched_lanes(lanes, f)
// calls f(std::integral_constant<int, lanes>) (read_options refuses any other count; the last takes the rest).
template <int... B>
struct LaneCounts {};
using BatchedLanes = LaneCounts<4, 8, 16>;

template <int First, int... Rest, class F>
decltype(auto) with_lanes(int lanes, F&& f) {
  if constexpr (sizeof...(Rest) == 0) {
    return f(std::integral_constant<int, First>{});
  } else {
    if (lanes == First) return f(std::integral_constant<int, First>{});
    return with_lanes<Rest...>(lanes, f);
  }
}
template <int... B, class F>
decltype(auto) with_lanes(LaneCounts<B...>, int lanes, F&& f) {
  return with_lanes<B...>(lanes, f);
}
template <int... B>
std::vector<int> listed(LaneCounts<B...>) {
  return {B...};
}

}  // namespace

const std::vector<int>& batched_lane_choices() {
  static const std::vector<int> n = listed(BatchedLanes{});
  return n;
}

namespace {

// One team per block of B pencils, its temporaries in team scratch. Host back ends: a team of one thread sweeps
// the block's lanes as its vector (AllLanes). Device back ends: a team of B threads, one lane each (OneLane).
template <int B>
PhaseTimes sweep_lanes(const Pencils& pc, double dt, double dx, const Gas& gas) {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  const int nblocks = (pc.npencils + B - 1) / B;
  const std::size_t bytes = Work::doubles(pc.nzones, B) * sizeof(double);
  const Block<B> block{pc, dt, dx, gas};
  const int nzones = pc.nzones;
  PhaseTimes total{};
  if constexpr (backend::phase_timers) {  // phase times per block, summed
    Policy policy(nblocks, 1);
    policy.set_scratch_size(1, Kokkos::PerTeam(bytes));
    Kokkos::View<double**, Kokkos::HostSpace> times("evh1::phase_times", nblocks, nphases);
    Kokkos::parallel_for("evh1::sweep", policy, [=](const Member& team) {
      Work w(static_cast<double*>(team.team_scratch(1).get_shmem(bytes)), nzones, B);
      const int q0 = team.league_rank() * B;
      const AllLanes lanes;
      PhaseTimes t{};
      HostStopwatch watch;
      block.gather(w, q0, lanes);
      t[phase_parabola] += watch.lap();
      block.advance(w, q0, lanes, t.data(), watch);
      watch.restart();
      block.scatter(w, q0, lanes);
      t[phase_remap] += watch.lap();
      for (int k = 0; k < nphases; ++k) times(team.league_rank(), k) = t[k];
    });
    Kokkos::fence();
    for (int b = 0; b < nblocks; ++b)
      for (int k = 0; k < nphases; ++k) total[k] += times(b, k);
  } else {
    Policy policy(nblocks, B);
    policy.set_scratch_size(1, Kokkos::PerTeam(bytes));
    Kokkos::parallel_for(
        "evh1::sweep", policy, KOKKOS_LAMBDA(const Member& team) {
          Work w(static_cast<double*>(team.team_scratch(1).get_shmem(bytes)), nzones, B);
          const int q0 = team.league_rank() * B;
          const OneLane<B, Member> lanes{team.team_rank(), team};
          double t[nphases] = {};
          NoStopwatch watch;
          block.gather(w, q0, lanes);
          block.advance(w, q0, lanes, t, watch);
          block.scatter(w, q0, lanes);
        });
    Kokkos::fence();
  }
  return total;
}

// A team whose lanes run one after another on one thread (lane 0 first): no barrier needed.
struct SequentialTeam {
  KOKKOS_INLINE_FUNCTION void team_barrier() const {}
};

template <int B>
void sweep_lane_by_lane_blocks(const Pencils& pc, double dt, double dx, const Gas& gas) {
  const Block<B> block{pc, dt, dx, gas};
  std::vector<double> scratch(Work::doubles(pc.nzones, B));
  const SequentialTeam team;
  for (int q0 = 0; q0 < pc.npencils; q0 += B) {
    Work w(scratch.data(), pc.nzones, B);
    double t[nphases] = {};
    NoStopwatch watch;
    for (int l = 0; l < B; ++l) block.gather(w, q0, OneLane<B, SequentialTeam>{l, team});
    for (int l = 0; l < B; ++l) block.advance(w, q0, OneLane<B, SequentialTeam>{l, team}, t, watch);
    for (int l = 0; l < B; ++l) block.scatter(w, q0, OneLane<B, SequentialTeam>{l, team});
  }
}

}  // namespace

std::size_t sweep_scratch_bytes(int nzones, int lanes) { return Work::doubles(nzones, lanes) * sizeof(double); }

std::size_t sweep_scratch_limit() {
  if constexpr (backend::host_team_scratch) return SIZE_MAX;  // host teams get any size (their threads' own pools)
  return Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(1);
}

int sweep_teams_in_flight(int blocks) {
  if constexpr (backend::host_team_scratch) return HostExec().concurrency();  // every thread's scratch, blocks or not
  return std::max(1, std::min(ExecSpace().concurrency(), blocks));  // Kokkos' CUDA team scratch pool (teams of 1)
}

void sweep_lane_by_lane(const Pencils& pencils, double dt, double dx, const Gas& gas, int lanes) {
  if (!backend::fields_on_host)  // the host thread reads the fields; a device runs this shape itself
    throw RuntimeError("evh1 sweep_lane_by_lane: host back ends only");
  with_lanes(BatchedLanes{}, lanes,
             [&](auto b) { sweep_lane_by_lane_blocks<decltype(b)::value>(pencils, dt, dx, gas); });
}

PhaseTimes sweep(const Pencils& pencils, double dt, double dx, const Gas& gas, SweepMapping mapping, int width) {
  if (pencils.npencils <= 0) return PhaseTimes{};
  if (mapping == SweepMapping::pencil) return sweep_lanes<1>(pencils, dt, dx, gas);
  if (mapping == SweepMapping::tiled) return sweep_tiled(pencils, dt, dx, gas, width);
  return with_lanes(BatchedLanes{}, width,
                    [&](auto b) { return sweep_lanes<decltype(b)::value>(pencils, dt, dx, gas); });
}

}  // namespace proxylab::evh1
