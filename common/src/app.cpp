// The shared life cycle of every proxy (see app.hpp).
#include "proxylab/app.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "proxylab/build_info.hpp"
#include "proxylab/comm/mpi_device_memory.hpp"
#include "proxylab/device.hpp"
#include "proxylab/kokkos_args.hpp"
#include "proxylab/launch_check.hpp"
#include "proxylab/launch_counter.hpp"
#include "proxylab/memory_budget.hpp"
#include "proxylab/output_file.hpp"
#include "proxylab/perf_limits.hpp"
#include "proxylab/placement.hpp"
#include "proxylab/run_files.hpp"

namespace proxylab {

// Every proxy's deck accepts an `imbalance` section (seed 000's slow "process 24" on demand, workshop lesson 10), the
// comm.* keys (comm/options.hpp) and perf.limits (perf_limits.hpp).
void declare_common_keys(Schema& schema) {
  declare_comm_keys(schema);
  declare_limits_key(schema);
  schema.text("imbalance.slow_ranks", "",
              "inject load imbalance: comma-separated ranks (e.g. \"1,3\") whose compute timer regions take "
              "imbalance.slow_factor times their time (same as --slow-ranks; empty = none)");
  schema.real("imbalance.slow_factor", 2.0, 1.0, 1000.0, "slow-down of imbalance.slow_ranks (same as --slow-factor)");
}

namespace {

// A run that ended before it knew every file it reads (its deck was refused, so the deck's file keys are unknown):
// `out`'s target is removed as stale only if it is what `out` writes, a JSON object with `key` (a record's "status",
// a trace's "traceEvents"); anything else may be an input of the run and is left as it is.
void keep_target_unless_json_with(OutputFile& out, const char* key) {
  if (!out.enabled() || !out.is_writer()) return;
  std::ifstream in(output_target(out.path()), std::ios::binary);
  const nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || !doc.contains(key)) out.keep_target();
}

std::string g_process_cpus;  // the launcher's binding, read before Kokkos binds the main thread
RankDevice g_rank_device;    // the device this rank takes, decided before Kokkos::initialize and handed to it
// end_with_error's own communicator: its barrier must never match a collective the other ranks are in
// (an MPI_Ibarrier on the run's communicator completed against their MPI_Iallreduce of a stop check).
MPI_Comm g_error_comm = MPI_COMM_NULL;

struct NullBuffer : std::streambuf {
  int overflow(int c) override { return c; }
};
NullBuffer null_buffer;
std::ostream null_stream(&null_buffer);

// Ends the run after an error. When every rank failed alike (they all reach this point), rank 0
// prints the message once and the run exits normally with `code`. When only some ranks failed,
// the others are stuck elsewhere: after a grace period the failing rank prints and aborts the job.
int end_with_error(MPI_Comm comm, int code, const std::string& app, const std::string& kind, const std::string& msg) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Request req;
  MPI_Ibarrier(g_error_comm != MPI_COMM_NULL ? g_error_comm : comm, &req);
  const double t0 = MPI_Wtime(), grace = 10.0;
  int done = 0;
  while (!done && MPI_Wtime() - t0 < grace) {
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (!done) usleep(2000);
  }
  if (done) {
    if (rank == 0) std::cerr << "proxylab " << app << ": " << kind << ": " << msg << std::endl;
    return code;
  }
  std::cerr << "proxylab " << app << ": " << kind << " on rank " << rank << ": " << msg
            << " (other ranks did not stop within " << grace << " s; aborting the job)" << std::endl;
  // MPI_Abort tears the job down at once; give mpiexec's output forwarding a moment to carry the
  // message above first (without this pause it was lost in about one run of fifty).
  std::fflush(nullptr);
  usleep(500000);
  MPI_Abort(comm, code);
  return code;
}

// Parses imbalance.slow_ranks ("1,3"); every rank parses the same text, so all reject it together.
std::vector<int> slow_ranks_from_deck(const Config& cfg, int size) {
  std::vector<int> ranks;
  std::stringstream list(cfg.text("imbalance.slow_ranks"));
  for (std::string item; std::getline(list, item, ',');) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    size_t used = 0;
    int r = -1;
    try {
      r = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size() || r < 0 || r >= size)
      cfg.reject("imbalance.slow_ranks", "comma-separated rank numbers from 0 to " + std::to_string(size - 1) + " (" +
                                             excerpt(item) + " is not one)");
    ranks.push_back(r);
  }
  return ranks;
}

