// The FFT layer's device back end (see fft_descriptor.hpp): cuFFT on CUDA, hipFFT on HIP (the same API under another
// prefix; the HIP form is not compiled on these machines), called directly rather than through kokkos-fft, whose
// plans take contiguous lines only: the advanced data layout (cufftMakePlanMany64) plans one transform dimension
// with any input and output strides and one batch dimension with its distances. A shape with two batch dimensions
// that do not merge into one runs one plan per index of the shorter one. Multi-dimensional shapes are refused (the
// advanced layout nests its dimensions; the device code paths run such transforms as strided 1-D stages).
// Plans run on the default execution space's stream; every library call is checked, and so is the runtime before
// and after it (gpu_runtime_status.hpp).
#include <Kokkos_Core.hpp>
#include <map>
#include <memory>
#include <tuple>

#include "proxylab/detail/gpu_runtime_status.hpp"
#include "proxylab/errors.hpp"
#include "proxylab/fft_descriptor.hpp"
#include "proxylab/layout.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cufft.h>
#define PROXYLAB_GPUFFT(name) cufft##name
#define PROXYLAB_GPUFFT_CONSTANT(name) CUFFT_##name
#define PROXYLAB_GPUFFT_NAME(name) "cufft" #name
#define PROXYLAB_GPUFFT_STREAM cuda_stream
#elif defined(KOKKOS_ENABLE_HIP)
#include <hipfft/hipfft.h>
#define PROXYLAB_GPUFFT(name) hipfft##name
#define PROXYLAB_GPUFFT_CONSTANT(name) HIPFFT_##name
#define PROXYLAB_GPUFFT_NAME(name) "hipfft" #name
#define PROXYLAB_GPUFFT_STREAM hip_stream
#else
#error "the FFT layer's device back end needs CUDA (cuFFT) or HIP (hipFFT)"
#endif

namespace proxylab::detail {
namespace {

using Result = PROXYLAB_GPUFFT(Result);
using Handle = PROXYLAB_GPUFFT(Handle);
using DeviceComplex = PROXYLAB_GPUFFT(DoubleComplex);
using DeviceReal = PROXYLAB_GPUFFT(DoubleReal);

// The library call `name` (call() returns its status), checked with the runtime around it.
template <class Call>
void library_call(const char* name, const Call& call) {
  checked_gpu_library_call(name, [&](std::string& status) {
    const Result r = call();
    status = "status " + std::to_string(int(r));
    return r == PROXYLAB_GPUFFT_CONSTANT(SUCCESS);
  });
}

// The batch one plan runs (`planned`) and the one its executions step through (`looped`: count 1 when the shape's
// batches merge into one).
struct Batches {
  FFTBatch planned, looped;
};
Batches split_batches(const FFTShape& sh) {
  if (sh.batches_merge()) {
    const FFTBatch& step = sh.inner.count > 1 ? sh.inner : sh.outer;
    return {{sh.howmany(), step.idist, step.odist}, {}};
  }
  return sh.inner.count >= sh.outer.count ? Batches{sh.inner, sh.outer} : Batches{sh.outer, sh.inner};
}

class GpuFFTPlan final : public FFTBackend {
 public:
  explicit GpuFFTPlan(const FFTShape& sh) : kind_(sh.kind), batches_(split_batches(sh)) {
    long long n[1] = {sh.n}, inembed[1] = {sh.input_length()}, onembed[1] = {sh.output_length()};
    const auto type = sh.kind == FFTKind::r2c   ? PROXYLAB_GPUFFT_CONSTANT(D2Z)
                      : sh.kind == FFTKind::c2r ? PROXYLAB_GPUFFT_CONSTANT(Z2D)
                                                : PROXYLAB_GPUFFT_CONSTANT(Z2Z);
    library_call(PROXYLAB_GPUFFT_NAME(Create), [&] { return PROXYLAB_GPUFFT(Create)(&handle_); });
    std::size_t work = 0;
    const FFTBatch& b = batches_.planned;
    library_call(PROXYLAB_GPUFFT_NAME(MakePlanMany64), [&] {
      return PROXYLAB_GPUFFT(MakePlanMany64)(handle_, 1, n, inembed, sh.istride, b.idist, onembed, sh.ostride, b.odist,
                                             type, b.count, &work);
    });
    library_call(PROXYLAB_GPUFFT_NAME(SetStream),
                 [&] { return PROXYLAB_GPUFFT(SetStream)(handle_, ExecSpace().PROXYLAB_GPUFFT_STREAM()); });
  }
  ~GpuFFTPlan() override { PROXYLAB_GPUFFT(Destroy)(handle_); }
  GpuFFTPlan(const GpuFFTPlan&) = delete;
  GpuFFTPlan& operator=(const GpuFFTPlan&) = delete;

