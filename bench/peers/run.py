#!/usr/bin/env python3
"""Each proxy side by side with the real code it stands for (its peer), interleaved, medians of several rounds.

  .deps/venv/bin/python bench/peers/run.py --peers PEERS_DIR [--only evh1,fft3d,pstswm,pop,stream]
      [--ranks 1,2] [--repeats 3] [--out results/peers] [--bin-dir build/openmp/bin]

PEERS_DIR is the folder the peers' build script fills (`setup.sh PEERS_DIR VH1_GIT HEFFTE_GIT`, kept with the peers'
sources outside this repository), or a user's own builds with the same names (vhone_p1, vhone_p2, fftw_mpi_3d,
petsc_cg9, triad, venv/bin/python with SHTns, which runs shtns_peer.py from this folder). VH-1 fixes its grid at
compile time: vhone_pP is the 512^2 build; other sizes N need vhone_nN_pP (the same build with imax = jmax = N in
zonemod.f90; bench/peers/README.md shows how). Every round runs each case's proxy and its peer back to back,
so a disturbance hits both; the ratio is taken per round and the table gives its median and spread (min-max) over the rounds. ratio = proxy speed / peer speed (> 1: the proxy is
faster; for times, speed = 1 / time). Each case names the target the proxy must meet, and whether its size is one
the proxies were tuned on (the first peers table's sizes) or not. A ceiling case has no peer: its value is already a
fraction of a ceiling the proxy measures in the same run (pop's counted bandwidth over the same-size triad).

Writes OUT/results.json (every raw value), OUT/results.md (the table), OUT/results.csv (the same rows, run = OUT's
name, to append to bench/peers/results-<machine>.csv) and OUT/ratios.png (a bar chart), atomically.
Performance is never asserted in tests; this script is the place where it is measured.
"""
from __future__ import annotations

import argparse
import atexit
import csv
import datetime
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
from proxylab_tools import runner, stats  # noqa: E402  (the project's launcher and statistics)

HERE = Path(__file__).resolve().parent
# The sizes of the first peers table, which the proxies were tuned on; every other size is "untuned".
TUNED = {"evh1": {512, 256}, "fft3d": {128, 64}, "pstswm": {85, 170, 340}, "pop": {(3600, 2400)}}


@dataclass
class Case:
    """One proxy configuration and the peer run that does the same work."""
    group: str          # proxy name (evh1, fft3d, ...)
    label: str          # what is compared, for the table
    ranks: int
    app: str
    deck: str
    sets: list[str]
    proxy_value: callable   # record -> value (unit below)
    peer_command: callable  # peers dir -> (argv, cwd, env additions)
    peer_value: callable    # peer stdout -> value
    unit: str
    higher_is_better: bool
    target: float       # the ratio (proxy speed / peer speed) the proxy must reach
    tuned: bool         # a size the proxies were tuned on (the first peers table's), or one nobody tuned for
    proxies: dict = field(default_factory=dict)  # extra proxy variants compared with the main one: name -> sets
    contract: str = ""  # where the output is left, where proxy and peer could differ (fft3d: fft3d_cases)


# The peers run bound to cores, as the front end binds the proxies (one core per rank).
def mpich(n):
    return ["mpiexec.mpich", "-bind-to", "core", "-n", str(n)]


def openmpi(n):
    return ["mpirun.openmpi", "--allow-run-as-root", "--bind-to", "core", "-n", str(n)]


def grab(pattern, text, what):
    m = re.search(pattern, text)
    if not m:
        raise RuntimeError(f"{what}: no match for {pattern!r} in output:\n{text[-1500:]}")
    return float(m.group(1))


def fom(record):
    return float(record["fom"]["value"])


# ---- the cases --------------------------------------------------------------------------------------------------
def evh1_cases(ranks, sizes):
    out = []
    for n in sizes:
        zones_cycles = n * n * 100.0
        for p in ranks:
            def peer_cmd(d, p=p, n=n):  # VH-1's grid is fixed at compile time: vhone_pP is 512^2, vhone_nN_pP others
                exe = f"vhone_p{p}" if n == 512 else f"vhone_n{n}_p{p}"
                return (["bash", "-c", f"ulimit -s unlimited && exec {' '.join(mpich(p))} ./{exe}"], d,
                        {"OMP_NUM_THREADS": "1"})
            sets = [f"grid.nx={n}", f"grid.ny={n}", "time.max_steps=100", "verify.sod_l1=10", "evh1.algorithm=transpose"]
            out.append(Case("evh1", f"oblique Sod {n}^2, 100 cycles, batched", p, "evh1", "inputs/evh1/sod-oblique.yaml",
                            sets + ["evh1.mapping=batched"], fom, peer_cmd,
                            lambda s, zc=zones_cycles: zc / grab(r"End of Vhone\s+([0-9.eE+-]+)\s+seconds", s, "vh-1"),
                            "zone-cycles/s", True, 1.2, n in TUNED["evh1"], {"pencil": sets + ["evh1.mapping=pencil"]}))
    return out


