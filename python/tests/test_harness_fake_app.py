"""End-to-end tests of compare / sweep / perturbation through the command line, with a fake binary whose numbers
are known (fake_app.py behind mpiexec), so the printed ratios and efficiencies can be checked exactly, and the
failure paths (failed verification, bad input, Ctrl-C) can be provoked."""
import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import unittest
from pathlib import Path

from harness_testing import ROOT, assert_png, cli, fake_build_dir


class FakeApp(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.build = fake_build_dir()
        cls.deck = str(Path(cls.build.name) / "deck.yaml")

    @classmethod
    def tearDownClass(cls):
        cls.build.cleanup()

    def out(self, name):
        return Path(self.build.name) / name

    def test_compare_ratio_json_png(self):
        out = self.out("cmp")
        p = cli(["compare", "fake", "--deck", self.deck, "--vary", "fake.fom=10,25", "--vary", "fake.seconds=2,1",
                 "--repeat", "2", "--out", str(out), "--quiet"], self.build.name)
        text = p.stdout + p.stderr
        self.assertEqual(p.returncode, 0, text)
        self.assertIn("1 rank(s) x 1 thread(s)", text)
        lines = [ln for ln in p.stdout.splitlines() if "fom=25,seconds=1" in ln]
        self.assertTrue(any(ln.split()[-1] == "2.500" for ln in lines), text)   # FOM ratio
        self.assertTrue(any(ln.split()[-1] == "0.500" for ln in lines), text)   # run time and region ratio
        doc = json.loads((out / "records.json").read_text())
        self.assertEqual(doc["status"], "completed")
        self.assertEqual(len(doc["runs"]), 4 * 2)
        first = [r["variant"] for r in doc["runs"][:8]]
        self.assertEqual(first[:4], ["fom=10,seconds=2", "fom=10,seconds=1", "fom=25,seconds=2", "fom=25,seconds=1"])
        self.assertEqual(first[4:8], first[:4])  # interleaved: every variant once before any repeats
        self.assertEqual(doc["summary"]["configs"]["1x1"]["verification"]["fom=25,seconds=1"], [2, 2])
        self.assertIn("record", doc["runs"][0])
        self.assertEqual(doc["runs"][0]["record"]["timers"][1]["region"], "step/halo")
        assert_png(self, text, out / "compare.png")

    def test_failed_verification_fails_the_comparison(self):
        p = cli(["compare", "fake", "--deck", self.deck, "--vary", "fake.fail=0,1", "--repeat", "1", "--out",
                 str(self.out("fail")), "--quiet", "--no-plot"], self.build.name)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("VERIFICATION FAILED in 1 of 2 run(s)", p.stdout)
        self.assertIn("check 'fake check' failed: value 1.0 limit 0.5", p.stdout)
        self.assertIn("fail=1 0/1", p.stdout)

    def test_bad_input_stops_at_once(self):
        out = self.out("bad")
        p = cli(["compare", "fake", "--deck", self.deck, "--set", "fake.bad=1", "--vary", "fake.fom=1,2", "--out",
                 str(out), "--quiet", "--no-plot"], self.build.name)
        self.assertEqual(p.returncode, 2)
        self.assertIn("fake.bad = 1: allowed 0", p.stdout)
        self.assertIn("stopped on bad input (exit 2) at fom=1, 1 x 1, after 0 finished run(s)", p.stdout)
        self.assertNotIn("VERIFICATION FAILED", p.stdout)  # a typo is bad input, not a failed verification
        self.assertEqual(len(json.loads((out / "records.json").read_text())["runs"]), 1)
        # refused after a finished run (a size the deck cannot take): it said "nothing was measured"
        p = cli(["compare", "fake", "--deck", self.deck, "--vary", "fake.bad=0,1", "--repeat", "1", "--out",
                 str(self.out("bad-later")), "--quiet", "--no-plot"], self.build.name)
        self.assertEqual(p.returncode, 2)
        self.assertIn("stopped on bad input (exit 2) at bad=1, 1 x 1, after 1 finished run(s)", p.stdout)

    def test_bad_options(self):
        p = cli(["compare", "fake", "--deck", self.deck, "--vary", "fake.fom"], self.build.name)
        self.assertEqual(p.returncode, 2)
        self.assertIn("expected KEY=v1,v2", p.stdout)
        p = cli(["compare", "nosuchapp", "--vary", "a=1"], self.build.name)
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown app 'nosuchapp'", p.stdout)
        p = cli(["compare", "fake", "--deck", self.deck, "--vary", "a=1", "--ranks", "0"], self.build.name)
        self.assertEqual(p.returncode, 2)
        p = cli(["compare", "fake", "--deck", self.deck, "--vary", "a=1", "--out", "/dev/null/x"], self.build.name)
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn("--out", p.stdout)

    def test_a_record_that_is_no_record_fails_the_run_without_a_traceback(self):
        # a record nested 1,200 deep (or not UTF-8, or not an object) was a traceback of compare, sweep and roofline
        for kind in ("deep", "latin1", "list"):
            with self.subTest(kind=kind):
                p = cli(["compare", "fake", "--deck", self.deck, "--vary", f"fake.record=none,{kind}", "--repeat", "1",
                         "--out", str(self.out(f"record-{kind}")), "--quiet", "--no-plot"], self.build.name)
                text = p.stdout + p.stderr
                self.assertEqual(p.returncode, 1, text)
                self.assertNotIn("Traceback", text)
                self.assertIn(f"FAILED: record={kind} at 1x1 (repeat 0): exit 3", text)

    def test_sweep_efficiency(self):
        out = self.out("sweep")
        p = cli(["sweep", "fake", "--deck", self.deck, "--ranks", "1,2", "--repeat", "1", "--size-key",
                 "fake.seconds", "--sizes", "8", "--out", str(out), "--quiet", "--no-plot"], self.build.name)
        text = p.stdout + p.stderr
        self.assertEqual(p.returncode, 0, text)
        rows = [ln.split() for ln in p.stdout.splitlines() if ln.startswith("fake.seconds=")]
        self.assertEqual([r[8] for r in rows], ["100.0", "50.0"])  # the same time on 2 ranks: E = 50 %
        self.assertEqual(json.loads((out / "records.json").read_text())["summary"]["curves"][0]["points"][1]["time"], 8)

    def test_runs_csv_has_a_line_per_run(self):
        out = self.out("csv")
        p = cli(["compare", "fake", "--deck", self.deck, "--vary", "fake.fom=1,2", "--repeat", "2", "--out", str(out),
                 "--quiet", "--no-plot"], self.build.name)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        rows = list(csv.DictReader((out / "runs.csv").read_text().splitlines()))
        self.assertEqual(len(rows), 4)
        self.assertEqual(sorted({(r["variant"], r["verified"]) for r in rows}), [("fom=1", "True"), ("fom=2", "True")])
        self.assertEqual({r["app"] for r in rows}, {"fake"})

    def test_perturbation(self):
        out = self.out("pert")
        p = cli(["perturbation", "fake", "--deck", self.deck, "--set", "fake.untimed_factor=1.25", "--repeat", "1",
                 "--out", str(out), "--quiet", "--no-plot"], self.build.name)
        text = p.stdout + p.stderr
        self.assertEqual(p.returncode, 0, text)
        fom = [ln.split()[-1] for ln in p.stdout.splitlines() if "FOM [GB/s]" in ln]
        self.assertEqual(fom, ["reference", "-20.00", "-20.00"], text)  # 10 with timers vs 12.5 without
        runs = json.loads((out / "records.json").read_text())["runs"]
        self.assertEqual([r["extra"][:1] for r in runs[:3]], [["--no-timers"], [], ["--trace"]])

    def test_ctrl_c_keeps_the_records(self):
        out = self.out("interrupt")
        env = dict(os.environ, PYTHONPATH=str(ROOT / "python"), PROXYLAB_BUILD_DIR=self.build.name)
        proc = subprocess.Popen([sys.executable, "-m", "proxylab_tools.cli", "compare", "fake", "--deck", self.deck,
                                 "--set", "fake.sleep=0.4", "--vary", "fake.fom=1,2", "--repeat", "20",
                                 "--out", str(out), "--no-plot"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, start_new_session=True)
        # Ctrl-C once the first run has finished (its progress line), not after a fixed time: on a loaded machine a
        # fixed 2.5 s passed before any run had ended
        seen = []
        for line in proc.stdout:
            seen.append(line)
            if re.search(r"\] [1-9]\d*/\d+ runs", line):
                break
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal does: the whole foreground group
        rest, _ = proc.communicate(timeout=60)
        text = "".join(seen) + rest
        self.assertEqual(proc.returncode, 130, text)
        self.assertIn("interrupted after", text)
        doc = json.loads((out / "records.json").read_text())
        self.assertEqual(doc["status"], "interrupted")
        self.assertGreaterEqual(len(doc["runs"]), 1)
        self.assertLess(len(doc["runs"]), 40)

    def test_ctrl_c_stops_roofline_without_blaming_verification(self):
        # interrupted during its STREAM run, roofline said "stream did not verify" (exit 1)
        for app in ("stream", "pstswm", "pop", "fft3d"):
            shutil.copy(Path(self.build.name) / "bin" / "proxylab-fake", Path(self.build.name) / "bin" / f"proxylab-{app}")
        out = self.out("roofline")
        env = dict(os.environ, PYTHONPATH=str(ROOT / "python"), PROXYLAB_BUILD_DIR=self.build.name, FAKE_APP_SLEEP="30",
                   **self.QUICK_STOP)
        proc = subprocess.Popen([sys.executable, "-m", "proxylab_tools.cli", "roofline", "--out", str(out), "--quick",
                                 "--no-plot"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, start_new_session=True)
        seen = []
        for line in proc.stdout:  # the first run has started
            seen.append(line)
            if "run 1/" in line:
                break
        time.sleep(1)
        os.killpg(proc.pid, signal.SIGINT)
        rest, _ = proc.communicate(timeout=60)
        text = "".join(seen) + rest
        self.assertEqual(proc.returncode, 130, text)
        self.assertIn("interrupted during stream", text)
        self.assertNotIn("did not verify", text)
        self.assertFalse((out / "roofline.json").exists())

    # A job past --timeout is stopped as after Ctrl-C; where its ranks are not told directly (the fake is a Python
    # script, not the binary the front end looks for) it is aborted after the grace period: 1 s here.
    QUICK_STOP = {"PROXYLAB_STOP_GRACE": "1"}

    def test_a_run_past_the_timeout_fails_with_124_and_the_others_run(self):
        # a per-run timeout ended the whole comparison as interrupted (exit 130)
        out = self.out("timeout")
        p = cli(["compare", "fake", "--deck", self.deck, "--vary", "fake.sleep=30,0", "--repeat", "1", "--timeout",
                 "2", "--out", str(out), "--quiet", "--no-plot"], self.build.name, env=self.QUICK_STOP)
        text = p.stdout + p.stderr
        self.assertEqual(p.returncode, 124, text)
        self.assertIn("TIMED OUT: 1 of 2 run(s) stopped after --timeout 2 s", p.stdout)
        self.assertIn("sleep=30 at 1x1 (repeat 0): timed out: stopped after --timeout 2 s", p.stdout)
        doc = json.loads((out / "records.json").read_text())
        self.assertEqual(doc["status"], "completed")
        self.assertEqual([(r["variant"], r["returncode"], r["verified"]) for r in doc["runs"]],
                         [("sleep=30", 124, False), ("sleep=0", 0, True)])  # the run after it ran

    def test_a_run_that_ignores_the_timeouts_stop_is_aborted_after_10_s(self):
        # the abort after a timeout comes at most 10 s later; its message named PROXYLAB_STOP_GRACE's 30 s instead
        p = cli(["compare", "fake", "--deck", self.deck, "--set", "fake.ignore_signals=1", "--vary", "fake.sleep=60",
                 "--repeat", "1", "--timeout", "1", "--out", str(self.out("abort")), "--quiet", "--no-plot"],
                self.build.name, env={"PROXYLAB_STOP_GRACE": "30"})
        text = p.stdout + p.stderr
        self.assertEqual(p.returncode, 124, text)
        self.assertIn("the job did not stop within 10 s (a timeout's grace: at most 10 s) of SIGTERM", text)

    def test_a_counting_run_past_the_timeout_ends_the_model_with_124(self):
        p = cli(["model", "fake", "--deck", self.deck, "--machine", "xt4", "--count-ranks", "1,2", "--set",
                 "fake.sleep=30", "--timeout", "2", "--out", str(self.out("model")), "--no-plot"], self.build.name,
                env=self.QUICK_STOP)
        self.assertEqual(p.returncode, 124, p.stdout + p.stderr)
        self.assertIn("the 1-rank counting run was stopped after --timeout 2 s", p.stdout)

    def test_a_traced_run_past_the_timeout_leaves_no_trace(self):
        # the partial trace of the dropped run was kept as trace-1x1.json, unmarked, and offered to gantt
        out = self.out("trace-timeout")
        p = cli(["perturbation", "fake", "--deck", self.deck, "--set", "fake.trace_sleep=30", "--repeat", "1",
                 "--timeout", "2", "--out", str(out), "--quiet", "--no-plot"], self.build.name, env=self.QUICK_STOP)
        self.assertEqual(p.returncode, 124, p.stdout + p.stderr)
        self.assertIn("no trace kept: no traced run verified", p.stdout)
        self.assertEqual(sorted(f.name for f in out.iterdir()), ["records.json", "runs.csv"])

    def test_a_traced_run_cut_short_by_ctrl_c_leaves_no_trace(self):
        out = self.out("trace-interrupt")
        env = dict(os.environ, PYTHONPATH=str(ROOT / "python"), PROXYLAB_BUILD_DIR=self.build.name,
                   **self.QUICK_STOP)
        proc = subprocess.Popen([sys.executable, "-m", "proxylab_tools.cli", "perturbation", "fake", "--deck",
                                 self.deck, "--set", "fake.trace_sleep=30", "--repeat", "1", "--out", str(out),
                                 "--no-plot"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, start_new_session=True)
        end = time.monotonic() + 60
        while not list(out.glob("trace-1x1.json*")) and time.monotonic() < end:  # the traced run is running
            time.sleep(0.1)
        os.killpg(proc.pid, signal.SIGINT)
        text, _ = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 130, text)
        self.assertEqual(json.loads((out / "records.json").read_text())["status"], "interrupted")
        self.assertEqual(sorted(f.name for f in out.iterdir()), ["records.json", "runs.csv"])


if __name__ == "__main__":
    unittest.main()
