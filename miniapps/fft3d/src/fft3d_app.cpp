// fft3d driver. Every run: build the decomposition and FFTW plans, transform the NAS FT random field
// once untimed and verify it (Parseval, round trip, serial FFTW 3-D reference on small grids), then
//   mode fft: time `iterations` forward + inverse pairs; GFLOP/s = 5 N log2 N / t per transform (t =
//             max over ranks), split into local FFT, pack, transpose, unpack; transpose bandwidth;
//   mode ft:  the NAS FT benchmark (evolve, inverse, checksum per iteration), checked against NPB's
//             published checksums for classes S, W, A, B, C; NPB's "Mop/s total" beside the GFLOP/s.
#include "fft3d_app.hpp"

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "checks.hpp"
#include "memory_estimate.hpp"
#include "nas_ft.hpp"
#include "proxylab/progress.hpp"
#include "run_choices.hpp"

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
  s.choice("fft3d.planning", FFTPlanning::estimate, "FFTW planning: FFTW_ESTIMATE or FFTW_MEASURE");
  s.choice("fft3d.mapping", Mapping::mdrange, "loop mapping of the pack/unpack kernels");
  s.boolean("fft3d.fuse_transpose", true,
            "the FFT next to each transpose reads the received blocks / writes the blocks to send itself, in "
            "cache-sized chunks (no unpack pass after, no pack pass before it); false: separate pack, exchange, unpack "
            "and FFT passes (heFFTe / 2DECOMP style)");
  s.integer("fft3d.iterations", 10, 1, 100000, "fft: timed forward+inverse pairs; ft: NAS FT iterations");
  s.integer("fft3d.warmup", 1, 0, 1000, "fft: untimed forward+inverse pairs before timing");
  s.boolean("fft3d.serial_baseline", false,
            "fft, 1 rank: also time one serial FFTW 3-D plan over the same data and compare with the local FFT stage");
  s.real("ft.alpha", nas::alpha, 0.0, 1.0, "ft: diffusion constant of the evolution exp(-4 alpha pi^2 |k|^2 t)");
  s.integer("verify.serial_max_points", 1 << 21, 0, 1LL << 26,
            "compare with a serial FFTW 3-D transform on rank 0 when nx*ny*nz is at most this (0: never)");
  s.real("verify.tolerance", 1e-12, 0.0, 1.0,
         "bound on the relative round-trip, Parseval and serial-reference errors (round-off: ~1e-15 log2 N)");
}

struct Stages {
  double local_fft = 0, pack = 0, transpose = 0, unpack = 0;
};

