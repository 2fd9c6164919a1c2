"""./proxylab simulate: the real proxy, built against SimGrid's SMPI (ci/build-smpi.sh), run at many simulated
ranks on a platform made from a machine description, next to the model's prediction for the same platform.

    ci/build-smpi.sh                                   # once: build/smpi/bin/proxylab-* (SimGrid's mpi.h)
    ./proxylab simulate pop --deck inputs/pop/small.yaml --machine xt4 --ranks 64

The platform (platform.xml, hosts) is one SimGrid cluster: `nodes` hosts of cores_per_node cores at the machine's
DGEMM rate, a private link per node (inter-node bandwidth, half the latency each way), the hosts' loopback for
ranks on one node (intra-node latency and bandwidth); ranks fill nodes in order. SMPI's latency and bandwidth
factors are set to 1: the description's values are MPI-level measurements already (SMPI's defaults, fitted to an
Ethernet cluster, double a small message's latency). Each simulated rank gets its own copy of the binary
(smpi/privatization:dlopen): smpirun's default here, mmap, remaps the globals at every context switch, which made
every timer start/stop pair cost 3 us of host time (pop small, 16 ranks; 0.16 us with dlopen), all of it counted as
computation. SMPI runs the ranks' computation for real on this machine and
advances the simulated clock by the time it took divided by how much faster this machine is at the rate that bounds
most of the proxy's compute (its 1-rank record's kernels: memory bandwidth for pop, FFT for fft3d, DGEMM for pstswm
and for evh1's calibrated sweeps): --calibrated-on names this machine's description (default
machines/<host>.yaml), as the model does for its calibrated kernels. The timers use MPI_Wtime, so the record's times
are simulated times.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

from . import harness_common as hc
from . import machine_file, runner, stats
from . import model as mdl
from .runner import ROOT

TOOL = "simulate"


def smpi_build_dir() -> Path:
    return Path(os.environ.get("PROXYLAB_SMPI_BUILD_DIR", ROOT / "build" / "smpi"))


def smpi_binary(app: str) -> Path:
    return smpi_build_dir() / "bin" / f"proxylab-{app}"


def unavailable(app: str) -> str | None:
    """Why a simulated run cannot happen here (None when it can)."""
    if shutil.which("smpirun") is None:
        return "SMPI not available: smpirun not found (apt-get install libsimgrid-dev)"
    if not smpi_binary(app).exists():
        return f"SMPI not available: {smpi_binary(app)} is not built (ci/build-smpi.sh proxylab-{app})"
    return None


def platform_xml(m: dict, nodes: int) -> str:
    """A SimGrid platform (DTD 4.1): one cluster of `nodes` hosts shaped like the machine description."""
    us = lambda v: f"{v:.6g}us"
    gbps = lambda v: f"{v:.6g}GBps"
    return f"""<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<!-- machine description {m['name']}: {m['description']} (python/proxylab_tools/smpi.py) -->
<platform version="4.1">
  <zone id="world" routing="Full">
    <cluster id="{machine_file.safe_name(m['name'])}" prefix="node-" suffix="" radical="0-{nodes - 1}"
             speed="{m['dgemm_gflops_per_core']:.6g}Gf" core="{m['cores_per_node']}"
             bw="{gbps(m['inter_node_bandwidth_gbs'])}" lat="{us(m['inter_node_latency_us'] / 2)}"
             loopback_bw="{gbps(m['intra_node_bandwidth_gbs'])}" loopback_lat="{us(m['intra_node_latency_us'])}"
             bb_bw="{gbps(1000 * m['inter_node_bandwidth_gbs'])}" bb_lat="0us"/>
  </zone>
