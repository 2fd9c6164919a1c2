// Does FFTW's planning effort matter for pstswm's pair plans? SHTns plans with FFTW_EXHAUSTIVE by default, pstswm
// with FFTW_MEASURE (transform.fft_planning=measure). One latitude pair's 2L rows (L = 18: 36 rows) of n points,
// r2c out of place into rows fdist doubles apart and c2r back (spherical_transform.cpp's pair_plan shapes), planned
// with MEASURE, PATIENT and EXHAUSTIVE, timed in 9 interleaved rounds (medians), 1 thread.
//   g++ -O3 -march=native bench/pstswm/plan_flags.cpp -o /tmp/plan_flags -lfftw3
//   /tmp/plan_flags N ROWS REPS      e.g. 320 36 300 (T106's grid)
#include <fftw3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
int main(int argc, char** argv) {
  int n = atoi(argv[1]), rows = atoi(argv[2]), reps = atoi(argv[3]);
  int nh = n / 2 + 1, fdist = 2 * (nh + (nh & 1));
  double* in = fftw_alloc_real(size_t(rows) * n);
  double* out = fftw_alloc_real(size_t(rows) * fdist);
  unsigned flags[3] = {FFTW_MEASURE, FFTW_PATIENT, FFTW_EXHAUSTIVE};
  const char* names[3] = {"measure", "patient", "exhaustive"};
  fftw_plan pf[3], pb[3];
  fftw_iodim d{n, 1, 1}, b{rows, n, fdist / 2}, bb{rows, fdist / 2, n};
  for (int k = 0; k < 3; ++k) {
    auto t0 = std::chrono::steady_clock::now();
    pf[k] = fftw_plan_guru_dft_r2c(1, &d, 1, &b, in, (fftw_complex*)out, flags[k]);
    pb[k] = fftw_plan_guru_dft_c2r(1, &d, 1, &bb, (fftw_complex*)out, in, flags[k]);
    printf("%s planning %.2f s\n", names[k],
           std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  for (size_t i = 0; i < size_t(rows) * n; ++i) in[i] = std::rand() / (double)RAND_MAX;
  std::vector<double> t[3];
  for (int r = 0; r < 9; ++r)
    for (int k = 0; k < 3; ++k) {
      auto t0 = std::chrono::steady_clock::now();
      for (int j = 0; j < reps; ++j) {
        fftw_execute(pf[k]);
        fftw_execute(pb[k]);
      }
      t[k].push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps);
    }
  for (int k = 0; k < 3; ++k) {
    std::sort(t[k].begin(), t[k].end());
    printf("n %d rows %d %s: r2c+c2r %.2f us\n", n, rows, names[k], t[k][4] * 1e6);
  }
}
