// Batched 1-D FFTs through FFTW, planned once and cached by shape (FFTW's guru interface: length n and stride,
// one or two batch dimensions each with a count and input/output distances). Host memory (FFTW); a device build
// would put cuFFT / kokkos-fft here.
//
//   auto& plan = proxylab::fft_plan(FFTKind::c2c_forward, n, howmany, 1, n, 1, n);
//   plan.execute(in, out);   // in/out: std::complex<double>* (c2c, r2c output, c2r input) or double*
//
// With two batch dimensions whose input and output distances differ, one plan transforms and transposes at once
// (FFTW reads the input with its strides and writes the output with its own): a local reshape fused into the FFT.
//
// Unnormalised in both directions (as FFTW and NAS FT). Execution is thread-parallel over the batch
// when the host execution space has several threads (each thread runs FFTW on a slice of the batch), unless the
// shape says `threaded = false`; execute() may then be called from several threads at once.
// Arrays of any alignment are accepted (a less aligned one runs an FFTW_UNALIGNED twin plan).
#pragma once
#include <complex>

#include "proxylab/named_choice.hpp"

namespace proxylab {

enum class FFTKind { c2c_forward, c2c_backward, r2c, c2r };
enum class FFTPlanning { estimate, measure };  // FFTW_ESTIMATE (bitwise reproducible) or FFTW_MEASURE
PROXYLAB_CHOICE_NAMES(FFTPlanning, "FFT planning", "estimate", "measure");

class FFTPlan {
 public:
  virtual ~FFTPlan() = default;
  // c2c: in and out complex; r2c: in real (length n), out complex (n/2 + 1); c2r: the reverse.
  // Strides and distances are in elements of each array's own type. in == out is allowed when the
  // plan was made in place.
  virtual void execute(const void* in, void* out) const = 0;
  int n() const { return n_; }
  int howmany() const { return howmany_; }
  FFTKind kind() const { return kind_; }
  double flops() const;  // 5 n log2 n per complex transform (2.5 n log2 n per real one), times howmany

 protected:
  FFTPlan(FFTKind k, int n, int howmany) : kind_(k), n_(n), howmany_(howmany) {}
  FFTKind kind_;
  int n_, howmany_;
};

// A batch dimension: `count` transforms whose inputs start `idist` elements apart and outputs `odist` apart.
struct FFTBatch {
  int count = 1;
  long long idist = 0, odist = 0;
};

// Everything that defines a plan. Strides and distances are in elements of each array's own type.
struct FFTShape {
  FFTKind kind = FFTKind::c2c_forward;
  int n = 1;
  long long istride = 1, ostride = 1;
  FFTBatch inner, outer;  // outer: a second batch dimension (count 1: none)
  bool in_place = false;
  FFTPlanning planning = FFTPlanning::estimate;
  // true: execute() splits the batch over the host threads; false: it runs on the calling thread (for callers that
  // execute many small plans from their own parallel loop).
  bool threaded = true;
};

// Cached plan for the given shape (created on first use; not thread-safe: call from the host thread).
const FFTPlan& fft_plan(const FFTShape& shape);
// One batch dimension (FFTW's advanced interface): howmany transforms, idist / odist apart.
const FFTPlan& fft_plan(FFTKind kind, int n, int howmany, int istride, int idist, int ostride, int odist,
                        bool in_place = false, FFTPlanning planning = FFTPlanning::estimate);

void fft_clear_plans();  // forget cached plans (tests, or before a planning-mode change)

}  // namespace proxylab
