"""What compare, sweep and perturbation share: common options, the machine description, the run loop
(progress line, Ctrl-C keeps what was gathered, bad input stops at once), the results file and the plot.

Standard library only; plots are drawn by proxylab_tools.plots in a subprocess (see plots.run_plot).
"""
from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import shlex
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import launch, output_files, run_files, runner
from .runs_csv import runs_csv
from .host import cpu_model, machine, machine_line  # noqa: F401  (the harness commands use hc.machine)

EXIT_BAD_INPUT = 2  # the binaries' exit code for a bad deck or option (every run would fail alike)


def log(tool: str, msg: str) -> None:
    print(f"[{tool}] {msg}", flush=True)


# ---- options ----------------------------------------------------------------------------------------
COUNT_LIST_FORM = ("positive integers separated by commas, each once, '...' between two of them for the doublings "
                   "from the first to the second (1,2,4,...,64 is 1,2,4,8,16,32,64)")


def count_list(text: str) -> list[int]:
    """'1,2,4' -> [1, 2, 4]; '4,...,64' -> [4, 8, 16, 32, 64] (argparse type of every list of rank or thread
    counts, so argparse names the flag). Refused: an empty item, anything but a positive integer, '...' at either
    end or next to another, an end of '...' that is not the start times a power of two, a count given twice."""
    items = [t.strip() for t in text.split(",")]
    def refuse(why: str):
        return argparse.ArgumentTypeError(f"'{text}': {why}; allowed: {COUNT_LIST_FORM}")
    values: list[int] = []
    for i, item in enumerate(items):
        if item == "...":
            if i == 0 or i == len(items) - 1 or "..." in (items[i - 1], items[i + 1]):
                raise refuse("'...' needs a count on each side")
            continue
        if not item:
            raise refuse(f"item {i + 1} is empty")
        if not item.isdigit() or not item.isascii() or int(item) < 1:
            raise refuse(f"item {i + 1} '{item}' is not a positive integer")
        value = int(item)
        if i > 0 and items[i - 1] == "...":
            start = values[-1]
            if value <= start:
                raise refuse(f"'{start},...,{value}': the count after '...' must be above the one before it")
            if value % start or (value // start) & (value // start - 1):
                raise refuse(f"'{start},...,{value}': {value} is not {start} times a power of two")
            while values[-1] * 2 < value:
                values.append(values[-1] * 2)
        values.append(value)
    repeated = sorted({v for v in values if values.count(v) > 1})
    if repeated:
        raise refuse(f"{repeated[0]} is given twice")
    return values


def positive_seconds(text: str) -> float:
    """'900' -> 900.0 (argparse type of --timeout): a finite number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"'{text}': allowed: a finite number of seconds above 0, e.g. 900")
    return value


def add_common_arguments(sp, repeat: int, ranks_default: str = "1") -> None:
    """Options every measuring command takes."""
    sp.add_argument("app", help=f"proxy to run ({', '.join(runner.APPS)})")
    sp.add_argument("--deck", help="YAML deck: a file, or a name in inputs/APP such as small (default: inputs/APP/"
                                   "demo.yaml or small.yaml, else built-in defaults)")
    sp.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="deck override applied to every run (repeatable)")
    sp.add_argument("--ranks", type=count_list, default=count_list(ranks_default), metavar="N[,N...]",
                    help=f"MPI rank counts, e.g. 1,2,4 or 1,...,16 (doublings; default {ranks_default})")
    sp.add_argument("--threads", type=count_list, default=[1], metavar="T[,T...]",
                    help="threads per rank, OMP_NUM_THREADS (default 1)")
    sp.add_argument("--repeat", type=int, default=repeat,
                    help=f"runs of each variant (default {repeat}); median, min, max")
    sp.add_argument("--out", help="folder for the records (JSON) and the chart (PNG) "
                                  "(default results/<command>-<app>-<time> in the current folder)")
    sp.add_argument("--timeout", type=positive_seconds, default=900,
                    help="seconds after which one run is stopped; it counts as failed, exit 124 (default 900)")
    sp.add_argument("--quiet", action="store_true", help="no progress line")
    sp.add_argument("--no-plot", action="store_true", help="write no PNG")
    sp.add_argument("--preset", default=runner.DEFAULT_PRESET,
                    help="build preset whose binaries run (default openmp; PROXYLAB_BUILD_DIR overrides the folder)")
    launch.add_arguments(sp)


def resolve_deck(args) -> Path | None:
    """The deck of the command's runs (runner.resolve_deck: a path, or a name such as --deck small)."""
    return runner.resolve_deck(args.app, args.deck)


def check_runnable(args) -> str | None:
    """A message when the app cannot be run (unknown app, bad launch, no binary, no deck), else None. A missing binary
    of the default build folder is built first (set-up and build as ./proxylab run does), so one command suffices."""
    if args.repeat < 1:
        return "--repeat must be at least 1"
    if not runner.is_app(args.app, args.preset):
        return runner.unknown_app_message(args.app, args.preset)
    options = launch.options_from(args)
    for ranks in getattr(args, "ranks", [1]):
        for threads in getattr(args, "threads", [1]):
            try:
                launch.Launch(ranks, threads, options).check()
            except launch.LaunchError as e:
                return str(e)
    if args.app in runner.APPS and not runner.binary(args.app, args.preset).exists() \
            and not os.environ.get("PROXYLAB_BUILD_DIR"):
        from .cli import ensure_built
        log("proxylab", f"{runner.binary(args.app, args.preset)} not found: setting up and building preset "
                        f"'{args.preset}' first")
        if ensure_built(argparse.Namespace(preset=args.preset, no_system=False, reconfigure=False, jobs=None)):
            return "the build failed (see above)"
    if not runner.binary(args.app, args.preset).exists():
        built = ", ".join(runner.built_apps(args.preset)) or "none"
        return (f"{runner.binary(args.app, args.preset)} is not built (built apps: {built}); "
                f"run ./proxylab build --preset {args.preset}")
    return runner.missing_deck(args.app, args.deck) or None


def deck_label(args) -> str:
    """The deck's file name, or 'built-in defaults' when the app runs without one."""
    deck = resolve_deck(args)
    return deck.name if deck else "built-in defaults"


def out_dir(tool: str, args, files: tuple[str, ...] = ("records.json",)) -> Path:
    """The results folder (--out, else results/TOOL-APP-TIME in the current folder: where the user works, never the
    source tree or an install prefix), made now, and the files that will be written there checked now (before
    minutes of runs), also against the deck the runs read (run_files.py): output_files.OutputProblem (bad input) when
    they cannot be."""
    if args.out:
        d = Path(args.out)
    else:
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        d = Path("results") / f"{tool}-{args.app}-{stamp}"
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise output_files.OutputProblem(f"--out '{d}': cannot create the folder: {e.strerror} (errno {e.errno})")
    for name in files:
        output_files.require_writable(d / name, "--out:")
    run_files.require_distinct([run_files.RunFile("--deck", resolve_deck(args), run_files.INPUT)] +
                               [run_files.RunFile("--out:", d / name, run_files.OUTPUT) for name in files])
    return d


# ---- machine and command ----------------------------------------------------------------------------
def command_line() -> str:
    """The command as the user typed it (./proxylab ...)."""
    return "./proxylab " + shlex.join(sys.argv[1:])


# ---- the run loop -----------------------------------------------------------------------------------
@dataclass
class Planned:
    """One run to do: a variant (label + deck overrides + extra flags) at a rank and thread count."""
    variant: str
    sets: list[str]
    ranks: int
    threads: int
    repeat: int
    extra: list[str] = field(default_factory=list)
    tags: dict = field(default_factory=dict)
    # (where the run writes an output, where it is kept): renamed into place when the run verified, else removed, so
    # a run cut short (Ctrl-C, --timeout) or failed leaves no partial output that looks like a finished run's
    outputs: list[tuple[Path, Path]] = field(default_factory=list)


def settle_outputs(p: Planned, verified: bool) -> None:
    """The outputs of a finished (or stopped) run: kept when it verified, removed otherwise."""
    for written, kept in p.outputs:
        if verified and written.exists():
            os.replace(written, kept)
        else:
            output_files.remove_stale(written)


def failure_text(res: runner.RunResult) -> str:
    """Why a run did not verify: the failed checks from its record, else the end of its output."""
    rec = res.record or {}
    failed = [c for c in rec.get("verification", {}).get("checks", []) if not c.get("passed")]
    if failed:
        return "; ".join(f"check '{c.get('name')}' failed: value {c.get('value')} limit {c.get('limit')}"
                         for c in failed)
    if rec.get("status") == "interrupted":
        return "interrupted"
    tail = (res.stdout + res.stderr).strip().splitlines()[-6:]
    return f"exit {res.returncode}: " + " | ".join(tail)


class ProgressLine:
    """'[compare] 3/8 runs, 5 left, elapsed 12 s, about 20 s left: next ...' on stderr."""

    def __init__(self, tool: str, total: int, quiet: bool):
        self.tool, self.total, self.quiet = tool, total, quiet
        self.t0 = time.perf_counter()
        self.tty = sys.stderr.isatty()

    def show(self, done: int, next_label: str = "") -> None:
        if self.quiet:
            return
        elapsed = time.perf_counter() - self.t0
        left = self.total - done
        eta = f", about {elapsed / done * left:.0f} s left" if done and left else ""
        text = f"[{self.tool}] {done}/{self.total} runs, {left} left, elapsed {elapsed:.0f} s{eta}"
        if next_label and left:
            text += f"; running {next_label}"
        if self.tty:
            sys.stderr.write("\r\033[K" + text + ("\n" if not left else ""))
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()

    def end(self) -> None:
        if self.tty and not self.quiet:
            sys.stderr.write("\n")
            sys.stderr.flush()


# A load average above this share of the cores before the runs: other work shares the machine with them.
BUSY_LOAD_SHARE = 0.5


def busy_note(load: float, cores: int) -> str:
    """'' or the warning that the machine is busy before the runs start (their times then carry its noise)."""
    if load <= BUSY_LOAD_SHARE * cores:
        return ""
    return (f"note: the machine is busy before the runs (load average {load:.1f} on {cores} cores): their times "
            "will be noisy; the verdicts cancel drift between back-to-back pairs, not noise within a pair")


def run_plan(tool: str, args, plan: list[Planned]) -> tuple[list[dict], str]:
    """Runs the plan in order. Returns (one entry per finished run, status) with status 'completed',
    'interrupted' (Ctrl-C: the runs so far are kept) or 'bad input' (a run exited 2: the rest would too).
    A run stopped by --timeout is a failed run (returncode 124): the plan goes on."""
    note = busy_note(os.getloadavg()[0], launch.cores_available())
    if note:
        log(tool, note)
    deck = resolve_deck(args)
    progress = ProgressLine(tool, len(plan), args.quiet)
    runs: list[dict] = []
    status = "completed"
    try:
        for i, p in enumerate(plan):
            progress.show(i, f"{p.variant} at {p.ranks}x{p.threads}")
            res = None
            try:
                res = runner.run_app(args.app, p.ranks, p.threads, deck, [*args.set, *p.sets], extra=p.extra,
                                     preset=args.preset, timeout=args.timeout, launch=launch.options_from(args))
            finally:
                settle_outputs(p, res is not None and res.verified)
            value, unit, name = res.fom
            failure = (f"timed out: stopped after --timeout {args.timeout:g} s" if res.returncode == runner.EXIT_TIMEOUT
                       else "" if res.verified else failure_text(res))
            runs.append({"variant": p.variant, "sets": p.sets, "extra": p.extra, "ranks": p.ranks, "threads": p.threads,
                         "repeat": p.repeat, **p.tags, "returncode": res.returncode, "seconds": res.seconds,
                         "verified": res.verified, "fom": value, "fom_unit": unit, "fom_name": name,
                         "failure": failure, "command": shlex.join(res.command), "record": res.record})
            if res.returncode == EXIT_BAD_INPUT:
                progress.end()
                log(tool, f"{p.variant}: bad input, stopping (every run would fail alike):")
                sys.stdout.write((res.stdout + res.stderr)[-2000:] + "\n")
                return runs, "bad input"
            if res.returncode == runner.EXIT_INTERRUPTED:
                runs.pop()  # a run cut short is no measurement
                raise KeyboardInterrupt
        progress.show(len(plan))
    except KeyboardInterrupt:
        progress.end()
        status = "interrupted"
        log(tool, f"interrupted after {len(runs)} of {len(plan)} runs; keeping the records gathered so far")
    return runs, status


def timed_out(run: dict) -> bool:
    return run["returncode"] == runner.EXIT_TIMEOUT


def verification_lines(runs: list[dict]) -> tuple[list[str], int, int]:
    """One line per run that did not verify, the count of those that failed and of those stopped by --timeout."""
    bad = [r for r in runs if not r["verified"]]
    lines = [f"  FAILED: {r['variant']} at {r['ranks']}x{r['threads']} (repeat {r['repeat']}): {r['failure']}"
             for r in bad]
    late = sum(timed_out(r) for r in bad)
    return lines, len(bad) - late, late


def write_results(path: Path, tool: str, args, runs: list[dict], status: str, summary: dict) -> dict:
    """records.json (the command, the machine, the summary, every run with its record) and runs.csv beside it."""
    doc = {"tool": tool, "command": command_line(), "machine": machine(), "app": args.app,
           "deck": str(resolve_deck(args) or ""), "sets": args.set, "status": status,
           "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
           "summary": summary, "runs": runs}
    output_files.atomic_write(path, json.dumps(strict_json(doc), indent=1, allow_nan=False) + "\n")
    output_files.atomic_write(Path(path).with_name("runs.csv"), runs_csv(args.app, runs))
    return doc


def run_variants(tool: str, args, plan: list[Planned], labels: list[str], summarize, path: Path):
    """run_plan for a tool that compares variants (compare, perturbation), then write_results with their labels, the
    repeats, the FOM's name (the first run's that has one) and summarize(runs), the per-configuration summary.
    Returns (runs, status, summary, FOM name)."""
    runs, status = run_plan(tool, args, plan)
    summary = summarize(runs)
    fom_name = next((r["fom_name"] for r in runs if r["fom_name"]), "")
    write_results(path, tool, args, runs, status,
                  {"labels": labels, "repeat": args.repeat, "fom_name": fom_name, "configs": summary})
    return runs, status, summary, fom_name


def strict_json(x):
    """NaN (a missing ratio) and infinities as JSON null, so the file is strict JSON."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: strict_json(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [strict_json(v) for v in x]
    return x


def finish_plot(tool: str, args, results_json: Path, png: Path) -> bool:
    """Draws the PNG of a results file (prints where it is, or why there is none)."""
    if args.no_plot:
        return False
    from . import plots
    ok, msg = plots.run_plot(tool, results_json, png)
    log(tool, msg)
    return ok


def stop_after_bad_input(tool: str, results: Path, runs: list[dict]) -> int:
    """The end of a command whose run was refused as bad input (a typo in --vary or --set, a size the deck cannot
    take): the binary's message, printed by run_plan, says why; this says which run it was and how many finished
    before it (kept in the records, not summarized: the plan is incomplete)."""
    refused = next((r for r in reversed(runs) if r["returncode"] == 2), None)
    which = (f" at {refused['variant']}, {refused['ranks']} x {refused['threads']}" if refused else "")
    done = sum(1 for r in runs if r["returncode"] != 2)
    log(tool, f"stopped on bad input (exit 2){which}, after {done} finished run(s) (no summary); records: {results}")
    return exit_code("bad input", 0)


def finish(tool: str, args, runs: list[dict], status: str, results: Path, png: Path) -> int:
    """The common end of compare, sweep and perturbation: failed runs, where the files are, the chart, the exit code."""
    lines, failed, late = verification_lines(runs)
    if lines:
        heads = [f"VERIFICATION FAILED in {failed} of {len(runs)} run(s)"] if failed else []
        heads += [f"TIMED OUT: {late} of {len(runs)} run(s) stopped after --timeout {args.timeout:g} s"] if late else []
        print(f"\n{'; '.join(heads)} (excluded from the statistics):")
        print("\n".join(lines))
    log(tool, f"records: {results}")
    finish_plot(tool, args, results, png)
    return exit_code(status, failed, late)


def exit_code(status: str, failed: int, late: int = 0) -> int:
    """130 after Ctrl-C, 2 after bad input, 1 when a run failed verification, 124 when one ran past --timeout (and
    none failed), else 0."""
    return {"interrupted": 130, "bad input": 2}.get(status, 1 if failed else runner.EXIT_TIMEOUT if late else 0)
