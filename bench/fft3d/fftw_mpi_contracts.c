/* FFTW-MPI's 3-D c2c slab transform under each output contract (the peers benchmark's fftw_mpi_3d runs the first):
 *   inplace    in place, the spectrum in the input's order (two transposes each way at P > 1)
 *   oop        out of place, the input's order
 *   oop_t      out of place, FFTW_MPI_TRANSPOSED_OUT forward / TRANSPOSED_IN inverse: one transpose each way and the
 *              input kept: fft3d's slab contract but for the spectrum's local order (below)
 *   inplace_t  in place, transposed
 *   oop_tz     oop_t, then the spectrum transposed locally from FFTW's order ([y][z][x], x fastest) into fft3d's
 *              Z stage ([y][x][z], z fastest) by an FFTW copy plan (rank 0), and back before the inverse: all of the
 *              slab's contract (its Z stage is z-contiguous, as 2DECOMP&FFT's), done with FFTW's own plans
 *   inplace_tz inplace_t, then the same local transposes in place (square ones, per local y plane): fft3d's in-place
 *              contract
 *   transpose  no FFT: the slab's transpose alone (fftw_mpi_plan_many_transpose of n x n blocks of n complex values,
 *              out of place), what FFTW-MPI's transposed plans run between their local FFTs; "per transform" is one
 *              transpose here
 * Median per transform of REPS forward + inverse pairs (max over ranks), the input refilled untimed before each pair
 * (with `back_to_back`: filled once, the pairs one after another, as the peers' fftw_mpi_3d times them).
 * Build: mpicc.openmpi -O3 -march=native fftw_mpi_contracts.c -o fftw_mpi_contracts -lfftw3_mpi -lfftw3 -lm
 * Usage: mpirun -n P fftw_mpi_contracts N measure|estimate|patient REPS MODE [back_to_back]
 * (inplace is the peers' fftw_mpi_3d, which knows ESTIMATE and MEASURE only: run.py runs this for its PATIENT rows) */
#include <fftw3-mpi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int cmp(const void* a, const void* b) { double x = *(const double*)a, y = *(const double*)b; return (x > y) - (x < y); }
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv); fftw_mpi_init();
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  ptrdiff_t n = atol(argv[1]); int reps = atoi(argv[3]); const char* mode = argv[4];
  int refill = !(argc > 5 && !strcmp(argv[5], "back_to_back"));
  unsigned flag = !strcmp(argv[2], "measure") ? FFTW_MEASURE : !strcmp(argv[2], "patient") ? FFTW_PATIENT : FFTW_ESTIMATE;
  int tz = !strcmp(mode, "oop_tz") || !strcmp(mode, "inplace_tz");
  int oop = !strcmp(mode, "oop") || !strcmp(mode, "oop_t") || !strcmp(mode, "oop_tz");
  int tr = !strcmp(mode, "oop_t") || !strcmp(mode, "inplace_t") || tz;
  int tp = !strcmp(mode, "transpose");
  oop |= tp;
  if (!oop && !tr && strcmp(mode, "inplace")) {
    if (!rank) fprintf(stderr, "MODE %s: one of inplace, oop, oop_t, inplace_t, oop_tz, inplace_tz, transpose\n", mode);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  ptrdiff_t ln0, l0s, ln1, l1s;
  /* transposed (and the transpose alone): room for either side's block */
  ptrdiff_t alloc = tr || tp ? fftw_mpi_local_size_3d_transposed(n, n, n, MPI_COMM_WORLD, &ln0, &l0s, &ln1, &l1s)
                       : fftw_mpi_local_size_3d(n, n, n, MPI_COMM_WORLD, &ln0, &l0s);
  fftw_complex* a = fftw_alloc_complex(alloc); fftw_complex* b = oop ? fftw_alloc_complex(alloc) : a;
  fftw_plan f = tp ? fftw_mpi_plan_many_transpose(n, n, 2 * n, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK,
                                                  (double*)a, (double*)b, MPI_COMM_WORLD, flag)
                   : fftw_mpi_plan_dft_3d(n, n, n, a, b, MPI_COMM_WORLD, FFTW_FORWARD, flag | (tr ? FFTW_MPI_TRANSPOSED_OUT : 0));
  fftw_plan g = tp ? fftw_mpi_plan_many_transpose(n, n, 2 * n, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK,
                                                  (double*)b, (double*)a, MPI_COMM_WORLD, flag)
                   : fftw_mpi_plan_dft_3d(n, n, n, b, a, MPI_COMM_WORLD, FFTW_BACKWARD, flag | (tr ? FFTW_MPI_TRANSPOSED_IN : 0));
  fftw_complex* c = tz && oop ? fftw_alloc_complex(alloc) : b;
  fftw_plan zf = NULL, zb = NULL;  /* b [y][z][x] -> c [y][x][z] and back (per local y plane: x <-> z) */
  if (tz) {
    const fftw_iodim64 to_z[3] = {{ln1, n * n, n * n}, {n, 1, n}, {n, n, 1}};    /* y, x, z: in b, in c */
    const fftw_iodim64 from_z[3] = {{ln1, n * n, n * n}, {n, n, 1}, {n, 1, n}};  /* y, x, z: in c, in b */
    zf = fftw_plan_guru64_dft(0, NULL, 3, to_z, b, c, FFTW_FORWARD, flag);
    zb = fftw_plan_guru64_dft(0, NULL, 3, from_z, c, b, FFTW_FORWARD, flag);
  }
  double* t = malloc(sizeof(double) * reps);
  for (int r = 0; r < reps + 1; r++) {
    for (ptrdiff_t i = 0; i < ln0 * n * n && (refill || !r); i++) { a[i][0] = sin(0.001 * (i + l0s * n * n)); a[i][1] = cos(0.002 * i); }
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    fftw_execute(f);
    if (tz) { fftw_execute(zf); fftw_execute(zb); }
    fftw_execute(g);
    double dt = (MPI_Wtime() - t0) / 2;
    if (r) MPI_Allreduce(&dt, &t[r - 1], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  }
  qsort(t, reps, sizeof(double), cmp);
  double N = (double)n * n * n;
  if (!rank && tp) printf("%ld^3 %s %s: %.3f ms\n", (long)n, argv[2], mode, 1e3 * t[reps / 2]);
  else if (!rank) printf("%ld^3 %s %s: %.3f ms, %.2f GFLOP/s\n", (long)n, argv[2], mode, 1e3 * t[reps / 2], 5 * N * log2(N) / t[reps / 2] * 1e-9);
  MPI_Finalize(); return 0;
}
