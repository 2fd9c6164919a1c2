// fft3d at 1, 2 and 4 ranks: decompositions tile the grid, every decomposition x transpose strategy
// gives the reference (slab, alltoallv) forward transform, round trips, NAS FT checksums that do not
// depend on the decomposition or strategy, the LCG, and impossible decompositions as input errors.
#include <algorithm>
#include <complex>
#include <string>
#include <vector>

#include "backend.hpp"
#include "checks.hpp"
#include "decomposition.hpp"
#include "distributed_fft.hpp"
#include "nas_ft.hpp"
#include "proxylab/errors.hpp"
#include "proxylab/testing.hpp"
#include "reshape.hpp"
#include "strided_stages.hpp"

using namespace proxylab;
using namespace proxylab::fft3d;

namespace {

int world_size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

struct Variant {
  DecompKind kind;
  int p_row, p_col;
  TransposeStrategy strategy;
  Mapping mapping = Mapping::mdrange;
  int ranks_per_node = 0;  // node_aware: emulated node size
  bool fuse = true;        // fft3d.fuse_transpose
  LocalPlan local = LocalPlan::staged;
  bool in_place = false;  // fft3d.in_place
};

// Every transpose strategy with the slab and the automatic pencil grid; every other pencil grid of
// the run's ranks with the reference strategy; the other pack/unpack loop mappings.
std::vector<Variant> all_variants(int ranks) {
  std::vector<Variant> v;
  for (const auto& name : transpose_strategy_names()) {
    const auto s = parse_transpose_strategy(name);
    v.push_back({DecompKind::slab, 0, 0, s});
    v.push_back({DecompKind::pencil, 0, 0, s});
    // a device's path (unfused, FFTs writing the send buffers) through the host back end, with each transpose
    // among all ranks
    v.push_back({DecompKind::pencil, ranks, 1, s, Mapping::mdrange, 0, false});
    v.push_back({DecompKind::pencil, 1, ranks, s, Mapping::mdrange, 0, false});
  }
  for (int pr = 1; pr <= ranks; ++pr)
    if (ranks % pr == 0) v.push_back({DecompKind::pencil, pr, ranks / pr, TransposeStrategy::alltoallv});
  v.push_back({DecompKind::pencil, 0, 0, TransposeStrategy::alltoallv, Mapping::flat});
  v.push_back({DecompKind::slab, 0, 0, TransposeStrategy::pairwise, Mapping::team});
  // separate pack, exchange, unpack and FFT passes (the unfused reference of fft3d.fuse_transpose)
  v.push_back({DecompKind::slab, 0, 0, TransposeStrategy::alltoallv, Mapping::mdrange, 0, false});
  v.push_back({DecompKind::pencil, 0, 0, TransposeStrategy::alltoallv, Mapping::mdrange, 0, false});
  if (ranks >= 2) {  // node_aware with emulated 2-rank nodes: several leaders
    v.push_back({DecompKind::slab, 0, 0, TransposeStrategy::node_aware, Mapping::mdrange, 2});
    v.push_back({DecompKind::pencil, 1, ranks, TransposeStrategy::node_aware, Mapping::mdrange, 1});
  }
  // the other local plans (fft3d.local): 2-D plans over the slabs' planes (fused and not), whole at 1 rank; host
  // FFTW's 2-D plans
  if (backend::host_fft_plans) {
    v.push_back({DecompKind::slab, 0, 0, TransposeStrategy::alltoallv, Mapping::mdrange, 0, true, LocalPlan::planes});
    v.push_back({DecompKind::slab, 0, 0, TransposeStrategy::pairwise, Mapping::mdrange, 0, false, LocalPlan::planes});
    // a pencil grid of one row holds a slab's planes: the 2-D plans and one transpose X -> Z
    v.push_back(
        {DecompKind::pencil, 1, ranks, TransposeStrategy::alltoallv, Mapping::mdrange, 0, true, LocalPlan::planes});
  }
  // two FFTW stages (host) or three strided 1-D stages (device)
  if (ranks == 1)
    v.push_back({DecompKind::slab, 0, 0, TransposeStrategy::alltoallv, Mapping::mdrange, 0, true, LocalPlan::whole});
  // in place (fft3d.in_place), at every rank count: one 3-D plan (host) or the strided stages (device) at 1 rank;
  // through the work arrays the slab's, the one-row pencil's and the automatic pencil grid's passes, fused and not
  if (ranks == 1)
    v.push_back(
        {DecompKind::slab, 0, 0, TransposeStrategy::alltoallv, Mapping::mdrange, 0, true, LocalPlan::whole, true});
  for (const bool fuse : {true, false}) {
    for (const DecompKind kind : {DecompKind::slab, DecompKind::pencil})
      v.push_back({kind, 0, 0, TransposeStrategy::pairwise, Mapping::mdrange, 0, fuse, LocalPlan::staged, true});
    v.push_back({DecompKind::pencil, 1, ranks, TransposeStrategy::alltoallv, Mapping::mdrange, 0, fuse,
                 LocalPlan::staged, true});
    if (backend::host_fft_plans)
      for (const DecompKind kind : {DecompKind::slab, DecompKind::pencil})
        v.push_back({kind, 1, ranks, TransposeStrategy::alltoallv, Mapping::mdrange, 0, fuse, LocalPlan::planes, true});
  }
  return v;
}

std::unique_ptr<DistributedFFT> make_fft(const Variant& v, int nx, int ny, int nz) {
  const auto d = Decomposition::make(v.kind, nx, ny, nz, world_size(), v.p_row, v.p_col);
  FFTOptions opt;
  opt.strategy = v.strategy;
  opt.mapping = v.mapping;
  opt.ranks_per_node = v.ranks_per_node;
  opt.fuse_transpose = v.fuse;
  opt.local = v.local;
  opt.in_place = v.in_place;
  return std::make_unique<DistributedFFT>(d, MPI_COMM_WORLD, opt);
}

// What one variant computes on the test grid: the forward transform of the NAS field gathered on
// rank 0 (empty elsewhere), the round-trip error, and NAS FT checksums of a few evolution steps.
struct Outcome {
  std::vector<std::complex<double>> spectrum;
  double round_trip = 0;
  std::vector<std::complex<double>> checksums;
};

Outcome run_variant(const Variant& v, int nx, int ny, int nz) {
  auto fft = make_fft(v, nx, ny, nz);
  const int* g = fft->decomposition().global;
  Field u = make_field("u", fft->x_stage().size()), f = make_field("f", fft->z_stage().size()),
        b = make_field("b", fft->x_stage().size());
  nas::initial_field(fft->x_stage(), g, u);
  // In place, each transform overwrites a copy of its input in an array that holds either stage; the result is
  // copied out of it.
  Field both = make_field("in place", v.in_place ? fft->in_place_size() : 0);
  auto head = [](const Field& a, const Field& b) { return Kokkos::subview(a, std::make_pair(size_t(0), b.extent(0))); };
  auto transform = [&](bool forward, const Field& in, const Field& result) {
    if (!v.in_place) return forward ? fft->forward(in, result) : fft->inverse(in, result);
    Kokkos::deep_copy(head(both, in), in);
    forward ? fft->forward(both, both) : fft->inverse(both, both);
    Kokkos::deep_copy(result, head(both, result));
  };
  Outcome out;
  transform(true, u, f);
  transform(false, f, b);
  out.round_trip =
      max_relative_difference(u, b, fft->x_stage().size(), double(fft->decomposition().points()), MPI_COMM_WORLD);
  out.spectrum = gather_global(*fft, f, false);
  auto tw = nas::twiddle(fft->z_stage(), g, 1e-3);  // stronger damping than NPB's 1e-6: visible evolution
  for (int it = 0; it < 3; ++it) {
    nas::evolve(f, tw);
    transform(false, f, b);
    out.checksums.push_back(nas::checksum(fft->x_stage(), g, b, MPI_COMM_WORLD));
  }
  return out;
}

std::string label(const Variant& v) {
  return std::string(v.kind == DecompKind::slab ? "slab" : "pencil") + " " + std::to_string(v.p_row) + "x" +
         std::to_string(v.p_col) + " " + to_string(v.strategy) + " " + to_string(v.mapping) + " ranks_per_node " +
         std::to_string(v.ranks_per_node) + (v.fuse ? " fused" : " unfused") + " local " + to_string(v.local) +
         (v.in_place ? " in place" : "");
}

}  // namespace

