// Gaussian latitudes and weights (STSWM glats): Newton iteration on P_N(μ) from the guess
// cos(π(4i+3)/(4N+2)), weights 2(1-μ²)/(N P_{N-1}(μ))². Ordered north to south: mu[0] is closest to
// the north pole; mu[nlat-1-j] = -mu[j].
#pragma once
#include <vector>

namespace proxylab::pstswm {

struct GaussGrid {
  std::vector<double> mu, weight;  // sin(latitude), Gaussian weight (sum 2)
};
GaussGrid gauss_grid(int nlat);

}  // namespace proxylab::pstswm
