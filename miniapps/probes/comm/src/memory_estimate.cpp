// Peak memory of one comm-probe rank (see memory_estimate.hpp).
#include "memory_estimate.hpp"

#include <algorithm>

namespace proxylab::comm {
namespace {

template <class T>
double largest(const std::vector<T>& v) {
  return v.empty() ? 0.0 : double(*std::max_element(v.begin(), v.end()));
}

MemoryEstimate of_test(const std::string& t, const Settings& s) {
  MemoryEstimate e;
  if (t == "pingpong" || t == "echo" || t == "swap") e.host("message buffers (out, in)", 2, largest(s.sizes));
  if (t == "ring")
    e.host("ring buffers (out, one in per partner)", 1 + largest(s.ring_partners), largest(s.ring_bytes));
  if (t == "halo") {
    const double tile = largest(s.halo_tiles), w = largest(s.halo_widths);
    e.view("comm::halo_fields", s.halo_fields * (tile + 2 * w) * (tile + 2 * w), sizeof(double))
        .view("halo buffers", 1, halo_buffer_bytes(true, tile, tile, w, s.halo_fields, 2, 2));
  }
  if (t == "halo3d") {
    const double n = largest(s.halo3d_sizes);
    e.view("comm::halo3d_field", (n + 2) * (n + 2) * (n + 2), sizeof(double))
        .view("comm::halo3d_send, recv", 2 * 6 * n * n, sizeof(double));
  }
  if (t == "alltoall") {
    const double block = std::max(8.0, largest(s.alltoall_sizes)) * std::max(1.0, largest(s.group_sizes));
    const bool padded = std::any_of(s.transpose_strategies.begin(), s.transpose_strategies.end(),
                                    [](const std::string& x) { return x == "alltoall" || x == "node_aware"; });
    e.host("all-to-all send, recv", 2, block)
        .host("alltoall padding / node_aware leader buffers", padded ? 2 : 0, block);
  }
  return e;
}

}  // namespace

MemoryEstimate estimate_memory(const Settings& s) {
  MemoryEstimate peak;
  for (const auto& t : s.tests) {
    MemoryEstimate e = of_test(t, s);
    if (e.bytes() > peak.bytes()) peak = e;
  }
  return peak;
}

}  // namespace proxylab::comm
