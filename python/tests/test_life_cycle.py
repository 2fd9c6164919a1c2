"""The run contract on the real binaries, directly and through the front end.

Output files: checked before the run (a missing folder, a folder, a pipe without a reader: exit
2 at once), non-regular targets work or are refused and never hang (/dev/stdout into a pipe, /dev/full: exit 3 with
the errno), a failed run leaves no stale record, evh1's density file is checked up front and written whole.
Flags: bad --kokkos-* values and KOKKOS_* variables, a flag the linked Kokkos does not accept, --slow-ranks
beyond the rank count: exit 2 with a message, never std::terminate; changed verify.* limits are named.
Launch: ranks are bound to their own cores by the front end; --version of the binaries and the front end."""
import csv
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

from harness_testing import ROOT

BUILD = Path(os.environ.get("PROXYLAB_BUILD_DIR", ROOT / "build" / "openmp"))
MPIEXEC = os.environ.get("PROXYLAB_MPIEXEC", "mpiexec")
STREAM = ["--deck", "inputs/stream/small.yaml", "--set", "stream.n=65536", "--set", "stream.iterations=3", "--quiet"]
ENV = dict(os.environ, PYTHONPATH=str(ROOT / "python"), OMP_NUM_THREADS="1")


def sh(command: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """A shell pipeline from the repository root (a hang fails the test through the timeout)."""
    return subprocess.run(["bash", "-c", command], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=timeout)


def direct(ranks: int = 2) -> str:
    return f"{MPIEXEC} -n {ranks} {BUILD}/bin/proxylab-stream {' '.join(STREAM)}"


def front(ranks: int = 1, extra: str = "") -> str:
    return f"{sys.executable} -m proxylab_tools.cli run stream --ranks {ranks} --oversubscribe {extra} {' '.join(STREAM)}"


@unittest.skipUnless((BUILD / "bin" / "proxylab-pstswm").exists(), "pstswm is not built")
class ProgressLines(unittest.TestCase):
    """Progress is redrawn in place (carriage returns) only on a terminal: into a file each update is a line."""
    RUN = "run pstswm --deck T42L18-case2 --oversubscribe"  # about 10 s; stopped after its first update (at 2 s)

    def stopped_run(self, command: str, env: dict | None = None) -> str:
        """The progress output of COMMAND, stopped by SIGTERM once its first update has come (a fixed stop after 3 s
        came before any update on a loaded machine, where start-up took more than a second)."""
        p = subprocess.Popen(["bash", "-c", command + " 2>&1 >/dev/null"], cwd=ROOT, env=dict(ENV, **(env or {})),
                             stdout=subprocess.PIPE, start_new_session=True)
        text, deadline = b"", time.monotonic() + 60
        while b"step " not in text and time.monotonic() < deadline:
            chunk = os.read(p.stdout.fileno(), 4096)  # as written: text mode would turn each \r into \n
            if not chunk:
                break
            text += chunk
        os.killpg(p.pid, signal.SIGTERM)
        rest, _ = p.communicate(timeout=60)
        text = (text + rest).decode(errors="replace")
        self.assertIn("step ", text, text[-1000:])
        return text

    def test_a_file_gets_one_line_per_update(self):
        for name, cmd in (("direct", f"{BUILD}/bin/proxylab-pstswm --deck inputs/pstswm/T42L18-case2.yaml"),
                          ("front end", f"{sys.executable} -m proxylab_tools.cli {self.RUN}")):
            text = self.stopped_run(cmd)
            self.assertNotIn("\r", text, name)
            self.assertRegex(text, r"(?m)^  step \d+/\d+ .*s$", name)

    def test_a_terminal_gets_the_line_redrawn(self):
        # the front end says so to the ranks, whose stderr is its pipe
        text = self.stopped_run(f"{BUILD}/bin/proxylab-pstswm --deck inputs/pstswm/T42L18-case2.yaml",
                                {"PROXYLAB_PROGRESS_TERMINAL": "1"})
        self.assertIn("\r  step ", text)


@unittest.skipUnless((BUILD / "bin" / "proxylab-stream").exists(), "stream is not built")
class OutputTargets(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_stdout_into_a_pipe_works(self):
        for name, cmd in (("direct", direct()), ("front end", front())):
            p = sh(f"{cmd} --json /dev/stdout | cat")
            self.assertEqual(p.returncode, 0, f"{name}: {p.stdout[-2000:]}{p.stderr[-2000:]}")
            text = p.stdout[p.stdout.index("{"):]
            self.assertEqual(json.loads(text)["status"], "completed", name)

    def test_stdout_redirected_to_a_file_keeps_every_line(self):
        log = self.dir / "run.log"
        p = sh(f"{direct()} --json /dev/stdout > {log}")
        self.assertEqual(p.returncode, 0, p.stderr)
        text = log.read_text()
        self.assertIn("VERIFICATION: PASSED", text)  # the lines before the record are still there
        self.assertEqual(json.loads(text[text.index("{"):])["status"], "completed")

    def test_the_front_end_gives_the_record_alone_on_stdout(self):
        # --json /dev/stdout --quiet printed the FOM and VERIFICATION lines before the record: no JSON parser took it.
        for target in ("-", "/dev/stdout"):
            p = sh(f"{front()} --json {target} | python3 -m json.tool")
            self.assertEqual(p.returncode, 0, f"{target}: {p.stdout[-2000:]}{p.stderr[-2000:]}")
            self.assertEqual(json.loads(p.stdout)["status"], "completed", target)
            self.assertIn("VERIFICATION: PASSED", p.stderr, target)  # the run's lines went to stderr
            self.assertFalse((ROOT / "-").exists(), "'-' was taken for a file name")

    def test_full_device_is_a_runtime_failure(self):
        for name, cmd in (("direct", direct()), ("front end", front())):
            t = time.monotonic()
            p = sh(f"{cmd} --json /dev/full", timeout=60)
            self.assertEqual(p.returncode, 3, f"{name}: {p.stdout}{p.stderr}")
            self.assertIn("'/dev/full': writing failed: No space left on device (errno 28)", p.stdout + p.stderr)
            self.assertLess(time.monotonic() - t, 30)

    def test_refused_before_the_run(self):
        fifo = self.dir / "pipe"
        os.mkfifo(fifo)
        cases = [(f"--json {self.dir}/missing/r.json", "folder that does not exist"),
                 (f"--json {self.dir}", "is a folder, not a file"),
                 (f"--json {fifo}", "pipe with no reader"),
                 (f"--trace {self.dir}", "is a folder, not a file"),
                 (f"--json {self.dir}/same.json --trace {self.dir}/same.json", "are the same file")]
        for flag, message in cases:
            for name, cmd in (("direct", direct()), ("front end", front())):
                p = sh(f"{cmd} {flag}", timeout=60)
                self.assertEqual(p.returncode, 2, f"{name} {flag}: {p.stdout}{p.stderr}")
                self.assertIn(message, p.stdout + p.stderr, f"{name} {flag}")
                self.assertNotIn("VERIFICATION", p.stdout, f"{name} {flag}: it ran")

    def test_a_deck_path_too_long_for_the_system(self):
        # A --deck path over 4096 bytes used to end in a traceback of the front end.
        p = sh(front() + " --deck " + "a/" * 2100 + "x.yaml")  # the last --deck wins
        self.assertEqual(p.returncode, 2, p.stdout[-500:] + p.stderr[-500:])
        self.assertNotIn("Traceback", p.stderr)
        self.assertIn("--deck", p.stderr)

    def test_empty_paths_are_refused(self):
        # --json '' used to run to the end, exit 0, no record anywhere.
        for cmd in (front() + " --json ''", direct(1) + " --json ''", front() + " --deck ''"):
            p = sh(cmd)
            self.assertEqual(p.returncode, 2, cmd + p.stdout + p.stderr)
            self.assertIn("'': the path is empty", p.stdout + p.stderr)
            self.assertNotIn("VERIFICATION", p.stdout)

    def test_a_deck_from_a_pipe(self):
        # --deck /dev/stdin used to fail with a path '/proc/<pid>/fd/pipe:[...]'.
        p = sh(f"printf 'stream:\n  n: 4096\n  iterations: 2\n' | {sys.executable} -m proxylab_tools.cli run stream "
               "--deck /dev/stdin --quiet --json /dev/stdout | python3 -c "
               "'import json,sys; t=sys.stdin.read(); r=json.loads(t[t.index(\"{\"):]); "
               "print(r[\"config\"][\"stream\"][\"n\"], r[\"verification\"][\"passed\"])'")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(p.stdout.split()[-2:], ["4096", "True"])

    def test_csv_gets_a_line_per_run(self):
        table = self.dir / "runs.csv"
        for _ in range(2):
            p = sh(f"{front()} --csv {table}")
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        rows = list(csv.DictReader(table.read_text().splitlines()))
        self.assertEqual([(r["app"], r["ranks"], r["verified"], r["fom_unit"]) for r in rows],
                         [("stream", "1", "True", "GB/s")] * 2)
        self.assertGreater(float(rows[0]["fom"]), 0)
        p = sh(f"{front()} --csv {ROOT}/inputs/stream/small.yaml")  # never over an input
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn("an output may not replace an input", p.stdout + p.stderr)

    def test_failed_run_leaves_no_stale_record(self):
        for name, cmd in (("direct", direct()), ("front end", front())):
            record = self.dir / f"{name.replace(' ', '-')}.json"
            record.write_text('{"status": "completed", "from": "an earlier run"}')
            p = sh(f"{cmd} --json {record} --set stream.nope=1")
            self.assertEqual(p.returncode, 2, f"{name}: {p.stdout}{p.stderr}")
            self.assertFalse(record.exists(), f"{name}: the earlier run's record is still there")
            p = sh(f"{cmd} --json {record}")
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertEqual(json.loads(record.read_text())["status"], "completed")
            self.assertEqual(sorted(x.name for x in self.dir.iterdir() if x.name.startswith(".")), [],
                             "a temporary file was left behind")

    def test_versions(self):
        p = sh(f"{BUILD}/bin/proxylab-stream --version")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"^proxylab-stream \d+\.\d+\S* \(git [0-9a-f]{40}|unknown|none")
        self.assertIn("MPI: ", p.stdout)
        p = sh(f"{sys.executable} -m proxylab_tools.cli --version")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"^proxylab \d+\.\d+")


