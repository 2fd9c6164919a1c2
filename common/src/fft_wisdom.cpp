// FFTW wisdom in a file from run to run (see fft_wisdom.hpp).
#include "proxylab/fft_wisdom.hpp"

#include <fftw3.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include "proxylab/comm/gather.hpp"
#include "proxylab/errors.hpp"
#include "proxylab/output_file.hpp"

namespace proxylab {
namespace {

// The text of the regular file at `path` into `text` ("" when there is none); else why it cannot be read.
std::string read_existing(const std::string& path, std::string& text) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return errno == ENOENT ? "" : std::string("cannot be examined: ") + strerror(errno);
  if (!S_ISREG(st.st_mode)) return "";  // /dev/null and the like: nothing to import, written like any output
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  if (!in.good() && !in.eof()) return std::string("cannot be read: ") + strerror(errno);
  text = s.str();
  return "";
}

std::string exported_wisdom() {
  char* s = fftw_export_wisdom_to_string();
  if (!s) throw RuntimeError("FFTW could not export its wisdom (fftw_export_wisdom_to_string)");
  std::string text(s);
  std::free(s);
  return text;
}

}  // namespace

FFTWisdomFile::FFTWisdomFile(MPI_Comm comm, std::string key, std::string path, FFTPlanning planning)
    : comm_(comm), key_(std::move(key)), path_(std::move(path)) {
  if (path_.empty()) return;
  const std::string named = "key '" + key_ + "' has value " + quote(path_);
  if (!planning_times(planning))
    throw InputError(named + ", which cannot be used with planning " + to_string(planning) +
                     " (FFTW_ESTIMATE uses any wisdom it is given: the run would no longer follow its fixed rule); "
                     "allowed: a wisdom file with planning measure or patient, or no value");
  int rank = 0;
  MPI_Comm_rank(comm_, &rank);
  std::string text, problem;
  if (rank == 0) {
    problem = read_existing(path_, text);
    if (problem.empty()) problem = output_path_problem(path_);  // save() must be able to write it at the end
  }
  collective_check<InputError>(comm_, problem.empty(),
                               named + ", which " + problem + "; allowed: a file it can read and replace");
  text = broadcast_text(comm_, text);
  const bool ok = text.empty() || fftw_import_wisdom_from_string(text.c_str()) != 0;
  const std::string not_wisdom =
      ", a file that is not FFTW wisdom (fftw_import_wisdom_from_string refused it); allowed: a file this key wrote "
      "(or fftw-wisdom did), or a new path";
  collective_check<InputError>(comm_, ok, named + not_wisdom);
  imported_ = !text.empty();
}

std::string FFTWisdomFile::to_text() const {
  if (!enabled()) return "";
  return std::string("  FFTW wisdom ") + (imported_ ? "imported from " : "planned afresh: no file yet at ") +
         quote(path_) + " (saved there after the run)\n";
}

nlohmann::json FFTWisdomFile::to_json() const {
  if (!enabled()) return nlohmann::json::object();
  return {{"fftw_wisdom", {{"key", key_}, {"path", path_}, {"imported", imported_}}}};
}

void FFTWisdomFile::save() {
  if (!enabled()) return;
  int rank = 0;
  MPI_Comm_rank(comm_, &rank);
  const std::vector<std::string> all = gather_text(comm_, exported_wisdom());
  std::string merged;
  size_t refused = 0;  // a rank whose wisdom FFTW did not take back (0: none)
  if (rank == 0) {     // every other rank's plans join rank 0's (FFTW merges imported wisdom with its own)
    for (size_t r = 1; r < all.size() && refused == 0; ++r)
      if (fftw_import_wisdom_from_string(all[r].c_str()) == 0) refused = r;
    merged = exported_wisdom();
  }
  collective_check(comm_, refused == 0,
                   key_ + " " + quote(path_) + ": FFTW did not import the wisdom of rank " + std::to_string(refused));
  OutputFile(comm_, 0, key_, path_).commit(merged);
  saved_ = true;
}

}  // namespace proxylab
