"""./proxylab model: predicted time per step of a proxy at any rank count on a machine description.

    ./proxylab model pstswm --deck inputs/pstswm/T42L18-case2.yaml --machine xt4 --ranks 1,4,16,64,256,1024
    ./proxylab model pstswm --deck T42L18-case2 --machine xe6 --vary parallel.algorithm=transpose,distributed
    ./proxylab model fft3d --deck 64cube --machine xt4 --vary fft3d.transpose=alltoallv,node_aware --ranks 4,...,64

For each variant the proxy runs twice here, at --count-ranks (default 1 and 9 ranks, or 4; the second is oversubscribed
on a small machine, which changes its times but not its counts), each run capped at a few steps (COUNT_CAPS: pstswm
and evh1 20 time steps, pop 100 solver iterations, fft3d 4 iterations; a deck or --set asking for fewer keeps its
own): the counts per step its record reports (results.model_counts) are moved to each rank count and costed on the
machine (python/proxylab_tools/model.py, docs/model.md). Kernels the code counts only as work units (EVH1's sweeps) are calibrated from the 1-rank run's
measured time on --calibrated-on (default machines/<this host>.yaml), scaled by DGEMM speed to --machine.
Prints one table (seconds per step and its parts: compute, transpose, halo, reduction; speedup and efficiency
against the first rank count), the crossovers between variants, and writes model.json and model.png to --out.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
from pathlib import Path

from . import harness_common as hc
from . import machine_file, output_files, runner, stats
from . import model as mdl
from .cli import format_table
from .launch import cores_available
from .runner import ROOT

TOOL = "model"
DEFAULT_COUNT_RANKS = [1, 9]
FALLBACK_RANKS = 4
# app: (the deck key that ends its run after so many steps, the cap, what a step is, overrides that make the cap
# the run's length). The counts are per step and the same at every step of these loops (docs/model.md, "Counting
# runs"), so a few steps give the whole deck's counts; as docs/workshop/13 runs them.
COUNT_CAPS = {
    "pstswm": ("time.steps", 20, "time steps", []),
    "evh1": ("time.max_steps", 20, "time steps", []),
    "pop": ("solver.max_iters", 100, "solver iterations", ["solver.crit=0"]),  # exactly max_iters iterations
    "fft3d": ("fft3d.iterations", 4, "iterations", []),  # fft: forward + inverse pairs; ft: NAS FT iterations
}


def variants(vary: str | None) -> list[tuple[str, list[str]]]:
    """[(label, deck overrides)]: one per value of --vary KEY=A,B (or one, the deck as it is)."""
    if not vary:
        return [("deck", [])]
    key, sep, values = vary.partition("=")
    vals = [v.strip() for v in values.split(",") if v.strip()]
    if not sep or not key.strip() or not vals:
        raise mdl.ModelError(f"--vary '{vary}': expected KEY=A,B (e.g. parallel.algorithm=transpose,distributed)")
    return [(f"{key.strip()}={v}", [f"{key.strip()}={v}"]) for v in vals]


def deck_steps(deck: Path | None, key: str) -> int | None:
    """The deck's value of a section.key ('time.steps'), None where the deck has none (or there is no deck)."""
    if deck is None:
        return None
    import yaml  # PyYAML: machine_file needs it too, so the model has it
    try:
        value = yaml.safe_load(deck.read_text())
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None  # the binary reports the deck's problem
    for part in key.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value if isinstance(value, int) else None


def counting_cap(app: str, deck: Path | None, user_sets: list[str]) -> tuple[list[str], str]:
    """(overrides that cap the counting runs, the line that says so): the cap's key set to the cap unless the user's
    --set or the deck already asks for no more steps (0 = no limit); the user's --set of a key wins (it comes later)."""
    if app not in COUNT_CAPS:
        return [], "counting runs over the whole deck"
    key, cap, steps, extra = COUNT_CAPS[app]
    given = [s.partition("=")[2] for s in user_sets if s.partition("=")[0].strip() == key]
    if given:
        return extra, f"counting runs at {key}={given[-1]} (--set)"
    n = deck_steps(deck, key)
    if n is not None and 0 < n <= cap:
        return extra, f"counting runs over the deck's {n} {steps} ({key}; the cap is {cap})"
    return [f"{key}={cap}", *extra], f"counting runs capped at {cap} {steps} ({key}={cap})"


