// An output file of a run (--json, --trace, evh1's output.density_file): checked before the run, written
// atomically at the end, every write checked.
//
//   OutputFile json(comm, 0, "--json", path);   // collective, before the run: InputError (exit 2) on every
//                                              // rank when the writer rank cannot write `path`
//   ...run...
//   json.commit(text);                          // collective: the writer writes a temporary file in the
//                                              // target's folder and renames it over the target;
//                                              // RuntimeError (exit 3) naming the path and errno
//
// A regular file (or a new one) is replaced only by a complete file: a run that fails, or never commits,
// leaves no truncated file and no stale one (an old file at the path is removed, so nobody mistakes it for
// this run's). Other targets are written in place: /dev/stdout, /dev/stderr and /dev/fd/N through the
// descriptor the process has (so `--json /dev/stdout > run.log` and `| cat` keep every line), a character
// device (/dev/null, /dev/full) and a pipe that has a reader; a pipe without a reader, a folder or a
// missing folder is refused before the run. A symbolic link stands for its target: the target is written (created
// when the link dangles) and, when stale, removed; the link stays. That no output is an input or another output of
// the run is checked by the life cycle before it makes its outputs (run_files.hpp).
#pragma once
#include <mpi.h>

#include <string>

namespace proxylab {

class OutputFile {
 public:
  // Collective. An empty path: nothing to write (commit does nothing).
  OutputFile(MPI_Comm comm, int writer, std::string what, std::string path);
  ~OutputFile();  // not committed: the stale target is removed (regular files only)
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  bool enabled() const { return !path_.empty(); }
  // The run ends without this output and leaves its target as it is, never removed as stale (the run was refused
  // because the path is also another of its files, maybe an input).
  void keep_target() { keep_ = true; }
  const std::string& path() const { return path_; }
  bool is_writer() const { return rank_ == writer_; }

  // Collective: the writer rank writes `size` bytes of `data` (other ranks pass anything).
  void commit(const void* data, size_t size);
  void commit(const std::string& text) { commit(text.data(), text.size()); }

 private:
  MPI_Comm comm_;
  int writer_, rank_ = 0;
  std::string what_, path_;
  int descriptor_ = -1;  // /dev/stdout, /dev/fd/N, ...: written to the open descriptor
  bool regular_ = true, committed_ = false, keep_ = false;
};

// The check of the constructor on one target, without communication: "" when `path` can be written,
// else why not (for tests and for callers that check on one rank).
std::string output_path_problem(const std::string& path);

// The file a write to `path` creates or replaces: every symbolic link followed, a dangling one too (its target), with
// the folder's real path where the folder exists.
std::string output_target(const std::string& path);

// True when an output at `path` replaces a file by a rename (a regular file, or nothing there yet); false for the
// targets written in place (/dev/stdout, /dev/fd/N, a character device, a pipe).
bool replaced_by_rename(const std::string& path);

}  // namespace proxylab
