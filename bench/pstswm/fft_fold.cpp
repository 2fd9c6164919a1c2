// What pstswm's fold costs next to its FFTs (bench/peers/README.md, "pstswm with its data in cache"): the
// forward FFT stage of one transform call as spherical_transform.cpp ran it with transform.fuse_fold on one thread
// (fft+fold) and other ways to write the same even / odd halves, timed in interleaved rounds (medians).
//   fft          each (pair, field)'s 2L latitude-level rows, r2c, into a buffer (FFTW_MEASURE plan), no fold
//   fft+fold     then the fold into E, O laid out [m][pair][col], col = 2 (field L + level) + re/im: the proxy
//                per (pair, field) until pair+fold was measured
//   wm+fold      FFTW writes the buffer wavenumber-major (output stride 2L), so the fold reads contiguous runs
//   fft+fold-pm  the proxy's buffer, folded into E, O laid out pair-major [pair][m][col] (contiguous per pair)
//   fft+fold-hp  fft+fold with E and O on 2 MiB pages (transparent huge pages, madvise)
//   pair+fold    every field of a pair into its own buffer, then folded wavenumber by wavenumber: one run of all
//                ncol columns per (m, pair) row of E and O (the proxy since; log at commit 77bf1c7:
//                docs/perf/pstswm/fft_fold-pair.log)
//   lev+fold     the grid level-fastest: one r2c plan per pair with the levels as FFTW's contiguous batch writes
//                the spectrum [north, south][m][level], E and O's column order, so the fold is contiguous
//   pair+fold-hp pair+fold on huge pages
//   pair+fold2/4 pair+fold reading 2 / 4 consecutive wavenumbers of a row at once (a 64-byte line at 4) and writing
//                them to their 2 / 4 rows of E and O (log at commit 77bf1c7: docs/perf/pstswm/fft_fold-w.log)
// Every variant's E and O are checked against the proxy's (same values, wherever they are stored).
//   g++ -O3 -march=native bench/pstswm/fft_fold.cpp -o /tmp/fft_fold -lfftw3
//   /tmp/fft_fold NLON LEVELS PAIRS FIELDS TRUNCATION [ROUNDS]    e.g. T85: 256 18 64 5 85, T170: 512 18 128 5 170
#include <fftw3.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

struct Sizes {
  int nlon, L, pairs, fields, nm;
  int nh() const { return nlon / 2 + 1; }
  int rows() const { return 2 * L; }                      // one pair's north then south rows of one field
  int ncol() const { return fields * 2 * L; }             // columns of E and O
  size_t block() const { return size_t(rows()) * nlon; }  // grid doubles of one (pair, field)
};

// n doubles on 2 MiB pages where the kernel gives them (transparent huge pages in madvise mode), zeroed.
double* huge_doubles(size_t n) {
  const size_t bytes = (n * sizeof(double) + (2u << 20) - 1) & ~size_t((2u << 20) - 1);
  void* p = std::aligned_alloc(2u << 20, bytes);
  madvise(p, bytes, MADV_HUGEPAGE);
  std::fill_n(static_cast<double*>(p), n, 0.0);
  return static_cast<double*>(p);
}