TEST_CASE("fft3d: every stage's pieces tile the grid exactly once", "[fft3d]") {
  for (int ranks : {1, 2, 3, 4, 6})
    for (auto kind : {DecompKind::slab, DecompKind::pencil}) {
      const auto d = Decomposition::make(kind, 13, 10, 7, ranks, 0, 0);
      CHECK(d.p_row * d.p_col == ranks);
      for (int stage = 0; stage < 3; ++stage) {
        std::vector<int> owned(13 * 10 * 7, 0);
        for (int r = 0; r < d.p_row; ++r)
          for (int c = 0; c < d.p_col; ++c) {
            const Pencil p = stage == 0 ? d.x_pencil(r, c) : stage == 1 ? d.y_pencil(r, c) : d.z_pencil(r, c);
            CHECK(p.n[p.order[2]] == d.global[p.order[2]]);  // the contiguous axis is whole
            for (int z = p.lo[2]; z < p.lo[2] + p.n[2]; ++z)
              for (int y = p.lo[1]; y < p.lo[1] + p.n[1]; ++y)
                for (int x = p.lo[0]; x < p.lo[0] + p.n[0]; ++x) owned[(z * 10 + y) * 13 + x]++;
          }
        for (int o : owned) CHECK(o == 1);
      }
    }
}

