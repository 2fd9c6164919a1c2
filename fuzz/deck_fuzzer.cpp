// libFuzzer target for deck parsing and validation: the bytes of a deck through read_deck_entries
// (deck_yaml.hpp) and Config (config.hpp) against the real Schema of a proxy. The schemas are those the
// apps declare, dumped by `proxylab-APP --deck-schema` into the folder named by PROXYLAB_FUZZ_SCHEMAS
// (fuzz/run.sh does it). Input: the first byte picks the schema, the rest is the deck; after a line
// "#--set", every further line is a --set override.
// Contract: a Config is built or InputError is thrown. Any other exception, a crash, a sanitizer report
// or a slow input is a bug (fuzz/README.md).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "proxylab/config.hpp"
#include "proxylab/errors.hpp"

namespace {

std::vector<proxylab::Schema>& schemas() {
  static std::vector<proxylab::Schema> all;
  return all;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* dir = std::getenv("PROXYLAB_FUZZ_SCHEMAS");
  std::vector<std::filesystem::path> files;  // sorted: the first byte of an input always picks the same app
  if (dir != nullptr && std::filesystem::is_directory(dir))
    for (const auto& file : std::filesystem::directory_iterator(dir))
      if (file.path().extension() == ".json") files.push_back(file.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    std::ifstream in(file);
    schemas().push_back(proxylab::Schema::from_json(nlohmann::json::parse(in)));
  }
  if (schemas().empty()) {
    std::fprintf(stderr, "deck fuzzer: set PROXYLAB_FUZZ_SCHEMAS to a folder of proxylab-APP --deck-schema dumps\n");
    std::abort();
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const proxylab::Schema& schema = schemas()[data[0] % schemas().size()];
  std::string deck(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::vector<std::string> overrides;
  const auto marker = deck.find("#--set\n");
  if (marker != std::string::npos) {
    std::istringstream lines(deck.substr(marker + 7));
    for (std::string line; std::getline(lines, line);) overrides.push_back(line);
    deck.resize(marker);
  }
  try {
    const proxylab::Config config(schema, deck, "fuzz.yaml", overrides);
    (void)config.to_json().dump();
    (void)config.describe();
  } catch (const proxylab::InputError&) {
  }
  return 0;
}
