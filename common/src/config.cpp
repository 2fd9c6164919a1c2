// Deck parsing and validation (see config.hpp).
#include "proxylab/config.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <sstream>

#include "proxylab/comm/gather.hpp"
#include "proxylab/deck_yaml.hpp"
#include "proxylab/errors.hpp"
#include "proxylab/stop.hpp"

namespace proxylab {
namespace {

const char* type_name(ParamType t) {
  switch (t) {
    case ParamType::integer:
      return "integer";
    case ParamType::real:
      return "real";
    case ParamType::boolean:
      return "boolean";
    case ParamType::choice:
      return "choice";
    case ParamType::text:
      return "string";
  }
  return "?";
}

// FileUse's names in --deck-schema (in the enum's order).
const char* const file_use_names[] = {"input", "output", "rewritten"};

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (size_t k = 0; k < items.size(); ++k) out += (k ? sep : "") + items[k];
  return out;
}

// Shortest of %.15g / %.17g that reads back as the same double (0.4, not 0.40000000000000002).
std::string format_real(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  if (std::strtod(buf, nullptr) != v) std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string allowed_text(const ParamSpec& p) {
  switch (p.type) {
    case ParamType::integer:
      return "an integer in [" + std::to_string(static_cast<long long>(p.min)) + ", " +
             std::to_string(static_cast<long long>(p.max)) + "]";
    case ParamType::real:
      return "a real number in [" + format_real(p.min) + ", " + format_real(p.max) + "]";
    case ParamType::boolean:
      return "true or false";
    case ParamType::choice:
      return "one of: " + join(p.allowed, ", ");
    case ParamType::text:
      return "a string";
  }
  return "";
}

// A scalar without the blanks around it (" 64" and "64 " read alike).
std::string trimmed(const std::string& s) {
  const size_t first = s.find_first_not_of(" \t"), last = s.find_last_not_of(" \t");
  return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
}

// An integer, or an integral value written as a real (1e6, 2.0). Beyond the range of long long (2^63) it is
// clamped to that range, so the range check says "out of range" rather than "not an integer".
bool parse_integer(const std::string& text, long long& out) {
  const std::string s = trimmed(text);
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (*end == '\0') {
    out = v;  // on overflow strtoll gives LLONG_MAX or LLONG_MIN: out of every declared range
    return true;
  }
  double d = std::strtod(s.c_str(), &end);
  if (*end != '\0' || !std::isfinite(d) || d != std::floor(d)) return false;
  const double limit = 9.2e18;  // below 2^63
  out = d > limit    ? std::numeric_limits<long long>::max()
        : d < -limit ? std::numeric_limits<long long>::min()
                     : static_cast<long long>(d);
  return true;
}

// A finite real number; `why` says what is wrong otherwise. A value so small that it underflows to 0 (1e-400) is
// refused, not read as 0.
bool parse_real(const std::string& text, double& out, std::string& why) {
  const std::string s = trimmed(text);
  why = " (not a finite real number)";
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (*end != '\0' || !std::isfinite(v)) return false;
  if (errno == ERANGE && v == 0.0) {
    why = " (underflows to 0: smaller in magnitude than the smallest double, 4.9e-324)";
    return false;
  }
  out = v;
  return true;
}

bool parse_boolean(const std::string& text, bool& out) {
  std::string l = trimmed(text);
  std::transform(l.begin(), l.end(), l.begin(), [](unsigned char c) { return std::tolower(c); });
  if (l == "true" || l == "yes" || l == "on") return out = true, true;
  if (l == "false" || l == "no" || l == "off") return out = false, true;
  return false;
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// What a deck may be (the front end says the same: python/proxylab_tools/runner.py).
const char* const deck_allowed =
    "allowed: a YAML deck file such as inputs/pop/x1.yaml, or a pipe a program writes the deck into (--deck /dev/stdin "
    "after |)";

// Reads a deck whole; returns "" or what is wrong with it. Reads at most DeckLimits::max_bytes + 1 bytes, so a huge
// file is refused without being read to its end. Opened without blocking, so a pipe never holds the run: one with no
// writer and nothing in it is refused at once; a writer that is there is waited for until a signal asks the run to
// stop (`stopped`). Devices, sockets and folders are no decks.
std::string read_deck_file(const std::string& path, std::string& text, bool& stopped) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return (errno == ENOENT ? "file not found (" : "not readable (") + std::string(std::strerror(errno)) + ")";
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (fstat(fd, &st) != 0) return "cannot be examined (" + std::string(std::strerror(errno)) + ")";
  if (S_ISDIR(st.st_mode)) return "is a directory; allowed: a YAML deck file such as inputs/pop/x1.yaml";
  if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
    return std::string("is ") +
           (S_ISCHR(st.st_mode)   ? "a character device"
            : S_ISBLK(st.st_mode) ? "a block device"
                                  : "a socket") +
           ", not a deck file; " + deck_allowed;
  text.resize(DeckLimits::max_bytes + 1);
  size_t got = 0;
  bool waited = false;
  while (got < text.size()) {
    const ssize_t n = ::read(fd, &text[got], text.size() - got);
    if (n > 0) {
      got += static_cast<size_t>(n);
    } else if (n == 0) {
      break;
    } else if (errno == EAGAIN) {  // a pipe whose writer has not written yet: 0.1 s at a time, a signal ends it
      if (stop_pending()) {
        stopped = true;
        return "";
      }
      waited = true;
      struct pollfd ready = {fd, POLLIN, 0};
      ::poll(&ready, 1, 100);
    } else if (errno != EINTR) {
      return "read error (" + std::string(std::strerror(errno)) + ")";
    }
  }
  if (got == 0 && !waited && S_ISFIFO(st.st_mode))
    return std::string("is a pipe with no writer and nothing in it (reading would wait forever); ") + deck_allowed;
  text.resize(got);
  if (text.size() > DeckLimits::max_bytes)
    return "larger than " + std::to_string(DeckLimits::max_bytes) + " bytes; a deck may hold at most that";
  if (text.empty())
    return "is empty; allowed: a YAML mapping of sections such as 'grid: {nx: 64}' (no --deck: the defaults)";
  return "";
}

}  // namespace

std::string closest_key(const std::string& key, const std::vector<std::string>& known) {
  std::string best;
  size_t best_d = std::max<size_t>(3, key.size() / 3) + 1;
  for (const auto& k : known) {
    // The distance is at least the difference in length: skip hopeless candidates (a key may be 1 MiB long).
    if ((key.size() > k.size() ? key.size() - k.size() : k.size() - key.size()) >= best_d) continue;
    size_t d = edit_distance(key, k);
    if (d < best_d) {
      best_d = d;
      best = k;
    }
  }
  return best;
}

// ---------------------------------------------------------------------------------------------------
Schema& Schema::add(ParamSpec spec) {
  if (find(spec.key)) throw std::logic_error("proxylab::Schema: parameter '" + spec.key + "' declared twice");
  params_.push_back(std::move(spec));
  return *this;
}

Schema& Schema::integer(const std::string& key, long long def, long long min, long long max, const std::string& doc) {
  ParamSpec p{key, ParamType::integer, doc, std::to_string(def), double(min), double(max), {}};
  return add(p);
}
Schema& Schema::real(const std::string& key, double def, double min, double max, const std::string& doc) {
  return add({key, ParamType::real, doc, format_real(def), min, max, {}});
}
Schema& Schema::boolean(const std::string& key, bool def, const std::string& doc) {
  return add({key, ParamType::boolean, doc, def ? "true" : "false", 0, 0, {}});
}
Schema& Schema::choice(const std::string& key, const std::string& def, const std::vector<std::string>& allowed,
                       const std::string& doc) {
  if (std::find(allowed.begin(), allowed.end(), def) == allowed.end())
    throw std::logic_error("proxylab::Schema: default of '" + key + "' is not among its choices");
  return add({key, ParamType::choice, doc, def, 0, 0, allowed});
}
Schema& Schema::text(const std::string& key, const std::string& def, const std::string& doc) {
  return add({key, ParamType::text, doc, def, 0, 0, {}});
}

Schema& Schema::file(const std::string& key, FileUse use, const std::string& doc, FileNames names) {
  text(key, "", doc);
  files_.push_back({key, use, names});
  return *this;
}

const ParamSpec* Schema::find(const std::string& key) const {
  for (const auto& p : params_)
    if (p.key == key) return &p;
  return nullptr;
}

std::string Schema::help() const {
  std::ostringstream os;
  for (const auto& p : params_)
    os << "  " << p.key << " (" << type_name(p.type) << ", default " << p.default_value << "; " << allowed_text(p)
       << ")\n      " << p.doc << "\n";
  return os.str();
}

nlohmann::json Schema::to_json() const {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& p : params_) {
    nlohmann::json j = {{"key", p.key}, {"type", type_name(p.type)}, {"default", p.default_value}, {"doc", p.doc}};
    if (p.type == ParamType::integer || p.type == ParamType::real) {
      j["min"] = p.min;
      j["max"] = p.max;
    }
    if (p.type == ParamType::choice) j["allowed"] = p.allowed;
    for (const auto& f : files_)
      if (f.key == p.key) j["file"] = file_use_names[static_cast<int>(f.use)];
    out.push_back(j);
  }
  return out;
}

