// FFTW wisdom kept in a file from run to run: FFTW's own way of paying a MEASURE or PATIENT search once (the planner
// remembers every plan it made as "wisdom"; imported, the same problem is planned again at once and gets the same
// plan). FFTW 3 manual, "Words of Wisdom-Saving Plans" (docs/references.md).
//
//   FFTWisdomFile wisdom(comm, "fft3d.wisdom", path, planning);  // collective, before any plan: rank 0 reads the
//                                                                 // file if it exists, every rank imports it
//   publish_results(ctx, wisdom);                                 // "FFTW wisdom imported from ..." and the record
//   ...plan and run...
//   wisdom.save();  // collective: every rank's wisdom merged on rank 0 and written atomically (OutputFile)
//
// Bad input ends the run on every rank before any plan (InputError, exit 2, naming the key and the path): a file
// that cannot be read, a file that is not FFTW wisdom, a path whose folder cannot take the file, and a path with
// planning estimate (FFTW_ESTIMATE plans use any wisdom there is, so the run would no longer follow its fixed rule).
// A run that ends before save() leaves the file as it was. Host FFTW plans only (a device library has no wisdom).
#pragma once
#include <mpi.h>

#include <nlohmann/json.hpp>
#include <string>

#include "proxylab/fft.hpp"

namespace proxylab {

class FFTWisdomFile {
 public:
  // Collective. An empty path: no file (imported() false, save() does nothing).
  FFTWisdomFile(MPI_Comm comm, std::string key, std::string path, FFTPlanning planning);

  bool enabled() const { return !path_.empty(); }
  const std::string& path() const { return path_; }
  bool imported() const { return imported_; }  // the file existed and its wisdom was imported
  bool saved() const { return saved_; }
  // For publish_results: where the plans come from ("" and {} without a file).
  std::string to_text() const;
  nlohmann::json to_json() const;

  // Collective: every rank's wisdom (what it imported and every plan it made since) into the file.
  void save();

 private:
  MPI_Comm comm_;
  std::string key_, path_;
  bool imported_ = false, saved_ = false;
};

}  // namespace proxylab
