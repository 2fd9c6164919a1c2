"""PNG charts of the harness (matplotlib, Agg backend), run in a subprocess by the standard-library core:

    .deps/venv/bin/python -m proxylab_tools.plots KIND INPUT PNG [--command CMD]

KIND compare | sweep | perturbation: INPUT is the results JSON the command wrote; gantt: INPUT is the trace;
comm: INPUT is the JSON record of a proxylab-comm run (--json); roofline: the roofline.json of ./proxylab roofline.
Every chart has axis labels with units and a title naming the machine (host, cores) and the command.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VENV_PYTHON = ROOT / ".deps" / "venv" / "bin" / "python"
COLOURS = {"compute": "#2ca02c", "communication": "#d62728", "io": "#1f77b4", "other": "#9467bd", "idle": "#e8e8e8"}
# colours of the regions in gantt --color-by region: none of them is a category's, so the timeline's legend and the
# utilization legend beside it never show one colour for two things (matplotlib's tab20b and tab10 leftovers)
REGION_COLOURS = ["#ff7f0e", "#17becf", "#8c564b", "#bcbd22", "#e377c2", "#393b79", "#637939", "#8c6d31", "#843c39",
                  "#7b4173"]


# ---- launching (standard library) -------------------------------------------------------------------
def plot_python() -> str | None:
    """A Python with matplotlib: this one if it has it, else the pinned venv made by ./proxylab setup."""
    if importlib.util.find_spec("matplotlib") is not None:
        return sys.executable
    return str(VENV_PYTHON) if VENV_PYTHON.exists() else None


def run_plot(kind: str, source: str | Path, png: str | Path, command: str | None = None,
             extra: list[str] = ()) -> tuple[bool, str]:
    """Draws one chart in a subprocess. Returns (ok, message for the user)."""
    from .runner import install_hint
    py = plot_python()
    if py is None:
        return False, f"no PNG: matplotlib not found ({install_hint('matplotlib')})"
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "python") + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["MPLBACKEND"] = "Agg"
    cmd = [py, "-m", "proxylab_tools.plots", kind, str(source), str(png)]
    if command:
        cmd += ["--command", command]
    cmd += list(extra)
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode != 0 or not Path(png).exists():
        return False, f"no PNG: the plot failed ({' '.join(cmd)}):\n{p.stderr[-2000:]}"
    return True, f"chart: {png}"


# ---- drawing (matplotlib; imported only here) --------------------------------------------------------
def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def count(n, noun: str) -> str:
    """'1 rank', '2 ranks', '? ranks' (an unknown count)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def title_text(what: str, machine: dict, command: str) -> str:
    host = f"{machine.get('host', '?')}, {count(machine.get('cores', '?'), 'core')}"
    if machine.get("cpu"):
        host += f" ({machine['cpu']})"
    return "\n".join([what, host, *textwrap.wrap(command, 150, break_on_hyphens=False)[:3]])


def label_log_axes(fig) -> None:
    """Every decimal log axis labels ticks between the powers of ten when it spans under 2.5 decades (a time
    axis from 3 to 30 ms showed the one label "10^1"): 2, 4 and 6 of each decade, and every tick under one decade."""
    from matplotlib.ticker import LogFormatterSciNotation
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if axis.get_scale() == "log" and getattr(axis.get_transform(), "base", None) == 10:
                axis.set_minor_formatter(LogFormatterSciNotation(labelOnlyBase=False, minor_thresholds=(2.5, 1)))


def save(fig, png: str | Path) -> None:
    """Into memory first, then atomically to the path (no truncated PNG after a failure). A 32-colour palette PNG:
    the charts draw a dozen colours and their anti-aliased edges, so it looks the same at under a third of
    matplotlib's RGBA file (the workshop
    keeps its figures in the repository). Pillow comes with matplotlib."""
    import io
    from PIL import Image
    from .output_files import atomic_write
    label_log_axes(fig)
    buf, small = io.BytesIO(), io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    # method 0: median cut, dither 0: none (Pillow's Quantize and Dither enums hold these values since 9.1)
    Image.open(buf).convert("RGB").quantize(32, method=0, dither=0).save(small, format="png", optimize=True)
    atomic_write(png, small.getvalue())