Schema Schema::from_json(const nlohmann::json& params) {
  Schema s;
  for (const auto& j : params) {
    ParamSpec p{j.at("key").get<std::string>(),
                ParamType::text,
                j.at("doc").get<std::string>(),
                j.at("default").get<std::string>(),
                0,
                0,
                {}};
    const std::string type = j.at("type").get<std::string>();
    for (ParamType t : {ParamType::integer, ParamType::real, ParamType::boolean, ParamType::choice, ParamType::text})
      if (type == type_name(t)) p.type = t;
    if (j.contains("min")) {
      p.min = j["min"].get<double>();
      p.max = j["max"].get<double>();
    }
    if (j.contains("allowed")) p.allowed = j["allowed"].get<std::vector<std::string>>();
    s.add(p);
    for (size_t use = 0; use < std::size(file_use_names); ++use)
      if (j.value("file", "") == file_use_names[use]) s.files_.push_back({p.key, static_cast<FileUse>(use), nullptr});
  }
  return s;
}

// ---------------------------------------------------------------------------------------------------
Config::Config(const Schema& schema, const std::string& deck_text, const std::string& deck_name,
               const std::vector<std::string>& overrides)
    : schema_(&schema), deck_name_(deck_name.empty() ? "(defaults)" : deck_name) {
  for (const auto& p : schema.params()) assign(p, p.default_value, "default");

  std::vector<std::string> known;
  for (const auto& p : schema.params()) known.push_back(p.key);
  auto unknown = [&](const std::string& key, const std::string& where) {
    std::string hint = closest_key(key, known);
    throw InputError(where + ": unknown key " + excerpt(key) + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                     "; run with --help-deck to list the allowed keys");
  };

  if (!deck_text.empty()) {
    for (const auto& entry : read_deck_entries(deck_text, deck_name_)) {
      if (entry.key == "description") continue;  // free text allowed in every deck
      const std::string origin =
          escaped(deck_name_) + ": line " + std::to_string(entry.line) + ", column " + std::to_string(entry.column);
      const ParamSpec* p = schema.find(entry.key);
      if (!p) unknown(entry.key, "deck " + origin);
      if (!entry.scalar)
        throw InputError("deck " + origin + ": key '" + entry.key + "' must be a single value, " + allowed_text(*p) +
                         "; got a list or an empty value");
      assign(*p, entry.value, deck_name_);
    }
  }

  for (const auto& o : overrides) {
    auto eq = o.find('=');
    if (eq == std::string::npos || eq == 0) throw InputError("--set " + excerpt(o) + ": expected section.key=value");
    std::string key = o.substr(0, eq), value = o.substr(eq + 1);
    const ParamSpec* p = schema.find(key);
    if (!p) unknown(key, "--set");
    assign(*p, value, "--set");
  }
}

