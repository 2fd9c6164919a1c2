// Config: every error path names the key, the value and what is allowed.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

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
  SECTION("malformed --set") {
    CHECK(error_of(s, "", {"grid.nx"}).find("expected section.key=value") != std::string::npos);
  }
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
  SECTION("numbers read alike whatever blanks surround them; huge and tiny ones say why") {
    Config blanks(s, "", "", {"grid.nx= 64", "solver.crit=1e-10 "});
    CHECK(blanks.integer("grid.nx") == 64);  // ' 64' was accepted and '64 ' refused
    CHECK(blanks.real("solver.crit") == 1e-10);
    CHECK(Config(s, "", "", {"grid.nx=64 "}).integer("grid.nx") == 64);
    CHECK(error_of(s, "", {"grid.nx=9223372036854775808"}).find("(out of range)") != std::string::npos);  // 2^63
    CHECK(error_of(s, "", {"grid.nx=-1e30"}).find("(out of range)") != std::string::npos);
    CHECK(error_of(s, "", {"solver.crit=1e-400"}).find("underflows to 0") != std::string::npos);  // was read as 0
    CHECK(Config(s, "", "", {"solver.crit=5e-324"}).real("solver.crit") > 0);  // the smallest double is a number
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
  SECTION("top level not a mapping") {
    CHECK(error_of(s, "- 1\n- 2\n").find("must be a mapping") != std::string::npos);
  }
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
  for (auto k : {"grid.nx", "solver.crit", "solver.fused", "solver.kind", "run.label"})
    CHECK(h.find(k) != std::string::npos);
}

