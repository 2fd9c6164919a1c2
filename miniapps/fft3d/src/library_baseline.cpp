#include "library_baseline.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <vector>

#ifdef PROXYLAB_DEVICE_FFT
#include <KokkosFFT.hpp>
#else
#include <cstring>

#include "proxylab/fftw_planning.hpp"
#endif

#include "proxylab/timers.hpp"

namespace proxylab::fft3d {
namespace {

// Median seconds of `repeats` calls of run() after one untimed call.
template <class Run>
double time_repeats(int repeats, const Run& run) {
  std::vector<double> t;
  for (int i = 0; i < repeats + 1; ++i) {
    const double t0 = MPI_Wtime();
    run();
    if (i > 0) t.push_back(MPI_Wtime() - t0);
  }
  return median(t);
}

double flops_of(const Pencil& box) {
  const double n = double(box.size());
  return 5.0 * n * std::log2(n);
}

}  // namespace

#ifdef PROXYLAB_DEVICE_FFT
LibraryBaseline library_3d_fft(const Pencil& box, const Field& u, int repeats, FFTPlanning) {
  using Grid = Kokkos::View<Complex***, Kokkos::LayoutRight, MemSpace>;
  const int nz = box.extent(0), ny = box.extent(1), nx = box.extent(2);
  Grid in("fft3d::baseline_in", nz, ny, nx), out("fft3d::baseline_out", nz, ny, nx);
  Kokkos::deep_copy(
      in, Kokkos::View<const Complex***, Kokkos::LayoutRight, MemSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
              u.data(), nz, ny, nx));
  KokkosFFT::Plan<ExecSpace, Grid, Grid, 3> plan(ExecSpace(), in, out, KokkosFFT::Direction::forward,
                                                 KokkosFFT::axis_type<3>{-3, -2, -1});
  const double seconds = time_repeats(repeats, [&] {
    KokkosFFT::execute(plan, in, out, KokkosFFT::Normalization::none);
    ExecSpace().fence();
  });
  return {std::string("kokkos-fft 3-D plan (") + ExecSpace::name() + ")", seconds, flops_of(box)};
}
#else
LibraryBaseline library_3d_fft(const Pencil& box, const Field& u, int repeats, FFTPlanning planning) {
  const long long n = box.size();
  fftw_complex* a = fftw_alloc_complex(n);
  fftw_complex* b = fftw_alloc_complex(n);
  bool cut_short = false;  // a stop came: the plan is not the full search's (the run ends as interrupted)
  fftw_plan plan = plan_fftw(
      fftw_planner_flag(planning),
      [&](unsigned flags) {
        return fftw_plan_dft_3d(box.extent(0), box.extent(1), box.extent(2), a, b, FFTW_FORWARD, flags);
      },
      &cut_short);
  if (!plan) throw RuntimeError("FFTW could not plan the serial 3-D transform of the library baseline");
  std::memcpy(a, u.data(), sizeof(fftw_complex) * n);
  const double seconds = time_repeats(repeats, [&] { fftw_execute(plan); });
  fftw_destroy_plan(plan);
  fftw_free(a);
  fftw_free(b);
  return {std::string("serial FFTW 3-D plan (") + fftw_planner_flag_name(planning) +
              (cut_short ? ", cut short by a stop)" : ")"),
          seconds, flops_of(box)};
}
#endif

}  // namespace proxylab::fft3d
