"""./proxylab: the command-line front end (standard library only).

    setup   install/find dependencies (idempotent; ci/setup-deps.sh)
    build   configure and build a CMake preset (default: openmp; on a fresh clone it runs setup first)
    run     run one proxy: ./proxylab run pop --deck inputs/pop/x1.yaml --ranks 4 --threads 1 --set solver.name=pcsi
    demo    every proxy at its small deck on 2 ranks, verified, one summary table
    test    set up, build and run the whole ctest suite
    jobscript  a Slurm or Flux batch script that runs the same experiment
    compare, sweep, gantt, perturbation, plot, roofline: the experiment harness (python/proxylab_tools/harness_*.py)

Launching (run, demo, compare, sweep, perturbation): --launcher mpiexec|srun|flux|none|TEMPLATE (or PROXYLAB_LAUNCHER),
--nodes, --ranks-per-node; ranks x threads beyond this machine's cores need --oversubscribe; ranks are bound to
their own cores otherwise (python/proxylab_tools/launch.py). Ctrl-C or SIGTERM stops a run cleanly (exit 130,
the record says 'interrupted').
"""
from __future__ import annotations

import argparse
import importlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from . import launch, output_files, run_files, runner, stats
from .job import STOP_SIGNALS
from .runner import ROOT
from .runs_csv import runs_csv
from .user_text import quote


def log(msg: str) -> None:
    print(f"[proxylab] {msg}", flush=True)


def sh(cmd: list[str], **kw) -> int:
    return subprocess.call(cmd, cwd=ROOT, **kw)


# ---- setup and build ------------------------------------------------------------------------------
def in_checkout(command):
    """setup, build and test work on a source checkout; an installed proxylab says so (exit 2) and what it offers."""
    def checked(args) -> int:
        if runner.installed_bin_dir():
            log(f"'{args.command}' belongs to a source checkout (git clone, then ./proxylab {args.command}); this "
                f"proxylab is installed (its binaries are in {runner.installed_bin_dir()}): run them with "
                "'proxylab run', check them with 'proxylab demo'")
            return 2
        return command(args)
    return checked


def cmd_setup(args) -> int:
    flags = []
    if getattr(args, "no_system", False) or (hasattr(os, "geteuid") and os.geteuid() != 0):
        flags.append("--no-system")
    return sh(["bash", str(ROOT / "ci" / "setup-deps.sh"), *flags])


def configured(preset: str) -> bool:
    return (runner.build_dir(preset) / "CMakeCache.txt").exists()


def needs_setup(preset: str) -> bool:
    """A first configure with neither a Kokkos of the user's (Kokkos_ROOT) nor the set-up's (.deps/kokkos): CMake
    would stop at its MPI or Kokkos search on a fresh clone, so `build` runs the set-up first, as demo and test do."""
    return not configured(preset) and not os.environ.get("Kokkos_ROOT") and not (ROOT / ".deps" / "kokkos").is_dir()


def cmd_build(args) -> int:
    preset = args.preset
    if needs_setup(preset):
        log("no Kokkos found (Kokkos_ROOT, .deps/kokkos): running the set-up first")
        rc = cmd_setup(args)
        if rc:
            return rc
    if not configured(preset) or args.reconfigure:
        log(f"configuring preset {quote(preset)}")
        extra = []
        kokkos_root = os.environ.get("Kokkos_ROOT")
        if kokkos_root:
            extra.append(f"-DKokkos_ROOT={kokkos_root}")
        rc = sh(["cmake", "--preset", preset, *extra])
        if rc:
            return rc
    jobs = str(args.jobs or os.cpu_count() or 2)
    log(f"building preset {quote(preset)} with {jobs} jobs")
    return sh(["cmake", "--build", str(runner.build_dir(preset)), "-j", jobs])


def ensure_built(args) -> int:
    if runner.installed_bin_dir():  # an installed proxylab: the binaries are there, nothing to set up or build
        return 0
    rc = cmd_setup(args)
    if rc:
        log("set-up failed")
        return rc
    return cmd_build(args)


# ---- run ------------------------------------------------------------------------------------------
def checked_launch(args, ranks: int, threads: int, here: bool = True) -> launch.Launch:
    """The launch of a command, checked before anything is built or started (LaunchError: bad input). here=False:
    a dry run, which prints the line without starting it (this machine's cores and launcher are not checked)."""
    plan = launch.Launch(ranks, threads, launch.options_from(args))
    plan.check(here)
    if here:
        plan.check_launcher_program()
    return plan