@unittest.skipUnless((BUILD / "bin" / "proxylab-stream").exists() and (BUILD / "bin" / "proxylab-pop").exists(),
                     "stream and pop are not built")
class Flags(unittest.TestCase):
    def test_the_binaries_informational_flags_through_the_front_end_exit_0(self):
        # run --help suggests `-- --help-deck`: the text came, then exit 3 ("no rank wrote a record")
        for flag, text in (("--help-deck", "stream.n"), ("--version", "proxylab-stream")):
            p = sh(f"{sys.executable} -m proxylab_tools.cli run stream -- {flag}")
            self.assertEqual(p.returncode, 0, f"{flag}: {p.stdout[-1000:]}{p.stderr[-1000:]}")
            self.assertIn(text, p.stdout, flag)
            self.assertNotIn("no rank wrote a record", p.stderr, flag)

    def test_bad_kokkos_values_are_bad_input(self):
        threads_flag = "--kokkos-num-threads"  # what Kokkos >= 3.7 accepts (the binaries' --help names it)
        p = sh(f"{BUILD}/bin/proxylab-stream --help")
        if "--kokkos-threads=N" in p.stdout:
            threads_flag = "--kokkos-threads"
        other = "--kokkos-threads" if threads_flag == "--kokkos-num-threads" else "--kokkos-num-threads"
        cases = [(f"{threads_flag}=abc", "takes an integer >= 1"), (f"{threads_flag}=0", "takes an integer >= 1"),
                 (f"{other}=2", f"use {threads_flag}=N"), ("--kokkos-device-id=q", "takes an integer >= 0"),
                 ("--kokkos-disable-warnings=maybe", "true/false"),
                 # a Kokkos Tools library that does not load: Kokkos only warns and runs unprofiled (was exit 0)
                 ("--kokkos-tools-libs=/nonexistent/libkp.so", "'/nonexistent/libkp.so' does not")]
        for flag, message in cases:
            p = sh(f"{direct()} {flag}")
            self.assertEqual(p.returncode, 2, f"{flag}: {p.stdout}{p.stderr}")
            self.assertIn(message, p.stderr, flag)
            self.assertEqual(p.stderr.count("bad input"), 1, f"{flag}: one message, not one per rank")
        p = sh(f"KOKKOS_NUM_THREADS=x {direct()}")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("KOKKOS_NUM_THREADS='x'", p.stderr)
        p = sh(f"KOKKOS_TOOLS_LIBS=/nonexistent/libkp.so {direct()}")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("KOKKOS_TOOLS_LIBS='/nonexistent/libkp.so'", p.stderr)

    def test_slow_ranks_must_exist(self):
        p = sh(f"{direct(2)} --slow-ranks 7")
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn("--slow-ranks: rank 7 does not exist; allowed: 0 to 1", p.stderr)

    def test_changed_verification_limits_are_named(self):
        with tempfile.TemporaryDirectory() as tmp:
            p = sh(f"{MPIEXEC} -n 1 {BUILD}/bin/proxylab-pop --deck inputs/pop/small.yaml --quiet "
                   f"--set verify.error_tol=0.5 --json {tmp}/r.json")
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertIn("verification limits changed from the defaults: verify.error_tol=0.5 [default 0.0]\n"
                          "VERIFICATION: PASSED\n", p.stdout)
            changed = json.loads(Path(f"{tmp}/r.json").read_text())["verification"]["changed_limits"]
            self.assertEqual(changed, [{"key": "verify.error_tol", "value": 0.5, "default": 0.0}])
            p = sh(f"{MPIEXEC} -n 1 {BUILD}/bin/proxylab-pop --deck inputs/pop/small.yaml --quiet")
            self.assertIn("VERIFICATION: PASSED\n", p.stdout)


