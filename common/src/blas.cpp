// The host BLAS back end of GemmBatch (see blas.hpp) and the DGEMM ceiling. Row-major products are computed as the
// column-major product of the transposes: C^T = B^T op(A)^T, so no copies are made.
#include "proxylab/blas.hpp"

#include <dlfcn.h>
#include <mpi.h>

#include <algorithm>
#include <cctype>
#include <string>

extern "C" void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                       const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
                       const double* beta, double* c, const int* ldc);

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

namespace {

// The library that serves dgemm_ (another BLAS may be loaded beside it, e.g. the one a reference LAPACK names),
// and a function of that library by name (null where it has none).
struct DgemmLibrary {
  std::string file;
  void* handle = nullptr;
  DgemmLibrary() {
    Dl_info info;
    if (!dladdr(dlsym(RTLD_DEFAULT, "dgemm_"), &info) || !info.dli_fname) return;
    file = info.dli_fname;
    handle = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  }
  ~DgemmLibrary() {
    if (handle) dlclose(handle);
  }
  template <class F>
  F* function(const char* name) const {
    return handle ? reinterpret_cast<F*>(dlsym(handle, name)) : nullptr;
  }
};

// OpenBLAS' kernel set chosen at load time; empty where dgemm_ is not OpenBLAS'.
std::string openblas_core(const DgemmLibrary& lib) {
  auto* core = lib.function<char*()>("openblas_get_corename");
  return core ? core() : "";
}

}  // namespace

std::string host_blas_kernels() {
  const DgemmLibrary lib;
  if (const std::string core = openblas_core(lib); !core.empty()) return "OpenBLAS " + core;
  auto* version = lib.function<const char*()>("bli_info_get_version_str");
  auto* arch = lib.function<int()>("bli_arch_query_id");
  auto* arch_name = lib.function<const char*(int)>("bli_arch_string");
  if (version && arch && arch_name) return std::string("BLIS ") + version() + " " + arch_name(arch());
  return lib.file;
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
  return blas_kernel_warning(openblas_core(DgemmLibrary()), __builtin_cpu_supports("avx2"),
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
