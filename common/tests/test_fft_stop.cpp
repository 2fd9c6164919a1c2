// A stop cuts FFTW's planner short (proxylab/fftw_planning.hpp): SIGTERM while FFTW_PATIENT plans a 256^3
// transform (minutes of planning; the ctest timeout ends it without the cut) makes plan_fftw return a working plan
// of the same transform, and every plan asked for afterwards is an FFTW_ESTIMATE one, made at once. Its own test
// binary: the stop flag is never reset.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <thread>

#include "proxylab/fftw_planning.hpp"
#include "proxylab/stop.hpp"
#include "proxylab/testing.hpp"

namespace {

constexpr int n = 256;

// max |a - b| / max |b| over n^3 complex values.
double relative_difference(const fftw_complex* a, const fftw_complex* b) {
  double diff = 0, scale = 0;
  for (size_t i = 0; i < size_t(n) * n * n; ++i)
    for (int c = 0; c < 2; ++c) {
      diff = std::max(diff, std::fabs(a[i][c] - b[i][c]));
      scale = std::max(scale, std::fabs(b[i][c]));
    }
  return diff / scale;
}

}  // namespace

TEST_CASE("fftw planning: a stop cuts FFTW_PATIENT planning short", "[fft][stop]") {
  proxylab::install_stop_handlers();
  const size_t points = size_t(n) * n * n;
  fftw_complex* in = fftw_alloc_complex(points);
  fftw_complex* out = fftw_alloc_complex(points);
  fftw_complex* reference = fftw_alloc_complex(points);
  auto plan_3d = [&](fftw_complex* to) {
    return [=](unsigned flags) { return fftw_plan_dft_3d(n, n, n, in, to, FFTW_FORWARD, flags); };
  };

  // The signal comes from another thread while the main thread is inside FFTW's planner, as from the front end.
  std::thread signaller([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    std::raise(SIGTERM);
  });
  bool cut_short = false;
  fftw_plan plan = proxylab::plan_fftw(FFTW_PATIENT, plan_3d(out), &cut_short);
  signaller.join();
  REQUIRE(proxylab::stop_pending());
  REQUIRE(plan != nullptr);
  CHECK(cut_short);

  // The plan it returns is a working one: the same transform as a plain FFTW_ESTIMATE plan.
  for (size_t i = 0; i < points; ++i) {
    in[i][0] = std::sin(0.001 * double(i));
    in[i][1] = std::cos(0.003 * double(i));
  }
  fftw_plan estimate = fftw_plan_dft_3d(n, n, n, in, reference, FFTW_FORWARD, FFTW_ESTIMATE);
  fftw_execute(estimate);
  fftw_execute(plan);
  CHECK(relative_difference(out, reference) < 1e-12);
  fftw_destroy_plan(plan);

  // After the stop, planning is FFTW_ESTIMATE from the start; an FFTW_ESTIMATE request is not one cut short.
  plan = proxylab::plan_fftw(FFTW_MEASURE, plan_3d(out), &cut_short);
  CHECK((plan != nullptr && cut_short));
  fftw_destroy_plan(plan);
  plan = proxylab::plan_fftw(FFTW_ESTIMATE, plan_3d(out), &cut_short);
  CHECK((plan != nullptr && !cut_short));
  fftw_destroy_plan(plan);
  fftw_destroy_plan(estimate);
  fftw_free(in);
  fftw_free(out);
  fftw_free(reference);
}
