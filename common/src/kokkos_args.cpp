// Checks of Kokkos' own flags (see kokkos_args.hpp).
#include "proxylab/kokkos_args.hpp"

#include <dlfcn.h>
#include <sys/resource.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "proxylab/user_text.hpp"

namespace proxylab {
namespace {

enum class Kind { count, index, devices, boolean, device_map, libraries };

struct Known {
  const char* flag;  // command-line form; env names the KOKKOS_* variable of the same value ("" = none)
  const char* env;
  Kind kind;
};

// Every Kokkos from 3.4 to 4.x: a flag a version does not know is not checked here (Kokkos warns about
// it and the binary's own parser rejects it as unknown, exit 2).
const std::vector<Known> known = {
    {"--kokkos-num-threads", "KOKKOS_NUM_THREADS", Kind::count},
    {"--kokkos-threads", "", Kind::count},
    {"--kokkos-numa", "KOKKOS_NUMA", Kind::count},
    {"--kokkos-device-id", "KOKKOS_DEVICE_ID", Kind::index},
    {"--kokkos-device", "", Kind::index},
    {"--kokkos-num-devices", "KOKKOS_NUM_DEVICES", Kind::devices},
    {"--kokkos-ndevices", "", Kind::devices},
    {"--kokkos-disable-warnings", "KOKKOS_DISABLE_WARNINGS", Kind::boolean},
    {"--kokkos-print-configuration", "KOKKOS_PRINT_CONFIGURATION", Kind::boolean},
    {"--kokkos-tune-internals", "KOKKOS_TUNE_INTERNALS", Kind::boolean},
    {"--kokkos-map-device-id-by", "KOKKOS_MAP_DEVICE_ID_BY", Kind::device_map},
    // Kokkos Tools: a library that does not load would only be warned about, and the run would go on unprofiled
    {"--kokkos-tools-libs", "KOKKOS_TOOLS_LIBS", Kind::libraries},
    {"--kokkos-tools-library", "KOKKOS_PROFILE_LIBRARY", Kind::libraries},
};

// "" when every ';'-separated entry of `libs` loads (dlopen, as Kokkos loads it), else the first that does not.
std::string library_problem(const std::string& libs) {
  for (std::size_t begin = 0; begin <= libs.size();) {
    const std::size_t end = std::min(libs.find(';', begin), libs.size());
    const std::string lib = libs.substr(begin, end - begin);
    begin = end + 1;
    if (lib.empty()) continue;
    void* handle = dlopen(lib.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (!handle) {
      const char* why = dlerror();
      return "Kokkos Tools libraries that load (" + quote(lib) + " does not: " + escaped(why ? why : "dlopen failed") +
             ")";
    }
    dlclose(handle);
  }
  return "";
}

bool digits(const std::string& s) {
  return !s.empty() && s.size() <= 9 &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// "" when `value` suits `kind`, else what is allowed.
std::string allowed_problem(Kind kind, const std::string& value) {
  switch (kind) {
    case Kind::count:
      return digits(value) && std::atoi(value.c_str()) >= 1 ? "" : "an integer >= 1";
    case Kind::index:
      return digits(value) ? "" : "an integer >= 0";
    case Kind::devices: {
      const auto comma = value.find(',');
      const bool ok = digits(value.substr(0, comma)) && (comma == std::string::npos || digits(value.substr(comma + 1)));
      return ok ? "" : "N or N,M (integers >= 0)";
    }
    case Kind::boolean: {
      const std::string v = lower(value);
      const bool ok = v == "1" || v == "0" || v == "true" || v == "false" || v == "yes" || v == "no";
      return ok ? "" : "true/false, yes/no or 1/0";
    }
    case Kind::device_map:
      return value == "random" || value == "mpi_rank" ? "" : "random or mpi_rank";
    case Kind::libraries:
      return library_problem(value);
  }
  return "";
}

}  // namespace

std::string kokkos_num_threads_flag() { return KOKKOS_VERSION >= 30700 ? "--kokkos-num-threads" : "--kokkos-threads"; }

std::string kokkos_version_text() {
  const int v = KOKKOS_VERSION;
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

std::string kokkos_arguments_problem(int argc, char** argv) {
  const std::string threads_flag = kokkos_num_threads_flag();
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--kokkos-", 0) != 0) continue;
    const auto eq = arg.find('=');
    const std::string flag = arg.substr(0, eq);
    if ((flag == "--kokkos-threads" || flag == "--kokkos-num-threads") && flag != threads_flag &&
        (KOKKOS_VERSION >= 40000 || KOKKOS_VERSION < 30700))
      return excerpt(arg) + ": Kokkos " + kokkos_version_text() + " does not accept " + flag + "; use " + threads_flag +
             "=N";
    for (const auto& k : known) {
      if (flag != k.flag) continue;
      if (k.kind == Kind::boolean && eq == std::string::npos) break;  // a bare switch means true
      const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
      const std::string allowed = allowed_problem(k.kind, value);
      if (!allowed.empty()) return excerpt(arg) + ": " + k.flag + " takes " + allowed;
    }
  }
  for (const auto& k : known) {
    const char* value = *k.env ? std::getenv(k.env) : nullptr;
    if (!value) continue;
    const std::string allowed = allowed_problem(k.kind, value);
    if (!allowed.empty()) return "environment " + std::string(k.env) + "=" + excerpt(value) + ": takes " + allowed;
  }
  return thread_count_problem(argc, argv);
}

std::string address_space_problem() {
  struct rlimit lim {};
  if (getrlimit(RLIMIT_AS, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY ||
      double(lim.rlim_cur) >= min_address_space_bytes)
    return "";
  return "the address-space limit (RLIMIT_AS, ulimit -v) is " + std::to_string(lim.rlim_cur / 1024) +
         " KiB; allowed: at least " + std::to_string(static_cast<long long>(min_address_space_bytes) / 1024) +
         " KiB (MPI and Kokkos need about 150 MiB of address space to start), or none";
}

std::string thread_count_problem(int argc, char** argv) {
  // The thread counts a run may ask for: the flags, KOKKOS_NUM_THREADS and OMP_NUM_THREADS (its first level).
  std::vector<std::pair<std::string, std::string>> asked;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto eq = arg.find('=');
    if (eq != std::string::npos &&
        (arg.rfind("--kokkos-num-threads=", 0) == 0 || arg.rfind("--kokkos-threads=", 0) == 0))
      asked.emplace_back(excerpt(arg), arg.substr(eq + 1));
  }
  for (const char* env : {"KOKKOS_NUM_THREADS", "OMP_NUM_THREADS"})
    if (const char* value = std::getenv(env)) {
      const std::string v = value;
      asked.emplace_back(std::string("environment ") + env + "=" + excerpt(v), v.substr(0, v.find(',')));
    }
  for (const auto& [what, value] : asked) {
    const bool number = !value.empty() && value.size() <= 18 &&
                        std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c); });
    if (number && std::stoll(value) > max_threads_per_rank)
      return what + ": at most " + std::to_string(max_threads_per_rank) +
             " threads per rank (OpenMP runtimes abort or crash long before 10^8 threads)";
  }
  return "";
}

}  // namespace proxylab
