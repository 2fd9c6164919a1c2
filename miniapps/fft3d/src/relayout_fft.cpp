#include "relayout_fft.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>

namespace proxylab::fft3d {
namespace {

// A serial plan for `count` lines of length n, stride 1, `dist` apart on the strided side.
const FFTPlan& chunk_plan(FFTKind kind, FFTPlanning planning, int n, int count, long long idist, long long odist,
                          bool in_place) {
  FFTShape sh;
  sh.kind = kind, sh.n = n, sh.istride = 1, sh.ostride = 1;
  sh.inner = {count, idist, odist};
  sh.in_place = in_place, sh.planning = planning, sh.threaded = false;
  return fft_plan(sh);
}

}  // namespace

bool relayout_fft_applies(int axis, const Pencil& from, const Pencil& to) {
  return (from.stride(axis) == 1) != (to.stride(axis) == 1);
}

void relayout_fft(FFTKind kind, FFTPlanning planning, int axis, const Pencil& from, const Complex* in, const Pencil& to,
                  Complex* out) {
  const bool into_place = to.stride(axis) == 1;  // forward: copy, then transform in the new layout
  const Pencil& strided = into_place ? from : to;  // the layout whose contiguous axis is not `axis`
  const int b = strided.order[2], c = 3 - axis - b;
  const int n = from.n[axis], nb = from.n[b], nc = from.n[c];
  const long long fa = from.stride(axis), fb = from.stride(b), fc = from.stride(c);
  const long long ta = to.stride(axis), tb = to.stride(b), tc = to.stride(c);
  const int C = relayout_chunk, chunks_b = (nb + C - 1) / C;
  // the plans of a full and of the last chunk, made here: FFTW's planner must not run inside the parallel loop
  auto plan_for = [&](int count) -> const FFTPlan& {
    return into_place ? chunk_plan(kind, planning, n, count, tb, tb, true)
                      : chunk_plan(kind, planning, n, count, fb, n, false);
  };
  const FFTPlan* full = &plan_for(std::min(C, nb));
  const FFTPlan* last = &plan_for(nb - (chunks_b - 1) * C);
  using Policy = Kokkos::TeamPolicy<HostExec>;
  const std::size_t buffer_bytes = into_place ? 0 : sizeof(Complex) * C * n;
  Policy policy(nc * chunks_b, 1);
  if (buffer_bytes) policy.set_scratch_size(1, Kokkos::PerTeam(buffer_bytes));
  Kokkos::parallel_for("fft3d::relayout_fft", policy, [=](const Policy::member_type& team) {
    const int ic = team.league_rank() / chunks_b, b0 = (team.league_rank() % chunks_b) * C;
    const int count = std::min(C, nb - b0);
    const FFTPlan& plan = count == C ? *full : *last;
    const Complex* src = in + ic * fc + b0 * fb;
    Complex* dst = out + ic * tc + b0 * tb;
    if (into_place) {
      for (int a = 0; a < n; ++a)  // line l of the chunk is contiguous along `axis` in `to`
        for (int l = 0; l < count; ++l) dst[l * tb + a] = src[a * fa + l];
      plan.execute(dst, dst);
    } else {
      Complex* buf = static_cast<Complex*>(team.team_scratch(1).get_shmem(buffer_bytes));
      plan.execute(src, buf);  // line l of the chunk at buf + l n
      for (int a = 0; a < n; ++a)
        for (int l = 0; l < count; ++l) dst[a * ta + l] = buf[l * n + a];
    }
  });
  Kokkos::fence();
}

}  // namespace proxylab::fft3d
