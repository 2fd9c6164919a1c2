// BabelStream's check: the five kernels replayed on one scalar per array (every element of an array starts with
// the same value and keeps it), to compare the arrays and the dot product with after a run.
#pragma once
#include "stream_kernels.hpp"

namespace proxylab::stream {

struct Gold {
  double a = init_a, b = init_b, c = init_c, dot = 0;
};

inline void replay_iteration(Gold& g, double scalar) {  // copy, mul, add, triad
  g.c = g.a;
  g.b = scalar * g.c;
  g.c = g.a + g.b;
  g.a = g.b + scalar * g.c;
}

// The values after `iterations` iterations on arrays of n elements.
inline Gold replay(int iterations, double scalar, long long n) {
  Gold g;
  for (int it = 0; it < iterations; ++it) replay_iteration(g, scalar);
  g.dot = g.a * g.b * double(n);
  return g;
}

}  // namespace proxylab::stream
