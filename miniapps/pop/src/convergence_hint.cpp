// The hint of a solve that did not converge (see convergence_hint.hpp).
#include "convergence_hint.hpp"

#include <cmath>
#include <utility>
#include <vector>

#include "proxylab/run_results.hpp"

namespace proxylab::pop {

std::string convergence_hint(const SolveStats& st, const SolverOptions& opt, double round_off) {
  constexpr double most_iterations = 1e8;  // solver.max_iters' largest value
  // (iteration, ||r|| / ||TAREA||) at the start and at every check
  std::vector<std::pair<int, double>> h = {{0, std::sqrt(st.rr_initial / st.tarea2)}};
  for (const auto& [m, rr] : st.history) h.emplace_back(m, std::sqrt(rr / st.tarea2));
  const auto last = h.back();
  size_t k = 0;  // the first check of the second half
  while (k + 1 < h.size() && h[k].first < last.first / 2) ++k;
  if (k + 1 == h.size()) k = 0;
  const auto from = h[k];
  const std::string head = text_printf("not converged within solver.max_iters = %d", opt.max_iters);
  if (last.second <= round_off)
    return text_printf(
        "%s: ||r||/||TAREA|| = %.3g is down at round-off (which may leave up to %.3g on this grid): "
        "raise solver.crit",
        head.c_str(), last.second, round_off);
  const double rate = std::log(last.second / from.second) / (last.first - from.first);  // per iteration
  if (!(rate < 0))
    return text_printf(
        "%s: ||r||/||TAREA|| did not fall from iteration %d (%.3g) to %d (%.3g), as a Krylov solver's residual may "
        "rise before it falls: raise solver.max_iters",
        head.c_str(), from.first, from.second, last.first, last.second);
  const double needed = last.first + std::log(opt.crit / last.second) / rate;
  if (needed > most_iterations)
    return text_printf(
        "%s: at the rate ||r||/||TAREA|| fell from iteration %d to %d it would reach solver.crit after "
        "about %.2g iterations, more than solver.max_iters allows (%.0g): raise solver.crit",
        head.c_str(), from.first, last.first, needed, most_iterations);
  return text_printf(
      "%s: at the rate ||r||/||TAREA|| fell from iteration %d to %d it reaches solver.crit after about "
      "%.2g iterations: raise solver.max_iters",
      head.c_str(), from.first, last.first, needed);
}

}  // namespace proxylab::pop