# The binaries' flags that print something and exit without a run (and without a record).
INFORMATIONAL_FLAGS = ("--help-deck", "--version", "--help", "-h")


def cmd_run(args) -> int:
    if not runner.is_app(args.app, args.preset):
        log(runner.unknown_app_message(args.app, args.preset))
        return 2
    plan = checked_launch(args, launch.ranks_for(args.ranks, launch.options_from(args)), args.threads,
                          here=not args.dry_run)
    for flag, path in (("--json", args.json), ("--trace", args.trace), ("--csv", args.csv)):
        if path is not None:  # given empty: "the path is empty" (exit 2), not "no output"
            output_files.require_writable(path, flag)
    if args.csv:
        run_files.require_distinct([run_files.RunFile("--deck", runner.resolve_deck(args.app, args.deck),
                                                      run_files.INPUT)] +
                                   [run_files.RunFile(f, p, run_files.OUTPUT)
                                    for f, p in (("--json", args.json), ("--trace", args.trace), ("--csv", args.csv))])
    if args.deck is not None and not args.deck:
        log("--deck '': the path is empty; allowed: a deck file, or a name under inputs/" + args.app)
        return 2
    if args.dry_run:
        print(runner.launch_line(args.app, plan, runner.resolve_deck(args.app, args.deck), args.set or [], args.json,
                                 runner.output_path(args.trace), args.quiet, args.extra, args.preset))
        return 0
    if not runner.binary(args.app, args.preset).exists():
        rc = ensure_built(args)
        if rc:
            return rc
    deck = runner.resolve_deck(args.app, args.deck)
    if not args.quiet:
        print(f"[proxylab] {plan.describe()}", file=sys.stderr, flush=True)
    res = runner.run_app(args.app, plan.ranks, plan.threads, deck, args.set or [], args.json,
                         runner.output_path(args.trace), args.quiet, args.extra, capture=False, preset=args.preset,
                         launch=plan.options)
    if res.record is None and res.launcher_returncode == 0 and set(INFORMATIONAL_FLAGS) & set(args.extra):
        return 0  # the binary printed what was asked and wrote no record, as it should
    if res.returncode == runner.EXIT_INTERRUPTED:
        log("interrupted: " + (f"the record says so ({args.json})" if res.record and args.json else
                               "the job stopped" if res.record else "no record was written"))
    failure = runner.job_failure(res)
    if failure:
        log(failure)
    if args.csv:
        append_csv_line(args.csv, res)
    return res.returncode


def append_csv_line(path: str, res: runner.RunResult) -> None:
    """run --csv: the run as one line of the harness's runs.csv columns, appended (the header first into a new or
    empty file); the file is rewritten whole and atomically."""
    try:
        old = Path(path).read_text()
    except FileNotFoundError:
        old = ""
    value, unit, _ = res.fom
    row = {"variant": "", "ranks": res.ranks, "threads": res.threads, "repeat": 0, "verified": res.verified,
           "returncode": res.returncode, "seconds": res.seconds, "fom": value, "fom_unit": unit}
    output_files.atomic_write(path, old + runs_csv(res.app, [row], header=not old.strip()))


# ---- demo -----------------------------------------------------------------------------------------
def format_table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    line = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()
    return "\n".join([line(header), line(["-" * w for w in widths]), *map(line, rows)])


