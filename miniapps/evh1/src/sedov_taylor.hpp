// The Sedov-Taylor similarity solution of a strong blast: energy E released at a point (nu = 3: a spherical blast)
// or along a line (nu = 2: a cylindrical blast, also the 2-D Cartesian x-y one, E per unit length) in gas of
// density rho0 and negligible pressure. The shock radius is R(t) = xi0 (E t^2 / rho0)^(1/(nu + 2)), where
// xi0 = alpha^(-1/(nu + 2)) and alpha is the energy integral of the similarity profiles (Sedov 1959, ch. IV;
// Kamm & Timmes 2007: docs/references.md, evh1). alpha depends on gamma and nu and is computed here, for any
// gamma > 1: 0.984074 (nu = 2) and 0.851072 (nu = 3) at gamma = 1.4.
#pragma once

namespace proxylab::evh1 {

struct SedovTaylor {
  int nu = 2;
  double gamma = 1.4;
  double alpha = 0;  // E = alpha rho0 R^(nu + 2) / t^2
  double xi0 = 0;    // alpha^(-1/(nu + 2))

  double radius(double energy, double rho0, double t) const;         // R(t)
  double time_at(double energy, double rho0, double r) const;        // the t with R(t) = r
  double shock_speed(double energy, double rho0, double t) const;    // dR/dt = 2 R / ((nu + 2) t)
  double density_jump() const { return (gamma + 1) / (gamma - 1); }  // behind the strong shock
};

// The solution for gamma > 1 and nu = 2 or 3: alpha from the similarity profiles integrated from the shock to the
// centre (sedov_taylor.cpp; relative accuracy 1e-9 over gamma = 1.01-5).
SedovTaylor sedov_taylor(double gamma, int nu);

}  // namespace proxylab::evh1
