// The FFT layer on the host (common/fft.hpp, FFTW): c2c against a direct DFT, strided batches, r2c/c2r round
// trips, in-place plans, the plan cache, thread slicing of the batch (same bits as one thread), and views that do
// not fit a shape.
#include <cmath>
#include <complex>
#include <vector>

#include "proxylab/errors.hpp"
#include "proxylab/fft.hpp"
#include "proxylab/testing.hpp"

using proxylab::FFTKind;
using proxylab::FFTShape;
using proxylab::HostExec;
using cplx = std::complex<double>;

namespace {

// Host vectors seen as the Views a plan takes.
using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
using ComplexView = Kokkos::View<Kokkos::complex<double>*, Kokkos::HostSpace, Unmanaged>;
using RealView = Kokkos::View<double*, Kokkos::HostSpace, Unmanaged>;
ComplexView view(std::vector<cplx>& v, size_t first = 0) {
  return ComplexView(reinterpret_cast<Kokkos::complex<double>*>(v.data() + first), v.size() - first);
}
RealView view(std::vector<double>& v) { return RealView(v.data(), v.size()); }

// The shape of FFTW's advanced interface: howmany transforms of length n, stride and distance per array.
FFTShape shape(FFTKind kind, int n, int howmany, int istride, int idist, int ostride, int odist, bool in_place = false,
               proxylab::FFTPlanning planning = proxylab::FFTPlanning::estimate) {
  FFTShape sh;
  sh.kind = kind;
  sh.n = n;
  sh.istride = istride;
  sh.ostride = ostride;
  sh.inner = {howmany, idist, odist};
  sh.in_place = in_place;
  sh.planning = planning;
  return sh;
}
auto plan(const FFTShape& sh) { return proxylab::fft_plan(HostExec(), sh); }

// O(n^2) DFT with FFTW's sign convention (forward: exp(-2 pi i jk/n)).
std::vector<cplx> direct_dft(const std::vector<cplx>& x, int sign) {
  const int n = int(x.size());
  std::vector<cplx> y(n);
  for (int k = 0; k < n; ++k) {
    cplx s = 0;
    for (int j = 0; j < n; ++j) s += x[j] * std::polar(1.0, sign * 2 * M_PI * double(long(j) * k % n) / n);
    y[k] = s;
  }
  return y;
}

cplx test_value(int j, int b) { return {std::sin(0.37 * j + b), std::cos(1.3 * j - 0.5 * b)}; }

}  // namespace

TEST_CASE("fft: batched c2c equals a direct DFT for power-of-two and odd lengths", "[fft]") {
  for (int n : {1, 2, 8, 12, 15, 17, 100}) {
    const int howmany = 5;
    std::vector<cplx> in(n * howmany), out(n * howmany);
    for (int b = 0; b < howmany; ++b)
      for (int j = 0; j < n; ++j) in[b * n + j] = test_value(j, b);
    for (int sign : {-1, +1}) {
      auto kind = sign < 0 ? FFTKind::c2c_forward : FFTKind::c2c_backward;
      const auto p = plan(FFTShape::lines(kind, n, howmany));
      CHECK(p.n() == n);
      CHECK(p.howmany() == howmany);
      p.execute(view(in), view(out));
      for (int b = 0; b < howmany; ++b) {
        std::vector<cplx> x(in.begin() + b * n, in.begin() + (b + 1) * n);
        auto y = direct_dft(x, sign);
        for (int k = 0; k < n; ++k) CHECK(std::abs(out[b * n + k] - y[k]) <= 1e-12 * n * 4);
      }
    }
  }
}

TEST_CASE("fft: strided batch (stride = howmany, dist = 1) matches contiguous transforms", "[fft]") {
  const int n = 24, howmany = 7;
  std::vector<cplx> contig(n * howmany), strided(n * howmany), out_c(n * howmany), out_s(n * howmany);
  for (int b = 0; b < howmany; ++b)
    for (int j = 0; j < n; ++j) contig[b * n + j] = strided[j * howmany + b] = test_value(j, b);
  plan(FFTShape::lines(FFTKind::c2c_forward, n, howmany)).execute(view(contig), view(out_c));
  plan(shape(FFTKind::c2c_forward, n, howmany, howmany, 1, howmany, 1)).execute(view(strided), view(out_s));
  for (int b = 0; b < howmany; ++b)
    for (int k = 0; k < n; ++k) CHECK(out_s[k * howmany + b] == out_c[b * n + k]);  // same FFTW codelets: same bits
}

