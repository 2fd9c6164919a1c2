// Batched 1-D FFTs behind one plan interface per execution space (docs/architecture.md, "The FFT layer"); the
// shapes and back ends are in fft_descriptor.hpp:
//   host spaces    FFTW, planned once per shape and cached (the guru interface: length n and stride, one or two
//                  batch dimensions each with a count and input/output distances); execute() splits the batch
//                  over the host threads
//   device spaces  cuFFT (CUDA) or hipFFT (HIP), cached per shape: the advanced data layout (one transform
//                  dimension, any input and output strides, one or two batch dimensions with their distances)
//
//   const auto plan = proxylab::fft_plan(exec, shape);  // exec: HostExec() or ExecSpace()
//   plan.execute(in, out);   // rank-1 Views of Kokkos::complex<double> (double: r2c input, c2r output)
//
// execute() checks at compile time that `exec` can reach both views (as KokkosBlas::gemm and kokkos-fft do) and at
// run time that they hold every element the shape reads and writes.
//
// With input and output strides and distances that differ, one plan transforms and transposes at once (the library
// reads the input with its strides and writes the output with its own): a local reshape fused into the FFT.
//
// Unnormalised in both directions (as FFTW and NAS FT). On the host, shapes marked `threaded = false` run on the
// calling thread, so that execute() may be called from several threads at once (one plan per chunk of a parallel
// loop). Arrays of any alignment are accepted (a less aligned one runs an FFTW_UNALIGNED twin plan).
#pragma once
#include <Kokkos_Core.hpp>
#include <string>
#include <type_traits>

#include "proxylab/errors.hpp"
#include "proxylab/fft_descriptor.hpp"
#include "proxylab/layout.hpp"

namespace proxylab {

namespace detail {
template <class Space>
constexpr bool runs_on_host = Kokkos::SpaceAccessibility<Space, Kokkos::HostSpace>::accessible;
}  // namespace detail

// A plan for execution space Space: a light handle on the cached library plan of its shape.
template <class Space>
class FFTPlan {
 public:
  explicit FFTPlan(const FFTShape& shape)
      : shape_(shape), in_span_(shape.input_span()), out_span_(shape.output_span()), backend_(&backend_for(shape)) {}

  // Transforms `in` into `out` (rank-1 contiguous Views; the same View for an in-place shape). Runs on Space's
  // default instance; on the host it is complete on return, on a device it is queued (fence before reading on the
  // host).
  template <class InView, class OutView>
  void execute(const InView& in, const OutView& out) const {
    static_assert(Kokkos::is_view<InView>::value && Kokkos::is_view<OutView>::value, "FFTPlan::execute takes Views");
    static_assert(InView::rank == 1 && OutView::rank == 1, "FFTPlan::execute takes rank-1 Views");
    require_accessible<Space>(in, out);
    check(in.span(), element_is_complex<typename InView::non_const_value_type>(), in.span_is_contiguous(), out.span(),
          element_is_complex<typename OutView::non_const_value_type>(), out.span_is_contiguous());
    backend_->execute(in.data(), out.data());
  }
  const FFTShape& shape() const { return shape_; }
  long long input_span() const { return in_span_; }
  long long output_span() const { return out_span_; }
  int n() const { return shape_.n; }
  int howmany() const { return shape_.howmany(); }
  FFTKind kind() const { return shape_.kind; }
  double flops() const { return shape_.flops(); }

 private:
  template <class T>
  static constexpr bool element_is_complex() {
    static_assert(std::is_same_v<T, double> || std::is_same_v<T, Kokkos::complex<double>>,
                  "FFTPlan::execute: Views of double or Kokkos::complex<double>");
    return std::is_same_v<T, Kokkos::complex<double>>;
  }
  static const detail::FFTBackend& backend_for(const FFTShape& shape) {
    if constexpr (detail::runs_on_host<Space>) {
      return detail::fftw_backend(shape);
    } else {
#ifdef PROXYLAB_DEVICE_FFT
      return detail::device_fft_backend(shape);
#else
      static_assert(detail::runs_on_host<Space>, "proxylab: no device FFT library in this build (cuFFT, hipFFT)");
#endif
    }
  }
  // RuntimeError unless the views hold the elements the shape reads and writes, of the kind's element types.
  void check(size_t in_span, bool in_complex, bool in_contiguous, size_t out_span, bool out_complex,
             bool out_contiguous) const;
  FFTShape shape_;
  long long in_span_, out_span_;  // what the shape reads and writes, computed once
  const detail::FFTBackend* backend_;
};

// The plan of `shape` for exec's space (cached: the same shape gives the same library plan).
template <class Space>
FFTPlan<Space> fft_plan(const Space&, const FFTShape& shape) {
  return FFTPlan<Space>(shape);
}

// The elements a plan reads (fft_input_at) or writes (fft_output_at) from p on: an unmanaged View of Space's memory,
// for a plan run on a part of a larger array (a chunk of lines in a parallel loop, one field's rows).
template <class Space, class T>
using FFTLines = Kokkos::View<T*, typename Space::memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
template <class Space, class T>
FFTLines<Space, T> fft_input_at(const FFTPlan<Space>& plan, T* p) {
  return FFTLines<Space, T>(p, size_t(plan.input_span()));
}
template <class Space, class T>
FFTLines<Space, T> fft_output_at(const FFTPlan<Space>& plan, T* p) {
  return FFTLines<Space, T>(p, size_t(plan.output_span()));
}

void fft_clear_plans();  // forget cached plans (tests, or before a planning-mode change)

// Message of a view that does not fit a shape (shared by the plans of every space).
std::string fft_view_mismatch(const FFTShape& shape, const char* which, size_t span, bool complex, bool contiguous);

template <class Space>
void FFTPlan<Space>::check(size_t in_span, bool in_complex, bool in_contiguous, size_t out_span, bool out_complex,
                           bool out_contiguous) const {
  const bool in_ok = in_contiguous && in_complex == (shape_.kind != FFTKind::r2c) && (long long)in_span >= in_span_;
  const bool out_ok =
      out_contiguous && out_complex == (shape_.kind != FFTKind::c2r) && (long long)out_span >= out_span_;
  if (!in_ok) throw RuntimeError(fft_view_mismatch(shape_, "input", in_span, in_complex, in_contiguous));
  if (!out_ok) throw RuntimeError(fft_view_mismatch(shape_, "output", out_span, out_complex, out_contiguous));
}

}  // namespace proxylab
