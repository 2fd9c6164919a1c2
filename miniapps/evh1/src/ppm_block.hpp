// The arithmetic of one PPM sweep over a block of B pencils (VH-1: ppmlr and sweepbc), written once for every
// mapping and device shape (sweep.cpp, tiled_sweep.cpp): the block's temporaries (Work), its gather and scatter,
// and advance(), which calls the kernels in VH-1's order with a lanes.sync() after each, where a team whose
// threads share a pencil (tiled_sweep.hpp) needs its barrier.
#pragma once
#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstddef>

#include "evolve.hpp"
#include "flatten.hpp"
#include "geometry.hpp"
#include "remap.hpp"
#include "states.hpp"
#include "sweep.hpp"

namespace proxylab::evh1 {

// The 1-D temporaries of a block of B pencils (VH-1 keeps them as module globals), zone-major.
struct Work {
  enum {
    r,
    p,
    u,
    v,
    e,
    steep,
    flat,
    y,
    dm,
    dxl,
    umid,
    pmid,
    c1,
    c2,
    c3,
    c4,
    c5,
    da,
    face,
    al,
    ar,
    a6,
    pR,
    uR,
    rR,
    pL,
    uL,
    rL,
    fm,
    fu,
    fv,
    fe,
    rf,
    vol,
    scale,
    width,
    dtw,
    count
  };
  double* a[count];
  static std::size_t doubles(int nzones, int lanes) { return std::size_t(count) * (nzones + 2 * nghost + 1) * lanes; }
  KOKKOS_INLINE_FUNCTION Work(double* base, int nzones, int lanes) {
    const std::size_t stride = std::size_t(nzones + 2 * nghost + 1) * lanes;
    for (int k = 0; k < count; ++k) a[k] = base + k * stride + nghost * lanes;  // zone 0 at offset nghost
  }
  KOKKOS_INLINE_FUNCTION ParaCoef coef() const { return {a[c1], a[c2], a[c3], a[c4], a[c5]}; }
  // an array indexed by zone only (no lanes), zone 0 at offset nghost
  KOKKOS_INLINE_FUNCTION double* per_zone(int k, int lanes) const { return a[k] - nghost * lanes + nghost; }
};

// Faces x lanes per strip of the batched Riemann loop: its 9 face arrays (18 KB) stay in L1 through the
// Newton iterations, and a strip stops iterating as soon as its own faces have converged (the pencil mapping
// iterates over the whole pencil, as EVH1).
constexpr int riemann_chunk = 256;

// The phase timers of one block: host clocks on host back ends, none inside a device kernel (there the sweep is
// timed as a whole, by the fenced timer regions around it).
struct HostStopwatch {
  using Clock = std::chrono::steady_clock;
  Clock::time_point t0 = Clock::now();
  void restart() { t0 = Clock::now(); }
  double lap() {  // seconds since the last lap or restart
    const auto t1 = Clock::now();
    const double s = std::chrono::duration<double>(t1 - t0).count();
    t0 = t1;
    return s;
  }
};
struct NoStopwatch {
  KOKKOS_INLINE_FUNCTION void restart() {}
  KOKKOS_INLINE_FUNCTION double lap() { return 0.0; }
};

// VH-1: sweepbc. Ghost zones of lane l at one end of the pencil (n zones).
template <int B>
KOKKOS_INLINE_FUNCTION void fill_ghosts(Work& w, int n, int l, Boundary bc, bool left) {
  if (bc == Boundary::neighbor) return;
  const int vars[4] = {Work::r, Work::p, Work::u, Work::v};
  for (int q : vars) {
    double* a = w.a[q];
    const double sign = (bc == Boundary::reflect && q == Work::u) ? -1.0 : 1.0;
    for (int k = 1; k <= nghost; ++k) {
      int ghost, src;
      if (left) {
        ghost = -k;
        src = bc == Boundary::reflect ? k - 1 : bc == Boundary::outflow ? 0 : n - k;
      } else {
        ghost = n - 1 + k;
        src = bc == Boundary::reflect ? n - k : bc == Boundary::outflow ? n - 1 : k - 1;
      }
      a[ghost * B + l] = sign * a[src * B + l];
    }
  }
}

template <int B>
struct Block {
  Pencils pc;
  double dt, dx;
  Gas gas;

  KOKKOS_INLINE_FUNCTION double& at(int var, int q, int n) const {
    return pc.axis == 2 ? pc.fields(var, pc.pencil_begin + q, pc.zone_begin + n)
                        : pc.fields(var, pc.zone_begin + n, pc.pencil_begin + q);
  }
  // Elements between consecutive zones of a pencil (LayoutRight: 1 along the last index).
  KOKKOS_INLINE_FUNCTION std::ptrdiff_t zone_stride() const {
    return pc.axis == 2 ? 1 : std::ptrdiff_t(pc.fields.extent(2));
  }

