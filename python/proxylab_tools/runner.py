"""Running proxylab binaries: where they are, how a run is launched, what a run returns.

Standard library only. Every command of the front end (run, demo, compare, sweep, perturbation, roofline)
goes through run_app(), so the launch line and environment (launch.py), the signal handling (job.py) and
the JSON record are handled in one place. The binary always writes its record to a private temporary file;
the front end reads it there, decides the exit code from it (not from the launcher's: mpiexec returns 0 after
a forwarded Ctrl-C), and delivers it to the user's --json path (output_files.py).
"""
from __future__ import annotations

import json
import os
import select
import shutil
import stat
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from . import job, output_files, run_files
from .launch import Launch, LaunchError, LaunchOptions, cores_available
from .user_text import quote

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_PRESET = "openmp"


def app_names(listing: Path = ROOT / "miniapps" / "apps.txt") -> list[str]:
    """The proxies in display order: the first word of each line of miniapps/apps.txt, the list CMakeLists.txt
    builds from (installed as share/proxylab/miniapps/apps.txt)."""
    lines = listing.read_text().splitlines()
    return [line.split()[0] for line in lines if line.strip() and not line.lstrip().startswith("#")]


APPS = app_names()  # those whose binary exists are used
# The probes live under miniapps/probes/: "probes-comm" and "probes-stream" name them too.
ALIASES = {"probes-comm": "comm", "probes-stream": "stream"}


def canonical_app(app: str) -> str:
    return ALIASES.get(app, app)


def installed_bin_dir() -> Path | None:
    """The binaries' directory when this package runs from a `cmake --install` prefix (ROOT is then
    PREFIX/share/proxylab and its install-layout.json says where bin/ is), else None (a source checkout)."""
    layout = ROOT / "install-layout.json"
    if not layout.is_file():
        return None
    return (ROOT / json.loads(layout.read_text())["bindir"]).resolve()


def front_end() -> Path:
    """The `proxylab` command itself: PREFIX/bin/proxylab in an install, ROOT/proxylab in a checkout."""
    installed = installed_bin_dir()
    return (installed if installed else ROOT) / "proxylab"


def install_hint(package: str) -> str:
    """How the user gets a Python package an optional feature needs (charts: matplotlib; machine files: pyyaml):
    an install has no `./proxylab setup`."""
    if installed_bin_dir():
        return f"pip install {package}"
    return f"./proxylab setup (it installs ci/requirements.txt into .deps/venv), or pip install {package}"


def build_dir(preset: str = DEFAULT_PRESET) -> Path:
    """build/<preset>, or PROXYLAB_BUILD_DIR when set (ctest points it at its own build tree)."""
    if os.environ.get("PROXYLAB_BUILD_DIR"):
        return Path(os.environ["PROXYLAB_BUILD_DIR"]).resolve()
    return ROOT / "build" / preset


def binary(app: str, preset: str = DEFAULT_PRESET) -> Path:
    installed = installed_bin_dir()
    bin_dir = installed if installed and not os.environ.get("PROXYLAB_BUILD_DIR") else build_dir(preset) / "bin"
    return bin_dir / f"proxylab-{canonical_app(app)}"


def built_apps(preset: str = DEFAULT_PRESET) -> list[str]:
    return [a for a in APPS if binary(a, preset).exists()]


def default_deck(app: str) -> Path | None:
    """The small deck the demo uses: inputs/<app>/demo.yaml, else small.yaml."""
    for name in ("demo.yaml", "small.yaml", "default.yaml"):
        p = ROOT / "inputs" / canonical_app(app) / name
        if p.exists():
            return p
    return None


def is_app(app: str, preset: str = DEFAULT_PRESET) -> bool:
    """A proxy proxylab knows, or any binary of the build folder (the harness tests' fake app)."""
    return canonical_app(app) in APPS or binary(app, preset).exists()


def resolve_deck(app: str, deck: str | os.PathLike | None) -> Path | None:
    """The deck a user names, as a path the ranks find from any folder (the one resolver of every command): a path
    from the current folder, a path from ROOT (inputs/pop/x1.yaml, as the docs write them, from anywhere), or a name
    under ROOT/inputs/<app>/ ("x1" or "x1.yaml", also in an installed prefix); None: the app's default deck. Anything
    else is returned as given, for the binary to report."""
    if not deck:
        return default_deck(app)
    try:
        if Path(deck).exists():  # a directory too: the binary says why it is no deck
            return Path(deck).absolute()  # not resolved: /dev/stdin stays /dev/stdin
        folder = ROOT / "inputs" / canonical_app(app)
        for p in (ROOT / deck, folder / deck, folder / f"{os.fspath(deck)}.yaml"):
            if p.is_file():
                return p
    except OSError:  # a name the system refuses (too long, ...): the binary says why
        pass
    return Path(deck)