double seconds(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Where E and O hold wavenumber m of a pair and field: the proxy's layout, and pair-major.
size_t at_m_pair(const Sizes& s, int m, int pair, int f) {
  return (size_t(m) * s.pairs + pair) * s.ncol() + 2 * size_t(f) * s.L;
}
size_t at_pair_m(const Sizes& s, int m, int pair, int f) {
  return (size_t(pair) * s.nm + m) * s.ncol() + 2 * size_t(f) * s.L;
}

fftw_plan r2c_plan(const Sizes& s, double* in, fftw_complex* out, long ostride, long odist) {
  fftw_iodim dim{s.nlon, 1, int(ostride)}, batch{s.rows(), s.nlon, int(odist)};
  return fftw_plan_guru_dft_r2c(1, &dim, 1, &batch, in, out, FFTW_MEASURE);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 6) {
    std::fprintf(stderr, "usage: %s NLON LEVELS PAIRS FIELDS TRUNCATION [ROUNDS]\n", argv[0]);
    return 2;
  }
  const Sizes s{std::atoi(argv[1]), std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4]), std::atoi(argv[5]) + 1};
  const int rounds = argc > 6 ? std::atoi(argv[6]) : 7;
  // grid [field][pair][north L rows, south L rows][nlon], as pstswm's [field][local latitude][level][longitude]
  std::vector<double> grid(s.block() * s.pairs * s.fields);
  for (size_t i = 0; i < grid.size(); ++i) grid[i] = std::sin(0.001 * double(i)) + 0.1 * std::cos(0.37 * double(i));
  const size_t half = size_t(s.nm) * s.pairs * s.ncol();
  std::vector<double> E(half), O(half), E2(half), O2(half);
  const int fdist = 2 * (s.nh() + (s.nh() & 1));  // the proxy's row distance in the buffer (doubles)
  double* buf = fftw_alloc_real(size_t(s.rows()) * fdist);
  double* g = grid.data();
  const fftw_plan rows_plan = r2c_plan(s, g, reinterpret_cast<fftw_complex*>(buf), 1, fdist / 2);
  const fftw_plan wm_plan = r2c_plan(s, g, reinterpret_cast<fftw_complex*>(buf), s.rows(), 1);
  const double scale = 1.0 / s.nlon;
  auto fft = [&](fftw_plan p, int pair, int f) {
    fftw_execute_dft_r2c(p, g + (size_t(f) * s.pairs + pair) * s.block(), reinterpret_cast<fftw_complex*>(buf));
  };
  // (pair, field, m) of the buffer -> E, O at `out`; the buffer's (row r, m, re/im) at r row_stride + m m_stride
  auto fold_from = [&](const double* b, double* e, double* o, size_t out, int m, size_t row_stride, size_t m_stride) {
    const double* north = b + m * m_stride;
    const double* south = north + s.L * row_stride;
    for (int l = 0; l < s.L; ++l)
      for (int ri = 0; ri < 2; ++ri) {
        const double n = north[l * row_stride + ri], so = south[l * row_stride + ri];
        e[out + 2 * l + ri] = scale * (n + so);
        o[out + 2 * l + ri] = scale * (n - so);
      }
  };
  auto fold = [&](double* e, double* o, size_t out, int m, size_t row_stride, size_t m_stride) {
    fold_from(buf, e, o, out, m, row_stride, m_stride);
  };
  // every field of a pair into its own buffer, then the fold wavenumber by wavenumber: one contiguous run of ncol
  // columns of E and O per (m, pair) instead of one run of 2 L per (m, pair, field)
  const size_t field_buf = size_t(s.rows()) * fdist;
  double* bufs = fftw_alloc_real(field_buf * s.fields);
  auto pair_fold = [&](double* e, double* o) {
    for (int p = 0; p < s.pairs; ++p) {
      for (int f = 0; f < s.fields; ++f)
        fftw_execute_dft_r2c(rows_plan, g + (size_t(f) * s.pairs + p) * s.block(),
                             reinterpret_cast<fftw_complex*>(bufs + f * field_buf));
      for (int m = 0; m < s.nm; ++m)
        for (int f = 0; f < s.fields; ++f) fold_from(bufs + f * field_buf, e, o, at_m_pair(s, m, p, f), m, fdist, 2);
    }
  };
  // pair_fold with W consecutive wavenumbers folded together: each (row, field) read as one run of W complex values
  // (2 W doubles: a whole 64-byte line at W = 4) and written to the W rows (m, pair) of E and O
  auto pair_fold_w = [&](int W, double* e, double* o) {
    for (int p = 0; p < s.pairs; ++p) {
      for (int f = 0; f < s.fields; ++f)
        fftw_execute_dft_r2c(rows_plan, g + (size_t(f) * s.pairs + p) * s.block(),
                             reinterpret_cast<fftw_complex*>(bufs + f * field_buf));
      int m = 0;
      for (; m + W <= s.nm; m += W)
        for (int f = 0; f < s.fields; ++f) {
          const double* north = bufs + f * field_buf + 2 * m;
          const double* south = north + s.L * size_t(fdist);
          const size_t out = at_m_pair(s, m, p, f), mstep = size_t(s.pairs) * s.ncol();
          for (int l = 0; l < s.L; ++l) {
            double sum[8], dif[8];
            for (int j = 0; j < 2 * W; ++j) {
              const double n = north[l * size_t(fdist) + j], so = south[l * size_t(fdist) + j];
              sum[j] = scale * (n + so);
              dif[j] = scale * (n - so);
            }
            for (int w = 0; w < W; ++w)
              for (int ri = 0; ri < 2; ++ri) {
                e[out + w * mstep + 2 * l + ri] = sum[2 * w + ri];
                o[out + w * mstep + 2 * l + ri] = dif[2 * w + ri];
              }
          }
        }
      for (; m < s.nm; ++m)
        for (int f = 0; f < s.fields; ++f) fold_from(bufs + f * field_buf, e, o, at_m_pair(s, m, p, f), m, fdist, 2);
    }
  };
  // the grid level-fastest, [field][pair][north, south][longitude][level]: one r2c plan over a pair's L levels with
  // the levels as FFTW's contiguous batch writes [north, south][m][level], the order of E and O's columns
  std::vector<double> grid_lev(grid.size());
  for (int f = 0; f < s.fields; ++f)
    for (int p = 0; p < s.pairs; ++p)
      for (int r = 0; r < s.rows(); ++r)
        for (int i = 0; i < s.nlon; ++i) {
          const size_t block = (size_t(f) * s.pairs + p) * s.block();
          grid_lev[block + (size_t(r / s.L) * s.nlon + i) * s.L + r % s.L] = grid[block + size_t(r) * s.nlon + i];
        }
  const size_t lev_half = size_t(s.nh()) * s.L * 2;  // doubles of one hemisphere's spectrum in the buffer
  double* lev_buf = fftw_alloc_real(2 * lev_half);
  fftw_plan lev_plan;
  {
    fftw_iodim dim{s.nlon, s.L, s.L}, batch[2] = {{2, s.nlon * s.L, int(lev_half / 2)}, {s.L, 1, 1}};
    lev_plan = fftw_plan_guru_dft_r2c(1, &dim, 2, batch, grid_lev.data(), reinterpret_cast<fftw_complex*>(lev_buf),
                                      FFTW_MEASURE);
  }
  auto lev_fold = [&](double* e, double* o) {
    for (int p = 0; p < s.pairs; ++p)
      for (int f = 0; f < s.fields; ++f) {
        fftw_execute_dft_r2c(lev_plan, grid_lev.data() + (size_t(f) * s.pairs + p) * s.block(),
                             reinterpret_cast<fftw_complex*>(lev_buf));
        for (int m = 0; m < s.nm; ++m) {
          const double* north = lev_buf + size_t(m) * 2 * s.L;
          const double* south = north + lev_half;
          const size_t out = at_m_pair(s, m, p, f);
          for (int c = 0; c < 2 * s.L; ++c) {
            e[out + c] = scale * (north[c] + south[c]);
            o[out + c] = scale * (north[c] - south[c]);
          }
        }
      }
  };
  double* Eh = huge_doubles(half);
  double* Oh = huge_doubles(half);
  struct Variant {
    const char* name;
    std::function<void()> run;
    const double *e, *o;                           // its halves (null: no fold)
    size_t (*where)(const Sizes&, int, int, int);  // where they hold (m, pair, field)
    std::vector<double> t;
  };
  // every (pair, field): the FFT, then the fold of every wavenumber into e, o at where(m, pair, field)
  auto fft_fold = [&](fftw_plan plan, double* e, double* o, size_t (*where)(const Sizes&, int, int, int),
                      size_t row_stride, size_t m_stride) {
    for (int p = 0; p < s.pairs; ++p)
      for (int f = 0; f < s.fields; ++f) {
        fft(plan, p, f);
        for (int m = 0; m < s.nm; ++m) fold(e, o, where(s, m, p, f), m, row_stride, m_stride);
      }
  };
  const size_t wm_stride = 2 * size_t(s.rows());  // wavenumber-major buffer: one wavenumber of every row together
  std::vector<Variant> variants = {
      {"fft",
       [&] {
         for (int p = 0; p < s.pairs; ++p)
           for (int f = 0; f < s.fields; ++f) fft(rows_plan, p, f);
       },
       nullptr,
       nullptr,
       nullptr,
       {}},
      {"fft+fold",
       [&] { fft_fold(rows_plan, E.data(), O.data(), at_m_pair, fdist, 2); },
       E.data(),
       O.data(),
       at_m_pair,
       {}},
      {"wm+fold",
       [&] { fft_fold(wm_plan, E2.data(), O2.data(), at_m_pair, 2, wm_stride); },
       E2.data(),
       O2.data(),
       at_m_pair,
       {}},
      {"fft+fold-pm",
       [&] { fft_fold(rows_plan, E2.data(), O2.data(), at_pair_m, fdist, 2); },
       E2.data(),
       O2.data(),
       at_pair_m,
       {}},
      {"fft+fold-hp", [&] { fft_fold(rows_plan, Eh, Oh, at_m_pair, fdist, 2); }, Eh, Oh, at_m_pair, {}},
      {"pair+fold", [&] { pair_fold(E2.data(), O2.data()); }, E2.data(), O2.data(), at_m_pair, {}},
      {"lev+fold", [&] { lev_fold(E2.data(), O2.data()); }, E2.data(), O2.data(), at_m_pair, {}},
      {"pair+fold-hp", [&] { pair_fold(Eh, Oh); }, Eh, Oh, at_m_pair, {}},
      {"pair+fold2", [&] { pair_fold_w(2, E2.data(), O2.data()); }, E2.data(), O2.data(), at_m_pair, {}},
      {"pair+fold4", [&] { pair_fold_w(4, E2.data(), O2.data()); }, E2.data(), O2.data(), at_m_pair, {}},
  };
  double worst = 0;
  for (int r = 0; r < rounds; ++r)
    for (auto& v : variants) {
      v.t.push_back(seconds(v.run));
      if (!v.e || v.e == E.data()) continue;  // no fold, or the proxy's own
      for (int m = 0; m < s.nm; ++m)          // the same halves as the proxy's, wherever this variant stores them
        for (int p = 0; p < s.pairs; ++p)
          for (int f = 0; f < s.fields; ++f)
            for (int c = 0; c < 2 * s.L; ++c) {
              const size_t ref = at_m_pair(s, m, p, f) + c, mine = v.where(s, m, p, f) + c;
              worst = std::max({worst, std::abs(E[ref] - v.e[mine]), std::abs(O[ref] - v.o[mine])});
            }
    }
  std::printf("nlon %d, %d levels, %d pairs, %d fields, %d wavenumbers: %zu MB of grid, %zu MB of E + O; %d rounds\n",
              s.nlon, s.L, s.pairs, s.fields, s.nm, grid.size() * 8 >> 20, 2 * half * 8 >> 20, rounds);
  for (auto& v : variants) {
    std::sort(v.t.begin(), v.t.end());
    std::printf("  %-12s median %7.2f ms  (min %.2f, max %.2f)\n", v.name, 1e3 * v.t[v.t.size() / 2], 1e3 * v.t.front(),
                1e3 * v.t.back());
  }
  std::printf("  largest difference of a variant's halves from the proxy's: %.1e\n", worst);
  fftw_destroy_plan(rows_plan);
  fftw_destroy_plan(wm_plan);
  fftw_destroy_plan(lev_plan);
  fftw_free(buf);
  fftw_free(bufs);
  fftw_free(lev_buf);
  std::free(Eh);
  std::free(Oh);
  return worst < 1e-12 ? 0 : 1;
}
