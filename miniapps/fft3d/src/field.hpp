// Complex grid data of the fft3d proxy: flat host views (FFTW runs on the host), indexed through a
// Pencil's memory order.
#pragma once
#include <Kokkos_Core.hpp>
#include <string>

#include "proxylab/layout.hpp"

namespace proxylab::fft3d {

using Complex = Kokkos::complex<double>;
using Field = HostView<Complex*>;  // FFTW transforms them in place, MPI moves them
using RealField = HostView<double*>;

inline Field make_field(const char* name, long long n) { return Field(std::string(name), size_t(n > 0 ? n : 1)); }

}  // namespace proxylab::fft3d
