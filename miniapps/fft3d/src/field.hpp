// Complex grid data of the fft3d proxy: flat views in the default memory space (host memory on host back ends,
// device memory on a GPU), indexed through a Pencil's memory order.
#pragma once
#include <Kokkos_Core.hpp>
#include <string>

#include "proxylab/comm/mpi_buffer.hpp"
#include "proxylab/layout.hpp"

namespace proxylab::fft3d {

using Complex = Kokkos::complex<double>;
using Field = View1D<Complex>;  // the FFT layer transforms them, the reshapes copy them
using RealField = View1D<double>;
using TransposeBuffer = MPIBuffer<Complex>;  // what a reshape packs for MPI and unpacks from it

inline Field make_field(const char* name, long long n) { return Field(std::string(name), size_t(n > 0 ? n : 1)); }

}  // namespace proxylab::fft3d
