// pstswm's Legendre-transform products at a truncation, timed alone: the host BLAS' dgemm_ (as common/src/blas.cpp
// calls it, one call per wavenumber and parity) against LIBXSMM's JIT kernels for the same products (the small-GEMM
// library of CP2K and others: one kernel per shape, beta = 0 inside it, no packing). The question is whether the
// LT's small products (at T85 up to 43 x 36-108 x 64) are held back by the BLAS' per-call passes in a way another
// well-kept library avoids.
//
//   g++ -O2 -march=native bench/pstswm/lt_gemm.cpp -o lt_gemm_openblas -lxsmm -lxsmmnoblas -lopenblas -ldl
//   -lpthread g++ -O2 -march=native bench/pstswm/lt_gemm.cpp -o lt_gemm_blis -lxsmm -lxsmmnoblas -lblis -ldl
//   -lpthread
//   ./lt_gemm_openblas N NLAT LEVELS FIELDS REPEATS      (T85: 85 128 18 1 200)
//
// The layout is pstswm's (miniapps/pstswm/src/legendre_transform.cpp, products()): the table row-major with even and
// odd rows interleaved (lda 2K), the halves K x ncol per wavenumber, the spectrum rows of one parity 2 ncol apart.
// Prints, per direction, the median time of all products (microseconds) with each library and the ratio; the two
// results must agree (max relative difference printed).
#include <libxsmm.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

extern "C" void dgemm_(const char*, const char*, const int*, const int*, const int*, const double*, const double*,
                       const int*, const double*, const int*, const double*, double*, const int*);

struct Product {  // column-major: C (m x n) = op(B') (m x k) * op(A') (k x n), as blas.cpp calls dgemm_
  bool trans;     // op(A') = A'^T (pstswm's inverse)
  int m, n, k, lda, ldb, ldc;
  long long a, b, c;
};

static double seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char** argv) {
  if (argc < 6) {
    std::fprintf(stderr, "usage: %s N NLAT LEVELS FIELDS REPEATS\n", argv[0]);
    return 2;
  }
  const int N = std::atoi(argv[1]), K = std::atoi(argv[2]) / 2, L = std::atoi(argv[3]), nf = std::atoi(argv[4]);
  const int repeats = std::atoi(argv[5]), ncol = nf * 2 * L;
  // rows per wavenumber m: n = m..N (triangular truncation), offsets into the table and the spectrum
  std::vector<int> rows, offset;
  int total = 0;
  for (int m = 0; m <= N; ++m) {
    rows.push_back(N - m + 1);
    offset.push_back(total);
    total += N - m + 1;
  }
  std::vector<double> table(size_t(total) * K), halves(size_t(N + 1) * 2 * K * ncol), spec(size_t(total) * ncol);
  for (size_t i = 0; i < table.size(); ++i) table[i] = std::sin(0.001 * double(i));
  for (size_t i = 0; i < halves.size(); ++i) halves[i] = std::cos(0.002 * double(i));
  for (size_t i = 0; i < spec.size(); ++i) spec[i] = std::sin(0.003 * double(i) + 1.0);
  const long long odd = (long long)(N + 1) * K * ncol;  // the odd halves after the even ones
  std::vector<Product> fwd, inv;
  for (int i = 0; i <= N; ++i)
    for (int parity = 0; parity < 2; ++parity) {
      const int r = parity == 0 ? (rows[i] + 1) / 2 : rows[i] / 2;
      if (r == 0) continue;
      const long long t = (long long)(offset[i] + parity) * K, s = (long long)(offset[i] + parity) * ncol;
      const long long h = (long long)i * K * ncol + (parity == 0 ? 0 : odd);
      fwd.push_back({false, ncol, r, K, 2 * K, ncol, 2 * ncol, t, h, s});  // spec = table * half
      inv.push_back({true, ncol, K, r, 2 * K, 2 * ncol, ncol, t, s, h});   // half = table^T * spec
    }
  libxsmm_init();
  const double one = 1.0, zero = 0.0;
  auto run_blas = [&](const std::vector<Product>& ps, const double* A, const double* B, double* C) {
    for (const Product& p : ps) {
      const char tb = 'N', ta = p.trans ? 'T' : 'N';
      dgemm_(&tb, &ta, &p.m, &p.n, &p.k, &one, B + p.b, &p.ldb, A + p.a, &p.lda, &zero, C + p.c, &p.ldc);
    }
  };
  auto kernels_of = [&](const std::vector<Product>& ps) {
    std::vector<libxsmm_dmmfunction> ks;
    for (const Product& p : ps) {
      const int flags = p.trans ? LIBXSMM_GEMM_FLAG_TRANS_B : LIBXSMM_GEMM_FLAG_NONE, prefetch = LIBXSMM_PREFETCH_NONE;
      const libxsmm_blasint m = p.m, n = p.n, k = p.k, lda = p.ldb, ldb = p.lda, ldc = p.ldc;
      ks.push_back(libxsmm_dmmdispatch(m, n, k, &lda, &ldb, &ldc, &one, &zero, &flags, &prefetch));
    }
    return ks;
  };
  auto run_xsmm = [&](const std::vector<Product>& ps, const std::vector<libxsmm_dmmfunction>& ks, const double* A,
                      const double* B, double* C) {
    for (size_t i = 0; i < ps.size(); ++i) ks[i](B + ps[i].b, A + ps[i].a, C + ps[i].c);
  };
  for (int dir = 0; dir < 2; ++dir) {
    const std::vector<Product>& ps = dir == 0 ? fwd : inv;
    const double* B = dir == 0 ? halves.data() : spec.data();
    std::vector<double> c_blas = dir == 0 ? spec : halves, c_xsmm = c_blas;
    const auto ks = kernels_of(ps);
    const long long missing = std::count(ks.begin(), ks.end(), nullptr);
    double flops = 0;
    for (const Product& p : ps) flops += 2.0 * p.m * p.n * p.k;
    std::vector<double> tb, tx;
    for (int r = 0; r < repeats; ++r) {
      double t0 = seconds();
      run_blas(ps, table.data(), B, c_blas.data());
      tb.push_back(seconds() - t0);
      if (missing == 0) {
        t0 = seconds();
        run_xsmm(ps, ks, table.data(), B, c_xsmm.data());
        tx.push_back(seconds() - t0);
      }
    }
    std::sort(tb.begin(), tb.end());
    const double mb = tb[tb.size() / 2];
    std::printf("T%d %s, %zu products, ncol %d: BLAS %.1f us (%.2f GFLOP/s)", N, dir == 0 ? "forward" : "inverse",
                ps.size(), ncol, mb * 1e6, flops / mb * 1e-9);
    if (missing) {
      std::printf(", LIBXSMM: no JIT kernel for %lld of the shapes\n", missing);
      continue;
    }
    std::sort(tx.begin(), tx.end());
    const double mx = tx[tx.size() / 2];
    double diff = 0, scale = 0;
    for (size_t i = 0; i < c_blas.size(); ++i) {
      diff = std::max(diff, std::fabs(c_blas[i] - c_xsmm[i]));
      scale = std::max(scale, std::fabs(c_blas[i]));
    }
    std::printf(", LIBXSMM %.1f us (%.2f GFLOP/s): LIBXSMM / BLAS speed %.2fx (max rel. difference %.1e)\n", mx * 1e6,
                flops / mx * 1e-9, mb / mx, diff / scale);
  }
  libxsmm_finalize();
  return 0;
}
