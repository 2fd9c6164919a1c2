// The largest stable time step of the model's explicit leapfrog (shallow_water.cpp: every term explicit, Robert–Asselin
// filtered) for a test case at truncation N, from a linear analysis about the case's initial state:
// * Locally, a wave of total wavenumber k in a flow of wind v, geopotential Φ and Coriolis parameter f oscillates at
//   most at ω = |v| k + sqrt(Φ k² + f²): an inertia–gravity wave (phase speed sqrt(Φ)) Doppler-shifted by the wind
//   (Rossby waves are slower). The largest wavenumber the truncation holds is k = sqrt(N(N+1))/a (the Laplacian's
//   eigenvalue -n(n+1)/a² at n = N), the spectral model's CFL condition.
// * The leapfrog with the Robert–Asselin filter ν, applied to dy/dt = iωy, is stable for |ω dt| <= sqrt((1-ν)/(1+ν)):
//   its amplification factors are the roots of A² - 2(ν + iωdt) A + 2ν - 1 + 2iνωdt = 0 (1 without the filter).
// The largest ω over the initial state bounds the fastest mode; the run keeps ω dt within the filtered leapfrog's bound
// with no further safety factor (README: the measured thresholds lie above it at every truncation and case tried).
#pragma once

#include "shallow_water.hpp"

namespace proxylab::pstswm {

// The largest |ω dt| for which the Robert–Asselin filtered leapfrog (filter coefficient `asselin`) is stable.
double leapfrog_stability_bound(double asselin);

// The fastest local wave of the test case's initial state at truncation N: ω [1/s] and the wind and phase speed
// sqrt(Φ) [m/s] where it is reached.
struct FastestWave {
  double frequency = 0, wind = 0, phase_speed = 0;
};
FastestWave fastest_wave(const ModelOptions& model, int ntrunc, int levels);

// The largest stable time step [s]: leapfrog_stability_bound / fastest_wave's frequency.
double stable_time_step(const ModelOptions& model, int ntrunc, int levels);

}  // namespace proxylab::pstswm