// This rank's seconds per region summed over forward and inverse, max over ranks.
Stages stage_seconds(RunContext& ctx) {
  double mine[4] = {0, 0, 0, 0}, worst[4];
  const char* names[4] = {"local_fft", "pack", "transpose", "unpack"};
  for (const char* dir : {"forward", "inverse"})
    for (int k = 0; k < 4; ++k) mine[k] += ctx.timers.seconds(std::string(dir) + "/" + names[k]);
  MPI_Allreduce(mine, worst, 4, MPI_DOUBLE, MPI_MAX, ctx.comm);
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

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? 0 : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Untimed forward (and inverse) of u with every per-run check; leaves the spectrum in `spectrum`.
void verify_transform(RunContext& ctx, DistributedFFT& fft, const Field& u, const Field& spectrum, const Field& back) {
  auto t = ctx.timers.scope("verify");
  const auto& cfg = ctx.config;
  const double tol = cfg.real("verify.tolerance");
  const Decomposition& d = fft.decomposition();
  const double n = double(d.points());
  fft.forward(u, spectrum);
  const double e_u = global_energy(u, fft.x_stage().size(), ctx.comm);
  const double e_f = global_energy(spectrum, fft.z_stage().size(), ctx.comm);
  ctx.require_finite(e_f, "spectrum energy");
  ctx.report.check_le("Parseval: |sum|F|^2 - N sum|u|^2| / (N sum|u|^2)", std::fabs(e_f - n * e_u) / (n * e_u), tol);
  fft.inverse(spectrum, back);
  ctx.report.check_le("round trip: max|inverse(forward(u))/N - u| / max|u|",
                      max_relative_difference(u, back, fft.x_stage().size(), n, ctx.comm), tol);
  const long long max_points = cfg.integer("verify.serial_max_points");
  if (d.points() <= max_points) {
    const double err = serial_reference_error(fft, u, spectrum);
    ctx.report.check_le("forward vs serial FFTW 3-D of the gathered field (rel. L2)", err, tol);
    ctx.report.results()["serial_reference_rel_l2"] = err;
  } else {
    ctx.out() << "  (serial FFTW 3-D reference skipped: " << d.points() << " points > verify.serial_max_points)\n";
  }
}

// One serial FFTW 3-D plan over the whole grid (1 rank), seconds per forward transform (median).
double serial_fftw_seconds(const Decomposition& d, const Field& u, int repeats, bool measure) {
  const long long n = d.points();
  fftw_complex* a = fftw_alloc_complex(n);
  fftw_complex* b = fftw_alloc_complex(n);
  fftw_plan plan = fftw_plan_dft_3d(d.global[2], d.global[1], d.global[0], a, b, FFTW_FORWARD,
                                    measure ? FFTW_MEASURE : FFTW_ESTIMATE);
  std::memcpy(a, u.data(), sizeof(fftw_complex) * n);
  std::vector<double> t;
  for (int i = 0; i < repeats + 1; ++i) {
    const double t0 = MPI_Wtime();
    fftw_execute(plan);
    if (i > 0) t.push_back(MPI_Wtime() - t0);
  }
  fftw_destroy_plan(plan);
  fftw_free(a);
  fftw_free(b);
  return median(t);
}

void run_fft_mode(RunContext& ctx, DistributedFFT& fft, const Field& u, const Field& spectrum, const Field& back) {
  const auto& cfg = ctx.config;
  const int iterations = int(cfg.integer("fft3d.iterations")), warmup = int(cfg.integer("fft3d.warmup"));
  for (int i = 0; i < warmup; ++i) {
    fft.forward(u, spectrum);
    fft.inverse(spectrum, back);
    ctx.check_stop();
  }
  const long long bytes0 = fft.transpose_bytes_sent(), copied0 = fft.copied_bytes();
  std::vector<double> tf, ti;
  Progress progress(ctx, iterations, "iteration");
  for (int it = 0; it < iterations; ++it) {
    MPI_Barrier(ctx.comm);
    double t0 = MPI_Wtime();
    {
      auto t = ctx.timers.scope("forward");
      fft.forward(u, spectrum, &ctx.timers);
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
  progress.finish();
  const int done = int(tf.size());
  std::vector<double> tf_max(done), ti_max(done);
  MPI_Allreduce(tf.data(), tf_max.data(), done, MPI_DOUBLE, MPI_MAX, ctx.comm);
  MPI_Allreduce(ti.data(), ti_max.data(), done, MPI_DOUBLE, MPI_MAX, ctx.comm);
  const double n = double(fft.decomposition().points());
  // The timed transforms must still be right: the last round trip reproduces u.
  ctx.report.check_le("timed round trips: max|inverse(forward(u))/N - u| / max|u|",
                      max_relative_difference(u, back, fft.x_stage().size(), n, ctx.comm),
                      cfg.real("verify.tolerance"));

  const double t_fwd = median(tf_max), t_inv = median(ti_max), flops = fft.flops();
  const Stages s = stage_seconds(ctx);
  const double per = 1.0 / (2.0 * done);
  long long bytes = fft.transpose_bytes_sent() - bytes0, bytes_all = 0;
  MPI_Allreduce(&bytes, &bytes_all, 1, MPI_LONG_LONG, MPI_SUM, ctx.comm);
  const double bandwidth = s.transpose > 0 ? bytes_all / s.transpose * 1e-9 : 0;
  char line[256];
  std::snprintf(line, sizeof line, "  forward %.4e s (%.3f GFLOP/s), inverse %.4e s (%.3f GFLOP/s), median of %d\n",
                t_fwd, flops / t_fwd * 1e-9, t_inv, flops / t_inv * 1e-9, done);
  ctx.out() << line;
  std::snprintf(line, sizeof line,
                "  per transform (max over ranks): local FFT %.4e s, pack %.4e s, transpose %.4e s, unpack %.4e s\n",
                s.local_fft * per, s.pack * per, s.transpose * per, s.unpack * per);
  ctx.out() << line;
  std::snprintf(line, sizeof line, "  transpose: %.3f GB/s aggregate (%.3e bytes sent by all ranks, padding excluded)\n",
                bandwidth, double(bytes_all));
  ctx.out() << line;
  // The pack and unpack kernels against a plain copy of the same bytes (the seeds' STREAM copy), measured here.
  const double copied = double(fft.copied_bytes() - copied0) * per, t_copy = (s.pack + s.unpack) * per;
  const double copy_gbs = copied > 0 ? 2 * copied / t_copy * 1e-9 : 0;
  const double stream_gbs = copied > 0 ? stream_copy_gbs((long long)(copied / sizeof(Complex))) : 0;
  if (copied > 0) {
    std::snprintf(line, sizeof line,
                  "  pack + unpack: %.3e bytes per transform at %.2f GB/s (read + write), %.0f%% of a copy of the same "
                  "bytes (%.2f GB/s)\n",
                  copied, copy_gbs, 100.0 * copy_gbs / stream_gbs, stream_gbs);
    ctx.out() << line;
  }
  auto& res = ctx.report.results();
  res["forward_seconds_median"] = t_fwd;
  res["inverse_seconds_median"] = t_inv;
  res["gflops_forward"] = flops / t_fwd * 1e-9;
  res["gflops_inverse"] = flops / t_inv * 1e-9;
  res["per_transform_seconds"] = {{"local_fft", s.local_fft * per}, {"pack", s.pack * per},
                                  {"transpose", s.transpose * per}, {"unpack", s.unpack * per}};
  res["local_fft_gflops"] = s.local_fft > 0 ? flops / (s.local_fft * per) * 1e-9 : 0;
  res["transpose_gbs"] = bandwidth;
  res["pack_unpack_bytes_per_transform"] = copied;
  res["pack_unpack_gbs"] = copy_gbs;
  res["copy_gbs_same_bytes"] = stream_gbs;
  res["iterations_done"] = done;
  res["model_counts"] =
      model_counts_json("transform (forward or inverse)", {{"local_fft", "fft", flops, 0, 0, s.local_fft * per}},
                        fft.transpose_counts(), ctx.comm);
  if (cfg.boolean("fft3d.serial_baseline")) {
    if (ctx.size == 1) {
      const double t_serial = serial_fftw_seconds(fft.decomposition(), u, std::max(3, done),
                                                  cfg.choice<FFTPlanning>("fft3d.planning") == FFTPlanning::measure);
      const double t_local = s.local_fft * per;
      std::snprintf(line, sizeof line,
                    "  serial FFTW 3-D plan: %.4e s per transform; local FFT stage %.4e s = %.1f%% of its speed\n",
                    t_serial, t_local, 100.0 * t_serial / t_local);
      ctx.out() << line;
      res["serial_fftw3d_seconds"] = t_serial;
      res["local_fft_vs_serial_fftw_pct"] = 100.0 * t_serial / t_local;
    } else {
      ctx.out() << "  (fft3d.serial_baseline: runs on 1 rank only)\n";
    }
  }
  ctx.report.set_fom("3-D FFT rate, forward + inverse median (5 N log2 N / t, t max over ranks)",
                     2 * flops / (t_fwd + t_inv) * 1e-9, "GFLOP/s");
}

void run_ft_mode(RunContext& ctx, DistributedFFT& fft, const Field& u0, const Field& spectrum, const Field& back) {
  const auto& cfg = ctx.config;
  const Decomposition& d = fft.decomposition();
  const int iterations = int(cfg.integer("fft3d.iterations"));
  std::string cls;
  const auto ref = nas::reference_checksums(d.global[0], d.global[1], d.global[2], iterations, &cls);
  // The timed benchmark as NPB times it: index map, initial field, forward FFT, then the iterations.
  MPI_Barrier(ctx.comm);
  const double t0 = MPI_Wtime();
  RealField tw;
  {
    auto t = ctx.timers.scope("twiddle");
    tw = nas::twiddle(fft.z_stage(), d.global, cfg.real("ft.alpha"));
  }
  {
    auto t = ctx.timers.scope("initial_field");
    nas::initial_field(fft.x_stage(), d.global, u0);
  }
  {
    auto t = ctx.timers.scope("forward");
    fft.forward(u0, spectrum, &ctx.timers);
  }
  std::vector<std::complex<double>> sums;
  Progress progress(ctx, iterations, "iteration");
  char line[160];
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
    std::snprintf(line, sizeof line, " T = %5d     Checksum = %22.12e %22.12e\n", it, chk.real(), chk.imag());
    ctx.always() << line;
    if (!progress.update(it)) break;
  }
  progress.finish();
  double elapsed = MPI_Wtime() - t0, worst = 0;
  MPI_Allreduce(&elapsed, &worst, 1, MPI_DOUBLE, MPI_MAX, ctx.comm);
  const int done = int(sums.size());
  nlohmann::json table = nlohmann::json::array();
  for (const auto& c : sums) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.12e %.12e", c.real(), c.imag());
    table.push_back(buf);
  }
  ctx.report.results()["checksums"] = table;
  if (!ref.empty()) {
    double err = 0;
    for (int i = 0; i < done; ++i) err = std::max(err, std::abs((sums[i] - ref[i]) / ref[i]));
    const bool complete = done == iterations;
    ctx.report.check("NPB FT class " + cls + " checksums, all " + std::to_string(iterations) +
                         " iterations (max |chk - ref| / |ref|)",
                     complete && err <= 1e-12, err, 1e-12, complete ? "" : "interrupted before the last iteration");
    ctx.out() << "  NAS FT class " << cls << ": " << (err <= 1e-12 && complete ? "checksums verified" : "FAILED")
              << " (max rel. error " << err << ", NPB's epsilon 1e-12)\n";
    ctx.report.results()["nas_class"] = cls;
  } else {
    ctx.out() << "  (no published NPB checksums for " << d.global[0] << "x" << d.global[1] << "x" << d.global[2]
              << " with " << iterations << " iterations: classes S, W, A, B, C only)\n";
  }
  const double flops = fft.flops() * (done + 1), mops = nas::npb_mops(double(d.points()), done, worst);
  std::snprintf(line, sizeof line,
                "  NPB: Time in seconds = %.2f, Mop/s total = %.2f (NPB FT operation count), %.3f GFLOP/s\n", worst,
                mops, flops / worst * 1e-9);
  ctx.out() << line;
  ctx.report.results()["ft_seconds"] = worst;
  ctx.report.results()["npb_mops_total"] = mops;
  ctx.report.set_fom("NAS FT transform rate (5 N log2 N per FFT, iterations + 1 FFTs)", flops / worst * 1e-9,
                     "GFLOP/s");
}

void run(RunContext& ctx) {
  const auto& cfg = ctx.config;
  const DecompKind kind = cfg.choice<DecompKind>("fft3d.decomposition");
  const Decomposition d =
      Decomposition::make(kind, int(cfg.integer("fft3d.nx")), int(cfg.integer("fft3d.ny")),
                          int(cfg.integer("fft3d.nz")), ctx.size, int(cfg.integer("fft3d.p_row")),
                          int(cfg.integer("fft3d.p_col")));
  require_memory(ctx.comm, estimate_memory(d, cfg, ctx.rank, ctx.size), "fft3d.nx x fft3d.ny x fft3d.nz");
  FFTOptions opt;
  opt.strategy = cfg.choice<TransposeStrategy>("fft3d.transpose");
  opt.planning = cfg.choice<FFTPlanning>("fft3d.planning");
  opt.mapping = cfg.choice<Mapping>("fft3d.mapping");
  opt.fuse_transpose = cfg.boolean("fft3d.fuse_transpose");
  opt.ranks_per_node = int(cfg.integer("fft3d.ranks_per_node"));
  ctx.out() << "  grid " << d.global[0] << " x " << d.global[1] << " x " << d.global[2] << " (" << d.points()
            << " points), " << d.describe() << ", transpose " << to_string(opt.strategy) << ", FFTW "
            << to_string(opt.planning) << ", " << ctx.threads() << " thread(s) per rank\n";

  std::unique_ptr<DistributedFFT> fft;
  {
    auto t = ctx.timers.scope("plan");
    fft = std::make_unique<DistributedFFT>(d, ctx.comm, opt);
  }
  ctx.check_stop();  // Ctrl-C is seen between the set-up phases
  Field u = make_field("fft3d::u", fft->x_stage().size());
  Field spectrum = make_field("fft3d::spectrum", fft->z_stage().size());
  Field back = make_field("fft3d::back", fft->x_stage().size());
  nas::initial_field(fft->x_stage(), d.global, u);
  ctx.check_stop();
  verify_transform(ctx, *fft, u, spectrum, back);
  ctx.check_stop();

  auto& res = ctx.report.results();
  res["p_row"] = d.p_row;
  res["p_col"] = d.p_col;
  res["points"] = d.points();
  if (cfg.choice<RunMode>("fft3d.mode") == RunMode::fft)
    run_fft_mode(ctx, *fft, u, spectrum, back);
  else
    run_ft_mode(ctx, *fft, u, spectrum, back);
}

}  // namespace

AppSpec app_spec() {
  return {"fft3d", "CASTEP-like distributed 3-D FFT (slab/pencil, all-to-all strategies) and NAS FT", declare, run};
}

}  // namespace proxylab::fft3d
