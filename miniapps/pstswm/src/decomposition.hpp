// PSTSWM's 1-D decomposition over latitude: north/south pairs of Gaussian latitudes stay together
// (the even/odd split of the Legendre transform needs both), pairs are split in nearly equal blocks.
// Zonal wavenumbers are dealt to ranks for the wavenumber decomposition of the `transpose`
// algorithm (and the spectral ownership of `distributed` with reduce-scatter): greedy by cost
// (N + 2 - m rows each), largest first, so the triangular truncation is balanced.
#pragma once
#include <algorithm>
#include <vector>

#include "proxylab/comm/grid.hpp"

namespace proxylab::pstswm {

struct Decomposition {
  int ranks = 1, rank = 0, npairs = 0, ntrunc = 0;
  std::vector<BlockRange> pairs;     // per rank: [begin, end) of latitude pairs
  std::vector<std::vector<int>> ms;  // per rank: wavenumbers owned (ascending)
  std::vector<int> concat_ms;        // ms[0], ms[1], ... concatenated (rank-major order)
  std::vector<int> concat_begin;     // first index of rank r's wavenumbers in concat_ms (size ranks+1)

  // Throws InputError (same on all ranks) when a rank would own no latitude pair.
  Decomposition(int nlat, int ntrunc, int ranks, int rank);
  // The most ranks a grid decomposes over: one latitude pair and one wavenumber each at least.
  static int max_ranks(int nlat, int ntrunc) { return std::min(nlat / 2, ntrunc + 1); }
  const BlockRange& my_pairs() const { return pairs[rank]; }
  const std::vector<int>& my_ms() const { return ms[rank]; }
};

}  // namespace proxylab::pstswm
