// POP's results struct renders both outputs from one set of values: the summary lines the regression tests and
// users grep ("N iterations (converged)", "L2 ...") and the record keys the front end and the model read.
#include "pop_results.hpp"
#include "proxylab/testing.hpp"

using namespace proxylab::pop;

TEST_CASE("pop results: text and record come from the same values", "[pop][results]") {
  SolveResults r;
  r.solver = SolverKind::pcsi;
  r.iterations = 120;
  r.converged = true;
  r.residual_rel_tarea = 2.5e-14;
  r.error_rel_l2 = 1.153e-07;
  r.error_rel_max = 3e-7;
  r.reductions_per_iteration = 0.1;
  r.halo_updates_per_iteration = 1.0;
  r.host_waits_per_iteration = 3.5;
  r.per_iteration.halo = 1e-5;
  r.residual_history = {{10, 1e-3}, {20, 1e-6}};
  r.pcsi_nu = 0.5;
  r.pcsi_mu = 2.0;
  const std::string text = r.to_text();
  CHECK(text.find("  120 iterations (converged), ||r||/||TAREA|| = 2.500e-14, error vs x*: L2 1.153e-07, max "
                  "3.000e-07\n") == 0);
  CHECK(text.find("halo 1.00e-05") != std::string::npos);
  CHECK(text.find(", 3.5 host waits;") != std::string::npos);
  CHECK(text.find("pcsi eigenvalue bounds of M^-1 A: nu 5.0000e-01, mu 2.0000e+00 (condition ~4.0)") !=
        std::string::npos);
  CHECK(text.find("STREAM triad") == std::string::npos);  // bench.stream off

  const nlohmann::json j = r.to_json();
  CHECK(j["iterations"] == 120);
  CHECK(j["error_rel_l2"] == 1.153e-07);
  CHECK(j["seconds_per_iteration_split"]["halo"] == 1e-5);
  CHECK(j["host_waits_per_iteration"] == 3.5);
  CHECK(j["residual_history"][1] == nlohmann::json::array({20, 1e-6}));
  CHECK(j["pcsi_bounds"] == nlohmann::json::array({0.5, 2.0}));
  CHECK_FALSE(j.contains("triad_bandwidth_gbs"));

  r.solver = SolverKind::pcg;
  r.stream_measured = true;
  r.kernel_bandwidth_gbs = 5;
  r.triad_bandwidth_gbs = 10;
  CHECK(r.to_text().find("pcsi") == std::string::npos);
  CHECK(r.to_text().find("5.00 GB/s vs STREAM triad (same array size, same run) 10.00 GB/s: 50%") != std::string::npos);
  CHECK(r.to_json()["kernel_vs_triad"] == 0.5);
  CHECK_FALSE(r.to_json().contains("pcsi_bounds"));
}

TEST_CASE("pop results: the header and record name the team mapping's shape on this back end", "[pop][results]") {
  SetupSummary s;
  s.solver.mapping = proxylab::Mapping::team;
  const std::string shape = proxylab::team_shape().name();
  CHECK(s.to_text().find("mapping team (" + shape + ")") != std::string::npos);
  CHECK(s.to_json()["mapping_shape"] == "team (" + shape + ")");
  s.solver.mapping = proxylab::Mapping::flat;
  CHECK(s.to_text().find("mapping flat,") != std::string::npos);
  CHECK(s.to_json()["mapping_shape"] == "flat");
}
