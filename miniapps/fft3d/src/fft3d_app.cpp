// fft3d driver. Every run: build the decomposition and FFTW plans, transform the NAS FT random field
// once untimed and verify it (Parseval, round trip, serial FFTW 3-D reference on small grids), then
//   mode fft: time `iterations` forward + inverse pairs; GFLOP/s = 5 N log2 N / t per transform (t =
//             max over ranks), split into local FFT, pack, transpose, unpack; transpose bandwidth;
//   mode ft:  the NAS FT benchmark (evolve, inverse, checksum per iteration), checked against NPB's
//             published checksums for classes S, W, A, B, C; NPB's "Mop/s total" beside the GFLOP/s.
#include "fft3d_app.hpp"

#include <algorithm>
#include <cmath>

#include "checks.hpp"
#include "fft3d_results.hpp"
#include "library_baseline.hpp"
#include "memory_estimate.hpp"
#include "nas_ft.hpp"
#include "proxylab/errors.hpp"
#include "proxylab/fft_wisdom.hpp"
#include "proxylab/launch_counter.hpp"
#include "proxylab/perf_limits.hpp"
#include "proxylab/progress.hpp"
#include "proxylab/run_results.hpp"
#include "proxylab/timers.hpp"
#include "run_options.hpp"

namespace proxylab::fft3d {
namespace {

void declare(Schema& s) {
  s.choice("fft3d.mode", RunMode::fft,
           "fft: timed forward + inverse transforms; ft: the NAS FT benchmark (evolve, inverse, checksum)");
  s.integer("fft3d.nx", 64, 1, 1 << 16, "grid points along x (any size FFTW handles)");
  s.integer("fft3d.ny", 64, 1, 1 << 16, "grid points along y");
  s.integer("fft3d.nz", 64, 1, 1 << 16, "grid points along z");
  s.choice("fft3d.decomposition", DecompKind::slab,
           "slab: z planes / y planes over all ranks, one transpose; pencil: p_row x p_col grid, two transposes");
  s.integer("fft3d.p_row", 0, 0, 1 << 20, "pencil process rows (x->y transposes among them); 0 = automatic");
  s.integer("fft3d.p_col", 0, 0, 1 << 20, "pencil process columns (y->z transposes among them); 0 = automatic");
  s.choice("fft3d.transpose", TransposeStrategy::alltoallv, "all-to-all strategy of the transposes");
  s.integer("fft3d.ranks_per_node", 0, 0, 1 << 20,
            "node_aware: emulate nodes of this many consecutive ranks of each transpose communicator "
            "(several leaders on one machine); 0 = the real shared-memory nodes");
  s.choice("fft3d.planning", FFTPlanning::estimate,
           "FFTW planning: FFTW_ESTIMATE, FFTW_MEASURE or FFTW_PATIENT (a wider search: minutes at set-up for a large "
           "grid); host back ends, a device library has one planning mode");
  s.choice(
      "fft3d.local", LocalPlan::automatic,
      "how the local FFTs are planned: staged (batched 1-D FFTs per axis, every decomposition), planes (slabs: one "
      "2-D plan per rank's planes; host), whole (1 rank: the planes' 2-D FFTs straight into the spectral layout, then "
      "the z FFTs in place there, as FFTW-MPI at one rank; on a device three strided 1-D stages); auto: "
      "planning=measure or patient times the ones that can run and keeps the fastest, estimate runs planes where it "
      "can (slabs, pencil grids of one row; in place too), on a device whole at 1 rank, and staged elsewhere");
  s.choice("fft3d.mapping", Mapping::mdrange, "loop mapping of the pack/unpack kernels");
  s.boolean("fft3d.fuse_transpose", true,
            "the FFT next to each transpose reads the received blocks / writes the blocks to send itself, in "
            "cache-sized chunks (no unpack pass after, no pack pass before it); false: separate pack, exchange, unpack "
            "and FFT passes (heFFTe / 2DECOMP style). Host back ends only: on a device the passes are separate");
  s.boolean("fft3d.in_place", false,
            "fft mode, every rank count: each transform overwrites its input, in one array per rank that holds either "
            "stage, as FFTW-MPI's in-place transforms (local whole: FFTW's in-place 3-D plan; planes, staged: through "
            "the work arrays); the input is copied into the transformed array untimed before each forward; false: the "
            "input is kept and the result written beside it");
  s.integer("fft3d.iterations", 10, 1, 100000, "fft: timed forward+inverse pairs; ft: NAS FT iterations");
  s.integer("fft3d.warmup", 1, 0, 1000, "fft: untimed forward+inverse pairs before timing");
  s.boolean("fft3d.serial_baseline", false,
            "fft, 1 rank: also time the FFT library's own 3-D plan over the same data (FFTW; on a device kokkos-fft, "
            "cuFFT on CUDA) and compare with the transform and its local FFT stage");
  s.file("fft3d.wisdom", FileUse::rewritten,
         "FFTW wisdom file: read before planning when it exists (the plans it holds are made at once and are the "
         "same from run to run), written after the run with every plan made (planning measure or patient; host "
         "back ends); empty: none");
  s.real("ft.alpha", nas::alpha, 0.0, 1.0, "ft: diffusion constant of the evolution exp(-4 alpha pi^2 |k|^2 t)");
  s.integer("verify.serial_max_points", 1 << 21, 0, 1LL << 26,
            "compare with a serial FFTW 3-D transform on rank 0 when nx*ny*nz is at most this (0: never)");
  s.real("verify.tolerance", 1e-12, 0.0, 1.0,
         "bound on the relative round-trip, Parseval and serial-reference errors (round-off: ~1e-15 log2 N)");
}

// The local plans timed by the set-up (fft3d.local=auto with planning=measure or patient), by name.
std::vector<std::pair<std::string, double>> local_plan_times(const DistributedFFT& fft) {
  std::vector<std::pair<std::string, double>> v;
  for (const auto& [plan, seconds] : fft.local_plan_times()) v.emplace_back(to_string(plan), seconds);
  return v;
}

// This rank's seconds per stage summed over forward and inverse, max over ranks.
TransformResults::Stages stage_seconds(RunContext& ctx) {
  std::vector<Timers::PathGroup> groups;
  for (const char* stage : {"local_fft", "pack", "transpose", "unpack"})
    groups.push_back({std::string("forward/") + stage, std::string("inverse/") + stage});
  const std::vector<double> worst = ctx.timers.reduce(ctx.comm, groups, Timers::OverRanks::max);
  return {worst[0], worst[1], worst[2], worst[3]};
}

// Best of 5 plain copies of n complex values (at most copy_ceiling_max_values; bytes read + written per second):
// the ceiling of pack and unpack.
double stream_copy_gbs(long long n) {
  n = std::min(n, copy_ceiling_max_values);
  Field a = make_field("fft3d::copy_a", n), b = make_field("fft3d::copy_b", n);
  double best = 1e300;
  for (int r = 0; r < 5; ++r) {
    const double t0 = MPI_Wtime();
    Kokkos::deep_copy(b, a);
    best = std::min(best, MPI_Wtime() - t0);
  }
  return 2.0 * n * sizeof(Complex) / best * 1e-9;
}

// What the forward transform reads: u, or with fft3d.in_place a copy of u at the start of `spectrum` (which holds
// either stage: DistributedFFT::in_place_size), which the transform then overwrites (spectrum and back are then one
// array).
const Field& forward_input(const RunOptions& o, const Field& u, const Field& spectrum) {
  if (!o.fft.in_place) return u;
  Kokkos::deep_copy(Kokkos::subview(spectrum, std::make_pair(size_t(0), u.extent(0))), u);
  return spectrum;
}

// Untimed forward (and inverse) of u with every per-run check.
void verify_transform(RunContext& ctx, const RunOptions& o, DistributedFFT& fft, const Field& u, const Field& spectrum,
                      const Field& back) {
  auto t = ctx.timers.scope("verify");
  const double tol = o.tolerance;
  const Decomposition& d = fft.decomposition();
  const double n = double(d.points());
  fft.forward(forward_input(o, u, spectrum), spectrum);
  const double e_u = global_energy(u, fft.x_stage().size(), ctx.comm);
  const double e_f = global_energy(spectrum, fft.z_stage().size(), ctx.comm);
  ctx.require_finite(e_f, "spectrum energy");
  ctx.report.check_le("Parseval: |sum|F|^2 - N sum|u|^2| / (N sum|u|^2)", std::fabs(e_f - n * e_u) / (n * e_u), tol);
  if (d.points() <= o.serial_max_points) {
    const double err = serial_reference_error(fft, u, spectrum);
    ctx.report.check_le("forward vs serial FFTW 3-D of the gathered field (rel. L2)", err, tol);
    ctx.report.results()["serial_reference_rel_l2"] = err;
  } else {
    ctx.out() << "  (serial FFTW 3-D reference skipped: " << d.points() << " points > verify.serial_max_points)\n";
  }
  fft.inverse(spectrum, back);
  ctx.report.check_le("round trip: max|inverse(forward(u))/N - u| / max|u|",
                      max_relative_difference(u, back, fft.x_stage().size(), n, ctx.comm), tol);
}

// perf.limits for one transform (forward or inverse): the local FFT stage against the library's 3-D plan of this
// rank's X-stage data (its flops: the transform's 5 N log2 N shared evenly by the ranks), pack + unpack (each copied
// byte read and written) against a triad of the same bytes, the transposes against MPI_Alltoall of the same bytes.
LimitsSection transform_limits(RunContext& ctx, const RunOptions& o, const DistributedFFT& fft, const Field& u,
                               double sent_bytes, double copied_bytes, const TransformResults::Stages& s, double per,
                               int repeats) {
  LimitsBuilder limits("transform (forward or inverse)", ctx.comm);
  const LibraryBaseline plan = library_3d_fft(fft.x_stage(), u, repeats, o.fft.planning);
  limits.fft({"local FFT", {"forward/local_fft", "inverse/local_fft"}}, fft.flops() / ctx.size, s.local_fft * per,
             plan.library, plan.flops / plan.seconds);
  limits.memory({"pack and unpack", {"forward/pack", "inverse/pack", "forward/unpack", "inverse/unpack"}},
                2 * copied_bytes, (s.pack + s.unpack) * per);
  const std::vector<CommCount> transposes = fft.transpose_counts();
  if (!transposes.empty()) {
    CommCount all = transposes.front();  // every transpose of the transform together, as the timer counts them
    all.calls = 0;
    for (const CommCount& c : transposes) all.calls += c.calls;
    all.bytes = sent_bytes / all.calls;
    limits.exchange({"transpose", {"forward/transpose", "inverse/transpose"}}, all, s.transpose * per);
  }
  return limits.section();
}

void run_fft_mode(RunContext& ctx, const RunOptions& o, DistributedFFT& fft, const Field& u, const Field& spectrum,
                  const Field& back) {
  const int iterations = o.iterations, warmup = o.warmup;
  for (int i = 0; i < warmup; ++i) {
    fft.forward(forward_input(o, u, spectrum), spectrum);
    fft.inverse(spectrum, back);
    ctx.check_stop();
  }
  const long long bytes0 = fft.transpose_bytes_sent(), copied0 = fft.copied_bytes();
  std::vector<double> tf, ti;
  Progress progress(ctx, iterations, "iteration");
  double launched = 0;  // Kokkos kernel launches of this rank in the timed loop
  {
    LaunchCounter launches;
    for (int it = 0; it < iterations; ++it) {
      const Field& in = forward_input(o, u, spectrum);
      MPI_Barrier(ctx.comm);
      double t0 = MPI_Wtime();
      {
        auto t = ctx.timers.scope("forward");
        fft.forward(in, spectrum, &ctx.timers);
      }
      tf.push_back(MPI_Wtime() - t0);
      MPI_Barrier(ctx.comm);
      t0 = MPI_Wtime();
      {
        auto t = ctx.timers.scope("inverse");
        fft.inverse(spectrum, back, &ctx.timers);
      }
      ti.push_back(MPI_Wtime() - t0);
      if (!progress.update(it + 1)) break;
    }
    launched = double(launches.launches());
  }
  progress.finish();
  const int done = int(tf.size());
  std::vector<double> tf_max(done), ti_max(done);
  MPI_Allreduce(tf.data(), tf_max.data(), done, MPI_DOUBLE, MPI_MAX, ctx.comm);
  MPI_Allreduce(ti.data(), ti_max.data(), done, MPI_DOUBLE, MPI_MAX, ctx.comm);
  const double n = double(fft.decomposition().points());
  // The timed transforms must still be right: the last round trip reproduces u.
  ctx.report.check_le("timed round trips: max|inverse(forward(u))/N - u| / max|u|",
                      max_relative_difference(u, back, fft.x_stage().size(), n, ctx.comm), o.tolerance);

  const double t_fwd = median(tf_max), t_inv = median(ti_max), flops = fft.flops();
  const TransformResults::Stages s = stage_seconds(ctx);
  const double per = 1.0 / (2.0 * done);
  long long bytes = fft.transpose_bytes_sent() - bytes0, bytes_all = 0;
  MPI_Allreduce(&bytes, &bytes_all, 1, MPI_LONG_LONG, MPI_SUM, ctx.comm);
  TransformResults r;
  r.flops = flops;
  r.iterations_done = done;
  r.forward_seconds_median = t_fwd;
  r.inverse_seconds_median = t_inv;
  r.gflops_forward = flops / t_fwd * 1e-9;
  r.gflops_inverse = flops / t_inv * 1e-9;
  r.per_transform = {s.local_fft * per, s.pack * per, s.transpose * per, s.unpack * per};
  r.local_fft_gflops = s.local_fft > 0 ? flops / (s.local_fft * per) * 1e-9 : 0;
  r.transpose_bytes_all_ranks = double(bytes_all);
  r.transpose_gbs = s.transpose > 0 ? bytes_all / s.transpose * 1e-9 : 0;
  // The pack and unpack kernels against a plain copy of the same bytes (the seeds' STREAM copy), measured here.
  const double copied = double(fft.copied_bytes() - copied0) * per, t_copy = (s.pack + s.unpack) * per;
  r.pack_unpack_bytes_per_transform = copied;
  r.pack_unpack_gbs = copied > 0 ? 2 * copied / t_copy * 1e-9 : 0;
  r.copy_gbs_same_bytes = copied > 0 ? stream_copy_gbs((long long)(copied / sizeof(Complex))) : 0;
  r.model_counts =
      model_counts_json("transform (forward or inverse)", {{"local_fft", "fft", flops, 0, 0, s.local_fft * per}},
                        fft.transpose_counts(), launched * per, ctx.comm);
  if (const Decomposition& d = fft.decomposition(); d.kind == DecompKind::slab)
    set_max_ranks(r.model_counts, Decomposition::max_slab_ranks(d.global[1], d.global[2]));
  if (o.serial_baseline) {
    if (ctx.size == 1) {
      r.serial_baseline = TransformResults::SerialBaseline::measured;
      const LibraryBaseline b = library_3d_fft(fft.x_stage(), u, std::max(3, done), o.fft.planning);
      r.library_3d = b.library;
      r.library_3d_seconds = b.seconds;
    } else {
      r.serial_baseline = TransformResults::SerialBaseline::not_on_many_ranks;
    }
  }
  publish_results(ctx, r);
  if (limits_requested(ctx.config))
    publish_results(ctx, transform_limits(ctx, o, fft, u, double(bytes) * per, copied, s, per, std::max(3, done)));
  ctx.report.set_fom("3-D FFT rate, forward + inverse median (5 N log2 N / t, t max over ranks)",
                     2 * flops / (t_fwd + t_inv) * 1e-9, "GFLOP/s");
}

void run_ft_mode(RunContext& ctx, const RunOptions& o, DistributedFFT& fft, const Field& u0, const Field& spectrum,
                 const Field& back) {
  const Decomposition& d = fft.decomposition();
  const int iterations = o.iterations;
  std::string cls;
  const auto ref = nas::reference_checksums(d.global[0], d.global[1], d.global[2], iterations, &cls);
  // The timed benchmark as NPB times it: index map, initial field, forward FFT, then the iterations.
  MPI_Barrier(ctx.comm);
  const double t0 = MPI_Wtime();
  RealField tw;
  {
    auto t = ctx.timers.scope("twiddle");
    tw = nas::twiddle(fft.z_stage(), d.global, o.ft_alpha);
  }
  {
    auto t = ctx.timers.scope("initial_field");
    nas::initial_field(fft.x_stage(), d.global, u0);
  }
  {
    auto t = ctx.timers.scope("forward");
    fft.forward(u0, spectrum, &ctx.timers);
  }
  NasFTResults r;
  r.iterations = iterations;
  r.nx = d.global[0];
  r.ny = d.global[1];
  r.nz = d.global[2];
  std::vector<std::complex<double>>& sums = r.checksums;
  Progress progress(ctx, iterations, "iteration");
  for (int it = 1; it <= iterations; ++it) {
    {
      auto t = ctx.timers.scope("evolve");
      nas::evolve(spectrum, tw);
    }
    {
      auto t = ctx.timers.scope("inverse");
      fft.inverse(spectrum, back, &ctx.timers);
    }
    std::complex<double> chk;
    {
      auto t = ctx.timers.scope("checksum", Category::communication);
      chk = nas::checksum(fft.x_stage(), d.global, back, ctx.comm);
    }
    ctx.require_finite(chk.real() + chk.imag(), "checksum");
    sums.push_back(chk);
    ctx.always() << text_printf(" T = %5d     Checksum = %22.12e %22.12e\n", it, chk.real(), chk.imag());
    if (!progress.update(it)) break;
  }
  progress.finish();
  double elapsed = MPI_Wtime() - t0, worst = 0;
  MPI_Allreduce(&elapsed, &worst, 1, MPI_DOUBLE, MPI_MAX, ctx.comm);
  const int done = int(sums.size());
  if (!ref.empty()) {
    double err = 0;
    for (int i = 0; i < done; ++i) err = std::max(err, std::abs((sums[i] - ref[i]) / ref[i]));
    const bool complete = done == iterations;
    ctx.report.check("NPB FT class " + cls + " checksums, all " + std::to_string(iterations) +
                         " iterations (max |chk - ref| / |ref|)",
                     complete && err <= 1e-12, err, 1e-12, complete ? "" : "interrupted before the last iteration");
    r.nas_class = cls;
    r.checksums_verified = err <= 1e-12 && complete;
    r.checksum_max_rel_error = err;
  }
  const double flops = fft.flops() * (done + 1);
  r.ft_seconds = worst;
  r.npb_mops_total = nas::npb_mops(double(d.points()), done, worst);
  r.gflops = flops / worst * 1e-9;
  publish_results(ctx, r);
  ctx.report.set_fom("NAS FT transform rate (5 N log2 N per FFT, iterations + 1 FFTs)", r.gflops, "GFLOP/s");
}

void run(RunContext& ctx) {
  const RunOptions o = read_options(ctx.config, ctx.comm_options);
  if (o.fft.in_place && o.mode == RunMode::ft)
    throw InputError(
        "key 'fft3d.in_place' has value 'true', which cannot run with fft3d.mode ft (NAS FT evolves "
        "the one spectrum it keeps); allowed: true with fft3d.mode fft, false");
  const Decomposition d = Decomposition::make(o.decomposition, o.nx, o.ny, o.nz, ctx.size, o.p_row, o.p_col);
  require_memory(ctx.comm, estimate_memory(d, o, ctx.rank, ctx.size), "fft3d.nx x fft3d.ny x fft3d.nz");
  FFTWisdomFile wisdom(ctx.comm, "fft3d.wisdom", o.wisdom, o.fft.planning);  // before any plan
  std::unique_ptr<DistributedFFT> fft;
  {
    auto t = ctx.timers.scope("plan");
    fft = std::make_unique<DistributedFFT>(d, ctx.comm, o.fft);
  }
  publish_results(ctx,
                  SetupSummary{d, to_string(o.fft.strategy), to_string(o.fft.planning), ctx.threads(), o.fft.fused(),
                               o.fft.comm.mpi_buffer_mode(), to_string(fft->local_plan()), local_plan_times(*fft)});
  publish_results(ctx, wisdom);
  ctx.check_stop();  // Ctrl-C is seen between the set-up phases
  Field u = make_field("fft3d::u", fft->x_stage().size());
  Field spectrum = make_field("fft3d::spectrum", o.fft.in_place ? fft->in_place_size() : fft->z_stage().size());
  Field back = o.fft.in_place ? spectrum : make_field("fft3d::back", fft->x_stage().size());
  nas::initial_field(fft->x_stage(), d.global, u);
  ctx.check_stop();
  verify_transform(ctx, o, *fft, u, spectrum, back);
  ctx.check_stop();

  if (o.mode == RunMode::fft)
    run_fft_mode(ctx, o, *fft, u, spectrum, back);
  else
    run_ft_mode(ctx, o, *fft, u, spectrum, back);
  if (!ctx.interrupted()) wisdom.save();  // every plan a finished run made, for the next run with this file
}

}  // namespace

AppSpec app_spec() {
  return {"fft3d", "CASTEP-like distributed 3-D FFT (slab/pencil, all-to-all strategies) and NAS FT", declare, run};
}

}  // namespace proxylab::fft3d
