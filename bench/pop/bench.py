#!/usr/bin/env python3
"""POP barotropic proxy benchmarks (not tests): runs variants side by side, median of several runs,
and writes a markdown table.

  python3 bench/pop/bench.py --bin build/pop/bin/proxylab-pop --repeats 3 > pop-tables.md

Tables: (1) time per iteration and per solve of each solver at 1, 2, 4 ranks on the small grid
(latency-bound), with global sums / halo updates per iteration and the time-per-solve ratio to pcg;
(2) halo strategy x global-sum strategy for pcg at 4 ranks; (3) the x1 grid at 1 rank in benchmark
mode (124 iterations, as CGPOP): achieved bandwidth of the operator + vector kernels against the
STREAM triad measured in the same run, fused and unfused.

  python3 bench/pop/bench.py --bin build/pop/bin/proxylab-pop --tenth --repeats 3 [--baseline OLD_BIN]

writes only table 4: the tenth grid (3600 x 2400) at 1 rank, benchmark mode (inputs/pop/tenth-bench.yaml),
every mapping x {chrongear, pcg}: time split and bandwidth of the operator + vector kernels against the
STREAM triad of the same run. Runs are interleaved (one of each per round, `--repeats` rounds) so that
load from other processes hits every variant alike; medians. `--baseline` adds chrongear rows of an
older binary, interleaved the same way.
"""
import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))
from proxylab_tools import runner, stats  # noqa: E402  (the project's launcher: MPICH mpiexec, environment, JSON record)


def run(binary, ranks, sets, deck, threads=1):
    return runner.verified_record("pop", ranks, threads, deck, sets, exe=binary)["results"]


def median_of(binary, repeats, ranks, sets, deck):
    recs = [run(binary, ranks, sets, deck) for _ in range(repeats)]
    med = lambda key: stats.median(r[key] if isinstance(key, str) else key(r) for r in recs)
    return recs[0], med


