// The launch against MPI_COMM_WORLD (see launch_check.hpp).
#include "proxylab/launch_check.hpp"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <iostream>

#include "proxylab/errors.hpp"

namespace proxylab {
namespace {

constexpr const char* expected_ranks_variable = "PROXYLAB_EXPECTED_RANKS";

// A count: digits only, 1 to INT_MAX; 0 when it is not one.
long count_of(const std::string& text) {
  if (text.empty() || text.size() > 10 || text.find_first_not_of("0123456789") != std::string::npos) return 0;
  const long long n = std::stoll(text);
  return n >= 1 && n <= INT_MAX ? long(n) : 0;
}

// srun started this very process as one of its step's tasks.
bool srun_task(const EnvironmentLookup& getenv, long pid) {
  const char* task_pid = getenv("SLURM_TASK_PID");
  return task_pid && std::string(task_pid) == std::to_string(pid);
}

// The launcher's own rank of this process, -1 when no launcher says.
long launcher_rank(const EnvironmentLookup& getenv, long pid) {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK"})
    if (const char* v = getenv(name)) return std::atol(v);
  if (const char* v = getenv("SLURM_PROCID"); v && srun_task(getenv, pid)) return std::atol(v);
  return -1;
}

// "1 rank", "2 ranks", "2 processes".
std::string count_text(long n, const std::string& unit) {
  return std::to_string(n) + " " + unit + (n == 1 ? "" : unit.back() == 's' ? "es" : "s");
}

}  // namespace

std::vector<LaunchFigure> launch_figures(const EnvironmentLookup& getenv, long pid) {
  const LaunchFigure sources[] = {
      {expected_ranks_variable, "", "the front end asked for", "rank", false},
      {"OMPI_COMM_WORLD_SIZE", "", "Open MPI's mpirun started", "process", false},
      {"PMI_SIZE", "", "a PMI launcher (Hydra's mpiexec, srun --mpi=pmi2, flux run) started", "process", false},
      {"SLURM_STEP_NUM_TASKS", "", "srun's step started", "task", false},
      {"MPI_LOCALNRANKS", "", "Hydra's mpiexec started on this node", "process", true},
  };
  std::vector<LaunchFigure> figures;
  for (LaunchFigure f : sources) {
    const char* value = getenv(f.variable.c_str());
    if (!value || (f.variable == "SLURM_STEP_NUM_TASKS" && !srun_task(getenv, pid))) continue;
    f.value = value;
    figures.push_back(f);
  }
  return figures;
}

std::string launch_problem(int world_size, const std::vector<LaunchFigure>& figures, const std::string& library) {
  std::string disagree;
  for (const LaunchFigure& f : figures) {
    const long n = count_of(f.value);
    if (n == 0) {
      if (f.variable == expected_ranks_variable)
        return "environment variable " + f.variable + " has value '" + f.value +
               "'; allowed: a positive whole number (the rank count ./proxylab run sets)";
      continue;  // a launcher's value that is not a count: not ours to judge
    }
    if (f.at_most ? n <= world_size : n == world_size) continue;
    disagree += (disagree.empty() ? "" : ", and ") + f.said + " " + count_text(n, f.unit) + " (" + f.variable + "=" +
                f.value + ")";
  }
  if (disagree.empty()) return "";
  const std::string launcher = PROXYLAB_MPIEXEC_EXECUTABLE;  // CMake's MPIEXEC_EXECUTABLE (common/CMakeLists.txt)
  return "MPI_COMM_WORLD has " + count_text(world_size, "rank") + ", but " + disagree +
         ": the launcher is another MPI's (it starts every process as an MPI job of its own) or its rank count is "
         "not the one asked for (a launch template with a fixed -n); this binary is built with " +
         library + "; allowed: that MPI's launcher, " + (launcher.empty() ? std::string("mpiexec") : launcher) +
         " -n N, or ./proxylab run --ranks N (which launches with PROXYLAB_MPIEXEC, else MPICH's mpiexec)";
}

std::string mpi_library_version() {
  int len = 0;
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
  MPI_Get_library_version(lib, &len);
  std::string library(lib, static_cast<size_t>(len));
  library = library.substr(0, library.find('\n'));
  std::replace(library.begin(), library.end(), '\t', ' ');  // MPICH: "MPICH Version:<TAB>4.0.2"
  return library;
}

int check_launch(const std::string& app) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const EnvironmentLookup getenv = [](const char* name) { return std::getenv(name); };
  const long pid = long(::getpid());
  const std::string problem = launch_problem(size, launch_figures(getenv, pid), mpi_library_version());
  // Every process of this MPI job stops together; the first that found a problem says why, once per launch (in a
  // split launch every process is rank 0 of a job of its own: the launcher's rank 0 speaks).
  int first = problem.empty() ? size : rank, first_all = size;
  MPI_Allreduce(&first, &first_all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first_all == size) return exit_ok;
  if (rank == first_all && (size > 1 || launcher_rank(getenv, pid) <= 0))
    std::cerr << "proxylab " << app << ": bad input: " << problem << std::endl;
  return exit_bad_input;
}

}  // namespace proxylab
