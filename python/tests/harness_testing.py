"""Helpers of the harness tests: run ./proxylab's Python entry point in a subprocess, a build folder holding the
fake app, and the PNG check (a chart when matplotlib can be found, else the message saying how to get it)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "python"))

from proxylab_tools import plots  # noqa: E402


def cli(args: list[str], build_dir: str | Path | None = None, timeout: float = 120,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """python3 -m proxylab_tools.cli ARGS from the repository root (as ./proxylab does); env: variables to add."""
    env = dict(os.environ, **(env or {}))
    env["PYTHONPATH"] = str(ROOT / "python")
    if build_dir:
        env["PROXYLAB_BUILD_DIR"] = str(build_dir)
    return subprocess.run([sys.executable, "-m", "proxylab_tools.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


def fake_build_dir() -> tempfile.TemporaryDirectory:
    """A temporary 'build folder' whose bin/proxylab-fake is fake_app.py (removed with the returned object)."""
    tmp = tempfile.TemporaryDirectory(prefix="proxylab-fake-build-")
    (Path(tmp.name) / "bin").mkdir()
    exe = Path(tmp.name) / "bin" / "proxylab-fake"
    shutil.copy(HERE / "fake_app.py", exe)
    exe.chmod(0o755)
    (Path(tmp.name) / "deck.yaml").write_text("fake: {}\n")
    return tmp


def assert_png(test, output: str, png: Path) -> None:
    if plots.plot_python() is None:
        test.assertIn("./proxylab setup", output, "without matplotlib the harness must say how to get it")
        return
    test.assertTrue(png.exists(), f"no PNG at {png}; output:\n{output[-3000:]}")
    data = png.read_bytes()
    test.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")
    test.assertGreater(len(data), 10_000)
