// The global POP-like grid, evaluated point by point from global indices (no stored global arrays):
// a spherical latitude-longitude grid, periodic in longitude, closed (no flux) at its southern and
// northern rows, with a deterministic synthetic bathymetry (continents, Antarctica, shelves, a ridge).
//
// Staggering as in POP's B grid: T-point (i, j) is a cell centre; U-point (i, j) is its north-east
// corner. DXU, DYU are the U-cell widths, TAREA the T-cell area, HT the depth at T-points (0 = land)
// and HU the depth at U-points, the minimum of the four surrounding T depths (POP's HU from KMU).
#pragma once
#include <Kokkos_Core.hpp>

#include "proxylab/kmath.hpp"

namespace proxylab::pop {

constexpr double earth_radius = 6.37122e6;   // m
constexpr double gravity = 9.80616;          // m s^-2
constexpr double implicit_beta = 1.0 / 3.0;  // POP's barotropic time weighting (docs/references.md, pop)
constexpr double deg = 3.14159265358979323846 / 180.0;

struct GridSpec {
  int nx = 320, ny = 384;     // T-points in longitude, latitude
  double lat_south = -78.0;   // degrees, southern edge of the first T row
  double lat_north = 78.0;    // degrees, northern edge of the last T row
  double dt = 3600.0;         // barotropic time step (s): the implicit time term of the operator
  double depth_max = 5500.0;  // m

  KOKKOS_INLINE_FUNCTION double dlon() const { return 360.0 * deg / nx; }
  KOKKOS_INLINE_FUNCTION double dlat() const { return (lat_north - lat_south) * deg / ny; }
  // latitude (radians) of T row j's centre and of U row j (T row j's northern edge)
  KOKKOS_INLINE_FUNCTION double lat_t(int j) const { return lat_south * deg + (j + 0.5) * dlat(); }
  KOKKOS_INLINE_FUNCTION double lat_u(int j) const { return lat_south * deg + (j + 1.0) * dlat(); }
  KOKKOS_INLINE_FUNCTION double lon_t(int i) const { return (i + 0.5) * dlon(); }
  // the implicit time term's factor tf: the operator's diagonal holds -TAREA tf besides the spatial part
  KOKKOS_INLINE_FUNCTION double time_term() const { return 1.0 / (implicit_beta * 2.0 * dt * dt * gravity); }

  KOKKOS_INLINE_FUNCTION double dxu(int j) const { return earth_radius * kmath::cos(lat_u(j)) * dlon(); }
  KOKKOS_INLINE_FUNCTION double dyu() const { return earth_radius * dlat(); }
  KOKKOS_INLINE_FUNCTION double tarea(int j) const {
    const double s = lat_south * deg + j * dlat(), n = s + dlat();
    return earth_radius * earth_radius * dlon() * (kmath::sin(n) - kmath::sin(s));
  }

  KOKKOS_INLINE_FUNCTION int wrap_i(int i) const { return ((i % nx) + nx) % nx; }

  // Depth at T-point (i, j) in m; 0 is land. Rows outside [0, ny) are land (closed boundaries).
  KOKKOS_INLINE_FUNCTION double ht(int i, int j) const {
    if (j < 0 || j >= ny) return 0.0;
    const double lon = lon_t(wrap_i(i)) / deg, lat = lat_t(j) / deg;  // degrees
    const double f = land_function(lon, lat);
    if (f >= 0.0) return 0.0;
    // continental shelf near the coast, abyssal plain away from it, a mid-ocean ridge
    const double shelf = 1.0 - kmath::exp(8.0 * f);  // 0 at the coast, -> 1 offshore
    const double ridge_lon = -30.0 + 10.0 * kmath::sin(lat * deg * 3.0);
    const double dr = (lon > 180.0 ? lon - 360.0 : lon) - ridge_lon;
    const double ridge = 0.35 * kmath::exp(-dr * dr / 50.0);
    return 50.0 + (depth_max - 50.0) * shelf * (1.0 - ridge);
  }
  // Depth at U-point (i, j): minimum of the four T depths around it (NE corner of T(i, j)).
  KOKKOS_INLINE_FUNCTION double hu(int i, int j) const {
    return min4(ht(i, j), ht(i + 1, j), ht(i, j + 1), ht(i + 1, j + 1));
  }
  KOKKOS_INLINE_FUNCTION static double min4(double a, double b, double c, double d) {
    const double ab = a < b ? a : b, cd = c < d ? c : d;
    return ab < cd ? ab : cd;
  }

  // > 0 on land. Six continents (ellipses in lon/lat with wavy coasts) and Antarctica.
  KOKKOS_INLINE_FUNCTION static double land_function(double lon, double lat) {
    // centre lon, centre lat, half-widths (degrees)
    const double c[6][4] = {{-100, 45, 30, 25}, {-60, -15, 18, 28}, {80, 48, 70, 22},
                            {20, 5, 22, 32},    {135, -25, 18, 12}, {-40, 72, 14, 8}};
    double f = -1e30;
    for (int k = 0; k < 6; ++k) {
      double dl = lon - c[k][0];
      dl = dl > 180.0 ? dl - 360.0 : (dl < -180.0 ? dl + 360.0 : dl);
      const double x = dl / c[k][2], y = (lat - c[k][1]) / c[k][3];
      const double fk = 1.0 - x * x - y * y;
      f = fk > f ? fk : f;
    }
    // wavy coastlines (fixed, so the grid is deterministic)
    f += 0.18 * kmath::sin(3.0 * lon * deg + 1.0) * kmath::cos(4.0 * lat * deg) +
         0.12 * kmath::sin(7.0 * lon * deg) * kmath::sin(5.0 * lat * deg + 0.5);
    const double antarctic = (-66.0 + 4.0 * kmath::sin(2.0 * lon * deg) - lat) / 6.0;
    return f > antarctic ? f : antarctic;
  }
};

// The smooth field whose discrete solution the solver must find (x* of b = A x*), on ocean points.
KOKKOS_INLINE_FUNCTION double exact_solution(const GridSpec& g, int i, int j) {
  const double lon = g.lon_t(g.wrap_i(i)), lat = g.lat_t(j);
  const double c = kmath::cos(lat);
  return 10.0 * (c * c * kmath::cos(2.0 * lon) + 0.5 * kmath::sin(2.0 * lat) * kmath::sin(3.0 * lon + 0.3) +
                 0.3 * kmath::cos(3.0 * lat));
}

// Deterministic pseudo-random value in [-1, 1) from a global index (Lanczos start vector).
KOKKOS_INLINE_FUNCTION double hash_unit(int i, int j) {
  unsigned long long h = (unsigned long long)(unsigned)i * 0x9E3779B97F4A7C15ull ^
                         ((unsigned long long)(unsigned)j + 0x632BE59BD9B4E019ull) * 0xBF58476D1CE4E5B9ull;
  h ^= h >> 31;
  h *= 0x94D049BB133111EBull;
  h ^= h >> 29;
  return double(h >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

}  // namespace proxylab::pop