TEST_CASE("fft3d: impossible decompositions are input errors naming the key", "[fft3d]") {
  // Slab: more ranks than z (or y) planes.
  CHECK_THROWS_AS(Decomposition::make(DecompKind::slab, 64, 64, 3, 4, 0, 0), InputError);
  CHECK_THROWS_WITH(Decomposition::make(DecompKind::slab, 64, 3, 64, 4, 0, 0),
                    Catch::Contains("fft3d.decomposition") && Catch::Contains("slab"));
  // Pencil: product not the rank count, a non-divisor, a grid too thin for p_row.
  CHECK_THROWS_WITH(Decomposition::make(DecompKind::pencil, 8, 8, 8, 4, 3, 2), Catch::Contains("fft3d.p_row"));
  CHECK_THROWS_AS(Decomposition::make(DecompKind::pencil, 8, 8, 8, 4, 3, 0), InputError);
  CHECK_THROWS_AS(Decomposition::make(DecompKind::pencil, 2, 8, 8, 4, 4, 1), InputError);
  CHECK_THROWS_AS(Decomposition::make(DecompKind::pencil, 1, 1, 1, 2, 0, 0), InputError);
  // Automatic pencil grid: most square, p_row <= p_col.
  const auto d = Decomposition::make(DecompKind::pencil, 8, 8, 8, 4, 0, 0);
  CHECK(d.p_row == 2);
  CHECK(d.p_col == 2);
  // When the square grid does not fit, another one is chosen.
  const auto e = Decomposition::make(DecompKind::pencil, 8, 8, 1, 4, 0, 0);
  CHECK(e.p_row == 4);
  CHECK(e.p_col == 1);
}

TEST_CASE("fft3d: copy_box permutes a 3-D block identically with every mapping", "[fft3d]") {
  // Source 4 x 5 x 6 (i, j, k) contiguous in k; destination laid out (k, i, j): dst(k, i, j) = src(i, j, k).
  const int n0 = 4, n1 = 5, n2 = 6;
  Field src = make_field("src", n0 * n1 * n2);
  const auto s = Kokkos::create_mirror_view(src);  // the fields may live on a GPU
  for (int i = 0; i < n0 * n1 * n2; ++i) s(i) = Complex(i, -i);
  Kokkos::deep_copy(src, s);
  BoxCopy c;
  c.n[0] = n0;
  c.n[1] = n1;
  c.n[2] = n2;
  c.sa[0] = n1 * n2;
  c.sa[1] = n2;
  c.sa[2] = 1;
  c.da[0] = n1;
  c.da[1] = 1;
  c.da[2] = n0 * n1;
  for (auto m : {Mapping::flat, Mapping::mdrange, Mapping::team}) {
    Field dst = make_field("dst", n0 * n1 * n2);
    copy_box("test::copy_box", m, c, src.data(), dst.data());
    const auto d = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dst);
    for (int i = 0; i < n0; ++i)
      for (int j = 0; j < n1; ++j)
        for (int k = 0; k < n2; ++k) CHECK(d((k * n0 + i) * n1 + j) == s((i * n1 + j) * n2 + k));
  }
}

