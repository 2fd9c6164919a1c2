// FFTW plans (see fft.hpp). Each cached entry holds one plan per thread slice of the batch, so a
// batched transform runs in parallel with plain, thread-safe fftw_execute_* calls.
#include "proxylab/fft.hpp"

#include <fftw3.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

#include "proxylab/errors.hpp"

namespace proxylab {
namespace {

struct Slice {
  fftw_plan plan = nullptr;
  int first = 0, count = 0;
};

class FFTWPlan final : public FFTPlan {
 public:
  FFTWPlan(FFTKind k, int n, int howmany, int istride, int idist, int ostride, int odist, bool in_place, FFTPlanning p)
      : FFTPlan(k, n, howmany), idist_(idist), odist_(odist) {
    if (n < 1 || howmany < 1) throw InputError("FFT of length " + std::to_string(n) + " x " + std::to_string(howmany) + ": both must be >= 1");
    const bool real_in = k == FFTKind::r2c, real_out = k == FFTKind::c2r;
    const int nc = n / 2 + 1;
    // Elements each array spans for one transform slice (used to size planning scratch).
    const long in_len = (long(n_in(k, n, nc)) - 1) * istride + 1, out_len = (long(n_out(k, n, nc)) - 1) * ostride + 1;
    const int threads = std::max(1, std::min(howmany, Kokkos::DefaultHostExecutionSpace().concurrency()));
    const unsigned flags = (p == FFTPlanning::measure ? FFTW_MEASURE : FFTW_ESTIMATE);
    for (int t = 0; t < threads; ++t) {
      Slice s;
      s.first = int(long(howmany) * t / threads);
      s.count = int(long(howmany) * (t + 1) / threads) - s.first;
      if (s.count == 0) continue;
      // Plan on scratch arrays with the caller's strides (FFTW_MEASURE overwrites its arrays).
      const long in_total = (long(s.count) - 1) * idist + in_len, out_total = (long(s.count) - 1) * odist + out_len;
      const long bytes_in = in_total * (real_in ? sizeof(double) : sizeof(fftw_complex));
      const long bytes_out = out_total * (real_out ? sizeof(double) : sizeof(fftw_complex));
      void* a = fftw_malloc(std::max(bytes_in, bytes_out));
      void* b = in_place ? a : fftw_malloc(bytes_out);
      int len[1] = {n};
      switch (k) {
        case FFTKind::c2c_forward:
        case FFTKind::c2c_backward:
          s.plan = fftw_plan_many_dft(1, len, s.count, (fftw_complex*)a, nullptr, istride, idist, (fftw_complex*)b,
                                      nullptr, ostride, odist, k == FFTKind::c2c_forward ? FFTW_FORWARD : FFTW_BACKWARD,
                                      flags);
          break;
        case FFTKind::r2c:
          s.plan = fftw_plan_many_dft_r2c(1, len, s.count, (double*)a, nullptr, istride, idist, (fftw_complex*)b,
                                          nullptr, ostride, odist, flags);
          break;
        case FFTKind::c2r:
          s.plan = fftw_plan_many_dft_c2r(1, len, s.count, (fftw_complex*)a, nullptr, istride, idist, (double*)b,
                                          nullptr, ostride, odist, flags | FFTW_DESTROY_INPUT);
          break;
      }
      fftw_free(a);
      if (!in_place) fftw_free(b);
      if (!s.plan) throw RuntimeError("FFTW could not plan a transform of length " + std::to_string(n));
      slices_.push_back(s);
    }
  }
  ~FFTWPlan() override {
    for (auto& s : slices_) fftw_destroy_plan(s.plan);
  }

  void execute(const void* in, void* out) const override {
    const size_t in_elem = kind_ == FFTKind::r2c ? sizeof(double) : sizeof(fftw_complex);
    const size_t out_elem = kind_ == FFTKind::c2r ? sizeof(double) : sizeof(fftw_complex);
    // FFTW's new-array execute needs the planning alignment; fftw_malloc and Kokkos allocations agree.
    auto run = [&](int t) {
      const Slice& s = slices_[t];
      char* i = (char*)in + size_t(s.first) * idist_ * in_elem;
      char* o = (char*)out + size_t(s.first) * odist_ * out_elem;
      switch (kind_) {
        case FFTKind::c2c_forward:
        case FFTKind::c2c_backward: fftw_execute_dft(s.plan, (fftw_complex*)i, (fftw_complex*)o); break;
        case FFTKind::r2c: fftw_execute_dft_r2c(s.plan, (double*)i, (fftw_complex*)o); break;
        case FFTKind::c2r: fftw_execute_dft_c2r(s.plan, (fftw_complex*)i, (double*)o); break;
      }
    };
    const int ns = static_cast<int>(slices_.size());
    if (ns == 1) {
      run(0);
      return;
    }
    Kokkos::parallel_for("proxylab::fft", Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, ns),
                         [&](int t) { run(t); });
    Kokkos::DefaultHostExecutionSpace().fence();
  }

 private:
  static int n_in(FFTKind k, int n, int nc) { return k == FFTKind::c2r ? nc : n; }
  static int n_out(FFTKind k, int n, int nc) { return k == FFTKind::r2c ? nc : n; }
  int idist_, odist_;
  std::vector<Slice> slices_;
};

using Key = std::tuple<int, int, int, int, int, int, int, bool, int, int>;
std::map<Key, std::unique_ptr<FFTWPlan>>& cache() {
  static std::map<Key, std::unique_ptr<FFTWPlan>> c;
  return c;
}

}  // namespace

double FFTPlan::flops() const {
  const double per = 5.0 * n_ * std::log2(double(n_));
  return (kind_ == FFTKind::r2c || kind_ == FFTKind::c2r ? 0.5 : 1.0) * per * howmany_;
}

const FFTPlan& fft_plan(FFTKind kind, int n, int howmany, int istride, int idist, int ostride, int odist, bool in_place,
                        FFTPlanning planning) {
  const int threads = Kokkos::DefaultHostExecutionSpace().concurrency();
  Key key{int(kind), n, howmany, istride, idist, ostride, odist, in_place, int(planning), threads};
  auto& c = cache();
  auto it = c.find(key);
  if (it == c.end())
    it = c.emplace(key, std::make_unique<FFTWPlan>(kind, n, howmany, istride, idist, ostride, odist, in_place, planning))
             .first;
  return *it->second;
}

void fft_clear_plans() { cache().clear(); }

}  // namespace proxylab
