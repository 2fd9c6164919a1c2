// POP's run summary, each value once (proxylab/run_results.hpp): the set-up (grid, decomposition, solver
// choices), the operator files and the solve's results; the text lines and the record's keys are rendered from
// these structs. Values are the same on every rank (the driver reduces them first).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "domain.hpp"
#include "solver.hpp"

namespace proxylab::pop {

struct SetupSummary {
  GridSpec grid;
  double ocean_fraction = 0;
  int px = 0, py = 0, ranks = 0;  // the block grid and the ranks that own blocks
  bool land_blocks_eliminated = false;
  int all_land_blocks = 0;
  int nx_local = 0, ny_local = 0, halo_width = 0;
  HaloStrategy halo{};
  ReduceStrategy reduce{};
  SolverOptions solver;

  std::string to_text() const;
  nlohmann::json to_json() const;
  std::string mapping_text() const;  // the mapping, and the team shape this back end gives it (mapping.hpp)
};

struct OperatorFileSummary {
  std::string matrix, rhs, solution, index;  // paths
  long long rows = 0, entries = 0;

  std::string to_text() const;
  nlohmann::json to_json() const;
};

struct SolveResults {
  SolverKind solver{};
  int iterations = 0;
  bool converged = false;
  double residual_rel_tarea = 0, residual_initial_rel_tarea = 0, error_rel_l2 = 0, error_rel_max = 0;
  double reductions_per_iteration = 0, reduction_words_per_iteration = 0, halo_updates_per_iteration = 0;
  double halo_bytes_per_update_per_rank_max = 0, bytes_per_iteration_all_ranks = 0;
  double flops_per_iteration_all_ranks = 0;  // of the operator and vector kernels (Workspace::count)
  // Kokkos fences in the solve per iteration, rank 0 (LaunchCounter): the host's waits for the device, the timer
  // regions' own (two each) included
  double host_waits_per_iteration = 0;
  long long setup_reductions = 0, setup_halo_updates = 0;
  double solve_seconds = 0, seconds_per_iteration = 0;
  double setup_seconds = 0;  // pcsi's eigenvalue bounds (inside the solve time)
  struct Split {             // seconds per iteration, slowest rank
    double operator_kernel = 0, vector = 0, fused_kernel_and_sum = 0, halo = 0, reduction = 0;
  } per_iteration;
  std::vector<std::pair<int, double>> residual_history;  // (iteration, ||r|| / ||TAREA||)
  double pcsi_nu = 0, pcsi_mu = 0;                       // pcsi only
  nlohmann::json model_counts;
  bool stream_measured = false;  // bench.stream
  double kernel_bandwidth_gbs = 0, triad_bandwidth_gbs = 0;

  std::string to_text() const;
  nlohmann::json to_json() const;
};

}  // namespace proxylab::pop
