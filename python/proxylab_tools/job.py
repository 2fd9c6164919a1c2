"""Running one launched job so that a signal ends it cleanly and nothing outlives the front end.

- The launcher starts in its own session and process group: a terminal's Ctrl-C reaches the front end only,
  which forwards it once, as SIGTERM, so the ranks stop at their next check, print what they have and write
  their record. Every rank that runs on this machine below the front end gets it from the front end itself, each
  as soon as it catches SIGTERM (/proc/PID/status SigCgt: the proxies install their handler first thing): a signal
  in the first instants is neither lost nor fatal. With mpiexec or none on one node that is all: mpiexec is never
  signalled (MPICH's Hydra asserted, or hung with the ranks in MPI_Init, when signalled while starting them).
  Other launchers (srun, flux, templates) pass it on to ranks elsewhere (srun takes a single SIGINT as a request
  for status, hence SIGTERM): they get it when not every rank was found here, and not before LAUNCHER_SETTLE
  seconds after the launch (Hydra behind a template, signalled at once, dropped it or hung).
- The front end then waits (PROXYLAB_STOP_GRACE seconds, default 30) for the job to finish writing; after
  that, or at a second Ctrl-C, it aborts the job: SIGINT twice (mpiexec's and srun's "abort"), then SIGKILL
  to the launcher's process group.
- The front end is a child subreaper (PR_SET_CHILD_SUBREAPER): whatever the launcher started and left behind
  becomes its child, and when a job ends every process left below the front end is killed, however many the
  launcher kept spawning.
- If the front end itself dies (a batch system's kill, a closed terminal), the kernel sends the launcher
  SIGTERM (PR_SET_PDEATHSIG, set in the child before exec), so the ranks stop as after Ctrl-C.
- The job's output passes through the front end (captured, or copied to its own stdout and stderr): when the
  reader of that output goes away (`| head -1`), the job runs on and writes its record instead of dying of
  SIGPIPE.

Standard library only (prctl through ctypes; without it, Linux or not, the job still runs).
"""
from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from .user_text import quote

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
# Seconds from the launch before a launcher is signalled: Hydra signalled while it started the ranks hung with them
# in MPI_Init (behind a launch template; mpiexec itself is never signalled).
LAUNCHER_SETTLE = 5.0


def _prctl():
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def become_subreaper() -> None:
    """Orphans of the jobs this process starts become its children (Linux; elsewhere nothing happens)."""
    prctl = _prctl()
    if prctl is not None:
        prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _parent(pid: str) -> int | None:
    """The parent of a live process, None when it is gone or a zombie."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return None if fields[0] == "Z" else int(fields[1])


def descendants(root: int) -> list[int]:
    """PIDs of the live processes below `root` (Linux /proc; empty elsewhere)."""
    children: dict[int, list[int]] = {}
    try:
        entries = [e for e in os.listdir("/proc") if e.isdigit()]
    except OSError:
        return []
    for pid in entries:
        parent = _parent(pid)
        if parent is not None:
            children.setdefault(parent, []).append(int(pid))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def catches(pid: int, sig: int) -> bool:
    """The process has a handler for `sig` (its SigCgt mask in /proc/PID/status)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("SigCgt:"):
                return bool(int(line.split()[1], 16) >> (sig - 1) & 1)
    except (OSError, ValueError, IndexError):
        pass
    return False


def executable(pid: int) -> str:
    try:
        return os.path.realpath(os.readlink(f"/proc/{pid}/exe"))
    except OSError:
        return ""


def kill_leftovers(rounds: int = 50) -> None:
    """SIGKILL every process still below this one (a launcher's orphans included), until none is left, and reap
    the orphans handed to us."""
    for _ in range(rounds):
        left = descendants(os.getpid())
        if not left:
            return
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        _reap_orphans()
        time.sleep(0.05)


def _reap_orphans() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def stop_grace() -> float:
    try:
        return max(0.0, float(os.environ.get("PROXYLAB_STOP_GRACE", "30")))
    except ValueError:
        return 30.0