def legend_outside(ax, *args, **kw):
    """Every chart's legend: to the right of its axes, outside them (constrained layout makes room). Inside, a legend
    sat in a bar's column, over its whisker where a taller run's bar would be (matplotlib's "best" avoids only what
    is drawn), or on a line or a shaded span; outside it covers nothing. Panels that share their labels (compare,
    sweep) draw one legend, on the last panel. Labels wrap at 32 characters, so a long one leaves the axes their
    width."""
    if not args:
        handles, labels = ax.get_legend_handles_labels()
        args = (handles, ["\n".join(textwrap.wrap(label, 32)) for label in labels])
    return ax.legend(*args, **{"fontsize": 8, "loc": "upper left", "bbox_to_anchor": (1.02, 1.0),
                               "borderaxespad": 0.0, **kw})


def log_scale_if_spread(ax, values, factor: float) -> str:
    """Logarithmic y axis when the positive values span more than `factor` (an outlier run, regions of very
    different size), so the small bars stay visible; returns a note for the title."""
    pos = [v for v in values if v is not None and v == v and v > 0]
    if pos and max(pos) > factor * min(pos):
        ax.set_yscale("log")
        return " (log scale)"
    return ""


def plot_compare(doc: dict, png: str | Path) -> None:
    """FOM per rank x thread count (median bars, min-max whiskers) and timer regions at the largest count.
    Also draws perturbation results (their variants are the timer settings)."""
    plt = _plt()
    labels, configs = doc["summary"]["labels"], doc["summary"]["configs"]
    keys = list(configs)
    fom_metric = next((m["metric"] for c in configs.values() for m in c["metrics"] if m["metric"].startswith("FOM")),
                      None)
    last = configs[keys[-1]] if keys else {"metrics": []}
    regions = [m for m in last["metrics"] if m["metric"].startswith("region ")]
    fig, axes = plt.subplots(1, 2 if regions else 1, figsize=(13 if regions else 8, 5.5), squeeze=False,
                             layout="constrained")
    width = 0.8 / max(1, len(labels))
    ax = axes[0][0]
    spread = []
    for i, lab in enumerate(labels):
        med, lo, hi = [], [], []
        for k in keys:
            m = next((m for m in configs[k]["metrics"] if m["metric"] == fom_metric), None)
            v = (m or {}).get("variants", {}).get(lab)
            med.append(v["median"] if v else float("nan"))
            lo.append(v["median"] - v["min"] if v else 0)
            hi.append(v["max"] - v["median"] if v else 0)
        xs = [j + (i - (len(labels) - 1) / 2) * width for j in range(len(keys))]
        ax.bar(xs, med, width, yerr=[lo, hi], capsize=3, label=lab)
        spread += [m - d for m, d in zip(med, lo)] + [m + u for m, u in zip(med, hi)]
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels([f"{configs[k]['ranks']} x {configs[k]['threads']}" for k in keys])
    ax.set_xlabel("MPI ranks x threads per rank")
    unit = (fom_metric or "FOM []").partition(" [")[2].rstrip("]")
    name = doc["summary"].get("fom_name") or "figure of merit"
    ax.set_ylabel("\n".join(textwrap.wrap(f"{name} [{unit}]", 55)), fontsize=9)
    note = log_scale_if_spread(ax, spread, 10)
    ax.set_title(f"figure of merit: median of {doc['summary']['repeat']}, bars min..max{note}", fontsize=9)
    if regions:
        ax = axes[0][1]
        spread = []
        for i, lab in enumerate(labels):
            med = [m["variants"].get(lab, {}).get("median", float("nan")) * 1e3 for m in regions]
            ax.bar([j + (i - (len(labels) - 1) / 2) * width for j in range(len(regions))], med, width, label=lab)
            spread += med
        ax.set_xticks(range(len(regions)))
        ax.set_xticklabels([m["metric"].split(" [")[0][len("region "):] for m in regions], rotation=30,
                           ha="right", fontsize=8)
        ax.set_xlabel("timer region")
        ax.set_ylabel("time of the slowest rank [ms] (median)")
        note = log_scale_if_spread(ax, spread, 100)
        ax.set_title(f"timer regions at {count(last['ranks'], 'rank')} x {count(last['threads'], 'thread')}{note}",
                     fontsize=9)
    legend_outside(ax)  # the variants: the same in both panels
    fig.suptitle(title_text(f"proxylab {doc['tool']}: {doc['app']}", doc["machine"], doc["command"]), fontsize=9)
    save(fig, png)


