// Peak memory of one fft3d rank (see memory_estimate.hpp).
#include "memory_estimate.hpp"

#include <algorithm>

#include "field.hpp"
#include "fused_transpose_fft.hpp"
#include "proxylab/report.hpp"
#include "run_options.hpp"

namespace proxylab::fft3d {

MemoryEstimate estimate_memory(const Decomposition& d, const RunOptions& o, int rank, int ranks) {
  const int r = rank % d.p_row, c = rank / d.p_row;  // ProcessGrid rank = c * p_row + r
  const double x = d.x_pencil(r, c).size(), y = d.y_pencil(r, c).size(), z = d.z_pencil(r, c).size();
  const bool pencil = FFTOptions::pencil_path(d.kind);  // a Y-stage work array too
  const double scratch = pencil ? std::max({x, y, z}) : std::max(x, z);
  const double points = double(d.points()), cplx = sizeof(Complex);
  const bool ft = o.mode == RunMode::ft;
  // Rank 0 gathers u and its spectrum and runs one serial FFTW 3-D plan (checks.cpp) on small grids.
  const bool serial_check = rank == 0 && d.points() <= o.serial_max_points;
  const bool serial_baseline = !ft && ranks == 1 && o.serial_baseline;

  // A transpose among q ranks sends and receives all of a stage but the part that stays on this rank (Reshape).
  const double q = std::max(d.p_row, d.p_col), moved = scratch * (q - 1) / q;
  // Unfused (a device's path) the transposes among several ranks send in place (reshape.hpp): the whole input stage
  // in the send buffer.
  const bool sends_in_place = q > 1 && !o.fft.fused();
  const double send = sends_in_place ? scratch : std::max(moved, 1.0);
  // The in-run copy ceiling of pack + unpack (fft3d_app.cpp stream_copy_gbs): two arrays of the values the pack and
  // unpack kernels copy per transform (forward and inverse averaged). Fused, per stage among q_s > 1 ranks the values
  // that leave the rank (packed in one direction, unpacked in the other). Unfused on the pencil path (a device's):
  // one pass (own block and unpack) per transpose among ranks forward, one per transpose inverse. Unfused slabs
  // (host): forward one pass, inverse the pack too.
  const bool fused = o.fft.fused();
  double copied = 0;
  if (fused) {
    for (int qs : {d.p_row, d.p_col})
      if (qs > 1) copied += scratch * (qs - 1) / qs;
  } else if (pencil) {
    copied = scratch;
    for (int qs : {d.p_row, d.p_col})
      if (qs > 1) copied += scratch / 2;
  } else {
    copied = scratch * (1 + (q - 1) / (2 * q));
  }
  copied = std::min(copied, double(copy_ceiling_max_values));
  MemoryEstimate e;
  // DistributedFFT: FFT work arrays and the transpose buffers
  e.view("fft3d::work, work2", pencil ? 2 : 1, scratch * cplx)
      .view("fft3d::send (the FFTs before a transpose among ranks write all of their stage there)", 1, send * cplx)
      .view("fft3d::recv", 1, std::max(moved, 1.0) * cplx)
      .host("fft3d::send, recv host copies for MPI (device buffers staged)", 1,
            TransposeBuffer::host_copy_bytes(send, o.fft.comm) + TransposeBuffer::host_copy_bytes(moved, o.fft.comm))
      .view("fft3d::copy_a, copy_b (pack + unpack ceiling)", ft ? 0 : 2, copied * cplx)
      // fused transpose (fft3d.fuse_transpose): each host thread's team scratch for the lines of one chunk
      .view("fft3d fused FFT lines (team scratch per thread)", fused ? host_threads() : 0,
            double(fused_chunk) * std::max({d.global[0], d.global[1], d.global[2]}) * cplx)
      // the driver's fields (the planning arrays plan_in / plan_out are freed before these exist)
      .view("fft3d::u, spectrum, back (in place: back is spectrum, which holds either stage)", 1,
            (o.fft.in_place ? x + std::max(x, z) : 2 * x + z) * cplx)
      .view("fft3d::twiddle (ft)", ft ? z : 0, sizeof(double))
      .host("serial reference: gathered u, spectrum, packed copy, FFTW output", serial_check ? 4 * points : 0, cplx)
      .host("fft3d.serial_baseline FFTW arrays", serial_baseline ? 2 * points : 0, cplx);
  return e;
}

}  // namespace proxylab::fft3d
