// Global sums at 1, 2 and 4 ranks: the three strategies agree to round-off; `reproducible` is bit-
// identical to the exact sum of the whole data set however it is split; ExactSum is exact.
#include <cmath>

#include "proxylab/comm/grid.hpp"
#include "proxylab/comm/reduce.hpp"
#include "proxylab/errors.hpp"
#include "proxylab/testing.hpp"

namespace {

// Global data with wide magnitudes and both signs (a sum that round-off order changes).
KOKKOS_INLINE_FUNCTION double datum(int i) {
  const double scale[5] = {1.0e-3, 1.0, 1.0e3, 1.0e8, 1.0e-9};
  return (i % 3 == 0 ? -1.0 : 1.0) * (1.0 + 0.001 * i) * scale[i % 5] / 3.0;
}

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int world_size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

}  // namespace

TEST_CASE("reduce: ExactSum is exact where doubles are not", "[reduce]") {
  proxylab::ExactSum s;
  s.add(1.0e16), s.add(1.0), s.add(-1.0e16);
  CHECK(s.to_double() == 1.0);
  proxylab::ExactSum t;
  for (double x : {1.0e80, 1.0e-50, 3.0, -1.0e80, -3.0}) t.add(x);  // 1e-50 lies fully above 2^-288
  CHECK(t.to_double() == 1.0e-50);
  proxylab::ExactSum order_a, order_b;  // addition order does not matter
  for (int i = 0; i < 1000; ++i) order_a.add(datum(i));
  for (int i = 999; i >= 0; --i) order_b.add(datum(i));
  CHECK(order_a.to_double() == order_b.to_double());
  proxylab::ExactSum bad;
  bad.add(1.0), bad.add(std::nan(""));
  CHECK(std::isnan(bad.to_double()));
}

TEST_CASE("reduce: strategies agree; reproducible is bit-identical for any split", "[reduce][mpi]") {
  const int n = 10007, me = world_rank(), p = world_size();
  proxylab::ExactSum all;  // every rank sums the whole data set alone: the decomposition-free answer
  for (int i = 0; i < n; ++i) all.add(datum(i));
  const double exact = all.to_double();
  const auto blk = proxylab::split_range(n, p, me);
  const int cyclic = (n - me + p - 1) / p;  // indices me, me + p, ...
  for (const auto& name : proxylab::reduce_strategy_names()) {
    INFO("strategy " << name);
    proxylab::GlobalSum gsum(proxylab::parse_reduce_strategy(name), MPI_COMM_WORLD);
    CHECK(std::string(proxylab::to_string(gsum.strategy())) == name);
    for (auto m : {proxylab::Mapping::flat, proxylab::Mapping::team}) {
      const int b0 = blk.begin;
      auto blocked = gsum.sum_1d<2>(
          "test::blocked", m, blk.begin, blk.end, KOKKOS_LAMBDA(int i, double* c) {
            c[0] = datum(i);
            c[1] = i == b0 ? 1.0 : 0.0;  // counts ranks with a non-empty block
          });
      auto strided = gsum.sum_2d<1>(
          "test::cyclic", m, 0, cyclic, 0, 1, KOKKOS_LAMBDA(int k, int, double* c) { c[0] = datum(me + k * p); });
      CHECK(proxylab::testing::allclose(blocked[0], exact, 1e-12));
      CHECK(proxylab::testing::allclose(strided[0], exact, 1e-12));
      CHECK(blocked[1] == double(std::min(n, p)));
      if (name == "reproducible") {
        CHECK(blocked[0] == exact);
        CHECK(strided[0] == exact);
      }
    }
    // Split phase: work between start and wait does not change the result.
    gsum.start_1d<1>(
        "test::split", proxylab::Mapping::flat, blk.begin, blk.end,
        KOKKOS_LAMBDA(int i, double* c) { c[0] = datum(i); });
    volatile double busy = 0;
    for (int k = 0; k < 1000; ++k) busy = busy + k;
    CHECK(proxylab::testing::allclose(gsum.wait<1>()[0], exact, 1e-12));
    // Pre-reduced values: 1e16 on rank 0, -1e16 on the last rank, 1 on the others (lost by a
    // double sum that adds 1 to 1e16 first, kept by the exact one).
    double v[2] = {me == 0 ? 1.0e16 : me == p - 1 ? -1.0e16 : 1.0, 2.0};
    gsum.sum(v, 2);
    CHECK(v[1] == 2.0 * p);
    if (name == "reproducible") CHECK(v[0] == (p == 1 ? 1.0e16 : double(p - 2)));
    CHECK(gsum.reductions() == 6);
    CHECK(gsum.words() == 9);
    CHECK_THROWS(gsum.wait<1>());  // nothing started
  }
  CHECK_THROWS_AS(proxylab::parse_reduce_strategy("tree"), proxylab::InputError);
}

TEST_CASE("reduce: sums into device memory equal the host's, and pass through the host only where they must",
          "[reduce][mpi]") {
  const int n = 10007, me = world_rank(), p = world_size();
  const int cyclic = (n - me + p - 1) / p;
  const Kokkos::View<double*> dest("test::dest", 4);
  for (const auto& name : proxylab::reduce_strategy_names()) {
    const auto strategy = proxylab::parse_reduce_strategy(name);
    for (auto m : {proxylab::Mapping::flat, proxylab::Mapping::mdrange, proxylab::Mapping::team}) {
      INFO("strategy " << name << ", mapping " << proxylab::to_string(m));
      proxylab::GlobalSum gsum(strategy, MPI_COMM_WORLD);
      auto f = KOKKOS_LAMBDA(int k, int, double* c) {
        c[0] = datum(me + k * p);
        c[1] = 1.0;
      };
      const auto host = gsum.sum_2d<2>("test::host", m, 0, cyclic, 0, 1, f);
      gsum.start_2d_on_device<2>("test::device", m, 0, cyclic, 0, 1, f, dest, 1);
      const auto passed = gsum.wait_on_device<2>();
      const auto words = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dest);
      CHECK(words(1) == host[0]);
      CHECK(words(2) == double(n));
      CHECK(words(0) == 0.0);  // the words before and after are left alone
      CHECK(words(3) == 0.0);
      CHECK(gsum.stays_on_device() == (p == 1 && strategy != proxylab::ReduceStrategy::reproducible));
      CHECK(passed.has_value() == !gsum.stays_on_device());
      if (passed) CHECK((*passed)[0] == host[0]);
      CHECK(gsum.reductions() == 2);
      CHECK_THROWS(gsum.wait_on_device<2>());  // nothing started
      Kokkos::deep_copy(dest, 0.0);
    }
  }
}
