"""End-to-end: ./proxylab compare on the real STREAM probe (needs the build: PROXYLAB_BUILD_DIR, set by ctest),
and ./proxylab gantt on the committed trace of a real 2-rank STREAM run."""
import json
import os
import re
import tempfile
import unittest
from pathlib import Path

from harness_testing import HERE, assert_png, cli

FIXTURE = HERE / "fixtures" / "trace_small.json"


def stream_build(test) -> str:
    build = os.environ.get("PROXYLAB_BUILD_DIR")
    test.assertTrue(build and (Path(build) / "bin" / "proxylab-stream").exists(),
                    "set PROXYLAB_BUILD_DIR to a build folder with bin/proxylab-stream (ctest does)")
    return build


class CompareStream(unittest.TestCase):
    def test_a_run_past_the_timeout_is_124_and_the_others_are_kept(self):
        # the binary, stopped at the timeout, writes an 'interrupted' record: that made the whole compare 130
        # 8000 iterations over 3 x 32 MiB take minutes on any machine; 5 take a second
        with tempfile.TemporaryDirectory() as d:
            out = Path(d) / "cmp"
            p = cli(["compare", "stream", "--deck", "inputs/stream/small.yaml", "--set", "stream.n=4194304",
                     "--vary", "stream.iterations=5,8000", "--repeat", "1", "--timeout", "10", "--out", str(out),
                     "--no-plot", "--quiet"], stream_build(self))
            text = p.stdout + p.stderr
            self.assertEqual(p.returncode, 124, text)
            self.assertIn("iterations=8000 at 1x1 (repeat 0): timed out: stopped after --timeout 10 s", text)
            runs = json.loads((out / "records.json").read_text())["runs"]
            self.assertEqual([(r["returncode"], r["verified"], r["record"]["status"]) for r in runs],
                             [(0, True, "completed"), (124, False, "interrupted")])

    def test_perturbation_keeps_the_verified_trace_only(self):
        with tempfile.TemporaryDirectory() as d:
            out = Path(d) / "pert"
            p = cli(["perturbation", "stream", "--deck", "inputs/stream/small.yaml", "--set", "stream.n=65536",
                     "--set", "stream.iterations=5", "--repeat", "2", "--out", str(out), "--no-plot", "--quiet"],
                    stream_build(self))
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertEqual(sorted(f.name for f in out.iterdir()), ["records.json", "runs.csv", "trace-1x1.json"])
            p = cli(["gantt", str(out / "trace-1x1.json"), "--no-plot"])
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertIn("triad", p.stdout)

    def test_mapping_flat_vs_team_at_1_and_2_ranks(self):
        build = stream_build(self)
        with tempfile.TemporaryDirectory() as d:
            out = Path(d) / "cmp"
            p = cli(["compare", "stream", "--deck", "inputs/stream/small.yaml", "--set", "stream.n=65536",
                     "--vary", "stream.mapping=flat,team", "--ranks", "1,2", "--repeat", "2", "--out", str(out)], build)
            text = p.stdout + p.stderr
            self.assertEqual(p.returncode, 0, text)
            for ranks in (1, 2):
                self.assertIn(f"{ranks} rank(s) x 1 thread(s); 2 repeat(s) interleaved; verified: mapping=flat 2/2, "
                              "mapping=team 2/2", text)
            self.assertRegex(text, r"FOM \[GB/s\] \(higher is better\)\s+mapping=flat\s+2\s+\S+\s+\S+\s+\S+\s+"
                                   r"reference\s+1\.000")
            # 2 repeats: 2 pairs, too few for a verdict (3)
            self.assertRegex(text, r"\n\s+mapping=team\s+2\s+[\d.e+-]+\s+[\d.e+-]+\s+[\d.e+-]+\s+too few repeats\s+"
                                   r"\d+\.\d{3}\n")
            for region in ("copy", "mul", "add", "triad", "dot"):
                self.assertIn(f"region {region} [s]", text)
            self.assertIn("[compare] 8/8 runs, 0 left, elapsed", text)  # the progress line
            doc = json.loads((out / "records.json").read_text())
            self.assertEqual(doc["app"], "stream")
            self.assertEqual(len(doc["runs"]), 8)
            self.assertTrue(all(r["verified"] and r["record"]["verification"]["passed"] for r in doc["runs"]))
            self.assertEqual([r["record"]["config"]["stream"]["mapping"] for r in doc["runs"][:4]],
                             ["flat", "team", "flat", "team"])
            self.assertEqual({r["record"]["provenance"]["ranks"] for r in doc["runs"]}, {1, 2})
            fom = doc["summary"]["configs"]["2x1"]["metrics"][0]
            self.assertEqual(fom["metric"], "FOM [GB/s]")
            v = fom["variants"]["mapping=team"]
            self.assertLessEqual(v["min"], v["median"])
            self.assertLessEqual(v["median"], v["max"])
            assert_png(self, text, out / "compare.png")


class GanttFixture(unittest.TestCase):
    def test_utilization_of_a_recorded_trace(self):
        with tempfile.TemporaryDirectory() as d:
            png = Path(d) / "g.png"
            p = cli(["gantt", str(FIXTURE), "--out", str(png)])
            text = p.stdout + p.stderr
            self.assertEqual(p.returncode, 0, text)
            self.assertIn("ui.perfetto.dev", text)
            self.assertIn("2 rank(s), 50 spans", text)
            rows = [ln.split() for ln in text.splitlines() if re.match(r"^[01]\s+\d", ln)]
            self.assertEqual(len(rows), 2, text)
            for row in rows:
                busy, comm, other, idle = map(float, row[1:5])
                self.assertAlmostEqual(busy + comm + other + idle, 100.0, delta=0.2)
                self.assertGreater(busy, 0.0)
                self.assertEqual(comm, 0.0)  # STREAM has no communication regions
            for region in ("copy", "mul", "add", "triad", "dot"):
                self.assertRegex(text, rf"\n{region}\s+compute")
            assert_png(self, text, png)

    def test_no_chart_without_matplotlib_is_not_a_failure(self):
        # gantt exited 1 when it could not draw (roofline, compare, sweep exit 0): its report is its result
        import argparse
        import contextlib
        import io
        from unittest import mock

        from proxylab_tools import harness_gantt, plots
        with tempfile.TemporaryDirectory() as d, mock.patch.object(plots, "plot_python", return_value=None):
            args = argparse.Namespace(trace=str(FIXTURE), out=str(Path(d) / "g.png"), color_by="category",
                                      all_ranks=False, no_plot=False)
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
                status = harness_gantt.main(args)
        self.assertEqual(status, 0, printed.getvalue())
        self.assertIn("no PNG: matplotlib not found", printed.getvalue())

    def test_not_a_trace(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            f.write("{not json")
            f.flush()
            p = cli(["gantt", f.name])
        self.assertEqual(p.returncode, 2)
        self.assertIn("cannot read trace", p.stdout)


if __name__ == "__main__":
    unittest.main()
