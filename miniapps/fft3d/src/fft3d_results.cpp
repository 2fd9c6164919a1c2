#include "fft3d_results.hpp"

#include <sstream>

#include "proxylab/run_results.hpp"

namespace proxylab::fft3d {

std::string SetupSummary::to_text() const {
  const Decomposition& d = decomposition;
  std::ostringstream out;
  out << "  grid " << d.global[0] << " x " << d.global[1] << " x " << d.global[2] << " (" << d.points() << " points), "
      << d.describe() << ", transpose " << transpose << ", FFT planning " << planning << ", " << threads
      << " thread(s) per rank\n"
      << "  local FFTs " << (fused ? "fused with the transposes' copies" : "and copies in separate passes")
      << ", MPI buffers in " << mpi_buffers << "\n"
      << "  local plan " << local_plan;
  if (!local_plan_times.empty()) {
    out << " (timed, forward + inverse:";
    for (const auto& [name, seconds] : local_plan_times)
      out << " " << name << " " << text_printf("%.3e", seconds) << " s";
    out << ")";
  }
  out << "\n";
  return out.str();
}

nlohmann::json SetupSummary::to_json() const {
  nlohmann::json times = nlohmann::json::object();
  for (const auto& [name, seconds] : local_plan_times) times[name] = seconds;
  return {{"p_row", decomposition.p_row}, {"p_col", decomposition.p_col}, {"points", decomposition.points()},
          {"fused_transpose", fused},     {"mpi_buffers", mpi_buffers},   {"local_plan", local_plan},
          {"local_plan_seconds", times}};
}

std::string TransformResults::to_text() const {
  const Stages& s = per_transform;
  std::string text =
      text_printf("  forward %.4e s (%.3f GFLOP/s), inverse %.4e s (%.3f GFLOP/s), median of %d\n",
                  forward_seconds_median, gflops_forward, inverse_seconds_median, gflops_inverse, iterations_done) +
      text_printf("  per transform (max over ranks): local FFT %.4e s, pack %.4e s, transpose %.4e s, unpack %.4e s\n",
                  s.local_fft, s.pack, s.transpose, s.unpack) +
      text_printf("  transpose: %.3f GB/s aggregate (%.3e bytes sent by all ranks, padding excluded)\n", transpose_gbs,
                  transpose_bytes_all_ranks);
  if (pack_unpack_bytes_per_transform > 0)
    text += text_printf(
        "  pack + unpack: %.3e bytes per transform at %.2f GB/s (read + write), %.0f%% of a copy of the same "
        "bytes (%.2f GB/s)\n",
        pack_unpack_bytes_per_transform, pack_unpack_gbs, 100.0 * pack_unpack_gbs / copy_gbs_same_bytes,
        copy_gbs_same_bytes);
  if (serial_baseline == SerialBaseline::measured)
    text += text_printf(
        "  %s: %.4e s per transform (%.3f GFLOP/s); the transform = %.1f%% of its speed (forward and inverse "
        "median), its local FFT stage %.4e s = %.1f%%\n",
        library_3d.c_str(), library_3d_seconds, flops / library_3d_seconds * 1e-9,
        100.0 * library_3d_seconds / (0.5 * (forward_seconds_median + inverse_seconds_median)), s.local_fft,
        100.0 * library_3d_seconds / s.local_fft);
  else if (serial_baseline == SerialBaseline::not_on_many_ranks)
    text += "  (fft3d.serial_baseline: runs on 1 rank only)\n";
  return text;
}

nlohmann::json TransformResults::to_json() const {
  const Stages& s = per_transform;
  nlohmann::json j = {
      {"forward_seconds_median", forward_seconds_median},
      {"inverse_seconds_median", inverse_seconds_median},
      {"gflops_forward", gflops_forward},
      {"gflops_inverse", gflops_inverse},
      {"per_transform_seconds",
       {{"local_fft", s.local_fft}, {"pack", s.pack}, {"transpose", s.transpose}, {"unpack", s.unpack}}},
      {"local_fft_gflops", local_fft_gflops},
      {"transpose_gbs", transpose_gbs},
      {"pack_unpack_bytes_per_transform", pack_unpack_bytes_per_transform},
      {"pack_unpack_gbs", pack_unpack_gbs},
      {"copy_gbs_same_bytes", copy_gbs_same_bytes},
      {"iterations_done", iterations_done},
      {"model_counts", model_counts}};
  if (serial_baseline == SerialBaseline::measured) {
    j["library_3d_fft"] = library_3d;
    j["library_3d_fft_seconds"] = library_3d_seconds;
    j["library_3d_fft_gflops"] = flops / library_3d_seconds * 1e-9;
    j["transform_vs_library_pct"] =
        100.0 * library_3d_seconds / (0.5 * (forward_seconds_median + inverse_seconds_median));
    j["local_fft_vs_library_pct"] = 100.0 * library_3d_seconds / s.local_fft;
  }
  return j;
}

std::string NasFTResults::to_text() const {
  std::ostringstream out;
  if (!nas_class.empty())
    out << "  NAS FT class " << nas_class << ": " << (checksums_verified ? "checksums verified" : "FAILED")
        << " (max rel. error " << checksum_max_rel_error << ", NPB's epsilon 1e-12)\n";
  else
    out << "  (no published NPB checksums for " << nx << "x" << ny << "x" << nz << " with " << iterations
        << " iterations: classes S, W, A, B, C only)\n";
  return out.str() +
         text_printf("  NPB: Time in seconds = %.2f, Mop/s total = %.2f (NPB FT operation count), %.3f GFLOP/s\n",
                     ft_seconds, npb_mops_total, gflops);
}

nlohmann::json NasFTResults::to_json() const {
  nlohmann::json table = nlohmann::json::array();
  for (const auto& c : checksums) table.push_back(text_printf("%.12e %.12e", c.real(), c.imag()));
  nlohmann::json j = {{"checksums", table}, {"ft_seconds", ft_seconds}, {"npb_mops_total", npb_mops_total}};
  if (!nas_class.empty()) j["nas_class"] = nas_class;
  return j;
}

}  // namespace proxylab::fft3d