  void execute(const void* in, void* out) const override {
    const FFTBatch& step = batches_.looped;
    for (int k = 0; k < step.count; ++k) {
      if (kind_ == FFTKind::r2c)
        run(static_cast<const DeviceReal*>(in) + k * step.idist, static_cast<DeviceComplex*>(out) + k * step.odist);
      else if (kind_ == FFTKind::c2r)
        run(static_cast<const DeviceComplex*>(in) + k * step.idist, static_cast<DeviceReal*>(out) + k * step.odist);
      else
        run(static_cast<const DeviceComplex*>(in) + k * step.idist, static_cast<DeviceComplex*>(out) + k * step.odist);
    }
  }

 private:
  void run(const DeviceReal* in, DeviceComplex* out) const {
    library_call(PROXYLAB_GPUFFT_NAME(ExecD2Z),
                 [&] { return PROXYLAB_GPUFFT(ExecD2Z)(handle_, const_cast<DeviceReal*>(in), out); });
  }
  void run(const DeviceComplex* in, DeviceReal* out) const {
    library_call(PROXYLAB_GPUFFT_NAME(ExecZ2D),
                 [&] { return PROXYLAB_GPUFFT(ExecZ2D)(handle_, const_cast<DeviceComplex*>(in), out); });
  }
  void run(const DeviceComplex* in, DeviceComplex* out) const {
    // the library's directions are -1 (forward) and +1 (CUFFT_INVERSE, HIPFFT_BACKWARD)
    const int direction =
        kind_ == FFTKind::c2c_forward ? PROXYLAB_GPUFFT_CONSTANT(FORWARD) : -PROXYLAB_GPUFFT_CONSTANT(FORWARD);
    library_call(PROXYLAB_GPUFFT_NAME(ExecZ2Z),
                 [&] { return PROXYLAB_GPUFFT(ExecZ2Z)(handle_, const_cast<DeviceComplex*>(in), out, direction); });
  }

  FFTKind kind_;
  Batches batches_;
  Handle handle_{};
};

using Key = std::tuple<int, int, long long, long long, int, long long, long long, int, long long, long long>;
// Emptied when Kokkos finalizes: a plan holds a library handle on Kokkos' stream, which must go before Kokkos and
// the runtime do (not at the process' exit, after them).
std::map<Key, std::unique_ptr<GpuFFTPlan>>& cache() {
  static std::map<Key, std::unique_ptr<GpuFFTPlan>> c;
  [[maybe_unused]] static const bool cleared_at_finalize = (Kokkos::push_finalize_hook([] { c.clear(); }), true);
  return c;
}

}  // namespace

const FFTBackend& device_fft_backend(const FFTShape& sh) {
  require_positive_sizes(sh);
  if (sh.rank() > 1)
    throw RuntimeError("FFT " + sh.describe() +
                       ": the device library plans one transform dimension here (with any strides); run a "
                       "multi-dimensional transform as strided 1-D stages");
  const Key key{int(sh.kind),   sh.n,           sh.istride,     sh.ostride,     sh.inner.count,
                sh.inner.idist, sh.inner.odist, sh.outer.count, sh.outer.idist, sh.outer.odist};
  auto& c = cache();
  auto it = c.find(key);
  if (it == c.end()) it = c.emplace(key, std::make_unique<GpuFFTPlan>(sh)).first;
  return *it->second;
}

void clear_device_fft_plans() { cache().clear(); }

}  // namespace proxylab::detail