TEST_CASE("fft3d: the 46-bit LCG is exact (x <- 5^13 x mod 2^46)", "[fft3d]") {
  __extension__ typedef unsigned __int128 uint128;  // GCC's and Clang's 128-bit integer, the test's exact reference
  uint128 x = nas::lcg_seed;
  std::uint64_t y = nas::lcg_seed;
  for (int i = 0; i < 1000; ++i) {
    x = (x * nas::lcg_a) % (uint128(1) << 46);
    y = nas::mulmod46(nas::lcg_a, y);
    REQUIRE(std::uint64_t(x) == y);
  }
  CHECK(nas::powmod46(nas::lcg_a, 1000) == nas::mulmod46(nas::powmod46(nas::lcg_a, 999), nas::lcg_a));
  CHECK(nas::mulmod46(nas::powmod46(nas::lcg_a, 1000), nas::lcg_seed) == y);
}

TEST_CASE("fft3d: NPB's Mop/s total and class table", "[fft3d]") {
  // NPB 3.3.1-OMP ft.S on one thread printed "Time in seconds = 3.18" and "Mop/s total = 55.63": the operation
  // count with the natural log reproduces it within the rounding of the printed time (0.16%).
  CHECK(testing::allclose(nas::npb_mops(64.0 * 64 * 64, 6, 3.18), 55.63, 2e-3));
  // the count grows linearly with the iterations and N log N with the grid
  CHECK(nas::npb_mops(512.0 * 512 * 512, 20, 1.0) > 2 * nas::npb_mops(512.0 * 256 * 256, 20, 1.0));
  std::string name;
  CHECK(nas::reference_checksums(512, 512, 512, 20, &name).size() == 20);
  CHECK(name == "C");
  CHECK(nas::reference_checksums(512, 512, 512, 6, &name).empty());
  CHECK(name.empty());
}

TEST_CASE("fft3d: every decomposition x strategy equals the reference; NAS checksums agree", "[fft3d][mpi]") {
  const int ranks = world_size();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // Non-power-of-two and uneven over 2 and 4 ranks (13 = 7 + 6 = 4 + 3 + 3 + 3; 10; 7 planes).
  const int nx = 13, ny = 10, nz = 7;
  const Variant reference{DecompKind::slab, 0, 0, TransposeStrategy::alltoallv};
  const Outcome ref = run_variant(reference, nx, ny, nz);
  CHECK(ref.round_trip <= 1e-14);
  CHECK(std::abs(ref.checksums[0] - ref.checksums[2]) > 1e-6);  // the evolution changes the checksum
  {  // The reference itself against FFTW's own 3-D transform.
    auto fft = make_fft(reference, nx, ny, nz);
    Field u = make_field("u", fft->x_stage().size()), f = make_field("f", fft->z_stage().size());
    nas::initial_field(fft->x_stage(), fft->decomposition().global, u);
    fft->forward(u, f);
    CHECK(serial_reference_error(*fft, u, f) <= 1e-14);
  }
  for (const auto& v : all_variants(ranks)) {
    if (v.kind == DecompKind::pencil && (v.p_row > std::min(nx, ny) || v.p_col > std::min(ny, nz))) continue;
    INFO(label(v) << " at " << ranks << " ranks");
    const Outcome got = run_variant(v, nx, ny, nz);
    CHECK(got.round_trip <= 1e-14);
    if (rank == 0) {
      REQUIRE(got.spectrum.size() == ref.spectrum.size());
      // Slab variants differ from the reference only in data motion: bit-identical. Pencils batch the
      // y transforms differently (contiguous, not strided), so FFTW may pick other codelets: stated
      // bound 1e-14 relative (L2). (Measured here: bit-identical too, FFTW 3.3 ESTIMATE, 1-2 threads.) So do
      // the multi-dimensional local plans.
      const bool same_arithmetic = v.kind == reference.kind && v.local == reference.local;
      const double bound = same_arithmetic ? 0.0 : 1e-14;
      double diff = 0, norm = 0;
      for (size_t i = 0; i < ref.spectrum.size(); ++i) {
        diff += std::norm(got.spectrum[i] - ref.spectrum[i]);
        norm += std::norm(ref.spectrum[i]);
      }
      CHECK(std::sqrt(diff / norm) <= bound);
    }
    // Checksums (allreduced: every rank holds them); NPB's own criterion is 1e-12 relative.
    const double bound = v.kind == reference.kind && v.local == reference.local ? 0.0 : 1e-13;
    for (int it = 0; it < 3; ++it)
      CHECK(std::abs(got.checksums[it] - ref.checksums[it]) <= bound * std::abs(ref.checksums[it]));
  }
}

