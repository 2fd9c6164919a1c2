// Dense matrix products on host memory through the system BLAS (OpenBLAS on Debian), and the DGEMM
// ceiling that library-substitution results are judged against.
#pragma once
#include "proxylab/layout.hpp"

namespace proxylab {

// Row-major C(m x n) = alpha * op(A) * op(B) + beta * C; lda/ldb/ldc are row strides (elements).
// trans_a / trans_b: use A^T / B^T.
void gemm(bool trans_a, bool trans_b, int m, int n, int k, double alpha, const double* A, int lda, const double* B,
          int ldb, double beta, double* C, int ldc);

// Measured DGEMM rate (GFLOP/s, best of `repeats`) for square n x n products on this rank.
double measure_dgemm_gflops(int n = 1024, int repeats = 3);

}  // namespace proxylab
