// Parallel algorithms against the serial model: transpose and distributed (allreduce, reduce_scatter, ring)
// at 1, 2, 4 ranks give the serial state to round-off after a few steps of case 6 (T10L2). The serial reference
// runs the two-pass FFT and fold and the grid-point phase over the whole grid; the parallel runs the latitude loop
// (the host default), which must give the whole-grid step's state with every algorithm to round-off (its complex FFTs
// of packed north + i south rows round differently from the real FFTs of the whole grid).
#include <cmath>

#include "proxylab/errors.hpp"
#include "proxylab/testing.hpp"
#include "src/backend.hpp"
#include "src/shallow_water.hpp"

using namespace proxylab;
using namespace proxylab::pstswm;

namespace {
// How the FFTs and the grid-point phase are arranged: two passes over every row and the whole grid; the FFT and fold
// fused per pair, the grid-point phase over the whole grid; and the latitude loop (both fused per pair).
enum class Arrangement { two_pass, fused_fold, latitude_loop };

std::vector<double> run(MPI_Comm comm, Algorithm alg, Combine comb, LTVariant lt, int steps,
                        Arrangement arrangement = backend::latitude_pair_ffts ? Arrangement::latitude_loop
                                                                              : Arrangement::two_pass) {
  Timers timers;
  TransformOptions o;
  o.fuse_fold = arrangement != Arrangement::two_pass;
  o.fuse_grid_point = arrangement == Arrangement::latitude_loop;
  o.ntrunc = 10;
  o.nlat = 16;
  o.nlon = 32;
  o.levels = 2;
  o.lt = lt;
  o.algorithm = alg;
  o.combine = comb;
  SphericalTransform tr(o, comm, timers);
  ModelOptions mo;
  mo.test_case = 6;
  mo.dt = 900;
  ShallowWater model(tr, mo, timers);
  for (int s = 0; s < steps; ++s) model.step();
  return model.gather_state();
}
double rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0, s = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    d = std::max(d, std::fabs(a[i] - b[i]));
    s = std::max(s, std::fabs(b[i]));
  }
  return d / s;
}
}  // namespace

TEST_CASE("pstswm: transpose and distributed algorithms equal the serial run", "[pstswm][mpi]") {
  const auto serial =
      run(MPI_COMM_SELF, Algorithm::transpose, Combine::allreduce, LTVariant::loop, 12, Arrangement::two_pass);
  const auto t = run(MPI_COMM_WORLD, Algorithm::transpose, Combine::allreduce, LTVariant::gemm, 12);
  const auto d = run(MPI_COMM_WORLD, Algorithm::distributed, Combine::allreduce, LTVariant::gemm, 12);
  const auto r = run(MPI_COMM_WORLD, Algorithm::distributed, Combine::reduce_scatter, LTVariant::loop, 12);
  const auto g = run(MPI_COMM_WORLD, Algorithm::distributed, Combine::ring, LTVariant::gemm, 12);
  REQUIRE(t.size() == serial.size());
  CHECK(rel_diff(t, serial) < 1e-12);
  CHECK(rel_diff(d, serial) < 1e-12);
  CHECK(rel_diff(r, serial) < 1e-12);
  CHECK(rel_diff(g, serial) < 1e-12);
  double norm = 0;
  for (double v : serial) norm = std::max(norm, std::fabs(v));
  CHECK(norm > 0);
}

TEST_CASE("pstswm: the recurrence Legendre transform gives the stored table's state with both algorithms",
          "[pstswm][mpi]") {
  if (!backend::legendre_recurrence) return;  // a host variant
  for (const auto& [alg, comb] :
       {std::pair{Algorithm::transpose, Combine::allreduce}, {Algorithm::distributed, Combine::ring}}) {
    const auto table = run(MPI_COMM_WORLD, alg, comb, LTVariant::gemm, 12);
    const auto recurrence = run(MPI_COMM_WORLD, alg, comb, LTVariant::recurrence, 12);
    INFO(to_string(alg) << " " << to_string(comb));
    CHECK(rel_diff(recurrence, table) < 1e-13);
  }
}

TEST_CASE("pstswm: the latitude loop gives the whole-grid step's state with every algorithm", "[pstswm][mpi]") {
  if (!backend::latitude_pair_ffts) return;  // the latitude loop runs on host back ends only
  for (const auto& [alg, comb] : {std::pair{Algorithm::transpose, Combine::allreduce},
                                  {Algorithm::distributed, Combine::allreduce},
                                  {Algorithm::distributed, Combine::reduce_scatter},
                                  {Algorithm::distributed, Combine::ring}}) {
    const auto whole = run(MPI_COMM_WORLD, alg, comb, LTVariant::gemm, 6, Arrangement::fused_fold);
    const auto loop = run(MPI_COMM_WORLD, alg, comb, LTVariant::gemm, 6, Arrangement::latitude_loop);
    INFO(choice_name(alg) << " " << choice_name(comb));
    REQUIRE(loop.size() == whole.size());
    CHECK(rel_diff(loop, whole) < 1e-12);
  }
}

TEST_CASE("pstswm: a grid with fewer latitude pairs than ranks is rejected on every rank", "[pstswm][mpi]") {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Timers timers;
  TransformOptions o;
  o.ntrunc = 2;
  o.nlat = 2 * size - 2;
  o.nlon = 8;
  o.levels = 1;
  if (size > 1) CHECK_THROWS_AS(SphericalTransform(o, MPI_COMM_WORLD, timers), InputError);
}
