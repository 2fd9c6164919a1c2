// What pop does differently on the build's default execution space: the one place it asks whether that space is the
// host (kokkos-fft keeps a back end per file for the same reason). The sources and tests branch on these names, which
// say what differs, never on the space itself.
#pragma once
#include "proxylab/layout.hpp"

namespace proxylab::pop::backend {

// Kernels finish before they return: a fenced timer region per phase of the iteration costs nothing, so the phases
// are timed by default (solver.phase_timers). On a device each fence is a host wait per kernel: the iterations are
// timed as one region there.
constexpr bool synchronous_kernels = mem_space_on_host;
// A CG step's coefficient (alpha, beta, ...) is evaluated once by the host before the launch, from the step scalars
// in the same memory, so that the kernel's loop keeps its vectorisation; on a device the kernel evaluates it at every
// point from device memory.
constexpr bool host_step_scalars = mem_space_on_host;
// The operator's coefficients are set up by the same code that runs the kernels: on the host they match a host
// reference bit for bit; a GPU's fused multiply-adds and divisions differ in the last bits.
constexpr bool setup_on_host = mem_space_on_host;

}  // namespace proxylab::pop::backend
