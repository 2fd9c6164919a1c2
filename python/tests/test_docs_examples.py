"""The commands docs/harness.md shows, run as its reader would, at small sizes: a renamed option, a deck that no
longer takes a key or an example that stopped working fails here (the lessons' commands are run by
regression.workshop.lessons).

Each `./proxylab ...` line of the page's code blocks runs in a scratch folder with the repository's inputs/:
`run` as a dry run (the launchers and node counts the page shows are not this machine's) unless it writes a trace
that the next command reads; `jobscript` as it is; `compare`, `sweep` and `perturbation` with one repeat, no plot,
and each proxy's smallest settings (SMOKE), oversubscribed where the page asks for more ranks than the cores.
Needs the openmp build (skipped without it)."""
import os
import re
import shlex
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from harness_testing import ROOT

BUILD = Path(os.environ.get("PROXYLAB_BUILD_DIR", ROOT / "build" / "openmp"))
PAGES = [ROOT / "docs" / "harness.md"]
SMOKE = {
    "pop": ["solver.max_iters=20", "solver.crit=0"],
    "evh1": ["time.max_steps=3"],
    "stream": ["stream.n=65536", "stream.iterations=3"],
    "pstswm": ["model.truncation=10", "time.steps=4"],
    "fft3d": ["fft3d.nx=16", "fft3d.ny=16", "fft3d.nz=16", "fft3d.iterations=1", "fft3d.warmup=0"],
}
HARNESS = ("compare", "sweep", "perturbation")


def commands(page: Path) -> list[str]:
    """The page's `./proxylab` lines inside code blocks, continuation lines joined, comments and the optional
    `[...]` parts and shell redirections dropped."""
    out, in_block, pending = [], False, ""
    for line in page.read_text().splitlines():
        if line.startswith("```"):
            in_block = not in_block
            continue
        if not in_block:
            continue
        line = pending + line.strip()
        pending = ""
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        if line.startswith("./proxylab "):
            line = re.sub(r"\s+#.*$", "", line)
            line = re.sub(r"\[[^\]]*\]", "", line)
            line = re.split(r"\s(?:>|&&)\s", line)[0]
            out.append(" ".join(line.split()))
    return out


def ranks_asked(words: list[str]) -> int:
    if "--ranks" not in words:
        return 1
    return max(int(r) for r in words[words.index("--ranks") + 1].split(","))


def smoke_sets(app: str, words: list[str]) -> list[str]:
    """--set KEY=VALUE for SMOKE's keys the command does not set itself."""
    return [x for kv in SMOKE.get(app, []) if f"{kv.split('=')[0]}=" not in " ".join(words) for x in ("--set", kv)]


def as_tested(line: str) -> list[str]:
    """The argument list after ./proxylab, made small (module docstring)."""
    words = shlex.split(line)[1:]
    tool = words[0]
    if tool == "run":
        if "--trace" not in words:
            return [*words[:1], "--dry-run", *words[1:]]
        app = next(w for w in words[1:] if w in SMOKE)
        extra = smoke_sets(app, words)
        if ranks_asked(words) > (os.cpu_count() or 1):
            extra.append("--oversubscribe")
        i = words.index(app)
        return [*words[:i], *extra, *words[i:]]
    if tool in HARNESS:
        app = words[1]
        if "--repeat" in words:
            words[words.index("--repeat") + 1] = "1"
        else:
            words += ["--repeat", "1"]
        words += ["--no-plot", "--quiet"] + smoke_sets(app, words)
        if ranks_asked(words) > (os.cpu_count() or 1):
            words.append("--oversubscribe")
    return words


@unittest.skipUnless((BUILD / "bin" / "proxylab-pop").exists(), f"needs the openmp build in {BUILD}")
class DocsExamples(unittest.TestCase):
    def test_harness_page_commands_run(self):
        lines = [c for page in PAGES for c in commands(page)]
        self.assertGreater(len(lines), 10)
        env = dict(os.environ, PYTHONPATH=str(ROOT / "python"), PROXYLAB_BUILD_DIR=str(BUILD))
        with tempfile.TemporaryDirectory(prefix="proxylab-docs-") as scratch:
            (Path(scratch) / "inputs").symlink_to(ROOT / "inputs")
            for line in lines:
                args = as_tested(line)
                with self.subTest(command=line):
                    p = subprocess.run([sys.executable, "-m", "proxylab_tools.cli", *args], cwd=scratch, env=env,
                                       capture_output=True, text=True, timeout=600)
                    self.assertEqual(p.returncode, 0, f"{shlex.join(args)}\n{(p.stdout + p.stderr)[-3000:]}")


class CommandExtraction(unittest.TestCase):
    def test_continuations_comments_options_and_redirections(self):
        with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False) as f:
            f.write("text ./proxylab not this\n```\n./proxylab sweep evh1 --ranks 1,2 \\\n    --set a=1   # weak\n"
                    "./proxylab gantt t.json [--out c.png]\n./proxylab jobscript pop > x.sbatch && flux batch x\n```\n")
        try:
            self.assertEqual(commands(Path(f.name)), ["./proxylab sweep evh1 --ranks 1,2 --set a=1",
                                                       "./proxylab gantt t.json", "./proxylab jobscript pop"])
        finally:
            os.unlink(f.name)
        self.assertEqual(as_tested("./proxylab run pop --ranks 8 --oversubscribe")[:2], ["run", "--dry-run"])
        self.assertIn("--oversubscribe", as_tested("./proxylab compare pop --ranks 2,64 --repeat 5"))
        self.assertEqual(as_tested("./proxylab perturbation pop --ranks 2 --repeat 5")[4:6], ["--repeat", "1"])


if __name__ == "__main__":
    unittest.main()