TEST_CASE(
    "fft3d: a local plan that cannot run is an input error; auto keeps the fastest timed one (measure), else a rule",
    "[fft3d][mpi]") {
  const int ranks = world_size();
  Variant pencil_planes{DecompKind::pencil, ranks, 1, TransposeStrategy::alltoallv};  // rows split y: no whole planes
  pencil_planes.local = LocalPlan::planes;
  if (ranks > 1)
    CHECK_THROWS_WITH(make_fft(pencil_planes, 12, 10, 8), Catch::Contains("fft3d.local") && Catch::Contains("planes"));
  Variant slab_whole{DecompKind::slab, 0, 0, TransposeStrategy::alltoallv};
  slab_whole.local = LocalPlan::whole;
  if (ranks > 1) CHECK_THROWS_WITH(make_fft(slab_whole, 12, 10, 8), Catch::Contains("whole"));
  // in place, at every rank count: estimate's rule as out of place (planes on the host, whole at one rank on a device)
  Variant in_place{DecompKind::slab, 0, 0, TransposeStrategy::alltoallv};
  in_place.local = LocalPlan::automatic;
  in_place.in_place = true;
  const LocalPlan by_rule = backend::host_fft_plans ? LocalPlan::planes
                            : ranks == 1            ? LocalPlan::whole
                                                    : LocalPlan::staged;
  CHECK(make_fft(in_place, 12, 10, 8)->local_plan() == by_rule);

  // slabs and a pencil grid of one row: staged, planes (and whole at 1 rank) timed, in place too, with either timing
  // planning; on a device (no planes) staged and whole timed at 1 rank, and at several ranks staged runs untimed
  const size_t timed = backend::host_fft_plans ? (ranks == 1 ? 3u : 2u) : (ranks == 1 ? 2u : 0u);
  for (const FFTPlanning planning : {FFTPlanning::measure, FFTPlanning::patient})
    for (const bool in_place : {false, true}) {
      for (const auto& [kind, p_row] : {std::pair{DecompKind::slab, 0}, std::pair{DecompKind::pencil, 1}}) {
        INFO((kind == DecompKind::slab ? "slab" : "pencil")
             << (in_place ? " in place, " : ", ") << to_string(planning));
        const auto d = Decomposition::make(kind, 12, 10, 8, ranks, p_row, 0);
        FFTOptions opt;
        opt.local = LocalPlan::automatic;
        opt.planning = planning;
        opt.in_place = in_place;
        const DistributedFFT fft(d, MPI_COMM_WORLD, opt);
        const auto& times = fft.local_plan_times();
        REQUIRE(times.size() == timed);
        if (timed == 0) {
          CHECK(fft.local_plan() == LocalPlan::staged);
          continue;
        }
        const auto fastest = std::min_element(times.begin(), times.end(),
                                              [](const auto& a, const auto& b) { return a.second < b.second; });
        CHECK(fft.local_plan() == fastest->first);
        for (const auto& t : times) CHECK(t.second > 0);
      }
    }

  // auto with estimate: a fixed rule, nothing timed; planes where the X stage holds whole planes (slabs, pencil
  // grids of one row; on the host), staged on grids of several rows; on a device whole at one rank, else staged
  const LocalPlan expected = backend::host_fft_plans ? LocalPlan::planes
                             : ranks == 1            ? LocalPlan::whole
                                                     : LocalPlan::staged;
  for (const auto& [kind, p_row] : {std::pair{DecompKind::slab, 0}, std::pair{DecompKind::pencil, 1}}) {
    const auto d = Decomposition::make(kind, 12, 10, 8, ranks, p_row, 0);
    const DistributedFFT fft(d, MPI_COMM_WORLD, FFTOptions{});
    CHECK(fft.local_plan() == expected);
    CHECK(fft.local_plan_times().empty());
  }
  if (ranks == 4) {
    const DistributedFFT fft(Decomposition::make(DecompKind::pencil, 12, 10, 8, ranks, 2, 2), MPI_COMM_WORLD, {});
    CHECK(fft.local_plan() == LocalPlan::staged);
  }
}

