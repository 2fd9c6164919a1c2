"""check_record.py accepts a complete verified record and rejects each kind of defect."""
import copy
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import check_record  # noqa: E402

GOOD = {
    "app": "stream", "status": "completed", "deck": "d.yaml", "config": {"stream": {"n": 4}},
    "fom": {"name": "triad", "value": 10.0, "unit": "GB/s"},
    "verification": {"passed": True, "checks": [{"name": "a", "passed": True}]},
    "timers": [{"region": "copy", "category": "compute", "calls": 3, "min_s": 1.0, "avg_s": 1.5, "max_s": 2.0,
                "imbalance_pct": 25.0}],
    "provenance": {k: "x" for k in check_record.PROVENANCE}, "results": {"iterations_done": 3},
}


class CheckRecordTest(unittest.TestCase):
    def test_good_record_passes(self):
        self.assertEqual(check_record.problems(GOOD, ["results.iterations_done=3"], 5.0), [])

    def test_defects_are_reported(self):
        cases = {
            "missing field 'fom'": lambda r: r.pop("fom"),
            "verification did not pass": lambda r: r["verification"].update(passed=False),
            "not a finite number": lambda r: r["fom"].update(value=float("nan")),
            "provenance lacks 'git_hash'": lambda r: r["provenance"].pop("git_hash"),
            "min <= avg <= max": lambda r: r["timers"][0].update(avg_s=3.0),
            "no verification checks": lambda r: r["verification"].update(checks=[]),
        }
        for message, damage in cases.items():
            r = copy.deepcopy(GOOD)
            damage(r)
            found = check_record.problems(r, [], None)
            self.assertTrue(any(message in p for p in found), f"{message!r} not in {found}")

    def test_expectations_and_fom_minimum(self):
        self.assertIn("results.iterations_done = 3, expected 4", check_record.problems(GOOD, ["results.iterations_done=4"], None))
        self.assertTrue(check_record.problems(GOOD, [], 11.0))
        self.assertIn("expected 'results.nope' in the record", check_record.problems(GOOD, ["results.nope=1"], None))


if __name__ == "__main__":
    unittest.main()
