"""Unit tests of the harness logic without running anything: variants, interleaving, comparison statistics and
ratios, scaling curves, Gantt leaf attribution and utilization, roofline points, exit codes."""
import argparse
import contextlib
import io
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import harness_testing  # noqa: F401  (puts python/ on the path)
from proxylab_tools import cli, plots
from proxylab_tools import harness_common as hc
from proxylab_tools import harness_compare as compare
from proxylab_tools import harness_gantt as gantt
from proxylab_tools import harness_perturbation as perturbation
from proxylab_tools import roofline_analysis as roofline
from proxylab_tools import stats
from proxylab_tools import harness_sweep as sweep


def record(fom, seconds, regions=None, passed=True):
    return {"fom": {"name": "rate", "value": fom, "unit": "GB/s"}, "run_seconds": seconds,
            "verification": {"passed": passed, "checks": []},
            "timers": [{"region": k, "max_s": v} for k, v in (regions or {}).items()]}


def run(variant, repeat, fom, seconds=1.0, ranks=1, verified=True, regions=None, **tags):
    return {"variant": variant, "repeat": repeat, "ranks": ranks, "threads": 1, "verified": verified, "fom": fom,
            "returncode": 0 if verified else 1, "record": record(fom, seconds, regions, verified), **tags}


class Variants(unittest.TestCase):
    def test_parse_vary(self):
        self.assertEqual(compare.parse_vary(["stream.mapping=flat,team", "a.b = 1, 2"]),
                         [("stream.mapping", ["flat", "team"]), ("a.b", ["1", "2"])])
        for bad in ["stream.mapping", "=flat", "stream.mapping=", "k=,"]:
            with self.assertRaises(ValueError, msg=bad):
                compare.parse_vary([bad])
        with self.assertRaises(ValueError):
            compare.parse_vary(["k=1", "k=2"])

    def test_all_combinations_first_is_reference(self):
        v = compare.variants([("halo.strategy", ["packed", "persistent"]), ("solver.kind", ["pcg", "pcsi"])])
        self.assertEqual([lab for lab, _ in v], ["strategy=packed,kind=pcg", "strategy=packed,kind=pcsi",
                                                 "strategy=persistent,kind=pcg", "strategy=persistent,kind=pcsi"])
        self.assertEqual(v[3][1], ["halo.strategy=persistent", "solver.kind=pcsi"])

    def test_short_labels_stay_unambiguous(self):
        v = compare.variants([("a.n", ["1"]), ("b.n", ["2"])])
        self.assertEqual(v[0][0], "a.n=1,b.n=2")

    def test_plan_is_interleaved(self):
        v = compare.variants([("k", ["A", "B"])])
        p = compare.plan(v, [1, 2], [1], 3)
        self.assertEqual([(x.ranks, x.variant[-1], x.repeat) for x in p[:6]],
                         [(1, "A", 0), (1, "B", 0), (1, "A", 1), (1, "B", 1), (1, "A", 2), (1, "B", 2)])
        self.assertEqual(len(p), 12)
        self.assertEqual(p[6].ranks, 2)


