// Timers: nesting, call counts, totals, overhead measurement and the cross-rank reduction.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "proxylab/testing.hpp"
#include "proxylab/timers.hpp"

TEST_CASE("timers: nested regions, counts and totals", "[timers]") {
  proxylab::Timers t;
  for (int k = 0; k < 3; ++k) {
    auto outer = t.scope("solve");
    {
      auto inner = t.scope("halo", proxylab::Category::communication);
      usleep(2000);
    }
    usleep(1000);
  }
  CHECK(t.calls("solve") == 3);
  CHECK(t.calls("solve/halo") == 3);
  CHECK(t.seconds("solve/halo") >= 0.006);
  CHECK(t.seconds("solve") >= t.seconds("solve/halo") + 0.003);
  CHECK(t.seconds("nope") == 0.0);
  CHECK(t.overhead_seconds() > 0.0);
  CHECK(t.overhead_seconds() < 1e-4);

  auto stats = t.reduce(MPI_COMM_WORLD);
  REQUIRE(stats.size() == 2);
  CHECK(stats[0].path == "solve/halo");  // first stopped region is listed first
  CHECK(stats[0].category == "communication");
  CHECK(stats[1].calls == 3);
  CHECK(stats[1].min <= stats[1].avg);
  CHECK(stats[1].avg <= stats[1].max);
  auto table = proxylab::format_timer_table(stats);
  CHECK(table.find("solve/halo") != std::string::npos);
  CHECK(table.find("imbal%") != std::string::npos);
}

TEST_CASE("timers: disabled timers record nothing", "[timers]") {
  proxylab::Timers t;
  t.set_enabled(false);
  { auto s = t.scope("x"); }
  CHECK(t.calls("x") == 0);
}

TEST_CASE("timers: regions become trace spans", "[timers][trace]") {
  proxylab::Trace trace(MPI_COMM_WORLD, true);
  proxylab::Timers t(&trace);
  { auto s = t.scope("step"); }
  { auto s = t.scope("alltoall", proxylab::Category::communication); }
  std::string path = "test_trace_" + std::to_string(getpid()) + ".json";
  proxylab::OutputFile out(MPI_COMM_WORLD, 0, "--trace", path);
  CHECK(trace.write(out) == 2);
  std::ifstream in(path);
  auto doc = nlohmann::json::parse(in);
  int spans = 0;
  for (auto& e : doc["traceEvents"])
    if (e["ph"] == "X") {
      ++spans;
      CHECK(e["pid"] == 0);
      CHECK(e["dur"].get<double>() >= 0.0);
    }
  CHECK(spans == 2);
  std::remove(path.c_str());
}

TEST_CASE("timers: injected slowdown stretches a region's own compute time only", "[timers]") {
  proxylab::Timers t;
  t.set_slowdown(3.0);
  double slept = 0;  // the halo region's own time, as long as the machine's load makes it
  {
    auto outer = t.scope("step");
    usleep(2000);
    {
      auto comm = t.scope("halo", proxylab::Category::communication);  // communication is never stretched
      const auto t0 = std::chrono::steady_clock::now();
      usleep(2000);
      slept = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
  }
  // Stretched, the halo region would last 3x its own time; unstretched it is its own time plus the timer's overhead.
  CHECK(t.seconds("step/halo") < 1.5 * slept);
  CHECK(t.seconds("step") >= t.seconds("step/halo") + 3 * 0.002);
}
