// The FFT layer's descriptor (see fft_descriptor.hpp): what a shape reads and writes, and how it is named.
#include "proxylab/fft_descriptor.hpp"

#include <cmath>
#include <sstream>

#include "proxylab/errors.hpp"

namespace proxylab {
namespace {

const char* kind_name(FFTKind k) {
  switch (k) {
    case FFTKind::c2c_forward:
      return "c2c forward";
    case FFTKind::c2c_backward:
      return "c2c backward";
    case FFTKind::r2c:
      return "r2c";
    case FFTKind::c2r:
      return "c2r";
  }
  return "?";
}

// Elements from the first one a transform reads (or writes) to the last, plus one (len, stride: the first
// dimension; d2, d3: further transform dimensions; a, b: the batch dimensions).
long long span(long long len, long long stride, const FFTDim& d2, const FFTDim& d3, const FFTBatch& a,
               const FFTBatch& b, bool input) {
  const long long da = input ? a.idist : a.odist, db = input ? b.idist : b.odist;
  const long long s2 = input ? d2.istride : d2.ostride, s3 = input ? d3.istride : d3.ostride;
  return (len - 1) * stride + (d2.n - 1) * s2 + (d3.n - 1) * s3 + (a.count - 1) * da + (b.count - 1) * db + 1;
}

}  // namespace

FFTShape FFTShape::lines(FFTKind kind, int n, int howmany, bool in_place, FFTPlanning planning) {
  FFTShape sh;
  sh.kind = kind;
  sh.n = n;
  sh.in_place = in_place;
  sh.planning = planning;
  sh.inner = {howmany, sh.input_length(), sh.output_length()};
  return sh;
}

long long FFTShape::input_span() const { return span(input_length(), istride, dim2, dim3, inner, outer, true); }
long long FFTShape::output_span() const { return span(output_length(), ostride, dim2, dim3, inner, outer, false); }

double FFTShape::flops() const {
  const double points = double(this->points()), per = 5.0 * points * std::log2(points);
  return (kind == FFTKind::r2c || kind == FFTKind::c2r ? 0.5 : 1.0) * per * howmany();
}

bool FFTShape::batches_merge() const {
  return outer.count == 1 || inner.count == 1 ||
         (outer.idist == inner.count * inner.idist && outer.odist == inner.count * inner.odist);
}

std::string FFTShape::describe() const {
  std::ostringstream s;
  s << kind_name(kind) << " n=" << n;
  for (const FFTDim& d : {dim2, dim3})
    if (d.n > 1) s << "x" << d.n << " (stride " << d.istride << "/" << d.ostride << ")";
  s << " x " << inner.count;
  if (outer.count > 1) s << " x " << outer.count;
  s << " (stride " << istride << "/" << ostride << ", dist " << inner.idist << "/" << inner.odist;
  if (outer.count > 1) s << " and " << outer.idist << "/" << outer.odist;
  s << (in_place ? ", in place)" : ")");
  return s.str();
}

namespace detail {

void require_positive_sizes(const FFTShape& sh) {
  if (sh.n < 1 || sh.dim2.n < 1 || sh.dim3.n < 1 || sh.inner.count < 1 || sh.outer.count < 1)
    throw InputError("FFT " + sh.describe() + ": every length and count must be >= 1");
}

}  // namespace detail

}  // namespace proxylab
