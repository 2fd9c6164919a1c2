// MPIBuffer and MPIStage (comm/mpi_buffer.hpp): what MPI is given, for data in each enabled back end's memory. Host
// memory: the buffer itself; device memory: a host copy, of which to_mpi / from_mpi move only the part asked for;
// device memory with comm.gpu_aware: the device buffer itself.
#include "proxylab/comm/mpi_buffer.hpp"
#include "proxylab/testing.hpp"

using proxylab::CommOptions;
using proxylab::testing::HostAndDevice;
using proxylab::testing::on_host;

namespace {
const CommOptions staged{false}, gpu_aware{true};  // comm.gpu_aware false (the default) and true
template <class Space>
constexpr bool host_memory = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
}  // namespace

TEMPLATE_LIST_TEST_CASE("MPIBuffer: MPI sees the packed part after to_mpi, the buffer the received part after from_mpi",
                        "[comm]", HostAndDevice) {
  using Space = TestType;
  const size_t n = 100;
  proxylab::MPIBuffer<double, typename Space::memory_space> buf("test::buffer", n, staged);
  CHECK(buf.size() == n);
  CHECK(buf.staged() == !host_memory<Space>);
  CHECK((buf.mpi() == buf.data()) == host_memory<Space>);
  const auto v = buf.view();
  Kokkos::parallel_for(
      "test::fill", Kokkos::RangePolicy<Space>(0, int(n)), KOKKOS_LAMBDA(int i) { v(i) = i; });
  Space().fence();
  if (buf.staged())
    for (size_t i = 0; i < n; ++i) buf.mpi()[i] = -1;  // the host copy before the copy
  buf.to_mpi(10, 20);
  for (size_t i = 10; i < 30; ++i) CHECK(buf.mpi()[i] == double(i));
  if (buf.staged()) {
    CHECK(buf.mpi()[9] == -1);  // only the part asked for crossed
    CHECK(buf.mpi()[30] == -1);
  }
  for (size_t i = 40; i < 50; ++i) buf.mpi()[i] = 1000.0 + i;  // "received"
  buf.from_mpi(40, 10);
  const auto back = on_host(v);
  for (size_t i = 40; i < 50; ++i) CHECK(back(i) == 1000.0 + i);
  CHECK(back(39) == 39);
  CHECK(back(50) == 50);
  CHECK(buf.host_copy_bytes(n, staged) == (host_memory<Space> ? 0 : n * sizeof(double)));
}

TEMPLATE_LIST_TEST_CASE("MPIBuffer: with comm.gpu_aware MPI is given the buffer itself", "[comm]", HostAndDevice) {
  proxylab::MPIBuffer<double, typename TestType::memory_space> buf("test::device_buffer", 8, gpu_aware);
  CHECK_FALSE(buf.staged());
  CHECK(buf.mpi() == buf.data());
  CHECK(buf.host_copy_bytes(8, gpu_aware) == 0);
}

TEMPLATE_LIST_TEST_CASE("MPIStage: a caller's View reaches MPI through the one host copy, part by part", "[comm]",
                        HostAndDevice) {
  using Space = TestType;
  using Stage = proxylab::MPIStage<double, typename Space::memory_space>;
  const size_t n = 64;
  Stage stage("test::stage", n, staged);
  CHECK(stage.staged() == !host_memory<Space>);
  typename Stage::DataView a("test::a", n), b("test::b", n / 2);
  CHECK((stage.mpi(a) == a.data()) == host_memory<Space>);
  Kokkos::deep_copy(a, 3.0);
  stage.to_mpi(a, 4, 8);
  for (size_t i = 4; i < 12; ++i) CHECK(stage.mpi(a)[i] == 3.0);
  for (size_t i = 0; i < n / 2; ++i) stage.mpi(b)[i] = 7.0 + i;  // "received" into b's place
  stage.from_mpi(b, 0, n / 2);
  const auto back = on_host(b);
  for (size_t i = 0; i < n / 2; ++i) CHECK(back(i) == 7.0 + i);
  CHECK_THROWS_AS(stage.to_mpi(b, 30, 4), proxylab::RuntimeError);  // past b's end: named, not a silent overrun
}
