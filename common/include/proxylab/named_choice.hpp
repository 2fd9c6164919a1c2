// Run-time choices named by strings (mappings, strategies, algorithms, problem variants). Each choice is
// declared once, next to its enum and in the enum's namespace:
//
//   enum class Mapping { flat, mdrange, team };
//   PROXYLAB_CHOICE_NAMES(Mapping, "mapping", "flat", "mdrange", "team");
//
// The names are listed in the enum's order (the enum value is the position of its name). From that one
// declaration come the schema's allowed values (Schema::choice<Enum>, config.hpp), the parser
// (parse_choice<Enum>, also behind Config::choice<Enum>) and to_string(Enum).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "proxylab/errors.hpp"

namespace proxylab {

struct ChoiceNames {
  std::string what;                // for messages: "mapping", "halo strategy"
  std::vector<std::string> names;  // in the enum's order
};

// The names of Enum's values, in order (a Schema's allowed values).
template <class Enum>
const std::vector<std::string>& choice_names() {
  return choice_names_of(Enum{}).names;
}

// The enum value named `name`; InputError "<what> '<name>' is unknown; allowed: a, b, c" otherwise.
template <class Enum>
Enum parse_choice(const std::string& name) {
  const ChoiceNames& c = choice_names_of(Enum{});
  std::string allowed;
  for (size_t k = 0; k < c.names.size(); ++k) {
    if (c.names[k] == name) return static_cast<Enum>(k);
    allowed += (k ? ", " : "") + c.names[k];
  }
  throw InputError(c.what + " " + excerpt(name) + " is unknown; allowed: " + allowed);
}

template <class Enum>
const char* choice_name(Enum value) {
  return choice_names_of(value).names.at(static_cast<size_t>(value)).c_str();
}

}  // namespace proxylab

// Declares the names of the run-time choice `Enum` (use in the enum's namespace, right after it); defines
// choice_names_of(Enum) and to_string(Enum), both found by argument-dependent lookup.
#define PROXYLAB_CHOICE_NAMES(Enum, what, ...)                                        \
  inline const ::proxylab::ChoiceNames& choice_names_of(Enum) {                       \
    static const ::proxylab::ChoiceNames declared{what, {__VA_ARGS__}};               \
    return declared;                                                                  \
  }                                                                                   \
  inline const char* to_string(Enum value) { return ::proxylab::choice_name(value); } \
  static_assert(true, "")
