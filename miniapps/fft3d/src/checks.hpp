// Self-checks of every fft3d run: Parseval's identity, the round trip inverse(forward(u)) = N u, and
// the forward result against one serial FFTW 3-D transform of the gathered field (small grids).
#pragma once
#include <complex>
#include <vector>

#include "distributed_fft.hpp"

namespace proxylab::fft3d {

// Collective: sum of |u|^2 over all ranks.
double global_energy(const Field& u, long long n, MPI_Comm comm);

// Collective: max |v / scale - u| / max |u| over all ranks (u, v on the same pencil).
double max_relative_difference(const Field& u, const Field& v, long long n, double scale, MPI_Comm comm);

// Collective over fft.comm(): the X-stage (x_stage = true) or Z-stage pieces gathered on rank 0 as
// one nx*ny*nz array, x fastest then y then z (empty on other ranks).
std::vector<std::complex<double>> gather_global(const DistributedFFT& fft, const Field& local, bool x_stage);

// Collective: ||F - FFTW3D(u)||_2 / ||FFTW3D(u)||_2, with u (X stage) and F (Z stage) gathered on rank 0.
double serial_reference_error(const DistributedFFT& fft, const Field& u, const Field& spectrum);

}  // namespace proxylab::fft3d
