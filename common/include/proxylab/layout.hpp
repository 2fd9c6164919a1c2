// View aliases and the run-time layout choice. LayoutRight (C order, last index contiguous) is the
// default everywhere; apps that let a user compare layouts take a `layout` deck key and dispatch once.
#pragma once
#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

namespace proxylab {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using MemSpace = ExecSpace::memory_space;

template <class T, class Layout = Kokkos::LayoutRight>
using View1D = Kokkos::View<T*, Layout, MemSpace>;
template <class T, class Layout = Kokkos::LayoutRight>
using View2D = Kokkos::View<T**, Layout, MemSpace>;
template <class T, class Layout = Kokkos::LayoutRight>
using View3D = Kokkos::View<T***, Layout, MemSpace>;
template <class T, class Layout = Kokkos::LayoutRight>
using View4D = Kokkos::View<T****, Layout, MemSpace>;

enum class LayoutChoice { right, left };

inline const std::vector<std::string>& layout_names() {
  static const std::vector<std::string> names{"right", "left"};
  return names;
}
inline LayoutChoice parse_layout(const std::string& s) { return s == "left" ? LayoutChoice::left : LayoutChoice::right; }
inline const char* to_string(LayoutChoice l) { return l == LayoutChoice::left ? "left" : "right"; }

}  // namespace proxylab
