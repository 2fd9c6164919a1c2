// Writes the final density field for plotting: raw little-endian float64,
// a binary file of ny * nx doubles (x fastest, row j = 0 at the bottom) and <file>.json describing it.
// miniapps/evh1/plot_density.py turns it into a PNG. Both files are checked before the run (exit 2 when
// they cannot be written) and replaced only by complete files (proxylab/output_file.hpp).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "domain.hpp"
#include "proxylab/output_file.hpp"

namespace proxylab::evh1 {

// The files output.density_file = `path` names: the data and its header, path + ".json" (the schema declares them with
// the key, so that neither can be another file of the run: run_files.hpp).
std::vector<std::string> density_file_names(const std::string& path);

class DensityOutput {
 public:
  // Collective, at set-up: checks output.density_file (empty: no output) and its .json header on rank 0.
  DensityOutput(MPI_Comm comm, const std::string& path);
  // Collective: rank 0 writes `global` (ny * nx values there; other ranks pass anything).
  void write(const std::vector<double>& global, const GridSpec& g, double time, const std::string& problem);

 private:
  OutputFile data_, header_;
};

}  // namespace proxylab::evh1
