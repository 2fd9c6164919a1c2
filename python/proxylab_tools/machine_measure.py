"""./proxylab machine: measure this machine's description (machines/*.yaml) with the proxies' own probes.

    ./proxylab machine --out machines/$(hostname).yaml

STREAM (1 rank, then one rank per core; the 1-rank runs also time an empty kernel launch and name the last-level
cache; then 1 rank with its arrays in a quarter of its cache share), the communication probe
at 2 ranks (ping-pong, allreduce, all-to-all), the DGEMM ceiling pstswm measures (perf.measure_dgemm) and the local
FFT rate of fft3d at 1 rank. One node only: the between-node values are the inside-node ones, and the file says so
in `sources`. Median of --repeat runs.
"""
from __future__ import annotations

import argparse
import datetime
import statistics

from . import harness_common as hc
from . import machine_file, output_files, runner

TOOL = "machine"


def triad_gbs(record: dict) -> float:
    """Best-iteration triad bandwidth of all ranks together (the STREAM FOM)."""
    return float(record["fom"]["value"])


def pingpong(record: dict) -> tuple[float, float]:
    """(latency us at 8 B, bandwidth GB/s of the largest message) from the comm probe's ping-pong points."""
    pts = sorted(record["results"]["pingpong"], key=lambda p: p["bytes"])
    small = next(p for p in pts if p["bytes"] >= 8)
    big = pts[-1]
    return small["t_med_us"], big["bytes"] / (big["t_med_us"] * 1e-6) * 1e-9


def allreduce_stage_us(record: dict, ranks: int) -> float:
    """One stage of a 1-word MPI_Allreduce over all `ranks` (ceil(log2 P) stages)."""
    pts = [p for p in record["results"]["allreduce"]
           if p["operation"] == "allreduce" and p["words"] == 1 and p["group"] == ranks]
    stages = max(1, (ranks - 1).bit_length())
    return pts[0]["t_med_us"] / stages


def alltoall_message_us(record: dict, ranks: int, latency_us: float) -> float:
    """Per-message cost of the smallest MPI_Alltoall beyond the ping-pong latency (>= 0)."""
    pts = sorted((p for p in record["results"]["alltoall"] if p["strategy"] == "alltoall" and p["group"] == ranks),
                 key=lambda p: p["bytes"])
    return max(0.0, pts[0]["t_med_us"] / max(1, ranks - 1) - latency_us)


