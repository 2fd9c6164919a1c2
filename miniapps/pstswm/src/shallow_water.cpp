// STSWM: the explicit time step of the spectral shallow water model (step / comp1 / comp2 / advect
// reduced to the vorticity–divergence form of the equations).
#include "shallow_water.hpp"

#include <algorithm>
#include <cmath>

#include "proxylab/kmath.hpp"
#include "proxylab/mapping.hpp"
#include "williamson.hpp"

namespace proxylab::pstswm {
namespace {
constexpr double a = earth_radius;
KOKKOS_INLINE_FUNCTION double eps(int n, int m) {
  return n <= 0 ? 0.0 : kmath::sqrt((double(n) * n - double(m) * m) / (4.0 * n * n - 1.0));
}

// STSWM: comp1 at one point: from ζ, Φ, U, V, the Coriolis parameter f and μ, out = A, B, C, D, Q
// (η = ζ + f, A = ηU, B = ηV, C = ΦU, D = ΦV, Q = Φ + (U²+V²)/(2(1-μ²))). 14 flops.
struct GridPointProducts {
  double A, B, C, D, Q;
  KOKKOS_INLINE_FUNCTION GridPointProducts(double zeta, double phi, double U, double V, double f, double mu) {
    const double eta = zeta + f;
    A = eta * U;
    B = eta * V;
    C = phi * U;
    D = phi * V;
    Q = phi + (U * U + V * V) / (2.0 * (1.0 - mu * mu));
  }
};
constexpr double grid_point_flops = 14.0;
}  // namespace

ShallowWater::ShallowWater(SphericalTransform& tr, const ModelOptions& opt, Timers& timers)
    : tr_(tr), opt_(opt), timers_(timers), L_(tr.options().levels), N_(tr.options().ntrunc) {
  old_ = View1D<double>("pstswm::state_old", tr_.spec_size(3));
  cur_ = View1D<double>("pstswm::state_cur", tr_.spec_size(3));
  new_ = View1D<double>("pstswm::state_new", tr_.spec_size(3));
  inv_spec_ = View1D<double>("pstswm::inverse_spectral", tr_.spec_size(4));
  fwd_spec_ = View1D<double>("pstswm::forward_spectral", tr_.spec_size(5));
  inv_grid_ = View1D<double>("pstswm::inverse_grid", tr_.grid_size(4));
  if (!tr_.options().fuse_grid_point) fwd_grid_ = View1D<double>("pstswm::forward_grid", tr_.grid_size(5));
  const auto& lay = tr_.state_layout();
  row_m_ = View1D<int>("pstswm::row_m", lay.rows);
  row_n_ = View1D<int>("pstswm::row_n", lay.rows);
  row_first_ = View1D<int>("pstswm::row_first", lay.rows);
  row_last_ = View1D<int>("pstswm::row_last", lay.rows);
  row_eps_ = View1D<double>("pstswm::row_eps", lay.rows);
  row_eps_next_ = View1D<double>("pstswm::row_eps_next", lay.rows);
  row_inv_lap_ = View1D<double>("pstswm::row_inv_lap", lay.rows);
  // Set up on the host, copied to the default space.
  auto hm = Kokkos::create_mirror_view(row_m_), hn = Kokkos::create_mirror_view(row_n_);
  auto hf = Kokkos::create_mirror_view(row_first_), hl = Kokkos::create_mirror_view(row_last_);
  auto he = Kokkos::create_mirror_view(row_eps_), he1 = Kokkos::create_mirror_view(row_eps_next_);
  auto hil = Kokkos::create_mirror_view(row_inv_lap_);
  for (size_t i = 0; i < lay.ms.size(); ++i)
    for (int r = 0; r < lay.rows_of(int(i)); ++r) {
      const int row = lay.offset[i] + r, m = lay.ms[i], n = m + r;
      hm(row) = m;
      hn(row) = n;
      hf(row) = lay.offset[i];
      hl(row) = lay.offset[i] + lay.rows_of(int(i)) - 1;
      // The recurrence coefficients and -a²/(n(n+1)) once per row, not per level and point: the square roots and
      // divisions made the spectral phase cost more than the grid-point phase.
      he(row) = eps(n, m);
      he1(row) = eps(n + 1, m);
      hil(row) = (n == 0 || n > N_) ? 0.0 : -a * a / (double(n) * (n + 1));
    }
  Kokkos::deep_copy(row_m_, hm);
  Kokkos::deep_copy(row_n_, hn);
  Kokkos::deep_copy(row_first_, hf);
  Kokkos::deep_copy(row_last_, hl);
  Kokkos::deep_copy(row_eps_, he);
  Kokkos::deep_copy(row_eps_next_, he1);
  Kokkos::deep_copy(row_inv_lap_, hil);
  const int nlat = tr_.local_lats(), nlon = tr_.options().nlon;
  coriolis_ = View1D<double>("pstswm::coriolis", size_t(nlat) * nlon);
  mu_ = View1D<double>("pstswm::mu", nlat);
  auto hc = Kokkos::create_mirror_view(coriolis_);
  auto hmu = Kokkos::create_mirror_view(mu_);
  const bool packed = tr_.options().fuse_grid_point;  // f in the layout of the grid it multiplies
  for (int j = 0; j < nlat; ++j) {
    hmu(j) = tr_.mu(j);
    for (int i = 0; i < nlon; ++i) {
      const size_t at = packed ? size_t(j / 2) * 2 * nlon + 2 * i + j % 2 : size_t(j) * nlon + i;
      hc(at) = case_coriolis(opt_.test_case, opt_.alpha, 2.0 * M_PI * i / nlon, tr_.mu(j));
    }
  }
  Kokkos::deep_copy(coriolis_, hc);
  Kokkos::deep_copy(mu_, hmu);
  initial_state();
}

// STSWM: ics. Analytic winds and geopotential on the grid, forward transforms to ζ, δ, Φ.
void ShallowWater::initial_state() {
  const int nlat = tr_.local_lats(), nlon = tr_.options().nlon, L = L_;
  View1D<double> grid("pstswm::initial_grid", tr_.grid_size(3));
  auto h = Kokkos::create_mirror_view(grid);
  for (int j = 0; j < nlat; ++j)
    for (int l = 0; l < L; ++l)
      for (int i = 0; i < nlon; ++i) {
        const double lam = 2.0 * M_PI * i / nlon, mu = tr_.mu(j), c = std::sqrt((1.0 - mu) * (1.0 + mu));
        const FlowPoint p = initial_flow(opt_.test_case, opt_.alpha, lam, mu, l);
        const size_t at = (size_t(j) * L + l) * nlon + i, fs = size_t(nlat) * L * nlon;
        h(at) = p.u * c;
        h(fs + at) = p.v * c;
        h(2 * fs + at) = p.phi;
      }
  Kokkos::deep_copy(grid, h);
  View1D<double> X("pstswm::initial_spectral", tr_.spec_size(3));
  tr_.forward(grid, 3, {true, true, false}, X);
  auto S = cur_;
  auto rm = row_m_, rn = row_n_, rf = row_first_;
  auto re = row_eps_, re1 = row_eps_next_;
  const int N = N_;
  // team mapping: the contiguous (last) loop vectorised, as in every kernel here (bench/pop/README.md, table 4)
  for_each_2d(
      "pstswm::initial_vorticity_divergence", Mapping::team, 0, int(rm.extent(0)), 0, L, KOKKOS_LAMBDA(int row, int l) {
        const int m = rm(row), n = rn(row);
        auto x = [&](int r, int f, int ri) { return X(((size_t(r) * 3 + f) * L + l) * 2 + ri); };
        auto s = [&](int f, int ri) -> double& { return S(((size_t(row) * 3 + f) * L + l) * 2 + ri); };
        if (n > N) {
          for (int f = 0; f < 3; ++f) {
            s(f, 0) = 0.0;
            s(f, 1) = 0.0;
          }
          return;
        }
        const double cu = -n * re1(row), cl = (n + 1) * re(row);
        for (int ri = 0; ri < 2; ++ri) {
          const double sgn = ri == 0 ? -1.0 : 1.0;  // i m (x_re + i x_im) = -m x_im + i m x_re
          const double hu = cu * x(row + 1, 0, ri) + (row > rf(row) ? cl * x(row - 1, 0, ri) : 0.0);
          const double hv = cu * x(row + 1, 1, ri) + (row > rf(row) ? cl * x(row - 1, 1, ri) : 0.0);
          s(0, ri) = sgn * m * x(row, 1, 1 - ri) + hu;
          s(1, ri) = sgn * m * x(row, 0, 1 - ri) - hv;
          s(2, ri) = x(row, 2, ri);
        }
      });
  Kokkos::deep_copy(old_, cur_);
}

// STSWM: the streamfunction / velocity potential to U, V relations in spectral space:
// U = (1/a)[∂χ/∂λ - (1-μ²)∂ψ/∂μ], V = (1/a)[∂ψ/∂λ + (1-μ²)∂χ/∂μ], ψ = ∇⁻²ζ, χ = ∇⁻²δ.
void ShallowWater::prepare_inverse() {
  const double* S = cur_.data();
  double* Y = inv_spec_.data();
  auto rm = row_m_, rn = row_n_, rf = row_first_, rl = row_last_;
  auto re = row_eps_, re1 = row_eps_next_, ril = row_inv_lap_;
  const int N = N_, L = L_;
  for_each_2d(
      "pstswm::spectral_to_uv", Mapping::team, 0, int(rm.extent(0)), 0, L, KOKKOS_LAMBDA(int row, int l) {
        const int m = rm(row), n = rn(row);
        // (row, field) blocks from row-invariant offsets and the level as an int index: addresses affine in l
        auto s = [&](int r, int f, int ri) { return (S + (size_t(r) * 3 + f) * L * 2)[2 * l + ri]; };
        auto inv_lap = [&](int r, int f, int ri) { return ril(r) * s(r, f, ri); };  // -a²/(n(n+1)) x, 0 if n = 0, n > N
        auto y = [&](int f, int ri) -> double& { return (Y + (size_t(row) * 4 + f) * L * 2)[2 * l + ri]; };
        // Rows n - 1 and n + 1 outside this m's rows enter with weight 0 (the row itself is read in their place);
        // the row n = N + 1 gives zeros. Arithmetic on the comparisons, not conditional expressions, so that GCC
        // can vectorise the level loop (x * 1 is exact).
        const int lo = (row > rf(row)), hi = (row < rl(row)), beyond = (n > N);
        const int below = row - lo, above = row + hi;
        const double keep = 1 - beyond, cl = (n - 1) * re(row) * lo, cu = (n + 2) * re1(row) * hi;
        auto part = [&](int ri) {  // the real (0) or imaginary (1) part: written out twice, no inner loop
          const double sgn = 2.0 * ri - 1.0;
          y(0, ri) = keep * s(row, 0, ri);
          y(1, ri) = keep * s(row, 2, ri);
          const double im_chi = sgn * m * inv_lap(row, 1, 1 - ri), im_psi = sgn * m * inv_lap(row, 0, 1 - ri);
          y(2, ri) = (im_chi + cl * inv_lap(below, 0, ri) - cu * inv_lap(above, 0, ri)) / a;
          y(3, ri) = (im_psi - cl * inv_lap(below, 1, ri) + cu * inv_lap(above, 1, ri)) / a;
        };
        part(0);
        part(1);
      });
  spectral_.bytes += 16.0 * (3 + 4) * double(rm.extent(0)) * L;  // ζ, δ, Φ in; ζ, Φ, U, V out (complex)
}

// STSWM: comp1 (grid-point products) over the whole grid, [ζ, Φ, U, V] -> [A, B, C, D, Q].
void ShallowWater::grid_products() {
  const int nlat = tr_.local_lats(), nlon = tr_.options().nlon, L = L_;
  const size_t fs = size_t(nlat) * L * nlon;
  auto G = inv_grid_, F = fwd_grid_, cor = coriolis_, mu = mu_;
  for_each_3d(
      "pstswm::grid_products", Mapping::team, 0, nlat, 0, L, 0, nlon, KOKKOS_LAMBDA(int j, int l, int i) {
        const size_t at = (size_t(j) * L + l) * nlon + i;
        const GridPointProducts p(G(at), G(fs + at), G(2 * fs + at), G(3 * fs + at), cor(size_t(j) * nlon + i), mu(j));
        F(at) = p.A;
        F(fs + at) = p.B;
        F(2 * fs + at) = p.C;
        F(3 * fs + at) = p.D;
        F(4 * fs + at) = p.Q;
      });
  grid_point_.flops += grid_point_flops * fs;
  grid_point_.bytes += 8.0 * (9.0 * fs + double(nlat) * nlon + nlat);  // 4 fields in, 5 out; f(λ, μ); μ
}

// comp1 on one latitude pair's packed rows in the latitude loop ([field][level][longitude][north, south], 4 fields in,
// 5 out, in place: each point's inputs are read before its outputs are written). Host memory.
void ShallowWater::grid_products_of_pair(int pair, double* rows) const {
  const int nlon = tr_.options().nlon, L = L_;
  const size_t fs = packed_field_doubles(tr_.options()), row = 2 * size_t(packed_row_distance(nlon));
  const double* f = coriolis_.data() + 2 * size_t(pair) * nlon;  // [longitude][north, south], as the rows
  const double* mu_loc = mu_.data();
  const double mu[2] = {mu_loc[2 * pair], mu_loc[2 * pair + 1]};
  for (int l = 0; l < L; ++l) {
    double* r = rows + l * row;
    // the five fields' rows are fs apart and do not overlap (GCC would not version the loop for so many)
    PROXYLAB_PRAGMA_IVDEP
    for (int i = 0; i < nlon; ++i)
      for (int side = 0; side < 2; ++side) {
        const int k = 2 * i + side;
        const GridPointProducts p(r[k], r[fs + k], r[2 * fs + k], r[3 * fs + k], f[k], mu[side]);
        r[k] = p.A;
        r[fs + k] = p.B;
        r[2 * fs + k] = p.C;
        r[3 * fs + k] = p.D;
        r[4 * fs + k] = p.Q;
      }
  }
}

// STSWM: comp2 / the leapfrog update. With X' the forward transforms (vector ones pre-divided by
// a(1-μ²)): div(X,Y)_n = i m X'_n - H(Y')_n, curl(X,Y)_n = i m Y'_n + H(X')_n with
// H(Z)_n = -n ε_{n+1} Z_{n+1} + (n+1) ε_n Z_{n-1}; ζ_t = -div(A,B), δ_t = curl(A,B) + n(n+1)/a² Q,
// Φ_t = -div(C,D). Leapfrog, then the Robert–Asselin filter of the middle time level.
void ShallowWater::update() {
  const double* T = fwd_spec_.data();
  double *Sold = old_.data(), *Scur = cur_.data(), *Snew = new_.data();
  auto rm = row_m_, rn = row_n_, rf = row_first_;
  auto re = row_eps_, re1 = row_eps_next_;
  const int N = N_, L = L_;
  const double dt = opt_.dt, eps_ra = opt_.asselin;
  // The first step is a forward step from the current state, the others leapfrog steps from the old one, filtered:
  // chosen by 0 / 1 weights rather than branches (x * 1 and x + 0 are exact), so the level loop vectorises.
  const bool first = steps_ == 0;
  const double from_cur = first ? 1.0 : 0.0, from_old = 1.0 - from_cur, span = first ? 1.0 : 2.0;
  for_each_2d(
      "pstswm::leapfrog", Mapping::team, 0, int(rm.extent(0)), 0, L, KOKKOS_LAMBDA(int row, int l) {
        const int m = rm(row), n = rn(row);
        // (row, field) blocks from row-invariant offsets and the level as an int index: addresses affine in l
        auto t = [&](int r, int f, int ri) { return (T + (size_t(r) * 5 + f) * L * 2)[2 * l + ri]; };
        auto state = [&](double* S, int f) { return S + (size_t(row) * 3 + f) * L * 2; };
        // The row n = N + 1 (kept for the recurrences) is set to zero (keep = 0); its tendency is computed from
        // in-range rows and not used. Row n - 1 below the first row of an m enters with weight 0. Arithmetic on
        // the comparisons, not conditional expressions, so that GCC can vectorise the level loop.
        const int beyond = (n > N), lo = (row > rf(row));
        const int below = row - lo, above = row + 1 - beyond;
        const double keep = 1 - beyond, cu = -n * re1(row), cl = (n + 1) * re(row) * lo;
        const double lap = double(n) * (n + 1) / (a * a);
        auto advance = [&](int f, int ri, double tend) {
          const int k = 2 * l + ri;
          double *old = state(Sold, f), *fresh = state(Snew, f);
          const double c = state(Scur, f)[k], o = old[k];
          const double nw = (from_cur * c + from_old * o) + span * dt * tend;
          fresh[k] = keep * nw;
          old[k] = keep * (c + from_old * (eps_ra * (nw - 2.0 * c + o)));
        };
        auto part = [&](int ri) {  // the real (0) or imaginary (1) part: written out twice, no inner loop
          const double sgn = 2.0 * ri - 1.0;
          auto H = [&](int f) { return cu * t(above, f, ri) + cl * t(below, f, ri); };
          const double div_ab = sgn * m * t(row, 0, 1 - ri) - H(1), curl_ab = sgn * m * t(row, 1, 1 - ri) + H(0);
          const double div_cd = sgn * m * t(row, 2, 1 - ri) - H(3);
          advance(0, ri, -div_ab);
          advance(1, ri, curl_ab + lap * t(row, 4, ri));
          advance(2, ri, -div_cd);
        };
        part(0);
        part(1);
      });
  // 5 tendency fields and the current and old state in; the new and the filtered old state out (complex)
  spectral_.bytes += 16.0 * (5 + 3 + 3 + 3 + 3) * double(rm.extent(0)) * L;
}

void ShallowWater::step() {
  {
    auto t = timers_.scope("spectral");
    prepare_inverse();
    Kokkos::fence();
  }
  const std::vector<bool> scaled = {true, true, true, true, false};  // A, B, C, D are vector components
  if (tr_.options().fuse_grid_point) {
    tr_.through_grid(
        inv_spec_, 4, [this](int pair, double* rows) { grid_products_of_pair(pair, rows); }, 5, scaled, fwd_spec_);
    const double points = double(tr_.local_lats()) * L_ * tr_.options().nlon;
    grid_point_.flops += grid_point_flops * points;
    grid_point_.bytes += 8.0 * (points / L_ + tr_.local_lats());  // f(λ, μ) and μ; the grid stays in cache
  } else {
    {
      auto t = timers_.scope("inverse");
      tr_.inverse(inv_spec_, 4, inv_grid_);
    }
    {
      auto t = timers_.scope("grid_point");
      grid_products();
      Kokkos::fence();
    }
    auto t = timers_.scope("forward");
    tr_.forward(fwd_grid_, 5, scaled, fwd_spec_);
  }
  auto t = timers_.scope("spectral");
  update();
  Kokkos::fence();
  std::swap(cur_, new_);
  ++steps_;
}

Diagnostics ShallowWater::diagnose() {
  prepare_inverse();
  tr_.inverse(inv_spec_, 4, inv_grid_);
  const auto grid = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), inv_grid_);
  const int nlat = tr_.local_lats(), nlon = tr_.options().nlon, L = L_;
  const size_t fs = size_t(nlat) * L * nlon;
  double sums[6] = {0, 0, 0, 0, 0, 0}, maxes[2] = {0, 0};  // l1 num/den, l2 num/den, mass, energy
  for (int j = 0; j < nlat; ++j) {
    const double w = tr_.weight(j) * 2.0 * M_PI / nlon, mu = tr_.mu(j);
    for (int l = 0; l < L; ++l)
      for (int i = 0; i < nlon; ++i) {
        const size_t at = (size_t(j) * L + l) * nlon + i;
        const double phi = grid(fs + at), U = grid(2 * fs + at), V = grid(3 * fs + at);
        sums[4] += w * phi / gravity;
        sums[5] += w * (phi * (U * U + V * V) / (2.0 * (1.0 - mu * mu)) + 0.5 * phi * phi) / gravity;
        if (opt_.test_case != 2) continue;
        const double h = phi / gravity, ht = case2(2.0 * M_PI * i / nlon, mu, opt_.alpha, l).phi / gravity;
        sums[0] += w * std::fabs(h - ht);
        sums[1] += w * std::fabs(ht);
        sums[2] += w * (h - ht) * (h - ht);
        sums[3] += w * ht * ht;
        maxes[0] = std::max(maxes[0], std::fabs(h - ht));
        maxes[1] = std::max(maxes[1], std::fabs(ht));
      }
  }
  MPI_Allreduce(MPI_IN_PLACE, sums, 6, MPI_DOUBLE, MPI_SUM, tr_.comm());
  MPI_Allreduce(MPI_IN_PLACE, maxes, 2, MPI_DOUBLE, MPI_MAX, tr_.comm());
  Diagnostics d;
  d.mass = sums[4];
  d.energy = sums[5];
  if (opt_.test_case == 2) {
    d.l1 = sums[0] / sums[1];
    d.l2 = std::sqrt(sums[2] / sums[3]);
    d.linf = maxes[0] / maxes[1];
  }
  return d;
}

