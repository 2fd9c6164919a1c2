// The FFT layer's descriptor (docs/architecture.md, "The FFT layer"): what a plan transforms (FFTShape: kind,
// length, strides, batch dimensions with their distances, as FFTW's guru interface and cuFFT's advanced data layout
// describe it) and the interface every back end implements. Each back end is one file that includes this header
// and its library only:
//   fft_fftw.cpp    host spaces: FFTW guru plans (every shape)
//   fft_device.cpp  device spaces: cuFFT (CUDA) or hipFFT (HIP) advanced-layout plans (one transform dimension)
// fft.hpp puts a typed, checked plan per execution space on top of them.
#pragma once
#include <string>

#include "proxylab/named_choice.hpp"

namespace proxylab {

enum class FFTKind { c2c_forward, c2c_backward, r2c, c2r };
// FFTW_ESTIMATE (a fixed rule: bitwise reproducible), FFTW_MEASURE (candidates timed), FFTW_PATIENT (a wider set of
// candidates timed: minutes for a large 3-D plan). Host back ends; a device library has one planning mode.
enum class FFTPlanning { estimate, measure, patient };
PROXYLAB_CHOICE_NAMES(FFTPlanning, "FFT planning", "estimate", "measure", "patient");
// Whether the planning times candidates (measure, patient) rather than following a fixed rule (estimate).
constexpr bool planning_times(FFTPlanning p) { return p != FFTPlanning::estimate; }
// FFTW's planner flag for a planning (FFTW_ESTIMATE, ...) and its name, for code that calls FFTW's planner itself.
unsigned fftw_planner_flag(FFTPlanning p);
const char* fftw_planner_flag_name(FFTPlanning p);

// A batch dimension: `count` transforms whose inputs start `idist` elements apart and outputs `odist` apart.
struct FFTBatch {
  int count = 1;
  long long idist = 0, odist = 0;
};

// A further dimension of a multi-dimensional transform: length n, input and output strides (n = 1: none).
struct FFTDim {
  int n = 1;
  long long istride = 0, ostride = 0;
};

// Everything that defines a plan. Strides and distances are in elements of each array's own type.
struct FFTShape {
  FFTKind kind = FFTKind::c2c_forward;
  int n = 1;
  long long istride = 1, ostride = 1;
  // c2c on host spaces: a 2-D or 3-D transform over n and these, planned jointly by FFTW (any strides: a transform
  // that also transposes, e.g. a 3-D FFT from one pencil layout into another)
  FFTDim dim2, dim3;
  FFTBatch inner, outer;  // outer: a second batch dimension (count 1: none)
  bool in_place = false;
  FFTPlanning planning = FFTPlanning::estimate;
  // true: execute() splits the batch over the host threads; false: it runs on the calling thread (for callers that
  // execute many small plans from their own parallel loop).
  bool threaded = true;

  // howmany contiguous lines of length n, one after the other (the input's element count per line for c2r, the
  // output's for r2c: n / 2 + 1 complex values).
  static FFTShape lines(FFTKind kind, int n, int howmany, bool in_place = false,
                        FFTPlanning planning = FFTPlanning::estimate);
  int input_length() const { return kind == FFTKind::c2r ? n / 2 + 1 : n; }   // elements per input line
  int output_length() const { return kind == FFTKind::r2c ? n / 2 + 1 : n; }  // elements per output line
  long long input_span() const;   // elements from the first input element to the last one read, plus one
  long long output_span() const;  // the same for the output
  int howmany() const { return inner.count * outer.count; }
  long long points() const { return (long long)n * dim2.n * dim3.n; }  // per transform
  int rank() const { return 1 + (dim2.n > 1) + (dim3.n > 1); }         // dimensions transformed
  bool inverse() const { return kind == FFTKind::c2c_backward || kind == FFTKind::c2r; }
  double flops() const;  // 5 N log2 N per complex transform of N points (2.5 n log2 n per real one), times howmany
  // The two batch dimensions as one (the outer one continues the inner one in both arrays: outer distances
  // inner.count times the inner ones), so that a library with one batch dimension plans the shape in one plan.
  bool batches_merge() const;
  std::string describe() const;  // "c2c forward n=64 x 4096 (stride 1/1, dist 64/64)"
};

namespace detail {
// One library's plan over pointers into memory its space can reach.
class FFTBackend {
 public:
  virtual ~FFTBackend() = default;
  virtual void execute(const void* in, void* out) const = 0;
};
// Cached per shape; made on first use (not thread-safe: call from the host thread). InputError for impossible
// sizes, RuntimeError for a shape the library cannot plan.
const FFTBackend& fftw_backend(const FFTShape& shape);  // fft_fftw.cpp
void clear_fftw_plans();
#ifdef PROXYLAB_DEVICE_FFT
const FFTBackend& device_fft_backend(const FFTShape& shape);  // fft_device.cpp
void clear_device_fft_plans();
#endif
// InputError unless every length and count of the shape is >= 1 (every back end's first check).
void require_positive_sizes(const FFTShape& shape);
}  // namespace detail

}  // namespace proxylab
