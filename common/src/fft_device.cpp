// The FFT layer's device library (see fft.hpp): kokkos-fft plans on the default execution space, which hand
// contiguous batched lines to cuFFT (CUDA), hipFFT (HIP) or oneMKL (SYCL). Compiled only where Kokkos has a
// device back end (PROXYLAB_DEVICE_FFT). Each cached entry makes its kokkos-fft plan on the first execute(), from
// that call's views (the libraries plan from extents alone; the views say whether the transform is in place).
#include <KokkosFFT.hpp>
#include <map>
#include <memory>
#include <tuple>

#include "proxylab/fft.hpp"

namespace proxylab::detail {
namespace {

// howmany lines of `length` values, one after the other: the layout every device plan reads and writes.
template <class T>
using Lines = Kokkos::View<T**, Kokkos::LayoutRight, MemSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

template <class In, class Out>
class KokkosFFTPlan final : public FFTBackend {
 public:
  explicit KokkosFFTPlan(const FFTShape& shape) : shape_(shape) {}

  void execute(const void* in, void* out) const override {
    const Lines<In> i(const_cast<In*>(static_cast<const In*>(in)), shape_.howmany(), shape_.input_length());
    const Lines<Out> o(static_cast<Out*>(out), shape_.howmany(), shape_.output_length());
    if (!plan_) {
      const bool inverse = shape_.kind == FFTKind::c2c_backward || shape_.kind == FFTKind::c2r;
      plan_ = std::make_unique<Plan>(ExecSpace(), i, o,
                                     inverse ? KokkosFFT::Direction::backward : KokkosFFT::Direction::forward, -1);
    }
    KokkosFFT::execute(*plan_, i, o, KokkosFFT::Normalization::none);
  }

 private:
  using Plan = KokkosFFT::Plan<ExecSpace, Lines<In>, Lines<Out>, 1>;
  FFTShape shape_;
  mutable std::unique_ptr<Plan> plan_;
};

using Complex = Kokkos::complex<double>;

std::unique_ptr<FFTBackend> make_plan(const FFTShape& sh) {
  switch (sh.kind) {
    case FFTKind::r2c:
      return std::make_unique<KokkosFFTPlan<double, Complex>>(sh);
    case FFTKind::c2r:
      return std::make_unique<KokkosFFTPlan<Complex, double>>(sh);
    default:
      return std::make_unique<KokkosFFTPlan<Complex, Complex>>(sh);
  }
}

using Key = std::tuple<int, int, int, bool>;  // kind, n, howmany, in place
// Emptied when Kokkos finalizes: a kokkos-fft plan holds an execution space instance and a cuFFT handle, which
// must go before Kokkos and the CUDA runtime do (not at the process' exit, after them).
std::map<Key, std::unique_ptr<FFTBackend>>& cache() {
  static std::map<Key, std::unique_ptr<FFTBackend>> c;
  [[maybe_unused]] static const bool cleared_at_finalize = (Kokkos::push_finalize_hook([] { c.clear(); }), true);
  return c;
}

}  // namespace

const FFTBackend& device_fft_backend(const FFTShape& sh) {
  if (sh.n < 1 || sh.inner.count < 1 || sh.outer.count < 1)
    throw InputError("FFT of length " + std::to_string(sh.n) + " x " + std::to_string(sh.inner.count) + " x " +
                     std::to_string(sh.outer.count) + ": all must be >= 1");
  if (!sh.contiguous_lines())
    throw RuntimeError("FFT " + sh.describe() +
                       ": the device library plans contiguous lines only (stride 1, each line right after the "
                       "previous one); the device code paths transpose into that layout first");
  const Key key{int(sh.kind), sh.n, sh.howmany(), sh.in_place};
  auto& c = cache();
  auto it = c.find(key);
  if (it == c.end()) it = c.emplace(key, make_plan(sh)).first;
  return *it->second;
}

void clear_device_fft_plans() { cache().clear(); }

}  // namespace proxylab::detail
