// The files a run reads and writes, and the one rule that keeps them apart: no output may be an input of the run or
// another of its outputs (a --json record written over the deck, evh1's density header over the record). The life
// cycle (app.cpp) collects them before the run: its flags' files, then every file key the app's Schema declares
// (Schema::file) with the files its value names, and refuses a conflict (InputError, exit 2, naming both and the
// path). The front end applies the same rule to the files it writes itself (python/proxylab_tools/run_files.py).
//
// Files are compared as the system sees them: the same device and inode when both exist, else the same path once
// symbolic links are followed (a dangling link stands for its target: output_target). Targets written in place
// (/dev/stdout, a character device, a pipe) replace no file and are not compared, nor are inputs that are streams.
// A key used as FileUse::rewritten (FFTW wisdom: read, then replaced by design) is one file, the one exception.
#pragma once
#include <mpi.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "proxylab/config.hpp"

namespace proxylab {

class OutputFile;

class RunFiles {
 public:
  // `what` names the file in messages (a flag such as "--json", or a deck key); an empty path adds nothing.
  void add(const std::string& what, const std::string& path, FileUse use);
  // Every file key of `schema` with its value in `cfg`, each file the value names (Schema::file's FileNames).
  void add_declared(const Schema& schema, const Config& cfg);

  // "" or why two of the files are one (looks at this rank's file system).
  std::string conflict() const;
  // Collective: InputError on every rank when rank 0 finds a conflict. The outputs in `made` (opened before the
  // check) then leave their targets as they are: one of them may be an input of the run.
  void check(MPI_Comm comm, std::initializer_list<OutputFile*> made = {}) const;

 private:
  struct File {
    std::string what, value, path;  // path: the file `value` names (they differ for pop's .rhs.mtx and the like)
    FileUse use;
  };
  static std::string named(const File& f);
  std::vector<File> files_;
};

// True when `a` and `b` are one file (see above).
bool same_file(const std::string& a, const std::string& b);

}  // namespace proxylab
