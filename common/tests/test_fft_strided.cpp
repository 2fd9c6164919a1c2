// The FFT layer's strided plans (fft_descriptor.hpp) against FFTW guru plans of the same strides and distances,
// made here: the same descriptor, so the same numbers. Run on the host back end (FFTW) and, in a device build, on
// the device back end (cuFFT, hipFFT), over transposing reads and writes, non-unit input and output strides, in-place
// and out-of-place plans, real and complex kinds, and two batch dimensions that do and do not merge into one.
#include <fftw3.h>

#include <string>
#include <vector>

#include "proxylab/fft.hpp"
#include "proxylab/testing.hpp"

using proxylab::FFTBatch;
using proxylab::FFTKind;
using proxylab::FFTShape;

namespace {

FFTShape strided(FFTKind kind, int n, long long istride, long long ostride, FFTBatch inner, FFTBatch outer = {},
                 bool in_place = false) {
  FFTShape sh;
  sh.kind = kind;
  sh.n = n;
  sh.istride = istride;
  sh.ostride = ostride;
  sh.inner = inner;
  sh.outer = outer;
  sh.in_place = in_place;
  return sh;
}

// Shapes of every kind the device code paths use, each named.
std::vector<std::pair<std::string, FFTShape>> shapes() {
  const FFTKind fwd = FFTKind::c2c_forward, bwd = FFTKind::c2c_backward;
  // a 3-D (z, y, x) array of 8 x 6 x 5 whose x FFTs write the rotated layout (x, z, y): the batches (y, z) merge
  const long long nx = 8, ny = 6, nz = 5;
  return {
      {"transposing write", strided(fwd, 16, 1, 8, {8, 16, 1})},
      {"transposing read", strided(bwd, 12, 3, 1, {3, 1, 12})},
      {"non-unit strides in and out", strided(fwd, 7, 3, 2, {3, 1, 14})},
      {"in place, strided", strided(fwd, 10, 5, 5, {5, 1, 1}, {}, true)},
      {"in place, contiguous lines", strided(bwd, 9, 1, 1, {4, 9, 9}, {}, true)},
      {"rotation: batches merge", strided(fwd, int(nx), 1, nz * ny, {int(ny), nx, 1}, {int(nz), nx * ny, ny})},
      {"batches do not merge", strided(bwd, 9, 4, 1, {4, 1, 27}, {3, 36, 9})},
      {"r2c strided read", strided(FFTKind::r2c, 16, 6, 1, {6, 1, 9})},
      {"c2r strided read, padded write", strided(FFTKind::c2r, 14, 4, 1, {4, 1, 16})},
  };
}

// The shape's transform by an FFTW guru plan made here (FFTW_ESTIMATE) on host arrays of doubles (complex values
// as pairs).
void fftw_guru(const FFTShape& sh, std::vector<double>& in, std::vector<double>& out) {
  const fftw_iodim64 dim{sh.n, sh.istride, sh.ostride};
  const fftw_iodim64 batch[2] = {{sh.outer.count, sh.outer.idist, sh.outer.odist},
                                 {sh.inner.count, sh.inner.idist, sh.inner.odist}};
  double* o = sh.in_place ? in.data() : out.data();
  fftw_plan p = nullptr;
  switch (sh.kind) {
    case FFTKind::c2c_forward:
    case FFTKind::c2c_backward:
      p = fftw_plan_guru64_dft(1, &dim, 2, batch, (fftw_complex*)in.data(), (fftw_complex*)o,
                               sh.kind == FFTKind::c2c_forward ? FFTW_FORWARD : FFTW_BACKWARD, FFTW_ESTIMATE);
      break;
    case FFTKind::r2c:
      p = fftw_plan_guru64_dft_r2c(1, &dim, 2, batch, in.data(), (fftw_complex*)o, FFTW_ESTIMATE);
      break;
    case FFTKind::c2r:
      p = fftw_plan_guru64_dft_c2r(1, &dim, 2, batch, (fftw_complex*)in.data(), o, FFTW_ESTIMATE);
      break;
  }
  REQUIRE(p != nullptr);
  fftw_execute(p);
  fftw_destroy_plan(p);
  if (sh.in_place) out = in;
}

// The layer's plan of the shape on Space, from and to host arrays of doubles.
template <class Space, class In, class Out>
std::vector<double> layer(const FFTShape& sh, const std::vector<double>& in, const std::vector<double>& out_before) {
  using Mem = typename Space::memory_space;
  constexpr int in_width = std::is_same_v<In, double> ? 1 : 2, out_width = std::is_same_v<Out, double> ? 1 : 2;
  Kokkos::View<In*, Mem> i("in", in.size() / in_width);
  Kokkos::View<Out*, Mem> o("out", out_before.size() / out_width);
  auto hi = Kokkos::create_mirror_view(i);
  auto ho = Kokkos::create_mirror_view(o);
  std::copy(in.begin(), in.end(), reinterpret_cast<double*>(hi.data()));
  std::copy(out_before.begin(), out_before.end(), reinterpret_cast<double*>(ho.data()));
  Kokkos::deep_copy(i, hi);
  Kokkos::deep_copy(o, ho);
  const auto plan = proxylab::fft_plan(Space(), sh);
  if constexpr (std::is_same_v<In, Out>) {
    if (sh.in_place) {
      plan.execute(i, i);
      o = i;
    } else {
      plan.execute(i, o);
    }
  } else {
    plan.execute(i, o);
  }
  Kokkos::fence();
  Kokkos::deep_copy(ho, o);
  const double* r = reinterpret_cast<const double*>(ho.data());
  return std::vector<double>(r, r + out_before.size());
}

template <class Space>
std::vector<double> layer_of_kind(const FFTShape& sh, const std::vector<double>& in,
                                  const std::vector<double>& out_before) {
  using C = Kokkos::complex<double>;
  switch (sh.kind) {
    case FFTKind::r2c:
      return layer<Space, double, C>(sh, in, out_before);
    case FFTKind::c2r:
      return layer<Space, C, double>(sh, in, out_before);
    default:
      return layer<Space, C, C>(sh, in, out_before);
  }
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("fft: strided plans give FFTW guru plans' numbers for the same strides and distances", "[fft]",
                        proxylab::testing::HostAndDevice) {
  for (const auto& [name, sh] : shapes()) {
    INFO(name << ": " << sh.describe());
    const int in_width = sh.kind == FFTKind::r2c ? 1 : 2, out_width = sh.kind == FFTKind::c2r ? 1 : 2;
    // in place: one array, as long as the longer of the two spans
    const long long both = std::max(sh.input_span() * in_width, sh.output_span() * out_width);
    std::vector<double> in(sh.in_place ? both : sh.input_span() * in_width);
    std::vector<double> out(sh.in_place ? both : sh.output_span() * out_width, -7.0);  // untouched stays -7
    for (size_t j = 0; j < in.size(); ++j) in[j] = std::sin(0.37 * double(j)) + 0.1 * double(j % 5);
    if (sh.kind == FFTKind::c2r)  // a Hermitian input: the imaginary parts of the 0 and n/2 terms vanish
      for (int b = 0; b < sh.inner.count; ++b) {
        in[2 * b * sh.inner.idist + 1] = 0.0;
        if (sh.n % 2 == 0) in[2 * ((sh.n / 2) * sh.istride + b * sh.inner.idist) + 1] = 0.0;
      }
    const std::vector<double> got = layer_of_kind<TestType>(sh, in, sh.in_place ? in : out);
    std::vector<double> want_in = in;
    fftw_guru(sh, want_in, out);
    REQUIRE(got.size() == out.size());
    double scale = 0.0;
    for (double v : out) scale = std::max(scale, std::fabs(v));
    int wrong = 0;
    for (size_t j = 0; j < out.size(); ++j) wrong += !(std::fabs(got[j] - out[j]) <= 1e-13 * sh.n * scale);
    CHECK(wrong == 0);
  }
}

TEST_CASE("fft: batches merge when the outer batch continues the inner one in both arrays", "[fft]") {
  CHECK(strided(FFTKind::c2c_forward, 8, 1, 30, {6, 8, 1}, {5, 48, 6}).batches_merge());
  CHECK_FALSE(strided(FFTKind::c2c_forward, 9, 4, 1, {4, 1, 27}, {3, 36, 9}).batches_merge());
  CHECK_FALSE(strided(FFTKind::c2c_forward, 9, 4, 1, {4, 1, 27}, {3, 5, 108}).batches_merge());  // input breaks it
  CHECK(strided(FFTKind::c2c_forward, 9, 4, 1, {1, 1, 27}, {3, 36, 9}).batches_merge());         // one is a single
}
