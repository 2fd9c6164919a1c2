// Config: every error path names the key, the value and what is allowed.
#include "proxylab/config.hpp"

#include "proxylab/errors.hpp"
#include "proxylab/testing.hpp"

using proxylab::Config;
using proxylab::InputError;
using proxylab::Schema;

namespace {
Schema make_schema() {
  Schema s;
  s.integer("grid.nx", 64, 1, 100000, "cells in x")
      .real("solver.crit", 1e-13, 0.0, 1.0, "convergence criterion")
      .boolean("solver.fused", true, "fused vector updates")
      .choice("solver.kind", "pcg", {"pcg", "chrongear"}, "solver")
      .text("run.label", "", "free label");
  return s;
}
std::string error_of(const Schema& s, const std::string& deck, const std::vector<std::string>& sets = {}) {
  try {
    Config c(s, deck, "deck.yaml", sets);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("config: defaults, deck values and overrides", "[config]") {
  Schema s = make_schema();
  Config d(s, "", "");
  CHECK(d.integer("grid.nx") == 64);
  CHECK(d.real("solver.crit") == 1e-13);
  CHECK(d.boolean("solver.fused"));
  CHECK(d.choice("solver.kind") == "pcg");

  Config c(s, "grid:\n  nx: 320\nsolver:\n  kind: chrongear\n  fused: no\n", "deck.yaml",
           {"solver.crit=1e-10", "grid.nx=1e3"});
  CHECK(c.integer("grid.nx") == 1000);  // --set wins over the deck; 1e3 is an integral value
  CHECK(c.real("solver.crit") == 1e-10);
  CHECK_FALSE(c.boolean("solver.fused"));
  CHECK(c.choice("solver.kind") == "chrongear");
  auto j = c.to_json();
  CHECK(j["grid"]["nx"] == 1000);
  CHECK(j["solver"]["kind"] == "chrongear");
  CHECK(c.describe().find("grid.nx = 1000   [--set]") != std::string::npos);
}

TEST_CASE("config: every error names key, value and what is allowed", "[config]") {
  Schema s = make_schema();
  SECTION("unknown key in the deck, with a hint") {
    auto e = error_of(s, "grid:\n  nxx: 3\n");
    CHECK(e.find("unknown key 'grid.nxx'") != std::string::npos);
    CHECK(e.find("did you mean 'grid.nx'") != std::string::npos);
  }
  SECTION("unknown key in --set") {
    CHECK(error_of(s, "", {"solver.tol=1"}).find("--set: unknown key 'solver.tol'") != std::string::npos);
  }
  SECTION("malformed --set") { CHECK(error_of(s, "", {"grid.nx"}).find("expected section.key=value") != std::string::npos); }
  SECTION("wrong type") {
    auto e = error_of(s, "grid:\n  nx: 3.5\n");
    CHECK(e.find("key 'grid.nx' has value '3.5'") != std::string::npos);
    CHECK(e.find("an integer in [1, 100000]") != std::string::npos);
    CHECK(error_of(s, "solver:\n  crit: abc\n").find("not a finite real") != std::string::npos);
    CHECK(error_of(s, "solver:\n  fused: maybe\n").find("true or false") != std::string::npos);
  }
  SECTION("out of range") {
    auto e = error_of(s, "", {"grid.nx=0"});
    CHECK(e.find("'grid.nx' has value '0' (out of range)") != std::string::npos);
    CHECK(error_of(s, "", {"solver.crit=2"}).find("out of range") != std::string::npos);
  }
  SECTION("NaN and infinity are not numbers here") {
    CHECK(error_of(s, "", {"solver.crit=nan"}).find("not a finite real") != std::string::npos);
    CHECK(error_of(s, "", {"solver.crit=inf"}).find("not a finite real") != std::string::npos);
  }
  SECTION("unknown choice lists the allowed ones") {
    CHECK(error_of(s, "", {"solver.kind=cg"}).find("one of: pcg, chrongear") != std::string::npos);
  }
  SECTION("a list where a value belongs") {
    CHECK(error_of(s, "grid:\n  nx: [1, 2]\n").find("must be a single value") != std::string::npos);
  }
  SECTION("not YAML") { CHECK(error_of(s, "grid: [unclosed\n").find("not valid YAML") != std::string::npos); }
  SECTION("top level not a mapping") { CHECK(error_of(s, "- 1\n- 2\n").find("must be a mapping") != std::string::npos); }
  SECTION("app-level rule via reject") {
    Config c(s, "", "deck.yaml", {"grid.nx=7"});
    try {
      c.reject("grid.nx", "a multiple of 4");
      FAIL("reject did not throw");
    } catch (const InputError& e) {
      CHECK(std::string(e.what()).find("key 'grid.nx' has value '7'; allowed: a multiple of 4") != std::string::npos);
    }
  }
}

TEST_CASE("config: missing deck file is an input error", "[config]") {
  CHECK_THROWS_AS(proxylab::load_deck_text("/nonexistent/deck.yaml", MPI_COMM_WORLD), InputError);
  CHECK(proxylab::load_deck_text("", MPI_COMM_WORLD).empty());
}

TEST_CASE("config: schema help lists every key", "[config]") {
  auto h = make_schema().help();
  for (auto k : {"grid.nx", "solver.crit", "solver.fused", "solver.kind", "run.label"}) CHECK(h.find(k) != std::string::npos);
}
