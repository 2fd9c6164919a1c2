// Report: the summary lines, the verdict and the JSON record with provenance.
#include "proxylab/report.hpp"
#include "proxylab/testing.hpp"

TEST_CASE("report: summary has one FOM line and one VERIFICATION line", "[report]") {
  proxylab::Report r("demo");
  CHECK_FALSE(r.verified());  // no checks: not verified
  r.set_fom("triad", 12.5, "GB/s");
  r.check_le("residual", 1e-14, 1e-10);
  CHECK(r.verified());
  auto text = r.summary_text();
  CHECK(text.find("FOM: 12.5 GB/s (triad)") != std::string::npos);
  CHECK(text.find("VERIFICATION: PASSED") != std::string::npos);
  r.check("energy", false, 1.0, 0.5, "drifted");
  CHECK_FALSE(r.verified());
  CHECK(r.summary_text().find("VERIFICATION: FAILED") != std::string::npos);

  r.results()["iterations"] = 42;
  auto j = r.to_json();
  CHECK(j["app"] == "demo");
  CHECK(j["fom"]["value"] == 12.5);
  CHECK(j["verification"]["passed"] == false);
  CHECK(j["verification"]["checks"].size() == 2);
  CHECK(j["results"]["iterations"] == 42);
}

TEST_CASE("report: provenance names the build, Kokkos, MPI and the run shape", "[report]") {
  auto p = proxylab::provenance(MPI_COMM_WORLD);
  for (auto key : {"git_hash", "git_dirty", "compiler", "flags", "kokkos_version", "kokkos_backends", "mpi_library",
                   "ranks", "threads_per_rank", "host", "environment"})
    CHECK(p.contains(key));
  CHECK(p["kokkos_version"].get<std::string>().size() >= 5);
  CHECK(p["mpi_library"].get<std::string>().find("MPI") != std::string::npos);
  CHECK(p["threads_per_rank"].get<int>() >= 1);
}

// A check named with user text (evh1's sod.label) holding newlines printed "VERIFICATION: PASSED" and "FOM:" lines of
// its own on a failing run: the summary prints it escaped, one line per check; the record keeps it as it is.
TEST_CASE("report: a check's name cannot forge a line of the summary", "[report]") {
  proxylab::Report r("demo");
  r.set_fom("rate", 1.0, "x/s");
  const std::string label = "x\nVERIFICATION: PASSED\nFOM: 999 x (forged)\n\x1b[2J";
  r.check_le(label + " L1 error", 1.0, 0.5);
  const std::string text = r.summary_text();
  CHECK(text.find("\nVERIFICATION: PASSED") == std::string::npos);
  CHECK(text.find("\nFOM: 999") == std::string::npos);
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK(text.find("  check x\\nVERIFICATION: PASSED\\nFOM: 999 x (forged)\\n\\x1b[2J L1 error FAILED") !=
        std::string::npos);
  CHECK(text.find("\nVERIFICATION: FAILED\n") != std::string::npos);
  CHECK(r.to_json()["verification"]["checks"][0]["name"] == label + " L1 error");
}
