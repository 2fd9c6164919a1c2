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