// --slow-ranks: every rank must exist (all ranks parse the same flags, so all reject them together).
void check_slow_ranks_flag(const std::vector<int>& ranks, int size) {
  for (int r : ranks)
    if (r < 0 || r >= size)
      throw InputError("--slow-ranks: rank " + std::to_string(r) + " does not exist; allowed: 0 to " +
                       std::to_string(size - 1) + " (" + std::to_string(size) + " ranks)");
}

// The header's device line (device builds only): the device, its memory and how MPI gets the buffers.
std::string device_summary(CommOptions comm) {
  const DeviceInfo d = device_info();
  if (!d.present) return "";
  std::string memory = d.total_bytes > 0
                           ? " (" + format_bytes(d.total_bytes) + ", " + format_bytes(d.free_bytes) + " free)"
                           : " (memory unknown)";
  return "  device: " + d.name + memory + " | MPI buffers: " + comm.mpi_buffer_mode() + "\n";
}

nlohmann::json device_json(CommOptions comm) {
  const DeviceInfo d = device_info();
  return {{"present", d.present},
          {"name", d.name},
          {"memory_bytes", d.total_bytes},
          {"free_bytes_at_start", d.free_bytes},
          {"devices_on_node", d.devices_on_node},
          {"runtime_id", d.runtime_id < 0 ? nlohmann::json() : nlohmann::json(d.runtime_id)},
          {"mpi_buffers", comm.mpi_buffer_mode()}};
}

std::string join_ints(const std::vector<int>& v) {
  std::string s;
  for (size_t k = 0; k < v.size(); ++k) s += (k ? "," : "") + std::to_string(v[k]);
  return s;
}

// Verification limits (deck keys verify.*) that differ from the schema's defaults: a run whose checks were
// relaxed must say so. [{key, value, default}], the same on every rank.
nlohmann::json changed_verification_limits(const Schema& schema, const Config& cfg) {
  const nlohmann::json defaults =
      Config(schema, "", "schema defaults").to_json().value("verify", nlohmann::json::object());
  const nlohmann::json actual = cfg.to_json().value("verify", nlohmann::json::object());
  nlohmann::json changed = nlohmann::json::array();
  for (const auto& [name, value] : actual.items())
    if (!defaults.contains(name) || defaults[name] != value)
      changed.push_back(
          {{"key", "verify." + name}, {"value", value}, {"default", defaults.value(name, nlohmann::json())}});
  return changed;
}

std::string version_line(const std::string& app) {
  return "proxylab-" + app + " " + build_info::version + " (git " + build_info::git_hash +
         (std::string(build_info::git_dirty) == "true" ? "+dirty" : "") + "), Kokkos " + kokkos_version_text() + " (" +
         enabled_backends() + "), MPI: " + mpi_library_version() + "\n";
}

