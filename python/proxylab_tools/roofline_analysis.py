"""The roofline's analysis (standard library only): each record's point (arithmetic intensity, GFLOP/s, bytes of
data), the memory and DGEMM ceilings, each point's roof and why a point is above it, and the table. Used by the
roofline command (harness_roofline, whose help explains the counting) and its chart (plots).
"""
from __future__ import annotations

import math

from . import stats

WRITE_ALLOCATE = 32.0 / 24.0  # bytes triad moves per byte STREAM counts (its store reads the line first)
POP_SOLVER_NAMES = {"pcg": "PCG", "chrongear": "ChronGear", "pcsi": "P-CSI", "pipecg": "pipelined CG"}


def triad_gbs(record: dict) -> float:
    """The STREAM record's triad bandwidth (best iteration, STREAM's convention)."""
    return next(k["gbs_best"] for k in record["results"]["kernels"] if k["kernel"] == "triad")


def stream_point(record: dict) -> dict:
    intensity = 2.0 / 24.0
    return {"kernel": "STREAM triad", "intensity": intensity, "gflops": intensity * triad_gbs(record),
            "footprint_bytes": 24.0 * record["results"]["elements_per_rank"]}


def pop_point(record: dict) -> dict:
    cfg, r = record["config"]["solver"], record["results"]
    for key in ("flops_per_iteration_all_ranks", "bytes_per_iteration_all_ranks", "kernel_bandwidth_gbs"):
        if key not in r:
            raise ValueError(f"the pop record has no results.{key} (a record of this version, run with "
                             "bench.stream=true, has it)")
    intensity = r["flops_per_iteration_all_ranks"] / r["bytes_per_iteration_all_ranks"]
    unfused = "" if cfg["fused"] else ", unfused"
    return {"kernel": f"pop {POP_SOLVER_NAMES[cfg['name']]} ({cfg['mapping']}{unfused})", "intensity": intensity,
            "gflops": intensity * r["kernel_bandwidth_gbs"], "footprint_bytes": r["bytes_per_iteration_all_ranks"]}


def pstswm_point(record: dict) -> dict:
    r = record["results"]
    intensity = r["flops_per_step"]["legendre"] / r["bytes_per_step"]["legendre"]
    return {"kernel": f"pstswm LT {record['config']['transform']['lt']} (T{r['grid']['truncation']})",
            "intensity": intensity, "gflops": r["gflops_per_rank"]["legendre"],
            "footprint_bytes": r["bytes_per_step"]["legendre"]}


def fft3d_point(record: dict) -> dict:
    c = record["config"]["fft3d"]
    n = c["nx"] * c["ny"] * c["nz"]
    r = record["results"]
    return {"kernel": f"fft3d {c['nx']}x{c['ny']}x{c['nz']}", "intensity": 5.0 * math.log2(n) / 96.0,
            "gflops": 0.5 * (r["gflops_forward"] + r["gflops_inverse"]), "footprint_bytes": 32.0 * n}  # in and out


def roof(intensity: float, memory_gbs: float, dgemm_gflops: float) -> float:
    return min(dgemm_gflops, intensity * memory_gbs)


POINT_OF = {"stream": stream_point, "pop": pop_point, "pstswm": pstswm_point, "fft3d": fft3d_point}


def median_record(app: str, records: list[dict]) -> dict:
    """Of the repeats of one run, the record whose point has the median GFLOP/s (lower median when even)."""
    return stats.median_item(records, key=lambda r: POINT_OF[app](r)["gflops"])


def analyse(records: list[dict]) -> dict:
    """Ceilings and points from one record of each run: the memory ceiling from the STREAM record (triad's moved
    bytes), the compute ceiling from the pstswm record that measured DGEMM; points in order of intensity, each
    with its roof, its fraction of it and whether its data fit in the last-level cache."""
    stream = next(r for r in records if r["app"] == "stream")
    triad = triad_gbs(stream)
    memory = triad * WRITE_ALLOCATE
    llc = stream["results"]["last_level_cache_bytes"]
    dgemm = max(r["results"]["gflops_per_rank"]["dgemm"] for r in records if r["app"] == "pstswm")
    points = sorted((POINT_OF[r["app"]](r) for r in records), key=lambda p: p["intensity"])
    for p in points:
        p["roof_gflops"] = roof(p["intensity"], memory, dgemm)
        p["fraction_of_roof"] = p["gflops"] / p["roof_gflops"]
        p["in_cache"] = p["footprint_bytes"] <= llc
    return {"triad_gbs": triad, "memory_gbs": memory, "dgemm_gflops": dgemm, "ridge_intensity": dgemm / memory,
            "last_level_cache_bytes": llc, "points": points}


def mib(nbytes: float) -> str:
    return f"{nbytes / 2 ** 20:.3g} MiB"


def above_roof_note(p: dict, a: dict) -> str:
    """Why a point is above its roof ('' when it is not): under the memory roof, data in the last-level cache; under
    the DGEMM roof, a flop count above what the kernel does (fft3d's 5 N log2 N is nominal) or a slow DGEMM run."""
    if p["fraction_of_roof"] <= 1.0:
        return ""
    llc = a["last_level_cache_bytes"]
    if p["intensity"] >= a["ridge_intensity"]:
        return "above the DGEMM roof: a nominal flop count (more than the kernel does) or a slow DGEMM run"
    if p["in_cache"]:
        return f"above the DRAM roof: its data ({mib(p['footprint_bytes'])}) fit in the {mib(llc)} last-level cache"
    return f"above the roof with {mib(p['footprint_bytes'])} of data, more than the {mib(llc)} cache: a bound to check"


def format_table(a: dict) -> str:
    llc = a["last_level_cache_bytes"]
    lines = [f"ceilings: memory {a['memory_gbs']:.1f} GB/s moved (STREAM triad {a['triad_gbs']:.1f} GB/s as counted, "
             f"x 32/24 for its write-allocate reads; 1 rank), compute {a['dgemm_gflops']:.1f} GFLOP/s (DGEMM 1024^3, "
             f"1 thread); ridge at {a['ridge_intensity']:.2f} flop/byte; last-level cache {mib(llc)}",
             f"{'kernel':28s} {'flop/byte':>9s} {'GFLOP/s':>8s} {'roof':>8s} {'of roof':>8s} {'data':>10s}  bound by"]
    for p in a["points"]:
        bound = "memory" if p["intensity"] < a["ridge_intensity"] else "compute"
        note = above_roof_note(p, a)
        lines.append(f"{p['kernel']:28s} {p['intensity']:9.3f} {p['gflops']:8.2f} {p['roof_gflops']:8.2f} "
                     f"{100 * p['fraction_of_roof']:7.0f}% {mib(p['footprint_bytes']):>10s}  {bound}"
                     f"{f' ({note})' if note else ''}")
    return "\n".join(lines)
