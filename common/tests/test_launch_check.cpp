// The launch against MPI_COMM_WORLD (proxylab/launch_check.hpp) on made-up environments: which variables count,
// and when, and what the refusal says. The real binaries' refusal is regression.launch.* (miniapps/probes/comm).
#include <map>
#include <string>

#include "proxylab/launch_check.hpp"
#include "proxylab/testing.hpp"

namespace {

constexpr long pid = 4242;
const std::string library = "MPICH Version: 4.0.2";

// launch_problem for a world of `world` ranks in the environment `env`.
std::string problem(int world, const std::map<std::string, std::string>& env) {
  const proxylab::EnvironmentLookup getenv = [&](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  return proxylab::launch_problem(world, proxylab::launch_figures(getenv, pid), library);
}

}  // namespace

TEST_CASE("launch check: a launch that agrees with MPI passes", "[launch]") {
  CHECK(problem(1, {}).empty());  // no launcher at all: a singleton
  CHECK(problem(2, {{"PMI_SIZE", "2"}, {"PMI_RANK", "1"}, {"MPI_LOCALNRANKS", "2"}}).empty());  // Hydra
  CHECK(problem(4, {{"OMPI_COMM_WORLD_SIZE", "4"}}).empty());
  CHECK(problem(3, {{"PROXYLAB_EXPECTED_RANKS", "3"}, {"PMI_SIZE", "3"}}).empty());
  CHECK(problem(8, {{"PMI_SIZE", "8"}, {"MPI_LOCALNRANKS", "4"}}).empty());  // 4 of the 8 ranks on this node
  CHECK(problem(2, {{"PMI_SIZE", "two"}}).empty());                          // a launcher's value that is no count
}

TEST_CASE("launch check: another MPI's launcher splits the job and is refused", "[launch]") {
  // Open MPI's mpirun -n 2 starting an MPICH binary: two singletons, each told the job has 2 processes.
  const std::string text = problem(1, {{"OMPI_COMM_WORLD_SIZE", "2"}, {"OMPI_COMM_WORLD_RANK", "1"}});
  CHECK_THAT(text, Catch::Matchers::Contains("MPI_COMM_WORLD has 1 rank, but Open MPI's mpirun started 2 processes "
                                             "(OMPI_COMM_WORLD_SIZE=2)"));
  CHECK_THAT(text, Catch::Matchers::Contains("built with MPICH Version: 4.0.2"));
  CHECK_THAT(text, Catch::Matchers::Contains("-n N, or ./proxylab run --ranks N"));
  // An Open MPI binary under Hydra, the other way round.
  CHECK_THAT(problem(1, {{"PMI_SIZE", "4"}}), Catch::Matchers::Contains("started 4 processes (PMI_SIZE=4)"));
  CHECK_THAT(problem(2, {{"MPI_LOCALNRANKS", "3"}}),
             Catch::Matchers::Contains("Hydra's mpiexec started on this node 3 processes (MPI_LOCALNRANKS=3)"));
}

TEST_CASE("launch check: the rank count the front end asked for", "[launch]") {
  // A launch template with a fixed -n: Hydra agrees with MPI, the front end does not.
  const std::string text = problem(1, {{"PROXYLAB_EXPECTED_RANKS", "2"}, {"PMI_SIZE", "1"}});
  CHECK_THAT(text, Catch::Matchers::Contains("MPI_COMM_WORLD has 1 rank, but the front end asked for 2 ranks "
                                             "(PROXYLAB_EXPECTED_RANKS=2)"));
  CHECK_THAT(text, !Catch::Matchers::Contains("PMI_SIZE"));
  for (const char* bad : {"", "0", "-2", "2x", "99999999999"})
    CHECK_THAT(problem(2, {{"PROXYLAB_EXPECTED_RANKS", bad}}),
               Catch::Matchers::Contains("environment variable PROXYLAB_EXPECTED_RANKS has value '" + std::string(bad) +
                                         "'; allowed: a positive whole number"));
}

TEST_CASE("launch check: Slurm's figures count for srun's own tasks only", "[launch]") {
  // A batch script or an salloc shell: SLURM_NTASKS is the allocation's, whatever runs in it.
  CHECK(problem(1, {{"SLURM_NTASKS", "8"}, {"SLURM_JOB_ID", "7"}}).empty());
  CHECK(problem(2, {{"SLURM_NTASKS", "8"}, {"PMI_SIZE", "2"}}).empty());
  // A shell or launcher inside a step of 4 tasks (SLURM_TASK_PID is that task's, not this process's).
  CHECK(problem(1, {{"SLURM_STEP_NUM_TASKS", "4"}, {"SLURM_NTASKS", "4"}, {"SLURM_TASK_PID", "99"}}).empty());
  // srun started this process as one of 4 tasks, but MPI made it a job of its own (the wrong --mpi plugin).
  CHECK_THAT(problem(1, {{"SLURM_STEP_NUM_TASKS", "4"}, {"SLURM_TASK_PID", std::to_string(pid)}}),
             Catch::Matchers::Contains("srun's step started 4 tasks (SLURM_STEP_NUM_TASKS=4)"));
  CHECK(problem(4, {{"SLURM_STEP_NUM_TASKS", "4"}, {"SLURM_TASK_PID", std::to_string(pid)}}).empty());
}
