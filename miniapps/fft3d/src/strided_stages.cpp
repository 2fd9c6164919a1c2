#include "strided_stages.hpp"

#include "proxylab/errors.hpp"

namespace proxylab::fft3d {

FFTShape axis_fft_shape(int axis, bool forward, const Pencil& from, const Pencil& to, bool in_place,
                        FFTPlanning planning) {
  const int u = (axis + 1) % 3, v = (axis + 2) % 3;
  if (in_place && (from.stride(0) != to.stride(0) || from.stride(1) != to.stride(1)))
    throw RuntimeError("fft3d: an in-place FFT cannot change the layout");
  const int inner = from.stride(u) < from.stride(v) ? u : v, outer = inner == u ? v : u;
  FFTShape sh;
  sh.kind = forward ? FFTKind::c2c_forward : FFTKind::c2c_backward;
  sh.n = from.n[axis];
  sh.istride = from.stride(axis);
  sh.ostride = to.stride(axis);
  sh.inner = {from.n[inner], from.stride(inner), to.stride(inner)};
  sh.outer = {from.n[outer], from.stride(outer), to.stride(outer)};
  sh.in_place = in_place;
  sh.planning = planning;
  return sh;
}

Pencil rotated(const Pencil& from) {
  Pencil p = from;
  p.order[0] = from.order[2];
  p.order[1] = from.order[0];
  p.order[2] = from.order[1];
  return p;
}

void fft3d_by_stages(bool forward, const Pencil& x, const Pencil& z, const Field& in, const Field& work,
                     const Field& out, FFTPlanning planning) {
  const Pencil middle = rotated(x), last = rotated(middle);
  for (int k = 0; k < 3; ++k)
    if (last.order[k] != z.order[k] || x.lo[k] != z.lo[k] || x.n[k] != z.n[k])
      throw RuntimeError("fft3d: the stages of a whole-grid FFT need the X and Z stage layouts of one box");
  const int ax = x.order[2], ay = middle.order[2], az = z.order[2];  // the axes in the order they are transformed
  auto stage = [&](int axis, const Pencil& from, const Field& a, const Pencil& to, const Field& b) {
    const bool in_place = a.data() == b.data();
    fft_plan(ExecSpace(), axis_fft_shape(axis, forward, from, to, in_place, planning)).execute(a, b);
  };
  if (forward) {
    stage(ax, x, in, middle, work);
    stage(ay, middle, work, z, out);
    stage(az, z, out, z, out);
  } else {
    stage(az, z, in, z, out);
    stage(ay, z, out, middle, work);
    stage(ax, middle, work, x, out);
  }
}

}  // namespace proxylab::fft3d