class CountingTimeout(RuntimeError):
    """A counting run ran past --timeout (the model exits 124)."""


def run_counting(args, p: int, sets: list[str], what: str) -> runner.RunResult:
    """One counting run; its progress line (which run, ranks, elapsed) unless --quiet."""
    deck = runner.resolve_deck(args.app, args.deck)
    cap, _ = counting_cap(args.app, deck, args.set)
    r = runner.run_app(args.app, p, 1, deck, [*cap, *args.set, *sets], quiet=True, preset=args.preset,
                       timeout=args.timeout)
    if not args.quiet:
        over = " (oversubscribed: its counts are used, not its times)" if p > cores_available() else ""
        hc.log(TOOL, f"{what} at {p} rank{'s' if p > 1 else ''}{over}: {r.seconds:.1f} s")
    return r


def measure_counts(args, sets: list[str], what: str) -> tuple[dict, dict, dict]:
    """(record at the smaller count, its model_counts, model_counts at the larger count) of one variant. Without
    --count-ranks: 1 and 9 ranks (a 3 x 3 grid has an interior rank with all its halo neighbours), or 1 and 4 when
    the proxy cannot decompose the deck over 9."""
    counts = args.count_ranks or DEFAULT_COUNT_RANKS
    records = []
    for p in counts:
        r = run_counting(args, p, sets, what)
        if r.returncode == 2 and not args.count_ranks and p == counts[-1]:
            hc.log(TOOL, f"the deck does not decompose over {p} ranks: counting at {FALLBACK_RANKS} instead")
            r = run_counting(args, FALLBACK_RANKS, sets, what)
        if r.returncode == 2:
            raise mdl.ModelError(f"bad input (exit 2): {' '.join(r.command)}\n{r.stdout[-1500:]}{r.stderr[-1500:]}")
        if r.returncode == runner.EXIT_TIMEOUT:
            raise CountingTimeout(f"the {p}-rank counting run was stopped after --timeout {args.timeout:g} s (exit "
                                  f"124): {' '.join(r.command)}")
        if not r.verified or not r.record:
            raise RuntimeError(f"the {p}-rank run failed (exit {r.returncode}): {' '.join(r.command)}\n"
                               f"{r.stdout[-1500:]}{r.stderr[-1500:]}")
        records.append(r.record)
    lo, hi = records[0], records[-1]
    return lo, mdl.counts_of(lo, f"{args.app} at {counts[0]} rank(s)"), mdl.counts_of(hi, f"{args.app} at more ranks")


def model_curves(lo_record: dict, lo: dict, hi: dict, machine: dict, calibration: dict, ranks: list[int],
                 kernels: str = "bound") -> list:
    """Predicted points (dicts of model.predict plus speedup and efficiency vs the first rank count); kernels:
    "bound" (each kernel at its machine bound) or "calibrated" (at the fraction of it measured here)."""
    has_calibrated = any(k["rate"] == "calibrated" for k in lo["kernels"])
    costs = mdl.unit_costs(lo_record, calibration, machine) if has_calibrated else {}
    launch = mdl.launch_cost(calibration, machine)
    slow = mdl.kernel_slowdowns(lo_record, calibration) if kernels == "calibrated" else None
    pts = [mdl.predict(mdl.counts_at(lo, hi, p), machine, costs, launch, slow) for p in ranks]
    t0, p0 = pts[0]["total"], pts[0]["ranks"]
    for q in pts:
        q["speedup"] = stats.speedup(t0, q["total"])
        q["efficiency"] = stats.parallel_efficiency("strong", p0, t0, q["ranks"], q["total"])
    return pts


def format_model(curves: dict) -> str:
    rows = []
    for label, pts in curves.items():
        for q in pts:
            ranks = f"{q['ranks']}{'*' if q.get('beyond_decomposition') else ''}"
            rows.append([label, ranks, str(q["nodes"]), *(stats.fmt(q[k]) for k in (*mdl.PARTS, "total")),
                         stats.fmt_ratio(q["speedup"]), f"{100 * q['efficiency']:.1f}"])
    return format_table(rows, ["variant", "ranks", "nodes", "compute [s]", "transpose [s]", "halo [s]",
                               "reduction [s]", "total [s]", "speedup", "efficiency %"])


