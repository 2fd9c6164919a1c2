// FFTs fused with the copies of a transpose (fft3d.fuse_transpose): instead of an unpack pass after the exchange
// and an FFT pass over the result, the FFT stage reads its lines straight from where the data are (this rank's own
// block in its input array, the blocks received from the others in the receive buffer), in chunks of lines that
// stay in cache: copy a chunk of lines into place, transform them there (gather_fft). The reverse stage
// transforms a chunk of lines into a buffer and writes each part straight to its destination (the own block into
// the output array, the others' blocks into the send buffer: fft_scatter), instead of an FFT pass and a pack pass.
// At one rank this is a serial 3-D FFT's local transpose (one memory pass instead of two).
#pragma once
#include <vector>

#include "decomposition.hpp"
#include "field.hpp"
#include "proxylab/fft.hpp"

namespace proxylab::fft3d {

// One part of a box: global element g at base + sum_k (g[k] - lo[k]) * stride[k].
struct Block {
  Complex* base = nullptr;
  long long stride[3] = {0, 0, 0};  // per global axis
  int lo[3] = {0, 0, 0}, n[3] = {0, 0, 0};
};

// Lines per chunk: 16 complex values along a contiguous axis are 4 cache lines per read.
constexpr int fused_chunk = 16;

// out (laid out as `to`, contiguous along `axis`) = FFTs along `axis` of the lines the blocks hold (each block a
// range of the axis over all of to's other two extents; together the whole axis).
void gather_fft(FFTKind kind, FFTPlanning planning, int axis, const std::vector<Block>& from, const Pencil& to,
                Complex* out);

// FFTs along `axis` of in (laid out as `from`, contiguous along `axis`), each line's values written to the blocks
// (each a range of the axis over all of from's other two extents).
void fft_scatter(FFTKind kind, FFTPlanning planning, int axis, const Pencil& from, const Complex* in,
                 const std::vector<Block>& to);

}  // namespace proxylab::fft3d