  template <class Lanes>
  KOKKOS_INLINE_FUNCTION void gather(Work& w, int q0, const Lanes& lanes) const {
    const int n = pc.nzones;
    const int lo = pc.left == Boundary::neighbor ? -nghost : 0;
    const int hi = pc.right == Boundary::neighbor ? n + nghost : n;
    const int vars[4] = {var_rho, var_p, pc.normal, pc.transverse};
    const int slots[4] = {Work::r, Work::p, Work::u, Work::v};
    if (B > 1 && pc.axis == 1 && q0 + B <= pc.npencils) {
      // pencils along the middle index (halo y sweeps): a row of the block's B pencils is contiguous in
      // memory, so copy row by row (one pencil alone would read a column, stride nx, as EVH1's gather)
      for (int k = 0; k < 4; ++k) {
        double* a = w.a[slots[k]];
        for (int z = lo; z < hi; ++z) {
          const double* row = &pc.fields(vars[k], pc.zone_begin + z, pc.pencil_begin + q0);
          for (int l = lanes.first; l < B; l += lanes.step) a[z * B + l] = row[l];
        }
      }
    } else {
      const std::ptrdiff_t stride = zone_stride();
      for (int l = lanes.first; l < B; l += lanes.step) {
        const int q = q0 + l < pc.npencils ? q0 + l : pc.npencils - 1;  // a short last block repeats a pencil
        for (int k = 0; k < 4; ++k) {
          double* a = w.a[slots[k]];
          const double* src = &at(vars[k], q, 0);
          for (int z = lo; z < hi; ++z) a[z * B + l] = src[z * stride];
        }
      }
    }
    for (int l = lanes.first; l < B; l += lanes.step) {
      fill_ghosts<B>(w, n, l, pc.left, true);
      fill_ghosts<B>(w, n, l, pc.right, false);
    }
  }

  template <class Lanes>
  KOKKOS_INLINE_FUNCTION void scatter(const Work& w, int q0, const Lanes& lanes) const {
    const int vars[4] = {var_rho, var_p, pc.normal, pc.transverse};
    const int slots[4] = {Work::r, Work::p, Work::u, Work::v};
    if (B > 1 && pc.axis == 1 && q0 + B <= pc.npencils) {  // row by row, as gather()
      for (int k = 0; k < 4; ++k) {
        const double* a = w.a[slots[k]];
        for (int z = 0; z < pc.nzones; ++z) {
          double* row = &pc.fields(vars[k], pc.zone_begin + z, pc.pencil_begin + q0);
          for (int l = lanes.first; l < B; l += lanes.step) row[l] = a[z * B + l];
        }
      }
      return;
    }
    const std::ptrdiff_t stride = zone_stride();
    for (int l = lanes.first; l < B && q0 + l < pc.npencils; l += lanes.step)
      for (int k = 0; k < 4; ++k) {
        const double* a = w.a[slots[k]];
        double* dst = &at(vars[k], q0 + l, 0);
        for (int z = 0; z < pc.nzones; ++z) dst[z * stride] = a[z * B + l];
      }
  }

  // The geometry of block q0 (curvilinear sweeps): face coordinates, per-lane length scale, width and dt / width.
  template <class Lanes>
  KOKKOS_INLINE_FUNCTION SweepShape shape(Work& w, int q0, const Lanes& lanes) const {
    SweepShape s;
    s.kind = pc.geometry;
    double* rf = w.per_zone(Work::rf, B);  // shared by the lanes
    if (lanes.first == 0)
      for (int z = -nghost; z <= pc.nzones + nghost; ++z) rf[z] = pc.origin + double(pc.first_face + z) * pc.dcoord;
    lanes.sync();
    double *scale = w.a[Work::scale], *width = w.a[Work::width], *dtw = w.a[Work::dtw];
    for (int l = lanes.first; l < B; l += lanes.step) {
      const int q = q0 + l < pc.npencils ? q0 + l : pc.npencils - 1;  // as gather()
      const bool theta = pc.geometry == SweepGeometry::spherical_theta;
      scale[l] = theta ? pc.radius_origin + (double(pc.first_pencil + q) + 0.5) * pc.dr : 1.0;
      width[l] = theta ? scale[l] * pc.dcoord : dx;
      dtw[l] = dt / width[l];
    }
    lanes.sync();  // a team on one pencil reads lane 0's
    s.rf = rf;
    s.scale = scale;
    s.width = width;
    return s;
  }

