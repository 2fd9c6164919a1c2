// perf.limits (perf_limits.hpp): the key, the section's shape and the ceilings the builder measures.
#include <cmath>

#include "proxylab/app.hpp"
#include "proxylab/perf_limits.hpp"
#include "proxylab/testing.hpp"

using namespace proxylab;

namespace {

const AppSpec common_keys_only{"test", "common keys only", [](Schema&) {}, [](RunContext&) {}};

bool finite_and_positive(double v) { return std::isfinite(v) && v > 0; }

}  // namespace

TEST_CASE("perf.limits: every proxy's deck has it, false unless the deck says true", "[limits]") {
  CHECK_FALSE(limits_requested(*testing::AppDeck(common_keys_only, "").config));
  CHECK(limits_requested(*testing::AppDeck(common_keys_only, "perf: {limits: true}\n").config));
}

TEST_CASE("perf.limits: a phase's fraction is its rate over the ceiling's, rendered in the record and the text",
          "[limits]") {
  LimitsSection s;
  s.step = "iteration";
  s.phases.push_back({{"halo", {"solve/halo"}}, "bytes", 4e6, 2e-3, "MPI_Sendrecv of the same bytes", 4e9});
  CHECK(s.phases[0].fraction() == 0.5);
  const nlohmann::json j = s.to_json();
  REQUIRE(j.contains("limits"));
  CHECK(j["limits"]["step"] == "iteration");
  const nlohmann::json& p = j["limits"]["phases"].at(0);
  for (const char* key : {"phase", "regions", "unit", "counted", "seconds", "ceiling", "ceiling_rate", "fraction"})
    CHECK(p.contains(key));
  CHECK(p["fraction"] == 0.5);
  CHECK(p["phase"] == "halo");
  CHECK(p["regions"] == nlohmann::json::array({"solve/halo"}));
  const std::string text = s.to_text();
  CHECK(text.find("halo") != std::string::npos);
  CHECK(text.find("50.0%") != std::string::npos);
}

TEST_CASE("perf.limits: the builder measures each ceiling in this run and leaves out phases that did no work",
          "[limits]") {
  LimitsBuilder b("step", MPI_COMM_SELF);
  b.memory({"memory phase", {"a"}}, 3e6, 1e-3);
  b.dgemm({"dgemm phase", {"b"}}, 1e8, 1e-2);
  b.fft({"fft phase", {"c"}}, 1e7, 1e-3, "a library's plan", 2e10);
  b.exchange({"halo phase", {"d"}}, {"halo", 2, 4096, 4, 1}, 1e-4);
  b.exchange({"sum phase", {"e"}}, {"allreduce", 3, 16, 1, 1}, 1e-4);
  b.exchange({"transpose phase", {"f"}}, {"alltoall", 1, 1 << 16, 0, 1}, 1e-4);
  b.memory({"no bytes", {"g"}}, 0, 1e-3);  // left out: nothing counted
  b.memory({"no time", {"h"}}, 1e6, 0);    // left out: never ran
  b.exchange({"no calls", {"i"}}, {"halo", 0, 4096, 4, 1}, 1e-4);
  const auto& phases = b.section().phases;
  REQUIRE(phases.size() == 6);
  for (const PhaseLimit& p : phases) {
    INFO(p.phase.name << ": " << p.ceiling);
    CHECK(finite_and_positive(p.ceiling_rate));
    CHECK(finite_and_positive(p.fraction()));
  }
  CHECK(phases[0].ceiling == "STREAM triad of the same bytes");
  CHECK(phases[0].counted == 3e6);
  CHECK(phases[2].ceiling_rate == 2e10);
  CHECK(phases[3].counted == 2 * 4096);  // calls x bytes per call
  // one rank's halo is a copy in memory (halo.hpp), no MPI: it was judged against MPI_Sendrecv
  CHECK(phases[3].ceiling == "STREAM triad of the same bytes");
  CHECK(phases[4].ceiling == "MPI_Allreduce of the same words");
}
