// Chrome-trace writer (see trace.hpp).
#include "proxylab/trace.hpp"

#include <nlohmann/json.hpp>

#include "proxylab/comm/gather.hpp"

namespace proxylab {

const char* to_string(Category c) {
  switch (c) {
    case Category::compute:
      return "compute";
    case Category::communication:
      return "communication";
    case Category::io:
      return "io";
    case Category::other:
      return "other";
  }
  return "other";
}

Trace::Trace(MPI_Comm comm, bool enabled, size_t max_spans) : comm_(comm), enabled_(enabled), max_spans_(max_spans) {
  MPI_Barrier(comm_);
  epoch_ = MPI_Wtime();
  if (enabled_) align_epoch();
}

// Clocks of different ranks (nodes) need not agree, and a barrier releases ranks at slightly different
// times. Each rank estimates its offset to rank 0's clock from a few ping-pongs (Cristian's method:
// the reply with the shortest round trip wins) and expresses rank 0's epoch in its own clock.
void Trace::align_epoch() {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm_, &rank);
  MPI_Comm_size(comm_, &size);
  constexpr int rounds = 5, tag = 7301;
  double epoch0 = epoch_;
  for (int r = 1; r < size; ++r) {
    if (rank == 0) {
      for (int k = 0; k < rounds; ++k) {
        double dummy;
        MPI_Recv(&dummy, 1, MPI_DOUBLE, r, tag, comm_, MPI_STATUS_IGNORE);
        const double now[2] = {MPI_Wtime(), epoch0};
        MPI_Send(now, 2, MPI_DOUBLE, r, tag, comm_);
      }
    } else if (rank == r) {
      double best_rtt = 1e300;
      for (int k = 0; k < rounds; ++k) {
        const double t1 = MPI_Wtime();
        MPI_Send(&t1, 1, MPI_DOUBLE, 0, tag, comm_);
        double remote[2];
        MPI_Recv(remote, 2, MPI_DOUBLE, 0, tag, comm_, MPI_STATUS_IGNORE);
        const double t2 = MPI_Wtime();
        if (t2 - t1 < best_rtt) {
          best_rtt = t2 - t1;
          const double offset = remote[0] - 0.5 * (t1 + t2);  // rank 0 clock minus mine
          epoch_ = remote[1] - offset;
        }
      }
    }
  }
}

void Trace::span(const std::string& name, Category cat, double t_begin, double t_end) {
  if (!enabled_) return;
  if (spans_.size() >= max_spans_) {
    ++dropped_;
    return;
  }
  spans_.push_back({name, cat, t_begin, t_end});
}

size_t Trace::write(OutputFile& out) const {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm_, &rank);
  MPI_Comm_size(comm_, &size);
  nlohmann::json mine = nlohmann::json::array();
  for (const auto& s : spans_)
    mine.push_back({{"name", s.name},
                    {"cat", to_string(s.cat)},
                    {"ph", "X"},
                    {"ts", s.t0 * 1e6},
                    {"dur", (s.t1 - s.t0) * 1e6},
                    {"pid", rank},
                    {"tid", 0}});
  const std::vector<std::string> parts = gather_text(comm_, mine.dump());
  size_t count = 0;
  std::string doc_text;
  if (rank == 0) {
    nlohmann::json events = nlohmann::json::array();
    for (int r = 0; r < size; ++r) {
      events.push_back(
          {{"name", "process_name"}, {"ph", "M"}, {"pid", r}, {"args", {{"name", "rank " + std::to_string(r)}}}});
      for (auto& e : nlohmann::json::parse(parts[r])) events.push_back(std::move(e)), ++count;
    }
    nlohmann::json doc{{"traceEvents", events}, {"displayTimeUnit", "ms"}};
    doc_text = doc.dump() + "\n";
  }
  out.commit(doc_text);
  return count;
}

}  // namespace proxylab
