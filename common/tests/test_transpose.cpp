// Transpose strategies at 1, 2 and 4 ranks: each equals MPI_Alltoallv bit for bit with uneven counts
// (zeros included) and gapped displacements; node_aware also with emulated multi-node layouts.
#include <vector>

#include "proxylab/comm/transpose.hpp"
#include "proxylab/errors.hpp"
#include "proxylab/testing.hpp"

namespace {

struct Pattern {
  std::vector<int> sc, sd, rc, rd;
  std::vector<double> send;
  int recv_size = 0;
};

// Counts from rank a to rank b: uneven, often zero; `scale` 0 makes everything empty.
int count_from_to(int a, int b, int scale) { return ((3 * a + 5 * b + 1) % 4) * scale; }

// Displacements leave a one-element gap after every block (untouched by any correct strategy).
Pattern make_pattern(int me, int p, int scale) {
  Pattern t;
  int at = 0;
  for (int r = 0; r < p; ++r) {
    t.sc.push_back(count_from_to(me, r, scale)), t.sd.push_back(at);
    at += t.sc.back() + 1;
  }
  t.send.assign(at, -3.0);
  for (int r = 0; r < p; ++r)
    for (int i = 0; i < t.sc[r]; ++i) t.send[t.sd[r] + i] = me * 1.0e6 + r * 1.0e3 + i + 0.5;
  at = 0;
  for (int r = 0; r < p; ++r) {
    t.rc.push_back(count_from_to(r, me, scale)), t.rd.push_back(at);
    at += t.rc.back() + 1;
  }
  t.recv_size = at;
  return t;
}

std::vector<double> run(proxylab::Transpose& tr, const Pattern& t) {
  std::vector<double> recv(t.recv_size, -7.0);
  tr.exchange(t.send.data(), t.sc, t.sd, recv.data(), t.rc, t.rd);
  return recv;
}

}  // namespace

TEST_CASE("transpose: every strategy equals MPI_Alltoallv", "[transpose][mpi]") {
  int me = 0, p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  for (int scale : {0, 1, 5}) {
    const Pattern t = make_pattern(me, p, scale);
    std::vector<double> ref(t.recv_size, -7.0);
    MPI_Alltoallv(t.send.data(), t.sc.data(), t.sd.data(), MPI_DOUBLE, ref.data(), t.rc.data(), t.rd.data(), MPI_DOUBLE,
                  MPI_COMM_WORLD);
    std::vector<std::unique_ptr<proxylab::Transpose>> all;
    for (const auto& name : proxylab::transpose_strategy_names())
      all.push_back(proxylab::Transpose::create(proxylab::parse_transpose_strategy(name), MPI_COMM_WORLD));
    for (int rpn : {1, 2, 3}) all.push_back(proxylab::Transpose::create_node_aware(MPI_COMM_WORLD, rpn));
    for (auto& tr : all) {
      INFO("strategy " << proxylab::to_string(tr->strategy()) << " scale " << scale);
      for (int call = 0; call < 2; ++call) CHECK(run(*tr, t) == ref);
      CHECK(tr->calls() == 2);
      long long bytes = 0;
      for (int c : t.sc) bytes += 8LL * c;
      CHECK(tr->bytes_sent() == 2 * bytes);
    }
  }
}

TEST_CASE("transpose: a sub-communicator works (rows of a grid)", "[transpose][mpi]") {
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
  int hr = 0, hp = 1;
  MPI_Comm_rank(half, &hr);
  MPI_Comm_size(half, &hp);
  const Pattern t = make_pattern(hr, hp, 2);
  std::vector<double> ref(t.recv_size, -7.0);
  MPI_Alltoallv(t.send.data(), t.sc.data(), t.sd.data(), MPI_DOUBLE, ref.data(), t.rc.data(), t.rd.data(), MPI_DOUBLE,
                half);
  for (const auto& name : proxylab::transpose_strategy_names()) {
    INFO("strategy " << name);
    auto tr = proxylab::Transpose::create(proxylab::parse_transpose_strategy(name), half);
    CHECK(run(*tr, t) == ref);
  }
  MPI_Comm_free(&half);
}

TEST_CASE("transpose: names and parsing", "[transpose]") {
  for (const auto& name : proxylab::transpose_strategy_names())
    CHECK(std::string(proxylab::to_string(proxylab::parse_transpose_strategy(name))) == name);
  CHECK_THROWS_AS(proxylab::parse_transpose_strategy("shm"), proxylab::InputError);
}
