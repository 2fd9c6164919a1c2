#include "density_output.hpp"

#include <fstream>
#include <nlohmann/json.hpp>

#include "proxylab/errors.hpp"

namespace proxylab::evh1 {

void write_density(const std::string& path, const std::vector<double>& global, const GridSpec& g, double time,
                   const std::string& problem) {
  std::ofstream bin(path, std::ios::binary);
  if (!bin) throw RuntimeError("output.density_file '" + path + "': cannot open for writing");
  bin.write(reinterpret_cast<const char*>(global.data()), std::streamsize(sizeof(double)) * g.nx * g.ny);
  nlohmann::json meta = {{"file", path},
                         {"dtype", "float64"},
                         {"byte_order", "little"},
                         {"shape", {g.ny, g.nx}},
                         {"order", "C (x fastest)"},
                         {"x0", g.x0},
                         {"y0", g.y0},
                         {"dx", g.dx},
                         {"geometry", g.geometry == GridGeometry::spherical     ? "spherical"
                                      : g.geometry == GridGeometry::cylindrical ? "cylindrical"
                                                                                : "cartesian"},
                         {"dtheta", g.dtheta},  // spherical: y is theta from y0 in steps of dtheta
                         {"time", time},
                         {"problem", problem},
                         {"quantity", "density"}};
  std::ofstream(path + ".json") << meta.dump(2) << "\n";
}

}  // namespace proxylab::evh1
