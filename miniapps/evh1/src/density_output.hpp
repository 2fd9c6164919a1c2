// Writes the final density field for plotting: raw little-endian float64,
// a binary file of ny * nx doubles (x fastest, row j = 0 at the bottom) and <file>.json describing it.
// miniapps/evh1/plot_density.py turns it into a PNG.
#pragma once
#include <string>
#include <vector>

#include "domain.hpp"

namespace proxylab::evh1 {

void write_density(const std::string& path, const std::vector<double>& global, const GridSpec& g, double time,
                   const std::string& problem);

}  // namespace proxylab::evh1