void Config::assign(const ParamSpec& p, const std::string& scalar, const std::string& origin) {
  Value v;
  v.type = p.type;
  v.origin = origin;
  auto bad = [&](const std::string& why) {
    throw InputError((origin == "default" ? std::string("schema default") : escaped(origin)) + ": key '" + p.key +
                     "' has value " + excerpt(scalar) + why + "; allowed: " + allowed_text(p));
  };
  switch (p.type) {
    case ParamType::integer:
      if (!parse_integer(scalar, v.i)) bad(" (not an integer)");
      if (v.i < p.min || v.i > p.max) bad(" (out of range)");
      break;
    case ParamType::real:
      if (std::string why; !parse_real(scalar, v.r, why)) bad(why);
      if (v.r < p.min || v.r > p.max) bad(" (out of range)");
      break;
    case ParamType::boolean:
      if (!parse_boolean(scalar, v.b)) bad(" (not a boolean)");
      break;
    case ParamType::choice:
      if (std::find(p.allowed.begin(), p.allowed.end(), scalar) == p.allowed.end()) bad(" (not a known choice)");
      v.s = scalar;
      break;
    case ParamType::text:  // the run record (JSON) holds every value: bytes that are not UTF-8 cannot be written
      if (!is_utf8(scalar)) bad(" (not UTF-8 text)");
      v.s = scalar;
      break;
  }
  values_[p.key] = v;
}

