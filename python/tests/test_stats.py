"""Unit tests of the statistics (proxylab_tools.stats)."""
import math
import unittest

import harness_testing  # noqa: F401  (puts python/ on the path)
from proxylab_tools import stats


class Summaries(unittest.TestCase):
    def test_median_odd_even(self):
        self.assertEqual(stats.median([3, 1, 2]), 2)
        self.assertEqual(stats.median([4, 1, 3, 2]), 2.5)

    def test_median_item(self):
        runs = [{"t": 3.0}, {"t": 1.0}, {"t": 2.0}, {"t": 4.0}]
        self.assertEqual(stats.median_item(runs[:3], key=lambda r: r["t"]), {"t": 2.0})
        self.assertEqual(stats.median_item(runs, key=lambda r: r["t"]), {"t": 2.0})  # the lower middle one
        self.assertIsNone(stats.median_item([], key=lambda r: r["t"]))

    def test_missing_values_are_dropped(self):
        self.assertEqual(stats.median([None, 5.0, float("nan"), 1.0, True]), 3.0)
        self.assertTrue(math.isnan(stats.median([])))
        self.assertIsNone(stats.summarize([None, float("nan")]))

    def test_summary(self):
        s = stats.summarize([2.0, 8.0, 4.0, 6.0, 5.0])
        self.assertEqual((s.n, s.median, s.min, s.max), (5, 5.0, 2.0, 8.0))
        self.assertAlmostEqual(s.spread_pct, 120.0)

    def test_ratio(self):
        self.assertEqual(stats.ratio(3.0, 2.0), 1.5)
        for value, ref in [(1.0, 0.0), (None, 1.0), (1.0, None), (float("nan"), 1.0)]:
            self.assertTrue(math.isnan(stats.ratio(value, ref)), (value, ref))

    def test_direction_of_the_fom(self):
        self.assertTrue(stats.higher_is_better("GB/s"))
        self.assertTrue(stats.higher_is_better("cell updates/s"))
        self.assertFalse(stats.higher_is_better("s"))
        self.assertFalse(stats.higher_is_better(" ms"))

    def test_formatting(self):
        self.assertEqual(stats.fmt(1234.5678), "1235")
        self.assertEqual(stats.fmt(float("nan")), "-")
        self.assertEqual(stats.fmt_ratio(1.0), "1.000")
        self.assertEqual(stats.fmt_ratio(None), "-")


class Scaling(unittest.TestCase):
    def test_strong_efficiency(self):
        # 8 s on 1 rank, 4.4 s on 2, 2.5 s on 4: E = 8/(2*4.4), 8/(4*2.5)
        self.assertAlmostEqual(stats.parallel_efficiency("strong", 1, 8.0, 2, 4.4), 8 / 8.8)
        self.assertAlmostEqual(stats.parallel_efficiency("strong", 1, 8.0, 4, 2.5), 0.8)
        self.assertAlmostEqual(stats.parallel_efficiency("strong", 2, 4.0, 8, 1.0), 1.0)  # p0 need not be 1

    def test_weak_efficiency(self):
        self.assertAlmostEqual(stats.parallel_efficiency("weak", 1, 1.0, 4, 1.25), 0.8)

    def test_rate_efficiency_matches_time_efficiency_in_strong_scaling(self):
        work = 100.0
        t1, t4 = 8.0, 2.5
        self.assertAlmostEqual(stats.rate_efficiency("strong", 1, work / t1, 4, work / t4),
                               stats.parallel_efficiency("strong", 1, t1, 4, t4))

    def test_speedup(self):
        self.assertAlmostEqual(stats.speedup(8.0, 2.0), 4.0)

    def test_bad_mode(self):
        with self.assertRaises(ValueError):
            stats.parallel_efficiency("diagonal", 1, 1.0, 2, 1.0)


if __name__ == "__main__":
    unittest.main()
