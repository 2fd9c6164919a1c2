"""pop_direct_solve.py passes a consistent system and fails each kind of defect (needs numpy and scipy)."""
import contextlib
import io
import pathlib
import sys
import tempfile
import unittest

import numpy as np
import scipy.io
import scipy.sparse

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import pop_direct_solve  # noqa: E402

CRIT, TAREA_NORM = 1e-8, 1.0


def write_system(folder, a, b, x, index=None):
    """The four files as pop writes them (the solution with its "key: value" comments); returns the matrix path."""
    stem = str(pathlib.Path(folder) / "op")
    n = a.shape[0]
    scipy.io.mmwrite(stem + ".mtx", scipy.sparse.coo_matrix(a))
    scipy.io.mmwrite(stem + ".rhs.mtx", b.reshape(-1, 1))
    scipy.io.mmwrite(stem + ".solution.mtx", x.reshape(-1, 1),
                     comment=f"solver: test\niterations: 1\ncrit: {CRIT}\ntarea_norm: {TAREA_NORM}")
    if index is None:
        index = np.array([[k % 7, k // 7] for k in range(n)])
    scipy.io.mmwrite(stem + ".index.mtx", index.astype(np.int64))
    return stem + ".mtx"


def run(path):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = pop_direct_solve.main([path])
    return code, out.getvalue()


class DirectSolveTest(unittest.TestCase):
    def setUp(self):
        n = 40
        self.a = -scipy.sparse.diags([-1.0, 4.0, -1.0], [-1, 0, 1], shape=(n, n)).toarray()  # eigenvalues in [-6, -2]
        rng = np.random.default_rng(3)
        self.b = rng.standard_normal(n)
        self.x = np.linalg.solve(self.a, self.b)
        self.folder = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.folder.cleanup()

    def test_consistent_system_passes(self):
        # a solution off by a residual of half the tolerance still passes
        x = self.x + np.linalg.solve(self.a, np.full(len(self.b), 0.5 * CRIT / np.sqrt(len(self.b))))
        code, out = run(write_system(self.folder.name, self.a, self.b, x))
        self.assertEqual(code, 0, out)
        self.assertIn("VERIFICATION: PASSED", out)

    def test_defects_fail(self):
        n = len(self.b)
        asym = self.a.copy()
        asym[0, 1] *= 1.0 + 1e-15
        indefinite = self.a.copy()
        indefinite[5, 5] = 3.0
        cases = {
            "run's residual within its solver tolerance": (self.a, self.x + 1e-6, None),
            "A symmetric": (asym, np.linalg.solve(asym, self.b), None),
            "A negative definite": (indefinite, np.linalg.solve(indefinite, self.b), None),
            "files fit together": (self.a, self.x, np.zeros((n, 2))),
        }
        for name, (a, x, index) in cases.items():
            code, out = run(write_system(self.folder.name, a, self.b, x, index))
            self.assertEqual(code, 1, f"{name}: {out}")
            self.assertIn("FAIL  " + name, out)

    def test_missing_files_are_bad_input(self):
        code, out = run(str(pathlib.Path(self.folder.name) / "absent.mtx"))
        self.assertEqual(code, 2)
        self.assertIn("cannot read the operator files", out)


if __name__ == "__main__":
    unittest.main()
