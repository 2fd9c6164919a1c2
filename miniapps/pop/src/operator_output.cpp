// Matrix Market output of the barotropic system (see operator_output.hpp).
#include "operator_output.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <vector>

#include "proxylab/errors.hpp"

namespace proxylab::pop {
namespace {

// The stencil of Stencil::apply as (row offset, column offset) and the coefficient array element that
// weights that neighbour: 0 = a0(j, i), 1 = an, 2 = ae, 3 = ane, at (j + cj, i + ci).
struct StencilTerm {
  int dj, di, array, cj, ci;
};
constexpr StencilTerm stencil[9] = {{0, 0, 0, 0, 0},   {1, 0, 1, 0, 0},   {-1, 0, 1, -1, 0},
                                    {0, 1, 2, 0, 0},   {0, -1, 2, 0, -1}, {1, 1, 3, 0, 0},
                                    {-1, 1, 3, -1, 0}, {1, -1, 3, 0, -1}, {-1, -1, 3, -1, -1}};
// Per ocean point: global id, b, x, then per stencil term the neighbour's global id (-1: land) and weight.
constexpr int record_size = 3 + 2 * 9;

// This rank's records (global id = j * nx + i), from host copies of the fields.
std::vector<double> local_records(const Domain& d, const Operator& op, const View2D<double>& b,
                                  const View2D<double>& x) {
  auto host = [](const View2D<double>& v) { return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v); };
  const auto mask = host(op.mask), hb = host(b), hx = host(x);
  const decltype(mask) coef[4] = {host(op.A.a0), host(op.A.an), host(op.A.ae), host(op.A.ane)};
  const GridSpec& g = d.spec();
  const int w = d.width();
  std::vector<double> rec;
  for (int j = d.jb(); j < d.je(); ++j)
    for (int i = d.ib(); i < d.ie(); ++i) {
      if (mask(j, i) == 0.0) continue;
      const long long gj = d.j0() + j - w, gi = d.i0() + i - w;
      rec.push_back(double(gj * g.nx + gi));
      rec.push_back(hb(j, i));
      rec.push_back(hx(j, i));
      for (const StencilTerm& s : stencil) {
        const bool ocean = mask(j + s.dj, i + s.di) != 0.0;  // ghosts hold the mask too (global indices)
        rec.push_back(ocean ? double((gj + s.dj) * g.nx + g.wrap_i(int(gi) + s.di)) : -1.0);
        rec.push_back(coef[s.array](j + s.cj, i + s.ci));
      }
    }
  return rec;
}

// The text `body` prints (in memory; OutputFile writes it atomically).
std::string printed(const std::function<void(std::FILE*)>& body) {
  char* data = nullptr;
  size_t size = 0;
  std::FILE* f = open_memstream(&data, &size);
  if (!f) throw RuntimeError("output.operator_file: no memory for the text");
  body(f);
  std::fclose(f);
  std::string text(data, size);
  std::free(data);
  return text;
}

std::string strip_mtx(const std::string& path) {
  const std::string ext = ".mtx";
  const bool has = path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
  return has ? path.substr(0, path.size() - ext.size()) : path;
}

}  // namespace

std::vector<std::string> operator_file_names(const std::string& path) {
  const std::string stem = strip_mtx(path);
  return {path, stem + ".rhs.mtx", stem + ".solution.mtx", stem + ".index.mtx"};
}

OperatorFiles::OperatorFiles(MPI_Comm comm, const std::string& path)
    : matrix(comm, 0, "output.operator_file", path),
      rhs(comm, 0, "output.operator_file", path.empty() ? "" : operator_file_names(path)[1]),
      solution(comm, 0, "output.operator_file", path.empty() ? "" : operator_file_names(path)[2]),
      index(comm, 0, "output.operator_file", path.empty() ? "" : operator_file_names(path)[3]) {}

