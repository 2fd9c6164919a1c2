// View aliases. LayoutRight (C order, last index contiguous) is the default everywhere; the Layout
// parameter lets a kernel or a lesson compare layouts at compile time.
#pragma once
#include <Kokkos_Core.hpp>

namespace proxylab {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using MemSpace = ExecSpace::memory_space;
// The default views live in host memory (host back ends; false with CUDA, HIP, SYCL): where false, MPI and host
// libraries reach them only through a mirror.
constexpr bool mem_space_on_host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemSpace>::accessible;
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

// Data that host libraries touch (FFTW, BLAS, memcpy, MPI without GPU-aware support): explicitly in host memory,
// whatever the default execution space is (on a host back end the same type as View1D..4D). Data that must move
// between a default-space View and such a library goes through an explicit mirror at that boundary.
template <class DataType, class Layout = Kokkos::LayoutRight>
using HostView = Kokkos::View<DataType, Layout, Kokkos::HostSpace>;

// Elements [first, first + count) of a 1-D View, as a View of the same memory (for deep_copy of a part).
template <class V>
auto elements(const V& v, size_t first, size_t count) {
  return Kokkos::subview(v, std::make_pair(first, first + count));
}

// Compile-time check that ExecSpace can reach the memory of every view given (as Cabana does with
// Kokkos::SpaceAccessibility): called where a policy of ExecSpace runs over views, so that a device build fails
// to compile there, not at run time, when a host loop meets device data.
template <class ExecSpace, class... Views>
constexpr void require_accessible(const Views&...) {
  static_assert((Kokkos::SpaceAccessibility<ExecSpace, typename Views::memory_space>::accessible && ...),
                "proxylab: a View is not accessible from the execution space that runs over it");
}

}  // namespace proxylab
