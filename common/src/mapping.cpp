// Mapping names (see mapping.hpp).
#include "proxylab/mapping.hpp"

#include "proxylab/errors.hpp"

namespace proxylab {

Mapping parse_mapping(const std::string& name) {
  if (name == "flat") return Mapping::flat;
  if (name == "mdrange") return Mapping::mdrange;
  if (name == "team") return Mapping::team;
  throw InputError("mapping '" + name + "' is unknown; allowed: flat, mdrange, team");
}

}  // namespace proxylab
