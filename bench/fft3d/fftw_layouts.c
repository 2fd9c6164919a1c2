/* What FFTW's own 3-D plans cost for each output contract fft3d could offer at one rank (one core, double complex,
 * forward + inverse pairs, median per transform):
 *   A  in place, spectrum in the input's order         (FFTW-MPI's benchmark at one rank)
 *   B  out of place, input's order
 *   C  out of place, axes reversed: memory order (x, y, z), z contiguous
 *   D  in place, axes reversed
 *   E  out of place, fft3d's Z-stage layout: memory order (y, x, z), z contiguous (= fft3d.local=whole)
 *   F  in place, fft3d's Z-stage layout                 (= fft3d.in_place=true)
 *   G  E with the inverse into a third array: fft3d's timed loop (u -> spectrum -> back, u kept for the round-trip
 *      check), where E cycles through two arrays as FFTW-MPI's benchmark loop does
 * (C and D are not fft3d's layout: until 2026-11-27 they were taken for it. Both keep z contiguous; the Z stage
 * keeps y slowest, so that a slab's ranks own contiguous blocks of y.)
 * Build: cc -O2 -march=native -o fftw_layouts fftw_layouts.c -lfftw3 -lm
 * Usage: fftw_layouts N measure|estimate|patient REPS [PLANS, e.g. AD: only those are planned, no wisdom from the
 * others] */
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

enum layout { natural, reversed, z_stage };

/* The stride of axis k (0 = z, 1 = y, 2 = x) in a layout: natural (z, y, x) slowest first, x contiguous; reversed
 * (x, y, z); z_stage (y, x, z) */
static long stride(enum layout l, int k, int n) {
  static const int slot[3][3] = {{0, 1, 2}, {2, 1, 0}, {2, 0, 1}};  /* memory position of z, y, x, slowest first */
  const int pos = slot[l][k];
  return pos == 2 ? 1 : pos == 1 ? n : (long)n * n;
}

static fftw_plan plan(int n, fftw_complex* in, fftw_complex* out, enum layout from, enum layout to, int sign,
                      unsigned flags) {
  fftw_iodim d[3];
  for (int k = 0; k < 3; k++) {
    d[k].n = n;
    d[k].is = (int)stride(from, k, n);
    d[k].os = (int)stride(to, k, n);
  }
  return fftw_plan_guru_dft(3, d, 0, NULL, in, out, sign, flags);
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s N measure|estimate|patient REPS [PLANS]\n", argv[0]);
    return 2;
  }
  const int n = atoi(argv[1]), reps = atoi(argv[3]);
  const unsigned flags = !strcmp(argv[2], "measure")   ? FFTW_MEASURE
                         : !strcmp(argv[2], "patient") ? FFTW_PATIENT
                                                       : FFTW_ESTIMATE;
  const char* which = argc > 4 ? argv[4] : "ABCDEF";
  enum { plans = 7 };
  const char* names[plans] = {"A in place, input's order", "B out of place, input's order",
                              "C out of place, axes reversed", "D in place, axes reversed",
                              "E out of place, Z-stage layout", "F in place, Z-stage layout",
                              "G out of place, Z-stage layout, inverse into a third array"};
  const enum layout spectrum[plans] = {natural, natural, reversed, reversed, z_stage, z_stage, z_stage};
  const int in_place[plans] = {1, 0, 0, 1, 0, 1, 0};
  const size_t points = (size_t)n * n * n;
  fftw_complex *a = fftw_alloc_complex(points), *b = fftw_alloc_complex(points);
  fftw_complex* back = strchr(which, 'G') ? fftw_alloc_complex(points) : a;  /* G's third array */
  fftw_plan forward[plans] = {0}, inverse[plans] = {0};
  for (int c = 0; c < plans; c++) {
    if (!strchr(which, 'A' + c)) continue;
    fftw_complex* out = in_place[c] ? a : b;
    forward[c] = plan(n, a, out, natural, spectrum[c], FFTW_FORWARD, flags);
    inverse[c] = plan(n, out, c == 6 ? back : a, spectrum[c], natural, FFTW_BACKWARD, flags);
  }
  double* t = malloc(sizeof(double) * plans * reps);
  for (int r = 0; r < reps; r++)
    for (int c = 0; c < plans; c++) {
      if (!forward[c]) continue;
      for (size_t i = 0; i < points; i++) a[i][0] = (double)(i % 7), a[i][1] = 0.5;  /* untimed: bounded values */
      const double t0 = now();
      fftw_execute(forward[c]);
      fftw_execute(inverse[c]);
      t[c * reps + r] = (now() - t0) / 2;
    }
  for (int c = 0; c < plans; c++) {
    if (!forward[c]) continue;
    qsort(t + c * reps, reps, sizeof(double), by_value);
    const double median = t[c * reps + reps / 2];
    printf("%d^3 %s %s: %.3f ms per transform (%.2f GFLOP/s)\n", n, argv[2], names[c], 1e3 * median,
           5.0 * points * log2((double)points) / median * 1e-9);
  }
  return 0;
}
