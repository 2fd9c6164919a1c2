"""Running one launched job so that a signal ends it cleanly and nothing outlives the front end.

- The launcher starts in its own session and process group: a terminal's Ctrl-C reaches the front end only,
  which forwards it once, as SIGTERM (which mpiexec, srun and flux all pass to the ranks; srun takes a single
  SIGINT as a request for status), so the ranks stop at their next check, print what they have and write
  their record.
- The front end then waits (PROXYLAB_STOP_GRACE seconds, default 30) for the job to finish writing; after
  that, or at a second Ctrl-C, it aborts the job: SIGINT twice (mpiexec's and srun's "abort"), then SIGKILL
  to the launcher's process group.
- If the front end itself dies (a batch system's kill, a closed terminal), the kernel sends the launcher
  SIGTERM (PR_SET_PDEATHSIG, set in the child before exec), so the ranks stop as after Ctrl-C.

Standard library only (prctl through ctypes; without it, Linux or not, the job still runs).
"""
from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import threading
import time
from dataclasses import dataclass

PR_SET_PDEATHSIG = 1
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def stop_grace() -> float:
    try:
        return max(0.0, float(os.environ.get("PROXYLAB_STOP_GRACE", "30")))
    except ValueError:
        return 30.0


def _die_with_parent_preexec():
    """preexec_fn: ask the kernel for SIGTERM when the front end dies (and check it is not gone already)."""
    parent = os.getpid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        prctl = None

    def preexec():
        if prctl is not None:
            prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent:  # the front end died between fork and prctl
            os._exit(130)
    return preexec


@dataclass
class JobResult:
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    stopped_by: int = 0       # the signal the front end received (0: none)
    aborted: bool = False     # the job had to be killed (grace ran out, or a second signal)
    timed_out: bool = False


class _Stopper:
    """Signal handlers while a job runs: the first signal forwards SIGTERM, a second aborts."""

    def __init__(self, proc: subprocess.Popen):
        self.proc = proc
        self.signal = 0
        self.deadline: float | None = None
        self.abort_now = False
        self.previous = {}

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for sig in STOP_SIGNALS:
                self.previous[sig] = signal.signal(sig, self.handle)
        return self

    def __exit__(self, *exc):
        for sig, handler in self.previous.items():
            signal.signal(sig, handler)

    def handle(self, sig, _frame):
        if self.signal:
            self.abort_now = True
            return
        self.signal = sig
        self.deadline = time.monotonic() + stop_grace()
        forward(self.proc, signal.SIGTERM)


def forward(proc: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def abort(proc: subprocess.Popen, wait: float = 3.0) -> None:
    """SIGINT twice (mpiexec: 'Ctrl-C again to force abort'; srun: two within a second abort the step), then
    SIGKILL to the launcher's process group."""
    for _ in range(2):
        forward(proc, signal.SIGINT)
        time.sleep(0.2)
    try:
        proc.wait(timeout=wait)
    except subprocess.TimeoutExpired:
        pass
    forward(proc, signal.SIGKILL)


def run_job(cmd: list[str], env: dict[str, str], cwd, capture: bool, timeout: float | None = None) -> JobResult:
    """Runs the launch command. capture: stdout and stderr are returned, else they go to the terminal."""
    t0 = time.perf_counter()
    pipe = subprocess.PIPE if capture else None
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=pipe, stderr=pipe, stdin=subprocess.DEVNULL,
                            start_new_session=True, preexec_fn=_die_with_parent_preexec())
    out_parts: list[bytes] = []
    err_parts: list[bytes] = []
    readers = []
    if capture:
        for stream, parts in ((proc.stdout, out_parts), (proc.stderr, err_parts)):
            th = threading.Thread(target=lambda s=stream, p=parts: p.extend(iter(lambda: s.read(65536), b"")),
                                  daemon=True)
            th.start()
            readers.append(th)
    result = JobResult(0, "", "", 0.0)
    end = None if timeout is None else time.monotonic() + timeout
    with _Stopper(proc) as stopper:
        try:
            while proc.poll() is None:
                now = time.monotonic()
                if stopper.abort_now or (stopper.deadline is not None and now > stopper.deadline):
                    result.aborted = True
                    abort(proc)
                    break
                if end is not None and now > end and not result.timed_out:
                    result.timed_out = True  # stop it as after Ctrl-C: the ranks write what they have
                    stopper.deadline = now + min(stop_grace(), 10.0)
                    forward(proc, signal.SIGTERM)
                try:
                    proc.wait(timeout=0.1)
                except subprocess.TimeoutExpired:
                    pass
        finally:
            if proc.poll() is None:  # an exception in the front end itself: the job must not outlive it
                abort(proc, wait=1.0)
            proc.wait()
            for th in readers:
                th.join(timeout=5)
        result.stopped_by = stopper.signal
    result.returncode = proc.returncode
    result.stdout = b"".join(out_parts).decode(errors="replace")
    result.stderr = b"".join(err_parts).decode(errors="replace")
    result.seconds = time.perf_counter() - t0
    return result
