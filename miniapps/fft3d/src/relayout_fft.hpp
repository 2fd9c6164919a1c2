// FFTs along one axis that also move this rank's box from one memory layout to another: a transpose among one
// rank (slab or pencil at 1 rank, a 1 x P pencil grid), fused into the FFT as a serial 3-D FFT does it, in chunks
// of lines that stay in cache (CASTEP / 2DECOMP&FFT block their local transposes the same way):
//   the axis contiguous in the new layout (forward): copy a chunk of lines into place, transform them there;
//   the axis contiguous in the old layout (inverse): transform a chunk of lines into a buffer, copy it into place.
// One memory pass instead of a transpose pass plus an FFT pass.
#pragma once
#include "decomposition.hpp"
#include "field.hpp"
#include "proxylab/fft.hpp"

namespace proxylab::fft3d {

// Lines per chunk: 16 complex values along the old contiguous axis are 4 cache lines per read.
constexpr int relayout_chunk = 16;

// True when relayout_fft() handles this pair: the layouts differ and the axis is contiguous in exactly one of them.
bool relayout_fft_applies(int axis, const Pencil& from, const Pencil& to);

// out (laid out as `to`) = FFTs along `axis` of in (laid out as `from`); from and to hold the same box.
void relayout_fft(FFTKind kind, FFTPlanning planning, int axis, const Pencil& from, const Complex* in, const Pencil& to,
                  Complex* out);

}  // namespace proxylab::fft3d
