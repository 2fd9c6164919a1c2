"""./proxylab plot comm RECORD.json: the comm probe's latency and bandwidth curves (the seeds' standard pictures).

    ./proxylab run comm --ranks 2 --deck inputs/comm/default.yaml --json comm.json && ./proxylab plot comm comm.json

Draws, from the JSON record of one proxylab-comm run: latency and bandwidth against message size (ping-pong,
swap, echo, natural and random ring), all-to-all time per strategy against message size, and the 2-D halo
exchange time per strategy and tile. Medians over each point's repetitions, as the run's tables print them.
A record with nothing to draw, or with a value the chart cannot use (null or NaN, negative, not a number), is
refused naming the value (exit 2).
"""
from __future__ import annotations

import argparse
from pathlib import Path

from .comm_record import curves
from .json_input import InputError
from .json_input import load as load_json

TOOL = "plot"


def register(subparsers) -> None:
    sp = subparsers.add_parser("plot", help="PNG curves of a comm probe record (latency, bandwidth vs size)",
                               description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sp.add_argument("kind", choices=["comm"], help="what the record is: comm = a proxylab-comm --json record")
    sp.add_argument("record", help="JSON record written by the run's --json")
    sp.add_argument("--out", help="PNG to write (default: the record's name with .png)")
    sp.set_defaults(func=main)


def main(args) -> int:
    from . import harness_common as hc
    from . import plots
    from .output_files import require_writable
    from .run_files import INPUT, OUTPUT, RunFile, require_distinct
    path = Path(args.record)
    png = Path(args.out) if args.out else path.with_suffix(".png")
    require_writable(png, "--out")
    require_distinct([RunFile("record", path, INPUT), RunFile("--out", png, OUTPUT)])
    try:
        curves(load_json(path))  # the chart's values checked here: a record it cannot draw is bad input
    except InputError as e:
        hc.log(TOOL, f"cannot plot comm record '{path}': {e} (expected the JSON of `./proxylab run comm --json FILE`)")
        return 2
    ok, msg = plots.run_plot("comm", path, png, command=hc.command_line())
    hc.log(TOOL, msg)
    return 0 if ok else 1