std::complex<double> ShallowWater::vorticity_coefficient(int m, int n) {
  const auto& lay = tr_.state_layout();
  const auto it = std::find(lay.ms.begin(), lay.ms.end(), m);
  int rank = 0, size = 1;
  MPI_Comm_rank(tr_.comm(), &rank);
  MPI_Comm_size(tr_.comm(), &size);
  int owner = (it != lay.ms.end() && n >= m && n <= N_) ? rank : size;
  MPI_Allreduce(MPI_IN_PLACE, &owner, 1, MPI_INT, MPI_MIN, tr_.comm());
  double v[2] = {0, 0};
  if (owner == size) return {0.0, 0.0};
  if (owner == rank) {
    const size_t at = size_t(lay.offset[it - lay.ms.begin()] + (n - m)) * 3 * L_ * 2;
    Kokkos::deep_copy(HostView<double*>(v, 2), elements(cur_, at, 2));
  }
  MPI_Bcast(v, 2, MPI_DOUBLE, owner, tr_.comm());
  return {v[0], v[1]};
}

std::vector<double> ShallowWater::gather_state() {
  const SpectralLayout canon = SpectralLayout::all(N_);
  const auto& lay = tr_.state_layout();
  const size_t rowlen = size_t(3) * L_ * 2;
  std::vector<double> out(size_t(canon.rows) * rowlen, 0.0);
  int rank = 0;
  MPI_Comm_rank(tr_.comm(), &rank);
  const bool replicated = lay.rows == canon.rows;  // distributed + allreduce: every rank holds all
  const auto cur = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cur_);
  if (!replicated || rank == 0)
    for (size_t i = 0; i < lay.ms.size(); ++i)
      std::copy(cur.data() + size_t(lay.offset[i]) * rowlen,
                cur.data() + size_t(lay.offset[i] + lay.rows_of(int(i))) * rowlen,
                out.begin() + size_t(canon.offset[lay.ms[i]]) * rowlen);
  MPI_Allreduce(MPI_IN_PLACE, out.data(), int(out.size()), MPI_DOUBLE, MPI_SUM, tr_.comm());
  return out;
}

}  // namespace proxylab::pstswm
