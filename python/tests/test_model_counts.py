"""The model's scaling rules against the counts the real proxies report: the counts at 2 ranks predicted from
the records at 1 and 4 ranks (proxylab_tools.model.counts_at) must match the 2-rank record's own counts.
Small decks, oversubscribed runs: counts do not depend on timing."""
import unittest

import harness_testing  # noqa: F401  (puts python/ on the path)
from proxylab_tools import model as mdl
from proxylab_tools import runner

# One algorithm at every rank count: fft3d's pencil names its local plan, since auto picks planes on the grids of one
# row (1 and 2 ranks) and staged on 2 x 2 (4 ranks), a change of algorithm no scaling rule predicts.
CASES = [("pstswm", "small", ["parallel.algorithm=transpose"]), ("pstswm", "small", ["parallel.algorithm=distributed"]),
         ("evh1", "demo", []), ("fft3d", "small", []),
         ("fft3d", "small", ["fft3d.decomposition=pencil", "fft3d.local=staged"]), ("pop", "small", [])]


def counts(app, deck, sets, ranks):
    return mdl.counts_of(runner.verified_record(app, ranks, 1, runner.resolve_deck(app, deck), sets), app)


class CountsAgainstTheCode(unittest.TestCase):
    def test_two_ranks_from_one_and_four(self):
        for app, deck, sets in CASES:
            if not runner.binary(app).exists():
                self.skipTest(f"proxylab-{app} not built")
            with self.subTest(app=app, sets=sets):
                lo, two, hi = (counts(app, deck, sets, p) for p in (1, 2, 4))
                predicted = mdl.counts_at(lo, hi, 2)
                # Kokkos launches per step and rank (LaunchCounter over the timed loop): counted, and as at 4 ranks
                self.assertGreater(lo["launches"], 0)
                self.assertAlmostEqual(predicted["launches"], two["launches"], delta=0.05 * two["launches"])
                for k_pred, k_code in zip(predicted["kernels"], two["kernels"]):
                    for q in ("flops", "bytes", "work"):
                        self.assertAlmostEqual(k_pred[q] * 2, k_code[q], delta=0.02 * k_code[q] + 1e-9,
                                               msg=f"{k_code['kernel']} {q}")
                code = [c for c in two["communication"] if c["group"] > 1 and c["pattern"] != "halo"]
                pred = [c for c in predicted["communication"] if c["pattern"] != "halo"]
                self.assertEqual([c["pattern"] for c in pred], [c["pattern"] for c in code])
                for c_pred, c_code in zip(pred, code):
                    self.assertEqual((c_pred["calls"], c_pred["group"]), (c_code["calls"], c_code["group"]))
                    for q in ("bytes", "copy_bytes"):
                        self.assertAlmostEqual(c_pred.get(q, 0.0), c_code[q], delta=0.05 * c_code[q],
                                               msg=f"{c_code['pattern']} {q}")


if __name__ == "__main__":
    unittest.main()
