// Dense matrix products behind one interface per execution space, and the DGEMM ceiling that library-substitution
// results are judged against:
//   host spaces   the system BLAS (OpenBLAS on Debian): one dgemm per product
//   CUDA          cuBLAS: a batch of products of different shapes in one cublasDgemmGroupedBatched call (a
//                 spectral transform's per-wavenumber products are each too small to fill a GPU; one launch per
//                 product would leave it idle between them). KokkosBatched and strided-batched GEMM need one shape.
//
//   GemmBatch<ExecSpace> batch({{false, m, n, k, a_offset, lda, b_offset, ldb, c_offset, ldc}, ...});
//   batch.execute(A, B, C);  // rank-1 Views of double in the space's memory: C_i = op(A_i) B_i for every product i
//
// Row-major; offsets and leading dimensions (row strides) in elements from the start of each View. Queued on the
// space's default instance (fence before reading on the host).
#pragma once
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "proxylab/errors.hpp"
#include "proxylab/layout.hpp"

namespace proxylab {

// C(m x n) = op(A) * B with op(A) = A (m x k) or A^T (A is k x m); A, B, C start a, b, c elements into their arrays.
struct GemmProduct {
  bool trans_a = false;
  int m = 0, n = 0, k = 0;
  long long a = 0;
  int lda = 0;
  long long b = 0;
  int ldb = 0;
  long long c = 0;
  int ldc = 0;
};

namespace detail {
class GemmBackend {
 public:
  virtual ~GemmBackend() = default;
  virtual void execute(const double* a, const double* b, double* c) const = 0;
};
std::unique_ptr<GemmBackend> host_gemm_backend(const std::vector<GemmProduct>& products);  // blas.cpp
#ifdef PROXYLAB_DEVICE_BLAS
std::unique_ptr<GemmBackend> device_gemm_backend(const std::vector<GemmProduct>& products);  // blas_device.cpp
#endif
}  // namespace detail

template <class Space>
class GemmBatch {
 public:
  GemmBatch() = default;
  explicit GemmBatch(const std::vector<GemmProduct>& products) : flops_(0) {
    for (const GemmProduct& p : products) {
      if (p.m < 0 || p.n < 0 || p.k < 0) throw RuntimeError("GemmBatch: a product with a negative dimension");
      flops_ += 2.0 * p.m * p.n * p.k;
      // the last element each array's rows reach, plus one
      auto end = [](long long at, int rows, int cols, int ld) { return rows > 0 ? at + (rows - 1LL) * ld + cols : 0; };
      span_[0] = std::max(span_[0], p.trans_a ? end(p.a, p.k, p.m, p.lda) : end(p.a, p.m, p.k, p.lda));
      span_[1] = std::max(span_[1], end(p.b, p.k, p.n, p.ldb));
      span_[2] = std::max(span_[2], end(p.c, p.m, p.n, p.ldc));
    }
    if constexpr (Kokkos::SpaceAccessibility<Space, Kokkos::HostSpace>::accessible) {
      backend_ = detail::host_gemm_backend(products);
    } else {
#ifdef PROXYLAB_DEVICE_BLAS
      backend_ = detail::device_gemm_backend(products);
#else
      static_assert(Kokkos::SpaceAccessibility<Space, Kokkos::HostSpace>::accessible,
                    "proxylab: no BLAS for this device back end in this build (cuBLAS: CUDA only)");
#endif
    }
  }

  template <class AView, class BView, class CView>
  void execute(const AView& A, const BView& B, const CView& C) const {
    static_assert(AView::rank == 1 && BView::rank == 1 && CView::rank == 1, "GemmBatch::execute takes rank-1 Views");
    require_accessible<Space>(A, B, C);
    if ((long long)A.span() < span_[0] || (long long)B.span() < span_[1] || (long long)C.span() < span_[2])
      throw RuntimeError("GemmBatch::execute: a View is shorter than its products reach");
    if (backend_) backend_->execute(A.data(), B.data(), C.data());
  }
  double flops() const { return flops_; }

 private:
  std::shared_ptr<const detail::GemmBackend> backend_;
  long long span_[3] = {0, 0, 0};
  double flops_ = 0;
};

// The host BLAS that serves dgemm_ and its kernel set ("OpenBLAS Cooperlake", "BLIS 0.9.0 zen3"; the library's file
// where it does not say), for the record.
std::string host_blas_kernels();
// A warning where OpenBLAS fell back to its oldest x86-64 kernels (Prescott, SSE3) on a CPU with AVX2: an OpenBLAS
// older than the CPU (Debian 12's 0.3.21 on Intel family 6 model 207 measured 10 GFLOP/s DGEMM, 74 with
// OPENBLAS_CORETYPE=SkylakeX); empty otherwise.
std::string host_blas_warning();
// The rule behind it, for any kernel set name and CPU features (tested on its own).
std::string blas_kernel_warning(const std::string& openblas_core, bool avx2, bool avx512);

// Measured DGEMM rate (GFLOP/s, best of `repeats`) of one square n x n product on this rank's default execution
// space (OpenBLAS on a host back end, cuBLAS on CUDA).
double measure_dgemm_gflops(int n = 1024, int repeats = 3);

}  // namespace proxylab
