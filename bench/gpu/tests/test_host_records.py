"""bench/gpu/metrics.py over records the host build writes today: the runs of host_records.json, made again by the
binaries with device-check.sh's keys at small sizes, then given a device and the check's numbers as test_metrics does.
Every metric must come out as in test_metrics: a field a metric reads that a proxy renamed or dropped fails here, not
on the next GPU. (Run through ctest, which points PYTHONPATH at python/ and PROXYLAB_BUILD_DIR at the build.)
"""
import unittest

import test_metrics
from proxylab_tools import runner

# host_records.json's runs: (app, ranks, deck, keys), the keys device-check.sh gives the runs each stands for
RUNS = {
    "fft3d-1rank-baseline": ("fft3d", 1, "small", ["fft3d.nx=16", "fft3d.ny=16", "fft3d.nz=16", "fft3d.iterations=3",
                                                   "fft3d.serial_baseline=true", "verify.serial_max_points=0"]),
    "fft3d-2ranks": ("fft3d", 2, "small", ["fft3d.nx=16", "fft3d.ny=16", "fft3d.nz=16", "fft3d.iterations=3",
                                           "fft3d.decomposition=pencil", "verify.serial_max_points=0"]),
    "pstswm-measure-fft": ("pstswm", 1, "small", ["perf.measure_fft=true", "perf.measure_dgemm=true"]),
    "pop-tenth-bench-limits": ("pop", 1, "tenth-bench", ["grid.nx=120", "grid.ny=80", "solver.mapping=flat",
                                                         "bench.stream=false", "perf.limits=true"]),
    "pop-x1": ("pop", 1, "x1", ["grid.nx=64", "grid.ny=48", "solver.mapping=flat"]),
    "evh1-tiled": ("evh1", 1, "sod-oblique", ["grid.nx=64", "grid.ny=64", "time.max_steps=5", "evh1.mapping=tiled",
                                              "evh1.tile=64", "perf.limits=true"]),
}


class HostRecords(unittest.TestCase):
    def test_every_metric_from_todays_records(self):
        for app in {app for app, _, _, _ in RUNS.values()}:
            if not runner.binary(app).exists():
                self.skipTest(f"proxylab-{app} not built")
        host = {name: runner.verified_record(app, ranks, 1, runner.resolve_deck(app, deck), sets)
                for name, (app, ranks, deck, sets) in RUNS.items()}
        self.assertEqual(set(host), set(test_metrics.HOST))
        test_metrics.assert_expected(self, host)


if __name__ == "__main__":
    unittest.main()
