#include "decomposition.hpp"

#include <algorithm>
#include <string>

#include "proxylab/errors.hpp"

namespace proxylab::pstswm {

Decomposition::Decomposition(int nlat, int ntrunc_, int ranks_, int rank_)
    : ranks(ranks_), rank(rank_), npairs(nlat / 2), ntrunc(ntrunc_) {
  if (ranks > max_ranks(nlat, ntrunc))
    throw InputError("cannot decompose " + std::to_string(nlat) + " latitudes (" + std::to_string(npairs) +
                     " north/south pairs) and " + std::to_string(ntrunc + 1) + " wavenumbers over " +
                     std::to_string(ranks) + " MPI ranks: allowed at most " + std::to_string(max_ranks(nlat, ntrunc)) +
                     " ranks for this grid");
  for (int r = 0; r < ranks; ++r) pairs.push_back(split_range(npairs, ranks, r));
  ms.assign(ranks, {});
  std::vector<long> load(ranks, 0);
  for (int m = 0; m <= ntrunc; ++m) {  // largest cost first (m ascending = rows descending)
    const int r = int(std::min_element(load.begin(), load.end()) - load.begin());
    ms[r].push_back(m);
    load[r] += ntrunc + 2 - m;
  }
  concat_begin.push_back(0);
  for (int r = 0; r < ranks; ++r) {
    concat_ms.insert(concat_ms.end(), ms[r].begin(), ms[r].end());
    concat_begin.push_back(int(concat_ms.size()));
  }
}

}  // namespace proxylab::pstswm