// Hostile YAML is refused with exit 2 (InputError) naming the deck, the line and the
// column, before any alias is expanded. Before the fix a non-scalar key threw YAML::TypedBadConversion
// (std::terminate on every rank), duplicate keys and extra documents were silently accepted, and the alias bomb
// below expanded to 10^9 keys (bad_alloc).
TEST_CASE("config: hostile YAML is refused, naming line and column", "[config][yaml]") {
  Schema s = make_schema();
  SECTION("a list or a mapping as a key") {
    auto e = error_of(s, "? [a, b]\n: 1\n");
    CHECK(e.find("deck deck.yaml: line 1, column 3: a list as a key") != std::string::npos);
    CHECK(error_of(s, "grid:\n  ? {a: 1}\n  : 2\n").find("line 2, column 5: a mapping as a key") != std::string::npos);
  }
  SECTION("an empty key or an alias as a key") {
    CHECK(error_of(s, "~: 1\n").find("line 1, column 1: an empty or null key") != std::string::npos);
    CHECK(error_of(s, "grid:\n  null: 1\n").find("line 2, column 3: an empty or null key") != std::string::npos);
    CHECK(error_of(s, "a: &k grid\n*k : 1\n").find("an alias (*name) as a key") != std::string::npos);
  }
  SECTION("a key given twice") {
    auto e = error_of(s, "grid:\n  nx: 64\n  nx: 32\n");
    CHECK(e.find("line 3, column 3: key 'grid.nx' given twice (first at line 2)") != std::string::npos);
    CHECK(error_of(s, "grid:\n  nx: 64\ngrid.nx: 32\n").find("key 'grid.nx' given twice") != std::string::npos);
    CHECK(error_of(s, "grid: {nx: 1}\ngrid: {nx: 2}\n").find("key 'grid' given twice") != std::string::npos);
  }
  SECTION("more than one document") {
    auto e = error_of(s, "grid:\n  nx: 64\n---\ngrid:\n  nx: 32\n");
    CHECK(e.find("line 3, column 1: a second YAML document") != std::string::npos);
  }
  SECTION("no document at all, or not a mapping") {
    CHECK(error_of(s, "# only a comment\n").find("holds no YAML document") != std::string::npos);
    CHECK(error_of(s, "---\n").find("top level must be a mapping") != std::string::npos);
    CHECK(error_of(s, "just text\n").find("top level must be a mapping") != std::string::npos);
  }
  SECTION("an alias bomb is refused before it is expanded") {
    // 9 levels of 9 aliases each: 9^9 leaves once expanded, 0.4 KiB of text.
    std::string deck = "l0: &l0 {a: 1, b: 1, c: 1, d: 1, e: 1, f: 1, g: 1, h: 1, i: 1}\n";
    for (int level = 1; level <= 9; ++level) {
      const std::string prev = "*l" + std::to_string(level - 1);
      deck += "l" + std::to_string(level) + ": &l" + std::to_string(level) + " {a: " + prev + ", b: " + prev +
              ", c: " + prev + ", d: " + prev + ", e: " + prev + ", f: " + prev + ", g: " + prev + ", h: " + prev +
              ", i: " + prev + "}\n";
    }
    auto e = error_of(s, deck);
    CHECK(e.find("more than 10000 YAML nodes once aliases are expanded") != std::string::npos);
  }
  SECTION("an alias inside the node it names (a cycle)") {
    CHECK(error_of(s, "grid: &g {nx: *g}\n").find("an alias to a node that contains it") != std::string::npos);
  }
  SECTION("nesting 30000 deep is refused at the limit") {
    auto e = error_of(s, std::string(30000, '[') + std::string(30000, ']') + "\n");
    CHECK(e.find("line 1, column 201: nesting deeper than 200 levels") != std::string::npos);
    std::string maps;
    for (int k = 0; k < 300; ++k) maps += "{a: ";
    CHECK(error_of(s, maps + "1" + std::string(300, '}')).find("nesting deeper than 200") != std::string::npos);
  }
  SECTION("aliases count their expanded depth") {
    // 120 levels under the anchor, 100 around the alias: 221 levels once expanded, 222 nodes.
    const std::string deck = "a: &a " + std::string(120, '[') + std::string(120, ']') +
                             "\nb: " + std::string(100, '[') + "*a" + std::string(100, ']') + "\n";
    CHECK(error_of(s, deck).find("line 2, column 104: nesting deeper than 200 levels (aliases expanded)") !=
          std::string::npos);
  }
  SECTION("yaml-cpp's own errors name line and column") {
    CHECK(error_of(s, "grid:\n  nx: [1, 2\n").find("line 3, column 1: not valid YAML") != std::string::npos);
    CHECK(error_of(s, "grid: *undefined\n").find("line 1, column 7: not valid YAML") != std::string::npos);
  }
  SECTION("a deck over 64 KiB is refused; a 60 KB key or value is quoted short") {
    CHECK(error_of(s, "description: '" + std::string(1 << 16, 'x') + "'\n").find("a deck may hold at most 65536") !=
          std::string::npos);
    auto e = error_of(s, "? " + std::string(60000, 'k') + "\n: 1\n");
    CHECK(e.find("unknown key 'kkkk") != std::string::npos);
    CHECK(e.find("... (60000 bytes)'") != std::string::npos);
    CHECK(e.size() < 300);
    e = error_of(s, "grid.nx: '" + std::string(60000, '9') + "'\n");
    CHECK(e.find("has value '9999") != std::string::npos);
    CHECK(e.size() < 300);
  }
  SECTION("a tag is refused, not ignored") {
    CHECK(error_of(s, "grid:\n  nx: !foo 64\n").find("line 2, column 7: a YAML tag '!foo'") != std::string::npos);
    CHECK(error_of(s, "run: !!map {label: x}\n").find("line 1, column 6: a YAML tag") != std::string::npos);
    CHECK(error_of(s, "grid:\n  ? !k nx\n  : 3\n").find("a YAML tag '!k'") != std::string::npos);
    CHECK(error_of(s, "run:\n  label: !!str x\n").find("a YAML tag") != std::string::npos);
    CHECK(Config(s, "run:\n  label: '!foo'\n", "deck.yaml").text("run.label") == "!foo");  // quoted: text
  }
  SECTION("aliases of complete nodes and dotted keys still work") {
    Config c(s, "description: &d 640\ngrid.nx: *d\n", "deck.yaml");
    CHECK(c.integer("grid.nx") == 640);
  }
}

