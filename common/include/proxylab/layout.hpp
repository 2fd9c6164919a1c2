// View aliases. LayoutRight (C order, last index contiguous) is the default everywhere; the Layout
// parameter lets a kernel or a lesson compare layouts at compile time.
#pragma once
#include <Kokkos_Core.hpp>

namespace proxylab {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using MemSpace = ExecSpace::memory_space;
// The host execution space: loops over data that host libraries (FFTW, BLAS, MPI) touch, and host-side set-up.
using HostExec = Kokkos::DefaultHostExecutionSpace;

template <class T, class Layout = Kokkos::LayoutRight>
using View1D = Kokkos::View<T*, Layout, MemSpace>;
template <class T, class Layout = Kokkos::LayoutRight>
using View2D = Kokkos::View<T**, Layout, MemSpace>;
template <class T, class Layout = Kokkos::LayoutRight>
using View3D = Kokkos::View<T***, Layout, MemSpace>;
template <class T, class Layout = Kokkos::LayoutRight>
using View4D = Kokkos::View<T****, Layout, MemSpace>;

}  // namespace proxylab
