// Memory estimates against the memory a rank may use (see memory_budget.hpp).
#include "proxylab/memory_budget.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "proxylab/comm/gather.hpp"
#include "proxylab/device.hpp"
#include "proxylab/errors.hpp"
#include "proxylab/report.hpp"

namespace proxylab {
namespace {

constexpr double unknown_bytes = std::numeric_limits<double>::infinity();

// MemAvailable of /proc/meminfo in bytes (infinite when unknown).
double meminfo_available() {
  std::ifstream in("/proc/meminfo");
  std::string name;
  double kib = 0;
  std::string unit;
  while (in >> name >> kib) {
    std::getline(in, unit);
    if (name == "MemAvailable:") return kib * 1024.0;
  }
  return unknown_bytes;
}

// Headroom of this process's cgroup v2 (memory.max - memory.current), infinite without a limit.
double cgroup_available() {
  std::ifstream self("/proc/self/cgroup");
  std::string line, path;
  while (std::getline(self, line))
    if (line.rfind("0::", 0) == 0) path = line.substr(3);
  if (path.empty()) return unknown_bytes;
  const std::string dir = "/sys/fs/cgroup" + (path == "/" ? std::string() : path);
  std::string max_text;
  double current = 0;
  if (!(std::ifstream(dir + "/memory.max") >> max_text) || max_text == "max") return unknown_bytes;
  if (!(std::ifstream(dir + "/memory.current") >> current)) current = 0;
  char* end = nullptr;
  const double max = std::strtod(max_text.c_str(), &end);
  if (*end != '\0') return unknown_bytes;
  return std::max(0.0, max - current);
}

// Headroom of this process's address-space limit (RLIMIT_AS, `ulimit -v`): the limit less what is mapped now;
// infinite without a limit.
double address_space_headroom() {
  struct rlimit lim {};
  if (getrlimit(RLIMIT_AS, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY) return unknown_bytes;
  double pages = 0;
  std::ifstream("/proc/self/statm") >> pages;
  return std::max(0.0, double(lim.rlim_cur) - pages * double(sysconf(_SC_PAGESIZE)));
}

void node_available(double& bytes, std::string& source) {
  if (const char* env = std::getenv("PROXYLAB_AVAILABLE_MEMORY")) {
    bytes = parse_memory_bytes(env);
    source = "PROXYLAB_AVAILABLE_MEMORY";  // checked on every rank first
    return;
  }
  const double mem = meminfo_available(), cg = cgroup_available();
  bytes = std::min(mem, cg);
  source = cg < mem ? "cgroup memory.max - memory.current" : std::isinf(mem) ? "unknown" : "MemAvailable";
}

}  // namespace

double parse_memory_bytes(const std::string& text) {
  const char* s = text.c_str();
  char* end = nullptr;
  const double v = std::strtod(s, &end);
  if (end == s || !std::isfinite(v) || v <= 0) return -1;
  std::string unit(end);
  std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return std::toupper(c); });
  const std::vector<std::string> prefixes = {"K", "M", "G", "T"};
  if (unit.empty() || unit == "B") return v;
  for (size_t k = 0; k < prefixes.size(); ++k)
    if (unit == prefixes[k] || unit == prefixes[k] + "B" || unit == prefixes[k] + "IB")
      return v * std::pow(1024.0, double(k + 1));
  return -1;
}

std::string available_memory_problem() {
  const char* env = std::getenv("PROXYLAB_AVAILABLE_MEMORY");
  if (!env || parse_memory_bytes(env) > 0) return "";
  return "environment variable PROXYLAB_AVAILABLE_MEMORY has value " + excerpt(env) +
         "; allowed: a positive number of bytes per node, optionally with a binary suffix K, M, G or T (e.g. "
         "17179869184, 16e9, 16G, 16GiB)";
}

MemoryEstimate::MemoryEstimate() {
  view("Kokkos per-thread reduction and team buffers", host_threads(), kokkos_buffers_per_thread);
}

MemoryEstimate& MemoryEstimate::view(const std::string& what, double count, double bytes_each) {
  if (count * bytes_each > 0) items_.push_back({what, count * bytes_each, true});
  return *this;
}
MemoryEstimate& MemoryEstimate::host(const std::string& what, double count, double bytes_each) {
  if (count * bytes_each > 0) items_.push_back({what, count * bytes_each, false});
  return *this;
}

