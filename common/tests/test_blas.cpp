// GemmBatch (blas.hpp): a batch of row-major products of different shapes, offsets and leading dimensions in one
// set of arrays (the spectral transform's per-wavenumber products) against the products written out as loops, on the
// default execution space (OpenBLAS or BLIS on a host back end, cuBLAS grouped on CUDA), and the host BLAS the record
// names.
#include <dlfcn.h>

#include <random>
#include <string>

#include "proxylab/blas.hpp"
#include "proxylab/testing.hpp"

using namespace proxylab;

TEST_CASE("GemmBatch: every product of a mixed batch as the loops give it", "[blas]") {
  // (trans_a, m, n, k): plain and transposed, a k = 0 product (C must come out zero), a 1 x 1
  const std::vector<GemmProduct> shapes = {
      {false, 5, 7, 3}, {true, 4, 6, 9}, {false, 3, 2, 0}, {true, 1, 1, 1}, {false, 8, 3, 8}};
  std::vector<GemmProduct> batch;
  long long a = 0, b = 0, c = 0;
  for (GemmProduct p :
       shapes) {  // each array a row longer than it needs (lda etc. > columns), packed one after another
    p.lda = (p.trans_a ? p.m : p.k) + 2;
    p.ldb = p.n + 1;
    p.ldc = p.n + 3;
    p.a = a;
    p.b = b;
    p.c = c;
    a += (long long)(p.trans_a ? p.k : p.m) * p.lda;
    b += (long long)p.k * p.ldb;
    c += (long long)p.m * p.ldc;
    batch.push_back(p);
  }
  View1D<double> A("A", a), B("B", b), C("C", c);
  auto hA = Kokkos::create_mirror_view(A), hB = Kokkos::create_mirror_view(B);
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (long long i = 0; i < a; ++i) hA(i) = u(gen);
  for (long long i = 0; i < b; ++i) hB(i) = u(gen);
  Kokkos::deep_copy(A, hA);
  Kokkos::deep_copy(B, hB);
  Kokkos::deep_copy(C, 99.0);  // every element a product writes must be overwritten (beta = 0)

  const GemmBatch<ExecSpace> gemm(batch);
  gemm.execute(A, B, C);
  Kokkos::fence();
  const auto hC = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C);
  double flops = 0;
  for (const GemmProduct& p : batch) {
    flops += 2.0 * p.m * p.n * p.k;
    for (int i = 0; i < p.m; ++i)
      for (int j = 0; j < p.n; ++j) {
        double want = 0;
        for (int l = 0; l < p.k; ++l)
          want += (p.trans_a ? hA(p.a + l * p.lda + i) : hA(p.a + i * p.lda + l)) * hB(p.b + l * p.ldb + j);
        INFO("product m " << p.m << " n " << p.n << " k " << p.k << " trans_a " << p.trans_a << " at " << i << ","
                          << j);
        CHECK(hC(p.c + i * p.ldc + j) == Approx(want).margin(1e-14));
      }
  }
  CHECK(gemm.flops() == flops);
  const GemmProduct& last = batch.back();  // C's last row reaches only n of its ldc elements
  View1D<double> short_c("short C", last.c + (last.m - 1) * last.ldc + last.n - 1);
  CHECK_THROWS_AS(gemm.execute(A, B, short_c), RuntimeError);  // one element short of what the products reach
}

TEST_CASE("host BLAS: a warning exactly where OpenBLAS runs Prescott kernels on a CPU with AVX2", "[blas]") {
  CHECK(blas_kernel_warning("Prescott", true, true).find("OPENBLAS_CORETYPE=SkylakeX") != std::string::npos);
  CHECK(blas_kernel_warning("Prescott", true, false).find("OPENBLAS_CORETYPE=Haswell") != std::string::npos);
  CHECK(blas_kernel_warning("Prescott", false, false).empty());  // an old CPU: Prescott kernels are right for it
  CHECK(blas_kernel_warning("Cooperlake", true, true).empty());
  CHECK(blas_kernel_warning("", true, true).empty());  // not OpenBLAS
}

TEST_CASE("host BLAS: the record names the library that serves dgemm_", "[blas]") {
  Dl_info info;
  REQUIRE(dladdr(dlsym(RTLD_DEFAULT, "dgemm_"), &info));
  REQUIRE(info.dli_fname);
  const std::string file = info.dli_fname, name = host_blas_kernels();
  INFO("dgemm_ from " << file << ", recorded as '" << name << "'");
  if (file.find("openblas") != std::string::npos) CHECK(name.rfind("OpenBLAS ", 0) == 0);
  if (file.find("blis") != std::string::npos) CHECK(name.rfind("BLIS ", 0) == 0);
  CHECK(!name.empty());
}
