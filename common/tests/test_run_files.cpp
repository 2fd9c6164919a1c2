// A run's files kept apart (run_files.hpp) and outputs through symbolic links (output_file.hpp), at 1, 2 and 4 ranks:
// rank 0 looks at the files, every rank refuses together.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "proxylab/config.hpp"
#include "proxylab/errors.hpp"
#include "proxylab/output_file.hpp"
#include "proxylab/run_files.hpp"
#include "proxylab/testing.hpp"

namespace fs = std::filesystem;
using proxylab::FileUse;
using proxylab::RunFiles;

namespace {

int rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

// A fresh folder of this rank's (`shared`: rank 0's, made before the other ranks look) under the test's folder.
fs::path folder(const std::string& name, bool shared = false) {
  const fs::path dir = fs::absolute("test_run_files") / (shared ? name : name + "-" + std::to_string(rank()));
  if (!shared || rank() == 0) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return dir;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> data_and_header(const std::string& path) { return {path, path + ".json"}; }

}  // namespace

TEST_CASE("run files: one file by any of its names", "[run_files]") {
  const fs::path dir = folder("names");
  const std::string deck = dir / "deck.yaml";
  std::ofstream(deck) << "grid: {nx: 3}\n";
  fs::create_symlink(deck, dir / "link.yaml");
  fs::create_hard_link(deck, dir / "hard.yaml");
  fs::create_symlink(dir / "new.json", dir / "dangling.json");
  for (const std::string& other : std::vector<std::string>{"link.yaml", "hard.yaml", "./deck.yaml",
                                                           "../" + dir.filename().string() + "/deck.yaml"})
    CHECK(proxylab::same_file(deck, (dir / other).string()));
  // neither exists: the same path once links are followed (a dangling link stands for its target)
  CHECK(proxylab::same_file(dir / "dangling.json", dir / "new.json"));
  CHECK(proxylab::output_target(dir / "dangling.json") == (dir / "new.json").string());
  CHECK_FALSE(proxylab::same_file(dir / "new.json", dir / "other.json"));
  CHECK_FALSE(proxylab::same_file(deck, dir / "new.json"));
}

// --json DECK replaced the run's deck by its record; --trace x --json x, evh1's density header and --json, and pop's
// operator file and the deck replaced one another in silence.
TEST_CASE("run files: no output is an input or another output of the run", "[run_files]") {
  const fs::path dir = folder("conflicts");
  const std::string deck = dir / "deck.yaml", out = dir / "x.json", wisdom = dir / "fft.wisdom";
  std::ofstream(deck) << "grid: {nx: 3}\n";
  auto conflict = [](std::initializer_list<std::tuple<std::string, std::string, FileUse>> files) {
    RunFiles f;
    for (const auto& [what, path, use] : files) f.add(what, path, use);
    return f.conflict();
  };
  CHECK(conflict({{"--deck", deck, FileUse::input}, {"--json", deck, FileUse::output}}) ==
        "--json '" + deck + "' is the same file as --deck '" + deck +
            "': an output may not replace an input of the run; allowed: a path that names none of the run's inputs");
  CHECK(conflict({{"--trace", out, FileUse::output}, {"--json", out, FileUse::output}}) ==
        "--trace '" + out + "' and --json '" + out +
            "' are the same file: one output would replace the other; allowed: a separate file for each output");
  // the wisdom file is read and rewritten by design: alone it is no conflict, as --json it is
  CHECK(conflict({{"--deck", deck, FileUse::input}, {"fft3d.wisdom", wisdom, FileUse::rewritten}}).empty());
  CHECK(conflict({{"--json", wisdom, FileUse::output}, {"fft3d.wisdom", wisdom, FileUse::rewritten}})
            .find("--json '" + wisdom + "' is the same file as fft3d.wisdom '" + wisdom + "'") == 0);
  CHECK(conflict({{"--deck", deck, FileUse::input}, {"fft3d.wisdom", deck, FileUse::rewritten}})
            .find("fft3d.wisdom '" + deck + "' is the same file as --deck") == 0);
  // two inputs may be one file; targets written in place replace nothing
  CHECK(conflict({{"--deck", deck, FileUse::input}, {"other", deck, FileUse::input}}).empty());
  CHECK(conflict({{"--json", "/dev/stdout", FileUse::output},
                  {"--trace", "/dev/stdout", FileUse::output},
                  {"a", "/dev/null", FileUse::output},
                  {"b", "/dev/null", FileUse::output}})
            .empty());

  // the deck's file keys, with the files a value names
  proxylab::Schema schema;
  schema.file("output.density_file", FileUse::output, "data and header", data_and_header);
  RunFiles files;
  files.add("--json", out + ".json", FileUse::output);
  files.add_declared(schema, proxylab::Config(schema, "", "", {"output.density_file=" + out}));
  CHECK(files.conflict() == "--json '" + out + ".json' and output.density_file '" + out + "' (its file '" + out +
                                ".json') are the same file: one output would replace the other; allowed: a separate "
                                "file for each output");
}

TEST_CASE("run files: every rank refuses together and nothing is removed", "[run_files]") {
  const fs::path dir = folder("collective", true);
  const std::string deck = dir / "deck.yaml";
  if (rank() == 0) std::ofstream(deck) << "grid: {nx: 3}\n";
  MPI_Barrier(MPI_COMM_WORLD);
  {
    // An output made before the check (the life cycle makes --json and --trace before the deck is read, so that a
    // bad deck removes their stale files) would have removed the deck as "stale" when the run ended refused.
    proxylab::OutputFile json(MPI_COMM_WORLD, 0, "--json", deck);
    RunFiles files;
    files.add("--deck", deck, FileUse::input);
    files.add("--json", deck, FileUse::output);
    CHECK_THROWS_AS(files.check(MPI_COMM_WORLD, {&json}), proxylab::InputError);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(read(deck) == "grid: {nx: 3}\n");
}

// A dangling link given as --trace (or a density, operator or wisdom file) was replaced by a regular file, while the
// front end's --json wrote the link's target: every output writes the target now, and the link stays.
TEST_CASE("output files: a symbolic link stands for its target", "[run_files][output_file]") {
  const fs::path dir = folder("links", true);
  const fs::path link = dir / "trace.json", target = dir / "target.json";
  if (rank() == 0) fs::create_symlink(target, link);
  MPI_Barrier(MPI_COMM_WORLD);
  {
    proxylab::OutputFile out(MPI_COMM_WORLD, 0, "--trace", link.string());
    out.commit("{}\n");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(fs::is_symlink(link));
  CHECK(read(target) == "{}\n");
  { proxylab::OutputFile stale(MPI_COMM_WORLD, 0, "--trace", link.string()); }  // a run that wrote nothing
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(fs::is_symlink(link));
  CHECK_FALSE(fs::exists(target));  // the earlier run's file is gone, the link stays
}
