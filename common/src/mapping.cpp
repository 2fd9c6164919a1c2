// Mapping names (see mapping.hpp).
#include "proxylab/mapping.hpp"

#include "proxylab/errors.hpp"
#include "proxylab/named_choice.hpp"

namespace proxylab {

Mapping parse_mapping(const std::string& name) { return parse_named<Mapping>(mapping_names(), name, "mapping"); }

}  // namespace proxylab
