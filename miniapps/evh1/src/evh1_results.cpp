#include "evh1_results.hpp"

#include <sstream>

#include "proxylab/run_results.hpp"

namespace proxylab::evh1 {

std::string SetupSummary::to_text() const {
  std::ostringstream out;
  out << "  problem " << problem << " on " << nx << " x " << ny << " zones to t = " << t_end << "; " << algorithm
      << "; mapping " << to_string(mapping)
      << (mapping == SweepMapping::batched ? " (" + std::to_string(lanes) + " lanes)" : "") << "\n";
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
  std::string text = "  kernel phases (s, mean over ranks, summed over threads):";
  for (int k = 0; k < nphases; ++k) text += text_printf(" %s %.3f", phase_names[k], phases_s[k]);
  text += text_printf("; communication %.3f\n", communication_mean_s);
  std::ostringstream out;
  out << "  " << steps << " steps (each an x and a y sweep) to t = " << time << " in " << elapsed_s << " s\n";
  return text + out.str();
}

nlohmann::json RunResults::to_json() const {
  nlohmann::json phases = nlohmann::json::object();
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
