// Deck parsing and validation (see config.hpp).
#include "proxylab/config.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "proxylab/errors.hpp"

namespace proxylab {
namespace {

const char* type_name(ParamType t) {
  switch (t) {
    case ParamType::integer: return "integer";
    case ParamType::real: return "real";
    case ParamType::boolean: return "boolean";
    case ParamType::choice: return "choice";
    case ParamType::text: return "string";
  }
  return "?";
}

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
    case ParamType::real: return "a real number in [" + format_real(p.min) + ", " + format_real(p.max) + "]";
    case ParamType::boolean: return "true or false";
    case ParamType::choice: return "one of: " + join(p.allowed, ", ");
    case ParamType::text: return "a string";
  }
  return "";
}

bool parse_integer(const std::string& s, long long& out) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (errno == 0 && *end == '\0') {
    out = v;
    return true;
  }
  // Accept integral values written as reals (1e6, 2.0), nothing else.
  double d = std::strtod(s.c_str(), &end);
  if (*end != '\0' || !std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9.0e18) return false;
  out = static_cast<long long>(d);
  return true;
}

bool parse_real(const std::string& s, double& out) {
  if (s.empty()) return false;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (*end != '\0' || !std::isfinite(v)) return false;
  out = v;
  return true;
}

bool parse_boolean(const std::string& s, bool& out) {
  std::string l = s;
  std::transform(l.begin(), l.end(), l.begin(), [](unsigned char c) { return std::tolower(c); });
  if (l == "true" || l == "yes" || l == "on") return out = true, true;
  if (l == "false" || l == "no" || l == "off") return out = false, true;
  return false;
}

// Flattens a YAML mapping into "a.b.c" -> node; non-scalar leaves are reported as such.
void flatten(const YAML::Node& node, const std::string& prefix, std::vector<std::pair<std::string, YAML::Node>>& out) {
  for (const auto& kv : node) {
    std::string key = prefix.empty() ? kv.first.as<std::string>() : prefix + "." + kv.first.as<std::string>();
    if (kv.second.IsMap())
      flatten(kv.second, key, out);
    else
      out.emplace_back(key, kv.second);
  }
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

}  // namespace

std::string closest_key(const std::string& key, const std::vector<std::string>& known) {
  std::string best;
  size_t best_d = std::max<size_t>(3, key.size() / 3) + 1;
  for (const auto& k : known) {
    size_t d = edit_distance(key, k);
    if (d < best_d) best_d = d, best = k;
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

// ---------------------------------------------------------------------------------------------------
Config::Config(const Schema& schema, const std::string& deck_text, const std::string& deck_name,
               const std::vector<std::string>& overrides)
    : schema_(&schema), deck_name_(deck_name.empty() ? "(defaults)" : deck_name) {
  for (const auto& p : schema.params()) assign(p, p.default_value, "default");

  std::vector<std::string> known;
  for (const auto& p : schema.params()) known.push_back(p.key);
  auto unknown = [&](const std::string& key, const std::string& where) {
    std::string hint = closest_key(key, known);
    throw InputError(where + ": unknown key '" + key + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                     "; run with --help-deck to list the allowed keys");
  };

  if (!deck_text.empty()) {
    YAML::Node root;
    try {
      root = YAML::Load(deck_text);
    } catch (const YAML::Exception& e) {
      throw InputError("deck " + deck_name_ + ": not valid YAML: " + e.what());
    }
    if (root.IsMap()) {
      std::vector<std::pair<std::string, YAML::Node>> leaves;
      flatten(root, "", leaves);
      for (const auto& [key, node] : leaves) {
        if (key == "description") continue;  // free text allowed in every deck
        const ParamSpec* p = schema.find(key);
        if (!p) unknown(key, "deck " + deck_name_);
        if (!node.IsScalar())
          throw InputError("deck " + deck_name_ + ": key '" + key + "' must be a single value, " + allowed_text(*p) +
                           "; got a list or an empty value");
        assign(*p, node.Scalar(), deck_name_);
      }
    } else if (!root.IsNull()) {
      throw InputError("deck " + deck_name_ + ": the top level must be a mapping of sections (e.g. 'grid: {nx: 64}')");
    }
  }

  for (const auto& o : overrides) {
    auto eq = o.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError("--set '" + o + "': expected section.key=value");
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
    throw InputError((origin == "default" ? std::string("schema default") : origin) + ": key '" + p.key +
                     "' has value '" + scalar + "'" + why + "; allowed: " + allowed_text(p));
  };
  switch (p.type) {
    case ParamType::integer:
      if (!parse_integer(scalar, v.i)) bad(" (not an integer)");
      if (v.i < p.min || v.i > p.max) bad(" (out of range)");
      break;
    case ParamType::real:
      if (!parse_real(scalar, v.r)) bad(" (not a finite real number)");
      if (v.r < p.min || v.r > p.max) bad(" (out of range)");
      break;
    case ParamType::boolean:
      if (!parse_boolean(scalar, v.b)) bad(" (not a boolean)");
      break;
    case ParamType::choice:
      if (std::find(p.allowed.begin(), p.allowed.end(), scalar) == p.allowed.end()) bad(" (not a known choice)");
      v.s = scalar;
      break;
    case ParamType::text: v.s = scalar; break;
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
      case ParamType::integer: value = std::to_string(v.i); break;
      case ParamType::real: value = format_real(v.r); break;
      case ParamType::boolean: value = v.b ? "true" : "false"; break;
      default: value = v.s;
    }
  }
  std::string origin = it != values_.end() ? it->second.origin : deck_name_;
  throw InputError(origin + ": key '" + key + "' has value '" + value + "'; allowed: " + allowed);
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
      case ParamType::integer: (*node)[rest] = v.i; break;
      case ParamType::real: (*node)[rest] = v.r; break;
      case ParamType::boolean: (*node)[rest] = v.b; break;
      default: (*node)[rest] = v.s;
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
      case ParamType::integer: os << v.i; break;
      case ParamType::real: os << v.r; break;
      case ParamType::boolean: os << (v.b ? "true" : "false"); break;
      default: os << v.s;
    }
    if (v.origin != "default") os << "   [" << v.origin << "]";
    os << "\n";
  }
  return os.str();
}

std::string load_deck_text(const std::string& path, MPI_Comm comm) {
  if (path.empty()) return "";
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string text;
  long long len = -1;
  if (rank == 0) {
    std::ifstream in(path, std::ios::binary);
    if (in) {
      std::ostringstream ss;
      ss << in.rdbuf();
      text = ss.str();
      len = static_cast<long long>(text.size());
    }
  }
  MPI_Bcast(&len, 1, MPI_LONG_LONG, 0, comm);
  if (len < 0) throw InputError("--deck '" + path + "': file not found or not readable");
  text.resize(static_cast<size_t>(len));
  MPI_Bcast(text.data(), static_cast<int>(len), MPI_CHAR, 0, comm);
  return text;
}

}  // namespace proxylab