def measure(repeat: int, log) -> dict:
    cores = hc.machine()["cores"]
    med = lambda xs: statistics.median(xs)
    runs = lambda app, ranks, deck, sets: [runner.verified_record(app, ranks, 1, runner.resolve_deck(app, deck), sets)
                                           for _ in range(repeat)]
    log(f"STREAM at 1 rank and at {cores} ranks")
    stream = ["stream.n=8388608", "stream.iterations=20"]  # 64 MiB per array per rank: beyond the caches
    stream_one = runs("stream", 1, "default", stream)
    bw_core = med([triad_gbs(r) for r in stream_one])
    launch = med([r["results"]["launch_us"] for r in stream_one])
    bw_node = med([triad_gbs(r) for r in runs("stream", cores, "default", stream)]) if cores > 1 else bw_core
    llc = stream_one[0]["results"].get("last_level_cache_bytes", 0)
    cache_mb = llc / stream_one[0]["results"].get("last_level_cache_cpus", 1) / 1e6
    if cache_mb > 0:
        log(f"STREAM in the cache: 1 rank, arrays in a quarter of its {cache_mb:.3g} MB share of the last-level cache")
        in_cache = [f"stream.n={max(1024, int(cache_mb * 1e6 / 4 / 24))}", "stream.iterations=50"]
        bw_cache = med([triad_gbs(r) for r in runs("stream", 1, "default", in_cache)])
        bw_cache_node = med([triad_gbs(r) for r in runs("stream", cores, "default", in_cache)]) if cores > 1 \
            else bw_cache
    comm_ranks = 2 if cores >= 2 else 1
    log(f"communication probe at {comm_ranks} ranks: ping-pong, allreduce, all-to-all")
    comm = runs("comm", comm_ranks, None, ["probe.tests=pingpong,alltoall,allreduce", "probe.min_bytes=8",
                                           "probe.max_bytes=4194304", "alltoall.min_bytes=8",
                                           "alltoall.max_bytes=64", "allreduce.words=1",
                                           "allreduce.strategies=allreduce"])
    lat = med([pingpong(r)[0] for r in comm])
    bw = med([pingpong(r)[1] for r in comm])
    stage = med([allreduce_stage_us(r, comm_ranks) for r in comm])
    a2a = med([alltoall_message_us(r, comm_ranks, lat) for r in comm])
    log(f"DGEMM ceiling (pstswm perf.measure_dgemm) and local FFT rate (fft3d, 64^3) at 1 and {cores} ranks")
    dgemm_runs = lambda ranks: med([r["results"]["gflops_per_rank"]["dgemm"] for r in runs(
        "pstswm", ranks, "T42L18-case2", ["perf.measure_dgemm=true", "time.steps=4"])])
    fft_runs = lambda ranks: med([r["results"]["local_fft_gflops"] for r in runs("fft3d", ranks, "64cube", [])])
    dgemm, fft = dgemm_runs(1), fft_runs(1)
    # the same with every core busy: a rank's rate drops when the cores share a power budget or execution units
    dgemm_node, fft_node = (cores * dgemm_runs(cores), fft_runs(cores)) if cores > 1 else (dgemm, fft)
    host = hc.machine()
    when = datetime.date.today().isoformat()
    probe = f"measured by ./proxylab machine on {host['host']} ({host['cpu']}) {when}, median of {repeat}"
    one_node = probe + "; one node only: the inside-node value (no second node to measure)"
    src = {"cores_per_node": f"os.cpu_count() on {host['host']}",
           "memory_bandwidth_per_core_gbs": probe + ": stream, 1 rank, triad best",
           "memory_bandwidth_per_node_gbs": probe + f": stream, {cores} ranks, triad best, all ranks",
           "dgemm_gflops_per_core": probe + ": pstswm T42 perf.measure_dgemm, 1 rank",
           "fft_gflops_per_core": probe + ": fft3d 64cube local_fft_gflops, 1 rank",
           "intra_node_latency_us": probe + f": comm pingpong 8 B, {comm_ranks} ranks",
           "intra_node_bandwidth_gbs": probe + ": comm pingpong 4 MiB",
           "inter_node_latency_us": one_node, "inter_node_bandwidth_gbs": one_node,
           "allreduce_stage_us": probe + f": comm allreduce 1 word, {comm_ranks} ranks / ceil(log2 P)",
           "alltoall_message_us": probe + ": comm alltoall 8 B per pair, minus the ping-pong latency",
           "kernel_launch_us": probe + ": stream, 1 rank, empty kernel + fence (results.launch_us)",
           "cache_per_core_mb": probe + ": stream's last_level_cache_bytes / last_level_cache_cpus (sysfs)",
           "cache_bandwidth_per_core_gbs": probe + ": stream, 1 rank, 3 arrays in a quarter of the cache share, "
                                                   "triad best",
           "cache_bandwidth_per_node_gbs": probe + f": the same at {cores} ranks, triad best, all ranks",
           "dgemm_gflops_per_node": probe + f": pstswm T42 perf.measure_dgemm at {cores} ranks at once, x {cores}",
           "fft_gflops_per_node": probe + f": fft3d 64cube local_fft_gflops (all ranks) at {cores} ranks"}
    m = {"name": machine_file.safe_name(host["host"]),
         "description": f"{host['host']}: {host['cpu']}, {cores} cores ({host['system']})",
         "cores_per_node": cores, "memory_bandwidth_per_core_gbs": bw_core, "memory_bandwidth_per_node_gbs": bw_node,
         "dgemm_gflops_per_core": dgemm, "fft_gflops_per_core": fft, "intra_node_latency_us": lat,
         "intra_node_bandwidth_gbs": bw, "inter_node_latency_us": lat, "inter_node_bandwidth_gbs": bw,
         "allreduce_stage_us": stage, "alltoall_message_us": a2a, "kernel_launch_us": launch, "sources": src}
    m.update(dgemm_gflops_per_node=dgemm_node, fft_gflops_per_node=fft_node)
    if cache_mb > 0:
        m.update(cache_per_core_mb=cache_mb, cache_bandwidth_per_core_gbs=bw_cache,
                 cache_bandwidth_per_node_gbs=bw_cache_node)
    else:
        del src["cache_per_core_mb"], src["cache_bandwidth_per_core_gbs"], src["cache_bandwidth_per_node_gbs"]
    return machine_file.validate(m, "measured description")


def register(subparsers) -> None:
    sp = subparsers.add_parser("machine", help="measure this machine's description (machines/*.yaml) with the probes",
                               description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sp.add_argument("--out", required=True, help="the YAML file to write (e.g. machines/HOST.yaml)")
    sp.add_argument("--repeat", type=int, default=3, help="runs of each probe; the median counts (default 3)")
    sp.set_defaults(func=main)


def main(args) -> int:
    output_files.require_writable(args.out, "--out")
    if args.repeat < 1:
        hc.log(TOOL, f"--repeat {args.repeat}: expected a positive number of runs")
        return 2
    for app in ("stream", "comm", "pstswm", "fft3d"):
        if not runner.binary(app).exists():
            hc.log(TOOL, f"proxylab-{app} is not built: ./proxylab build first")
            return 2
    m = measure(args.repeat, lambda s: hc.log(TOOL, s))
    output_files.atomic_write(args.out, machine_file.dumps(m))
    hc.log(TOOL, f"wrote {args.out}")
    print(machine_file.dumps(m), end="")
    return 0