  // VH-1: ppmlr. Every kernel reads its neighbours' results of the kernel before: a sync() after each (a team
  // barrier where the threads of a team share a pencil; nothing where each thread owns its lanes).
  template <class Lanes, class Stopwatch>
  KOKKOS_INLINE_FUNCTION void advance(Work& w, int q0, const Lanes& lanes, double* t,
                                      Stopwatch& watch) const {  // t: nphases seconds
    double** a = w.a;
    const int n = pc.nzones;
    const ParaCoef coef = w.coef();  // the Lagrangian grid of the remap
    const UniformCoef uniform;       // the fixed grid: every zone alike
    const bool curved = pc.geometry != SweepGeometry::slab;
    watch.restart();
    const SweepShape geo = curved ? shape(w, q0, lanes) : SweepShape{};
    // flatten, parabolae of p, rho, u on the fixed grid, characteristic states
    flatten<B>(a[Work::p], a[Work::u], a[Work::steep], a[Work::flat], -4, n + 4, lanes);
    if (curved)
      courant_fraction_lanes<B>(a[Work::r], a[Work::p], gas.gamma, a[Work::dtw], a[Work::y], -4, n + 4, lanes);
    else
      courant_fraction<B>(a[Work::r], a[Work::p], gas.gamma, dt / dx, a[Work::y], -4, n + 4, lanes);
    lanes.sync();
    const int q_in[3] = {Work::p, Work::u, Work::r}, q_right[3] = {Work::pR, Work::uR, Work::rR},
              q_left[3] = {Work::pL, Work::uL, Work::rL};
    for (int k = 0; k < 3; ++k) {
      parabola<B>(a[q_in[k]], a[Work::flat], uniform, a[Work::da], a[Work::face], a[Work::al], a[Work::ar], a[Work::a6],
                  -4, n + 4, lanes);
      edge_states<B>(a[Work::al], a[Work::ar], a[Work::a6], a[Work::y], a[q_right[k]], a[q_left[k]], -4, n + 4, lanes);
      lanes.sync();  // the next parabola overwrites da, face
    }
    if (curved) force_edge_states<B>(geo, dt, a[Work::u], a[Work::v], a[Work::uR], a[Work::uL], -4, n + 4, lanes);
    lanes.sync();
    t[phase_parabola] += watch.lap();
    double* const scratch[9] = {a[Work::c1], a[Work::c2],   a[Work::c3], a[Work::c4], a[Work::c5],
                                a[Work::da], a[Work::face], a[Work::al], a[Work::ar]};
    constexpr int strip = B == 1 ? 1 << 30 : riemann_chunk / B;  // zones per strip; the pencil: all of it
    for (int c = -3; c < n + 4; c += strip)
      riemann_faces<B>(a[Work::pR], a[Work::uR], a[Work::rR], a[Work::pL], a[Work::uL], a[Work::rL], gas, scratch,
                       a[Work::umid], a[Work::pmid], c, c + strip < n + 4 ? c + strip : n + 4, lanes);
    lanes.sync();
    for (int l = lanes.first; l < B; l += lanes.step) {  // a reflecting wall does not move
      if (pc.left == Boundary::reflect) a[Work::umid][l] = 0.0;
      if (pc.right == Boundary::reflect) a[Work::umid][n * B + l] = 0.0;
    }
    lanes.sync();
    t[phase_riemann] += watch.lap();
    if (curved) {
      zone_volumes<B>(geo, a[Work::vol], 0, n, lanes);
      evolve_curvilinear<B>(geo, a[Work::umid], a[Work::pmid], dt, gas, a[Work::r], a[Work::p], a[Work::u], a[Work::v],
                            a[Work::e], a[Work::dm], a[Work::dxl], -3, n + 3, lanes);
    } else {
      evolve<B>(a[Work::umid], a[Work::pmid], dt, dx, gas, a[Work::r], a[Work::p], a[Work::u], a[Work::v], a[Work::e],
                a[Work::dm], a[Work::dxl], -3, n + 3, lanes);
    }
    lanes.sync();
    t[phase_evolve] += watch.lap();
    // remap: parabolae of rho, u, v, e on the Lagrangian grid, fluxes through the fixed faces
    paraset<B>(a[Work::dxl], coef, -2, n + 2, -2, n + 1, lanes);
    lanes.sync();
    const int q_remap[4] = {Work::r, Work::u, Work::v, Work::e}, q_flux[4] = {Work::fm, Work::fu, Work::fv, Work::fe};
    for (int k = 0; k < 4; ++k) {
      parabola<B>(a[q_remap[k]], a[Work::flat], coef, a[Work::da], a[Work::face], a[Work::al], a[Work::ar], a[Work::a6],
                  -1, n + 1, lanes);
      lanes.sync();
      remap_flux<B>(a[Work::umid], dt, a[Work::dxl], a[Work::al], a[Work::ar], a[Work::a6],
                    k == 0 ? nullptr : a[Work::fm], a[q_flux[k]], 0, n, lanes);
      if (k == 0 && curved) {
        lanes.sync();
        sliver_volumes<B>(geo, a[Work::umid], dt, a[Work::fm], 0, n, lanes);
      }
      lanes.sync();
    }
    if (curved)
      remap_update_volumes<B>(a[Work::dm], a[Work::fm], a[Work::fu], a[Work::fv], a[Work::fe], a[Work::vol], gas,
                              a[Work::r], a[Work::p], a[Work::u], a[Work::v], a[Work::e], 0, n, lanes);
    else
      remap_update<B>(a[Work::dm], a[Work::fm], a[Work::fu], a[Work::fv], a[Work::fe], dx, gas, a[Work::r], a[Work::p],
                      a[Work::u], a[Work::v], a[Work::e], 0, n, lanes);
    lanes.sync();
    t[phase_remap] += watch.lap();
  }
};

}  // namespace proxylab::evh1
