// The FFT layer's host back end (see fft_descriptor.hpp): FFTW guru plans. Each cached entry holds one plan per
// thread slice of the batch, so a batched transform runs in parallel with plain, thread-safe fftw_execute_* calls.
//
// Alignment: FFTW's new-array execute requires arrays with the alignment of the planning arrays
// (SIMD codelets assume it). Slices of a batch, or caller pointers offset into an array (a plane of
// a 3-D field), can be less aligned than the fftw_malloc scratch the plans are made on, so every
// slice also gets an FFTW_UNALIGNED plan, made on first need (from the host thread, before the
// parallel region) and used whenever fftw_alignment_of() says the arrays differ from the plan's.
#include <fftw3.h>

#include <Kokkos_Core.hpp>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

#include "proxylab/errors.hpp"
#include "proxylab/fft_descriptor.hpp"
#include "proxylab/fftw_planning.hpp"
#include "proxylab/layout.hpp"

namespace proxylab {
namespace {

struct Slice {
  fftw_plan plan = nullptr, unaligned = nullptr;
  int first = 0, count = 0;
};

class FFTWPlan final : public detail::FFTBackend {
 public:
  explicit FFTWPlan(const FFTShape& shape)
      : shape_(shape), kind_(shape.kind), flags_(fftw_planner_flag(shape.planning)) {
    // Threads take slices of the outer batch dimension when there is one, else of the inner one.
    const int sliced = sliced_count();
    const int threads = shape.threaded ? std::max(1, std::min(sliced, HostExec().concurrency())) : 1;
    for (int t = 0; t < threads; ++t) {
      Slice s;
      s.first = int(long(sliced) * t / threads);
      s.count = int(long(sliced) * (t + 1) / threads) - s.first;
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
      {  // made on first need; FFTW's planner is not thread-safe: one planner call at a time
        static std::mutex planner;
        const std::lock_guard<std::mutex> lock(planner);
        if (!s.unaligned) s.unaligned = make(s.count, flags_ | FFTW_UNALIGNED);
      }
      use_unaligned[t] = 1;
    }
    auto run = [&](int t) {
      const Slice& s = slices_[t];
      const fftw_plan plan = use_unaligned[t] ? s.unaligned : s.plan;
      void* i = in_ptr(in, s);
      void* o = out_ptr(out, s);
      switch (kind_) {
        case FFTKind::c2c_forward:
        case FFTKind::c2c_backward:
          fftw_execute_dft(plan, (fftw_complex*)i, (fftw_complex*)o);
          break;
        case FFTKind::r2c:
          fftw_execute_dft_r2c(plan, (double*)i, (fftw_complex*)o);
          break;
        case FFTKind::c2r:
          fftw_execute_dft_c2r(plan, (fftw_complex*)i, (double*)o);
          break;
      }
    };
    if (ns == 1) {
      run(0);
      return;
    }
    Kokkos::parallel_for("proxylab::fft", Kokkos::RangePolicy<HostExec>(0, ns), [&](int t) { run(t); });
    HostExec().fence();
  }

 private:
  bool two_dims() const { return shape_.outer.count > 1; }
  int sliced_count() const { return two_dims() ? shape_.outer.count : shape_.inner.count; }
  const FFTBatch& sliced() const { return two_dims() ? shape_.outer : shape_.inner; }
  size_t in_elem() const { return kind_ == FFTKind::r2c ? sizeof(double) : sizeof(fftw_complex); }
  size_t out_elem() const { return kind_ == FFTKind::c2r ? sizeof(double) : sizeof(fftw_complex); }
  void* in_ptr(const void* in, const Slice& s) const {
    return (char*)in + size_t(s.first) * sliced().idist * in_elem();
  }
  void* out_ptr(void* out, const Slice& s) const { return (char*)out + size_t(s.first) * sliced().odist * out_elem(); }

