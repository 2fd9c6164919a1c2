#!/usr/bin/env python3
"""Check a pop run's barotropic solution with a direct solve of the system it wrote.

usage: .deps/venv/bin/python verify/pop_direct_solve.py PATH.mtx

PATH.mtx and its siblings STEM.rhs.mtx, STEM.solution.mtx, STEM.index.mtx are what
`proxylab-pop --set output.operator_file=PATH.mtx` writes (Matrix Market; miniapps/pop/src/operator_output.hpp).
The script reads them with scipy.io.mmread, factors A (scipy.sparse.linalg.spsolve, SuperLU) and checks:

  1. the files fit together: A is N x N, b, x are N x 1, the index map has N distinct (i, j) points;
  2. A is symmetric (exactly: A(p, q) and A(q, p) are the same stored coefficient) and negative definite
     (all pivots of a symmetric LU of -A positive; min |lambda| by ARPACK shift-invert);
  3. the run's solution meets the criterion its solver used, recomputed here from the files:
     ||b - A x||_2 <= crit ||TAREA||_2 (POP2);
  4. the direct solution x_d agrees with the run's x as closely as that tolerance allows:
     ||x - x_d||_2 <= ||A^-1||_2 crit ||TAREA||_2 = crit ||TAREA||_2 / min |lambda(A)|.
Prints the numbers and PASSED / FAILED; exits 0, 1 (a check failed) or 2 (missing or unreadable files).
"""
import argparse
import sys

import numpy as np
import scipy.io
import scipy.sparse.linalg

def sibling(path, suffix):
    stem = path[:-4] if path.endswith(".mtx") and len(path) > 4 else path
    return stem + suffix


def comments(path):
    """The "% key: value" comment lines of a Matrix Market file."""
    found = {}
    with open(path) as f:
        for line in f:
            if not line.startswith("%"):
                break
            key, sep, value = line[1:].partition(":")
            if sep and not line.startswith("%%"):
                found[key.strip()] = value.strip()
    return found


def definiteness_and_spectrum(a):
    """(negative definite?, smallest |lambda|, largest |lambda|) of the symmetric matrix a.

    Definiteness exactly, by Sylvester's law of inertia: SuperLU factors -A with diagonal pivots only
    (threshold 0, symmetric mode), so its U diagonal holds the pivots of a symmetric elimination, all
    positive exactly when -A is positive definite. The extreme |lambda| by ARPACK: the one nearest 0 by
    shift-invert at 0 with that factorisation, the largest directly."""
    minus_a = (-a).tocsc()
    lu = scipy.sparse.linalg.splu(minus_a, permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0,
                                  options={"SymmetricMode": True})
    symmetric_pivots = np.array_equal(lu.perm_r, lu.perm_c)
    definite = symmetric_pivots and bool(np.all(lu.U.diagonal() > 0))
    n = a.shape[0]
    inverse = scipy.sparse.linalg.LinearOperator((n, n), matvec=lambda v: -lu.solve(np.asarray(v).ravel()),
                                                 dtype=float)
    eig = scipy.sparse.linalg.eigsh
    nearest = eig(a, k=1, sigma=0.0, which="LM", OPinv=inverse, tol=1e-10, return_eigenvectors=False)[0]
    farthest = eig(a, k=1, which="LM", tol=1e-6, return_eigenvectors=False)[0]
    return definite, abs(nearest), abs(farthest)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("matrix", help="the output.operator_file of a pop run (PATH.mtx)")
    args = parser.parse_args(argv)
    paths = {"A": args.matrix, "b": sibling(args.matrix, ".rhs.mtx"), "x": sibling(args.matrix, ".solution.mtx"),
             "index": sibling(args.matrix, ".index.mtx")}
    try:
        a = scipy.sparse.csr_matrix(scipy.io.mmread(paths["A"]))
        b = np.asarray(scipy.io.mmread(paths["b"])).ravel()
        x = np.asarray(scipy.io.mmread(paths["x"])).ravel()
        index = np.asarray(scipy.io.mmread(paths["index"]))
        meta = comments(paths["x"])
        crit, tarea_norm = float(meta["crit"]), float(meta["tarea_norm"])
    except (OSError, ValueError, KeyError) as e:
        print(f"pop_direct_solve.py: cannot read the operator files {list(paths.values())}: {e}", file=sys.stderr)
        return 2

    checks = []

    def check(name, ok, detail):
        checks.append(ok)
        print(f"  {'ok  ' if ok else 'FAIL'}  {name}: {detail}")

    n = a.shape[0]
    points = {tuple(p) for p in index.tolist()}
    print(f"pop operator {paths['A']}: {n} ocean points, {a.nnz} entries; solver {meta.get('solver', '?')}, "
          f"{meta.get('iterations', '?')} iterations, crit {crit:g}")
    check("files fit together", a.shape == (n, n) and b.shape == (n,) and x.shape == (n,) and index.shape == (n, 2)
          and len(points) == n, f"A {a.shape}, b {b.shape}, x {x.shape}, index {index.shape} ({len(points)} distinct)")
    asymmetry = abs(a - a.T).max()
    check("A symmetric", asymmetry == 0.0, f"max |A - A^T| = {asymmetry:.3e}")
    definite, lam_min_abs, lam_max_abs = definiteness_and_spectrum(a)
    check("A negative definite", definite, f"pivots of -A all positive: {definite}; |eigenvalues| from "
          f"{lam_min_abs:.6e} to {lam_max_abs:.6e} (condition {lam_max_abs / lam_min_abs:.4g})")

    x_direct = scipy.sparse.linalg.spsolve(a.tocsc(), b)
    tolerance = crit * tarea_norm
    residual_run = np.linalg.norm(b - a @ x)
    residual_direct = np.linalg.norm(b - a @ x_direct)
    print(f"  direct solve (SuperLU): ||b - A x_d|| = {residual_direct:.3e}; solver tolerance crit ||TAREA|| = "
          f"{tolerance:.3e}")
    if crit > 0:
        check("run's residual within its solver tolerance", residual_run <= tolerance,
              f"||b - A x|| / (crit ||TAREA||) = {residual_run / tolerance:.3e}")
        difference = np.linalg.norm(x - x_direct)
        allowed = tolerance / lam_min_abs + 1e-12 * np.linalg.norm(x_direct)
        check("run's solution vs the direct solution", difference <= allowed,
              f"||x - x_d|| = {difference:.3e} (relative {difference / np.linalg.norm(x_direct):.3e}), allowed by the "
              f"tolerance: crit ||TAREA|| / min|lambda| = {allowed:.3e} (ratio {difference / allowed:.3f})")
    else:
        check("benchmark-mode run (crit 0): residual below the initial one", residual_run <= np.linalg.norm(b),
              f"||b - A x|| / ||b|| = {residual_run / np.linalg.norm(b):.3e} (no tolerance to compare x_d with)")
    passed = all(checks)
    print("VERIFICATION: " + ("PASSED" if passed else "FAILED"))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
