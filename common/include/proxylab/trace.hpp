// Optional per-rank timeline: spans of compute and communication, written as one Chrome trace JSON
// file (pid = rank, numeric microseconds since rank 0's epoch, each rank's clock offset estimated by
// ping-pong with rank 0), viewable in
// Perfetto (ui.perfetto.dev) and drawn by `./proxylab gantt`.
#pragma once
#include <mpi.h>

#include <string>
#include <vector>

#include "proxylab/output_file.hpp"

namespace proxylab {

enum class Category { compute, communication, io, other };
const char* to_string(Category c);

class Trace {
 public:
  // Collective over comm (barrier to align the epoch). A disabled trace records nothing.
  Trace(MPI_Comm comm, bool enabled, size_t max_spans = 2'000'000);

  bool enabled() const { return enabled_; }
  double now() const { return MPI_Wtime() - epoch_; }  // seconds since the common epoch
  void span(const std::string& name, Category cat, double t_begin, double t_end);
  size_t dropped() const { return dropped_; }

  // Collective: gathers every rank's spans on rank 0, which writes them to `out` (atomically, checked).
  // Returns the span count.
  size_t write(OutputFile& out) const;

 private:
  void align_epoch();
  struct Span {
    std::string name;
    Category cat;
    double t0, t1;
  };
  MPI_Comm comm_;
  bool enabled_;
  size_t max_spans_, dropped_ = 0;
  double epoch_ = 0;
  std::vector<Span> spans_;
};

}  // namespace proxylab