class CompareStatistics(unittest.TestCase):
    def test_median_min_max_and_paired_ratio(self):
        # Drift: the third pair ran while the machine was slow. Ratio of medians would say 1.5; the pairs say 1.1.
        runs = [run("A", 0, 1.0), run("B", 0, 3.0), run("A", 1, 2.0), run("B", 1, 2.2), run("A", 2, 3.0),
                run("B", 2, 3.3)]
        s = compare.summarize(runs, ["A", "B"])["1x1"]
        fom = next(m for m in s["metrics"] if m["metric"] == "FOM [GB/s]")
        self.assertTrue(fom["higher_is_better"])
        self.assertEqual(fom["variants"]["A"], {"n": 3, "median": 2.0, "min": 1.0, "max": 3.0, "ratio": 1.0,
                                                "verdict": "reference"})
        self.assertAlmostEqual(fom["variants"]["B"]["median"], 3.0)
        self.assertAlmostEqual(fom["variants"]["B"]["ratio"], 1.1)
        self.assertEqual(fom["variants"]["B"]["verdict"], "better, resolved")  # every pair above 1, FOM: higher

    def test_a_busy_machine_is_named(self):
        self.assertEqual(hc.busy_note(0.9, 2), "")
        self.assertIn("load average 3.5 on 2 cores", hc.busy_note(3.5, 2))

    def test_verdicts_from_the_pairs(self):
        # the medians (3.76e6 vs 2.33e6 in a lesson) said one thing, the pairs another: the verdict reads the pairs
        self.assertEqual(stats.verdict([1.2, 1.1, 1.3], True), "better, resolved")
        self.assertEqual(stats.verdict([1.2, 1.1, 1.3], False), "worse, resolved")  # a time that grew
        self.assertEqual(stats.verdict([0.5, 0.9, 0.8], False), "better, resolved")
        self.assertEqual(stats.verdict([1.4, 0.9, 1.3], True), "within the noise")
        self.assertEqual(stats.verdict([1.4, 1.3], True), "too few repeats")
        self.assertEqual(stats.verdict([1.4, math.nan, 1.3], True), "too few repeats")  # a missing pair is no pair

    def test_timer_regions_and_run_time(self):
        runs = [run("A", 0, 1.0, 2.0, regions={"step": 1.0, "step/halo": 0.5}),
                run("B", 0, 1.0, 1.0, regions={"step": 0.5, "step/halo": 0.1})]
        s = compare.summarize(runs, ["A", "B"])["1x1"]
        by = {m["metric"]: m for m in s["metrics"]}
        self.assertFalse(by["run time [s]"]["higher_is_better"])
        self.assertAlmostEqual(by["run time [s]"]["variants"]["B"]["ratio"], 0.5)
        self.assertAlmostEqual(by["region step/halo [s]"]["variants"]["B"]["ratio"], 0.2)

    def test_region_selection(self):
        rec = record(1.0, 1.0, {"step": 1.0, "step/halo": 0.5, "io": 0.1})
        self.assertEqual(len(compare.metrics_of(rec)), 5)
        self.assertEqual([k for k in compare.metrics_of(rec, ["top"]) if k.startswith("region")],
                         ["region step [s]", "region io [s]"])
        self.assertEqual([k for k in compare.metrics_of(rec, ["*/halo", "io"]) if k.startswith("region")],
                         ["region step/halo [s]", "region io [s]"])

    def test_failed_runs_are_counted_and_excluded(self):
        runs = [run("A", 0, 1.0), run("B", 0, 99.0, verified=False), run("A", 1, 1.0), run("B", 1, 2.0)]
        s = compare.summarize(runs, ["A", "B"])["1x1"]
        self.assertEqual(s["verification"], {"A": [2, 2], "B": [1, 2]})
        fom = next(m for m in s["metrics"] if m["metric"].startswith("FOM"))
        self.assertEqual(fom["variants"]["B"]["n"], 1)
        self.assertEqual(fom["variants"]["B"]["max"], 2.0)
        self.assertAlmostEqual(fom["variants"]["B"]["ratio"], 2.0)  # only the pair of repeat 1
        late = dict(run("B", 2, 5.0, verified=False), returncode=124, failure="timed out")
        lines, failed, timed_out = hc.verification_lines([dict(r, failure="check x failed") for r in runs
                                                          if not r["verified"]] + [late])
        self.assertEqual((failed, timed_out), (1, 1))
        self.assertIn("check x failed", lines[0])
        self.assertIn("timed out", lines[1])

    def test_one_table_per_rank_count(self):
        runs = [run("A", 0, 1.0, ranks=1), run("A", 0, 1.9, ranks=2)]
        s = compare.summarize(runs, ["A"])
        self.assertEqual(list(s), ["1x1", "2x1"])
        text = compare.format_summary(s, ["A"], 1)
        self.assertIn("1 rank(s) x 1 thread(s)", text)
        self.assertIn("2 rank(s) x 1 thread(s)", text)
        self.assertIn("FOM [GB/s] (higher is better)", text)

    def test_fom_in_seconds_is_lower_is_better(self):
        self.assertFalse(compare.higher_better("FOM [s]"))
        self.assertTrue(compare.higher_better("FOM [cells/s]"))

    def test_perturbation_rows(self):
        runs = [run("timers off", 0, 10.0), run("timers on", 0, 9.0), run("timers + trace", 0, 8.0)]
        labels = [lab for lab, _ in perturbation.SETTINGS]
        rows = perturbation.perturbation_rows(compare.summarize(runs, labels))
        fom = {r[2].split(" (")[0]: r[-1] for r in rows if r[1].startswith("FOM")}
        self.assertEqual(fom, {"timers off": "reference", "timers on": "-10.00", "timers + trace": "-20.00"})
        verdicts = {r[2].split(" (")[0]: r[-2] for r in rows if r[1].startswith("FOM")}
        self.assertEqual(verdicts["timers on"], "too few repeats")  # one repeat: -10 % says nothing yet