</platform>
"""


def hostfile(m: dict, ranks: int) -> str:
    """One line per rank: ranks fill the nodes in order."""
    return "".join(f"node-{r // m['cores_per_node']}\n" for r in range(ranks))


def nodes_for(m: dict, ranks: int) -> int:
    return math.ceil(ranks / m["cores_per_node"])


def run_to_completion(cmd: list, env: dict, timeout: float) -> subprocess.CompletedProcess:
    """cmd in a session of its own, its output captured; on the timeout (exit 124) or Ctrl-C the whole session is
    killed: smpirun is a script whose simulator (smpimain) would otherwise run on without it."""
    proc = subprocess.Popen(cmd, cwd=runner.working_directory(), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        return subprocess.CompletedProcess(cmd, proc.returncode, out, err)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return subprocess.CompletedProcess(cmd, 124, out, err + f"\nsimulate: stopped after --timeout {timeout:g} s\n")
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise


def run(app: str, ranks: int, m: dict, host_gflops: float, deck=None, sets=(), timeout: float = 900,
        extra_cfg=()) -> tuple[dict | None, subprocess.CompletedProcess]:
    """One simulated run; (its record or None, the smpirun process)."""
    work = Path(tempfile.mkdtemp(prefix=f"proxylab-smpi-{app}-"))
    try:
        (work / "platform.xml").write_text(platform_xml(m, nodes_for(m, ranks)))
        (work / "hosts").write_text(hostfile(m, ranks))
        cmd = ["smpirun", "-np", str(ranks), "-platform", str(work / "platform.xml"), "-hostfile", str(work / "hosts"),
               f"--cfg=smpi/host-speed:{host_gflops:.6g}Gf", "--cfg=smpi/lat-factor:0:1", "--cfg=smpi/bw-factor:0:1",
               "--cfg=smpi/privatization:dlopen",
               "--log=root.thres:warning", *extra_cfg,
               str(smpi_binary(app)), *runner.app_arguments(deck, sets, str(work / "record.json"), quiet=True)]
        env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false", OPENBLAS_NUM_THREADS="1")
        p = run_to_completion(cmd, env, timeout)
        rec = work / "record.json"
        record = json.loads(rec.read_text()) if rec.exists() and rec.stat().st_size else None
        return record, p
    finally:
        shutil.rmtree(work, ignore_errors=True)


def bounding_rate(record: dict) -> str:
    """The rate that bounds most of a proxy's measured compute: the rate of the kernels with the most seconds in its
    record (calibrated kernels count as DGEMM: core speed)."""
    seconds = {}
    for k in mdl.counts_of(record)["kernels"]:
        rate = "dgemm" if k["rate"] == "calibrated" else k["rate"]
        seconds[rate] = seconds.get(rate, 0.0) + float(k["seconds"])
    return max(seconds, key=seconds.get) if seconds else "dgemm"


def speed_ratio(here: dict, target: dict, rate: str) -> float:
    """How much faster this machine is than the target at `rate`: a rank alone here (SMPI runs one at a time) against
    a rank of a full node of the target (model.shared_rate)."""
    key = mdl.rate_key(rate)
    return here[key] / mdl.shared_rate(target, target["cores_per_node"], key)


def register(subparsers) -> None:
    sp = subparsers.add_parser(TOOL, help="run a proxy under SimGrid SMPI at many simulated ranks, next to the model",
                               description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sp.add_argument("app", help="proxy (pop, pstswm, evh1, fft3d)")
    sp.add_argument("--deck", help="YAML deck (default: the app's small deck)")
    sp.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="deck override (repeatable)")
    sp.add_argument("--machine", required=True, help="machine description: a name in machines/ or a YAML path")
    sp.add_argument("--ranks", type=hc.count_list, default=hc.count_list("64"), metavar="N[,N...]",
                    help="simulated rank counts (default 64)")
    sp.add_argument("--calibrated-on", default=None, help="this machine's description (default machines/<host>.yaml)")
    sp.add_argument("--no-model", action="store_true", help="simulate only (no counting runs, no prediction)")
    sp.add_argument("--json", help="write the simulated and predicted times here")
    sp.add_argument("--timeout", type=hc.positive_seconds, default=900,
                    help="seconds after which one simulation is stopped")
    sp.add_argument("--preset", default=runner.DEFAULT_PRESET, help="build preset of the counting runs")
    sp.set_defaults(func=main)


def main(args) -> int:
    from .model_command import default_calibration, measure_counts
    why = unavailable(args.app)
    if why:
        hc.log(TOOL, why)
        return 2
    try:
        m = machine_file.load(args.machine)
        here = machine_file.load(args.calibrated_on or default_calibration())
    except machine_file.MachineError as e:
        hc.log(TOOL, str(e))
        return 2
    deck = runner.resolve_deck(args.app, args.deck)
    rows, doc = [], {"app": args.app, "deck": str(deck or ""), "sets": args.set, "machine": m, "points": []}
    counts, rate = None, "dgemm"
    if not args.no_model:
        args.count_ranks, args.quiet = None, False  # the model's defaults: its counting runs, with progress lines
        try:
            lo_record, lo, hi = measure_counts(args, [], "counting")
            costs = mdl.unit_costs(lo_record, here, m) if any(k["rate"] == "calibrated" for k in lo["kernels"]) \
                else {}
            # kernels at the fraction of their bound measured here: SMPI, too, scales what it measured here
            counts = (lo, hi, costs, mdl.kernel_slowdowns(lo_record, here))
            rate = bounding_rate(lo_record)
        except mdl.ModelError as e:
            hc.log(TOOL, str(e))
            return 2
    ratio = speed_ratio(here, m, rate)
    doc.update(bounding_rate=rate, speed_ratio=ratio)
    hc.log(TOOL, f"compute: measured here, scaled by 1/{ratio:.3g} ({rate} rate of {here['name']} / {m['name']})")
    for p in args.ranks:
        hc.log(TOOL, f"{args.app} at {p} simulated ranks on {nodes_for(m, p)} node(s) of {m['name']}")
        pt = {"ranks": p, "nodes": nodes_for(m, p), "verified": True}
        # twice: computation measured here and scaled, then communication alone (computation not timed)
        for key, extra in (("simulated", ()), ("simulated_communication", ("--cfg=smpi/simulate-computation:no",))):
            record, proc = run(args.app, p, m, m["dgemm_gflops_per_core"] * ratio, deck, args.set, args.timeout,
                               extra)
            if record is None or proc.returncode != 0:
                hc.log(TOOL, f"the simulation failed (exit {proc.returncode}):\n{proc.stdout[-2000:]}"
                             f"{proc.stderr[-2000:]}")
                return 3 if proc.returncode != 2 else 2
            pt[key] = mdl.seconds_per_step(args.app, record)
            pt["verified"] = pt["verified"] and bool(record["verification"]["passed"])
        if counts:
            pt["model"] = mdl.predict(mdl.counts_at(counts[0], counts[1], p), m, counts[2], mdl.launch_cost(here, m),
                                      counts[3])
        doc["points"].append(pt)
        q = pt.get("model")
        comm = q["total"] - q["compute"] if q else None
        pct = lambda a, b: f"{100 * (a - b) / b:+.0f}" if a is not None and b > 0 else "-"
        rows.append([str(p), str(pt["nodes"]), stats.fmt(pt["simulated"]), stats.fmt(q["total"] if q else None),
                     pct(q["total"] if q else None, pt["simulated"]), stats.fmt(pt["simulated_communication"]),
                     stats.fmt(comm), pct(comm, pt["simulated_communication"]),
                     "PASSED" if pt["verified"] else "FAILED"])
    from .cli import format_table
    print(f"\n{args.app} ({Path(str(deck)).name if deck else 'defaults'}) on {m['name']}: seconds per "
          f"{record['results']['model_counts']['step']}, simulated by SMPI and predicted by the model; "
          f"'communication': SMPI with computation untimed, the model's transpose + halo + reduction")
    print(format_table(rows, ["ranks", "nodes", "SMPI [s]", "model [s]", "model vs SMPI %", "SMPI comm. [s]",
                              "model comm. [s]", "model vs SMPI %", "verification"]))
    if args.json:
        from .output_files import atomic_write
        atomic_write(args.json, json.dumps(hc.strict_json(doc), indent=1) + "\n")
    return 0 if all(p["verified"] for p in doc["points"]) else 1
