// How far each timed phase of a run is from the machine (perf.limits=true, a key of every proxy's deck): per phase
// the bytes or flops the app counts, the slowest rank's seconds, and a ceiling measured in the same run, on the same
// device, in the app's execution space, for the same amount of work:
//   memory-bound phases  a STREAM triad (stream_triad.hpp) over arrays of the phase's bytes per rank
//   FFT phases           the FFT library's own plan (the app measures it: fft3d's 3-D plan of a rank's data,
//                        pstswm's batched plan of its rows) and hands its rate here
//   Legendre transform   DGEMM (measure_dgemm_gflops, blas.hpp)
//   exchanges            the MPI probe's call of the same pattern and bytes per call (comm probe: swap for a halo,
//                        alltoall for a transpose, allreduce for a global sum)
// Rates are of all ranks together (each rank measures at once; the sum over ranks), so a phase's fraction is
// (counted / seconds) / ceiling rate. The record's section is results.limits; the text is a table under the results.
#pragma once
#include <mpi.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "proxylab/model_counts.hpp"

namespace proxylab {

class Config;
class Schema;

// The key perf.limits (declare_common_keys adds it to every proxy's Schema), and its value.
void declare_limits_key(Schema& schema);
bool limits_requested(const Config& cfg);

// A timed phase: its name in the section and the timer regions whose time it is (paths as the timer table names
// them: a phase counted over several regions, such as pop's operator and vector kernels, lists them all).
struct Phase {
  std::string name;
  std::vector<std::string> regions;
};

// One timed phase against its ceiling. counted and ceiling_rate are of all ranks; seconds is the slowest rank's.
struct PhaseLimit {
  Phase phase;
  std::string unit;         // what is counted: "bytes" or "flops"
  double counted = 0;       // per step, all ranks
  double seconds = 0;       // per step, the slowest rank
  std::string ceiling;      // what was measured, e.g. "STREAM triad of the same bytes"
  double ceiling_rate = 0;  // unit per second, all ranks, measured in this run
  double fraction() const;  // (counted / seconds) / ceiling_rate
};

// The section: the phases of one step (iteration, time step, transform) of the run.
struct LimitsSection {
  std::string step;
  std::vector<PhaseLimit> phases;

  std::string to_text() const;     // a table, one line per phase
  nlohmann::json to_json() const;  // {"limits": {"step": ..., "phases": [{phase, regions, unit, counted, ...}]}}
};

// Builds the section from the app's counts, measuring each ceiling as it goes. Every call is collective over comm
// (each rank measures its share at once). A phase that ran no work in this run (nothing counted or no time: an
// exchange at 1 rank, pack and unpack fused into the FFT) is left out: it has no rate to compare.
class LimitsBuilder {
 public:
  LimitsBuilder(std::string step, MPI_Comm comm);

  // A memory-bound phase: `bytes_this_rank` per step of this rank; ceiling: a triad over that many bytes.
  void memory(const Phase& phase, double bytes_this_rank, double seconds);
  // A phase of DGEMMs: `flops_this_rank` per step; ceiling: one 1024^3 DGEMM of the default space's library.
  void dgemm(const Phase& phase, double flops_this_rank, double seconds);
  // A phase of FFTs: ceiling `library_flops_per_second` of this rank's plan, measured by the app (`library` names it).
  void fft(const Phase& phase, double flops_this_rank, double seconds, const std::string& library,
           double library_flops_per_second);
  // An exchange: the pattern of `c` ("halo", "alltoall*", "allreduce") with c.calls per step and c.bytes per call
  // sent by this rank; ceiling: the MPI probe's call of that pattern and size, host memory.
  void exchange(const Phase& phase, const CommCount& c, double seconds);

  const LimitsSection& section() const { return section_; }

 private:
  void add(const Phase& phase, const std::string& unit, double counted_this_rank, double seconds,
           const std::string& ceiling, double ceiling_rate_this_rank);
  MPI_Comm comm_;
  LimitsSection section_;
};

// The ceilings, this rank's rate (the builder sums them over ranks). Collective where they communicate.
double triad_bytes_per_second(double bytes);                                   // best of 5 triads over `bytes`
double mpi_bytes_per_second(const CommCount& c, double bytes, MPI_Comm comm);  // best of 5 calls, bytes per call

}  // namespace proxylab