class Sweep(unittest.TestCase):
    def test_curves(self):
        self.assertEqual(sweep.curves("strong", [1, 2], None, []), [("deck size", [(1, []), (2, [])])])
        self.assertEqual(sweep.curves("weak", [1, 4], "g.n", ["10", "20"]),
                         [("g.n grows with ranks", [(1, ["g.n=10"]), (4, ["g.n=20"])])])
        self.assertEqual(len(sweep.curves("strong", [1, 2, 4], "g.n", ["10", "20"])), 2)
        with self.assertRaises(ValueError):
            sweep.curves("weak", [1, 2, 4], "g.n", ["10", "20"])
        with self.assertRaises(ValueError):
            sweep.curves("strong", [1, 2], None, ["10"])

    def test_strong_summary(self):
        cs = sweep.curves("strong", [1, 2, 4], None, [])
        times = {1: [8.0, 9.0, 8.2], 2: [4.4, 4.5, 4.4], 4: [2.5, 2.4, 9.9]}
        runs = [run("x", r, 1.0, t, ranks=p, curve="deck size") for p, ts in times.items() for r, t in enumerate(ts)]
        pts = sweep.summarize(runs, cs, "strong", None)[0]["points"]
        self.assertEqual([p["time"] for p in pts], [8.2, 4.4, 2.5])
        self.assertAlmostEqual(pts[1]["efficiency"], 8.2 / 8.8)
        self.assertAlmostEqual(pts[2]["efficiency"], 8.2 / 10.0)
        self.assertAlmostEqual(pts[2]["speedup"], 8.2 / 2.5)
        # verdicts from each repeat's pair: at 2 ranks 0.91, 1.00, 0.93 (one pair reaches ideal); at 4 all below
        self.assertEqual([p["verdict"] for p in pts], ["reference", "ideal within the noise", "below ideal, resolved"])
        self.assertEqual(stats.scaling_verdict([1.02, 1.1, 1.05]), "above ideal, resolved")
        self.assertEqual(stats.scaling_verdict([0.5, 0.6]), "too few repeats")
        self.assertIn("below ideal, resolved", sweep.format_curves(sweep.summarize(runs, cs, "strong", None), "s"))

    def test_region_time_and_weak_summary(self):
        cs = sweep.curves("weak", [1, 2], None, [])
        runs = [run("x", 0, 1.0, 5.0, ranks=1, curve=cs[0][0], regions={"solve": 1.0}),
                run("x", 0, 1.0, 5.0, ranks=2, curve=cs[0][0], regions={"solve": 1.25})]
        pts = sweep.summarize(runs, cs, "weak", "solve")[0]["points"]
        self.assertAlmostEqual(pts[1]["efficiency"], 0.8)
        self.assertIsNone(sweep.run_time(record(1, 1), "no such region"))


def span(name, cat, t0, t1):
    return gantt.Span(name, cat, t0, t1)


