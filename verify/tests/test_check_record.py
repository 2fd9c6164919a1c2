"""check_record.py accepts a complete verified record and rejects each kind of defect: an interrupted run's record
and corrupt files (truncated JSON, wrong types, missing keys, an empty file, a folder) with a message, never a crash."""
import contextlib
import copy
import io
import json
import pathlib
import sys
import tempfile
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
            "status is 'interrupted'": lambda r: r.update(status="interrupted"),
            "could not write --trace '/dev/full'": lambda r: r.update(
                status="output_failed", failed_outputs=["--trace '/dev/full': writing failed: errno 28"]),
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



class CorruptRecords(unittest.TestCase):
    """Through main(), as a user runs it: exit 2 for a file that is no record, 1 for a record with defects."""

    def check(self, content, want_code: int, want_text: str):
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "r.json"
            if content is None:
                path.mkdir()
            else:
                path.write_bytes(content if isinstance(content, bytes) else content.encode())
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                code = check_record.main([str(path)])
        self.assertEqual(code, want_code, out.getvalue())
        self.assertIn(want_text, out.getvalue())

    def test_files_that_are_no_record(self):
        good = json.dumps(GOOD)
        self.check(good[: len(good) // 2], 2, "is not valid JSON (truncated or damaged)")
        self.check("", 2, "is empty")
        self.check(None, 2, "is a folder, not a record")
        self.check("[1, 2]", 2, "the JSON is a list, not an object")
        self.check(b"\xff\xfe", 2, "is not UTF-8 text")

    def test_records_with_wrong_types_or_missing_keys(self):
        def damaged(change):
            r = copy.deepcopy(GOOD)
            change(r)
            return json.dumps(r)
        self.check(damaged(lambda r: r.update(timers="none")), 1, "field 'timers' should be a list, not str")
        self.check(damaged(lambda r: r.update(timers=[3])), 1, "timer 0 should be an object, not int")
        self.check(damaged(lambda r: r["timers"][0].update(min_s="1")), 1, "should be numbers")
        self.check(damaged(lambda r: r["verification"].update(checks="all")), 1, "should be a list of objects")
        self.check(damaged(lambda r: r.pop("provenance")), 1, "missing field 'provenance'")
        self.check(damaged(lambda r: r["fom"].update(value="12")), 1, "is not a finite number")
        self.check(damaged(lambda r: r.update(status="interrupted")), 1, "stopped before it finished")
        self.check(json.dumps(GOOD), 0, "complete and verified")


if __name__ == "__main__":
    unittest.main()
