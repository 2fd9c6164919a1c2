// FFTs along one axis of a box that read one memory layout and write another: the FFT layer's strides and
// distances (FFTW's guru plans on the host, cuFFT's advanced data layout on a device) do the local transpose inside
// the FFT, as heFFTe's strided 1-D FFTs (use_reorder=false). With one batch dimension (a device library's), the
// output layout an FFT can write from a box contiguous along its axis is the rotated one, the axis slowest and the
// other two in the input's order (rotated()): the two batch axes then keep one distance apart in both arrays.
//
// One rank's whole 3-D FFT in three such stages (fft3d_by_stages: fft3d.local=whole on a device), X stage
// (z, y, x) to Z stage (y, x, z):
//   FFT x: (z, y, x) -> (x, z, y)   FFT y: (x, z, y) -> (y, x, z)   FFT z: in place
// three read-and-write passes over the grid, as a library's 3-D plan, and no copy; the inverse runs them backwards.
#pragma once
#include "decomposition.hpp"
#include "field.hpp"
#include "proxylab/fft.hpp"

namespace proxylab::fft3d {

// The shape of the 1-D FFTs along `axis` of the box, reading the layout `from` and writing `to` (the same box);
// the inner batch is the other axis with the smaller input stride (neighbouring transforms read neighbouring data).
FFTShape axis_fft_shape(int axis, bool forward, const Pencil& from, const Pencil& to, bool in_place,
                        FFTPlanning planning);

// The box laid out with from's contiguous axis slowest, the other two in from's order: (a, b, c) -> (c, a, b).
Pencil rotated(const Pencil& from);

// The forward (X stage in, Z stage out) or inverse (Z stage in, X stage out) 3-D FFT of one rank's whole grid in
// three strided 1-D stages on the default execution space, through `work` (the grid's size); `in` is preserved.
// Queued, not fenced. RuntimeError unless x and z are the X and Z stage layouts of the same box.
void fft3d_by_stages(bool forward, const Pencil& x, const Pencil& z, const Field& in, const Field& work,
                     const Field& out, FFTPlanning planning);

}  // namespace proxylab::fft3d
