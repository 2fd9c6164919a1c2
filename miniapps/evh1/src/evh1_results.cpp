#include "evh1_results.hpp"

#include <sstream>

#include "backend.hpp"
#include "proxylab/layout.hpp"
#include "proxylab/run_results.hpp"

namespace proxylab::evh1 {

std::string SetupSummary::to_text() const {
  std::ostringstream out;
  out << "  problem " << problem << " on " << nx << " x " << ny << " zones to t = " << t_end << "; " << algorithm
      << "; mapping " << to_string(mapping)
      << (mapping == SweepMapping::batched ? " (" + std::to_string(width) + " lanes)"
          : mapping == SweepMapping::tiled ? " (" + std::to_string(width) + " threads per tile)"
                                           : "")
      << "\n";
  return out.str();
}

nlohmann::json SetupSummary::to_json() const { return {{"algorithm", algorithm}}; }

std::string ReferenceComparison::to_text() const {
  std::ostringstream out;
  out << "  vs serial reference (transpose, pencil, 1 rank, " << steps << " steps): max |difference| " << max_abs_diff
      << "\n";
  return out.str();
}

nlohmann::json ReferenceComparison::to_json() const { return {{"reference_max_abs_diff", max_abs_diff}}; }

std::string RunResults::to_text() const {
  std::string text;
  if constexpr (backend::phase_timers) {
    text = "  kernel phases (s, mean over ranks, summed over threads):";
    for (int k = 0; k < nphases; ++k) text += text_printf(" %s %.3f", phase_names[k], phases_s[k]);
    text += text_printf("; communication %.3f\n", communication_mean_s);
  } else {  // no host clock inside a device kernel: the sweeps are timed whole (sweep_x, sweep_y in the timer table)
    text =
        text_printf("  kernel phases: not timed inside device kernels; communication %.3f s\n", communication_mean_s);
  }
  std::ostringstream out;
  out << "  " << steps << " steps (each an x and a y sweep) to t = " << time << " in " << elapsed_s << " s\n";
  return text + out.str();
}

nlohmann::json RunResults::to_json() const {
  nlohmann::json phases = nlohmann::json::object();
  if constexpr (backend::phase_timers)
    for (int k = 0; k < nphases; ++k) phases[phase_names[k]] = phases_s[k];
  phases["communication"] = communication_mean_s;
  return {{"steps", steps},
          {"time", time},
          {"elapsed_s", elapsed_s},
          {"zone_cycles", zone_cycles},
          {"phases_s", phases},
          {"exchanges", exchanges},
          {"communication_s", communication_s},
          {"courant_s", courant_s},
          {"model_counts", model_counts}};
}

}  // namespace proxylab::evh1