const Config::Value& Config::get(const std::string& key, ParamType type) const {
  auto it = values_.find(key);
  if (it == values_.end()) throw std::logic_error("proxylab::Config: parameter '" + key + "' was never declared");
  if (it->second.type != type)
    throw std::logic_error("proxylab::Config: parameter '" + key + "' is a " + type_name(it->second.type) +
                           ", read as " + type_name(type));
  return it->second;
}

long long Config::integer(const std::string& key) const { return get(key, ParamType::integer).i; }
double Config::real(const std::string& key) const { return get(key, ParamType::real).r; }
bool Config::boolean(const std::string& key) const { return get(key, ParamType::boolean).b; }
const std::string& Config::choice(const std::string& key) const { return get(key, ParamType::choice).s; }
const std::string& Config::text(const std::string& key) const { return get(key, ParamType::text).s; }

void Config::reject(const std::string& key, const std::string& allowed) const {
  auto it = values_.find(key);
  std::string value = "?";
  if (it != values_.end()) {
    const Value& v = it->second;
    switch (v.type) {
      case ParamType::integer:
        value = std::to_string(v.i);
        break;
      case ParamType::real:
        value = format_real(v.r);
        break;
      case ParamType::boolean:
        value = v.b ? "true" : "false";
        break;
      default:
        value = v.s;
    }
  }
  std::string origin = it != values_.end() ? it->second.origin : deck_name_;
  if (origin == "default") origin = "the defaults";
  throw InputError(escaped(origin) + ": key '" + key + "' has value " + excerpt(value) + "; allowed: " + allowed);
}

nlohmann::json Config::to_json() const {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, v] : values_) {
    nlohmann::json* node = &out;
    std::string rest = key;
    for (auto dot = rest.find('.'); dot != std::string::npos; dot = rest.find('.')) {
      node = &(*node)[rest.substr(0, dot)];
      rest = rest.substr(dot + 1);
    }
    switch (v.type) {
      case ParamType::integer:
        (*node)[rest] = v.i;
        break;
      case ParamType::real:
        (*node)[rest] = v.r;
        break;
      case ParamType::boolean:
        (*node)[rest] = v.b;
        break;
      default:
        (*node)[rest] = v.s;
    }
  }
  return out;
}

std::string Config::describe() const {
  std::ostringstream os;
  for (const auto& p : schema_->params()) {
    const Value& v = values_.at(p.key);
    os << "  " << p.key << " = ";
    switch (v.type) {
      case ParamType::integer:
        os << v.i;
        break;
      case ParamType::real:
        os << v.r;
        break;
      case ParamType::boolean:
        os << (v.b ? "true" : "false");
        break;
      case ParamType::choice:
        os << v.s;
        break;
      case ParamType::text:  // user text: quote, on one line
        os << quote(v.s);
        break;
    }
    if (v.origin != "default") os << "   [" << escaped(v.origin) << "]";
    os << "\n";
  }
  return os.str();
}

std::string load_deck_text(const std::string& path, MPI_Comm comm, const std::string& name) {
  if (path.empty()) return "";
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string text, problem;
  bool stopped = false;
  if (rank == 0) problem = read_deck_file(path, text, stopped);
  int stop = stopped ? 1 : 0;
  MPI_Bcast(&stop, 1, MPI_INT, 0, comm);
  if (stop) throw Interrupted();
  problem = broadcast_text(comm, problem);  // every rank raises the same message
  if (!problem.empty()) throw InputError("--deck " + quote(name.empty() ? path : name) + ": " + problem);
  return broadcast_text(comm, text);  // DeckLimits::max_bytes keeps it far below INT_MAX
}

}  // namespace proxylab