def default_calibration() -> str:
    return str(machine_file.MACHINES_DIR / f"{machine_file.safe_name(hc.machine()['host'])}.yaml")


def register(subparsers) -> None:
    sp = subparsers.add_parser("model", help="predicted time per step at any rank count on a machine description",
                               description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sp.add_argument("app", help=f"proxy ({', '.join(a for a in runner.APPS if a not in ('stream', 'comm'))})")
    sp.add_argument("--deck", help="YAML deck (default: the app's small deck)")
    sp.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="deck override (repeatable)")
    sp.add_argument("--machine", required=True, help=f"machine description: a name in machines/ or a YAML path")
    sp.add_argument("--ranks", type=hc.count_list, default=hc.count_list("1,...,4096"),
                    metavar="N[,N...]", help="rank counts to predict, e.g. 4,...,64 (doublings) or 6,12,24 (default "
                                             "1,2,4,...,4096)")
    sp.add_argument("--ranks-per-node", type=int, default=None,
                    help="under-populate the nodes: this many ranks per node (default: cores_per_node)")
    sp.add_argument("--vary", help="KEY=A,B: one curve per value (e.g. parallel.algorithm=transpose,distributed)")
    sp.add_argument("--count-ranks", type=hc.count_list, default=None, metavar="P1,P2",
                    help="the two rank counts run here for the counts (default 1,9, or 1,4 where 9 cannot decompose "
                         "the deck; the first calibrates)")
    sp.add_argument("--kernels", choices=("bound", "calibrated"), default="bound",
                    help="bound: every kernel at its machine bound (flops / rate, bytes / bandwidth); calibrated: at "
                         "the fraction of its bound it reached in the 1-rank counting run here (needs this machine's "
                         "description, --calibrated-on)")
    sp.add_argument("--calibrated-on", default=None,
                    help="machine description of this machine, for calibrated kernels (default machines/<host>.yaml)")
    sp.add_argument("--out", help="folder for model.json and model.png (default results/model-<app>-<time> in the "
                                      "current folder)")
    sp.add_argument("--no-plot", action="store_true", help="write no PNG")
    sp.add_argument("--quiet", action="store_true", help="no progress lines (the table is printed)")
    sp.add_argument("--timeout", type=hc.positive_seconds, default=600,
                    help="seconds after which one counting run is stopped (then exit 124; default 600)")
    sp.add_argument("--preset", default=runner.DEFAULT_PRESET, help="build preset whose binaries run")
    sp.set_defaults(func=main)


MAX_MODEL_RANKS = 1 << 26  # rank counts a prediction may be asked for


