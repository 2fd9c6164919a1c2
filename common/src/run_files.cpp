// The run's files kept apart (see run_files.hpp).
#include "proxylab/run_files.hpp"

#include <sys/stat.h>

#include "proxylab/errors.hpp"
#include "proxylab/output_file.hpp"
#include "proxylab/user_text.hpp"

namespace proxylab {
namespace {

bool reads(FileUse use) { return use != FileUse::output; }
bool writes(FileUse use) { return use != FileUse::input; }

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  const bool a_exists = ::stat(a.c_str(), &sa) == 0, b_exists = ::stat(b.c_str(), &sb) == 0;
  if (a_exists && b_exists) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  return !a_exists && !b_exists && output_target(a) == output_target(b);
}

void RunFiles::add(const std::string& what, const std::string& path, FileUse use) {
  if (!path.empty()) files_.push_back({what, path, path, use});
}

void RunFiles::add_declared(const Schema& schema, const Config& cfg) {
  for (const FileKey& key : schema.files()) {
    const std::string& value = cfg.text(key.key);
    if (value.empty()) continue;
    for (const std::string& path : key.names ? key.names(value) : std::vector<std::string>{value})
      files_.push_back({key.key, value, path, key.use});
  }
}

std::string RunFiles::named(const File& f) {
  return f.what + " " + quote(f.value) + (f.path == f.value ? "" : " (its file " + quote(f.path) + ")");
}

std::string RunFiles::conflict() const {
  std::vector<const File*> replaceable;  // a file a rename would replace: regular, or not there yet
  for (const File& f : files_)
    if (replaced_by_rename(f.path)) replaceable.push_back(&f);
  for (size_t k = 0; k < replaceable.size(); ++k)
    for (size_t j = 0; j < k; ++j) {
      const File &earlier = *replaceable[j], &later = *replaceable[k];
      if (!(writes(earlier.use) || writes(later.use)) || !same_file(earlier.path, later.path)) continue;
      if (reads(earlier.use) || reads(later.use)) {
        const bool later_written = writes(later.use) && (!reads(later.use) || !writes(earlier.use));
        const File &out = later_written ? later : earlier, &in = later_written ? earlier : later;
        return named(out) + " is the same file as " + named(in) +
               ": an output may not replace an input of the run; allowed: a path that names none of the run's inputs";
      }
      return named(earlier) + " and " + named(later) +
             " are the same file: one output would replace the other; allowed: a separate file for each output";
    }
  return "";
}

void RunFiles::check(MPI_Comm comm, std::initializer_list<OutputFile*> made) const {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const std::string why = rank == 0 ? conflict() : "";
  int found = why.empty() ? 0 : 1;
  MPI_Bcast(&found, 1, MPI_INT, 0, comm);
  if (found)
    for (OutputFile* out : made)
      if (out) out->keep_target();
  collective_check<InputError>(comm, why.empty(), why);
}

}  // namespace proxylab
