// FFTW wisdom in a file (fft_wisdom.hpp): a new path plans afresh and save() writes every rank's plans; the next
// run imports them (each rank's plan can then be made from wisdom alone); bad paths, files that are not wisdom and
// planning estimate end every rank with InputError; a run that never saves leaves the file as it was.
#include <fftw3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "proxylab/errors.hpp"
#include "proxylab/fft_wisdom.hpp"
#include "proxylab/testing.hpp"

using proxylab::FFTPlanning;
using proxylab::FFTWisdomFile;
namespace fs = std::filesystem;

namespace {

int rank_of_world() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

// A fresh folder named by rank 0's process id, the same on every rank; removed at the end of the test.
struct TempFolder {
  fs::path path;
  TempFolder() {
    int pid = int(getpid());
    MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
    path = fs::temp_directory_path() / ("proxylab-wisdom-" + std::to_string(pid));
    if (rank_of_world() == 0) fs::create_directories(path);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  ~TempFolder() {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank_of_world() == 0) fs::remove_all(path);
  }
};

std::string text_of(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A c2c plan of length n made with `flags` (null when FFTW_WISDOM_ONLY finds no wisdom for it).
fftw_plan plan_of_length(int n, unsigned flags) {
  fftw_complex* a = fftw_alloc_complex(size_t(n));
  fftw_complex* b = fftw_alloc_complex(size_t(n));
  fftw_plan p = fftw_plan_dft_1d(n, a, b, FFTW_FORWARD, flags);
  fftw_free(a);
  fftw_free(b);
  return p;
}

// The message every rank gets from constructing the file object (empty if none throws).
std::string input_error_of(const std::string& path, FFTPlanning planning) {
  try {
    FFTWisdomFile w(MPI_COMM_WORLD, "test.wisdom", path, planning);
  } catch (const proxylab::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("FFTWisdomFile: saved by every rank, imported by the next run", "[fft][wisdom][mpi]") {
  TempFolder folder;
  const std::string path = (folder.path / "plans.wisdom").string();
  const int rank = rank_of_world();
  const int n = 40 + 2 * rank;  // a length of this rank's own
  fftw_forget_wisdom();
  {
    FFTWisdomFile first(MPI_COMM_WORLD, "test.wisdom", path, FFTPlanning::measure);
    CHECK(first.enabled());
    CHECK_FALSE(first.imported());
    fftw_destroy_plan(plan_of_length(n, FFTW_MEASURE));
    first.save();
    CHECK(first.saved());
  }
  MPI_Barrier(MPI_COMM_WORLD);
  REQUIRE(fs::is_regular_file(path));
  CHECK(text_of(path).rfind("(fftw-3", 0) == 0);

  fftw_forget_wisdom();
  REQUIRE(plan_of_length(n, FFTW_MEASURE | FFTW_WISDOM_ONLY) == nullptr);  // forgotten: nothing to plan from
  FFTWisdomFile second(MPI_COMM_WORLD, "test.wisdom", path, FFTPlanning::patient);
  CHECK(second.imported());
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int r = 0; r < size; ++r) {  // every rank's plan came back, on every rank (merged on rank 0, then shared)
    fftw_plan p = plan_of_length(40 + 2 * r, FFTW_MEASURE | FFTW_WISDOM_ONLY);
    CHECK(p != nullptr);
    if (p) fftw_destroy_plan(p);
  }
  fftw_forget_wisdom();
}

TEST_CASE("FFTWisdomFile: bad input ends every rank; no save leaves the file as it was", "[fft][wisdom][mpi]") {
  TempFolder folder;
  const std::string path = (folder.path / "old.wisdom").string();
  CHECK(input_error_of(path, FFTPlanning::estimate).find("cannot be used with planning estimate") != std::string::npos);
  CHECK(input_error_of((folder.path / "no-such-folder" / "w").string(), FFTPlanning::measure)
            .find("folder that does not exist") != std::string::npos);
  CHECK(input_error_of(folder.path.string(), FFTPlanning::measure).find("test.wisdom") != std::string::npos);

  if (rank_of_world() == 0) std::ofstream(path) << "not wisdom\n";
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(input_error_of(path, FFTPlanning::measure).find("not FFTW wisdom") != std::string::npos);
  CHECK(text_of(path) == "not wisdom\n");  // refused, and not touched

  fftw_forget_wisdom();
  fftw_destroy_plan(plan_of_length(24, FFTW_MEASURE));
  const std::string saved = [&] {
    FFTWisdomFile w(MPI_COMM_WORLD, "test.wisdom", (folder.path / "kept.wisdom").string(), FFTPlanning::measure);
    w.save();
    return text_of(folder.path / "kept.wisdom");
  }();
  {
    FFTWisdomFile unsaved(MPI_COMM_WORLD, "test.wisdom", (folder.path / "kept.wisdom").string(), FFTPlanning::measure);
    CHECK(unsaved.imported());
    fftw_destroy_plan(plan_of_length(30, FFTW_MEASURE));
  }  // a run that ends before save()
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(text_of(folder.path / "kept.wisdom") == saved);
  CHECK_FALSE(FFTWisdomFile(MPI_COMM_WORLD, "test.wisdom", "", FFTPlanning::estimate).enabled());
  fftw_forget_wisdom();
}