def main(args) -> int:
    try:
        machine = machine_file.load(args.machine)
        if args.ranks_per_node is not None:
            cores = machine["cores_per_node"]
            if not 1 <= args.ranks_per_node <= machine["cores_per_node"]:
                raise mdl.ModelError(f"--ranks-per-node {args.ranks_per_node}: expected 1..{machine['cores_per_node']} "
                                     f"(the cores per node of {machine['name']})")
            # fewer ranks share a node's memory bandwidth and NIC: the node-level rates stay, the count drops
            machine = dict(machine, cores_per_node=args.ranks_per_node,
                           name=f"{machine['name']} ({args.ranks_per_node} ranks per node)")
            if "cache_per_core_mb" in machine:  # the node's cache, shared by fewer ranks
                machine["cache_per_core_mb"] *= cores / args.ranks_per_node
        too_many = [p for p in args.ranks if p > MAX_MODEL_RANKS]
        if too_many:
            raise mdl.ModelError(f"--ranks {too_many[0]}: at most {MAX_MODEL_RANKS} (2^26, more cores than any machine "
                                 "built); predictions beyond a deck's own decomposition limit are marked *")
        vs = variants(args.vary)
        if args.count_ranks and (len(args.count_ranks) != 2 or args.count_ranks[0] >= args.count_ranks[1]):
            raise mdl.ModelError(f"--count-ranks {args.count_ranks}: give two increasing rank counts, e.g. 1,4")
    except (machine_file.MachineError, mdl.ModelError) as e:
        hc.log(TOOL, str(e))
        return 2
    if args.app in ("stream", "comm"):
        hc.log(TOOL, f"{args.app} is a probe: it measures the machine (./proxylab machine), there is nothing to model")
        return 2
    if not runner.is_app(args.app, args.preset) or not runner.binary(args.app, args.preset).exists():
        hc.log(TOOL, runner.unknown_app_message(args.app, args.preset) if not runner.is_app(args.app, args.preset)
               else f"{runner.binary(args.app, args.preset)} is not built: ./proxylab build first")
        return 2
    deck = runner.resolve_deck(args.app, args.deck)
    if runner.missing_deck(args.app, args.deck):
        hc.log(TOOL, runner.missing_deck(args.app, args.deck))
        return 2
    out = hc.out_dir(TOOL, args, ("model.json", "model.png"))
    curves, counts = {}, {}
    if not args.quiet:
        counting = " and ".join(map(str, args.count_ranks or DEFAULT_COUNT_RANKS))
        hc.log(TOOL, f"{counting_cap(args.app, deck, args.set)[1]}, at {counting} ranks, per variant")
    try:
        calibration = None
        for i, (label, sets) in enumerate(vs):
            lo_record, lo, hi = measure_counts(args, sets, f"counting {label} ({i + 1}/{len(vs)})")
            # needed for calibrated kernels; otherwise used where it exists (the launch cost, model.launch_cost)
            if calibration is None and (any(k["rate"] == "calibrated" for k in lo["kernels"]) or args.calibrated_on
                                        or args.kernels == "calibrated" or Path(default_calibration()).exists()):
                calibration = machine_file.load(args.calibrated_on or default_calibration())
            curves[label] = model_curves(lo_record, lo, hi, machine, calibration, args.ranks, args.kernels)
            counts[label] = {"low": lo, "high": hi}
    except (machine_file.MachineError, mdl.ModelError) as e:
        hc.log(TOOL, str(e))
        return 2
    except CountingTimeout as e:
        hc.log(TOOL, str(e))
        return runner.EXIT_TIMEOUT
    except RuntimeError as e:
        hc.log(TOOL, str(e))
        return 3
    cross = mdl.crossovers(curves)
    print(f"\n{args.app} ({hc.deck_label(args)}{' ' + ' '.join(args.set) if args.set else ''}) on {machine['name']}: "
          f"{machine['description']}; seconds per {next(iter(counts.values()))['high']['step']}"
          f"{'; kernels at the fraction of their bound measured here' if args.kernels == 'calibrated' else ''}")
    print(format_model(curves))
    for c in cross:
        print(f"crossover: from {c['ranks']} ranks {c['to']} is faster than {c['from']}")
    limits = sorted({q["beyond_decomposition"] for pts in curves.values() for q in pts if "beyond_decomposition" in q})
    if limits:
        print(f"* beyond the deck's decomposition: the proxy refuses more than {' / '.join(map(str, limits))} ranks "
              f"(model_counts.max_ranks); the model predicts the counts' trend there, not a run that exists")
    doc = {"tool": TOOL, "command": hc.command_line(), "app": args.app, "deck": str(deck or ""),
           "sets": args.set, "machine": machine, "calibrated_on": calibration, "kernels": args.kernels, "curves": curves,
           "crossovers": cross, "counts": counts}
    output_files.atomic_write(out / "model.json", json.dumps(hc.strict_json(doc), indent=1) + "\n")
    hc.log(TOOL, f"results: {out / 'model.json'}")
    if not args.no_plot:
        hc.log(TOOL, draw(out / "model.json", out / "model.png")[1])
    return 0


def draw(source, png) -> tuple[bool, str]:
    """model_plot in a Python with matplotlib (plots.plot_python)."""
    from . import plots
    py = plots.plot_python()
    if py is None:
        return False, f"no PNG: matplotlib not found ({runner.install_hint('matplotlib')})"
    env = dict(os.environ, MPLBACKEND="Agg")
    env["PYTHONPATH"] = str(ROOT / "python") + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    p = subprocess.run([py, "-m", "proxylab_tools.model_plot", str(source), str(png)], env=env, capture_output=True,
                       text=True)
    if p.returncode != 0 or not os.path.exists(png):
        return False, f"no PNG: the plot failed:\n{p.stderr[-2000:]}"
    return True, f"chart: {png}"
