// CommOptions (comm/options.hpp): the comm.* keys every proxy's deck has, read once by the life cycle into
// RunContext::comm_options, and what they make of MPI's memory on this build's back end.
#include "proxylab/app.hpp"
#include "proxylab/comm/mpi_device_memory.hpp"
#include "proxylab/comm/options.hpp"
#include "proxylab/testing.hpp"

using namespace proxylab;

namespace {

// A proxy with no keys of its own: its deck has only the common ones.
const AppSpec common_keys_only{"test", "common keys only", [](Schema&) {}, [](RunContext&) {}};

// What the life cycle gives the apps for a deck.
CommOptions context_options(const Config& cfg) {
  Trace trace(MPI_COMM_WORLD, false);
  Timers timers(&trace);
  Report report("test");
  const RunContext ctx(cfg, MPI_COMM_WORLD, timers, trace, report, true);
  return ctx.comm_options;
}

}  // namespace

TEST_CASE("CommOptions: the run context holds the deck's comm keys, defaults where the deck is silent", "[comm]") {
  const testing::AppDeck silent(common_keys_only, "");
  CHECK_FALSE(read_comm_options(*silent.config).gpu_aware);
  CHECK_FALSE(context_options(*silent.config).gpu_aware);
  const testing::AppDeck aware(common_keys_only, "comm: {gpu_aware: true}\n");
  CHECK(read_comm_options(*aware.config).gpu_aware);
  CHECK(context_options(*aware.config).gpu_aware);
}

TEST_CASE("CommOptions: what MPI is given on this back end, as the header and the record say it", "[comm]") {
  const CommOptions staged{false}, gpu_aware{true};
  const bool device = !mem_space_on_host;
  CHECK(staged.staged_through_host() == device);
  CHECK_FALSE(staged.mpi_reads_device_memory());
  CHECK_FALSE(gpu_aware.staged_through_host());
  CHECK(gpu_aware.mpi_reads_device_memory() == device);
  CHECK(staged.mpi_buffer_mode() == (device ? "device buffers staged through host memory" : "host memory"));
  CHECK(gpu_aware.mpi_buffer_mode() == (device ? "device memory (comm.gpu_aware)" : "host memory"));
}

TEST_CASE("CommOptions: comm.gpu_aware is refused on a device build whose MPI says it cannot read device memory",
          "[comm]") {
  const CommOptions staged{false}, gpu_aware{true};
  for (MpiDeviceMemory mpi : {MpiDeviceMemory::readable, MpiDeviceMemory::not_readable, MpiDeviceMemory::unknown}) {
    CHECK(gpu_aware_refusal(staged, true, mpi).empty());      // host copies: any MPI
    CHECK(gpu_aware_refusal(gpu_aware, false, mpi).empty());  // a host build: the key has no effect
  }
  CHECK(gpu_aware_refusal(gpu_aware, true, MpiDeviceMemory::readable).empty());
  CHECK(gpu_aware_refusal(gpu_aware, true, MpiDeviceMemory::unknown).empty());  // no query: the user's word stands
  const std::string why = gpu_aware_refusal(gpu_aware, true, MpiDeviceMemory::not_readable);
  CHECK(why.find("key 'comm.gpu_aware' has value 'true'; allowed: false") != std::string::npos);
  // Debian's MPICH answers the query (it is not CUDA-aware); whatever the library, the query returns
  const MpiDeviceMemory here = mpi_device_memory();
  CHECK(
      (here == MpiDeviceMemory::readable || here == MpiDeviceMemory::not_readable || here == MpiDeviceMemory::unknown));
}