def _die_with_parent_preexec():
    """preexec_fn: ask the kernel for SIGTERM when the front end dies (and check it is not gone already)."""
    parent = os.getpid()
    prctl = _prctl()

    def preexec():
        # The launcher starts with the default dispositions and nothing blocked (run_job blocks the stop signals
        # across the fork: see there).
        for sig in STOP_SIGNALS:
            signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
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
    """Signal handlers while a job runs: the first signal forwards SIGTERM, a second aborts. SIGTERM goes to each
    rank found on this machine (a descendant running ranks_exe); to the launcher's group as well, unless every rank
    runs here, once the launcher has had LAUNCHER_SETTLE s to start them and not all `ranks` were found here."""

    def __init__(self, proc: subprocess.Popen, ranks_exe: str | None, ranks: int, all_local: bool):
        self.proc = proc
        self.ranks_exe = os.path.realpath(ranks_exe) if ranks_exe else None
        self.ranks = ranks
        self.launched = time.monotonic()
        # the launcher's part in a stop: "spared" (every rank runs here and is told directly), "due", then "told"
        self.launcher = "spared" if all_local and self.ranks_exe is not None else "due"
        self.signal = 0
        self.deadline: float | None = None
        self.grace, self.grace_from = 0.0, ""  # set by stop()
        self.abort_now = False
        self.previous = {}
        self.stopped: set[int] = set()  # ranks told to stop

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
        self.stop(sig)

    def stop(self, sig: int, grace: float | None = None) -> None:
        """Ask the job to stop (a signal, a timeout): SIGTERM now, and to local ranks that start later; aborted when
        it has not stopped after `grace` seconds (default PROXYLAB_STOP_GRACE)."""
        self.signal = self.signal or sig
        self.grace = stop_grace() if grace is None else grace
        self.grace_from = "PROXYLAB_STOP_GRACE" if grace is None else "a timeout's grace: at most 10 s"
        self.deadline = time.monotonic() + self.grace
        self.pass_on()

    def why_abort(self) -> str:
        if self.abort_now:
            return "a second signal"
        told = f"{len(self.stopped)} of {self.ranks} rank(s) told here" + (", and the launcher"
                                                                            if self.launcher == "told" else "")
        return f"the job did not stop within {self.grace:g} s ({self.grace_from}) of SIGTERM ({told})"

    def pass_on(self) -> None:
        """Once stopping (called again and again): SIGTERM to every local rank not yet told, once it catches SIGTERM
        (until then it is starting up); to the launcher as the class says."""
        if self.deadline is None:
            return
        if self.ranks_exe is not None:
            for pid in descendants(os.getpid()):
                if pid not in self.stopped and executable(pid) == self.ranks_exe and catches(pid, signal.SIGTERM):
                    try:
                        os.kill(pid, signal.SIGTERM)
                        self.stopped.add(pid)
                    except (ProcessLookupError, PermissionError):
                        pass
        if (self.launcher == "due" and len(self.stopped) < self.ranks
                and time.monotonic() >= self.launched + LAUNCHER_SETTLE):
            forward(self.proc, signal.SIGTERM)
            self.launcher = "told"


def _say(text: str) -> None:
    """A line on the front end's stderr that cannot fail the stop (a reader that has gone is no error here)."""
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


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


def _copy(fd: int, parts: list[bytes] | None, to_fd: int) -> None:
    """Reads the job's stream until it closes: into `parts`, or copied to the front end's own `to_fd` as it comes.
    When `to_fd`'s reader has gone (EPIPE), the rest is read and dropped (and to_fd pointed at /dev/null, so the
    front end's own last lines cannot fail either): the job is never stopped by a closed pipe."""
    broken = False
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            break
        if parts is not None:
            parts.append(chunk)
        elif not broken:
            try:
                os.write(to_fd, chunk)
            except BrokenPipeError:
                broken = True
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, to_fd)
                os.close(devnull)
            except OSError:
                broken = True
    os.close(fd)


def run_job(cmd: list[str], env: dict[str, str], cwd, capture: bool, timeout: float | None = None,
            ranks_exe: str | None = None, ranks: int = 1, all_local: bool = False, stdout_to: int = 1) -> JobResult:
    """Runs the launch command. capture: stdout and stderr are returned, else they are copied to the front end's
    (the job's stdout to descriptor `stdout_to`: 2 when the front end's stdout carries something else).
    ranks_exe: the binary of the job's `ranks` ranks (those on this machine get the signals directly); all_local:
    every rank runs here, so the launcher itself is never signalled (see the module's text).
    LaunchError when the launcher cannot be started at all."""
    from .launch import LaunchError  # (launch.py does not import this module)
    t0 = time.perf_counter()
    become_subreaper()
    # The stop signals wait while the launcher is forked, until the job's handlers are in place: Python notes a
    # signal in process memory, which fork copies, so one arriving mid-fork ran the front end's handler inside the
    # child too (a KeyboardInterrupt traceback from the child, about one run in five of the signals test).
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, start_new_session=True,
                                preexec_fn=_die_with_parent_preexec())
    except OSError as e:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        raise LaunchError(f"cannot start the launcher {quote(cmd[0])}: {e.strerror or e}")
    out_parts: list[bytes] = []
    err_parts: list[bytes] = []
    readers = []
    for stream, parts, to_fd in ((proc.stdout, out_parts, stdout_to), (proc.stderr, err_parts, 2)):
        th = threading.Thread(target=_copy, args=(os.dup(stream.fileno()), parts if capture else None, to_fd),
                              daemon=True)
        stream.close()
        th.start()
        readers.append(th)
    result = JobResult(0, "", "", 0.0)
    end = None if timeout is None else time.monotonic() + timeout
    with _Stopper(proc, ranks_exe, ranks, all_local) as stopper:
        try:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a signal that came during the launch arrives here
            while proc.poll() is None:
                now = time.monotonic()
                if stopper.abort_now or (stopper.deadline is not None and now > stopper.deadline):
                    result.aborted = True
                    _say(f"proxylab: {stopper.why_abort()}; aborting the job\n")
                    abort(proc)
                    break
                if end is not None and now > end and not result.timed_out:
                    result.timed_out = True  # stop it as after Ctrl-C: the ranks write what they have
                    stopper.stop(0, grace=min(stop_grace(), 10.0))
                stopper.pass_on()
                try:
                    proc.wait(timeout=0.1)
                except subprocess.TimeoutExpired:
                    pass
        finally:
            if proc.poll() is None:  # an exception in the front end itself: the job must not outlive it
                abort(proc, wait=1.0)
            proc.wait()
            kill_leftovers()
            for th in readers:
                th.join(timeout=5)
        result.stopped_by = stopper.signal
    result.returncode = proc.returncode
    result.stdout = b"".join(out_parts).decode(errors="replace")
    result.stderr = b"".join(err_parts).decode(errors="replace")
    result.seconds = time.perf_counter() - t0
    return result