int run_body(int argc, char** argv, const AppSpec& spec, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);

  // ---- flags ----------------------------------------------------------------------------------
  CLI::App cli{"proxylab " + spec.name + ": " + spec.summary, "proxylab-" + spec.name};
  std::string deck_path, json_path, trace_path, deck_name, json_target;
  std::vector<std::string> overrides;
  bool quiet = false, help_deck = false, no_timers = false, version = false;
  int fail_on_rank = -1;
  std::vector<int> slow_ranks;
  double slow_factor = 2.0;
  auto* deck_flag = cli.add_option("--deck", deck_path, "YAML input deck (default: built-in defaults)");
  cli.add_option("--set", overrides, "override a deck key: --set section.key=value (repeatable)");
  auto* json_flag = cli.add_option("--json", json_path, "write the full run record (JSON) to this file");
  auto* trace_flag = cli.add_option("--trace", trace_path, "write a per-rank Chrome trace (JSON) to this file");
  // The front end's, hidden: the user's name of a deck it copied from a pipe, and where it delivers the --json record
  // (kept apart from the run's other files: run_files.hpp).
  cli.add_option("--deck-name", deck_name, "the deck's name in messages and the record")->group("");
  cli.add_option("--json-target", json_target, "the file the --json record is delivered to")->group("");
  cli.add_flag("--quiet", quiet, "print only the FOM and VERIFICATION lines");
  cli.add_flag("--help-deck", help_deck, "list every deck key with its type, default and allowed values");
  bool deck_schema = false;
  cli.add_flag("--deck-schema", deck_schema, "print every deck key as JSON (type, default, bounds, choices, doc)");
  cli.add_flag("--version", version, "print the version, git hash, Kokkos and MPI library, and exit");
  cli.add_flag("--no-timers", no_timers, "switch timer regions off (to measure their perturbation)");
  cli.add_option("--slow-ranks", slow_ranks,
                 "inject load imbalance: compute regions on these ranks take --slow-factor times longer (e.g. 1,3)")
      ->delimiter(',');
  auto* slow_factor_flag = cli.add_option("--slow-factor", slow_factor, "slow-down of the --slow-ranks (default 2)")
                               ->check(CLI::Range(1.0, 1000.0));
  cli.add_option("--fail-on-rank", fail_on_rank,
                 "testing: raise a runtime error on this rank only, after set-up (the job must end, not hang)");
  cli.footer("Kokkos " + kokkos_version_text() + " flags are accepted too, e.g. " + kokkos_num_threads_flag() +
             "=N. Outputs (--json, --trace) are checked before the run and replaced only by a complete file. "
             "Exit codes: 0 verified, 1 verification failed, 2 bad input, 3 runtime failure, 130 interrupted "
             "(SIGINT or SIGTERM).");
  try {
    cli.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    if (rank == 0) std::cout << cli.help();
    return exit_ok;
  } catch (const CLI::ParseError& e) {
    if (rank == 0)
      std::cerr << "proxylab " << spec.name << ": bad input: " << escaped(e.what()) << " (see --help)" << std::endl;
    return exit_bad_input;
  }
  if (version) {
    if (rank == 0) std::cout << version_line(spec.name);
    return exit_ok;
  }

  Schema schema;
  spec.declare(schema);
  declare_common_keys(schema);
  if (help_deck) {
    if (rank == 0) std::cout << "Deck keys of proxylab " << spec.name << ":\n" << schema.help();
    return exit_ok;
  }
  if (deck_schema) {
    if (rank == 0) std::cout << schema.to_json().dump(1) << "\n";
    return exit_ok;
  }

  // ---- input and outputs ----------------------------------------------------------------------
  // The outputs first: a run that stops on bad input removes a stale record of an earlier run.
  std::unique_ptr<OutputFile> json_out, trace_out;
  std::unique_ptr<Config> cfg;
  RunFiles files;  // no output may be an input or another output of the run
  // Ended before the deck was read: its file keys are unknown, and an output's target may be one of them (an FFTW
  // wisdom file given as --json): only a stale record or trace is removed.
  auto leave_what_may_be_inputs = [&] {
    if (cfg) return;
    if (json_out) keep_target_unless_json_with(*json_out, "status");
    if (trace_out) keep_target_unless_json_with(*trace_out, "traceEvents");
  };
  try {
    // A flag given with an empty value names no file: refused, never taken for "no such output" (otherwise
    // --json '' would run without a record and exit 0).
    for (const auto& [flag, value] :
         {std::pair{deck_flag, &deck_path}, {json_flag, &json_path}, {trace_flag, &trace_path}})
      if (flag->count() > 0 && value->empty())
        throw InputError(flag->get_name() + " '': the path is empty; allowed: a file path");
    files.add("--deck", deck_path, FileUse::input);
    files.add("--json", json_path, FileUse::output);
    files.add("--json", json_target, FileUse::output);
    files.add("--trace", trace_path, FileUse::output);
    files.check(comm);
    json_out = std::make_unique<OutputFile>(comm, 0, "--json", json_path);
    trace_out = std::make_unique<OutputFile>(comm, 0, "--trace", trace_path);
    check_slow_ranks_flag(slow_ranks, size);
    if (deck_name.empty()) deck_name = deck_path;
    cfg = std::make_unique<Config>(schema, load_deck_text(deck_path, comm, deck_name), deck_name, overrides);
    files.add_declared(schema, *cfg);
    files.check(comm, {json_out.get(), trace_out.get()});
    const std::string unreadable = gpu_aware_refusal(read_comm_options(*cfg), !mem_space_on_host, mpi_device_memory());
    if (!unreadable.empty()) throw InputError(unreadable);
    // The flags win over the deck, so a run can be slowed without editing its deck.
    if (slow_ranks.empty()) slow_ranks = slow_ranks_from_deck(*cfg, size);
    if (slow_factor_flag->count() == 0) slow_factor = cfg->real("imbalance.slow_factor");
  } catch (const InputError& e) {
    leave_what_may_be_inputs();
    return end_with_error(comm, exit_bad_input, spec.name, "bad input", e.what());
  } catch (const Interrupted&) {  // while a piped deck's writer was awaited
    leave_what_may_be_inputs();
    return end_with_error(comm, exit_interrupted, spec.name, "interrupted", "before the run, while the deck was read");
  } catch (const std::exception& e) {
    leave_what_may_be_inputs();
    return end_with_error(comm, exit_runtime_failure, spec.name, "runtime failure", failure_message(e));
  }

  Trace trace(comm, trace_out->enabled());
  Timers timers(&trace);
  timers.set_enabled(!no_timers);
  const bool slowed = std::find(slow_ranks.begin(), slow_ranks.end(), rank) != slow_ranks.end();
  if (slowed) timers.set_slowdown(slow_factor);
  Report report(spec.name);
  report.set_changed_limits(changed_verification_limits(schema, *cfg));
  RunContext ctx(*cfg, comm, timers, trace, report, quiet);
  const nlohmann::json placement = gather_placement(comm, g_process_cpus);
  const nlohmann::json rank_devices = gather_rank_devices(comm, g_rank_device);

  ctx.out() << "proxylab " << spec.name << " - " << spec.summary << "\n"
            << "  deck " << escaped(cfg->deck_name()) << " | ranks x threads " << size << " x " << ctx.threads()
            << " | Kokkos " << default_backend() << " (" << enabled_backends() << ") | version " << build_info::version
            << " git " << std::string(build_info::git_hash).substr(0, 10)
            << (std::string(build_info::git_dirty) == "true" ? "+dirty" : "") << "\n"
            << "  placement: " << placement_summary(placement) << "\n"
            << "  rank devices: " << rank_devices_summary(rank_devices) << "\n"
            << device_summary(ctx.comm_options)
            << (slow_ranks.empty() ? std::string()
                                   : "  INJECTED IMBALANCE: compute regions of ranks " + join_ints(slow_ranks) +
                                         " take " + CLI::detail::to_string(slow_factor) + "x their time\n")
            << "  parameters:\n"
            << cfg->describe() << std::flush;

  // ---- run ------------------------------------------------------------------------------------
  double t_run = 0;
  const double t0 = MPI_Wtime();
  try {
    ctx.check_stop();  // a signal during start-up
    if (rank == fail_on_rank) throw RuntimeError("failure injected by --fail-on-rank " + std::to_string(rank));
    spec.run(ctx);
  } catch (const Interrupted&) {
    // every rank threw at the same check; report what ran
  } catch (const InputError& e) {
    return end_with_error(comm, exit_bad_input, spec.name, "bad input", e.what());
  } catch (const std::exception& e) {
    return end_with_error(comm, exit_runtime_failure, spec.name, "runtime failure", failure_message(e));
  }
  t_run = MPI_Wtime() - t0;
  // A signal after the last check still makes the run an interrupted one: 130 every time.
  ctx.stop_requested();

  // ---- report ---------------------------------------------------------------------------------
  int code = exit_ok;
  try {
    // The trace first: a trace that cannot be written is noted in the summary and the record.
    if (trace.enabled())
      ctx.write_outputs([&] {
        const size_t n = trace.write(*trace_out);
        ctx.out() << "trace: " << n << " spans written to " << quote(trace_path)
                  << " (open in ui.perfetto.dev or ./proxylab gantt)\n";
      });
    auto stats = timers.reduce(comm);
    int mine = report.verified() ? 1 : 0, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm);
    if (rank == 0) {
      if (!quiet) {
        std::cout << "\nTimers (" << size << (size == 1 ? " rank" : " ranks") << "; one start/stop pair costs "
                  << timers.overhead_seconds() * 1e9 << " ns):\n"
                  << format_timer_table(stats) << "\n";
        if (ctx.interrupted()) std::cout << "INTERRUPTED: results below cover the part that ran\n";
        std::cout << report.summary_text();
      } else {
        std::cout << "FOM: " << report.fom_value() << " " << report.fom_unit() << " (" << report.fom_name() << ")\n"
                  << report.verification_line(all != 0);
      }
      std::cout << std::flush;
    }
    if (json_out->enabled()) {
      nlohmann::json timer_json = nlohmann::json::array();
      for (const auto& s : stats)
        timer_json.push_back({{"region", s.path},
                              {"category", s.category},
                              {"calls", s.calls},
                              {"min_s", s.min},
                              {"avg_s", s.avg},
                              {"max_s", s.max},
                              {"imbalance_pct", s.imbalance_pct}});
      nlohmann::json record = report.to_json();
      record["status"] = ctx.interrupted()                  ? "interrupted"
                         : !report.failed_outputs().empty() ? "output_failed"
                                                            : "completed";
      record["deck"] = cfg->deck_name();
      record["config"] = cfg->to_json();
      record["provenance"] = provenance(comm);
      record["provenance"]["placement"] = placement;
      record["provenance"]["device"] = device_json(ctx.comm_options);
      record["provenance"]["device"]["ranks"] = rank_devices;
      record["timers"] = timer_json;
      record["timers_enabled"] = !no_timers;
      record["injected_imbalance"] = {{"slow_ranks", slow_ranks},
                                      {"slow_factor", slow_ranks.empty() ? 1.0 : slow_factor}};
      record["timer_overhead_s"] = timers.overhead_seconds();
      record["run_seconds"] = t_run;
      json_out->commit(record.dump(2) + "\n");
    }
    code = ctx.interrupted()                  ? exit_interrupted
           : !report.failed_outputs().empty() ? exit_runtime_failure
           : all                              ? exit_ok
                                              : exit_verification_failed;
  } catch (const std::exception& e) {
    return end_with_error(comm, exit_runtime_failure, spec.name, "runtime failure", failure_message(e));
  }
  return code;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------
