#include "fused_transpose_fft.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>

#include "proxylab/errors.hpp"

namespace proxylab::fft3d {
namespace {

using ChunkPlan = FFTPlan<HostExec>;

// A serial plan for `count` lines of length n with unit stride, idist / odist apart.
ChunkPlan chunk_plan(FFTKind kind, FFTPlanning planning, int n, int count, long long idist, long long odist,
                     bool in_place) {
  FFTShape sh;
  sh.kind = kind;
  sh.n = n;
  sh.istride = 1;
  sh.ostride = 1;
  sh.inner = {count, idist, odist};
  sh.in_place = in_place;
  sh.planning = planning;
  sh.threaded = false;
  return fft_plan(HostExec(), sh);
}

void check_blocks(int axis, const Pencil& box, const std::vector<Block>& blocks) {
  int covered = 0;
  for (const Block& k : blocks) {
    for (int ax = 0; ax < 3; ++ax)
      if (ax != axis && (k.lo[ax] != box.lo[ax] || k.n[ax] != box.n[ax]))
        throw RuntimeError("fft3d fused transpose: a block does not span the box across the FFT axis");
    covered += k.n[axis];
  }
  if (covered != box.n[axis]) throw RuntimeError("fft3d fused transpose: the blocks do not cover the FFT axis");
}

// A fused stage over `box` (the array whose lines along `axis` are contiguous): its lines in chunks of fused_chunk
// values of axis b (the blocks' contiguous axis where possible), one chunk per (c, b-range), and the serial plans
// of a full and of the last chunk, made here (FFTW's planner must not run in the parallel loop). gather: the lines
// are transformed in place in the box; else from the box into a buffer of contiguous lines.
struct Stage {
  int axis, b, c, n, nb, per_c;
  ChunkPlan full, last;
  Stage(FFTKind kind, FFTPlanning planning, int axis_, const Pencil& box, const std::vector<Block>& blocks, bool gather)
      : Stage(kind, planning, axis_, checked_chunk_axis(axis_, box, blocks), box, gather) {}

 private:
  Stage(FFTKind kind, FFTPlanning planning, int axis_, int b_, const Pencil& box, bool gather)
      : axis(axis_),
        b(b_),
        c(3 - axis_ - b_),
        n(box.n[axis_]),
        nb(box.n[b_]),
        per_c((nb + fused_chunk - 1) / fused_chunk),
        full(chunk_plan(kind, planning, n, std::min(fused_chunk, nb), box.stride(b), gather ? box.stride(b) : n,
                        gather)),
        last(chunk_plan(kind, planning, n, nb - (per_c - 1) * fused_chunk, box.stride(b), gather ? box.stride(b) : n,
                        gather)) {}
  // The chunks' axis b: the blocks' contiguous axis where possible (after checking the box and the blocks).
  static int checked_chunk_axis(int axis, const Pencil& box, const std::vector<Block>& blocks) {
    if (box.stride(axis) != 1) throw RuntimeError("fft3d fused transpose: the box must be contiguous along the axis");
    check_blocks(axis, box, blocks);
    const Block& first = blocks.front();
    return first.stride[(axis + 1) % 3] < first.stride[(axis + 2) % 3] ? (axis + 1) % 3 : (axis + 2) % 3;
  }

 public:
  // body(c index, first b, lines in the chunk, scratch of scratch_bytes) for every chunk, in parallel.
  template <class Body>
  void for_each_chunk(int nc, std::size_t scratch_bytes, const Body& body) const {
    using Policy = Kokkos::TeamPolicy<HostExec>;
    Policy policy(nc * per_c, 1);
    if (scratch_bytes) policy.set_scratch_size(1, Kokkos::PerTeam(scratch_bytes));
    Kokkos::parallel_for("fft3d::fused_transpose_fft", policy, [&](const Policy::member_type& team) {
      const int ic = team.league_rank() / per_c, b0 = (team.league_rank() % per_c) * fused_chunk;
      void* scratch = scratch_bytes ? team.team_scratch(1).get_shmem(scratch_bytes) : nullptr;
      const int count = std::min(fused_chunk, nb - b0);
      body(ic, b0, count, count == fused_chunk ? full : last, static_cast<Complex*>(scratch));
    });
    Kokkos::fence();
  }
};

}  // namespace

void gather_fft(FFTKind kind, FFTPlanning planning, int axis, const std::vector<Block>& from, const Pencil& to,
                Complex* out) {
  const Stage st(kind, planning, axis, to, from, true);
  const int b = st.b, c = st.c;
  const long long tb = to.stride(b), tc = to.stride(c);
  st.for_each_chunk(to.n[c], 0, [&](int ic, int b0, int count, const ChunkPlan& plan, Complex*) {
    Complex* dst = out + ic * tc + b0 * tb;  // line l of the chunk: dst + l tb, contiguous along the axis
    for (const Block& k : from) {
      const Complex* src = k.base + ic * k.stride[c] + b0 * k.stride[b];
      Complex* d = dst + (k.lo[axis] - to.lo[axis]);
      const long long sa = k.stride[axis], sb = k.stride[b];
      for (int a = 0; a < k.n[axis]; ++a)
        for (int l = 0; l < count; ++l) d[l * tb + a] = src[a * sa + l * sb];
    }
    plan.execute(fft_input_at(plan, dst), fft_output_at(plan, dst));
  });
}

void fft_scatter(FFTKind kind, FFTPlanning planning, int axis, const Pencil& from, const Complex* in,
                 const std::vector<Block>& to) {
  const Stage st(kind, planning, axis, from, to, false);
  const int b = st.b, c = st.c, n = st.n;
  const long long fb = from.stride(b), fc = from.stride(c);
  st.for_each_chunk(from.n[c], sizeof(Complex) * fused_chunk * n,
                    [&](int ic, int b0, int count, const ChunkPlan& plan, Complex* buf) {
                      plan.execute(fft_input_at(plan, in + ic * fc + b0 * fb),
                                   fft_output_at(plan, buf));  // line l at buf + l n
                      for (const Block& k : to) {
                        Complex* dst = k.base + ic * k.stride[c] + b0 * k.stride[b];
                        const Complex* s = buf + (k.lo[axis] - from.lo[axis]);
                        const long long sa = k.stride[axis], sb = k.stride[b];
                        for (int a = 0; a < k.n[axis]; ++a)
                          for (int l = 0; l < count; ++l) dst[a * sa + l * sb] = s[l * n + a];
                      }
                    });
}

}  // namespace proxylab::fft3d