TEST_CASE("config: deck files that are empty, too large or a directory are input errors", "[config][yaml]") {
  auto error_of_file = [](const std::string& path) -> std::string {
    try {
      proxylab::load_deck_text(path, MPI_COMM_WORLD);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  const std::string dir = "test_config_decks";
  std::filesystem::create_directories(dir);
  CHECK(error_of_file(dir).find("--deck 'test_config_decks': is a directory") != std::string::npos);
  std::ofstream(dir + "/empty.yaml").close();
  CHECK(error_of_file(dir + "/empty.yaml").find("is empty") != std::string::npos);
  std::ofstream(dir + "/big.yaml") << std::string((1 << 16) + 1, '#');
  CHECK(error_of_file(dir + "/big.yaml").find("larger than 65536 bytes") != std::string::npos);
  std::ofstream(dir + "/ok.yaml") << "grid: {nx: 3}\n";
  CHECK(proxylab::load_deck_text(dir + "/ok.yaml", MPI_COMM_WORLD) == "grid: {nx: 3}\n");
  // a device is no deck (an endless one, /dev/zero, was read to the size limit)
  CHECK(error_of_file("/dev/zero")
            .find("--deck '/dev/zero': is a character device, not a deck file; allowed: a "
                  "YAML deck file") != std::string::npos);
  CHECK(error_of_file("/dev/null").find("is a character device") != std::string::npos);
}

// --deck on a FIFO with no writer hung the binary in open() (and SIGTERM did not end it): it is opened without
// waiting now, and refused at once when nothing is in it and nobody writes. A pipe with a writer is read.
TEST_CASE("config: a deck is never waited for", "[config][yaml]") {
  const std::string dir = "test_config_decks";
  std::filesystem::create_directories(dir);
  const std::string fifo = dir + "/deck.fifo";
  std::filesystem::remove(fifo);
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  alarm(20);  // a hang ends the test (SIGALRM) instead of waiting for ctest's timeout
  try {
    proxylab::load_deck_text(fifo, MPI_COMM_WORLD);
    FAIL("a FIFO with no writer was accepted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) ==
          "--deck '" + fifo +
              "': is a pipe with no writer and nothing in it (reading would wait forever); allowed: a YAML deck file "
              "such as inputs/pop/x1.yaml, or a pipe a program writes the deck into (--deck /dev/stdin after |)");
  }
  const int writer = ::open(fifo.c_str(), O_RDWR);  // a writer (and a reader) that has written its deck
  REQUIRE(writer >= 0);
  REQUIRE(::write(writer, "grid: {nx: 3}\n", 14) == 14);
  std::string text;
  std::thread close_later([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::close(writer);  // the reader waits for this EOF, not for a deck that would never end
  });
  text = proxylab::load_deck_text(fifo, MPI_COMM_WORLD);
  close_later.join();
  alarm(0);
  CHECK(text == "grid: {nx: 3}\n");
}

// --deck /dev/null through the front end named the front end's private copy of it; every message names the deck as
// the user gave it, escaped on one line.
TEST_CASE("config: messages name the deck as the user did, on one line", "[config][yaml]") {
  auto error_of_file = [](const std::string& path, const std::string& name) -> std::string {
    try {
      proxylab::load_deck_text(path, MPI_COMM_WORLD, name);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(error_of_file("/nonexistent/copy.yaml", "/dev/stdin").find("--deck '/dev/stdin': file not found") == 0);
  const std::string e = error_of_file("/nonexistent/copy.yaml", "a\nVERIFICATION: PASSED");
  CHECK(e.find("--deck 'a\\nVERIFICATION: PASSED'") == 0);
  Schema s = make_schema();
  try {
    Config c(s, "grid:\n  nxx: 3\n", "d\r\x1b[2J.yaml");
    FAIL("an unknown key was accepted");
  } catch (const InputError& err) {
    CHECK(std::string(err.what()).find("deck d\\r\\x1b[2J.yaml: line 2, column 8: unknown key 'grid.nxx'") == 0);
  }
  Config c(s, "run:\n  label: \"x\\nVERIFICATION: PASSED\\x1b[2J\"\n", "deck\n.yaml");
  const std::string text = c.describe();
  CHECK(text.find("run.label = 'x\\nVERIFICATION: PASSED\\x1b[2J'   [deck\\n.yaml]\n") != std::string::npos);
  CHECK(text.find("\nVERIFICATION") == std::string::npos);
  CHECK(text.find('\x1b') == std::string::npos);
}

// evh1 65536^2 used to end with a bare "std::bad_alloc"; every run now ends an exception with
// failure_message() (app.cpp), which says what happened and what to change.
TEST_CASE("errors: an allocation failure is reported as out of memory", "[errors]") {
  const std::string m = proxylab::failure_message(std::bad_alloc());
  CHECK(m.find("out of memory (std::bad_alloc)") != std::string::npos);
  CHECK(m.find("reduce the problem size") != std::string::npos);
  CHECK(proxylab::failure_message(proxylab::RuntimeError("solver diverged")) == "solver diverged");
}

// Found by the deck fuzzer (fuzz/regressions/invalid-utf8-*.yaml): a text value with bytes that are not UTF-8
// passed validation, and the run record's JSON dump threw at the end of the run (exit 3, 0-byte record).
TEST_CASE("config: text values must be UTF-8; messages quote bad bytes as \\xHH", "[config][yaml]") {
  Schema s = make_schema();
  const std::string e = error_of(s,
                                 "run:\n  label: \"a\xf6"
                                 "b\"\n");
  CHECK(e.find("key 'run.label' has value 'a\\xf6b' (not UTF-8 text)") != std::string::npos);
  CHECK(error_of(s, "", {"run.label=\xed\xa0\x80"}).find("not UTF-8") != std::string::npos);  // a surrogate
  Config ok(s, "run:\n  label: \"h\xc3\xa9t\xe2\x82\xac \xf0\x9f\x98\x80\"\n", "deck.yaml");
  CHECK(ok.text("run.label") == "h\xc3\xa9t\xe2\x82\xac \xf0\x9f\x98\x80");
  CHECK_NOTHROW(ok.to_json().dump());
  // every byte string the check accepts is one nlohmann::json can write
  for (const std::string t : {"\xc0\x80", "\xe0\x80\x80", "\xf4\x90\x80\x80", "\xf5", "\xc3", "ok"})
    if (proxylab::is_utf8(t))
      CHECK_NOTHROW(nlohmann::json(t).dump());
    else
      CHECK_THROWS(nlohmann::json(t).dump());
}

TEST_CASE("config: a schema survives its JSON form (--deck-schema, the deck fuzzer)", "[config]") {
  const Schema s = make_schema();
  const Schema back = Schema::from_json(s.to_json());
  CHECK(back.help() == s.help());
  CHECK(back.find("grid.nx")->max == 100000);
  CHECK(back.find("solver.kind")->allowed == std::vector<std::string>{"pcg", "chrongear"});
  Schema files;
  files.file("out.data", proxylab::FileUse::output, "a file the run writes")
      .file("fft.wisdom", proxylab::FileUse::rewritten, "read, then rewritten");
  CHECK(files.to_json()[1]["file"] == "rewritten");
  const Schema files_back = Schema::from_json(files.to_json());
  REQUIRE(files_back.files().size() == 2);
  CHECK(files_back.files()[0].use == proxylab::FileUse::output);
  CHECK(files_back.files()[1].key == "fft.wisdom");
}
