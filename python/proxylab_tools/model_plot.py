"""The chart of ./proxylab model: predicted time per step against ranks, one curve per variant (left), and the
parts of each variant's time (right). matplotlib; run in a subprocess by model_command.draw.

    python -m proxylab_tools.model_plot model.json model.png
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from .model import PARTS
from .plots import _plt, count, legend_outside, save, title_text

STYLE = {"compute": "-", "transpose": "--", "halo": "-.", "reduction": ":"}
BEYOND = "#ececec"  # the shade of rank counts beyond the deck's decomposition limit


def decomposition_limit(doc: dict) -> int | None:
    """The most ranks the deck decomposes over, where the model predicts beyond it (model.beyond_decomposition)."""
    limits = [q["beyond_decomposition"] for pts in doc["curves"].values() for q in pts if "beyond_decomposition" in q]
    return min(limits) if limits else None


def split_at_limit(pts: list[dict]) -> tuple[list[dict], list[dict]]:
    """The points of runs that exist, and the points beyond the limit joined to the last of them (a trend only)."""
    real = [q for q in pts if "beyond_decomposition" not in q]
    beyond = [q for q in pts if "beyond_decomposition" in q]
    return real, (real[-1:] + beyond if beyond else [])


def mark_crossovers(ax, crossovers: list[dict], limit: int | None, xmax: float) -> None:
    """A vertical line per crossover, its label stacked below the previous one's (labels never overlap), on the
    left of the line when the line is near the right edge."""
    for i, c in enumerate(crossovers):
        ax.axvline(c["ranks"], color="grey", lw=0.8)
        beyond = " (beyond the limit)" if limit and c["ranks"] > limit else ""
        right_edge = c["ranks"] >= xmax / 2
        ax.annotate(f"{c['to']}\nfaster from {count(c['ranks'], 'rank')}{beyond}", (c["ranks"], 0.98 - 0.11 * i),
                    xycoords=("data", "axes fraction"), xytext=(-4 if right_edge else 4, 0),
                    textcoords="offset points", ha="right" if right_edge else "left", va="top", fontsize=7,
                    bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": "none", "alpha": 0.8})


def plot_model(doc: dict, png: str | Path) -> None:
    """Predictions beyond the deck's decomposition limit (runs that cannot exist) are drawn on a grey band,
    dashed with hollow markers: the trend of the counts, not a run."""
    plt = _plt()
    fig, (ax_t, ax_p) = plt.subplots(1, 2, figsize=(12, 5.5), layout="constrained")
    ranks = sorted({q["ranks"] for pts in doc["curves"].values() for q in pts})
    limit = decomposition_limit(doc)
    for label, pts in doc["curves"].items():
        real, beyond = split_at_limit(pts)
        line, = ax_t.plot([q["ranks"] for q in real], [q["total"] for q in real], "o-", label=label)
        colour = line.get_color()
        if beyond:
            ax_t.plot([q["ranks"] for q in beyond], [q["total"] for q in beyond], "o--", color=colour,
                      markerfacecolor="white", alpha=0.6, markevery=slice(1, None))
        r0, t0 = pts[0]["ranks"], pts[0]["total"]
        ax_t.plot([q["ranks"] for q in pts], [t0 * r0 / q["ranks"] for q in pts], ":", color="grey")
        for part in PARTS:
            if not any(q[part] > 0 for q in pts):
                continue
            for seg, alpha, name in ((real, 1.0, f"{label}: {part}"), (beyond, 0.4, None)):
                ax_p.plot([q["ranks"] for q in seg], [q[part] if q[part] > 0 else float("nan") for q in seg],
                          STYLE[part], color=colour, alpha=alpha, label=name)
    for ax, what in ((ax_t, "total (dotted: ideal strong scaling)"), (ax_p, "parts")):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlim(ranks[0] / 1.4, ranks[-1] * 1.4)
        if limit:
            ax.axvspan(limit, ranks[-1] * 1.4, color=BEYOND, zorder=0,
                       label=f"beyond the decomposition limit ({count(limit, 'rank')}): trend only, no such run")
        ax.set_xlabel("MPI ranks")
        ax.set_ylabel("predicted time per step [s]")
        ax.set_title(what, fontsize=9)
        ax.set_xticks(ranks)
        ax.set_xticklabels([str(r) for r in ranks], fontsize=7)
        ax.minorticks_off()
    mark_crossovers(ax_t, doc.get("crossovers", []), limit, ranks[-1])
    legend_outside(ax_t, fontsize=7)
    legend_outside(ax_p, fontsize=7)
    m = doc["machine"]
    where = {"host": f"model of {m['name']}", "cores": m["cores_per_node"], "cpu": m["description"]}
    fig.suptitle(title_text(f"proxylab model: {doc['app']} ({Path(doc['deck']).name or 'defaults'})", where,
                            doc["command"]), fontsize=9)
    save(fig, png)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    plot_model(json.loads(Path(argv[0]).read_text()), argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
