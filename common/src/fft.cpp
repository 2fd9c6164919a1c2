// FFTW plans (see fft.hpp). Each cached entry holds one plan per thread slice of the batch, so a
// batched transform runs in parallel with plain, thread-safe fftw_execute_* calls.
//
// Alignment: FFTW's new-array execute requires arrays with the alignment of the planning arrays
// (SIMD codelets assume it). Slices of a batch, or caller pointers offset into an array (a plane of
// a 3-D field), can be less aligned than the fftw_malloc scratch the plans are made on, so every
// slice also gets an FFTW_UNALIGNED plan, made on first need (from the host thread, before the
// parallel region) and used whenever fftw_alignment_of() says the arrays differ from the plan's.
#include "proxylab/fft.hpp"

#include <fftw3.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "proxylab/errors.hpp"

namespace proxylab {
namespace {

struct Slice {
  fftw_plan plan = nullptr, unaligned = nullptr;
  int first = 0, count = 0;
};

class FFTWPlan final : public FFTPlan {
 public:
  FFTWPlan(FFTKind k, int n, int howmany, int istride, int idist, int ostride, int odist, bool in_place, FFTPlanning p)
      : FFTPlan(k, n, howmany),
        istride_(istride),
        idist_(idist),
        ostride_(ostride),
        odist_(odist),
        in_place_(in_place),
        flags_(p == FFTPlanning::measure ? FFTW_MEASURE : FFTW_ESTIMATE) {
    if (n < 1 || howmany < 1)
      throw InputError("FFT of length " + std::to_string(n) + " x " + std::to_string(howmany) + ": both must be >= 1");
    const int threads = std::max(1, std::min(howmany, Kokkos::DefaultHostExecutionSpace().concurrency()));
    for (int t = 0; t < threads; ++t) {
      Slice s;
      s.first = int(long(howmany) * t / threads);
      s.count = int(long(howmany) * (t + 1) / threads) - s.first;
      if (s.count == 0) continue;
      s.plan = make(s.count, flags_);
      slices_.push_back(s);
    }
  }
  ~FFTWPlan() override {
    for (auto& s : slices_) {
      fftw_destroy_plan(s.plan);
      if (s.unaligned) fftw_destroy_plan(s.unaligned);
    }
  }

  void execute(const void* in, void* out) const override {
    const int ns = static_cast<int>(slices_.size());
    std::vector<char> use_unaligned(ns, 0);
    for (int t = 0; t < ns; ++t) {
      Slice& s = slices_[t];
      if (fftw_alignment_of((double*)in_ptr(in, s)) == 0 && fftw_alignment_of((double*)out_ptr(out, s)) == 0) continue;
      if (!s.unaligned) s.unaligned = make(s.count, flags_ | FFTW_UNALIGNED);
      use_unaligned[t] = 1;
    }
    auto run = [&](int t) {
      const Slice& s = slices_[t];
      const fftw_plan plan = use_unaligned[t] ? s.unaligned : s.plan;
      void* i = in_ptr(in, s);
      void* o = out_ptr(out, s);
      switch (kind_) {
        case FFTKind::c2c_forward:
        case FFTKind::c2c_backward: fftw_execute_dft(plan, (fftw_complex*)i, (fftw_complex*)o); break;
        case FFTKind::r2c: fftw_execute_dft_r2c(plan, (double*)i, (fftw_complex*)o); break;
        case FFTKind::c2r: fftw_execute_dft_c2r(plan, (fftw_complex*)i, (double*)o); break;
      }
    };
    if (ns == 1) {
      run(0);
      return;
    }
    Kokkos::parallel_for("proxylab::fft", Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, ns),
                         [&](int t) { run(t); });
    Kokkos::DefaultHostExecutionSpace().fence();
  }

 private:
  size_t in_elem() const { return kind_ == FFTKind::r2c ? sizeof(double) : sizeof(fftw_complex); }
  size_t out_elem() const { return kind_ == FFTKind::c2r ? sizeof(double) : sizeof(fftw_complex); }
  void* in_ptr(const void* in, const Slice& s) const { return (char*)in + size_t(s.first) * idist_ * in_elem(); }
  void* out_ptr(void* out, const Slice& s) const { return (char*)out + size_t(s.first) * odist_ * out_elem(); }

  // One FFTW plan for `count` transforms, made on scratch arrays with the caller's strides
  // (FFTW_MEASURE overwrites its arrays).
  fftw_plan make(int count, unsigned flags) const {
    const int n = n_, nc = n / 2 + 1;
    const long in_len = (long(kind_ == FFTKind::c2r ? nc : n) - 1) * istride_ + 1;
    const long out_len = (long(kind_ == FFTKind::r2c ? nc : n) - 1) * ostride_ + 1;
    const long in_total = (long(count) - 1) * idist_ + in_len, out_total = (long(count) - 1) * odist_ + out_len;
    const long bytes_in = in_total * in_elem(), bytes_out = out_total * out_elem();
    void* a = fftw_malloc(std::max(bytes_in, bytes_out));
    void* b = in_place_ ? a : fftw_malloc(bytes_out);
    int len[1] = {n};
    fftw_plan plan = nullptr;
    switch (kind_) {
      case FFTKind::c2c_forward:
      case FFTKind::c2c_backward:
        plan = fftw_plan_many_dft(1, len, count, (fftw_complex*)a, nullptr, istride_, idist_, (fftw_complex*)b, nullptr,
                                  ostride_, odist_, kind_ == FFTKind::c2c_forward ? FFTW_FORWARD : FFTW_BACKWARD,
                                  flags);
        break;
      case FFTKind::r2c:
        plan = fftw_plan_many_dft_r2c(1, len, count, (double*)a, nullptr, istride_, idist_, (fftw_complex*)b, nullptr,
                                      ostride_, odist_, flags);
        break;
      case FFTKind::c2r:
        plan = fftw_plan_many_dft_c2r(1, len, count, (fftw_complex*)a, nullptr, istride_, idist_, (double*)b, nullptr,
                                      ostride_, odist_, flags | FFTW_DESTROY_INPUT);
        break;
    }
    fftw_free(a);
    if (!in_place_) fftw_free(b);
    if (!plan) throw RuntimeError("FFTW could not plan a transform of length " + std::to_string(n));
    return plan;
  }

  int istride_, idist_, ostride_, odist_;
  bool in_place_;
  unsigned flags_;
  mutable std::vector<Slice> slices_;  // unaligned plans are added on first need
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
