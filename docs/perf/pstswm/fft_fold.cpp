// What pstswm's fold costs next to its FFTs (docs/perf/peers/README.md, "pstswm with its data in cache"): the
// forward FFT stage of one transform call, as spherical_transform.cpp runs it with transform.fuse_fold on one
// thread, and two other ways to write the same even / odd halves, timed in interleaved rounds (medians).
//   fft          each (pair, field)'s 2L latitude-level rows, r2c, into a buffer (FFTW_MEASURE plan), no fold
//   fft+fold     the proxy: then the fold into E, O laid out [m][pair][col], col = 2 (field L + level) + re/im
//   wm+fold      FFTW writes the buffer wavenumber-major (output stride 2L), so the fold reads contiguous runs
//   fft+fold-pm  the proxy's buffer, folded into E, O laid out pair-major [pair][m][col] (contiguous per pair)
// Every variant's E and O are checked against the proxy's (same values, wherever they are stored).
//   g++ -O3 -march=native docs/perf/pstswm/fft_fold.cpp -o /tmp/fft_fold -lfftw3
//   /tmp/fft_fold NLON LEVELS PAIRS FIELDS TRUNCATION [ROUNDS]    e.g. T85: 256 18 64 5 85, T170: 512 18 128 5 170
#include <fftw3.h>

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
  auto fold = [&](double* e, double* o, size_t out, int m, size_t row_stride, size_t m_stride) {
    const double* north = buf + m * m_stride;
    const double* south = north + s.L * row_stride;
    for (int l = 0; l < s.L; ++l)
      for (int ri = 0; ri < 2; ++ri) {
        const double n = north[l * row_stride + ri], so = south[l * row_stride + ri];
        e[out + 2 * l + ri] = scale * (n + so);
        o[out + 2 * l + ri] = scale * (n - so);
      }
  };
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
  fftw_free(buf);
  return worst < 1e-12 ? 0 : 1;
}
