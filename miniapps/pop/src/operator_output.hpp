// POP's barotropic system for outside solvers (output.operator_file = PATH): the 9-point operator restricted to
// the ocean T-points, the right-hand side and the solution the run found, gathered from all ranks to rank 0 and
// written in Matrix Market format (scipy.io.mmread, PETSc, Matlab, Julia read it). The files are checked before
// the run and written atomically (proxylab/output_file.hpp). With STEM = PATH without a trailing ".mtx":
//   PATH               A: "coordinate real general", N x N, the stencil coefficients bit for bit (%.17g)
//   STEM.rhs.mtx       b: "array real general", N x 1
//   STEM.solution.mtx  x: "array real general", N x 1; comment lines "% key: value" give the solver, its
//                      iterations, crit and ||TAREA||_2 (POP2's criterion ||b - A x||_2 < crit ||TAREA||_2)
//   STEM.index.mtx     the global index map: "array integer general", N x 2, row k = (i, j) of ocean point k
//                      (0-based longitude and latitude indices)
// Rows and columns are numbered over the ocean points in global row-major order (j slowest, i fastest), so
// the files do not depend on the decomposition. verify/pop_direct_solve.py reads them and solves directly.
#pragma once
#include <string>
#include <vector>

#include "btrop_operator.hpp"
#include "proxylab/output_file.hpp"

namespace proxylab::pop {

struct SolveSummary {
  std::string solver;
  int iterations = 0;
  bool converged = false;
  double crit = 0;        // POP2 convergence criterion (0: benchmark mode)
  double tarea_norm = 0;  // ||TAREA||_2 over the ocean points
};

// The files `path` names (see above): PATH, STEM.rhs.mtx, STEM.solution.mtx, STEM.index.mtx (the schema declares them
// with the key, so that none of them can be another file of the run: run_files.hpp).
std::vector<std::string> operator_file_names(const std::string& path);

// The files named by `path`. Collective: constructed before the run, it checks on rank 0 that each can be written
// (InputError on every rank otherwise); empty path: no files.
struct OperatorFiles {
  OutputFile matrix, rhs, solution, index;
  OperatorFiles(MPI_Comm comm, const std::string& path);
};

// Collective. Writes the four files on rank 0; returns the number of ocean points (rows) and stored
// entries. RuntimeError on every rank (naming the file and errno) when rank 0 cannot write.
struct OperatorCounts {
  long long rows = 0, entries = 0;
};
OperatorCounts write_operator(OperatorFiles& files, const Domain& d, const Operator& op, const View2D<double>& b,
                              const View2D<double>& x, const SolveSummary& summary);

}  // namespace proxylab::pop