TEST_CASE("fft: a batched 2-D transform that also transposes equals the direct 2-D DFT; r2c stays 1-D", "[fft]") {
  // in: batch b of (y, x) planes, x fastest; out: the same planes transposed (y fastest), batch slowest in both
  const int nx = 6, ny = 5, batch = 3, plane = nx * ny;
  std::vector<cplx> in(plane * batch), out(plane * batch);
  for (int b = 0; b < batch; ++b)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) in[b * plane + y * nx + x] = test_value(y * nx + x, b);
  FFTShape sh = shape(FFTKind::c2c_forward, nx, batch, 1, plane, ny, plane);
  sh.dim2 = {ny, nx, 1};
  CHECK(sh.rank() == 2);
  CHECK(sh.points() == plane);
  plan(sh).execute(view(in), view(out));
  for (int b = 0; b < batch; ++b)
    for (int ky = 0; ky < ny; ++ky)
      for (int kx = 0; kx < nx; ++kx) {
        cplx s = 0;  // the 2-D DFT, FFTW's sign
        for (int y = 0; y < ny; ++y)
          for (int x = 0; x < nx; ++x)
            s += in[b * plane + y * nx + x] * std::polar(1.0, -2 * M_PI * (double(x * kx) / nx + double(y * ky) / ny));
        CHECK(std::abs(out[b * plane + kx * ny + ky] - s) <= 1e-12 * plane);
      }
  FFTShape r2c = shape(FFTKind::r2c, nx, 1, 1, 0, 1, 0);
  r2c.dim2 = {ny, nx, nx / 2 + 1};
  CHECK_THROWS_AS(plan(r2c), proxylab::RuntimeError);
}

TEST_CASE("fft: in-place forward + backward returns n times the input", "[fft]") {
  for (int n : {16, 18, 35}) {
    const int howmany = 3;
    std::vector<cplx> x(n * howmany), orig;
    for (int i = 0; i < n * howmany; ++i) x[i] = test_value(i % n, i / n);
    orig = x;
    plan(FFTShape::lines(FFTKind::c2c_forward, n, howmany, true)).execute(view(x), view(x));
    plan(FFTShape::lines(FFTKind::c2c_backward, n, howmany, true)).execute(view(x), view(x));
    for (int i = 0; i < n * howmany; ++i) CHECK(std::abs(x[i] / double(n) - orig[i]) <= 1e-14 * 10);
  }
}

TEST_CASE("fft: r2c / c2r round trip and Hermitian output", "[fft]") {
  for (int n : {16, 15}) {
    const int howmany = 4, nc = n / 2 + 1;
    std::vector<double> r(n * howmany), back(n * howmany);
    for (int i = 0; i < n * howmany; ++i) r[i] = std::sin(0.1 * i) + 0.01 * (i % 7);
    std::vector<cplx> c(nc * howmany);
    plan(FFTShape::lines(FFTKind::r2c, n, howmany)).execute(view(r), view(c));
    // Bin 0 of a real signal is real and equals the sum.
    double sum0 = 0;
    for (int j = 0; j < n; ++j) sum0 += r[j];
    CHECK(std::abs(c[0].imag()) <= 1e-12);
    CHECK(std::abs(c[0].real() - sum0) <= 1e-12 * n);
    plan(FFTShape::lines(FFTKind::c2r, n, howmany)).execute(view(c), view(back));
    for (int i = 0; i < n * howmany; ++i) CHECK(std::abs(back[i] / n - r[i]) <= 1e-14 * 10);
    CHECK(plan(shape(FFTKind::r2c, n, howmany, 1, n, 1, nc)).flops() ==
          Approx(0.5 * 5.0 * n * std::log2(double(n)) * howmany));
  }
}

TEST_CASE("fft: plans are cached by shape; measure and patient planning give the same transform", "[fft]") {
  const auto& a = proxylab::detail::fftw_backend(shape(FFTKind::c2c_forward, 32, 4, 1, 32, 1, 32));
  const auto& b = proxylab::detail::fftw_backend(FFTShape::lines(FFTKind::c2c_forward, 32, 4));
  CHECK(&a == &b);
  std::vector<cplx> in(128), o1(128), o2(128);
  for (int i = 0; i < 128; ++i) in[i] = test_value(i % 32, i / 32);
  plan(FFTShape::lines(FFTKind::c2c_forward, 32, 4)).execute(view(in), view(o1));
  for (const auto planning : {proxylab::FFTPlanning::measure, proxylab::FFTPlanning::patient}) {
    INFO(proxylab::to_string(planning));
    CHECK(proxylab::planning_times(planning));
    const auto timed = shape(FFTKind::c2c_forward, 32, 4, 1, 32, 1, 32, false, planning);
    CHECK(&proxylab::detail::fftw_backend(timed) != &a);
    plan(timed).execute(view(in), view(o2));
    for (int i = 0; i < 128; ++i) CHECK(std::abs(o1[i] - o2[i]) <= 1e-12);
  }
  CHECK_FALSE(proxylab::planning_times(proxylab::FFTPlanning::estimate));
  proxylab::fft_clear_plans();
}

TEST_CASE("fft: impossible sizes are input errors", "[fft]") {
  CHECK_THROWS_AS(plan(shape(FFTKind::c2c_forward, 0, 1, 1, 1, 1, 1)), proxylab::InputError);
  CHECK_THROWS_AS(plan(shape(FFTKind::c2c_forward, 8, 0, 1, 8, 1, 8)), proxylab::InputError);
}

