// perf.limits: each timed phase against a ceiling measured in the same run (see perf_limits.hpp).
#include "proxylab/perf_limits.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "proxylab/blas.hpp"
#include "proxylab/config.hpp"
#include "proxylab/run_results.hpp"
#include "proxylab/stream_triad.hpp"

namespace proxylab {
namespace {

constexpr int ceiling_repeats = 5;  // best of, after one untimed call
// The triad's arrays hold a phase's bytes up to this total: past the last-level cache the triad's rate no longer
// depends on the size, and a phase of gigabytes (pop at the tenth degree) must not triple the run's memory.
constexpr double triad_max_bytes = 192.0 * (1 << 20);

template <class Call>
double best_seconds(const Call& call) {
  call();
  double best = 1e300;
  for (int k = 0; k < ceiling_repeats; ++k) {
    const double t0 = MPI_Wtime();
    call();
    best = std::min(best, MPI_Wtime() - t0);
  }
  return best;
}

double sum_over_ranks(double v, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_SUM, comm);
  return v;
}
double max_over_ranks(double v, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_MAX, comm);
  return v;
}

}  // namespace

void declare_limits_key(Schema& schema) {
  schema.boolean("perf.limits", false,
                 "after the run, measure each timed phase's ceiling in the same run on the same device (STREAM triad "
                 "of the same bytes, the FFT library's own plan, DGEMM, the MPI probe's call of the same size) and "
                 "report the fraction of it each phase reached (results.limits)");
}

bool limits_requested(const Config& cfg) { return cfg.boolean("perf.limits"); }

double PhaseLimit::fraction() const { return counted / seconds / ceiling_rate; }

std::string LimitsSection::to_text() const {
  std::string text = "  limits per " + step + " (perf.limits: ceilings measured in this run, all ranks):\n" +
                     text_printf("    %-36s %11s %6s %11s  %-48s %11s %7s\n", "phase", "counted", "unit", "seconds",
                                 "ceiling", "ceiling/s", "of it");
  for (const PhaseLimit& p : phases)
    text += text_printf("    %-36s %11.4e %6s %11.4e  %-48s %11.4e %6.1f%%\n", p.phase.name.c_str(), p.counted,
                        p.unit.c_str(), p.seconds, p.ceiling.c_str(), p.ceiling_rate, 100.0 * p.fraction());
  return text;
}

nlohmann::json LimitsSection::to_json() const {
  nlohmann::json list = nlohmann::json::array();
  for (const PhaseLimit& p : phases)
    list.push_back({{"phase", p.phase.name},
                    {"regions", p.phase.regions},
                    {"unit", p.unit},
                    {"counted", p.counted},
                    {"seconds", p.seconds},
                    {"ceiling", p.ceiling},
                    {"ceiling_rate", p.ceiling_rate},
                    {"fraction", p.fraction()}});
  return {{"limits", {{"step", step}, {"phases", list}}}};
}

double triad_bytes_per_second(double bytes) {
  const long long n = (long long)(std::min(bytes, triad_max_bytes) / stream_triad_bytes);
  if (n < 1) return 0;
  View1D<double> a("limits::triad_a", n), b("limits::triad_b", n), c("limits::triad_c", n);
  Kokkos::deep_copy(b, 1.0);
  Kokkos::deep_copy(c, 2.0);
  const double seconds = best_seconds([&] {
    stream_triad("limits::stream_triad", Mapping::flat, a, b, c, 0.4);
    Kokkos::fence();
  });
  return stream_triad_bytes * double(n) / seconds;
}

double mpi_bytes_per_second(const CommCount& c, double bytes, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  double seconds = 0;
  if (c.pattern == "allreduce") {  // a global sum of the same words
    std::vector<double> in(std::max(1, int(bytes / 8))), out(in.size());
    seconds = best_seconds([&] { MPI_Allreduce(in.data(), out.data(), int(in.size()), MPI_DOUBLE, MPI_SUM, comm); });
    return 8.0 * double(in.size()) / seconds;
  }
  if (c.pattern.rfind("alltoall", 0) == 0 && size > 1) {  // the same bytes spread over every other rank
    const int per_peer = std::max(1, int(bytes / (size - 1)));
    std::vector<char> in(size_t(per_peer) * size), out(in.size());
    seconds = best_seconds([&] { MPI_Alltoall(in.data(), per_peer, MPI_BYTE, out.data(), per_peer, MPI_BYTE, comm); });
    return double(per_peer) * (size - 1) / seconds;
  }
  // A halo (and an alltoall at 1 rank): the comm probe's swap, MPI_Sendrecv of the same bytes with a partner
  // (ranks paired 0-1, 2-3, ...; an unpaired last rank and a single rank exchange with themselves).
  const int partner = (rank ^ 1) < size ? rank ^ 1 : rank;
  const int n = std::max(1, int(bytes));
  std::vector<char> in(n), out(n);
  seconds = best_seconds([&] {
    MPI_Sendrecv(out.data(), n, MPI_BYTE, partner, 0, in.data(), n, MPI_BYTE, partner, 0, comm, MPI_STATUS_IGNORE);
  });
  return double(n) / seconds;
}

LimitsBuilder::LimitsBuilder(std::string step, MPI_Comm comm) : comm_(comm) { section_.step = std::move(step); }

void LimitsBuilder::add(const Phase& phase, const std::string& unit, double counted_this_rank, double seconds,
                        const std::string& ceiling, double ceiling_rate_this_rank) {
  const double counted = sum_over_ranks(counted_this_rank, comm_), rate = sum_over_ranks(ceiling_rate_this_rank, comm_);
  if (counted > 0 && seconds > 0 && rate > 0) section_.phases.push_back({phase, unit, counted, seconds, ceiling, rate});
}

void LimitsBuilder::memory(const Phase& phase, double bytes_this_rank, double seconds) {
  add(phase, "bytes", bytes_this_rank, seconds, "STREAM triad of the same bytes",
      triad_bytes_per_second(bytes_this_rank));
}

void LimitsBuilder::dgemm(const Phase& phase, double flops_this_rank, double seconds) {
  add(phase, "flops", flops_this_rank, seconds, "DGEMM 1024^3", 1e9 * measure_dgemm_gflops(1024, 3));
}

void LimitsBuilder::fft(const Phase& phase, double flops_this_rank, double seconds, const std::string& library,
                        double library_flops_per_second) {
  add(phase, "flops", flops_this_rank, seconds, library, library_flops_per_second);
}

void LimitsBuilder::exchange(const Phase& phase, const CommCount& c, double seconds) {
  // Every rank calls the probe with the largest bytes per call of any rank: the collectives need one size.
  const double bytes = max_over_ranks(c.bytes, comm_);
  if (bytes <= 0 || c.calls <= 0) return;
  int size = 1;
  MPI_Comm_size(comm_, &size);
  if (size == 1 && c.pattern == "halo") {  // one rank exchanges with itself by a copy in memory, no MPI (halo.hpp)
    memory(phase, c.calls * c.bytes, seconds);
    return;
  }
  const double rate = mpi_bytes_per_second(c, bytes, comm_);
  const std::string ceiling = c.pattern == "allreduce"              ? "MPI_Allreduce of the same words"
                              : c.pattern.rfind("alltoall", 0) == 0 ? "MPI_Alltoall of the same bytes"
                                                                    : "MPI_Sendrecv of the same bytes";
  add(phase, "bytes", c.calls * c.bytes, seconds, ceiling, rate);
}

}  // namespace proxylab
