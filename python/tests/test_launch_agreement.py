"""The launch the front end asks for against the job MPI makes of it, on the real binaries (launch.py passes the rank
count in PROXYLAB_EXPECTED_RANKS; every binary compares it, and its launcher's own count, with MPI_COMM_WORLD right
after MPI_Init: common/include/proxylab/launch_check.hpp).

- A launch template whose rank count is not --ranks ran that many ranks and exited 0 (issue: `mpiexec.mpich -n
  {{ranks}}` with --ranks 2 ran 1 rank): now exit 2 naming both figures.
- `{{ranks}}` (Python's escaped brace: the text {ranks}) passed the template check: now refused before the launch.
- A correct launch still runs: the built-in mpiexec and a template with {ranks}, at 2 ranks.
"""
import os
import subprocess
import sys
import unittest
from pathlib import Path

from harness_testing import ROOT

BUILD = Path(os.environ.get("PROXYLAB_BUILD_DIR", ROOT / "build" / "openmp"))
MPIEXEC = os.environ.get("PROXYLAB_MPIEXEC", "mpiexec")
RING = ["--deck", "inputs/comm/tiny.yaml", "--set", "probe.tests=ring"]


def run(launcher: str, ranks: int = 2) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"), OMP_NUM_THREADS="1")
    return subprocess.run([sys.executable, "-m", "proxylab_tools.cli", "run", "comm", "--ranks", str(ranks),
                           "--oversubscribe", "--launcher", launcher, *RING],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


@unittest.skipUnless((BUILD / "bin" / "proxylab-comm").exists(), "comm is not built")
class LaunchAgreement(unittest.TestCase):
    def test_a_template_with_another_rank_count_is_refused(self):
        # {ranks} is used (the template check passes) but the launch is fixed at one rank
        p = run(f"env PROXYLAB_TEMPLATE_RANKS={{ranks}} {MPIEXEC} -n 1")
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn("MPI_COMM_WORLD has 1 rank, but the front end asked for 2 ranks (PROXYLAB_EXPECTED_RANKS=2)",
                      p.stdout + p.stderr)
        self.assertNotIn("VERIFICATION: PASSED", p.stdout)

    def test_an_escaped_placeholder_is_refused_before_the_launch(self):
        p = run(f"{MPIEXEC} -n {{{{ranks}}}}")
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn("{{ranks}} is the text {ranks}, not the count", p.stdout + p.stderr)
        self.assertNotIn("ranks x threads", p.stdout)

    def test_a_correct_launch_runs(self):
        for launcher in ("mpiexec", f"{MPIEXEC} -n {{ranks}}"):
            with self.subTest(launcher=launcher):
                p = run(launcher)
                self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
                self.assertIn("ranks x threads 2 x 1", p.stdout)
                self.assertIn("VERIFICATION: PASSED", p.stdout)


if __name__ == "__main__":
    unittest.main()