TEST_CASE("fft: a view smaller than the shape, or of the wrong element type, is refused before FFTW runs", "[fft]") {
  const int n = 16, howmany = 4;
  std::vector<cplx> full(n * howmany), short_(n * howmany - 1);
  std::vector<double> real(n * howmany);
  const auto p = plan(FFTShape::lines(FFTKind::c2c_forward, n, howmany));
  CHECK_NOTHROW(p.execute(view(full), view(full)));
  CHECK_THROWS_WITH(p.execute(view(full), view(short_)),
                    Catch::Contains("the output View holds 63 complex values; it needs 64 contiguous complex values"));
  CHECK_THROWS_WITH(p.execute(view(short_), view(full)), Catch::Contains("the input View holds 63"));
  CHECK_THROWS_WITH(plan(FFTShape::lines(FFTKind::r2c, n, howmany)).execute(view(full), view(full)),
                    Catch::Contains("the input View holds 64 complex values; it needs 64 contiguous real values"));
  // strided: the last line starts (howmany - 1) elements in and runs (n - 1) * howmany further
  const auto strided = plan(shape(FFTKind::c2c_forward, n, howmany, howmany, 1, howmany, 1));
  CHECK(strided.shape().input_span() == (n - 1) * howmany + howmany);
  CHECK_THROWS_AS(strided.execute(view(full), view(short_)), proxylab::RuntimeError);
}

TEST_CASE("fft: arrays offset from the planning alignment give the same transform", "[fft]") {
  // A plane of a 3-D field, or a thread's slice of a batch, can start 16 bytes past a SIMD boundary
  // (matters for FFTW builds with AVX, whose alignment is 32 bytes; with SSE2 only, 16 is aligned).
  const int n = 64, howmany = 6;
  std::vector<cplx> buf(n * howmany + 1), out_a(n * howmany), out_u(n * howmany + 1);
  for (int i = 0; i < n * howmany; ++i) buf[i + 1] = test_value(i % n, i / n);
  std::vector<cplx> aligned(buf.begin() + 1, buf.end());
  const auto p = plan(FFTShape::lines(FFTKind::c2c_forward, n, howmany));
  p.execute(view(aligned), view(out_a));
  p.execute(view(buf, 1), view(out_u, 1));
  for (int i = 0; i < n * howmany; ++i) CHECK(std::abs(out_u[i + 1] - out_a[i]) <= 1e-12);
}

TEST_CASE("fft: the default execution space's plans agree with FFTW on the host (on a device: the device library)",
          "[fft]") {
  // On host back ends both are FFTW (the same plan); with a device back end this compares the device library
  // (cuFFT on CUDA) with FFTW, each line to round-off.
  using proxylab::ExecSpace;
  for (int n : {16, 35, 128}) {
    const int howmany = 6, nc = n / 2 + 1;
    std::vector<cplx> in(n * howmany), host(n * howmany), host_c(nc * howmany);
    std::vector<double> real(n * howmany), host_r(n * howmany);
    for (int i = 0; i < n * howmany; ++i) {
      in[i] = test_value(i % n, i / n);
      real[i] = std::sin(0.3 * i) + 0.1 * (i % 5);
    }
    proxylab::View1D<Kokkos::complex<double>> d_in("in", n * howmany), d_out("out", n * howmany),
        d_c("c", nc * howmany);
    proxylab::View1D<double> d_real("real", n * howmany), d_back("back", n * howmany);
    Kokkos::deep_copy(d_in, view(in));
    Kokkos::deep_copy(d_real, view(real));
    for (FFTKind kind : {FFTKind::c2c_forward, FFTKind::c2c_backward}) {
      plan(FFTShape::lines(kind, n, howmany)).execute(view(in), view(host));
      proxylab::fft_plan(ExecSpace(), FFTShape::lines(kind, n, howmany)).execute(d_in, d_out);
      const auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d_out);
      for (int i = 0; i < n * howmany; ++i) CHECK(std::abs(cplx(got(i).real(), got(i).imag()) - host[i]) <= 1e-13 * n);
    }
    plan(FFTShape::lines(FFTKind::r2c, n, howmany)).execute(view(real), view(host_c));
    proxylab::fft_plan(ExecSpace(), FFTShape::lines(FFTKind::r2c, n, howmany)).execute(d_real, d_c);
    const auto got_c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d_c);
    for (int i = 0; i < nc * howmany; ++i)
      CHECK(std::abs(cplx(got_c(i).real(), got_c(i).imag()) - host_c[i]) <= 1e-13 * n);
    proxylab::fft_plan(ExecSpace(), FFTShape::lines(FFTKind::c2r, n, howmany)).execute(d_c, d_back);
    const auto back = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d_back);
    for (int i = 0; i < n * howmany; ++i) CHECK(std::abs(back(i) / n - real[i]) <= 1e-14 * 10);
    // in place, as the device code paths run their stages
    proxylab::fft_plan(ExecSpace(), FFTShape::lines(FFTKind::c2c_forward, n, howmany, true)).execute(d_in, d_in);
    const auto inplace = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d_in);
    plan(FFTShape::lines(FFTKind::c2c_forward, n, howmany)).execute(view(in), view(host));
    for (int i = 0; i < n * howmany; ++i)
      CHECK(std::abs(cplx(inplace(i).real(), inplace(i).imag()) - host[i]) <= 1e-13 * n);
  }
}
