// The FFT layer's plans (see fft.hpp): the message of a view that does not fit, and the caches of every back end.
#include "proxylab/fft.hpp"

#include <string>

namespace proxylab {

std::string fft_view_mismatch(const FFTShape& shape, const char* which, size_t span, bool complex, bool contiguous) {
  const bool want_complex = std::string(which) == "input" ? shape.kind != FFTKind::r2c : shape.kind != FFTKind::c2r;
  const long long need = std::string(which) == "input" ? shape.input_span() : shape.output_span();
  return "FFT " + shape.describe() + ": the " + which + " View holds " + std::to_string(span) + " " +
         (complex ? "complex" : "real") + " values" + (contiguous ? "" : " (not contiguous)") + "; it needs " +
         std::to_string(need) + " contiguous " + (want_complex ? "complex" : "real") + " values";
}

void fft_clear_plans() {
  detail::clear_fftw_plans();
#ifdef PROXYLAB_DEVICE_FFT
  detail::clear_device_fft_plans();
#endif
}

}  // namespace proxylab
