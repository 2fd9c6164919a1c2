// Shock flattening (Colella & Woodward 1984, appendix; VH-1 flatten): near a strong, compressive
// shock the parabolae are blended towards the zone average, flat in [0, 1].
// Arrays are zone-major with `B` lanes (element of zone n, lane l at n*B + l); B = 1 is one pencil.
#pragma once
#include "lanes.hpp"
#include "proxylab/kmath.hpp"

namespace proxylab::evh1 {

constexpr double flatten_epsilon = 0.33, flatten_omega1 = 0.75, flatten_omega2 = 10.0;

// VH-1: flatten. steep: scratch; flat written for zones [lo, hi) (reads p, u in [lo - 3, hi + 3)).
template <int B, class Lanes = AllLanes>
KOKKOS_INLINE_FUNCTION void flatten(const double* KOKKOS_RESTRICT p, const double* KOKKOS_RESTRICT u,
                                    double* KOKKOS_RESTRICT steep, double* KOKKOS_RESTRICT flat, int lo, int hi,
                                    Lanes lanes = {}) {
  for (int i = (lo - 1) * B + lanes.first; i < (hi + 1) * B; i += lanes.step) {
    const double dp = p[i + B] - p[i - B], dp2 = p[i + 2 * B] - p[i - 2 * B];
    const double safe = dp2 != 0.0 ? dp2 : 1.0, ratio = dp2 != 0.0 ? dp / safe : 0.0;
    const double f = flatten_omega2 * (ratio - flatten_omega1), upper = f > 1.0 ? 1.0 : f;
    const double pp = p[i + B], pm = p[i - B], pmin = pp < pm ? pp : pm;
    // nested selects, no branch and no bool arithmetic, so the loop vectorizes
    const double clamped = upper < 0.0 ? 0.0 : upper;
    const double compressive = u[i - B] > u[i + B] ? clamped : 0.0;
    steep[i] = kmath::fabs(dp) > flatten_epsilon * pmin ? compressive : 0.0;
  }
  lanes.sync();  // a team on one pencil reads its neighbours' steep
  for (int i = lo * B + lanes.first; i < hi * B; i += lanes.step) {
    const double dp = p[i + B] - p[i - B];
    // the upstream neighbour's (VH-1); with equal pressures on both sides the larger, the choice a mirror image makes
    const double right = steep[i + B], left = steep[i - B], larger = right > left ? right : left;
    const double other = dp < 0.0 ? right : dp > 0.0 ? left : larger;
    flat[i] = steep[i] > other ? steep[i] : other;
  }
}

}  // namespace proxylab::evh1