@unittest.skipUnless((BUILD / "bin" / "proxylab-evh1").exists(), "evh1 is not built")
class DensityFile(unittest.TestCase):
    def test_checked_before_the_run_and_written_whole(self):
        with tempfile.TemporaryDirectory() as tmp:
            cmd = f"{MPIEXEC} -n 2 {BUILD}/bin/proxylab-evh1 --deck inputs/evh1/demo.yaml --quiet"
            t = time.monotonic()
            p = sh(f"{cmd} --set output.density_file={tmp}/missing/rho.bin")
            self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
            self.assertIn("output.density_file", p.stdout + p.stderr)
            self.assertNotIn("VERIFICATION", p.stdout)
            self.assertLess(time.monotonic() - t, 30)
            p = sh(f"{cmd} --set output.density_file={tmp}/rho.bin")
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            meta = json.loads(Path(f"{tmp}/rho.bin.json").read_text())
            ny, nx = meta["shape"]
            self.assertEqual(Path(f"{tmp}/rho.bin").stat().st_size, 8 * nx * ny)
            self.assertEqual(sorted(x.name for x in Path(tmp).iterdir()), ["rho.bin", "rho.bin.json"])

    def test_relative_paths_are_the_users(self):
        # A relative output.density_file used to go to the repository root (the ranks ran there),
        # --json and --trace to the user's folder. Now all of them go to the folder the front end runs in, and the
        # deck is still found by its name from the repository root.
        with tempfile.TemporaryDirectory() as tmp:
            p = subprocess.run([sys.executable, "-m", "proxylab_tools.cli", "run", "evh1", "--deck",
                                "inputs/evh1/test-sedov.yaml", "--set", "output.density_file=rho.bin", "--json",
                                "run.json", "--quiet"], cwd=tmp, env=ENV, capture_output=True, text=True, timeout=120)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertEqual(sorted(x.name for x in Path(tmp).iterdir()), ["rho.bin", "rho.bin.json", "run.json"])
            self.assertFalse((ROOT / "rho.bin").exists())

    @unittest.skipUnless((BUILD / "bin" / "proxylab-pop").exists(), "pop is not built")
    def test_pop_operator_files_checked_before_the_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            p = sh(f"{MPIEXEC} -n 2 {BUILD}/bin/proxylab-pop --deck inputs/pop/small.yaml --quiet "
                   f"--set output.operator_file={tmp}/missing/a.mtx")
            self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
            self.assertIn("output.operator_file", p.stderr)
            self.assertNotIn("VERIFICATION", p.stdout)


