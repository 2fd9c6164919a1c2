// Shared probe support (see probe_common.hpp).
#include "probe_common.hpp"

#include <sched.h>

#include <algorithm>
#include <cstdio>

#include "proxylab/timers.hpp"

namespace proxylab::comm {

int repetitions_for(long long bytes, int repetitions) {
  const long long full = 1 << 16;
  if (bytes <= full) return repetitions;
  return static_cast<int>(std::max<long long>(std::min(5, repetitions), repetitions * full / bytes));
}

double timer_overhead() {
  static double overhead = -1;
  if (overhead < 0) {
    std::vector<double> d(101);
    for (auto& x : d) {
      const double t0 = MPI_Wtime();
      x = MPI_Wtime() - t0;
    }
    std::nth_element(d.begin(), d.begin() + 50, d.end());
    overhead = d[50];
  }
  return overhead;
}

Stats reduce_times(MPI_Comm comm, const std::vector<double>& seconds, int warmup) {
  std::vector<double> worst(seconds.size());
  polite_barrier(comm);
  MPI_Allreduce(seconds.data(), worst.data(), static_cast<int>(seconds.size()), MPI_DOUBLE, MPI_MAX, comm);
  // The overhead is rank 0's figure, so every rank subtracts the same number.
  double overhead = timer_overhead();
  MPI_Bcast(&overhead, 1, MPI_DOUBLE, 0, comm);
  std::vector<double> t(worst.begin() + std::min<size_t>(warmup, worst.size() - 1), worst.end());
  for (auto& x : t) x = std::max(0.0, x - overhead);
  Stats s;
  s.min = *std::min_element(t.begin(), t.end());
  s.max = *std::max_element(t.begin(), t.end());
  s.median = median(t);
  return s;
}

void fill_payload(std::vector<unsigned char>& buf, long long n, int src, int rep) {
  if (static_cast<long long>(buf.size()) < n) buf.resize(n);
  for (long long k = 0; k < n; ++k) buf[k] = payload_byte(src, rep, k);
}

long long wrong_bytes(const std::vector<unsigned char>& buf, long long n, int src, int rep) {
  long long wrong = 0;
  for (long long k = 0; k < n; ++k) wrong += buf[k] != payload_byte(src, rep, k);
  return wrong;
}

void check_payloads(RunContext& ctx, const std::string& test, long long wrong_local, long long checked_local) {
  long long v[2] = {wrong_local, checked_local}, total[2];
  MPI_Allreduce(v, total, 2, MPI_LONG_LONG, MPI_SUM, ctx.comm);
  ctx.report.check(test + ": payload items wrong on receipt", total[0] == 0 && total[1] > 0, double(total[0]), 0.0,
                   std::to_string(total[1]) + " items checked");
}

void polite_barrier(MPI_Comm comm) {
  MPI_Request req;
  MPI_Ibarrier(comm, &req);
  int done = 0;
  for (MPI_Test(&req, &done, MPI_STATUS_IGNORE); !done; MPI_Test(&req, &done, MPI_STATUS_IGNORE)) sched_yield();
}

MPI_Comm split_groups(MPI_Comm comm, int group) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm g;
  MPI_Comm_split(comm, rank / group, rank, &g);
  return g;
}

ResultTable::ResultTable(RunContext& ctx, std::string key, const std::string& title, std::vector<std::string> columns)
    : ctx_(ctx), key_(std::move(key)), columns_(std::move(columns)) {
  ctx_.out() << "\n" << title << "\n";
  std::string line;
  char cell[64];
  for (const auto& c : columns_) std::snprintf(cell, sizeof cell, "%13s", c.c_str()), line += cell;
  ctx_.out() << line << "\n";
}

ResultTable::~ResultTable() { ctx_.report.results()[key_] = rows_; }

void ResultTable::row(const std::vector<nlohmann::json>& values) {
  nlohmann::json obj = nlohmann::json::object();
  std::string line;
  char cell[64];
  for (size_t c = 0; c < values.size() && c < columns_.size(); ++c) {
    const auto& v = values[c];
    if (v.is_string())
      std::snprintf(cell, sizeof cell, "%13s", v.get<std::string>().c_str());
    else if (v.is_number_integer())
      std::snprintf(cell, sizeof cell, "%13lld", v.get<long long>());
    else
      std::snprintf(cell, sizeof cell, "%13.4g", v.get<double>());
    line += cell;
    obj[columns_[c]] = v;
  }
  ctx_.out() << line << "\n";
  rows_.push_back(obj);
}

}  // namespace proxylab::comm
