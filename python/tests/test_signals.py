"""Signals end a job cleanly, everywhere, on the real binaries:

- through the front end: SIGINT (a terminal's Ctrl-C) or SIGTERM (a batch system's) during pop's solve, a comm probe's
  inner loop, pop's set-up, pstswm's Gauss points or fft3d's FFTW planning ends the job with exit 130 within
  seconds, the results so far printed and the record written with status 'interrupted', and no rank process left
  (found by PID through a marker in their environment);
- killing the front end (SIGKILL: a batch system's hard kill) takes the job with it;
- a job that ignores the forwarded signal is aborted after the grace period (PROXYLAB_STOP_GRACE);
- through mpiexec directly: SIGINT and SIGTERM to mpiexec, same record and no rank left.
"""
import itertools
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import uuid
from pathlib import Path

from harness_testing import ROOT, fake_build_dir

BUILD = Path(os.environ.get("PROXYLAB_BUILD_DIR", ROOT / "build" / "openmp"))
MPIEXEC = os.environ.get("PROXYLAB_MPIEXEC", "mpiexec")
SLOW_STOP = 15  # seconds after which a job still running gets its processes described (tests allow 20)
LONG_POP = ["--deck", "inputs/pop/x1.yaml", "--set", "solver.crit=0", "--set", "solver.max_iters=100000000"]
LONG_RING = ["--set", "probe.tests=ring", "--set", "probe.repetitions=1000000", "--set", "ring.bytes=8",
             "--set", "ring.partners=2"]


def processes_with(mark: str) -> list[int]:
    """PIDs of live processes whose environment carries PROXYLAB_TEST_MARK=mark (the launcher and the ranks)."""
    found = []
    needle = f"PROXYLAB_TEST_MARK={mark}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle in (entry / "environ").read_bytes().split(b"\0"):
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if state != "Z":
                    found.append(int(entry.name))
        except OSError:
            continue
    return found


def describe_processes(mark: str) -> str:
    """One line per live process of the job: what it runs, its state, where it sleeps in the kernel and its signal
    masks (pending, blocked, caught): what a stop that hangs shows about who missed it."""
    lines = []
    for pid in processes_with(mark):
        try:
            exe = os.path.basename(os.readlink(f"/proc/{pid}/exe"))
            status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                          if ":" in line)
            wchan = Path(f"/proc/{pid}/wchan").read_text()
            threads = len(os.listdir(f"/proc/{pid}/task"))
        except OSError:
            continue
        masks = " ".join(f"{key}={status.get(key, '?').strip()}" for key in ("SigPnd", "ShdPnd", "SigBlk", "SigCgt"))
        lines.append(f"  {pid} {exe} ppid={status.get('PPid', '?').strip()} {status.get('State', '?').strip()} "
                     f"wchan={wchan} threads={threads} {masks}")
    return "\n".join(lines) or "  (none)"


