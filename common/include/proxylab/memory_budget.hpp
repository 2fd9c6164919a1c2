// Memory budget of a run. Before allocating, an app lists the arrays one rank will hold at its peak
// (a MemoryEstimate computed from the deck) and require_memory() refuses, on every rank alike, a run
// whose estimate exceeds what a rank may use: the node's available memory divided among the ranks
// that share the node (MPI_Comm_split_type SHARED). Available memory is MemAvailable from
// /proc/meminfo, lowered to the headroom of the process's cgroup (v2 memory.max - memory.current)
// where a batch system or container sets one; PROXYLAB_AVAILABLE_MEMORY=<bytes> replaces the detected
// per-node value (limits the detection cannot see, and tests).
#pragma once
#include <mpi.h>

#include <string>
#include <vector>

namespace proxylab {

class MemoryEstimate {
 public:
  // Kokkos' per-thread reduction and team buffers (OpenMP: 13 KB per thread measured in pop's sums), which
  // every app holds: an estimate starts with them, for each host thread.
  static constexpr double kokkos_buffers_per_thread = 16384;
  MemoryEstimate();

  struct Item {
    std::string what;  // "pop::operator (7 fields)"
    double bytes = 0;
    bool view = true;  // a Kokkos View (false: other heap memory: std::vector, FFTW buffers)
  };
  // count arrays of `bytes_each`; zero-byte items are left out.
  MemoryEstimate& view(const std::string& what, double count, double bytes_each);
  MemoryEstimate& host(const std::string& what, double count, double bytes_each);

  enum class Part { all, views, host };
  double view_bytes() const;  // what Kokkos allocates (the unit tests compare it with the Kokkos Tools hooks)
  double bytes() const;       // everything
  // "pop::operator (7 fields) 1.2 GiB, ...", largest first, of the items in `part`
  std::string breakdown(Part part = Part::all) const;
  const std::vector<Item>& items() const { return items_; }

 private:
  std::vector<Item> items_;
};

struct MemoryAvailable {
  double node_bytes = 0;  // available on this node (infinite when unknown)
  int ranks_on_node = 1;
  std::string source;  // "MemAvailable", "cgroup memory.max", "PROXYLAB_AVAILABLE_MEMORY" or "unknown"
  double per_rank() const { return node_bytes / ranks_on_node; }
};

// Collective over comm: the ranks of each node agree on one value (read by the node's first rank).
// PROXYLAB_AVAILABLE_MEMORY must hold a valid value (require_memory checks it first).
MemoryAvailable available_memory(MPI_Comm comm);

// PROXYLAB_AVAILABLE_MEMORY's value in bytes: a positive number with an optional binary suffix K, M, G, T (also
// KB/KiB, ...); -1 for anything else.
double parse_memory_bytes(const std::string& text);
// "" when PROXYLAB_AVAILABLE_MEMORY is unset or valid, else the message naming its value and what is allowed.
std::string available_memory_problem();

// Collective over comm: InputError on every rank (exit 2) when this rank's estimate exceeds its share (or its
// address-space limit, RLIMIT_AS), naming the estimate and its largest items, the available memory, and `keys`
// (what to change); also when PROXYLAB_AVAILABLE_MEMORY holds no valid value. Device builds
// check the Views against the device's free memory (shared by the ranks on one device) and the rest against the
// node's memory.
void require_memory(MPI_Comm comm, const MemoryEstimate& estimate, const std::string& keys);

// Buffers of a halo exchange (common/comm/halo.hpp) of nf fields on an nx x ny block with w ghost layers:
// send and receive lists of the edges and corners that have a neighbour (x_sides, y_sides: neighbours in x
// and y, 0..2); rma's receive window always holds 8 slots of the longest edge.
double halo_buffer_bytes(bool rma, double nx, double ny, double w, double nf, int x_sides, int y_sides);

// "1.50 GiB", "512 B", "3.2 TiB".
std::string format_bytes(double bytes);

}  // namespace proxylab
