"""run_lessons.py's results/SUMMARY.md when the records are not here (the tree keeps no records.json): a compare
step keeps its headline line, so `--pages` or a partial rerun on a fresh checkout does not lose it."""
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import run_lessons  # noqa: E402

LESSON = run_lessons.Lesson("03-vectorization", "Vectorization and loop structure", [
    run_lessons.Step("pop-mapping", "compare pop --deck inputs/pop/small.yaml --vary solver.mapping=flat,team"),
    run_lessons.Step("stream-run", "run --deck inputs/stream/small.yaml stream", out="json"),
])
HEADLINE = "- `pop-mapping` 1x1 ranks x threads, FOM [us]: mapping=flat 60.89 (x1.00; time x1.00)"


class SummaryWithoutRecords(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.results = Path(self.tmp.name)
        (self.results / "MACHINE.txt").write_text("host test\n")
        self.saved, run_lessons.RESULTS = run_lessons.RESULTS, self.results

    def tearDown(self):
        run_lessons.RESULTS = self.saved
        self.tmp.cleanup()

    def summary(self):
        return (self.results / "SUMMARY.md").read_text().splitlines()

    def test_compare_step_keeps_its_headline(self):
        (self.results / "SUMMARY.md").write_text(f"# old\n\n## {LESSON.folder}: {LESSON.title}\n{HEADLINE}\n")
        run_lessons.write_summary([LESSON])
        self.assertIn(HEADLINE, self.summary())
        self.assertIn("- `stream-run`: see `03-vectorization/stream-run.txt`", self.summary())

    def test_headline_of_another_lesson_is_not_taken(self):
        (self.results / "SUMMARY.md").write_text(f"## 07-other: Other\n{HEADLINE}\n")
        run_lessons.write_summary([LESSON])
        self.assertNotIn(HEADLINE, self.summary())
        self.assertIn("- `pop-mapping`: see `03-vectorization/pop-mapping.txt`", self.summary())


if __name__ == "__main__":
    unittest.main()