def fftw_mpi_contracts():
    """FFTW-MPI's 3-D transform under each contract (bench/fft3d/fftw_mpi_contracts.c), built here once with the
    peers' MPI: the peers' fftw_mpi_3d knows ESTIMATE and MEASURE only and FFTW's local order only, so the PATIENT
    rows and the z_contiguous rows run it."""
    folder = tempfile.mkdtemp(prefix="proxylab-peers-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    exe = Path(folder) / "fftw_mpi_contracts"
    subprocess.run(["mpicc.openmpi", "-O3", "-march=native", str(ROOT / "bench/fft3d/fftw_mpi_contracts.c"),
                    "-o", str(exe), "-lfftw3_mpi", "-lfftw3", "-lm"], check=True)
    return str(exe)


def fft3d_cases(ranks, sizes, plannings, contracts):
    """fft3d against FFTW-MPI under each contract: `natural` is FFTW-MPI's own in-place benchmark (the spectrum
    transposed back to the input's order, which fft3d does not do: the proxy out of place, and at one rank in place);
    `transposed` leaves FFTW-MPI's spectrum distributed over y as fft3d leaves its own (FFTW_MPI_TRANSPOSED_OUT /
    _IN), out of place and in place on both sides, but in FFTW's local order, x contiguous; `z_contiguous` is all of
    fft3d's contract: the transposed spectrum put into fft3d's z-contiguous Z stage by FFTW's own local transpose
    (fftw_mpi_contracts.c's oop_tz / inplace_tz, timed back to back as fftw_mpi_3d and the proxy time theirs)."""
    out = []
    contracts_peer = fftw_mpi_contracts() if "patient" in plannings or "z_contiguous" in contracts else None
    for n in sizes:
        for planning in plannings:
            for p in ranks:
                for decomp in (["slab", "pencil"] if p > 1 else ["slab"]):
                    # the same work at every size (10 transforms of 128^3): small sizes get enough repetitions
                    reps = max(10, 10 * (128 // n) ** 3)
                    sets = [f"fft3d.nx={n}", f"fft3d.ny={n}", f"fft3d.nz={n}", f"fft3d.planning={planning}",
                            f"fft3d.decomposition={decomp}", f"fft3d.iterations={reps}"]
                    for contract in contracts:
                        if contract == "natural":
                            modes = [("", False, "inplace")] + ([(" in place", True, "inplace")] if p == 1 else [])
                        else:
                            modes = [("", False, "outofplace"), (" in place", True, "inplace")]
                        for how, in_place, peer_mode in modes:
                            def peer_cmd(d, p=p, n=n, planning=planning, reps=reps, mode=peer_mode,
                                         contract=contract):
                                if contract == "z_contiguous":
                                    name = {"inplace": "inplace_tz", "outofplace": "oop_tz"}[mode]
                                    return (openmpi(p) + [contracts_peer, str(n), planning, str(reps), name,
                                                          "back_to_back"], d, {})
                                if planning == "patient":  # fftw_mpi_contracts.c's names for the same calls
                                    name = {("natural", "inplace"): "inplace", ("transposed", "inplace"): "inplace_t",
                                            ("transposed", "outofplace"): "oop_t"}[contract, mode]
                                    return (openmpi(p) + [contracts_peer, str(n), "patient", str(reps), name], d, {})
                                return (openmpi(p) + ["./fftw_mpi_3d", str(n), str(n), str(n), str(reps), planning,
                                                      mode, contract], d, {})
                            out.append(Case("fft3d", f"{n}^3 c2c fwd+inv, {decomp}{how}, {planning}", p, "fft3d",
                                            "inputs/fft3d/128cube.yaml",
                                            sets + (["fft3d.in_place=true"] if in_place else []), fom, peer_cmd,
                                            lambda s: grab(r"([0-9.]+) GFLOP/s", s, "fftw-mpi"), "GFLOP/s", True,
                                            1.0, n in TUNED["fft3d"], contract=contract))
    return out


def pstswm_grid(t):
    """pstswm's Gauss grid for TN (truncation.cpp): the smallest nlon >= 3N+1, a multiple of 4 with factors 2, 3, 5."""
    nlon = 3 * t + 1
    while True:
        m = nlon
        for f in (2, 3, 5):
            while m % f == 0:
                m //= f
        if nlon % 4 == 0 and m == 1:
            return nlon // 2, nlon
        nlon += 1


def shtns_seconds(s):  # SHTns: mean of one synthesis and one analysis, seconds per field transform
    return 0.5e-3 * (grab(r"synth ([0-9.]+) ms", s, "shtns") + grab(r"analys ([0-9.]+) ms", s, "shtns"))


def pstswm_seconds(record, nlat, nlon):
    """Seconds per field transform from pstswm's record, which must have run on the grid SHTns is given."""
    grid = record["results"]["grid"]
    if (grid["nlat"], grid["nlon"]) != (nlat, nlon):
        raise RuntimeError(f"pstswm ran on {grid['nlat']} x {grid['nlon']}, SHTns on {nlat} x {nlon}: pstswm_grid() "
                           "no longer follows truncation.cpp")
    return float(record["results"]["seconds_per_field_transform"])


def pstswm_cases(truncations, peer_fields, levels, lt_variants=()):
    out = []
    for t in truncations:
        nlat, nlon = pstswm_grid(t)
        # a truncation without its own deck: the T85 deck at truncation t (the grid follows the truncation)
        deck = ROOT / "inputs" / "pstswm" / f"T{t}L18-case2.yaml"
        sets = [] if deck.exists() else [f"model.truncation={t}"]
        deck = deck if deck.exists() else ROOT / "inputs" / "pstswm" / "T85L18-case2.yaml"
        for nlev in levels:
            # another level count than the decks' 18: the same number of field transforms per run (more steps)
            level_sets = [] if nlev == 18 else [f"model.levels={nlev}"]
            days = 0.02 * 18 / nlev
            for fields in peer_fields:
                def peer_cmd(d, t=t, nlat=nlat, nlon=nlon, fields=fields):
                    return ([str(Path(d) / "venv" / "bin" / "python"), str(HERE / "shtns_peer.py"), str(t), str(nlat),
                             str(nlon), str(fields)], d, {"OMP_NUM_THREADS": "1"})
                # SHTns on one field in cache, or on as many distinct fields as pstswm transforms per call
                peer = "SHTns 1 field" if fields == 1 else f"SHTns {fields} distinct fields"
                # field transforms per second, proxy: from the record's own count
                out.append(Case("pstswm",
                                f"T{t}L{nlev} ({nlat}x{nlon}) case 2, s per field transform (fwd+inv mean) vs {peer}",
                                1, "pstswm", str(deck.relative_to(ROOT)),
                                sets + level_sets + [f"time.days={days:g}", "transform.fft_planning=measure"],
                                lambda r, nlat=nlat, nlon=nlon: pstswm_seconds(r, nlat, nlon), peer_cmd,
                                shtns_seconds, "s", False, 1.0, t in TUNED["pstswm"] and nlev == 18,
                                # other Legendre transforms in the same rounds (transform.lt)
                                {f"lt={v}": sets + level_sets + [f"time.days={days:g}",
                                                                 "transform.fft_planning=measure", f"transform.lt={v}"]
                                 for v in lt_variants}))
    return out


def pop_cases(ranks, sizes):
    out = []
    for nx, ny in sizes:
        for p in ranks:
            def peer_cmd(d, p=p, nx=nx, ny=ny):
                return (openmpi(p) + ["./petsc_cg9", "-nx", str(nx), "-ny", str(ny), "-iters", "50"], d, {})
            out.append(Case("pop", f"{nx}x{ny}, PCG, s per iteration", p, "pop", "inputs/pop/tenth-bench.yaml",
                            [f"grid.nx={nx}", f"grid.ny={ny}", "solver.name=pcg", "bench.stream=false"],
                            lambda r: 1e-6 * fom(r), peer_cmd,
                            lambda s: 1e-3 * grab(r"best ([0-9.]+) ms per iteration", s, "petsc"), "s", False,
                            1.0 / 0.6, (nx, ny) in TUNED["pop"]))
    # the bytes the record counts per iteration against the same run's triad of the same array size, 1 thread
    out.append(Case("pop", "3600x2400 chrongear, counted bandwidth / same-size triad (ceiling, no peer)", 1, "pop",
                    "inputs/pop/tenth-bench.yaml", [],
                    lambda r: float(r["results"]["kernel_vs_triad"]), None, None, "fraction", True, 0.8, True))
    return out


def stream_cases():
    n = 80_000_000
    return [Case("stream", f"triad, 3 x {n * 8 // 2**20} MiB, 1 thread", 1, "stream", "inputs/stream/default.yaml",
                 [f"stream.n={n}"], fom,
                 lambda d: (["./triad", str(n)], d, {"OMP_NUM_THREADS": "1"}),
                 lambda s: grab(r"triad ([0-9.]+) GB/s", s, "triad"), "GB/s", True, 1.0, True)]


# ---- running ----------------------------------------------------------------------------------------------------
def run_proxy(case, sets, bin_dir):
    exe = Path(bin_dir) / f"proxylab-{case.app}"
    r = runner.run_app(case.app, case.ranks, 1, ROOT / case.deck, sets, quiet=True, exe=exe, timeout=900)
    if not r.verified or not r.record:
        raise RuntimeError(f"proxy run failed or did not verify (exit {r.returncode}): {' '.join(r.command)}\n"
                           f"{r.stdout[-1500:]}{r.stderr[-1500:]}")
    return case.proxy_value(r.record), r.record.get("provenance", {}).get("host_blas", "")


def run_peer(case, peers):
    if case.peer_command is None:  # a ceiling case: the proxy's value is already the ratio
        return 1.0
    argv, cwd, env_add = case.peer_command(peers)
    env = dict(os.environ)
    env.update({"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", **env_add})
    p = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    if p.returncode:
        raise RuntimeError(f"peer failed (exit {p.returncode}): {' '.join(argv)}\n{p.stdout[-1500:]}{p.stderr[-1500:]}")
    return case.peer_value(p.stdout + p.stderr)


def speed(value, case):
    return value if case.higher_is_better else 1.0 / value


def measure(cases, peers, repeats, bin_dir, log):
    """The rows of every case over `repeats` interleaved rounds, and the host BLAS libraries the proxies ran with."""
    rows, blas = [], set()
    for c in cases:
        rows.append({"case": c, "proxy": [], "peer": [], "ratio": [], "variants": {k: [] for k in c.proxies},
                     "variant_ratio": {k: [] for k in c.proxies}})
    for rnd in range(repeats):
        log(f"round {rnd + 1}/{repeats}, load average {os.getloadavg()[0]:.2f}")
        for row in rows:
            c = row["case"]
            proxy, lib = run_proxy(c, c.sets, bin_dir)
            blas.add(lib)
            peer = run_peer(c, peers)
            row["proxy"].append(proxy), row["peer"].append(peer)
            row["ratio"].append(speed(proxy, c) / speed(peer, c))
            for name, sets in c.proxies.items():
                v = run_proxy(c, sets, bin_dir)[0]
                row["variants"][name].append(v)
                row["variant_ratio"][name].append(speed(proxy, c) / speed(v, c))
            extra = "".join(f", {k} {row['variants'][k][-1]:.4g}" for k in c.proxies)
            log(f"  {c.group:6s} {c.label} @{c.ranks}: proxy {proxy:.4g}, peer {peer:.4g} {c.unit}, "
                f"ratio {row['ratio'][-1]:.3f}{extra}")
    return rows, sorted(b for b in blas if b)


def summary(values):
    s = stats.summarize(values)
    return {"median": s.median, "min": s.min, "max": s.max, "n": s.n}


# The columns of results.csv: one line per table row, so that a run's lines append to bench/peers/results-<machine>.csv.
CSV_COLUMNS = ["run", "date", "proxy", "case", "contract", "size", "ranks", "unit", "proxy_median", "peer_median",
               "ratio_median", "ratio_min", "ratio_max", "rounds", "target", "met"]


def table_rows(rows):
    """Every row of the table as a dict of CSV_COLUMNS (without run and date): each case, then its variants."""
    out = []
    for row in rows:
        c = row["case"]
        common = {"proxy": c.group, "contract": c.contract, "size": "tuned" if c.tuned else "untuned",
                  "ranks": c.ranks, "unit": c.unit}
        r = stats.summarize(row["ratio"])
        out.append({**common, "case": c.label, "proxy_median": f"{stats.median(row['proxy']):.4g}",
                    "peer_median": f"{stats.median(row['peer']):.4g}" if c.peer_command else "",
                    "ratio_median": f"{r.median:.2f}", "ratio_min": f"{r.min:.2f}", "ratio_max": f"{r.max:.2f}",
                    "rounds": r.n, "target": f"{c.target:.2f}", "met": "yes" if r.median >= c.target else "NO"})
        for name in c.proxies:
            v = stats.summarize(row["variant_ratio"][name])
            out.append({**common, "case": f"{c.label}: vs the `{name}` variant (main / {name} speed)",
                        "proxy_median": "", "peer_median": f"{stats.median(row['variants'][name]):.4g}",
                        "ratio_median": f"{v.median:.2f}", "ratio_min": f"{v.min:.2f}", "ratio_max": f"{v.max:.2f}",
                        "rounds": v.n, "target": "", "met": ""})
    return out


def table(lines_of_rows):
    """The markdown table of table_rows (a ceiling case's peer column says so)."""
    lines = ["| proxy | case | contract | size | ranks | proxy (median) | peer (median) | unit "
             "| proxy/peer speed: median (min-max) | target | met |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for t in lines_of_rows:
        variant = not t["target"]
        cells = [t["proxy"], t["case"], t["contract"], t["size"], t["ranks"], t["proxy_median"],
                 t["peer_median"] or ("" if variant else "(ceiling)"), t["unit"],
                 f"{t['ratio_median']}x ({t['ratio_min']}-{t['ratio_max']})", "" if variant else f">= {t['target']}x",
                 t["met"]]
        lines.append("|" + "|".join(f" {c} " if c != "" else " " for c in cells) + "|")
    return "\n".join(lines)


def csv_text(lines_of_rows, run, date):
    """results.csv: the header and one line per table row, run and date first."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=CSV_COLUMNS, lineterminator="\n")
    w.writeheader()
    w.writerows({"run": run, "date": date, **t} for t in lines_of_rows)
    return buf.getvalue()


def write_atomic(path: Path, data: bytes):
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def chart(rows, path: Path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    labels = [f"{r['case'].group} {r['case'].ranks}r\n{r['case'].label[:28]}" for r in rows]
    med = [stats.median(r["ratio"]) for r in rows]
    lo = [m - min(r["ratio"]) for m, r in zip(med, rows)]
    hi = [max(r["ratio"]) - m for m, r in zip(med, rows)]
    fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(rows)), 4.5))
    ax.bar(range(len(rows)), med, yerr=[lo, hi], color=["tab:green" if m >= r["case"].target else "tab:red"
                                                         for m, r in zip(med, rows)], capsize=3)
    for i, r in enumerate(rows):
        ax.plot([i - 0.4, i + 0.4], [r["case"].target] * 2, "k--", lw=1)
    ax.axhline(1.0, color="grey", lw=0.8)
    ax.set_xticks(range(len(rows)), labels, fontsize=6, rotation=60, ha="right")
    ax.set_ylabel("proxy speed / peer speed (median, min-max)")
    ax.set_title("proxylab vs the real codes (dashed: target)")
    fig.tight_layout()
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".png")
    os.close(fd)
    fig.savefig(tmp, dpi=110)
    os.replace(tmp, path)
    return True


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peers", required=True, help="folder with the peer builds (the peers' setup.sh WORKDIR)")
    ap.add_argument("--only", default="evh1,fft3d,pstswm,pop,stream")
    ap.add_argument("--ranks", default="1,2")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--evh1-sizes", default="512,256,768")
    ap.add_argument("--fft3d-sizes", default="48,64,96,128,192")
    ap.add_argument("--fft3d-planning", default="estimate,measure",
                    help="comma-separated: estimate, measure, patient (FFTW_PATIENT: minutes of planning per size)")
    ap.add_argument("--fft3d-contract", default="natural",
                    help="comma-separated: natural, transposed, z_contiguous (where FFTW-MPI leaves its spectrum: "
                         "fft3d_cases)")
    ap.add_argument("--pstswm-truncations", default="85,106,170,213,340")
    ap.add_argument("--pstswm-peer-fields", default="1,90",
                    help="SHTns runs on this many distinct fields per round (90: pstswm's 5 fields x 18 levels)")
    ap.add_argument("--pstswm-levels", default="18",
                    help="pstswm's level count (the decks' 18; fewer: its transforms' data in cache, as SHTns' field)")
    ap.add_argument("--pstswm-lt", default="",
                    help="comma-separated transform.lt variants run beside the default in the same rounds "
                         "(e.g. recurrence)")
    ap.add_argument("--pop-sizes", default="3600x2400,1800x1200")
    ap.add_argument("--bin-dir", default=str(ROOT / "build" / "openmp" / "bin"))
    ap.add_argument("--out", default=str(ROOT / "results" / "peers"))
    a = ap.parse_args(argv)
    peers = str(Path(a.peers).resolve())
    if not Path(peers).is_dir():
        ap.error(f"--peers {a.peers}: not a directory (build the peers into it first: setup.sh {a.peers})")
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    ranks = [int(x) for x in a.ranks.split(",")]
    ints = lambda s: [int(x) for x in s.split(",") if x]
    builders = {"evh1": lambda: evh1_cases(ranks, ints(a.evh1_sizes)),
                "fft3d": lambda: fft3d_cases(ranks, ints(a.fft3d_sizes), a.fft3d_planning.split(","),
                                                 a.fft3d_contract.split(",")),
                "pstswm": lambda: pstswm_cases(ints(a.pstswm_truncations), ints(a.pstswm_peer_fields), ints(a.pstswm_levels),
                                                   [v for v in a.pstswm_lt.split(",") if v]),
                "pop": lambda: pop_cases(ranks, [tuple(int(v) for v in s.split("x")) for s in a.pop_sizes.split(",")]),
                "stream": stream_cases}
    bad_contracts = [c for c in a.fft3d_contract.split(",") if c not in ("natural", "transposed", "z_contiguous")]
    if bad_contracts:
        ap.error(f"--fft3d-contract {','.join(bad_contracts)}: allowed: natural, transposed, z_contiguous")
    unknown = [g for g in a.only.split(",") if g not in builders]
    if unknown:
        ap.error(f"--only {','.join(unknown)}: allowed: {', '.join(builders)}")
    cases = [c for g in a.only.split(",") for c in builders[g]()]
    log = lambda m: print(m, file=sys.stderr, flush=True)
    t0 = time.time()
    load_before = os.getloadavg()
    rows, blas = measure(cases, peers, a.repeats, a.bin_dir, log)
    lines_of_rows = table_rows(rows)
    md = table(lines_of_rows)
    # the environment that changes what the proxies run (OpenBLAS' kernel set: bench/peers/README.md)
    env = "".join(f"{k}={os.environ[k]} " for k in sorted(os.environ) if k.startswith("OPENBLAS_"))
    cmd = env + "python3 bench/peers/run.py " + " ".join(argv if argv is not None else sys.argv[1:])
    header = (f"Command: `{cmd}`  \nMachine: {os.cpu_count()} cores, load average before {load_before[0]:.2f}, "
              f"after {os.getloadavg()[0]:.2f}; {a.repeats} interleaved rounds, {time.time() - t0:.0f} s; "
              f"1 thread per rank; proxy binaries {a.bin_dir} (host BLAS: {', '.join(blas) or 'none reported'})\n\n")
    print(header + md)
    data = {"command": cmd, "host_blas": blas, "load_before": load_before, "load_after": os.getloadavg(),
            "rows": [{"group": r["case"].group, "label": r["case"].label, "ranks": r["case"].ranks,
                      "unit": r["case"].unit, "target": r["case"].target, "tuned": r["case"].tuned,
                      "proxy": r["proxy"], "peer": r["peer"],
                      "ratio": summary(r["ratio"]), "ratios": r["ratio"], "variants": r["variants"],
                      "variant_ratios": r["variant_ratio"]} for r in rows]}
    write_atomic(out / "results.json", (json.dumps(data, indent=1) + "\n").encode())
    write_atomic(out / "results.md", (header + md + "\n").encode())
    write_atomic(out / "results.csv", csv_text(lines_of_rows, out.name, f"{datetime.date.today()}").encode())
    chart(rows, out / "ratios.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
