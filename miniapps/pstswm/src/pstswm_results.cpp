#include "pstswm_results.hpp"

#include <sstream>

#include "proxylab/run_results.hpp"

namespace proxylab::pstswm {

std::string SetupSummary::to_text() const {
  const TransformOptions& t = transform;
  std::ostringstream out;
  out << "  T" << t.ntrunc << "L" << t.levels << ": " << t.nlat << " x " << t.nlon << " Gaussian grid, "
      << (t.ntrunc + 1) * (t.ntrunc + 2) / 2 << " spectral coefficients per field and level\n"
      << "  case " << model.test_case << (model.test_case == 2 ? ", alpha " + std::to_string(model.alpha) : "")
      << ", dt " << model.dt << " s, " << steps << " steps (" << steps * model.dt / 86400.0 << " days)\n"
      << "  LT " << to_string(t.lt) << (t.fixed_levels ? " (compile-time levels)" : "") << ", algorithm "
      << to_string(t.algorithm) << " ("
      << (t.algorithm == Algorithm::transpose ? to_string(t.strategy) : to_string(t.combine)) << ")"
      << ", " << ranks << " ranks\n";
  if (t.lt == LTVariant::recurrence)
    out << text_printf(
        "  Legendre functions recomputed by recurrence: %.3g MB per rank held, the stored table's %.3g MB "
        "saved\n",
        legendre.held_bytes * 1e-6, (legendre.table_bytes - legendre.held_bytes) * 1e-6);
  else
    out << text_printf("  Legendre functions from a stored table: %.3g MB per rank\n", legendre.table_bytes * 1e-6);
  return out.str();
}

nlohmann::json SetupSummary::to_json() const {
  const TransformOptions& t = transform;
  return {{"grid", {{"truncation", t.ntrunc}, {"levels", t.levels}, {"nlat", t.nlat}, {"nlon", t.nlon}}},
          {"dt_s", model.dt},
          {"legendre_memory",
           {{"table_bytes_per_rank", legendre.table_bytes},
            {"held_bytes_per_rank", legendre.held_bytes},
            {"saved_bytes_per_rank", legendre.table_bytes - legendre.held_bytes}}}};
}

std::string RunResults::to_text() const {
  const PerStep& s = per_step;
  std::string text =
      text_printf("  per step [ms]: FFT+fold %.3f  LT %.3f  grid-point+spectral %.3f  comm %.3f  (total %.3f)\n",
                  1e3 * s.fft_fold, 1e3 * s.legendre, 1e3 * s.grid_point, 1e3 * s.communication, 1e3 * s.total) +
      text_printf("  %.0f field transforms per step (one field, one level, either direction): %.4f ms each\n",
                  field_transforms_per_step, 1e3 * seconds_per_field_transform);
  if (fft_alone_gflops > 0)
    text += text_printf("  FFT stage %.2f GFLOP/s = %.0f%% of the same batched plan alone (%.2f GFLOP/s)\n", fft_gflops,
                        100.0 * fft_gflops / fft_alone_gflops, fft_alone_gflops);
  const std::string dgemm = dgemm_gflops > 0 ? ", DGEMM " + std::to_string(dgemm_gflops) + " GFLOP/s (LT at " +
                                                   std::to_string(int(100 * legendre_gflops / dgemm_gflops)) + "%)"
                                             : "";
  text += text_printf("  per rank: FFT %.2f GFLOP/s, LT %.2f GFLOP/s%s; comm %.3f MB per step (all ranks)\n",
                      fft_gflops, legendre_gflops, dgemm.c_str(), communication_bytes_per_step * 1e-6);
  if (test_case == 2) text += text_printf("  case 2 height errors: l1 %.3e  l2 %.3e  linf %.3e\n", l1, l2, linf);
  return text + text_printf("  mass change %.3e, energy change %.3e (relative)\n", mass_rel_change, energy_rel_change);
}

nlohmann::json RunResults::to_json() const {
  const PerStep& s = per_step;
  nlohmann::json j = {
      {"steps", steps},
      {"errors", {{"l1", l1}, {"l2", l2}, {"linf", linf}}},
      {"conservation", {{"mass_rel_change", mass_rel_change}, {"energy_rel_change", energy_rel_change}}},
      {"field_transforms_per_step", field_transforms_per_step},
      {"seconds_per_field_transform", seconds_per_field_transform},  // FFT + fold + LT + transform communication
      {"fft_alone_gflops", fft_alone_gflops},
      {"per_step_s",
       {{"fft_fold", s.fft_fold},
        {"legendre", s.legendre},
        {"grid_point", s.grid_point},
        {"communication", s.communication},
        {"total", s.total}}},
      {"gflops_per_rank", {{"fft", fft_gflops}, {"legendre", legendre_gflops}, {"dgemm", dgemm_gflops}}},
      {"lt_fraction_of_dgemm", dgemm_gflops > 0 ? legendre_gflops / dgemm_gflops : 0.0},
      {"flops_per_step",
       {{"fft", flops_per_step.fft}, {"legendre", flops_per_step.legendre}, {"grid_point", flops_per_step.grid_point}}},
      {"bytes_per_step", {{"legendre", legendre_bytes_per_step}}},
      {"communication_bytes_per_step", communication_bytes_per_step},
      {"model_counts", model_counts}};
  if (drift_measured) j["drift_speed"] = {{"measured", drift_speed}, {"analytic", drift_speed_analytic}};
  return j;
}

}  // namespace proxylab::pstswm
