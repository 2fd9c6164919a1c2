"""Running proxylab binaries: where they are, how MPI and threads are set, what a run returns.

Standard library only. Every command of the front end (run, demo, compare, sweep, perturbation) goes
through run_app(), so the launch line, the environment and the JSON record are handled in one place.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_PRESET = "openmp"
# Display order of the apps (those whose binary exists are used).
APPS = ["pop", "pstswm", "evh1", "fft3d", "stream", "comm"]
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


def resolve_deck(app: str, deck: str | None) -> Path | None:
    """The deck a user names: a path from the current directory (made absolute), a path from ROOT where the binaries
    run (inputs/pop/x1.yaml, kept as given), or a name under ROOT/inputs/<app>/ ("x1" or "x1.yaml", also in an
    installed prefix); None: the app's default deck. Anything else is returned as given, for the binary to report."""
    if not deck:
        return default_deck(app)
    if Path(deck).exists():  # a directory too: the binary says why it is no deck
        return Path(deck).resolve()
    if (ROOT / deck).is_file():
        return Path(deck)
    for p in (ROOT / "inputs" / canonical_app(app) / deck, ROOT / "inputs" / canonical_app(app) / f"{deck}.yaml"):
        if p.is_file():
            return p
    return Path(deck)


def mpiexec() -> str:
    """MPICH's launcher explicitly (PROXYLAB_MPIEXEC overrides), not whatever MPI is first on PATH."""
    if os.environ.get("PROXYLAB_MPIEXEC"):
        return os.environ["PROXYLAB_MPIEXEC"]
    for cand in ("/usr/bin/mpiexec.mpich", "/usr/bin/mpiexec.hydra"):
        if os.path.exists(cand):
            return cand
    found = shutil.which("mpiexec") or shutil.which("mpirun")
    if not found:
        raise SystemExit("proxylab: no mpiexec found (install mpich, or set PROXYLAB_MPIEXEC)")
    return found


def run_env(threads: int) -> dict[str, str]:
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = str(threads)
    env.setdefault("OMP_PROC_BIND", "false")
    env.setdefault("OPENBLAS_NUM_THREADS", "1")  # BLAS inside ranks: no hidden oversubscription
    return env


@dataclass
class RunResult:
    app: str
    ranks: int
    threads: int
    deck: str
    sets: list[str]
    returncode: int
    seconds: float
    stdout: str = ""
    stderr: str = ""
    record: dict | None = None
    command: list[str] = field(default_factory=list)

    @property
    def verified(self) -> bool:
        return self.returncode == 0 and "VERIFICATION: PASSED" in self.stdout

    @property
    def fom(self) -> tuple[float | None, str, str]:
        """(value, unit, name) from the JSON record."""
        if not self.record:
            return None, "", ""
        f = self.record.get("fom", {})
        return f.get("value"), f.get("unit", ""), f.get("name", "")


def app_command(app: str, ranks: int, deck: str | Path | None = None, sets=(), json_path=None, trace=None,
                quiet=False, extra=(), preset: str = DEFAULT_PRESET, exe: str | Path | None = None) -> list[str]:
    exe = Path(exe) if exe else binary(app, preset)
    if not exe.exists():
        raise SystemExit(f"proxylab: {exe} not built (run ./proxylab build); built apps: {', '.join(built_apps(preset)) or 'none'}")
    cmd = [mpiexec(), "-n", str(ranks), str(exe)]
    if deck:
        cmd += ["--deck", str(deck)]
    for s in sets:
        cmd += ["--set", s]
    if json_path:
        cmd += ["--json", str(json_path)]
    if trace:
        cmd += ["--trace", str(trace)]
    if quiet:
        cmd.append("--quiet")
    return cmd + list(extra)


def run_app(app: str, ranks: int = 1, threads: int = 1, deck=None, sets=(), json_path=None, trace=None, quiet=False,
            extra=(), capture: bool = True, preset: str = DEFAULT_PRESET, timeout: float | None = None,
            exe: str | Path | None = None) -> RunResult:
    """Runs one proxy (exe: an explicit binary instead of the preset's); with capture the output is returned
    (and the JSON record parsed)."""
    tmp = None
    if json_path is None:
        tmp = tempfile.NamedTemporaryFile(prefix=f"proxylab-{app}-", suffix=".json", delete=False)
        tmp.close()
        json_path = tmp.name
    cmd = app_command(app, ranks, deck, sets, json_path, trace, quiet, extra, preset, exe)
    t0 = time.perf_counter()
    try:
        try:
            if capture:
                p = subprocess.run(cmd, cwd=ROOT, env=run_env(threads), capture_output=True, text=True,
                                   timeout=timeout)
                out, err, rc = p.stdout, p.stderr, p.returncode
            else:
                p = subprocess.run(cmd, cwd=ROOT, env=run_env(threads), timeout=timeout)
                out, err, rc = "", "", p.returncode
        except subprocess.TimeoutExpired as e:
            partial = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
            out, err, rc = partial, "timeout", 124
        seconds = time.perf_counter() - t0
        try:
            text = Path(json_path).read_text()
            record = json.loads(text) if text.strip() else None
        except (OSError, json.JSONDecodeError):
            record = None
    finally:  # also on Ctrl-C: no temporary record is left behind
        if tmp is not None and os.path.exists(tmp.name):
            os.unlink(tmp.name)
    return RunResult(app, ranks, threads, str(deck or ""), list(sets), rc, seconds, out, err, record, cmd)


def verified_record(app: str, ranks: int = 1, threads: int = 1, deck=None, sets=(), exe=None) -> dict:
    """For benchmark scripts: one quiet run; its JSON record, or SystemExit when it failed or did not verify."""
    r = run_app(app, ranks, threads, deck, sets, quiet=True, exe=exe)
    if not r.verified or not r.record:
        raise SystemExit(f"run failed or did not verify (exit {r.returncode}): {' '.join(r.command)}\n"
                         f"{r.stdout[-2000:]}{r.stderr[-2000:]}")
    return r.record