class Gantt(unittest.TestCase):
    # rank 0: step [0,10] compute; step/halo [2,5] comm; step/halo/pack [3,4] compute; step/sum [6,7] comm
    NESTED = [span("step", "compute", 0, 10), span("step/halo", "communication", 2, 5),
              span("step/halo/pack", "compute", 3, 4), span("step/sum", "communication", 6, 7)]

    def test_innermost_span_owns_each_instant(self):
        leaves = gantt.leaf_segments(self.NESTED)
        self.assertEqual([(s.name, s.t0, s.t1) for s in leaves],
                         [("step", 0, 2), ("step/halo", 2, 3), ("step/halo/pack", 3, 4), ("step/halo", 4, 5),
                          ("step", 5, 6), ("step/sum", 6, 7), ("step", 7, 10)])
        u = gantt.utilization(leaves, 0, 12)
        self.assertAlmostEqual(u["compute"], 7.0)
        self.assertAlmostEqual(u["communication"], 3.0)
        self.assertAlmostEqual(u["idle"], 2.0)
        self.assertAlmostEqual(sum(u[c] for c in [*gantt.CATEGORIES, "idle"]), u["window"])

    def test_same_start_goes_to_the_shorter_span_and_gaps_are_idle(self):
        leaves = gantt.leaf_segments([span("a", "compute", 0, 4), span("a/b", "communication", 0, 1),
                                      span("c", "io", 6, 8)])
        self.assertEqual([(s.name, s.t0, s.t1) for s in leaves], [("a/b", 0, 1), ("a", 1, 4), ("c", 6, 8)])
        u = gantt.utilization(leaves, 0, 8)
        self.assertEqual((u["compute"], u["communication"], u["io"], u["idle"]), (3, 1, 2, 2))

    def test_trace_file_in_microseconds_and_report(self):
        events = [{"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "rank 0"}}]
        for rank, shift in [(0, 0.0), (1, 2.0)]:
            for s in self.NESTED:
                events.append({"name": s.name, "cat": s.cat, "ph": "X", "ts": (s.t0 + shift) * 1e6,
                               "dur": (s.t1 - s.t0) * 1e6, "pid": rank, "tid": 0})
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "t.json"
            path.write_text(json.dumps({"traceEvents": events}))
            a = gantt.analyse(path)
        self.assertEqual(a["window"], (0.0, 12.0))
        self.assertEqual(a["spans"], 8)
        self.assertAlmostEqual(a["utilization"][1]["idle"], 2.0)  # rank 1 starts 2 s late
        text = gantt.format_report(a)
        self.assertIn("58.3", text)  # compute share 7 / 12
        self.assertIn("25.0", text)  # communication share 3 / 12
        self.assertIn("step/halo", text)
        short = gantt.format_report(a, max_rows=1)
        self.assertIn("the 1 ranks with the most communication", short)
        self.assertEqual(len([ln for ln in short.splitlines() if ln.startswith(("0 ", "1 "))]), 1)


    def test_a_file_that_is_no_trace_is_refused_naming_what(self):
        # {"traceEvents": "x"} used to end in a traceback; NaN, negative and 1e308 durations were
        # taken (a chart of nothing, or of nonsense).
        cases = {
            '{"traceEvents": "x"}': "'traceEvents' is str, not a list",
            '{"traceEvents": [3]}': "event 0 is int, not an object",
            '[{"ph": "X", "ts": 0, "dur": NaN}]': "NaN is not a JSON number",
            '[{"ph": "X", "ts": 0, "dur": [1, [2]]}]': "'dur' is list of 2 items, not a number",
            '[{"ph": "X", "ts": 0, "dur": 1, "name": {"a": 1}}]': "'name' is dict of 1 item, not a string",
            '[{"ph": "X", "ts": "%s", "dur": 1}]' % ("x" * 5000): "'ts' is '" + "x" * 36 + "..., not a number",  # cut short
            "[" * 1200 + "]" * 1200: "nested too deep",
            '7': "the file holds int, not an object with traceEvents or a list of events",
            '[{"ph": "X", "ts": 0, "dur": -5}]': "'dur' is -5",
            '[{"ph": "X", "ts": 0, "dur": 1e308}]': "'dur' is 1e+308",
            '[{"ph": "X", "ts": "soon", "dur": 1}]': "'ts' is 'soon', not a number",
            '[{"ph": "X", "ts": 0, "dur": 1, "pid": "a"}]': "'pid' is 'a', not an integer",
        }
        with tempfile.TemporaryDirectory() as d:
            for text, message in cases.items():
                path = Path(d) / "t.json"
                path.write_text(text)
                with self.subTest(text=text), self.assertRaises(ValueError) as e:
                    gantt.analyse(path)
                self.assertIn(message, str(e.exception))


class RecordedTraces(unittest.TestCase):
    """Traces of real runs (python/tests/fixtures), checked against sums computed here independently."""

    def check(self, name):
        path = harness_testing.HERE / "fixtures" / name
        events = [e for e in json.loads(path.read_text())["traceEvents"] if e["ph"] == "X"]
        a = gantt.analyse(path)
        t0, t1 = a["window"]
        for rank, u in a["utilization"].items():
            mine = sorted((e["ts"] * 1e-6, (e["ts"] + e["dur"]) * 1e-6) for e in events if e["pid"] == rank)
            covered, end = 0.0, -math.inf  # union of all spans of the rank
            for b, e in mine:
                covered += max(0.0, e - max(b, end))
                end = max(end, e)
            self.assertAlmostEqual(sum(u[c] for c in gantt.CATEGORIES), covered, places=9)
            self.assertAlmostEqual(u["idle"], (t1 - t0) - covered, places=9)
            names = {e["name"] for e in events}
            leaf_comm = sum(e["dur"] * 1e-6 for e in events if e["pid"] == rank and e["cat"] == "communication"
                            and not any(n.startswith(e["name"] + "/") for n in names))
            self.assertAlmostEqual(u["communication"], leaf_comm, places=9)
        return a

    def test_stream_trace(self):
        a = self.check("trace_small.json")
        self.assertEqual(sorted(a["utilization"]), [0, 1])
        self.assertTrue(all(u["communication"] == 0 for u in a["utilization"].values()))

    def test_fft3d_trace_with_nested_communication(self):
        a = self.check("trace_fft3d_2ranks.json")
        self.assertTrue(all(u["communication"] > 0 and u["compute"] > 0 for u in a["utilization"].values()))
        leaves = {s.name for segs in a["leaves"].values() for s in segs}
        self.assertIn("forward/transpose", leaves)
        # the parent region owns no instant inside its children
        for rank, segs in a["leaves"].items():
            kids = [s for s in gantt.load_trace(harness_testing.HERE / "fixtures" / "trace_fft3d_2ranks.json")[rank]
                    if s.name.startswith("forward/")]
            for seg in (s for s in segs if s.name == "forward"):
                self.assertFalse(any(min(seg.t1, k.t1) - max(seg.t0, k.t0) > 1e-12 for k in kids), (rank, seg))


class Roofline(unittest.TestCase):
    """Points from hand-made records of the five runs: intensities by their documented formulas."""
    def records(self, solver="pcg"):
        stream = {"app": "stream", "results": {"kernels": [{"kernel": "copy", "gbs_best": 30.0}, {"kernel": "triad", "gbs_best": 24.0}],
                                               "elements_per_rank": 2 ** 20, "last_level_cache_bytes": 2 ** 23}}
        pst = lambda lt, gf: {"app": "pstswm", "config": {"transform": {"lt": lt}},
                              "results": {"grid": {"truncation": 85}, "flops_per_step": {"legendre": 300.0},
                                          "bytes_per_step": {"legendre": 100.0},
                                          "gflops_per_rank": {"legendre": gf, "dgemm": 48.0 if lt == "gemm" else 0.0}}}
        pop = {"app": "pop", "config": {"solver": {"name": solver, "fused": True, "mapping": "team"}},
               "results": {"kernel_bandwidth_gbs": 15.2, "flops_per_iteration_all_ranks": 31.0,
                           "bytes_per_iteration_all_ranks": 152.0}}
        fft = {"app": "fft3d", "config": {"fft3d": {"nx": 32, "ny": 32, "nz": 32}},
               "results": {"gflops_forward": 5.0, "gflops_inverse": 7.0}}
        return [stream, pst("gemm", 24.0), pst("loop", 6.0), pop, fft]

    def test_points_roofs_and_fractions(self):
        a = roofline.analyse(self.records())
        self.assertEqual((a["triad_gbs"], a["dgemm_gflops"]), (24.0, 48.0))
        self.assertAlmostEqual(a["memory_gbs"], 32.0)  # triad's 24 counted bytes are 32 moved (write-allocate)
        self.assertAlmostEqual(a["ridge_intensity"], 1.5)
        p = {q["kernel"]: q for q in a["points"]}
        self.assertAlmostEqual(p["STREAM triad"]["gflops"], 2.0)  # 2 flops / 24 bytes at 24 GB/s
        self.assertAlmostEqual(p["STREAM triad"]["fraction_of_roof"], 0.75)
        self.assertEqual(p["STREAM triad"]["footprint_bytes"], 24 * 2 ** 20)  # three arrays of doubles
        self.assertFalse(p["STREAM triad"]["in_cache"])  # 24 MiB, the cache 8 MiB
        self.assertAlmostEqual(p["pop PCG (team)"]["intensity"], 31 / 152)
        self.assertAlmostEqual(p["pop PCG (team)"]["gflops"], 15.2 * 31 / 152)
        self.assertAlmostEqual(p["pop PCG (team)"]["fraction_of_roof"], 15.2 / 32)
        self.assertAlmostEqual(p["fft3d 32x32x32"]["intensity"], 5 * 15 / 96)
        self.assertAlmostEqual(p["fft3d 32x32x32"]["gflops"], 6.0)
        self.assertEqual(p["fft3d 32x32x32"]["footprint_bytes"], 32 * 32 ** 3)  # complex in and out
        self.assertAlmostEqual(p["pstswm LT gemm (T85)"]["intensity"], 3.0)
        self.assertAlmostEqual(p["pstswm LT gemm (T85)"]["roof_gflops"], 48.0)  # right of the ridge: DGEMM
        self.assertAlmostEqual(p["pstswm LT loop (T85)"]["fraction_of_roof"], 0.125)
        table = roofline.format_table(a)
        self.assertIn("ridge at 1.50 flop/byte", table)
        self.assertIn("memory 32.0 GB/s moved (STREAM triad 24.0 GB/s as counted", table)
        self.assertRegex(table, r"STREAM triad .* memory")
        self.assertRegex(table, r"pstswm LT gemm \(T85\) .* compute")
        self.assertNotIn("above", table)

    def test_a_point_above_its_roof_says_why(self):
        records = self.records()
        records[3]["results"]["kernel_bandwidth_gbs"] = 40.0  # pop faster than memory: its 152 bytes are in cache
        a = roofline.analyse(records)
        pop = next(p for p in a["points"] if p["kernel"].startswith("pop"))
        self.assertAlmostEqual(pop["fraction_of_roof"], 1.25)
        self.assertIn("pop PCG (team)", roofline.format_table(a))
        self.assertEqual(roofline.above_roof_note(pop, a),
                         "above the DRAM roof: its data (0.000145 MiB) fit in the 8 MiB last-level cache")
        records[3]["results"]["bytes_per_iteration_all_ranks"] = 2.0 ** 30  # out of cache: the bound is in question
        records[3]["results"]["flops_per_iteration_all_ranks"] = 2.0 ** 30 * 31 / 152
        a = roofline.analyse(records)
        pop = next(p for p in a["points"] if p["kernel"].startswith("pop"))
        self.assertFalse(pop["in_cache"])
        self.assertIn("a bound to check", roofline.above_roof_note(pop, a))
        fft = next(p for p in a["points"] if p["kernel"].startswith("fft3d"))
        self.assertIn("above the DGEMM roof", roofline.above_roof_note(dict(fft, intensity=2.0, fraction_of_roof=1.1), a))

    def test_the_repeat_with_the_median_rate_is_used(self):
        pop = self.records()[3]
        pops = [dict(pop, results=dict(pop["results"], kernel_bandwidth_gbs=bw)) for bw in (15.0, 9.0, 12.0, 20.0)]
        self.assertEqual(roofline.median_record("pop", pops[:3])["results"]["kernel_bandwidth_gbs"], 12.0)
        self.assertEqual(roofline.median_record("pop", pops)["results"]["kernel_bandwidth_gbs"], 12.0)  # lower median

    def test_pop_counts_come_from_the_record(self):
        # any solver: the record carries its own counts (the fused-PCG-only constants are gone)
        p = {q["kernel"]: q for q in roofline.analyse(self.records(solver="chrongear"))["points"]}
        self.assertAlmostEqual(p["pop ChronGear (team)"]["intensity"], 31 / 152)
        old = self.records()
        del old[3]["results"]["flops_per_iteration_all_ranks"]  # a record from before the counts
        with self.assertRaisesRegex(ValueError, "flops_per_iteration_all_ranks"):
            roofline.analyse(old)


def in_process(main, argv: list[str]) -> tuple[int, str]:
    """(exit code, stdout and stderr) of a command's main() run here: an exception is a traceback, and fails the test."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        rc = main(argv)
    return rc, out.getvalue()


class HostileJson(unittest.TestCase):
    """Every command that reads a JSON file the user names ends a bad one with one line naming the file and what is
    wrong, exit 2: a 2.4 KB file nested 1,200 deep was a RecursionError traceback in gantt and plot."""
    FILES = {
        "deep.json": "[" * 1200 + "]" * 1200,
        "deep-record.json": '{"app": "comm", "results": ' + "[" * 1200 + "]" * 1200 + "}",
        "not-json.json": "{",
        "nan.json": '{"app": "comm", "results": {"pingpong": [{"bytes": 8, "t_med_us": NaN, "gbs_pair_med": 1}]}}',
        "latin1.json": b'{"app": "\xe9"}',
    }

    def test_one_line_and_exit_2(self):
        with tempfile.TemporaryDirectory() as d:
            png = f"{d}/c.png"
            for name, text in self.FILES.items():
                path = Path(d) / name
                path.write_bytes(text if isinstance(text, bytes) else text.encode())
            for path in [*(Path(d) / name for name in self.FILES), Path(d), Path(d) / "missing.json"]:
                for words in (["gantt", str(path), "--no-plot"], ["plot", "comm", str(path), "--out", png]):
                    with self.subTest(words=words):
                        self.assert_one_line(*in_process(cli.main, words), path)
                with self.subTest(module="plots", path=path):
                    self.assert_one_line(*in_process(plots.main, ["compare", str(path), png]), path)
            # a FIFO without a writer: reading it blocked for ever (in a child, so that a hang fails the test)
            fifo = Path(d) / "fifo.json"
            os.mkfifo(fifo)
            env = dict(os.environ, PYTHONPATH=str(harness_testing.ROOT / "python"))
            for words in (["proxylab_tools.cli", "gantt", str(fifo), "--no-plot"],
                          ["proxylab_tools.cli", "plot", "comm", str(fifo), "--out", png],
                          ["proxylab_tools.plots", "compare", str(fifo), png]):
                with self.subTest(words=words):
                    p = subprocess.run([sys.executable, "-m", *words], capture_output=True, text=True, timeout=30,
                                       env=env)
                    self.assert_one_line(p.returncode, p.stdout + p.stderr, fifo)

    def assert_one_line(self, rc: int, text: str, path):
        text = text.strip()
        self.assertEqual(rc, 2, text)
        self.assertEqual(len(text.splitlines()), 1, text)
        self.assertIn(f"'{path}'", text)

    def test_plot_comm_refuses_a_record_with_nothing_to_draw(self):
        # a record with NaN (null) or empty results gave an empty chart and exit 0
        with tempfile.TemporaryDirectory() as d:
            cases = {
                '{"app": "comm", "results": {}}': "no result to draw",
                '{"app": "comm", "results": {"pingpong": [], "halo": []}}': "no result to draw",
                '{"app": "comm", "results": {"pingpong": [{"bytes": 0, "t_med_us": 1, "gbs_pair_med": 0}]}}':
                    "no result to draw",
                '{"app": "comm", "results": {"pingpong": [{"bytes": 8, "t_med_us": null, "gbs_pair_med": 1}]}}':
                    "results.pingpong[0].t_med_us is None; allowed: a finite number >= 0",
                '{"app": "comm", "results": {"ring": [{"order": "natural", "bytes": 8, "t_med_us": -1, '
                '"gbs_rank_med": 1}]}}': "results.ring[0].t_med_us is -1; allowed: a finite number >= 0",
                '{"app": "comm", "results": {"halo": [{"strategy": 3, "tile": 8, "width": 1, "t_med_us": 1}]}}':
                    "results.halo[0].strategy is 3; allowed: a string",
                '{"app": "comm", "results": {"alltoall": {"a": 1}}}': "results.alltoall is dict of 1 item, not a list",
                '{"app": "comm", "results": {"echo": [7]}}': "results.echo[0] is 7, not an object",
                '{"app": "stream", "results": {}}': "app is 'stream', not 'comm'",
            }
            for text, why in cases.items():
                path = Path(d) / "r.json"
                path.write_text(text)
                with self.subTest(text=text):
                    rc, out = in_process(cli.main, ["plot", "comm", str(path), "--out", f"{d}/r.png"])
                    self.assert_one_line(rc, out, path)
                    self.assertIn(why, out)
                    self.assertFalse((Path(d) / "r.png").exists())


class Common(unittest.TestCase):
    def test_exit_codes(self):
        self.assertEqual(hc.exit_code("completed", 0), 0)
        self.assertEqual(hc.exit_code("completed", 2), 1)
        self.assertEqual(hc.exit_code("interrupted", 0), 130)
        self.assertEqual(hc.exit_code("bad input", 0), 2)
        self.assertEqual(hc.exit_code("completed", 0, 1), 124)  # a run ran past --timeout
        self.assertEqual(hc.exit_code("completed", 1, 1), 1)    # a wrong answer outranks a slow one
        self.assertEqual(hc.exit_code("interrupted", 0, 1), 130)

    def test_results_are_strict_json(self):
        self.assertEqual(hc.strict_json({"a": [1.0, math.nan], "b": {"c": math.inf}}), {"a": [1.0, None], "b": {"c": None}})

    def test_count_list(self):
        self.assertEqual(hc.count_list("1,2,4"), [1, 2, 4])
        self.assertEqual(hc.count_list(" 2 , 6"), [2, 6])
        # what the help documents ('4,...,64', '1,2,4,...,4096') was refused; '1,,2' was taken as 1,2
        self.assertEqual(hc.count_list("4,...,64"), [4, 8, 16, 32, 64])
        self.assertEqual(hc.count_list("1,2,4,...,4096"), [2 ** k for k in range(13)])
        self.assertEqual(hc.count_list("3,...,6,9"), [3, 6, 9])
        self.assertEqual(hc.count_list("5,...,10,...,40"), [5, 10, 20, 40])
        refused = {"": "item 1 is empty", "1,,2": "item 2 is empty", "1,2,": "item 3 is empty",
                   "0,1": "item 1 '0' is not a positive integer", "a": "item 1 'a' is not a positive integer",
                   "-1": "item 1 '-1' is not a positive integer", "1.5": "item 1 '1.5' is not a positive integer",
                   "4_0": "item 1 '4_0' is not a positive integer", "...,4": "'...' needs a count on each side",
                   "4,...": "'...' needs a count on each side", "1,...,...,8": "'...' needs a count on each side",
                   "4,...,60": "'4,...,60': 60 is not 4 times a power of two",
                   "8,...,4": "'8,...,4': the count after '...' must be above the one before it",
                   "2,2": "2 is given twice", "1,2,...,4,2": "2 is given twice"}
        for text, why in refused.items():
            with self.subTest(text=text), self.assertRaises(argparse.ArgumentTypeError) as e:
                hc.count_list(text)
            self.assertIn(f"'{text}': {why}", str(e.exception))
            self.assertIn("allowed: positive integers separated by commas", str(e.exception))

    def test_positive_seconds(self):
        self.assertEqual(hc.positive_seconds("0.5"), 0.5)
        for bad in ["0", "-1", "nan", "inf", "-inf", "x", ""]:  # -1 and 0 were taken, nan ignored
            with self.subTest(bad=bad), self.assertRaises(argparse.ArgumentTypeError) as e:
                hc.positive_seconds(bad)
            self.assertIn(f"'{bad}': allowed: a finite number of seconds above 0", str(e.exception))

    def test_rank_and_timeout_flags_name_the_flag_and_the_value(self):
        for words, flag in ((["model", "pop", "--machine", "xt4", "--ranks", "1,,2"], "--ranks"),
                            (["compare", "pop", "--vary", "a=1", "--threads", "2,,4"], "--threads"),
                            (["sweep", "pop", "--timeout", "nan"], "--timeout"),
                            (["model", "pop", "--machine", "xt4", "--timeout", "-1"], "--timeout"),
                            (["simulate", "pop", "--machine", "xt4", "--ranks", "4,...,60"], "--ranks")):
            with self.subTest(words=words):
                p = harness_testing.cli(words)
                self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
                self.assertRegex(p.stderr, rf"argument {flag}: '{re.escape(words[-1])}': .*allowed: ")


if __name__ == "__main__":
    unittest.main()