TEST_CASE("fft3d: on a device's path the FFTs write the blocks to send, so nothing is packed", "[fft3d][mpi]") {
  const int ranks = world_size();
  // (the pencil path unfused, as on a device, where slabs run it too: each transpose among ranks copies the own block
  // and unpacks, 1 pass over its output piece; forward a transpose within one rank copies nothing, inverse it is one
  // copy along x on both sides)
  const std::vector<Variant> variants{
      {DecompKind::pencil, ranks, 1, TransposeStrategy::alltoallv, Mapping::mdrange, 0, false},
      {DecompKind::pencil, 1, ranks, TransposeStrategy::alltoallv, Mapping::mdrange, 0, false},
      {DecompKind::pencil, 0, 0, TransposeStrategy::nonblocking, Mapping::mdrange, 0, false}};
  for (const Variant& v : variants) {
    INFO(label(v) << " at " << ranks << " ranks");
    auto fft = make_fft(v, 12, 10, 9);
    const Decomposition& d = fft->decomposition();
    Field u = make_field("u", fft->x_stage().size()), f = make_field("f", fft->z_stage().size());
    nas::initial_field(fft->x_stage(), d.global, u);
    const long long before = fft->copied_bytes();
    fft->forward(u, f);
    const int r = fft->row(), c = fft->col();
    const long long forward = (d.p_row > 1 ? d.y_pencil(r, c).size() : 0) + (d.p_col > 1 ? d.z_pencil(r, c).size() : 0);
    CHECK(fft->copied_bytes() - before == forward * (long long)sizeof(Complex));
    fft->inverse(f, u);
    const long long inverse = d.y_pencil(r, c).size() + d.x_pencil(r, c).size();
    CHECK(fft->copied_bytes() - before == (forward + inverse) * (long long)sizeof(Complex));
  }
}

namespace {
// The distinct 32-byte sectors of the complex values at these indices (an array on a 256-byte boundary, as
// cudaMalloc's).
int sectors(const std::vector<long long>& indices) {
  std::vector<long long> s;
  for (long long i : indices) s.push_back(i * (long long)sizeof(Complex) / 32);
  std::sort(s.begin(), s.end());
  return int(std::unique(s.begin(), s.end()) - s.begin());
}
// The most sectors of any warp (32 consecutive (i, j, k), k fastest: the flat and the mdrange mappings) of a copy's
// reads and of its writes, against the 16 sectors 32 complex values fill.
std::pair<int, int> worst_sectors(const BoxCopy& c) {
  const long long n = (long long)c.n[0] * c.n[1] * c.n[2];
  int reads = 0, writes = 0;
  for (long long w = 0; w < n; w += 32) {
    std::vector<long long> from, to;
    for (long long t = w; t < std::min(n, w + 32); ++t) {
      const long long i = t / ((long long)c.n[1] * c.n[2]), j = t / c.n[2] % c.n[1], k = t % c.n[2];
      from.push_back(c.src0 + i * c.sa[0] + j * c.sa[1] + k * c.sa[2]);
      to.push_back(c.dst0 + i * c.da[0] + j * c.da[1] + k * c.da[2]);
    }
    reads = std::max(reads, sectors(from));
    writes = std::max(writes, sectors(to));
  }
  return {reads, writes};
}
}  // namespace