def tenth_table(binary, baseline, repeats, save=None, from_file=None, threads=(1,)):
    deck = "inputs/pop/tenth-bench.yaml"
    if from_file:  # render a saved session again
        saved = json.loads(Path(from_file).read_text())
        rows = [tuple(e["row"]) + ((1,) if len(e["row"]) == 4 else ()) for e in saved["rows"]]
        recs = {row: e["results"] for row, e in zip(rows, saved["rows"])}
        load0, load1, repeats = saved["load_before"], saved["load_after"], saved["repeats"]
    else:
        rows = [("this", binary, s, m, 1) for s in ("chrongear", "pcg") for m in ("flat", "mdrange", "team")]
        if baseline:
            rows += [("baseline", baseline, "chrongear", m, 1) for m in ("flat", "mdrange", "team")]
        if threads != (1,):  # a thread comparison: the team mapping only, this binary only
            rows = [("this", binary, s, "team", t) for t in threads for s in ("chrongear", "pcg")]
        load0 = os.getloadavg()
        recs = {row: [] for row in rows}
        for _ in range(repeats):  # interleaved: one run of every row per round
            for row in rows:
                recs[row].append(run(row[1], 1, ["solver.name=" + row[2], "solver.mapping=" + row[3]], deck, row[4]))
        load1 = os.getloadavg()
    if save:
        Path(save).write_text(json.dumps({"load_before": load0, "load_after": load1, "repeats": repeats, "rows": [
            {"row": list(row), "results": recs[row]} for row in rows]}, indent=1))
    tcounts = sorted({row[4] for row in rows})
    triads = {t: [r["triad_bandwidth_gbs"] for row in rows if row[4] == t for r in recs[row]] for t in tcounts}
    session = {t: stats.median(v) for t, v in triads.items()}
    spread = "; ".join("%d thread(s): %d values, %.1f-%.1f GB/s, median %.1f" % (
        t, len(triads[t]), min(triads[t]), max(triads[t]), session[t]) for t in tcounts)
    title = "4" if tcounts == [1] else "4b"
    print("## %s. tenth grid (3600 x 2400) at 1 rank, 50 iterations of benchmark mode: kernels vs STREAM triad%s\n" % (
        title, "" if tcounts == [1] else ", 1 vs %s OpenMP threads" % ", ".join(str(t) for t in tcounts[1:])))
    print("Command: `python3 bench/pop/bench.py --bin %s --tenth --repeats %d%s%s`  " % (
        rows[0][1], repeats, " --baseline " + baseline if baseline else "",
        "" if tcounts == [1] else " --threads " + ",".join(str(t) for t in tcounts)))
    print("Load average before %s, after %s (%d cores). 1 rank, threads as listed, "
          "interleaved rounds, medians of %d. Bytes: each array a kernel streams counted once per pass "
          "(STREAM convention; stencil neighbours from cache). Triad: 24 B/point, best of 10 on arrays of "
          "the block's size with the same mapping and threads, in every run; this session's values (%s) "
          "swing within a run, so the last column divides by the session median of the same thread count.\n" % (
              tuple(round(x, 2) for x in load0), tuple(round(x, 2) for x in load1), os.cpu_count(), repeats, spread))
    print("| binary | solver | mapping | threads | s/iteration | fused kernel+sum ms | vector ms | check operator ms | "
          "bytes/iter | kernels GB/s | triad GB/s (same runs) | kernels/triad (same runs) | kernels/session triad |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        rs = recs[row]
        med = lambda f: stats.median(f(r) for r in rs)
        split = lambda k: med(lambda r: r["seconds_per_iteration_split"][k]) * 1e3
        bw = med(lambda r: r["kernel_bandwidth_gbs"])
        print("| %s | %s | %s | %d | %.4f | %.1f | %.1f | %.1f | %.3g | %.2f | %.2f | %.0f%% | %.0f%% |" % (
            row[0], row[2], row[3], row[4], med(lambda r: r["seconds_per_iteration"]), split("fused_kernel_and_sum"),
            split("vector"), split("operator"), rs[0]["bytes_per_iteration_all_ranks"], bw,
            med(lambda r: r["triad_bandwidth_gbs"]), 100 * med(lambda r: r["kernel_vs_triad"]), 100 * bw / session[row[4]]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/pop/bin/proxylab-pop")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--tenth", action="store_true", help="only table 4 (tenth grid vs STREAM triad)")
    ap.add_argument("--baseline", default=None, help="with --tenth: an older binary to compare, interleaved")
    ap.add_argument("--save", default=None, help="with --tenth: write every run's results (JSON) to this file")
    ap.add_argument("--from-file", default=None, help="with --tenth: render a session saved with --save")
    ap.add_argument("--threads", default="1", help="with --tenth: OpenMP threads of the 1-rank runs, e.g. 1,2 "
                    "(more than 1: a team-only session, one row per solver and thread count)")
    a = ap.parse_args()
    if a.tenth:
        tenth_table(a.bin, a.baseline, a.repeats, a.save, a.from_file, tuple(int(t) for t in a.threads.split(",")))
        return
    small, x1 = "inputs/pop/small.yaml", "inputs/pop/x1-bench.yaml"
    print("# POP barotropic proxy: measured tables\n")
    print("Command: `python3 bench/pop/bench.py --bin %s --repeats %d`  " % (a.bin, a.repeats))
    print("Machine: %d cores, load average before the run %s (4 ranks oversubscribe 2 cores). "
          "Medians of %d runs; OMP_NUM_THREADS=1.\n" % (os.cpu_count(), os.getloadavg(), a.repeats))

    print("## 1. Solvers on the small grid (64 x 48, crit 1e-13): time per iteration and per solve\n")
    print("| solver | ranks | iterations | sums/iter | words/iter | halo/iter | s/iteration | s/solve | solve vs pcg |")
    print("|---|---|---|---|---|---|---|---|---|")
    for ranks in (1, 2, 4):
        base = None
        for solver in ("pcg", "chrongear", "pcsi", "pipecg"):
            sets = ["solver.name=" + solver]
            if solver == "pipecg":
                sets.append("comm.reduce=iallreduce")
            r, med = median_of(a.bin, a.repeats, ranks, sets, small)
            t_iter, t_solve = med("seconds_per_iteration"), med("solve_seconds")
            base = t_solve if solver == "pcg" else base
            print("| %s%s | %d | %d | %.2f | %.2f | %.2f | %.3e | %.3e | %.2f |" % (
                solver, " (iallreduce)" if solver == "pipecg" else "", ranks, r["iterations"],
                r["reductions_per_iteration"], r["reduction_words_per_iteration"], r["halo_updates_per_iteration"],
                t_iter, t_solve, t_solve / base))

    print("\n## 2. pcg at 4 ranks on the small grid: halo strategy x global-sum strategy (s per iteration; halo part)\n")
    print("| halo | allreduce | iallreduce | reproducible | halo s/iter (allreduce) |")
    print("|---|---|---|---|---|")
    for halo in ("packed", "sendrecv", "persistent", "datatype", "rma"):
        row, halo_t = [], 0
        for red in ("allreduce", "iallreduce", "reproducible"):
            r, med = median_of(a.bin, a.repeats, 4, ["comm.halo=" + halo, "comm.reduce=" + red], small)
            row.append("%.3e" % med("seconds_per_iteration"))
            if red == "allreduce":
                halo_t = med(lambda x: x["seconds_per_iteration_split"]["halo"])
        print("| %s | %s | %.3e |" % (halo, " | ".join(row), halo_t))

    print("\n## 3. x1 (320 x 384) at 1 rank, 124 iterations: kernel bandwidth vs STREAM triad (same run)\n")
    print("| solver | updates | mapping | bytes/iter | s/iteration | kernels GB/s | triad GB/s | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for solver in ("pcg", "chrongear"):
        for fused in ("true", "false"):
            for mapping in ("flat", "mdrange", "team"):
                sets = ["solver.name=" + solver, "solver.fused=" + fused, "solver.mapping=" + mapping]
                r, med = median_of(a.bin, a.repeats, 1, sets, x1)
                print("| %s | %s | %s | %.3g | %.3e | %.2f | %.2f | %.0f%% |" % (
                    solver, "fused" if fused == "true" else "unfused", mapping, r["bytes_per_iteration_all_ranks"],
                    med("seconds_per_iteration"), med("kernel_bandwidth_gbs"), med("triad_bandwidth_gbs"),
                    100 * med("kernel_vs_triad")))


if __name__ == "__main__":
    main()