double MemoryEstimate::view_bytes() const {
  double b = 0;
  for (const auto& it : items_) b += it.view ? it.bytes : 0;
  return b;
}
double MemoryEstimate::bytes() const {
  double b = 0;
  for (const auto& it : items_) b += it.bytes;
  return b;
}

std::string MemoryEstimate::breakdown(Part part) const {
  std::vector<Item> sorted;
  for (const auto& it : items_)
    if (part == Part::all || it.view == (part == Part::views)) sorted.push_back(it);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Item& a, const Item& b) { return a.bytes > b.bytes; });
  std::string out;
  const size_t shown = std::min<size_t>(sorted.size(), 4);
  for (size_t k = 0; k < shown; ++k) out += (k ? ", " : "") + sorted[k].what + " " + format_bytes(sorted[k].bytes);
  if (sorted.size() > shown) out += ", ...";
  return out;
}

double halo_buffer_bytes(bool rma, double nx, double ny, double w, double nf, int x_sides, int y_sides) {
  const double list = nf * w * (x_sides * ny + y_sides * nx + double(x_sides) * y_sides * w);  // edges + corners
  const double window = 8 * nf * w * std::max(nx, ny);
  return sizeof(double) * (list + (rma ? window : list));
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024.0 && u < 6) {
    bytes /= 1024.0;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.2f %s", bytes, units[u]);
  return buf;
}

MemoryAvailable available_memory(MPI_Comm comm) {
  MPI_Comm node;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MemoryAvailable a;
  int node_rank = 0;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_size(node, &a.ranks_on_node);
  if (node_rank == 0) node_available(a.node_bytes, a.source);
  MPI_Bcast(&a.node_bytes, 1, MPI_DOUBLE, 0, node);
  a.source = broadcast_text(node, a.source);
  MPI_Comm_free(&node);
  return a;
}

void require_memory(MPI_Comm comm, const MemoryEstimate& estimate, const std::string& keys) {
  collective_check<InputError>(comm, available_memory_problem().empty(), available_memory_problem());
  const MemoryAvailable a = available_memory(comm);
  const bool device = !mem_space_on_host;  // the Views live in device memory
  const auto host_part = device ? MemoryEstimate::Part::host : MemoryEstimate::Part::all;
  const double need = device ? estimate.bytes() - estimate.view_bytes() : estimate.bytes();
  std::ostringstream why;
  why << "the run needs an estimated " << format_bytes(need) << (device ? " of host memory" : "") << " per rank ("
      << estimate.breakdown(host_part) << ") but a rank may use " << format_bytes(a.per_rank()) << " (" << a.source
      << " " << format_bytes(a.node_bytes) << " on this node / " << a.ranks_on_node << " rank"
      << (a.ranks_on_node > 1 ? "s" : "") << " there); allowed: a problem that fits: change " << keys
      << ", or spread it over more nodes";
  collective_check<InputError>(comm, need <= a.per_rank(), why.str());
  // Each rank's own address-space limit (ulimit -v): a run past it would die in an allocation, seconds later.
  const double headroom = address_space_headroom();
  std::ostringstream as;
  as << "the run needs an estimated " << format_bytes(estimate.bytes()) << " per rank (" << estimate.breakdown()
     << ") but this process's address-space limit (RLIMIT_AS, ulimit -v) leaves " << format_bytes(headroom)
     << "; allowed: a problem that fits: change " << keys << ", spread it over more ranks, or raise ulimit -v";
  collective_check<InputError>(comm, estimate.bytes() <= headroom, as.str());
  if (!device) return;
  const DeviceInfo d = device_info();
  const int sharing = d.devices_on_node > 0 ? (a.ranks_on_node + d.devices_on_node - 1) / d.devices_on_node : 1;
  const double share = d.free_bytes > 0 ? d.free_bytes / sharing : std::numeric_limits<double>::infinity();
  std::ostringstream dev;
  dev << "the run needs an estimated " << format_bytes(estimate.view_bytes()) << " of device memory per rank ("
      << estimate.breakdown(MemoryEstimate::Part::views) << ") but the device (" << d.name << ", "
      << format_bytes(d.free_bytes) << " free of " << format_bytes(d.total_bytes) << ", shared by " << sharing
      << " rank" << (sharing > 1 ? "s" : "") << ") gives a rank " << format_bytes(share)
      << "; allowed: a problem that fits: change " << keys << ", or spread it over more devices";
  collective_check<InputError>(comm, estimate.view_bytes() <= share, dev.str());
}

}  // namespace proxylab
