// The FFT layer's host library (proxylab::FFTPlan<HostExec>: FFTW's guru plans, the batch split over the host
// threads) against kokkos-fft's host back end (KokkosFFT::Plan, FFTW beneath it) on the shapes the proxies run:
// batches of contiguous lines, c2c (fft3d's local stages) and r2c + c2r (pstswm's rows). Interleaved, median of
// the repeats; each timing is one execute on the same views. Prints a Markdown table.
//   fft-layer-bench [repeats]
#include <KokkosFFT.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "proxylab/fft.hpp"

namespace {

using proxylab::FFTKind;
using proxylab::FFTShape;
using proxylab::HostExec;
using Complex = Kokkos::complex<double>;
template <class T>
using Lines = Kokkos::View<T**, Kokkos::LayoutRight, Kokkos::HostSpace>;

double seconds(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

// One row: the same transform through both, interleaved `repeats` times after one untimed call each.
void compare(const std::string& what, double flops, const std::function<void()>& ours,
             const std::function<void()>& theirs, int repeats) {
  ours(), theirs();
  std::vector<double> a, b;
  for (int r = 0; r < repeats; ++r) a.push_back(seconds(ours)), b.push_back(seconds(theirs));
  const double ta = median(a), tb = median(b);
  std::printf("| %s | %.3f | %.3f | %.2f | %.2f | %.2f |\n", what.c_str(), ta * 1e3, tb * 1e3, flops / ta * 1e-9,
              flops / tb * 1e-9, tb / ta);
  std::fflush(stdout);
}

void c2c(int n, int howmany, int repeats) {
  Lines<Complex> in("in", howmany, n), out("out", howmany, n);
  Kokkos::parallel_for("fill", Kokkos::RangePolicy<HostExec>(0, howmany), [=](int b) {
    for (int j = 0; j < n; ++j) in(b, j) = Complex(std::sin(0.1 * j + b), std::cos(0.3 * j - b));
  });
  const auto ours = proxylab::fft_plan(HostExec(), FFTShape::lines(FFTKind::c2c_forward, n, howmany));
  Kokkos::View<Complex*, Kokkos::HostSpace> in1(in.data(), in.size()), out1(out.data(), out.size());
  KokkosFFT::Plan<HostExec, Lines<Complex>, Lines<Complex>, 1> theirs(HostExec(), in, out,
                                                                      KokkosFFT::Direction::forward, -1);
  compare(
      "c2c n=" + std::to_string(n) + " x " + std::to_string(howmany) + " lines", ours.flops(),
      [&] { ours.execute(in1, out1); }, [&] { KokkosFFT::execute(theirs, in, out, KokkosFFT::Normalization::none); },
      repeats);
}

void r2c_c2r(int n, int howmany, int repeats) {
  const int nh = n / 2 + 1;
  Lines<double> grid("grid", howmany, n);
  Lines<Complex> four("four", howmany, nh);
  Kokkos::parallel_for("fill", Kokkos::RangePolicy<HostExec>(0, howmany), [=](int b) {
    for (int j = 0; j < n; ++j) grid(b, j) = std::sin(0.1 * j + b);
  });
  const auto fwd = proxylab::fft_plan(HostExec(), FFTShape::lines(FFTKind::r2c, n, howmany));
  const auto inv = proxylab::fft_plan(HostExec(), FFTShape::lines(FFTKind::c2r, n, howmany));
  Kokkos::View<double*, Kokkos::HostSpace> grid1(grid.data(), grid.size());
  Kokkos::View<Complex*, Kokkos::HostSpace> four1(four.data(), four.size());
  KokkosFFT::Plan<HostExec, Lines<double>, Lines<Complex>, 1> kf(HostExec(), grid, four, KokkosFFT::Direction::forward,
                                                                 -1);
  KokkosFFT::Plan<HostExec, Lines<Complex>, Lines<double>, 1> ki(HostExec(), four, grid, KokkosFFT::Direction::backward,
                                                                 -1);
  compare(
      "r2c + c2r n=" + std::to_string(n) + " x " + std::to_string(howmany) + " rows", fwd.flops() + inv.flops(),
      [&] { fwd.execute(grid1, four1), inv.execute(four1, grid1); },
      [&] {
        KokkosFFT::execute(kf, grid, four, KokkosFFT::Normalization::none);
        KokkosFFT::execute(ki, four, grid, KokkosFFT::Normalization::none);
      },
      repeats);
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 7;
  std::printf("Host threads: %d (%s); median of %d interleaved calls each\n\n", HostExec().concurrency(),
              HostExec::name(), repeats);
  std::printf(
      "| transform | proxylab ms | kokkos-fft ms | proxylab GFLOP/s | kokkos-fft GFLOP/s | proxylab speed-up |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (int n : {64, 96, 128, 192}) c2c(n, n * n, repeats);  // an x stage of an n^3 grid at one rank
  for (int n : {128, 256}) c2c(n, 1024, repeats);           // fewer, longer lines
  // pstswm: T42 (128 longitudes), T85 (256), T170 (512) with 5 fields x 18 levels x latitudes rows
  for (auto [nlon, nlat] : {std::pair{128, 64}, {256, 128}, {512, 256}}) r2c_c2r(nlon, 5 * 18 * nlat, repeats);
  proxylab::fft_clear_plans();  // before Kokkos' finalize hook lets kokkos-fft clean FFTW up
  return 0;
}
