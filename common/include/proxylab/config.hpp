// Typed, validated run parameters from a YAML deck plus `--set section.key=value` overrides.
//
// An app declares its parameters once in a Schema (type, default, allowed values, one line of doc);
// Config then reads the deck, applies the overrides and validates everything. Unknown keys, wrong
// types and out-of-range values raise InputError with a message that names the key, the value and
// what is allowed. The deck text is read on rank 0 and broadcast (load_deck_text), so every rank
// parses the same bytes and fails, or succeeds, alike.
#pragma once
#include <mpi.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "proxylab/named_choice.hpp"

namespace proxylab {

enum class ParamType { integer, real, boolean, choice, text };

// How a run uses the file a path key names (Schema::file; the rule that keeps a run's files apart: run_files.hpp):
// read, written, or read and then replaced by design (FFTW wisdom: the one file both an input and an output).
enum class FileUse { input, output, rewritten };
// The files a path key's value names, when it names more than itself (pop's operator_file: four; evh1's
// density_file: the data and its .json header).
using FileNames = std::vector<std::string> (*)(const std::string& value);
struct FileKey {
  std::string key;
  FileUse use = FileUse::output;
  FileNames names = nullptr;  // nullptr: the value alone
};

struct ParamSpec {
  std::string key;  // "section.name"
  ParamType type = ParamType::text;
  std::string doc;
  std::string default_value;         // as YAML scalar text
  double min = 0, max = 0;           // integer and real bounds (inclusive)
  std::vector<std::string> allowed;  // choice
};

class Schema {
 public:
  Schema& integer(const std::string& key, long long def, long long min, long long max, const std::string& doc);
  Schema& real(const std::string& key, double def, double min, double max, const std::string& doc);
  Schema& boolean(const std::string& key, bool def, const std::string& doc);
  Schema& choice(const std::string& key, const std::string& def, const std::vector<std::string>& allowed,
                 const std::string& doc);
  // A choice declared with PROXYLAB_CHOICE_NAMES (named_choice.hpp): the allowed values are its names.
  template <class Enum>
  Schema& choice(const std::string& key, Enum def, const std::string& doc) {
    return choice(key, choice_name(def), choice_names<Enum>(), doc);
  }
  Schema& text(const std::string& key, const std::string& def, const std::string& doc);
  // A text key that names a file ("" by default: none), and how the run uses it; every such key is kept apart from
  // the run's other files before the run (run_files.hpp).
  Schema& file(const std::string& key, FileUse use, const std::string& doc, FileNames names = nullptr);

  const ParamSpec* find(const std::string& key) const;
  const std::vector<ParamSpec>& params() const { return params_; }
  const std::vector<FileKey>& files() const { return files_; }
  std::string help() const;  // one line per parameter: key, type, default, allowed, doc
  // Machine-readable form of every parameter ([{key, type, default, min, max, allowed, doc}], --deck-schema),
  // and the Schema it describes (the deck fuzzer validates against the real apps' schemas with it).
  nlohmann::json to_json() const;
  static Schema from_json(const nlohmann::json& params);

 private:
  Schema& add(ParamSpec spec);
  std::vector<ParamSpec> params_;
  std::vector<FileKey> files_;
};

class Config {
 public:
  // deck_text: YAML (may be empty: all defaults; otherwise read by read_deck_entries, deck_yaml.hpp);
  // deck_name: for messages; overrides: "key=value".
  Config(const Schema& schema, const std::string& deck_text, const std::string& deck_name,
         const std::vector<std::string>& overrides = {});

  long long integer(const std::string& key) const;
  double real(const std::string& key) const;
  bool boolean(const std::string& key) const;
  const std::string& choice(const std::string& key) const;
  template <class Enum>  // a choice declared with PROXYLAB_CHOICE_NAMES, as its enum value
  Enum choice(const std::string& key) const {
    return parse_choice<Enum>(choice(key));
  }
  const std::string& text(const std::string& key) const;

  // Raise InputError naming `key` and its value when an app-level rule (beyond the schema) fails.
  [[noreturn]] void reject(const std::string& key, const std::string& allowed) const;

  const std::string& deck_name() const { return deck_name_; }
  nlohmann::json to_json() const;  // effective configuration, nested by section
  std::string describe() const;    // "key = value" lines

 private:
  struct Value {
    ParamType type;
    long long i = 0;
    double r = 0;
    bool b = false;
    std::string s;
    std::string origin;  // "default", deck name, or "--set"
  };
  const Value& get(const std::string& key, ParamType type) const;
  void assign(const ParamSpec& spec, const std::string& scalar, const std::string& origin);

  const Schema* schema_;
  std::string deck_name_;
  std::map<std::string, Value> values_;
};

// Reads a deck file on rank 0 and broadcasts its text; a missing, unreadable or empty file, a directory, a file over
// DeckLimits::max_bytes, a device, a socket and a pipe with no writer and nothing in it are an InputError on every
// rank, naming the deck as `name` (default: the path; the front end names the user's path for the copy it reads
// a piped deck into). A pipe's writer is waited for without blocking a signal: Interrupted on every rank when
// SIGINT or SIGTERM comes first. An empty path yields "" (all defaults).
std::string load_deck_text(const std::string& path, MPI_Comm comm, const std::string& name = "");

// Closest known key by edit distance (for "did you mean" hints); "" if nothing is close.
std::string closest_key(const std::string& key, const std::vector<std::string>& known);

}  // namespace proxylab
