// The CUDA back end of GemmBatch (see blas.hpp): every product of a batch in one cublasDgemmGroupedBatched call on
// the default CUDA instance's stream. The products' offsets live on the device; each execute() turns them into the
// pointer arrays cuBLAS reads with one small kernel (the arrays' bases change between calls). Compiled only where
// Kokkos has the CUDA back end (PROXYLAB_DEVICE_BLAS).
#include <cublas_v2.h>

#include <cstdint>
#include <string>

#include "proxylab/blas.hpp"
#include "proxylab/detail/gpu_runtime_status.hpp"

namespace proxylab::detail {
namespace {

// The cuBLAS call `name` (call() returns its status), checked with the CUDA runtime around it.
template <class Call>
void cublas_call(const char* name, const Call& call) {
  checked_gpu_library_call(name, [&](std::string& status) {
    const cublasStatus_t s = call();
    status = cublasGetStatusString(s);
    return s == CUBLAS_STATUS_SUCCESS;
  });
}

// One handle for the process, made on first use and destroyed before Kokkos finalizes (its stream is Kokkos').
cublasHandle_t handle() {
  static cublasHandle_t h = [] {
    cublasHandle_t made = nullptr;
    cublas_call("cublasCreate", [&] { return cublasCreate(&made); });
    Kokkos::push_finalize_hook([made] { cublasDestroy(made); });
    return made;
  }();
  cublas_call("cublasSetStream", [&] { return cublasSetStream(h, ExecSpace().cuda_stream()); });
  return h;
}

class CublasGroupedGemm final : public GemmBackend {
 public:
  explicit CublasGroupedGemm(const std::vector<GemmProduct>& products)
      : count_(int(products.size())),
        offsets_("gemm::offsets", 3 * products.size()),
        pointers_("gemm::pointers", 3 * products.size()) {
    // Row-major C = op(A) B is column-major C^T = B^T op(A)^T: cuBLAS multiplies B^T (n x k) by op(A)^T.
    auto h = Kokkos::create_mirror_view(offsets_);
    for (int i = 0; i < count_; ++i) {
      const GemmProduct& p = products[i];
      trans_b_.push_back(CUBLAS_OP_N);
      trans_a_.push_back(p.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N);
      m_.push_back(p.n);
      n_.push_back(p.m);
      k_.push_back(p.k);
      ldb_.push_back(p.ldb);
      lda_.push_back(p.lda);
      ldc_.push_back(p.ldc);
      h(i) = p.b;
      h(count_ + i) = p.a;
      h(2 * count_ + i) = p.c;
    }
    alpha_.assign(count_, 1.0);
    beta_.assign(count_, 0.0);
    group_size_.assign(count_, 1);
    Kokkos::deep_copy(offsets_, h);
  }

  void execute(const double* a, const double* b, double* c) const override {
    if (count_ == 0) return;
    const auto off = offsets_;
    const auto ptr = pointers_;
    const int n = count_;
    const std::uintptr_t base[3] = {std::uintptr_t(b), std::uintptr_t(a), std::uintptr_t(c)};
    const std::uintptr_t bb = base[0], ab = base[1], cb = base[2];
    Kokkos::parallel_for(
        "gemm::pointers", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(int i) {
          ptr(i) = bb + sizeof(double) * off(i);
          ptr(n + i) = ab + sizeof(double) * off(n + i);
          ptr(2 * n + i) = cb + sizeof(double) * off(2 * n + i);
        });
    // the kernel above and cuBLAS share the instance's stream: the arrays are complete before cuBLAS reads them
    double* const* p = reinterpret_cast<double* const*>(pointers_.data());
    const cublasHandle_t h = handle();
    cublas_call("cublasDgemmGroupedBatched", [&] {
      return cublasDgemmGroupedBatched(h, trans_b_.data(), trans_a_.data(), m_.data(), n_.data(), k_.data(),
                                       alpha_.data(), p, ldb_.data(), p + n, lda_.data(), beta_.data(), p + 2 * n,
                                       ldc_.data(), n, group_size_.data());
    });
  }

 private:
  int count_;
  std::vector<cublasOperation_t> trans_b_, trans_a_;
  std::vector<int> m_, n_, k_, ldb_, lda_, ldc_, group_size_;
  std::vector<double> alpha_, beta_;
  View1D<long long> offsets_;        // B's offsets of every product, then A's, then C's (cuBLAS' argument order)
  View1D<std::uintptr_t> pointers_;  // the addresses cuBLAS reads, in the same order, filled at execute()
};

}  // namespace

std::unique_ptr<GemmBackend> device_gemm_backend(const std::vector<GemmProduct>& products) {
  return std::make_unique<CublasGroupedGemm>(products);
}

}  // namespace proxylab::detail
