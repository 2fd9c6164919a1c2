// BLAS wrappers (see blas.hpp). Row-major products are computed as the column-major product of the
// transposes: C^T = op(B)^T op(A)^T, so no copies are made.
#include "proxylab/blas.hpp"

#include <mpi.h>

#include <algorithm>
#include <vector>

extern "C" void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                       const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
                       const double* beta, double* c, const int* ldc);

namespace proxylab {

void gemm(bool trans_a, bool trans_b, int m, int n, int k, double alpha, const double* A, int lda, const double* B,
          int ldb, double beta, double* C, int ldc) {
  if (m == 0 || n == 0) return;
  const char ta = trans_b ? 'T' : 'N', tb = trans_a ? 'T' : 'N';
  dgemm_(&ta, &tb, &n, &m, &k, &alpha, B, &ldb, A, &lda, &beta, C, &ldc);
}

double measure_dgemm_gflops(int n, int repeats) {
  std::vector<double> a(size_t(n) * n), b(size_t(n) * n), c(size_t(n) * n, 0.0);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = 1.0 + double(i % 7) * 0.1;
    b[i] = 0.5 - double(i % 5) * 0.1;
  }
  gemm(false, false, n, n, n, 1.0, a.data(), n, b.data(), n, 0.0, c.data(), n);  // warm-up
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const double t0 = MPI_Wtime();
    gemm(false, false, n, n, n, 1.0, a.data(), n, b.data(), n, 0.0, c.data(), n);
    best = std::min(best, MPI_Wtime() - t0);
  }
  return 2.0 * double(n) * n * n / best * 1e-9;
}

}  // namespace proxylab
