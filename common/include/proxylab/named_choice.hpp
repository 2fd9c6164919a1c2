// Run-time choices named by strings (mappings, halo / transpose / reduction strategies): the enum's
// values are the positions of their names in one list, so parsing and printing share that list.
#pragma once
#include <string>
#include <vector>

#include "proxylab/errors.hpp"

namespace proxylab {

// The enum value whose name is `name`; InputError "<what> '<name>' is unknown; allowed: a, b, c" otherwise.
template <class Enum>
Enum parse_named(const std::vector<std::string>& names, const std::string& name, const std::string& what) {
  std::string allowed;
  for (size_t k = 0; k < names.size(); ++k) {
    if (names[k] == name) return static_cast<Enum>(k);
    allowed += (k ? ", " : "") + names[k];
  }
  throw InputError(what + " '" + name + "' is unknown; allowed: " + allowed);
}

template <class Enum>
const char* name_of(const std::vector<std::string>& names, Enum value) {
  return names[static_cast<size_t>(value)].c_str();
}

}  // namespace proxylab
