// STREAM triad a = b + s c over n doubles, best of `repeats` (the bandwidth ceiling that the
// operator and vector updates are compared with, measured in the same run on the same array size).
#pragma once
#include "proxylab/mapping.hpp"

namespace proxylab::pop {

// Best bandwidth of this rank in GB/s (24 bytes per element, as STREAM counts).
double triad_bandwidth(long long n, int repeats, Mapping m);

}  // namespace proxylab::pop
