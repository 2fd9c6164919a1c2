// EVH1's run summary, each value once (proxylab/run_results.hpp): the set-up (problem, grid, algorithm,
// mapping), the comparison with the serial reference and the run's results (steps, kernel phases, communication,
// counts); the text lines and the record's keys are rendered from these structs. Values are the same on every
// rank (the driver reduces them first).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "sweep.hpp"

namespace proxylab::evh1 {

struct SetupSummary {
  std::string problem;
  int nx = 0, ny = 0;
  double t_end = 0;
  std::string algorithm;  // the domain's description
  SweepMapping mapping{};
  int width = 0;  // SweepOptions::width()

  std::string to_text() const;
  nlohmann::json to_json() const;
};

struct ReferenceComparison {
  long long steps = 0;
  double max_abs_diff = 0;  // over all ranks

  std::string to_text() const;
  nlohmann::json to_json() const;
};

struct RunResults {
  long long steps = 0;
  double time = 0, elapsed_s = 0, zone_cycles = 0;
  PhaseTimes phases_s{};            // kernel seconds summed over threads, mean over ranks
  double communication_mean_s = 0;  // mean over ranks
  long long exchanges = 0;          // halo exchanges or transposes done
  double communication_s = 0;       // halo exchanges or transposes, slowest rank
  double courant_s = 0;             // dtcon's global max, slowest rank
  nlohmann::json model_counts;

  std::string to_text() const;
  nlohmann::json to_json() const;
};

}  // namespace proxylab::evh1
