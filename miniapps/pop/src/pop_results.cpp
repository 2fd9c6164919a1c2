#include "pop_results.hpp"

#include "proxylab/run_results.hpp"
#include "proxylab/user_text.hpp"

namespace proxylab::pop {

std::string SetupSummary::to_text() const {
  const std::string owners = land_blocks_eliminated ? "blocks on " + std::to_string(ranks) + " ranks" : "ranks";
  return text_printf(
      "  grid %d x %d (lat %.1f..%.1f, dt %.0f s), land %.1f%%; %d x %d %s, blocks ~%d x %d, halo %d (%s), "
      "all-land blocks %d (%s)\n  solver %s (crit %.1e, max %d, check every %d), sums %s, mapping %s, %s\n",
      grid.nx, grid.ny, grid.lat_south, grid.lat_north, grid.dt, 100.0 * (1.0 - ocean_fraction), px, py, owners.c_str(),
      nx_local, ny_local, halo_width, to_string(halo), all_land_blocks,
      land_blocks_eliminated ? "eliminated: no rank" : "idle ranks", to_string(solver.kind), solver.crit,
      solver.max_iters, solver.check_freq, to_string(reduce), mapping_text().c_str(),
      solver.fused ? "fused updates" : "unfused updates");
}

std::string SetupSummary::mapping_text() const {
  const std::string name = to_string(solver.mapping);
  return solver.mapping == Mapping::team ? name + " (" + team_shape().name() + ")" : name;
}

nlohmann::json SetupSummary::to_json() const {
  return {{"ocean_fraction", ocean_fraction},
          {"all_land_blocks", all_land_blocks},
          {"land_blocks_eliminated", land_blocks_eliminated},
          {"process_grid", {px, py}},
          {"mapping_shape", mapping_text()}};
}

std::string OperatorFileSummary::to_text() const {
  return "  operator (Matrix Market): " + quote(matrix) + " (" + std::to_string(rows) + " ocean points, " +
         std::to_string(entries) + " entries), " + quote(rhs) + ", " + quote(solution) + ", " + quote(index) +
         "\n  direct solve: .deps/venv/bin/python verify/pop_direct_solve.py " + quote(matrix) + "\n";
}

nlohmann::json OperatorFileSummary::to_json() const {
  return {{"operator_file", {{"matrix", matrix}, {"rows", rows}, {"entries", entries}}}};
}

std::string SolveResults::to_text() const {
  const Split& p = per_iteration;
  std::string text = text_printf(
      "  %d iterations (%s), ||r||/||TAREA|| = %.3e, error vs x*: L2 %.3e, max %.3e\n"
      "  per iteration: %.2f global sums (%.2f words), %.2f halo updates, %.3g bytes, %.1f host waits; set-up: "
      "%lld sums, %lld halo updates, %.3e s\n  time to solution %.3e s (solvers differ in iterations: compare this "
      "across "
      "solvers)\n  time per iteration %.3e s: operator %.2e, vector %.2e, fused kernel+sum %.2e, halo %.2e, "
      "reduction %.2e\n",
      iterations, converged ? "converged" : "not converged", residual_rel_tarea, error_rel_l2, error_rel_max,
      reductions_per_iteration, reduction_words_per_iteration, halo_updates_per_iteration,
      bytes_per_iteration_all_ranks, host_waits_per_iteration, setup_reductions, setup_halo_updates, setup_seconds,
      solve_seconds, seconds_per_iteration, p.operator_kernel, p.vector, p.fused_kernel_and_sum, p.halo, p.reduction);
  if (solver == SolverKind::pcsi)
    text += text_printf("  pcsi eigenvalue bounds of M^-1 A: nu %.4e, mu %.4e (condition ~%.1f)\n", pcsi_nu, pcsi_mu,
                        pcsi_mu / pcsi_nu);
  if (stream_measured)
    text += text_printf(
        "  bandwidth of operator + vector kernels %.2f GB/s vs STREAM triad (same array size, same run) %.2f GB/s: "
        "%.0f%%\n",
        kernel_bandwidth_gbs, triad_bandwidth_gbs, 100.0 * kernel_bandwidth_gbs / triad_bandwidth_gbs);
  return text;
}

nlohmann::json SolveResults::to_json() const {
  const Split& p = per_iteration;
  nlohmann::json history = nlohmann::json::array();
  for (const auto& [m, r] : residual_history) history.push_back({m, r});
  nlohmann::json j = {{"iterations", iterations},
                      {"converged", converged},
                      {"residual_rel_tarea", residual_rel_tarea},
                      {"residual_initial_rel_tarea", residual_initial_rel_tarea},
                      {"error_rel_l2", error_rel_l2},
                      {"error_rel_max", error_rel_max},
                      {"reductions_per_iteration", reductions_per_iteration},
                      {"reduction_words_per_iteration", reduction_words_per_iteration},
                      {"halo_updates_per_iteration", halo_updates_per_iteration},
                      {"halo_bytes_per_update_per_rank_max", halo_bytes_per_update_per_rank_max},
                      {"bytes_per_iteration_all_ranks", bytes_per_iteration_all_ranks},
                      {"flops_per_iteration_all_ranks", flops_per_iteration_all_ranks},
                      {"host_waits_per_iteration", host_waits_per_iteration},
                      {"model_counts", model_counts},
                      {"setup_reductions", setup_reductions},
                      {"setup_halo_updates", setup_halo_updates},
                      {"solve_seconds", solve_seconds},
                      {"seconds_per_iteration", seconds_per_iteration},  // solve time (set-up included) / iterations
                      {"setup_seconds", setup_seconds},
                      {"seconds_per_iteration_split",
                       {{"operator", p.operator_kernel},
                        {"vector", p.vector},
                        {"fused_kernel_and_sum", p.fused_kernel_and_sum},
                        {"halo", p.halo},
                        {"reduction", p.reduction}}},
                      {"residual_history", history}};
  if (solver == SolverKind::pcsi) j["pcsi_bounds"] = {pcsi_nu, pcsi_mu};
  if (stream_measured) {
    j["kernel_bandwidth_gbs"] = kernel_bandwidth_gbs;
    j["triad_bandwidth_gbs"] = triad_bandwidth_gbs;
    j["kernel_vs_triad"] = kernel_bandwidth_gbs / triad_bandwidth_gbs;
  }
  return j;
}

}  // namespace proxylab::pop