def cmd_demo(args) -> int:
    if args.ranks * args.threads > launch.cores_available() and not args.oversubscribe and not args.ranks_given:
        log(f"{launch.cores_available()} core(s): the demo's {args.ranks} ranks run unbound (--oversubscribe)")
        args.oversubscribe = True
    checked_launch(args, args.ranks, args.threads)
    rc = ensure_built(args)
    if rc:
        return rc
    apps = [a for a in runner.built_apps(args.preset) if runner.default_deck(a)]
    proxies = [a for a in apps if a not in ("stream", "comm")]
    # Until the proxies exist the demo is the STREAM probe; with them, STREAM runs too (the ceiling).
    order = proxies + ["stream"] if "stream" in apps else proxies
    rows, failed = [], 0
    log(f"demo: {', '.join(order)} at their small decks on {args.ranks} MPI ranks x {args.threads} threads")
    for app in order:
        deck = runner.default_deck(app)
        res = runner.run_app(app, args.ranks, args.threads, deck, quiet=False, preset=args.preset, timeout=600,
                             launch=launch.options_from(args))
        if res.returncode == runner.EXIT_INTERRUPTED:
            log(f"{app}: interrupted")
            return runner.EXIT_INTERRUPTED
        value, unit, name = res.fom
        fom = f"{value:.4g} {unit}" if isinstance(value, (int, float)) else "-"
        status = "PASSED" if res.verified else f"FAILED (exit {res.returncode})"
        failed += not res.verified
        better = "" if fom == "-" else "higher" if stats.higher_is_better(unit) else "lower"
        rows.append([app, str(deck.relative_to(ROOT)), f"{args.ranks} x {args.threads}", fom, better, name, status,
                     f"{res.seconds:.1f} s"])
        log(f"{app}: {status} in {res.seconds:.1f} s")
        if not res.verified:
            sys.stdout.write(res.stdout[-3000:] + res.stderr[-2000:])
    print()
    print(format_table(rows, ["proxy", "deck", "ranks x threads", "FOM", "better", "figure of merit", "verification",
                              "time"]))
    print()
    print("Each proxy verified itself (see miniapps/<proxy>/README.md for what it checks).",
          "Run one yourself: ./proxylab run <proxy> --deck <deck> --ranks N --threads T")
    return 1 if failed else 0


# ---- test -----------------------------------------------------------------------------------------
def cmd_test(args) -> int:
    t0 = time.perf_counter()
    rc = ensure_built(args)
    if rc:
        return rc
    log(f"set-up and build took {time.perf_counter() - t0:.0f} s; running ctest")
    ctest = ["ctest", "--test-dir", str(runner.build_dir(args.preset)), "--output-on-failure", "-j",
             str(args.jobs or os.cpu_count() or 2)]
    if args.label:
        ctest += ["-L", args.label]
    if args.regex:
        ctest += ["-R", args.regex]
    return sh(ctest)  # ctest's summary is the last thing printed


# ---- argument parsing -----------------------------------------------------------------------------
HARNESS_MODULES = ["harness_compare", "harness_sweep", "harness_gantt", "harness_perturbation", "harness_plot",
                   "harness_roofline", "jobscript", "machine_measure", "model_command", "smpi"]


def version_text() -> str:
    """'proxylab 0.2.0 (git abc123...)' from the VERSION file (also in an installed prefix) and git, and the built
    binaries' own --version line."""
    try:
        version = (ROOT / "VERSION").read_text().strip() or "unknown"
    except OSError:
        version = "unknown"
    git = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True)
    hash_ = git.stdout.strip() if git.returncode == 0 else "unknown"
    lines = [f"proxylab {version} (git {hash_}{'+dirty' if dirty.returncode == 0 and dirty.stdout.strip() else ''})"]
    for app in runner.built_apps():
        p = subprocess.run([str(runner.binary(app)), "--version"], capture_output=True, text=True, cwd=ROOT,
                           env=launch.binding_env(dict(os.environ), 1, bound=False), timeout=60)
        lines.append(f"built: {p.stdout.strip()}" if p.returncode == 0 else f"built: proxylab-{app}: --version failed")
        break
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="proxylab", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="store_true", help="print the version and git hash (and the built binaries')")
    sub = p.add_subparsers(dest="command")

    def common(sp, jobs=True):
        sp.add_argument("--preset", default=runner.DEFAULT_PRESET, help="CMake preset (openmp, serial, debug, sanitize)")
        sp.add_argument("--no-system", action="store_true", help="install no system packages (cluster without root)")
        sp.add_argument("--reconfigure", action="store_true", help="re-run CMake configure")
        if jobs:
            sp.add_argument("-j", "--jobs", type=int, default=None, help="parallel build/test jobs (default: cores)")

    sp = sub.add_parser("setup", help="install or find dependencies (idempotent)")
    sp.add_argument("--no-system", action="store_true", help="install no system packages (cluster without root)")
    sp.set_defaults(func=in_checkout(cmd_setup))

    sp = sub.add_parser("build", help="configure and build")
    common(sp)
    sp.set_defaults(func=in_checkout(cmd_build))

    sp = sub.add_parser("run", help="run one proxy")
    common(sp)
    sp.add_argument("app", help=f"one of {', '.join(runner.APPS)}")
    sp.add_argument("--deck", help="YAML deck (default: the app's small deck)")
    sp.add_argument("--ranks", type=int, default=None, help="MPI ranks (default: --nodes x --ranks-per-node, else 1)")
    sp.add_argument("--threads", type=int, default=1, help="threads per rank (OMP_NUM_THREADS, default 1)")
    launch.add_arguments(sp)
    sp.add_argument("--set", action="append", metavar="KEY=VALUE", help="override a deck key (repeatable)")
    sp.add_argument("--json", help="write the JSON run record here ('-' or /dev/stdout: stdout carries the record "
                                   "alone, the run's lines go to stderr)")
    sp.add_argument("--trace", help="write a Chrome trace here (view with ./proxylab gantt)")
    sp.add_argument("--csv", help="append the run as one CSV line here (the header first into a new file; the "
                                  "columns of compare's runs.csv)")
    sp.add_argument("--quiet", action="store_true", help="print only the FOM and VERIFICATION lines")
    sp.add_argument("--dry-run", action="store_true",
                    help="print the launch line (the OMP_* / binding variables set, launcher, binary, arguments) and "
                         "exit without running or building")
    sp.epilog = ("Flags after a bare -- go to the binary: ./proxylab run pop -- --no-timers --help-deck; Kokkos' own "
                 "(--kokkos-tools-libs=LIB, --kokkos-tools-args=..., --kokkos-print-configuration) also before it")
    sp.set_defaults(func=cmd_run)

    sp = sub.add_parser("demo", help="every proxy at its small deck, verified, one summary table")
    common(sp)
    sp.add_argument("--ranks", type=int, default=None, help="MPI ranks (default 2)")
    sp.add_argument("--threads", type=int, default=1, help="threads per rank (default 1)")
    launch.add_arguments(sp)
    sp.set_defaults(func=cmd_demo)

    sp = sub.add_parser("test", help="set up, build and run the ctest suite")
    common(sp)
    sp.add_argument("-L", "--label", help="only tests with this ctest label (unit, mpi, regression)")
    sp.add_argument("-R", "--regex", help="only tests whose name matches")
    sp.set_defaults(func=in_checkout(cmd_test))

    for name in HARNESS_MODULES:
        importlib.import_module(f"proxylab_tools.{name}").register(sub)
    return p


