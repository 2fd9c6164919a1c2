/* What FFTW's own 3-D plans cost for each output contract fft3d could offer at one rank (one core, double complex,
 * forward + inverse pairs, median per transform):
 *   A  in place, spectrum in the input's order         (FFTW-MPI's benchmark at one rank)
 *   B  out of place, input's order
 *   C  out of place, axes reversed (fft3d's Z-stage layout, z contiguous; = fft3d.local=whole)
 *   D  in place, axes reversed                         (= fft3d.in_place=true)
 * Build: cc -O2 -march=native -o fftw_layouts fftw_layouts.c -lfftw3 -lm
 * Usage: fftw_layouts N measure|estimate REPS [PLANS, e.g. AD: only those are planned, no wisdom from the others] */
#include <fftw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int by_value(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* k = 0 is the slowest axis of the input's order (z), k = 2 the contiguous one (x); reversed: x slowest, z contiguous */
static fftw_plan plan(int n, fftw_complex* in, fftw_complex* out, int reversed_in, int reversed_out, int sign,
                      unsigned flags) {
  fftw_iodim d[3];
  for (int k = 0; k < 3; k++) {
    const long natural = k == 0 ? (long)n * n : k == 1 ? n : 1, reversed = k == 0 ? 1 : k == 1 ? n : (long)n * n;
    d[k].n = n;
    d[k].is = (int)(reversed_in ? reversed : natural);
    d[k].os = (int)(reversed_out ? reversed : natural);
  }
  return fftw_plan_guru_dft(3, d, 0, NULL, in, out, sign, flags);
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s N measure|estimate REPS [PLANS]\n", argv[0]);
    return 2;
  }
  const int n = atoi(argv[1]), reps = atoi(argv[3]);
  const unsigned flags = strcmp(argv[2], "measure") ? FFTW_ESTIMATE : FFTW_MEASURE;
  const char* which = argc > 4 ? argv[4] : "ABCD";
  const char* names[4] = {"A in place, input's order", "B out of place, input's order",
                          "C out of place, axes reversed", "D in place, axes reversed"};
  const int reversed[4] = {0, 0, 1, 1}, in_place[4] = {1, 0, 0, 1};
  const size_t points = (size_t)n * n * n;
  fftw_complex *a = fftw_alloc_complex(points), *b = fftw_alloc_complex(points);
  fftw_plan forward[4] = {0}, inverse[4] = {0};
  for (int c = 0; c < 4; c++) {
    if (!strchr(which, 'A' + c)) continue;
    fftw_complex* out = in_place[c] ? a : b;
    forward[c] = plan(n, a, out, 0, reversed[c], FFTW_FORWARD, flags);
    inverse[c] = plan(n, out, a, reversed[c], 0, FFTW_BACKWARD, flags);
  }
  double* t = malloc(sizeof(double) * 4 * reps);
  for (int r = 0; r < reps; r++)
    for (int c = 0; c < 4; c++) {
      if (!forward[c]) continue;
      for (size_t i = 0; i < points; i++) a[i][0] = (double)(i % 7), a[i][1] = 0.5;  /* untimed: bounded values */
      const double t0 = now();
      fftw_execute(forward[c]);
      fftw_execute(inverse[c]);
      t[c * reps + r] = (now() - t0) / 2;
    }
  for (int c = 0; c < 4; c++) {
    if (!forward[c]) continue;
    qsort(t + c * reps, reps, sizeof(double), by_value);
    const double median = t[c * reps + reps / 2];
    printf("%d^3 %s %s: %.3f ms per transform (%.2f GFLOP/s)\n", n, argv[2], names[c], 1e3 * median,
           5.0 * points * log2((double)points) / median * 1e-9);
  }
  return 0;
}