def missing_deck(app: str, deck: str | None) -> str:
    """'' when the deck a user names exists (or none is named), else a message naming the decks there are."""
    found = resolve_deck(app, deck)
    if found is None or found.exists():
        return ""
    names = sorted(p.stem for p in (ROOT / "inputs" / canonical_app(app)).glob("*.yaml"))
    return (f"deck {quote(deck)} not found: a file, or a name in {ROOT / 'inputs' / canonical_app(app)}"
            f"{' (' + ', '.join(names) + ')' if names else ''}")


def unknown_app_message(app: str, preset: str = DEFAULT_PRESET) -> str:
    return f"unknown app {quote(app)}: one of {', '.join(APPS)} (and no {binary(app, preset)})"


def output_path(path: str | Path | None) -> str | None:
    """An output the binary writes (--trace): relative to the user's current folder, not the repository root."""
    return str(Path(path).absolute()) if path else None


# Exit codes the front end gives a job (the binaries' own: 0 verified, 1 failed, 2 bad input, 3 runtime failure).
EXIT_INTERRUPTED = 130
EXIT_TIMEOUT = 124


@dataclass
class RunResult:
    app: str
    ranks: int
    threads: int
    deck: str
    sets: list[str]
    returncode: int          # the job's exit code, decided from the record (see job_exit_code)
    seconds: float
    stdout: str = ""
    stderr: str = ""
    record: dict | None = None
    command: list[str] = field(default_factory=list)
    launcher_returncode: int | None = None

    @property
    def verified(self) -> bool:
        """Exit 0 and the record's verdict; without a record, the printed one (the output was captured)."""
        if self.returncode != 0:
            return False
        if self.record is not None:
            return bool(self.record.get("verification", {}).get("passed"))
        return "VERIFICATION: PASSED" in self.stdout

    @property
    def fom(self) -> tuple[float | None, str, str]:
        """(value, unit, name) from the JSON record."""
        if not self.record:
            return None, "", ""
        f = self.record.get("fom", {})
        return f.get("value"), f.get("unit", ""), f.get("name", "")



EXIT_BAD_INPUT = 2
EXIT_RUNTIME_FAILURE = 3


def job_exit_code(record: dict | None, launcher_rc: int, stopped_by: int, timed_out: bool) -> int:
    """130 when the job was stopped by a signal; 124 when its time ran out (its record then says 'interrupted': the
    ranks were stopped as after Ctrl-C); 130 when its record says 'interrupted'; else the record's verdict (0 verified,
    1 not); a launcher failure other than those (a crash after the record was written) stays a failure. Without a
    record: the binaries' own bad-input and runtime-failure codes (2, 3: they said why), else 3 (the launcher failed,
    or the job died or ended without a record: job_failure() says how)."""
    if stopped_by:
        return EXIT_INTERRUPTED
    if timed_out:
        return EXIT_TIMEOUT
    if (record or {}).get("status") == "interrupted":
        return EXIT_INTERRUPTED
    if record is None:
        return launcher_rc if launcher_rc in (EXIT_BAD_INPUT, EXIT_RUNTIME_FAILURE) else EXIT_RUNTIME_FAILURE
    verdict = 0 if record.get("verification", {}).get("passed") else 1
    return launcher_rc if launcher_rc not in (0, 1, EXIT_INTERRUPTED) else verdict


def job_failure(result: "RunResult") -> str:
    """What went wrong, for a job that ended without a record and said nothing of its own (exit 2 and 3 are the
    binaries' messages); '' otherwise."""
    rc = result.launcher_returncode
    if result.record is not None or result.returncode != EXIT_RUNTIME_FAILURE or rc == EXIT_RUNTIME_FAILURE:
        return ""
    how = f"was killed by signal {-rc}" if rc is not None and rc < 0 else f"exited with {rc}"
    return (f"the job ({' '.join(result.command[:1])} ...) {how} and no rank wrote a record (exit 3): the launcher "
            "failed, or the ranks died before the end")


def default_options(ranks: int, threads: int) -> LaunchOptions:
    """Library callers (benchmark scripts) that pass no launch options: the environment's launcher, binding unless
    the run needs more cores than there are (then unbound, as --oversubscribe)."""
    return LaunchOptions(oversubscribe=ranks * threads > cores_available())