def plot_sweep(doc: dict, png: str | Path) -> None:
    """Time against ranks (log-log, with the ideal) and parallel efficiency against ranks, one line per size."""
    plt = _plt()
    s = doc["summary"]
    fig, (ax_t, ax_e) = plt.subplots(1, 2, figsize=(12, 5.5), layout="constrained")
    for curve in s["curves"]:
        pts = [p for p in curve["points"] if p.get("time") is not None]
        if not pts:
            continue
        ranks = [p["ranks"] for p in pts]
        ax_t.plot(ranks, [p["time"] for p in pts], "o-", label=curve["label"])
        r0, t0 = ranks[0], pts[0]["time"]
        ideal = [t0 * r0 / r if s["mode"] == "strong" else t0 for r in ranks]
        ax_t.plot(ranks, ideal, ":", color="grey")
        ax_e.plot(ranks, [100 * p["efficiency"] if p.get("efficiency") is not None else float("nan") for p in pts],
                  "o-", label=curve["label"])
    ax_t.set_xscale("log", base=2)
    ax_t.set_yscale("log")
    ax_t.set_xlabel("MPI ranks")
    ax_t.set_ylabel(f"{s['metric']} [s] (median of {s['repeat']})")
    ax_t.set_title(f"{s['mode']} scaling (dotted: ideal)", fontsize=9)
    ax_e.set_xscale("log", base=2)
    ax_e.axhline(100, color="grey", ls=":")
    ax_e.set_ylim(0, max(110, ax_e.get_ylim()[1]))
    ax_e.set_xlabel("MPI ranks")
    ax_e.set_ylabel("parallel efficiency [%]")
    ax_e.set_title("E = T(p0) p0 / (T(p) p)" if s["mode"] == "strong" else "E = T(p0) / T(p)", fontsize=9)
    counts = sorted({p["ranks"] for c in s["curves"] for p in c["points"]})
    for ax in (ax_t, ax_e):
        ax.set_xticks(counts)
        ax.set_xticklabels([str(r) for r in counts])
        ax.xaxis.set_minor_locator(plt.NullLocator())
        ax.grid(alpha=0.3)
    legend_outside(ax_e)  # the sizes: the same in both panels
    fig.suptitle(title_text(f"proxylab sweep: {doc['app']}", doc["machine"], doc["command"]), fontsize=9)
    save(fig, png)


def region_colours(leaves: dict, top: int = len(REGION_COLOURS)) -> dict[str, str]:
    """The `top` leaf regions with the most time over all ranks get a colour of their own (REGION_COLOURS)."""
    total: dict[str, float] = {}
    for segs in leaves.values():
        for s in segs:
            total[s.name] = total.get(s.name, 0.0) + s.t1 - s.t0
    names = sorted(total, key=total.get, reverse=True)[:top]
    return dict(zip(names, REGION_COLOURS))


