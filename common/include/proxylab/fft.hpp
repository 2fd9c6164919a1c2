// Batched 1-D FFTs through FFTW, planned once and cached by shape (FFTW's advanced interface:
// n, howmany, stride, dist). Host memory (FFTW); a device build would put cuFFT / kokkos-fft here.
//
//   auto& plan = proxylab::fft_plan(FFTKind::c2c_forward, n, howmany, 1, n, 1, n);
//   plan.execute(in, out);   // in/out: std::complex<double>* (c2c, r2c output, c2r input) or double*
//
// Unnormalised in both directions (as FFTW and NAS FT). Execution is thread-parallel over the batch
// when the host execution space has several threads (each thread runs FFTW on a slice of the batch).
// Arrays of any alignment are accepted (a less aligned one runs an FFTW_UNALIGNED twin plan).
#pragma once
#include <complex>

namespace proxylab {

enum class FFTKind { c2c_forward, c2c_backward, r2c, c2r };
enum class FFTPlanning { estimate, measure };

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

// Cached plan for the given shape (created on first use; not thread-safe: call from the host thread).
const FFTPlan& fft_plan(FFTKind kind, int n, int howmany, int istride, int idist, int ostride, int odist,
                        bool in_place = false, FFTPlanning planning = FFTPlanning::estimate);

void fft_clear_plans();  // forget cached plans (tests, or before a planning-mode change)

}  // namespace proxylab
