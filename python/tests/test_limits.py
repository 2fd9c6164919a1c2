"""perf.limits through the real binaries, one class per proxy and the STREAM probe (2 ranks, so that every exchange runs): the record's
results.limits section has every timed phase of the step (each leaf timer region under the step with time in it is
one of a phase's regions), and each phase's counted amount, seconds, ceiling and fraction are finite and positive.
The section's shape is docs/architecture.md's ("How far from the machine")."""
import math
import unittest

import harness_testing  # noqa: F401  (puts python/ on the path)
from proxylab_tools import runner

PHASE_KEYS = {"phase", "regions", "unit", "counted", "seconds", "ceiling", "ceiling_rate", "fraction"}


class LimitsCase:
    app, deck, sets, step_prefixes = "", "", [], ()

    def test_every_timed_phase_against_a_ceiling(self):
        if not runner.binary(self.app).exists():
            self.skipTest(f"proxylab-{self.app} not built")
        record = runner.verified_record(self.app, 2, 1, runner.resolve_deck(self.app, self.deck),
                                        self.sets + ["perf.limits=true"])
        limits = record["results"]["limits"]
        self.assertTrue(limits["step"])
        phases = limits["phases"]
        self.assertTrue(phases)
        for p in phases:
            with self.subTest(phase=p.get("phase")):
                self.assertEqual(set(p), PHASE_KEYS)
                self.assertIn(p["unit"], ("bytes", "flops"))
                self.assertTrue(p["regions"])
                for q in ("counted", "seconds", "ceiling_rate", "fraction"):
                    self.assertTrue(math.isfinite(p[q]) and p[q] > 0, f"{q} = {p[q]}")
                self.assertAlmostEqual(p["fraction"], p["counted"] / p["seconds"] / p["ceiling_rate"],
                                       delta=1e-9 * p["fraction"])
        covered = {r for p in phases for r in p["regions"]}
        names = [t["region"] for t in record["timers"]]
        timed = [t["region"] for t in record["timers"] if t["max_s"] > 0
                 and t["region"].startswith(self.step_prefixes)
                 and not any(n.startswith(t["region"] + "/") for n in names)]  # leaves: the phases themselves
        self.assertTrue(timed)
        self.assertEqual([r for r in timed if r not in covered], [], "timed regions without a limits phase")


class Pop(LimitsCase, unittest.TestCase):
    app, deck, step_prefixes = "pop", "small", ("solve/",)


class Pstswm(LimitsCase, unittest.TestCase):
    # the latitude loop off: the grid-point products are a phase of their own
    app, deck, sets, step_prefixes = "pstswm", "small", ["transform.fuse_grid_point=false"], ("timestep/",)


class Evh1(LimitsCase, unittest.TestCase):
    app, deck, step_prefixes = "evh1", "demo", ("hydro/",)


class Fft3d(LimitsCase, unittest.TestCase):
    # separate passes: pack, transpose, unpack and the local FFTs are each timed
    app, deck, sets, step_prefixes = "fft3d", "small", ["fft3d.fuse_transpose=false"], ("forward/", "inverse/")


class Stream(LimitsCase, unittest.TestCase):
    app, deck, step_prefixes = "stream", "small", ("copy", "mul", "add", "triad", "dot")


if __name__ == "__main__":
    unittest.main()
