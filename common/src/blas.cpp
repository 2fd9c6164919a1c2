// The host BLAS back end of GemmBatch (see blas.hpp) and the DGEMM ceiling. Row-major products are computed as the
// column-major product of the transposes: C^T = B^T op(A)^T, so no copies are made.
#include "proxylab/blas.hpp"

#include <mpi.h>

#include <algorithm>
#include <cctype>
#include <string>

extern "C" void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                       const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
                       const double* beta, double* c, const int* ldc);

// OpenBLAS names the kernel set it chose at load time (absent from other BLAS libraries: weak).
extern "C" char* openblas_get_corename(void) __attribute__((weak));

namespace proxylab {
namespace detail {
namespace {

class HostGemm final : public GemmBackend {
 public:
  explicit HostGemm(const std::vector<GemmProduct>& products) : products_(products) {}
  void execute(const double* a, const double* b, double* c) const override {
    const double one = 1.0, zero = 0.0;
    for (const GemmProduct& p : products_) {
      if (p.m == 0 || p.n == 0) continue;
      const char tb = 'N', ta = p.trans_a ? 'T' : 'N';
      dgemm_(&tb, &ta, &p.n, &p.m, &p.k, &one, b + p.b, &p.ldb, a + p.a, &p.lda, &zero, c + p.c, &p.ldc);
    }
  }

 private:
  std::vector<GemmProduct> products_;
};

}  // namespace

std::unique_ptr<GemmBackend> host_gemm_backend(const std::vector<GemmProduct>& products) {
  return std::make_unique<HostGemm>(products);
}

}  // namespace detail

std::string host_blas_kernels() {
  return openblas_get_corename ? std::string("OpenBLAS ") + openblas_get_corename() : std::string();
}

std::string blas_kernel_warning(const std::string& openblas_core, bool avx2, bool avx512) {
  std::string core = openblas_core;
  std::transform(core.begin(), core.end(), core.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (core != "prescott" || !avx2) return "";
  return "OpenBLAS runs its Prescott (SSE3) kernels on a CPU with AVX2" + std::string(avx512 ? " and AVX-512" : "") +
         ": this OpenBLAS does not know the CPU, and its DGEMM is several times slower than it could be; set "
         "OPENBLAS_CORETYPE=" +
         (avx512 ? "SkylakeX" : "Haswell") + " (OpenBLAS' kernels for this ISA)";
}

std::string host_blas_warning() {
#if defined(__x86_64__)
  return blas_kernel_warning(openblas_get_corename ? openblas_get_corename() : "", __builtin_cpu_supports("avx2"),
                             __builtin_cpu_supports("avx512f"));
#else
  return "";
#endif
}

double measure_dgemm_gflops(int n, int repeats) {
  View1D<double> a("dgemm::a", size_t(n) * n), b("dgemm::b", size_t(n) * n), c("dgemm::c", size_t(n) * n);
  Kokkos::parallel_for(
      "dgemm::fill", Kokkos::RangePolicy<ExecSpace>(0, size_t(n) * n), KOKKOS_LAMBDA(size_t i) {
        a(i) = 1.0 + double(i % 7) * 0.1;
        b(i) = 0.5 - double(i % 5) * 0.1;
      });
  const GemmBatch<ExecSpace> product({{false, n, n, n, 0, n, 0, n, 0, n}});
  product.execute(a, b, c);  // warm-up
  Kokkos::fence();
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const double t0 = MPI_Wtime();
    product.execute(a, b, c);
    Kokkos::fence();
    best = std::min(best, MPI_Wtime() - t0);
  }
  return product.flops() / best * 1e-9;
}

}  // namespace proxylab