TEST_CASE("fft3d: the copies left on a device's path read and write whole sectors per warp", "[fft3d][mpi]") {
  const int ranks = world_size();
  if (ranks == 1) return;  // one rank's transposes copy nothing on that path
  // X -> Y and back among all ranks (pencil ranks x 1), Y -> Z and back among all ranks (pencil 1 x ranks); a grid
  // whose runs along the blocks' contiguous axis are 32 values or more: each warp access fills 16 sectors (17 where a
  // run does not start on one), where a transposing copy touches 32
  const int n = 64 * ranks;
  const auto rows = Decomposition::make(DecompKind::pencil, n, n, n, ranks, ranks, 1);
  const auto cols = Decomposition::make(DecompKind::pencil, n, n, n, ranks, 1, ranks);
  // (the Y stage on that path is laid out (x, z, y) forward and (y, z, x) inverse: DistributedFFT's constructor)
  auto laid_out = [](Pencil p, int o0, int o1, int o2) {
    p.order[0] = o0, p.order[1] = o1, p.order[2] = o2;
    return p;
  };
  std::vector<Pencil> x_row, y_row, y_col, z_col, yi_row, yi_col;
  for (int q = 0; q < ranks; ++q) {
    x_row.push_back(rows.x_pencil(q, 0));
    y_row.push_back(laid_out(rows.y_pencil(q, 0), 0, 2, 1));
    y_col.push_back(laid_out(cols.y_pencil(0, q), 0, 2, 1));
    z_col.push_back(cols.z_pencil(0, q));
    yi_row.push_back(laid_out(rows.y_pencil(q, 0), 1, 2, 0));
    yi_col.push_back(laid_out(cols.y_pencil(0, q), 1, 2, 0));
  }
  const auto strategy = TransposeStrategy::alltoallv;
  const Reshape x_to_y(x_row, y_row, MPI_COMM_WORLD, strategy, Mapping::mdrange, 0, SendLayout::senders_order);
  const Reshape y_to_z(y_col, z_col, MPI_COMM_WORLD, strategy, Mapping::mdrange, 0, SendLayout::senders_order);
  const Reshape z_to_y(z_col, yi_col, MPI_COMM_WORLD, strategy, Mapping::mdrange, 0, SendLayout::senders_order);
  const Reshape y_to_x(yi_row, x_row, MPI_COMM_WORLD, strategy, Mapping::mdrange, 0, SendLayout::senders_order);
  for (const Reshape* r : {&x_to_y, &y_to_z, &z_to_y, &y_to_x}) {
    CHECK(r->sends_in_place());
    CHECK(r->send_size() == r->input_layout().size());
    std::vector<BoxCopy> copies{r->own_copy()};
    for (const BoxCopy& c : r->unpack_copies())
      if (c.n[0] * c.n[1] * c.n[2] > 0) copies.push_back(c);
    for (const BoxCopy& c : copies) {
      const auto [reads, writes] = worst_sectors(c);
      CHECK(reads <= 17);
      CHECK(writes <= 17);
    }
  }
}

TEST_CASE("fft3d: sending in the receiver's order leaves copies of contiguous runs after the exchange",
          "[fft3d][mpi]") {
  const int ranks = world_size();
  if (ranks == 1) return;
  // a slab's X -> Z and Z -> X (the host's planes path): FFTW writes the blocks in the output stage's order, so the
  // own block's copy and every unpack move runs contiguous in both arrays (the host's row copies, at a copy's speed)
  const auto d = Decomposition::make(DecompKind::slab, 12, 6 * ranks, 5 * ranks, ranks, 0, 0);
  std::vector<Pencil> x, z;
  for (int q = 0; q < ranks; ++q) {
    x.push_back(d.x_pencil(0, q));
    z.push_back(d.z_pencil(0, q));
  }
  const auto strategy = TransposeStrategy::alltoallv;
  const Reshape x_to_z(x, z, MPI_COMM_WORLD, strategy, Mapping::mdrange, 0, SendLayout::receivers_order);
  const Reshape z_to_x(z, x, MPI_COMM_WORLD, strategy, Mapping::mdrange, 0, SendLayout::receivers_order);
  const Reshape packed(x, z, MPI_COMM_WORLD, strategy, Mapping::mdrange, 0, SendLayout::packed);
  CHECK_FALSE(packed.sends_in_place());
  CHECK(packed.own_copy().sa[2] != 1);  // packed, the own block's copy transposes (the case the layout avoids)
  for (const Reshape* r : {&x_to_z, &z_to_x}) {
    CHECK(r->sends_in_place());
    std::vector<BoxCopy> copies{r->own_copy()};
    for (const BoxCopy& c : r->unpack_copies())
      if (c.n[0] * c.n[1] * c.n[2] > 0) copies.push_back(c);
    CHECK(copies.size() == size_t(ranks));
    for (const BoxCopy& c : copies) {
      CHECK(c.sa[2] == 1);
      CHECK(c.da[2] == 1);
    }
  }
}

