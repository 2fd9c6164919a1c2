"""The chart of ./proxylab model: predicted seconds per step against ranks, one curve per variant (left), and the
parts of each variant's time (right). matplotlib; run in a subprocess by model_command.draw.

    python -m proxylab_tools.model_plot model.json model.png
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from .model import PARTS
from .plots import _plt, save, title_text

STYLE = {"compute": "-", "transpose": "--", "halo": "-.", "reduction": ":"}


def plot_model(doc: dict, png: str | Path) -> None:
    plt = _plt()
    fig, (ax_t, ax_p) = plt.subplots(1, 2, figsize=(12, 5.5), layout="constrained")
    ranks = sorted({q["ranks"] for pts in doc["curves"].values() for q in pts})
    for label, pts in doc["curves"].items():
        line, = ax_t.plot([q["ranks"] for q in pts], [q["total"] for q in pts], "o-", label=label)
        r0, t0 = pts[0]["ranks"], pts[0]["total"]
        ax_t.plot([q["ranks"] for q in pts], [t0 * r0 / q["ranks"] for q in pts], ":", color="grey")
        for part in PARTS:
            ys = [q[part] for q in pts]
            if any(y > 0 for y in ys):
                ax_p.plot([q["ranks"] for q in pts], [y if y > 0 else float("nan") for y in ys], STYLE[part],
                          color=line.get_color(), label=f"{label}: {part}")
    for c in doc.get("crossovers", []):
        ax_t.axvline(c["ranks"], color="grey", lw=0.8)
        ax_t.annotate(f"{c['to']}\nfaster from here", (c["ranks"], ax_t.get_ylim()[1]), fontsize=7, va="top")
    for ax, what in ((ax_t, "total (dotted: ideal strong scaling)"), (ax_p, "parts")):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("MPI ranks")
        ax.set_ylabel("predicted seconds per step")
        ax.set_title(what, fontsize=9)
        ax.set_xticks(ranks)
        ax.set_xticklabels([str(r) for r in ranks], fontsize=7)
        ax.legend(fontsize=7)
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