@unittest.skipUnless((BUILD / "bin" / "proxylab-stream").exists() and len(os.sched_getaffinity(0)) >= 2,
                     "stream is not built, or fewer than 2 cores")
class Binding(unittest.TestCase):
    """The front end binds each rank to its own cores (mpiexec -bind-to core:T) and spreads its threads; the record
    shows where each rank ran. --oversubscribe switches binding off."""

    def record(self, extra: str) -> dict:
        with tempfile.TemporaryDirectory() as tmp:
            env = {k: v for k, v in ENV.items() if k not in ("OMP_PROC_BIND", "OMP_PLACES", "PROXYLAB_LAUNCHER")}
            cmd = (f"{sys.executable} -m proxylab_tools.cli run stream --ranks 2 --launcher mpiexec {extra} "
                   f"{' '.join(STREAM)} --json {tmp}/r.json")
            p = subprocess.run(["bash", "-c", cmd], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            return json.loads(Path(f"{tmp}/r.json").read_text())

    def test_bound_ranks_do_not_share_cores(self):
        rec = self.record("")
        placement = rec["provenance"]["placement"]
        self.assertEqual([p["rank"] for p in placement], [0, 1])
        cpus = [set(p["cpus"].split(",")) for p in placement]
        self.assertFalse(cpus[0] & cpus[1], f"ranks share a core: {placement}")
        self.assertEqual(rec["provenance"]["environment"].get("OMP_PROC_BIND"), "spread")
        self.assertTrue(all(p["host"] for p in placement))

    def test_oversubscribed_runs_are_unbound(self):
        rec = self.record("--oversubscribe")
        self.assertEqual(rec["provenance"]["environment"].get("OMP_PROC_BIND"), "false")
        placement = rec["provenance"]["placement"]
        self.assertEqual(placement[0]["cpus"], placement[1]["cpus"])  # both may run anywhere


if __name__ == "__main__":
    unittest.main()