TEST_CASE("fft3d: one rank's grid in three strided 1-D stages equals FFTW's 3-D transform, each stage one plan",
          "[fft3d]") {
  if (world_size() > 1) return;  // one rank's whole grid
  const auto d = Decomposition::make(DecompKind::slab, 13, 10, 7, 1, 0, 0);
  const Pencil x = d.x_pencil(0, 0), z = d.z_pencil(0, 0);
  // each stage's two batch axes keep one distance apart in both layouts: a device library runs it as one plan
  const Pencil middle = rotated(x);
  for (const bool forward : {true, false}) {
    CHECK(axis_fft_shape(0, forward, x, middle, false, FFTPlanning::estimate).batches_merge());
    CHECK(axis_fft_shape(1, forward, middle, z, false, FFTPlanning::estimate).batches_merge());
    CHECK(axis_fft_shape(1, forward, z, middle, false, FFTPlanning::estimate).batches_merge());
    CHECK(axis_fft_shape(0, forward, middle, x, false, FFTPlanning::estimate).batches_merge());
  }
  const DistributedFFT fft(d, MPI_COMM_WORLD, FFTOptions{});
  Field u = make_field("u", x.size()), f = make_field("f", z.size()), work = make_field("work", x.size()),
        b = make_field("b", x.size());
  nas::initial_field(x, d.global, u);
  fft3d_by_stages(true, x, z, u, work, f, FFTPlanning::estimate);
  CHECK(serial_reference_error(fft, u, f) <= 1e-14);
  fft3d_by_stages(false, x, z, f, work, b, FFTPlanning::estimate);
  CHECK(max_relative_difference(u, b, x.size(), double(d.points()), MPI_COMM_WORLD) <= 1e-14);
  CHECK_THROWS_AS(fft3d_by_stages(true, x, x, u, work, f, FFTPlanning::estimate), RuntimeError);  // not a Z stage
}

#if KOKKOS_VERSION >= 40000
namespace {
// Fences of this process (every execution space and global ones) while alive, through Kokkos Tools' begin_fence
// callback; the callback before is put back after.
class FenceCounter {
 public:
  FenceCounter() : before_(Kokkos::Tools::Experimental::get_callbacks().begin_fence) {
    count() = 0;
    Kokkos::Tools::Experimental::set_begin_fence_callback([](const char*, uint32_t, uint64_t*) { ++count(); });
  }
  ~FenceCounter() { Kokkos::Tools::Experimental::set_begin_fence_callback(before_); }
  FenceCounter(const FenceCounter&) = delete;
  FenceCounter& operator=(const FenceCounter&) = delete;
  static int& count() {
    static int c = 0;
    return c;
  }

 private:
  Kokkos::Tools::beginFenceFunction before_;
};
}  // namespace

TEST_CASE("fft3d: a transform pair without timers fences only before its MPI exchanges", "[fft3d][mpi]") {
  // The host FFT library joins its threads with a fence when it splits a batch over several: one thread here (the
  // unit tests' MPI runs), so that every fence counted is fft3d's. The fused host path's chunk loop (host only) is
  // left out.
  if (backend::host_fft_plans && HostExec().concurrency() > 1) return;
  const int ranks = world_size();
  // the unfused passes (a device's path) with the FFTs writing the send buffers, each transpose among all ranks
  std::vector<Variant> variants{
      {DecompKind::slab, 0, 0, TransposeStrategy::alltoallv, Mapping::mdrange, 0, false},
      {DecompKind::pencil, 0, 0, TransposeStrategy::pairwise, Mapping::mdrange, 0, false},
      {DecompKind::pencil, ranks, 1, TransposeStrategy::alltoallv, Mapping::mdrange, 0, false},
      {DecompKind::pencil, 1, ranks, TransposeStrategy::nonblocking, Mapping::mdrange, 0, false}};
  if (ranks == 1)
    variants.push_back(
        {DecompKind::slab, 0, 0, TransposeStrategy::alltoallv, Mapping::mdrange, 0, true, LocalPlan::whole});
  for (const Variant& v : variants) {
    INFO(label(v) << " at " << ranks << " ranks");
    auto fft = make_fft(v, 12, 10, 8);  // its constructor ran one pair (plans made)
    Field u = make_field("u", fft->x_stage().size()), f = make_field("f", fft->z_stage().size()),
          b = make_field("b", fft->x_stage().size());
    nas::initial_field(fft->x_stage(), fft->decomposition().global, u);
    Kokkos::fence();
    // one fence per exchange among several ranks (MPI reads the packed blocks): each reshape of the pair once
    const size_t exchanges = fft->transpose_counts().size();
    int fences = 0;
    {
      const FenceCounter counter;
      fft->forward(u, f);
      fft->inverse(f, b);
      fences = FenceCounter::count();
    }
    if (ranks == 1) CHECK(fences == 0);
    // (a device build's MPI buffers in host memory are copies, whose deep_copy fences too: counted on the host only)
    if (!proxylab::CommOptions{}.staged_through_host()) CHECK(fences == int(exchanges));
  }
}
#endif
