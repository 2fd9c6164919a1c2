#include "density_output.hpp"

#include <nlohmann/json.hpp>

namespace proxylab::evh1 {

std::vector<std::string> density_file_names(const std::string& path) { return {path, path + ".json"}; }

DensityOutput::DensityOutput(MPI_Comm comm, const std::string& path)
    : data_(comm, 0, "output.density_file", path),
      header_(comm, 0, "output.density_file header", path.empty() ? "" : density_file_names(path)[1]) {}

void DensityOutput::write(const std::vector<double>& global, const GridSpec& g, double time,
                          const std::string& problem) {
  if (!data_.enabled()) return;
  const size_t bytes = data_.is_writer() ? sizeof(double) * size_t(g.nx) * size_t(g.ny) : 0;
  data_.commit(global.data(), bytes);
  nlohmann::json meta = {{"file", data_.path()},
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
  header_.commit(meta.dump(2) + "\n");
}

}  // namespace proxylab::evh1