def app_arguments(deck=None, sets=(), json_path=None, trace=None, quiet=False, extra=()) -> list[str]:
    args: list[str] = []
    if deck:
        args += ["--deck", str(deck)]
    for s in sets:
        args += ["--set", s]
    if json_path:
        args += ["--json", str(json_path)]
    if trace:
        args += ["--trace", str(trace)]
    if quiet:
        args.append("--quiet")
    return args + list(extra)


def launch_line(app: str, launch: Launch, deck=None, sets=(), json_path=None, trace=None, quiet=False, extra=(),
                preset: str = DEFAULT_PRESET, base_env: dict[str, str] | None = None) -> str:
    """What run_app would start, as a shell line (binding variables, launcher, binary, arguments), the record going
    straight to json_path; nothing is checked or built (run --dry-run, jobscript)."""
    return launch.shell_line(str(binary(app, preset)), app_arguments(deck, sets, json_path, trace, quiet, extra),
                             base_env)


def app_command(app: str, launch: Launch, deck=None, sets=(), json_path=None, trace=None, quiet=False, extra=(),
                preset: str = DEFAULT_PRESET, exe: str | Path | None = None) -> list[str]:
    exe = Path(exe) if exe else binary(app, preset)
    if not exe.exists():
        raise SystemExit(f"proxylab: {exe} not built (run ./proxylab build); built apps: {', '.join(built_apps(preset)) or 'none'}")
    return launch.command(str(exe), app_arguments(deck, sets, json_path, trace, quiet, extra))


def run_app(app: str, ranks: int = 1, threads: int = 1, deck=None, sets=(), json_path=None, trace=None, quiet=False,
            extra=(), capture: bool = True, preset: str = DEFAULT_PRESET, timeout: float | None = None,
            exe: str | Path | None = None, launch: LaunchOptions | None = None) -> RunResult:
    """Runs one proxy (exe: an explicit binary instead of the preset's); with capture the output is returned.
    json_path: where the record goes (besides RunResult.record). LaunchError (bad input) before anything starts;
    output_files.OutputError when the record cannot be delivered."""
    plan = Launch(ranks, threads, launch if launch is not None else default_options(ranks, threads))
    plan.check()
    plan.check_launcher_program()
    if json_path:
        why = output_files.problem(json_path)
        if why:
            raise LaunchError(f"--json {why}")
    deck = resolve_deck(app, deck) if deck else None
    run_files.require_distinct([run_files.RunFile("--deck", deck, run_files.INPUT),
                                run_files.RunFile("--json", json_path, run_files.OUTPUT),
                                run_files.RunFile("--trace", trace, run_files.OUTPUT)])
    private = tempfile.mkdtemp(prefix=f"proxylab-{canonical_app(app)}-")
    record_path = os.path.join(private, "record.json")
    try:
        handed = readable_deck(deck, private)
        # What the binary cannot see for itself: the user's name of a deck it reads from a copy, and the file the
        # record goes to (the binary writes it to record_path), which it keeps apart from its deck keys' files.
        told = ["--deck-name", str(deck)] if handed != deck else []
        if json_path and run_files.replaceable(json_path):
            told += ["--json-target", str(Path(json_path).absolute())]
        cmd = app_command(app, plan, handed, sets, record_path, trace, quiet, [*told, *extra], preset, exe)
        ranks_exe = str(Path(exe) if exe else binary(app, preset))
        record_on_stdout = bool(json_path) and output_files.descriptor_of(json_path) == 1
        res = job.run_job(cmd, job_environment(plan, capture), working_directory(), capture, timeout, ranks_exe,
                          ranks=ranks, all_local=plan.local, stdout_to=2 if record_on_stdout else 1)
        try:
            text = Path(record_path).read_text()
            record = json.loads(text) if text.strip() else None
        except (OSError, ValueError, RecursionError):  # not UTF-8, not JSON, nested beyond the parser
            record = None
        if not isinstance(record, dict):  # what is no JSON object is no record (the job then fails: exit 3)
            text, record = "", None
    finally:  # also on Ctrl-C: no temporary record is left behind
        shutil.rmtree(private, ignore_errors=True)
    stderr = res.stderr + ("timeout" if res.timed_out and capture else "")
    rc = job_exit_code(record, res.returncode, res.stopped_by, res.timed_out)
    result = RunResult(app, ranks, threads, str(deck or ""), list(sets), rc, res.seconds, res.stdout, stderr, record,
                       cmd, res.returncode)
    if json_path:
        if record is not None:
            output_files.atomic_write(json_path, text)
        else:
            output_files.remove_stale_record(json_path)
    return result


