// Run record and provenance (see report.hpp).
#include "proxylab/report.hpp"

#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <sstream>

#include "proxylab/blas.hpp"
#include "proxylab/build_info.hpp"
#include "proxylab/kokkos_args.hpp"
#include "proxylab/launch_check.hpp"
#include "proxylab/layout.hpp"
#include "proxylab/user_text.hpp"

extern char** environ;

namespace proxylab {

void Report::set_fom(const std::string& name, double value, const std::string& unit) {
  fom_name_ = name;
  fom_value_ = value;
  fom_unit_ = unit;
}

void Report::check(const std::string& name, bool passed, double value, double limit, const std::string& detail) {
  checks_.push_back({name, passed, value, limit, detail});
}

bool Report::verified() const {
  if (checks_.empty()) return false;
  for (const auto& c : checks_)
    if (!c.passed) return false;
  return true;
}

// One line per check: a check's name may hold user text (evh1's sod.label), printed escaped (user_text.hpp) so that
// it can never make a line of its own.
std::string Report::summary_text() const {
  std::ostringstream os;
  char buf[512];
  for (const auto& c : checks_) {
    std::snprintf(buf, sizeof buf, " %-6s value %.6e limit %.6e ", c.passed ? "ok" : "FAILED", c.value, c.limit);
    std::string name = escaped(c.name);
    name.resize(std::max<size_t>(name.size(), 40), ' ');
    os << "  check " << name << buf << escaped(c.detail) << "\n";
  }
  for (const auto& f : failed_outputs_) os << "OUTPUT FAILED: " << f << "\n";
  std::snprintf(buf, sizeof buf, "%.6g", fom_value_);
  os << "FOM: " << buf << " " << escaped(fom_unit_) << " (" << escaped(fom_name_) << ")\n";
  os << verification_line(verified());
  return os.str();
}

// The VERIFICATION line stays exactly "VERIFICATION: PASSED" / "FAILED" (scripts and ReFrame match it whole); limits
// that differ from the schema's defaults are named on the line before it, also with --quiet.
std::string Report::verification_line(bool passed) const {
  std::string changed;
  if (!changed_limits_.empty()) {
    changed = "verification limits changed from the defaults:";
    for (const auto& c : changed_limits_)
      changed += " " + c["key"].get<std::string>() + "=" + c["value"].dump() + " [default " + c["default"].dump() + "]";
    changed += "\n";
  }
  return changed + "VERIFICATION: " + (passed ? "PASSED" : "FAILED") + "\n";
}

nlohmann::json Report::to_json() const {
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& c : checks_)
    checks.push_back(
        {{"name", c.name}, {"passed", c.passed}, {"value", c.value}, {"limit", c.limit}, {"detail", c.detail}});
  nlohmann::json j = {
      {"app", app_},
      {"fom", {{"name", fom_name_}, {"value", fom_value_}, {"unit", fom_unit_}}},
      {"verification", {{"passed", verified()}, {"checks", checks}, {"changed_limits", changed_limits_}}},
      {"results", results_}};
  if (!failed_outputs_.empty()) j["failed_outputs"] = failed_outputs_;
  return j;
}

std::string enabled_backends() {
  std::string s;
  auto add = [&](const char* n) { s += (s.empty() ? "" : ",") + std::string(n); };
#ifdef KOKKOS_ENABLE_SERIAL
  add("Serial");
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  add("OpenMP");
#endif
#ifdef KOKKOS_ENABLE_THREADS
  add("Threads");
#endif
#ifdef KOKKOS_ENABLE_CUDA
  add("Cuda");
#endif
#ifdef KOKKOS_ENABLE_HIP
  add("HIP");
#endif
#ifdef KOKKOS_ENABLE_SYCL
  add("SYCL");
#endif
  return s;
}

std::string default_backend() { return Kokkos::DefaultExecutionSpace::name(); }

int host_threads() { return HostExec().concurrency(); }

nlohmann::json provenance(MPI_Comm comm) {
  int size = 1, version = 0, subversion = 0;
  MPI_Comm_size(comm, &size);
  MPI_Get_version(&version, &subversion);
  const std::string library = mpi_library_version();
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  char date[64];
  std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S%z", std::localtime(&now));
  nlohmann::json env = nlohmann::json::object();
  for (char** e = environ; e && *e; ++e) {
    std::string kv(*e);
    auto eq = kv.find('=');
    std::string k = kv.substr(0, eq);
    if (k.rfind("OMP_", 0) == 0 || k.rfind("KOKKOS_", 0) == 0 || k.rfind("PROXYLAB_", 0) == 0 ||
        k.rfind("MPIR_CVAR_", 0) == 0 || k.rfind("OPENBLAS_", 0) == 0)
      env[k] = kv.substr(eq + 1);
  }
  return {{"version", build_info::version},
          {"git_hash", build_info::git_hash},
          {"git_dirty", build_info::git_dirty},
          {"compiler", build_info::compiler},
          {"flags", build_info::flags},
          {"build_type", build_info::build_type},
          {"kokkos_version", kokkos_version_text()},
          {"kokkos_backends", enabled_backends()},
          {"kokkos_default_space", default_backend()},
          {"host_blas", host_blas_kernels()},
          {"mpi_version", std::to_string(version) + "." + std::to_string(subversion)},
          {"mpi_library", library},
          {"ranks", size},
          {"threads_per_rank", host_threads()},
          {"host", host},
          {"date", date},
          {"environment", env}};
}

}  // namespace proxylab