OperatorCounts write_operator(OperatorFiles& files, const Domain& d, const Operator& op, const View2D<double>& b,
                              const View2D<double>& x, const SolveSummary& summary) {
  MPI_Comm comm = d.comm();
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const std::vector<double> mine = local_records(d, op, b, x);
  const int count = int(mine.size());
  std::vector<int> counts(rank == 0 ? size : 0), displs(rank == 0 ? size : 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  std::vector<double> all;
  if (rank == 0) {
    long long total = 0;
    for (int r = 0; r < size; ++r) {
      displs[r] = int(total);
      total += counts[r];
    }
    all.resize(std::size_t(total));
  }
  MPI_Gatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, comm);

  OperatorCounts n;
  std::string text[4];  // matrix, index, rhs, solution: printed on rank 0
  if (rank == 0) {
    const std::size_t points = all.size() / record_size;
    auto record = [&](std::size_t k) { return all.data() + k * record_size; };
    std::vector<std::size_t> order(points);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t c) { return record(a)[0] < record(c)[0]; });
    std::vector<long long> ids(points);  // global ids of the ocean points, ascending: row k + 1 of the matrix
    for (std::size_t k = 0; k < points; ++k) ids[k] = (long long)record(order[k])[0];
    auto row_of = [&](double id) {
      return (long long)(std::lower_bound(ids.begin(), ids.end(), (long long)id) - ids.begin()) + 1;
    };
    // entries of each row sorted by column; exact zeros (a land corner between two ocean points) are not stored
    std::vector<std::vector<std::pair<long long, double>>> rows(points);
    for (std::size_t k = 0; k < points; ++k) {
      const double* r = record(order[k]);
      for (int s = 0; s < 9; ++s)
        if (r[3 + 2 * s] >= 0 && r[4 + 2 * s] != 0.0) rows[k].push_back({row_of(r[3 + 2 * s]), r[4 + 2 * s]});
      std::sort(rows[k].begin(), rows[k].end());
      n.entries += (long long)rows[k].size();
    }
    n.rows = (long long)points;
    const GridSpec& g = d.spec();
    char grid[160];
    std::snprintf(grid, sizeof grid, "%% proxylab pop: POP barotropic operator on the ocean T-points of a %d x %d grid",
                  g.nx, g.ny);
    auto vector_file = [&](int slot, const char* what, bool with_summary) {
      return printed([&](std::FILE* f) {
        std::fprintf(f, "%%%%MatrixMarket matrix array real general\n%s\n%% %s, rows as in the matrix file\n", grid,
                     what);
        if (with_summary) {
          std::fprintf(f, "%% solver: %s\n%% iterations: %d\n%% converged: %s\n%% crit: %.17g\n%% tarea_norm: %.17g\n",
                       summary.solver.c_str(), summary.iterations, summary.converged ? "true" : "false", summary.crit,
                       summary.tarea_norm);
          std::fprintf(f, "%% (POP2's convergence: ||b - A x||_2 < crit tarea_norm)\n");
        }
        std::fprintf(f, "%zu 1\n", points);
        for (std::size_t k = 0; k < points; ++k) std::fprintf(f, "%.17g\n", record(order[k])[slot]);
      });
    };
    text[0] = printed([&](std::FILE* f) {
      std::fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n%s\n", grid);
      std::fprintf(f, "%% rows and columns: ocean points in global row-major order (map: the .index.mtx file)\n");
      std::fprintf(f, "%zu %zu %lld\n", points, points, n.entries);
      for (std::size_t k = 0; k < points; ++k)
        for (const auto& [col, value] : rows[k]) std::fprintf(f, "%zu %lld %.17g\n", k + 1, col, value);
    });
    text[1] = printed([&](std::FILE* f) {
      std::fprintf(f, "%%%%MatrixMarket matrix array integer general\n%s\n", grid);
      std::fprintf(f, "%% row k: (i, j) of ocean point k, 0-based longitude and latitude indices (column-major)\n");
      std::fprintf(f, "%zu 2\n", points);
      for (long long id : ids) std::fprintf(f, "%lld\n", id % g.nx);
      for (long long id : ids) std::fprintf(f, "%lld\n", id / g.nx);
    });
    text[2] = vector_file(1, "right-hand side b", false);
    text[3] = vector_file(2, "the run's solution x", true);
  }
  files.matrix.commit(text[0]);  // collective: RuntimeError on every rank naming the file and errno
  files.index.commit(text[1]);
  files.rhs.commit(text[2]);
  files.solution.commit(text[3]);
  MPI_Bcast(&n.rows, 1, MPI_LONG_LONG, 0, comm);
  MPI_Bcast(&n.entries, 1, MPI_LONG_LONG, 0, comm);
  return n;
}

}  // namespace proxylab::pop
