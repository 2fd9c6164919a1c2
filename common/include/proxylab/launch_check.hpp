// The launch checked against MPI right after MPI_Init (run_app): the number of processes the launcher says it
// started, and the number the front end asked for, against MPI_COMM_WORLD's size. They differ when the launcher is
// another MPI's (Open MPI's mpirun starting an MPICH binary starts N jobs of one rank each, which all run and pass
// side by side) or when a launch template's rank count is not the one asked for (a fixed -n). Such a run is
// refused: exit 2 on every process, each job of the split stopping by itself, with the figures, the MPI library
// the binary was built with and the launcher that matches it.
//
// The figures, each where set (`launch_figures`):
//   PROXYLAB_EXPECTED_RANKS  the ranks the front end asked for (./proxylab run --ranks; launch.py)
//   OMPI_COMM_WORLD_SIZE     Open MPI's mpirun / mpiexec: the job's size
//   PMI_SIZE                 a PMI launcher: MPICH's or Intel MPI's Hydra mpiexec, srun --mpi=pmi2, flux run
//   SLURM_STEP_NUM_TASKS     srun: the step's tasks, only when this process is one of them (SLURM_TASK_PID is its
//                            own pid): a shell, script or launcher inside a step passes the step's figure on to
//                            whatever it starts
//   MPI_LOCALNRANKS          Hydra: the ranks it started on this node, so at most the size
// Not read: SLURM_NTASKS (in a batch script or an salloc shell it is the allocation's, and srun --preserve-env keeps
// that value inside a step), PMIX_SIZE (no PMIx server sets it: they pass PMIX_RANK and PMIX_NAMESPACE, and the
// size is a PMIx query).
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace proxylab {

// One figure of the launch: the variable, its value, what it says ("Open MPI's mpirun started" N "process"es), and
// whether it bounds the size from below (MPI_LOCALNRANKS) rather than being the size.
struct LaunchFigure {
  std::string variable, value, said, unit;
  bool at_most = false;
};

// What the environment says about the launch. `getenv` reads a variable (nullptr when unset; tests pass their own),
// `pid` is this process's id.
using EnvironmentLookup = std::function<const char*(const char*)>;
std::vector<LaunchFigure> launch_figures(const EnvironmentLookup& getenv, long pid);

// "" when every figure agrees with `world_size`, else the message (InputError's text, without the app's name):
// each figure that disagrees, the library (MPI_Get_library_version's first line) and the launcher to use. A value
// that is not a count: refused for PROXYLAB_EXPECTED_RANKS (the front end's own), ignored for the launchers' (not
// ours to judge).
std::string launch_problem(int world_size, const std::vector<LaunchFigure>& figures, const std::string& library);

// MPI_Get_library_version's first line, tabs as spaces ("MPICH Version: 4.0.2").
std::string mpi_library_version();

// Collective on MPI_COMM_WORLD, right after MPI_Init: exit_ok when the launch agrees with MPI, else exit_bad_input
// once the message is printed (by the job's first process; once per job of a split launch).
int check_launch(const std::string& app);

}  // namespace proxylab
