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
 *   H  out of place, FFTW-MPI's transposed layout (FFTW_MPI_TRANSPOSED_OUT of this input): memory order (y, z, x), x
 *      contiguous: the first two axes swapped, lines of x moved whole (fft3d's Z stage makes z contiguous as well)
 *   I  in place, FFTW-MPI's transposed layout
 * and two out-of-place transforms made of stages, each an FFTW plan of its own, all but the first in the output array:
 *   J  FFTW-MPI's transposed plan at one rank (its plan printed): 2-D FFTs of each z plane into the output, an in-place
 *      square transpose of the x lines, 1-D FFTs along z in place (strided, a vector loop over x); the inverse 2-D
 *      FFTs of each y plane of the spectrum into the input, the transpose back, 1-D FFTs along y
 *   K  the same shape for fft3d's Z-stage layout: 2-D FFTs of each z plane written into the (y, x, z) layout, 1-D FFTs
 *      along z in place (contiguous); the inverse 1-D FFTs along z written into the input's order, 2-D FFTs in place
 * (J and K keep their input, as every plan here does), and two in place made of an FFT and a layout change in place:
 *   L  A, then FFTW's in-place transpose of the input's order into the Z-stage layout (and back before the inverse)
 *   M  I, then FFTW's in-place square transposes of each y plane into the Z-stage layout: FFTW-MPI's in-place
 *      transposed plan at one rank followed by the local transpose the peers' z_contiguous contract adds
 * (C and D are not fft3d's layout: until 2026-11-27 they were taken for it. Both keep z contiguous; the Z stage
 * keeps y slowest, so that a slab's ranks own contiguous blocks of y.)
 * Build: cc -O2 -march=native -o fftw_layouts fftw_layouts.c -lfftw3 -lm
 * Usage: fftw_layouts N measure|estimate|patient REPS [PLANS, e.g. AD: only those are planned, no wisdom from the
 * others]; PRINT_PLANS=1 prints the forward plans FFTW made. Each plan's last round trip is checked (exit 1 if off). */
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

enum layout { natural, reversed, z_stage, mpi_transposed };

/* The stride of axis k (0 = z, 1 = y, 2 = x) in a layout: natural (z, y, x) slowest first, x contiguous; reversed
 * (x, y, z); z_stage (y, x, z); mpi_transposed (y, z, x) */
static long stride(enum layout l, int k, int n) {
  static const int slot[4][3] = {{0, 1, 2}, {2, 1, 0}, {2, 0, 1}, {1, 0, 2}};  /* memory position of z, y, x, slowest first */
  const int pos = slot[l][k];
  return pos == 2 ? 1 : pos == 1 ? n : (long)n * n;
}

/* One FFTW plan over axes `fft` (bits 1 z, 2 y, 4 x), the others its loop; no axis: a layout change */
static fftw_plan stage(int n, fftw_complex* in, fftw_complex* out, enum layout from, enum layout to, int fft, int sign,
                       unsigned flags) {
  fftw_iodim d[3], loop[3];
  int rank = 0, loops = 0;
  for (int k = 0; k < 3; k++) {
    fftw_iodim* e = fft & (1 << k) ? &d[rank++] : &loop[loops++];
    e->n = n;
    e->is = (int)stride(from, k, n);
    e->os = (int)stride(to, k, n);
  }
  return fftw_plan_guru_dft(rank, d, loops, loop, in, out, sign, flags);
}

enum { z = 1, y = 2, x = 4, all = 7 };

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
  enum { plans = 13, steps = 3 };
  const char* names[plans] = {"A in place, input's order", "B out of place, input's order",
                              "C out of place, axes reversed", "D in place, axes reversed",
                              "E out of place, Z-stage layout", "F in place, Z-stage layout",
                              "G out of place, Z-stage layout, inverse into a third array",
                              "H out of place, FFTW-MPI's transposed layout", "I in place, FFTW-MPI's transposed layout",
                              "J out of place, FFTW-MPI's transposed layout in its stages",
                              "K out of place, Z-stage layout in stages",
                              "L in place, input's order then a transpose into the Z-stage layout",
                              "M in place, FFTW-MPI's transposed layout then square transposes into the Z-stage layout"};
  const enum layout spectrum[plans] = {natural, natural, reversed, reversed, z_stage,
                                       z_stage, z_stage,  mpi_transposed, mpi_transposed,
                                       mpi_transposed, z_stage, z_stage, z_stage};
  const int in_place[plans] = {1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 1};
  const size_t points = (size_t)n * n * n;
  fftw_complex *a = fftw_alloc_complex(points), *b = fftw_alloc_complex(points);
  fftw_complex* back = strchr(which, 'G') ? fftw_alloc_complex(points) : a;  /* G's third array */
  fftw_plan forward[plans][steps] = {{0}}, inverse[plans][steps] = {{0}};
  for (int c = 0; c < plans; c++) {
    if (!strchr(which, 'A' + c)) continue;
    fftw_complex* out = in_place[c] ? a : b;
    const enum layout to = spectrum[c];
    if (c == 'J' - 'A') {
      forward[c][0] = stage(n, a, b, natural, natural, y | x, FFTW_FORWARD, flags);
      forward[c][1] = stage(n, b, b, natural, to, 0, FFTW_FORWARD, flags);
      forward[c][2] = stage(n, b, b, to, to, z, FFTW_FORWARD, flags);
      inverse[c][0] = stage(n, b, a, to, to, z | x, FFTW_BACKWARD, flags);
      inverse[c][1] = stage(n, a, a, to, natural, 0, FFTW_BACKWARD, flags);
      inverse[c][2] = stage(n, a, a, natural, natural, y, FFTW_BACKWARD, flags);
    } else if (c == 'K' - 'A') {
      forward[c][0] = stage(n, a, b, natural, to, y | x, FFTW_FORWARD, flags);
      forward[c][1] = stage(n, b, b, to, to, z, FFTW_FORWARD, flags);
      inverse[c][0] = stage(n, b, a, to, natural, z, FFTW_BACKWARD, flags);
      inverse[c][1] = stage(n, a, a, natural, natural, y | x, FFTW_BACKWARD, flags);
    } else if (c >= 'L' - 'A') {  /* L, M */
      const enum layout first = c == 'L' - 'A' ? natural : mpi_transposed;
      forward[c][0] = stage(n, a, a, natural, first, all, FFTW_FORWARD, flags);
      forward[c][1] = stage(n, a, a, first, to, 0, FFTW_FORWARD, flags);
      inverse[c][0] = stage(n, a, a, to, first, 0, FFTW_BACKWARD, flags);
      inverse[c][1] = stage(n, a, a, first, natural, all, FFTW_BACKWARD, flags);
    } else {
      forward[c][0] = stage(n, a, out, natural, to, all, FFTW_FORWARD, flags);
      inverse[c][0] = stage(n, out, c == 'G' - 'A' ? back : a, to, natural, all, FFTW_BACKWARD, flags);
    }
    for (int k = 0; k < steps; k++)
      if (getenv("PRINT_PLANS") && forward[c][k]) fftw_print_plan(forward[c][k]), printf("  %c\n", 'A' + c);
  }
  double* t = malloc(sizeof(double) * plans * reps);
  for (int r = 0; r < reps; r++)
    for (int c = 0; c < plans; c++) {
      if (!forward[c][0]) continue;
      for (size_t i = 0; i < points; i++) a[i][0] = (double)(i % 7), a[i][1] = 0.5;  /* untimed: bounded values */
      const double t0 = now();
      for (int k = 0; k < steps && forward[c][k]; k++) fftw_execute(forward[c][k]);
      for (int k = 0; k < steps && inverse[c][k]; k++) fftw_execute(inverse[c][k]);
      t[c * reps + r] = (now() - t0) / 2;
    }
  int failed = 0;
  for (int c = 0; c < plans; c++) {
    if (!forward[c][0]) continue;
    qsort(t + c * reps, reps, sizeof(double), by_value);
    const double median = t[c * reps + reps / 2];
    /* the round trip of the last pair returns N times the input (G's into its third array) */
    const fftw_complex* r = c == 'G' - 'A' ? back : a;
    double err = 0;
    for (size_t i = 0; i < points; i++)
      err = fmax(err, fmax(fabs(r[i][0] / points - (double)(i % 7)), fabs(r[i][1] / points - 0.5)));
    const int ok = err < 1e-12 * log2((double)points) * 7;
    failed |= !ok;
    printf("%d^3 %s %s: %.3f ms per transform (%.2f GFLOP/s), round trip %s (max error %.1e)\n", n, argv[2],
           names[c], 1e3 * median, 5.0 * points * log2((double)points) / median * 1e-9, ok ? "ok" : "FAILED", err);
  }
  return failed;
}