  // One FFTW guru plan for a slice of `count` along the sliced batch dimension, made on scratch arrays with the
  // caller's strides (FFTW_MEASURE overwrites its arrays).
  fftw_plan make(int count, unsigned flags) const {
    const int n = shape_.n;
    FFTShape slice = shape_;
    (two_dims() ? slice.outer : slice.inner).count = count;
    const FFTBatch &inner = slice.inner, &outer = slice.outer;
    const long long bytes_in = slice.input_span() * in_elem(), bytes_out = slice.output_span() * out_elem();
    void* a = fftw_malloc(std::max(bytes_in, bytes_out));
    void* b = shape_.in_place ? a : fftw_malloc(bytes_out);
    fftw_iodim64 dims[3];  // the transform's dimensions, slowest first (the DFT is separable: the order is FFTW's)
    int rank = 0;
    for (const FFTDim& d : {shape_.dim3, shape_.dim2})
      if (d.n > 1) dims[rank++] = {d.n, d.istride, d.ostride};
    dims[rank++] = {n, shape_.istride, shape_.ostride};
    const fftw_iodim64 batch[2] = {{outer.count, outer.idist, outer.odist}, {inner.count, inner.idist, inner.odist}};
    const int nbatch = two_dims() ? 2 : 1;
    const fftw_iodim64* b0 = two_dims() ? batch : batch + 1;
    const fftw_plan plan = plan_fftw(flags, [&](unsigned f) -> fftw_plan {
      switch (kind_) {
        case FFTKind::c2c_forward:
        case FFTKind::c2c_backward:
          return fftw_plan_guru64_dft(rank, dims, nbatch, b0, (fftw_complex*)a, (fftw_complex*)b,
                                      kind_ == FFTKind::c2c_forward ? FFTW_FORWARD : FFTW_BACKWARD, f);
        case FFTKind::r2c:
          return fftw_plan_guru64_dft_r2c(1, dims, nbatch, b0, (double*)a, (fftw_complex*)b, f);
        case FFTKind::c2r:
          return fftw_plan_guru64_dft_c2r(1, dims, nbatch, b0, (fftw_complex*)a, (double*)b, f | FFTW_DESTROY_INPUT);
      }
      return nullptr;
    });
    fftw_free(a);
    if (!shape_.in_place) fftw_free(b);
    if (!plan) throw RuntimeError("FFTW could not plan a transform of length " + std::to_string(n));
    return plan;
  }

  FFTShape shape_;
  FFTKind kind_;
  unsigned flags_;
  mutable std::vector<Slice> slices_;  // unaligned plans are added on first need
};

using Key = std::tuple<int, int, long long, long long, int, long long, long long, int, long long, long long, int,
                       long long, long long, int, long long, long long, bool, int, int>;
std::map<Key, std::unique_ptr<FFTWPlan>>& cache() {
  static std::map<Key, std::unique_ptr<FFTWPlan>> c;
  return c;
}

}  // namespace

// FFTW's flag and its name per FFTPlanning, in the enum's order.
constexpr std::pair<unsigned, const char*> planner_flags[] = {
    {FFTW_ESTIMATE, "FFTW_ESTIMATE"}, {FFTW_MEASURE, "FFTW_MEASURE"}, {FFTW_PATIENT, "FFTW_PATIENT"}};
static_assert(std::size(planner_flags) == int(FFTPlanning::patient) + 1, "one FFTW flag per FFTPlanning");

unsigned fftw_planner_flag(FFTPlanning p) { return planner_flags[int(p)].first; }
const char* fftw_planner_flag_name(FFTPlanning p) { return planner_flags[int(p)].second; }

namespace detail {

const FFTBackend& fftw_backend(const FFTShape& sh) {
  require_positive_sizes(sh);
  if (sh.rank() > 1 && (sh.kind == FFTKind::r2c || sh.kind == FFTKind::c2r))
    throw RuntimeError("FFT " + sh.describe() + ": multi-dimensional transforms are c2c here");
  const int threads = HostExec().concurrency();
  Key key{int(sh.kind),
          sh.n,
          sh.istride,
          sh.ostride,
          sh.dim2.n,
          sh.dim2.istride,
          sh.dim2.ostride,
          sh.dim3.n,
          sh.dim3.istride,
          sh.dim3.ostride,
          sh.inner.count,
          sh.inner.idist,
          sh.inner.odist,
          sh.outer.count,
          sh.outer.idist,
          sh.outer.odist,
          sh.in_place,
          int(sh.planning),
          sh.threaded ? threads : 1};
  auto& c = cache();
  auto it = c.find(key);
  if (it == c.end()) it = c.emplace(key, std::make_unique<FFTWPlan>(sh)).first;
  return *it->second;
}

void clear_fftw_plans() { cache().clear(); }

}  // namespace detail

}  // namespace proxylab