RunContext::RunContext(const Config& cfg, MPI_Comm c, Timers& t, Trace& tr, Report& r, bool q)
    : config(cfg), comm(c), timers(t), trace(tr), report(r), quiet(q), comm_options(read_comm_options(cfg)) {
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
}

int RunContext::threads() const { return host_threads(); }

void RunContext::write_outputs(const std::function<void()>& write) {
  try {
    write();
  } catch (const RuntimeError& e) {  // OutputFile::commit throws on every rank alike
    report.output_failed(e.what());
  }
}

std::ostream& RunContext::out() { return (rank == 0 && !quiet) ? std::cout : null_stream; }
std::ostream& RunContext::always() { return rank == 0 ? std::cout : null_stream; }

bool RunContext::stop_requested(long long* value) {
  // Once agreed, every rank knows it: no further communication is needed (and none is matched).
  if (!interrupted_) interrupted_ = stop_agreed(comm, value);
  return interrupted_;
}

void RunContext::check_stop() {
  if (stop_requested()) throw Interrupted();
}

bool RunContext::stop_pending() { return proxylab::stop_pending(); }

void RunContext::require_finite(double value, const std::string& what) {
  collective_check(comm, std::isfinite(value), what + " is not finite (" + std::to_string(value) + ")");
}

int run_app(int argc, char** argv, const AppSpec& spec) {
  install_stop_handlers();  // before MPI_Init: a signal during start-up ends the run as an interrupted one
  // Before MPI_Init, which crashes below this limit: every rank checks alone; the first rank of the launch says why.
  if (const std::string problem = address_space_problem(); !problem.empty()) {
    const char* rank = std::getenv("PMI_RANK") ? std::getenv("PMI_RANK") : std::getenv("OMPI_COMM_WORLD_RANK");
    if (!rank || std::string(rank) == "0")
      std::cerr << "proxylab " << spec.name << ": bad input: " << problem << std::endl;
    return exit_bad_input;
  }
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  // Another MPI's launcher (N jobs of one rank each) or a rank count not the one asked for: refused by every process.
  if (const int launch = check_launch(spec.name); launch != exit_ok) {
    MPI_Finalize();
    return launch;
  }
  MPI_Comm_dup(MPI_COMM_WORLD, &g_error_comm);
  // The user's (or the front end's) OMP_PROC_BIND / OMP_PLACES are left alone: binding is the launcher's
  // and the front end's business (python/proxylab_tools/launch.py).
  g_process_cpus = process_cpus();
  int code = exit_ok;
  const std::string kokkos_problem = kokkos_arguments_problem(argc, argv);
  if (!kokkos_problem.empty()) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) std::cerr << "proxylab " << spec.name << ": bad input: " << kokkos_problem << std::endl;
    code = exit_bad_input;
  } else {
    bool initialized = true;
    // argv, and the device proxylab chose for this rank as Kokkos' own flag (Kokkos removes its flags from it)
    std::vector<char*> args(argv, argv + argc);
    std::string device_flag;
    try {
      g_rank_device = rank_device(MPI_COMM_WORLD, argc, argv);
      device_flag = "--kokkos-device-id=" + std::to_string(g_rank_device.index);
      if (g_rank_device.pass_to_kokkos) args.push_back(device_flag.data());
      args.push_back(nullptr);
      argc = int(args.size()) - 1;
      argv = args.data();
      LaunchCounter::request_no_global_fences();
      Kokkos::initialize(argc, argv);  // Kokkos 3.x throws on a bad KOKKOS_* variable the check above missed
    } catch (const std::exception& e) {
      initialized = false;
      code = end_with_error(MPI_COMM_WORLD, exit_bad_input, spec.name, "bad input", e.what());
    }
    if (initialized) {
      code = run_body(argc, argv, spec, MPI_COMM_WORLD);
      Kokkos::finalize();
    }
  }
  MPI_Comm_free(&g_error_comm);
  MPI_Finalize();
  return code;
}

}  // namespace proxylab