# Commands whose binary's own flags may also come before the bare "--": Kokkos' (--kokkos-tools-libs=..., ...).
BINARY_FLAG_COMMANDS = ("run", "jobscript")


def kokkos_flags(words: list[str]) -> tuple[list[str], list[str]]:
    """(Kokkos' own flags, the rest) of the words the front end does not know: --kokkos-tools-libs=LIB,
    --kokkos-tools-args="...", --kokkos-print-configuration and the others go to the binary, which checks them."""
    kokkos = [w for w in words if w.startswith("--kokkos-")]
    return kokkos, [w for w in words if not w.startswith("--kokkos-")]


def _stop(sig, _frame):
    raise KeyboardInterrupt(signal.Signals(sig).name)


def take_signals() -> None:
    """From here on SIGINT, SIGTERM and SIGHUP end the command as Ctrl-C does (exit 130; a running job is stopped
    first, job.py). The `proxylab` wrapper starts Python with them blocked and notes one that came before: handlers
    first, then what was pending is delivered."""
    for sig in STOP_SIGNALS:
        signal.signal(sig, _stop)
    pending = os.environ.pop("PROXYLAB_PENDING_SIGNAL", "")
    if pending:
        raise KeyboardInterrupt(pending)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command_line = list(argv)
    # Everything after a bare "--" goes to the binary untouched (./proxylab run pop -- --no-timers).
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    kokkos, unknown = kokkos_flags(unknown) if args.command in BINARY_FLAG_COMMANDS else ([], unknown)
    if unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    extra = kokkos + extra
    if args.version:
        print(version_text())
        return 0
    if not args.command:
        parser.print_usage()
        return 2
    args.extra = extra
    args.command_line = command_line
    if args.command == "demo":
        args.ranks_given = args.ranks is not None
        args.ranks = 2 if args.ranks is None else args.ranks
    try:
        take_signals()
        return int(args.func(args) or 0)
    except (launch.LaunchError, output_files.OutputProblem) as e:
        log(str(e))
        return 2
    except output_files.OutputError as e:
        log(f"--json {e}")
        return 3
    except KeyboardInterrupt as e:
        # no record of this run exists: none of an earlier one may look like it
        if getattr(args, "json", None) and not output_files.problem(args.json):
            output_files.remove_stale_record(args.json)
        log(f"interrupted{f' ({e})' if str(e) else ''}")
        return 130


if __name__ == "__main__":
    sys.exit(main())
