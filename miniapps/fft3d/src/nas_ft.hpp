// The NAS Parallel Benchmarks FT recipe (NPB 3.x ft.f; docs/references.md, fft3d):
//   u0 = 2 nx ny nz draws of the 46-bit LCG x <- a x mod 2^46 (a = 5^13, seed 314159265), returned
//        as x 2^-46, (re, im) interleaved, x fastest then y then z;
//   U0 = forward FFT(u0); per iteration t: U0 *= exp(-4 alpha pi^2 |kbar|^2) (so U0(t) = U0 e^{-4 alpha pi^2 |kbar|^2
//   t}),
//        u1 = inverse FFT(U0), checksum_t = sum_{j=1..1024} u1(j mod nx, 3j mod ny, 5j mod nz) / (nx ny nz).
#pragma once
#include <mpi.h>

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "decomposition.hpp"
#include "field.hpp"

namespace proxylab::fft3d::nas {

constexpr std::uint64_t lcg_a = 1220703125ULL;  // 5^13
constexpr std::uint64_t lcg_seed = 314159265ULL;
constexpr double alpha = 1.0e-6;

// a * x mod 2^46 for a, x < 2^46, exact in 64-bit integers (NPB's randlc does it in doubles).
KOKKOS_INLINE_FUNCTION std::uint64_t mulmod46(std::uint64_t a, std::uint64_t x) {
  const std::uint64_t m23 = (1ULL << 23) - 1, m46 = (1ULL << 46) - 1;
  const std::uint64_t a1 = a >> 23, a0 = a & m23, x1 = x >> 23, x0 = x & m23;
  const std::uint64_t mid = (a1 * x0 + a0 * x1) & m23;
  return ((mid << 23) + a0 * x0) & m46;
}
KOKKOS_INLINE_FUNCTION std::uint64_t powmod46(std::uint64_t a, std::uint64_t k) {  // a^k mod 2^46
  std::uint64_t r = 1;
  while (k) {
    if (k & 1) r = mulmod46(r, a);
    a = mulmod46(a, a);
    k >>= 1;
  }
  return r;
}

// The kernels run on the default execution space, over fields in its memory.
// The initial field on a pencil laid out (z, y, x) (the X stage).  // NPB FT: compute_initial_conditions
void initial_field(const Pencil& p, const int global[3], const Field& u);

// exp(-4 alpha pi^2 |kbar|^2) for every point of a (spectral) pencil.  // NPB FT: compute_indexmap
RealField twiddle(const Pencil& p, const int global[3], double alpha_value);
void evolve(const Field& u, const RealField& tw);  // u *= tw   // NPB FT: evolve

// Collective: the NPB checksum of u (X-stage pencil), identical bits on every decomposition.
std::complex<double> checksum(const Pencil& p, const int global[3], const Field& u, MPI_Comm comm);

// Published per-iteration checksums of NPB's verify() for classes S, W, A, B, C, or empty when
// (nx, ny, nz, iterations) is not one of them. `name` gets "S", "W", "A", "B", "C" or "".
std::vector<std::complex<double>> reference_checksums(int nx, int ny, int nz, int iterations, std::string* name);

// NPB's "Mop/s total" of FT: its operation count for N = nx ny nz points and `iterations` steps,
// N (14.8157 + 7.19641 ln N + (5.23518 + 7.21113 ln N) iterations), over `seconds`, in millions.
// NPB FT: the mflops formula of ft.f's main program
double npb_mops(double points, int iterations, double seconds);

}  // namespace proxylab::fft3d::nas
