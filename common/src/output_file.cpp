// Output files checked before the run and written atomically (see output_file.hpp).
#include "proxylab/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "proxylab/errors.hpp"

namespace proxylab {
namespace {

std::string folder_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string errno_text(int err) { return std::string(std::strerror(err)) + " (errno " + std::to_string(err) + ")"; }

// A hidden temporary file beside `target`: its descriptor and name; -1 and errno set on failure.
int make_temporary(const std::string& target, std::string& name) {
  const std::string folder = folder_of(target), base = base_of(target);
  std::vector<char> pattern(folder.size() + base.size() + 16);
  std::snprintf(pattern.data(), pattern.size(), "%s/.%s.XXXXXX", folder.c_str(), base.c_str());
  const int fd = mkstemp(pattern.data());
  if (fd >= 0) name = pattern.data();
  return fd;
}

// Writes all of it; false with errno set when a write fails.
bool write_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// A pipe with a reader, or a character device: opened without blocking (a pipe without a reader fails
// with ENXIO instead of waiting for one), then switched to blocking writes.
int open_in_place(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd >= 0) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

// /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: the descriptor N this process already has, written
// directly (reopening it would start a redirected file at offset 0, or replace it by a rename), else -1.
int descriptor_of(const std::string& path) {
  if (path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  for (const std::string prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (path.rfind(prefix, 0) != 0 || path.size() == prefix.size() || path.size() > prefix.size() + 6) continue;
    const std::string n = path.substr(prefix.size());
    if (n.find_first_not_of("0123456789") == std::string::npos) return std::stoi(n);
  }
  return -1;
}

std::string in_place_problem(const std::string& path, bool fifo) {
  const int fd = open_in_place(path);
  if (fd >= 0) {
    ::close(fd);
    return "";
  }
  if (fifo && errno == ENXIO) return "is a pipe with no reader (writing would wait forever)";
  return "cannot be opened for writing: " + errno_text(errno);
}

}  // namespace

std::string output_target(const std::string& path) {
  char buf[PATH_MAX];
  if (realpath(path.c_str(), buf)) return buf;
  // Not there (yet), or a dangling link: follow the links by hand, as far as they go (40 hops, the kernel's limit).
  std::string p = path;
  for (int hop = 0; hop < 40; ++hop) {
    std::string folder = folder_of(p);
    if (realpath(folder.c_str(), buf)) {
      folder = buf;
    } else if (folder[0] != '/' && getcwd(buf, sizeof buf)) {
      folder = std::string(buf) + "/" + folder;
    }
    const std::string full = (folder == "/" ? "" : folder) + "/" + base_of(p);
    const ssize_t n = readlink(full.c_str(), buf, sizeof buf - 1);
    if (n < 0) return full;  // no link: the file the write creates
    const std::string link(buf, static_cast<size_t>(n));
    p = link[0] == '/' ? link : folder + "/" + link;
  }
  return p;
}

bool replaced_by_rename(const std::string& path) {
  struct stat st;
  return descriptor_of(path) < 0 && (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode));
}

std::string output_path_problem(const std::string& path) {
  if (path.empty()) return "is empty";
  if (path.back() == '/') return "names a folder, not a file";
  if (const int fd = descriptor_of(path); fd >= 0) {
    const int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return "is descriptor " + std::to_string(fd) + ", which is not open";
    if ((flags & O_ACCMODE) == O_RDONLY) return "is descriptor " + std::to_string(fd) + ", open for reading only";
    return "";
  }
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return "is a folder, not a file";
    if (S_ISCHR(st.st_mode)) return in_place_problem(path, false);
    if (S_ISFIFO(st.st_mode)) return in_place_problem(path, true);
    if (!S_ISREG(st.st_mode)) return "is neither a regular file, a character device nor a pipe";
  } else if (errno != ENOENT) {
    return "cannot be examined: " + errno_text(errno);
  }
  const std::string target = output_target(path), folder = folder_of(target);
  struct stat fst;
  if (::stat(folder.c_str(), &fst) != 0 || !S_ISDIR(fst.st_mode))
    return "is in a folder that does not exist (" + quote(folder) + ")";
  std::string temp;
  const int fd = make_temporary(target, temp);
  if (fd < 0) return "cannot be created: folder " + quote(folder) + ": " + errno_text(errno);
  ::close(fd);
  ::unlink(temp.c_str());
  return "";
}

OutputFile::OutputFile(MPI_Comm comm, int writer, std::string what, std::string path)
    : comm_(comm), writer_(writer), what_(std::move(what)), path_(std::move(path)) {
  MPI_Comm_rank(comm_, &rank_);
  int enabled = path_.empty() ? 0 : 1;
  MPI_Bcast(&enabled, 1, MPI_INT, writer_, comm_);
  if (!enabled) {
    path_.clear();
    return;
  }
  std::string problem;
  if (is_writer()) {
    problem = output_path_problem(path_);
    descriptor_ = descriptor_of(path_);
    regular_ = replaced_by_rename(path_);
  }
  collective_check<InputError>(comm_, problem.empty(), what_ + " " + quote(path_) + " " + problem);
}

OutputFile::~OutputFile() {
  if (committed_ || keep_ || !enabled() || !is_writer()) return;
  const std::string target = output_target(path_);
  struct stat st;
  if (::lstat(target.c_str(), &st) == 0 && S_ISREG(st.st_mode)) ::unlink(target.c_str());
}

void OutputFile::commit(const void* data, size_t size) {
  if (!enabled()) return;
  std::string why;
  if (is_writer()) {
    const char* bytes = static_cast<const char*>(data);
    // A reader that goes away must be an error (EPIPE), not the end of the process.
    struct sigaction ignore = {}, previous = {};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, &previous);
    if (descriptor_ >= 0) {
      if (!write_all(descriptor_, bytes, size))
        why = what_ + " " + quote(path_) + ": writing failed: " + errno_text(errno);
    } else if (regular_) {
      const std::string target = output_target(path_);
      std::string temp;
      const int fd = make_temporary(target, temp);
      bool ok = fd >= 0;
      int err = ok ? 0 : errno;
      if (ok && !write_all(fd, bytes, size)) {
        ok = false;
        err = errno;
      }
      if (ok) {
        const mode_t mask = umask(0);
        umask(mask);
        fchmod(fd, 0666 & ~mask);  // as a plain open would create it (mkstemp makes 0600)
      }
      if (fd >= 0 && ::close(fd) != 0 && ok) {
        ok = false;
        err = errno;
      }
      if (ok && std::rename(temp.c_str(), target.c_str()) != 0) {
        ok = false;
        err = errno;
      }
      if (!ok) {
        if (!temp.empty()) ::unlink(temp.c_str());
        why = what_ + " " + quote(path_) + ": writing failed: " + errno_text(err);
      }
    } else {
      const int fd = open_in_place(path_);
      bool ok = fd >= 0;
      int err = ok ? 0 : errno;
      if (ok && !write_all(fd, bytes, size)) {
        ok = false;
        err = errno;
      }
      if (fd >= 0 && ::close(fd) != 0 && ok) {
        ok = false;
        err = errno;
      }
      if (!ok) why = what_ + " " + quote(path_) + ": writing failed: " + errno_text(err);
    }
    sigaction(SIGPIPE, &previous, nullptr);
  }
  committed_ = why.empty();  // after a failed write the destructor removes a stale target too
  collective_check<RuntimeError>(comm_, why.empty(), why);
}

}  // namespace proxylab
