// Fully normalized associated Legendre functions P̄_n^m(μ) (∫_{-1}^{1} P̄² dμ = 1) for the extended
// triangular layout (n = m .. N+1) at the northern latitude of each local north/south pair.
// STSWM: epslon / pln. Stable to T680 and beyond: the seed P̄_m^m ∝ (1-μ²)^{m/2} underflows double
// precision near the poles at high m, so the column recurrence runs on numbers with an extended
// exponent (mantissa + integer power of two; Fukushima 2012, in the spirit of Holmes & Featherstone
// 2002) and values below 1e-290 are flushed to zero (no denormals enter the transforms).
#pragma once
#include <vector>

#include "proxylab/layout.hpp"
#include "truncation.hpp"

namespace proxylab::pstswm {

// P̄_n^m(μ) for one wavenumber m, n = m .. nmax, into out[0 .. nmax-m].
void legendre_column(int m, int nmax, double mu, double* out);

// The column recurrence's numbers with the extended exponent: value = mantissa * 2^exponent, exponent a multiple of
// legendre_scale_bits (0 once back at unit scale).
constexpr int legendre_scale_bits = 256;
struct ScaledValue {
  double mantissa = 0;
  int exponent = 0;
};
// The seed P̄_m^m(μ) (the column's first value).
ScaledValue legendre_seed(int m, double mu);
// A scaled value as the transforms take it: 0 below 1e-290 (no denormals).
double legendre_value(double mantissa, int exponent);

// Table for wavenumbers `layout.ms` and the given northern sines of latitude: row-major, per
// wavenumber a (N+2-m) x npairs block at layout.offset[i] * npairs.
View1D<double> legendre_table(const SpectralLayout& layout, const std::vector<double>& mu_pairs);

}  // namespace proxylab::pstswm