class Job:
    """A command started in its own session (as a shell starts a foreground job), with a marker in its environment."""

    def __init__(self, argv: list[str], env_extra: dict | None = None):
        self.mark = uuid.uuid4().hex
        env = dict(os.environ, PYTHONPATH=str(ROOT / "python"), PROXYLAB_TEST_MARK=self.mark, **(env_extra or {}))
        self.proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        self.output = ""
        self.slow_stop = ""  # the job's processes as they were when it had not stopped SLOW_STOP s after a signal

    def wait_for_ranks(self, count: int, timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if len(processes_with(self.mark)) >= count:
                return
            time.sleep(0.2)
        raise AssertionError(f"the job never had {count} processes")

    def signal_group(self, sig: int) -> float:
        """As a terminal does: to the job's process group (the front end's own, not the launcher's)."""
        os.killpg(self.proc.pid, sig)
        return time.monotonic()

    def finish(self, timeout: float) -> int:
        try:
            out, _ = self.proc.communicate(timeout=min(timeout, SLOW_STOP))
        except subprocess.TimeoutExpired:
            self.slow_stop = f"not stopped after {SLOW_STOP} s:\n{describe_processes(self.mark)}"
            try:
                out, _ = self.proc.communicate(timeout=max(0.0, timeout - SLOW_STOP))
            except subprocess.TimeoutExpired:
                self.kill()  # a failed test leaves no job running (a lost signal left solves running for hours)
                raise
        self.output = out.decode(errors="replace")
        return self.proc.returncode

    def kill(self) -> None:
        for pid in processes_with(self.mark):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.communicate()

    def report(self) -> str:
        """For a failure's message: the state of a stop that was slow, then the end of the job's output."""
        return f"{self.slow_stop}\njob output (end):\n{self.output[-3000:]}"

    def assert_no_process_left(self, test, timeout: float = 15) -> None:
        end = time.monotonic() + timeout
        while processes_with(self.mark) and time.monotonic() < end:
            time.sleep(0.2)
        left = processes_with(self.mark)
        for pid in left:  # do not leave them to the next test
            os.kill(pid, signal.SIGKILL)
        test.assertEqual(left, [], f"processes left running: {left}\n{self.output[-2000:]}")


def front_end(app: str, args: list[str], ranks: int = 2) -> list[str]:
    return [sys.executable, "-m", "proxylab_tools.cli", "run", app, "--ranks", str(ranks), "--launcher", "mpiexec",
            "--oversubscribe", *args]


class InterruptedRuns(unittest.TestCase):
    """A front-end job and its record, and what an interrupted run must look like (no tests of its own)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.record = Path(self.tmp.name) / "run.json"

    def tearDown(self):
        self.tmp.cleanup()

    def check_interrupted(self, job: Job, code: int, t_signal: float, what: str) -> dict:
        self.assertEqual(code, 130, job.output[-3000:])
        self.assertLess(time.monotonic() - t_signal, 20, f"{what}: the job took too long to stop\n{job.report()}")
        self.assertIn("INTERRUPTED: results below cover the part that ran", job.output)
        self.assertIn("VERIFICATION:", job.output)
        record = json.loads(self.record.read_text())
        self.assertEqual(record["status"], "interrupted")
        job.assert_no_process_left(self)
        return record


@unittest.skipUnless((BUILD / "bin" / "proxylab-pop").exists() and (BUILD / "bin" / "proxylab-comm").exists(),
                     "pop and comm are not built")
class FrontEndSignals(InterruptedRuns):
    def test_ctrl_c_during_the_solve(self):
        job = Job(front_end("pop", [*LONG_POP, "--json", str(self.record)]))
        job.wait_for_ranks(3)
        time.sleep(3)
        t = job.signal_group(signal.SIGINT)
        record = self.check_interrupted(job, job.finish(60), t, "pop solve")
        self.assertGreater(record["results"]["iterations"], 0)

    def test_sigterm_inside_a_probe_loop(self):
        job = Job(front_end("comm", [*LONG_RING, "--json", str(self.record)]))
        job.wait_for_ranks(3)
        time.sleep(2)
        t = job.signal_group(signal.SIGTERM)
        self.check_interrupted(job, job.finish(60), t, "comm ring")
        self.assertIn("interrupted inside a sub-test", job.output)

    def test_sigterm_during_set_up(self):
        job = Job(front_end("pop", ["--deck", "inputs/pop/tenth.yaml", "--json", str(self.record)]))
        job.wait_for_ranks(3)
        time.sleep(0.5)
        t = job.signal_group(signal.SIGTERM)
        self.check_interrupted(job, job.finish(90), t, "pop tenth set-up")

    def test_killing_the_front_end_ends_the_job(self):
        job = Job(front_end("pop", LONG_POP))
        job.wait_for_ranks(3)
        time.sleep(1)
        os.kill(job.proc.pid, signal.SIGKILL)  # no chance to forward anything: the kernel's PDEATHSIG must act
        job.finish(30)
        job.assert_no_process_left(self, timeout=20)


@unittest.skipUnless((BUILD / "bin" / "proxylab-pstswm").exists() and (BUILD / "bin" / "proxylab-fft3d").exists(),
                     "pstswm and fft3d are not built")
class LongSetUp(InterruptedRuns):
    """SIGTERM inside set-up work that runs for minutes ended the job only when the front end's grace ran out (30 s,
    no record): pstswm's Gauss points at grid.nlat=100000 (a loop of O(nlat^2)) and fft3d's FFTW_PATIENT planning,
    which cannot look at the stop flag (fftw_planning.hpp cuts it short)."""

    def sigterm_during_set_up(self, app: str, args: list[str], delay: float, what: str) -> None:
        job = Job(front_end(app, [*args, "--json", str(self.record)]))
        job.wait_for_ranks(3)
        time.sleep(delay)  # the ranks are inside the long part by then
        t = job.signal_group(signal.SIGTERM)
        self.check_interrupted(job, job.finish(60), t, what)

    def test_sigterm_while_pstswm_computes_its_gauss_points(self):
        self.sigterm_during_set_up("pstswm", ["--deck", "inputs/pstswm/small-case6.yaml", "--set", "grid.nlat=100000"],
                                   2, "pstswm Gauss points")

    def test_sigterm_while_fftw_plans_patiently(self):
        self.sigterm_during_set_up("fft3d", ["--deck", "inputs/fft3d/128cube.yaml", "--set", "fft3d.planning=patient"],
                                   4, "fft3d FFTW_PATIENT planning")


@unittest.skipUnless((BUILD / "bin" / "proxylab-pop").exists(), "pop is not built")
class SignalsAtAnyMoment(unittest.TestCase):
    """A signal in the first second used to be lost (SIGINT at 0.2 s: the whole solve ran), fatal to the
    front end (SIGTERM very early: exit 143, no message, an earlier record left) or a traceback (SIGINT at 0.05 s).
    Through the `proxylab` wrapper, as a user starts it: SIGINT and SIGTERM at 0.05, 0.2, 0.5, 1 and 5 s end the run
    with exit 130, and either a record that says 'interrupted' or none (the earlier run's record removed), and no
    process left. With mpiexec, and with a launch template naming it (as ctest's PROXYLAB_LAUNCHER does): a signal
    forwarded to Hydra while it started the ranks was lost, and the run went on until the grace ran out."""

    LAUNCHERS = {"mpiexec": "mpiexec", "template": f"{MPIEXEC} -n {{ranks}}"}

    def test_sigint_and_sigterm_from_the_first_instant(self):
        with tempfile.TemporaryDirectory() as tmp:
            record = Path(tmp) / "run.json"
            for (name, launcher), delay, sig in itertools.product(self.LAUNCHERS.items(), (0.05, 0.2, 0.5, 1.0, 5.0),
                                                                  (signal.SIGINT, signal.SIGTERM)):
                with self.subTest(launcher=name, delay=delay, signal=sig.name):
                    record.write_text('{"status": "completed", "from": "an earlier run"}')
                    job = Job([str(ROOT / "proxylab"), "run", "pop", "--ranks", "2", "--oversubscribe",
                               "--launcher", launcher, *LONG_POP, "--json", str(record)])
                    time.sleep(delay)
                    t = job.signal_group(sig)
                    code = job.finish(60)
                    self.assertEqual(code, 130, job.output[-3000:])
                    self.assertLess(time.monotonic() - t, 20, job.report())
                    self.assertNotIn("Traceback", job.output)
                    if record.exists():
                        self.assertEqual(json.loads(record.read_text())["status"], "interrupted", job.output)
                    job.assert_no_process_left(self)

    def test_a_closed_pipe_does_not_lose_the_run(self):
        # `./proxylab run ... | head -1` used to exit 243 (SIGPIPE) with no message and no record.
        with tempfile.TemporaryDirectory() as tmp:
            record = Path(tmp) / "run.json"
            p = subprocess.run(f"'{ROOT / 'proxylab'}' run pop --json '{record}' | head -1; exit ${{PIPESTATUS[0]}}",
                               shell=True, executable="/bin/bash", capture_output=True, text=True, timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(len(p.stdout.splitlines()), 1)
            self.assertTrue(json.loads(record.read_text())["verification"]["passed"])


class Escalation(unittest.TestCase):
    def test_a_job_that_ignores_the_signal_is_aborted(self):
        build = fake_build_dir()
        self.addCleanup(build.cleanup)
        job = Job([sys.executable, "-m", "proxylab_tools.cli", "run", "fake", "--launcher", "mpiexec", "--set",
                   "fake.sleep=120", "--set", "fake.ignore_signals=1"],
                  {"PROXYLAB_BUILD_DIR": build.name, "PROXYLAB_STOP_GRACE": "2"})
        job.wait_for_ranks(2)
        time.sleep(1)
        t = job.signal_group(signal.SIGINT)
        self.assertEqual(job.finish(60), 130, job.output)
        self.assertLess(time.monotonic() - t, 20, job.report())
        self.assertIn("the job did not stop within 2 s (PROXYLAB_STOP_GRACE)", job.output)
        job.assert_no_process_left(self)


@unittest.skipUnless((BUILD / "bin" / "proxylab-comm").exists(), "comm is not built")
class DirectMpiexec(unittest.TestCase):
    """mpiexec -n 2 proxylab-comm ...: the ranks get the signal from mpiexec and must stop in the inner loop."""

    def run_direct(self, sig: int) -> tuple[Job, int, dict]:
        with tempfile.TemporaryDirectory() as tmp:
            record = Path(tmp) / "run.json"
            job = Job([MPIEXEC, "-n", "2", str(BUILD / "bin" / "proxylab-comm"), *LONG_RING, "--json", str(record)],
                      {"OMP_NUM_THREADS": "1", "OMP_PROC_BIND": "false"})
            job.wait_for_ranks(3)
            time.sleep(2)
            t = time.monotonic()
            os.kill(job.proc.pid, sig)  # to mpiexec, as kill(1) or a batch system would
            code = job.finish(60)
            self.assertLess(time.monotonic() - t, 20, job.report())
            self.assertTrue(record.exists(), job.output[-3000:])
            doc = json.loads(record.read_text())
        job.assert_no_process_left(self)
        return job, code, doc

    def test_sigint(self):
        job, _, doc = self.run_direct(signal.SIGINT)  # mpiexec's own exit code is not trusted (0 here)
        self.assertEqual(doc["status"], "interrupted")
        self.assertIn("INTERRUPTED", job.output)

    def test_sigterm(self):
        job, _, doc = self.run_direct(signal.SIGTERM)  # mpiexec returned 130 or 0 for the same 130s of the ranks
        self.assertEqual(doc["status"], "interrupted")
        self.assertIn("INTERRUPTED", job.output)


class WrapperSignals(unittest.TestCase):
    """The `proxylab` wrapper notes a signal that comes before Python has its handlers and hands it on. One that came
    while the wrapper ran a command of its own (its `env --block-signal` probe, about 1 ms) was noted after the
    wrapper had already decided what to export: lost, the run went on (found as solves left running for hours by
    SignalsAtAnyMoment on a loaded machine). Here the probe is made slow, and the signal lands inside it."""

    def test_a_signal_during_the_wrappers_own_commands_is_not_lost(self):
        with tempfile.TemporaryDirectory() as tmp:
            stub = Path(tmp) / "env"  # `env ... true` (the probe) takes a second; anything else is the real env
            stub.write_text('#!/bin/bash\nif [ "${!#}" = true ]; then sleep 1; fi\nexec /usr/bin/env "$@"\n')
            stub.chmod(0o755)
            for sig in (signal.SIGINT, signal.SIGTERM):
                with self.subTest(signal=sig.name):
                    env = dict(os.environ, PATH=f"{tmp}:{os.environ['PATH']}")
                    proc = subprocess.Popen([str(ROOT / "proxylab"), "run", "stream", "--dry-run"], cwd=ROOT, env=env,
                                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
                    time.sleep(0.5)
                    os.killpg(proc.pid, sig)
                    out, _ = proc.communicate(timeout=30)
                    self.assertEqual(proc.returncode, 130, out.decode(errors="replace"))


if __name__ == "__main__":
    unittest.main()