def job_environment(plan: Launch, capture: bool) -> dict[str, str]:
    """The launch's environment; the ranks write into the front end's pipe, so they are told when what they print
    reaches a terminal (PROXYLAB_PROGRESS_TERMINAL=1: progress redrawn in place, else one line per update)."""
    env = plan.env()
    if not capture and sys.stderr.isatty():
        env["PROXYLAB_PROGRESS_TERMINAL"] = "1"
    return env


def working_directory() -> str:
    """Where the ranks run: the user's current folder, so that relative paths in deck keys (output.density_file,
    output.operator_file) and tools' files (Kokkos Tools) land where --json and --trace do; ROOT when the current
    folder no longer exists."""
    try:
        return os.getcwd()
    except OSError:
        return str(ROOT)


# The binaries refuse a deck beyond this (common/config: 64 KiB); a stream is read one byte past it, so they say so.
DECK_BYTES_MAX = 64 * 1024
# What a deck may be (the binaries' rule, common/src/config.cpp, in the same words).
DECK_ALLOWED = ("allowed: a YAML deck file such as inputs/pop/x1.yaml, or a pipe a program writes the deck into "
                "(--deck /dev/stdin after |)")


def readable_deck(deck, folder: str):
    """The deck as the ranks can read it. A stream (a pipe, /dev/stdin, /dev/fd/N: the ranks' stdin is not the user's,
    and a stream reads once) is read here and handed on as a file in `folder`; a regular file, a folder or a missing
    path goes to the binary as it is (it reads the one and says why the others are no deck). A pipe is opened without
    waiting for a writer: one with no writer and nothing in it is refused (LaunchError, exit 2, naming the user's
    path), as are a character device (/dev/null, a terminal), a socket and a block device; a writer that is there is
    waited for (Ctrl-C and SIGTERM end the wait)."""
    if not deck:
        return deck
    try:
        mode = os.stat(deck).st_mode
    except OSError:
        return deck  # missing, or a name the system refuses: the binary says why
    if stat.S_ISDIR(mode) or (stat.S_ISREG(mode) and output_files.descriptor_of(deck) is None):
        return deck
    copy = Path(folder) / "deck.yaml"
    copy.write_bytes(read_deck_stream(deck))
    return copy


def read_deck_stream(deck) -> bytes:
    """At most DECK_BYTES_MAX + 1 bytes of a stream or of a regular file behind a descriptor path; LaunchError for what
    is neither a regular file nor a pipe, and for a pipe with no writer and nothing in it (it would never end)."""
    try:
        fd = os.open(deck, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)  # never waits for a pipe's writer
    except OSError as e:
        raise LaunchError(f"--deck {quote(deck)}: cannot be opened: {e.strerror} (errno {e.errno}); {DECK_ALLOWED}")
    try:
        mode = os.fstat(fd).st_mode
        kind = ("a character device" if stat.S_ISCHR(mode) else "a block device" if stat.S_ISBLK(mode)
                else "a socket" if stat.S_ISSOCK(mode) else "")
        if kind:
            raise LaunchError(f"--deck {quote(deck)}: is {kind}, not a deck file; {DECK_ALLOWED}")
        data, first = b"", True
        while len(data) <= DECK_BYTES_MAX:
            try:
                chunk = os.read(fd, DECK_BYTES_MAX + 1 - len(data))
            except BlockingIOError:  # a writer is there and has not written yet
                select.select([fd], [], [])
                first = False
                continue
            if not chunk:
                break
            data, first = data + chunk, False
        if first and stat.S_ISFIFO(mode):
            raise LaunchError(f"--deck {quote(deck)}: is a pipe with no writer and nothing in it (reading would wait "
                              f"forever); {DECK_ALLOWED}")
        return data
    except OSError as e:
        raise LaunchError(f"--deck {quote(deck)}: cannot be read: {e.strerror} (errno {e.errno})")
    finally:
        os.close(fd)


def verified_record(app: str, ranks: int = 1, threads: int = 1, deck=None, sets=(), exe=None) -> dict:
    """For benchmark scripts: one quiet run; its JSON record, or SystemExit when it failed or did not verify."""
    r = run_app(app, ranks, threads, deck, sets, quiet=True, exe=exe)
    if not r.verified or not r.record:
        raise SystemExit(f"run failed or did not verify (exit {r.returncode}): {' '.join(r.command)}\n"
                         f"{r.stdout[-2000:]}{r.stderr[-2000:]}")
    return r.record