def plot_gantt(trace: str | Path, png: str | Path, command: str, by: str = "category") -> None:
    """Per-rank timeline coloured by the category (or the name) of the innermost region, utilization beside it."""
    from .host import machine
    from .trace_analysis import CATEGORIES, analyse
    plt = _plt()
    a = analyse(trace)
    t0, t1 = a["window"]
    ranks = list(a["leaves"])
    scale, unit = (1e3, "ms") if t1 - t0 < 10 else (1.0, "s")
    height = max(3.5, min(26.0, 1.8 + 0.45 * len(ranks)))
    fig, (ax, ax_u) = plt.subplots(1, 2, figsize=(14, height), sharey=True, gridspec_kw={"width_ratios": [4, 1]},
                                   layout="constrained")
    # what a segment is coloured by: its category, or its region name (the top regions; the rest grey)
    colours = COLOURS if by == "category" else {**region_colours(a["leaves"]), "idle": COLOURS["idle"]}
    key = (lambda s: s.cat) if by == "category" else (lambda s: s.name if s.name in colours else "other regions")
    colours.setdefault("other regions", "#b0b0b0")
    for y, r in enumerate(ranks):
        ax.broken_barh([(0, (t1 - t0) * scale)], (y - 0.4, 0.8), color=COLOURS["idle"])
        groups: dict[str, list] = {}
        for s in a["leaves"][r]:
            groups.setdefault(key(s), []).append(((s.t0 - t0) * scale, (s.t1 - s.t0) * scale))
        for name, bars in groups.items():
            ax.broken_barh(bars, (y - 0.4, 0.8), color=colours[name])
        u = a["utilization"][r]
        left = 0.0
        for cat in [*CATEGORIES, "idle"]:
            share = 100 * u[cat] / u["window"] if u["window"] else 0
            ax_u.barh(y, share, left=left, color=COLOURS[cat], edgecolor="white" if cat == "idle" else None)
            left += share
    step = max(1, len(ranks) // 32)
    ax.set_yticks(range(0, len(ranks), step))
    ax.set_yticklabels([str(r) for r in ranks[::step]])
    ax.set_ylabel("MPI rank")
    ax.set_xlabel(f"time since the first span [{unit}]")
    ax.set_ylim(len(ranks) - 0.5, -0.5)  # rank 0 on top
    ax.set_title(f"task Gantt chart (innermost timer region at each instant, coloured by {by})", fontsize=9)
    legend = [("compute (busy)", "compute"), ("communication", "communication"), ("io", "io"), ("other", "other"),
              ("idle / untimed", "idle")]
    legend_outside(ax_u, [plt.Rectangle((0, 0), 1, 1, color=COLOURS[c]) for _, c in legend], [t for t, _ in legend],
                   title="utilization", title_fontsize=8)
    if by == "region":
        names = [n for n in colours if n not in ("idle",)]
        fig.legend([plt.Rectangle((0, 0), 1, 1, color=colours[n]) for n in names], names, fontsize=8, ncol=4,
                   loc="upper center", bbox_to_anchor=(0.4, 0.0), title="timeline: region", title_fontsize=8)
    ax_u.set_xlim(0, 100)
    ax_u.set_xlabel("share of the window [%]")
    ax_u.set_title("utilization", fontsize=9)
    fig.suptitle(title_text(f"proxylab gantt: {Path(trace).name} (plotted on this machine)", machine(), command),
                 fontsize=9)
    save(fig, png)


def plot_comm(doc: dict, png: str | Path, command: str) -> None:
    """The seeds' pictures of a comm probe record: latency and bandwidth against message size (ping-pong,
    swap, echo, ring), all-to-all time per strategy against message size, halo time per strategy. The curves come
    checked from comm_record.curves (InputError when there is nothing to draw)."""
    from .comm_record import curves
    from .host import machine
    c = curves(doc)
    plt = _plt()
    fig, axes = plt.subplots(2, 2, figsize=(13, 9), layout="constrained")
    (ax_lat, ax_bw), (ax_a2a, ax_halo) = axes

    def curve(ax, pts, label, ring=False):
        if pts:  # a ring has a few sizes: points, no line
            ax.plot(*zip(*pts), label=label, marker="s" if ring else "o", markersize=3,
                    **({"linestyle": "none"} if ring else {}))

    for ax, key in ((ax_lat, "latency"), (ax_bw, "bandwidth")):
        for label, pts, ring in c[key]:
            curve(ax, pts, label, ring)
    ax_lat.set_ylabel("time per message (ping-pong: half round trip) [us]")
    ax_lat.set_title("latency: median over repetitions", fontsize=9)
    ax_bw.set_ylabel("bandwidth [GB/s]")
    ax_bw.set_title("bandwidth: median over repetitions", fontsize=9)
    for ax in (ax_lat, ax_bw):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("message size [bytes]")
    ax_lat.set_yscale("log")

    for strategy, pts in c["alltoall"].items():
        curve(ax_a2a, pts, strategy)
    ax_a2a.set_xscale("log", base=2)
    ax_a2a.set_yscale("log")
    ax_a2a.set_xlabel("bytes per rank pair [bytes]")
    ax_a2a.set_ylabel("time per all-to-all [us]")
    ax_a2a.set_title(f"all-to-all strategies, groups of {count(c['alltoall_group'], 'rank')} (median)", fontsize=9)

    cases, strategies = c["halo_cases"], list(c["halo"])
    width = 0.8 / max(1, len(strategies))
    for i, strategy in enumerate(strategies):
        ax_halo.bar([j + (i - (len(strategies) - 1) / 2) * width for j in range(len(cases))],
                    [c["halo"][strategy].get(case, float("nan")) for case in cases], width, label=strategy)
    ax_halo.set_xticks(range(len(cases)))
    ax_halo.set_xticklabels([f"{tile}^2, w {w}" for tile, w in cases], fontsize=8)
    ax_halo.set_xlabel("tile (interior cells per side) and halo width [cells]")
    ax_halo.set_ylabel("time per halo exchange [us]")
    ax_halo.set_title("2-D halo exchange strategies (median)", fontsize=9)
    for ax in axes.flat:
        if ax.get_legend_handles_labels()[0]:
            legend_outside(ax)
    here = machine()
    where = here if here["host"] == c["host"] else {"host": c["host"], "cores": "?"}
    what = f"proxylab comm probe: {count(c['ranks'], 'rank')} x {count(c['threads'], 'thread')}, {c['mpi']}"
    fig.suptitle(title_text(what, where, command), fontsize=9)
    save(fig, png)


def plot_roofline(doc: dict, png: str | Path) -> None:
    """The roofline of `./proxylab roofline`: the memory ceiling (triad's moved bytes; dashed: triad as STREAM
    counts it) and the DGEMM ceiling (log-log), one point per kernel; a point above its roof says why."""
    from .roofline_analysis import above_roof_note
    plt = _plt()
    fig, ax = plt.subplots(figsize=(9, 6), layout="constrained")
    triad, bw, peak, points = doc["triad_gbs"], doc["memory_gbs"], doc["dgemm_gflops"], doc["points"]
    lo = min([p["intensity"] for p in points] + [doc["ridge_intensity"]]) / 4
    hi = max([p["intensity"] for p in points] + [doc["ridge_intensity"]]) * 4
    xs = [lo * (hi / lo) ** (k / 200) for k in range(201)]
    ax.plot(xs, [min(peak, x * bw) for x in xs], color="black", linewidth=2)
    counted = [x for x in xs if x * triad <= peak]
    ax.plot(counted, [x * triad for x in counted], color="grey", linewidth=0.8, linestyle="--")
    ax.text(0.02, 0.97, f"solid diagonal: memory, {bw:.1f} GB/s moved by STREAM triad\n"
            f"dashed: triad as STREAM counts it, {triad:.1f} GB/s (its stores'\nwrite-allocate reads not counted)",
            transform=ax.transAxes, fontsize=8, va="top")
    ax.annotate(f"DGEMM {peak:.1f} GFLOP/s", (hi / 3, peak), fontsize=8, va="bottom")
    for p in points:
        note = above_roof_note(p, doc)
        ax.plot([p["intensity"]], [p["gflops"]], marker="o", linestyle="none",
                label="\n".join(textwrap.wrap(f"{p['kernel']}: {100 * p['fraction_of_roof']:.0f}% of roof"
                                               f"{f' ({note})' if note else ''}", 60)))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity [flop/byte]")
    ax.set_ylabel("performance [GFLOP/s]")
    ax.set_title(f"1 rank x 1 thread, median of {count(doc.get('repeat', 1), 'run')}; ceilings measured in the same "
                 "command", fontsize=9)
    legend_outside(ax)
    fig.suptitle(title_text("proxylab roofline: each proxy's main kernel", doc["machine"], doc["command"]), fontsize=9)
    save(fig, png)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m proxylab_tools.plots", description=__doc__)
    p.add_argument("kind", choices=["compare", "sweep", "perturbation", "gantt", "comm", "roofline"])
    p.add_argument("source")
    p.add_argument("png")
    p.add_argument("--command", default="")
    p.add_argument("--by", choices=["category", "region"], default="category", help="gantt: colour the timeline by")
    a = p.parse_args(argv)
    from .json_input import load as load_json
    try:
        if a.kind == "gantt":
            plot_gantt(a.source, a.png, a.command or f"./proxylab gantt {a.source}", a.by)
        elif a.kind == "comm":
            plot_comm(load_json(a.source), a.png, a.command or f"./proxylab plot comm {a.source}")
        else:
            draw = {"compare": plot_compare, "sweep": plot_sweep, "perturbation": plot_compare,
                    "roofline": plot_roofline}[a.kind]
            draw(load_json(a.source), a.png)
    except ValueError as e:  # json_input.InputError, the trace's and the comm record's checks: they say what
        print(f"{p.prog}: cannot draw {a.kind} from '{a.source}': {e}", file=sys.stderr)
        return 2
    except (KeyError, IndexError, TypeError, AttributeError, RecursionError) as e:
        # a results file is the harness's own: one without its layout is of another kind, or was edited
        print(f"{p.prog}: '{a.source}' is not a {a.kind} results file ({type(e).__name__}: {e})", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
