#include "checks.hpp"

#include <fftw3.h>

#include <algorithm>
#include <cmath>

namespace proxylab::fft3d {

using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long long>>;

double global_energy(const Field& u, long long n, MPI_Comm comm) {
  double local = 0, global = 0;
  Kokkos::parallel_reduce(
      "fft3d::energy", Range(0, n),
      KOKKOS_LAMBDA(long long i, double& s) { s += u(i).real() * u(i).real() + u(i).imag() * u(i).imag(); }, local);
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, comm);
  return global;
}

double max_relative_difference(const Field& u, const Field& v, long long n, double scale, MPI_Comm comm) {
  double local[2] = {0, 0}, global[2];
  const double inv = 1.0 / scale;
  Kokkos::parallel_reduce(
      "fft3d::max_difference", Range(0, n),
      KOKKOS_LAMBDA(long long i, double& m) {
        const double d = Kokkos::abs(v(i) * inv - u(i));
        m = d > m ? d : m;
      },
      Kokkos::Max<double>(local[0]));
  Kokkos::parallel_reduce(
      "fft3d::max_magnitude", Range(0, n),
      KOKKOS_LAMBDA(long long i, double& m) {
        const double a = Kokkos::abs(u(i));
        m = a > m ? a : m;
      },
      Kokkos::Max<double>(local[1]));
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, comm);
  return global[1] > 0 ? global[0] / global[1] : global[0];
}

std::vector<std::complex<double>> gather_global(const DistributedFFT& fft, const Field& local, bool x_stage) {
  const Decomposition& d = fft.decomposition();
  MPI_Comm comm = fft.comm();
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<Pencil> pieces(size);
  std::vector<int> counts(size), displs(size);
  long long total = 0;
  for (int q = 0; q < size; ++q) {
    const int r = q % d.p_row, c = q / d.p_row;  // ProcessGrid rank = c * p_row + r
    pieces[q] = x_stage ? d.x_pencil(r, c) : d.z_pencil(r, c);
    counts[q] = int(2 * pieces[q].size());
    displs[q] = int(2 * total);
    total += pieces[q].size();
  }
  std::vector<std::complex<double>> packed(rank == 0 ? total : 0), global;
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), local);  // MPI gets host memory
  MPI_Gatherv(host.data(), counts[rank], MPI_DOUBLE, packed.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, comm);
  if (rank != 0) return global;
  global.resize(total);
  const int nx = d.global[0], ny = d.global[1];
  long long k = 0;
  for (const Pencil& p : pieces) {
    int m[3];
    for (m[0] = 0; m[0] < p.extent(0); ++m[0])
      for (m[1] = 0; m[1] < p.extent(1); ++m[1])
        for (m[2] = 0; m[2] < p.extent(2); ++m[2]) {
          int g[3];
          for (int dim = 0; dim < 3; ++dim) g[p.order[dim]] = p.lo[p.order[dim]] + m[dim];
          global[((long long)g[2] * ny + g[1]) * nx + g[0]] = packed[k++];
        }
  }
  return global;
}

double serial_reference_error(const DistributedFFT& fft, const Field& u, const Field& spectrum) {
  auto in = gather_global(fft, u, true);
  auto out = gather_global(fft, spectrum, false);
  double err = 0;
  int rank = 0;
  MPI_Comm_rank(fft.comm(), &rank);
  if (rank == 0) {
    const int* g = fft.decomposition().global;
    std::vector<std::complex<double>> ref(in.size());
    fftw_plan plan = fftw_plan_dft_3d(g[2], g[1], g[0], reinterpret_cast<fftw_complex*>(in.data()),
                                      reinterpret_cast<fftw_complex*>(ref.data()), FFTW_FORWARD, FFTW_ESTIMATE);
    fftw_execute(plan);
    fftw_destroy_plan(plan);
    double diff = 0, norm = 0;
    for (size_t i = 0; i < ref.size(); ++i) {
      diff += std::norm(out[i] - ref[i]);
      norm += std::norm(ref[i]);
    }
    err = norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff);
  }
  MPI_Bcast(&err, 1, MPI_DOUBLE, 0, fft.comm());
  return err;
}

}  // namespace proxylab::fft3d
