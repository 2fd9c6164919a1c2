"""bench/gpu/metrics.py over synthetic device records: each metric's arithmetic, runs that are missing, not verified,
not on a device or without the figure, and results.json's append-only rule.

The synthetic records are built from host_records.json: real records of the host build, the runs of
test_host_records.RUNS (device-check.sh's keys at small sizes: fft3d with fft3d.serial_baseline at 1 rank and at
2 ranks, pstswm with perf.measure_fft, pop's tenth-degree benchmark deck with perf.limits and x1, evh1 tiled), kept
to their identity, configuration and results with the binaries' field names. Each test gives them a device, the
check's sizes and numbers of its own; test_host_records does the same with records the binaries write at test time.
"""
import contextlib
import copy
import io
import json
import sys
import tarfile
import tempfile
import unittest
import unittest.mock
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import metrics  # noqa: E402

HOST = json.loads((HERE / "host_records.json").read_text())
HASH = "0123456789abcdef0123456789abcdef01234567"


def device_record(host, config=None, results=None, dirty=False, date="2027-01-15T10:00:00+0000"):
    """A host record as a device run gives it: the device present, a build of HASH, `config` and `results` set
    (dotted keys: 'fft3d.nx', 'per_step_s.total')."""
    r = copy.deepcopy(host)
    r["provenance"].update(device={"present": True, "name": "NVIDIA H200", "memory_bytes": 1.5e11},
                           git_hash=HASH, git_dirty="true" if dirty else "false", date=date)
    for section, changes in (("config", config or {}), ("results", results or {})):
        for key, value in changes.items():
            node = r[section]
            *path, last = key.split(".")
            for part in path:
                node = node[part]
            assert last in node, f"{host['app']}: {section}.{key} is not a field of the host record"
            node[last] = value
    return r


def fft3d_one_rank(host, n, forward, inverse, plan):
    return device_record(host["fft3d-1rank-baseline"], {"fft3d.nx": n, "fft3d.ny": n, "fft3d.nz": n},
                         {"forward_seconds_median": forward, "inverse_seconds_median": inverse,
                          "library_3d_fft_seconds": plan})


def pop_tenth(host, mapping, seconds, triad=4.0e12, bytes_per_iteration=1.6e9, converged=False):
    """The tenth-degree benchmark (converged: a solve to a criterion instead, tenth.yaml)."""
    tenth = {"grid.nx": 3600, "grid.ny": 2400, "solver.mapping": mapping, "solver.crit": 1e-13 if converged else 0.0}
    r = device_record(host["pop-tenth-bench-limits"], tenth,
                      {"seconds_per_iteration": seconds, "bytes_per_iteration_all_ranks": bytes_per_iteration})
    kernels = [p for p in r["results"]["limits"]["phases"] if p["phase"] == "operator and vector kernels"]
    kernels[0]["ceiling_rate"] = triad
    return r


def check(host=HOST):
    """The records of one device check, named as device-check.sh names its runs, made from `host`'s records."""
    return {
        "fft3d-256-slab-r1": fft3d_one_rank(host, 256, 0.8e-3, 1.2e-3, 0.45e-3),  # 45% of the plan
        "fft3d-256-pencil-r1": fft3d_one_rank(host, 256, 0.5e-3, 0.5e-3, 0.46e-3),  # 92%
        "fft3d-512-slab-r1": fft3d_one_rank(host, 512, 4.0e-3, 4.0e-3, 3.6e-3),  # 90%: the target, met
        "fft3d-256-pencil-2ranks": device_record(
            host["fft3d-2ranks"], {"fft3d.nx": 256, "fft3d.ny": 256, "fft3d.nz": 256},
            {"pack_unpack_gbs": 2600.0, "copy_gbs_same_bytes": 4000.0}),  # 65%
        "pstswm-T340-r1": device_record(host["pstswm-measure-fft"], {"model.truncation": 340},
                                        {"gflops_per_rank.fft": 900.0, "fft_alone_gflops": 1500.0}),  # 60%
        "pstswm-T680-r1": device_record(host["pstswm-measure-fft"], {"model.truncation": 680},
                                        {"gflops_per_rank.fft": 3000.0, "fft_alone_gflops": 6000.0,
                                         "per_step_s.total": 5.0e-3}),  # 50%; 5 ms a step
        "pop-tenth-flat-r1": pop_tenth(host, "flat", 1.0e-3),  # 1.6 TB/s of a 4 TB/s triad: 40%
        "pop-tenth-flat-r2": pop_tenth(host, "flat", 0.5e-3),  # 80%
        "pop-tenth-flat-r3": pop_tenth(host, "flat", 0.8e-3),  # 50%
        "pop-tenth-team-r1": pop_tenth(host, "team", 1.2e-3),
        "pop-tenth-team-r2": pop_tenth(host, "team", 0.9e-3),
        "pop-tenth-team-r3": pop_tenth(host, "team", 5.0e-3),  # medians: team 1.2 ms over flat 0.8 ms, 1.5
        "pop-tenth-converged-team": pop_tenth(host, "team", 9.0e-3, converged=True),  # not the benchmark: no metric
        "pop-x1-flat": device_record(host["pop-x1"], {"grid.nx": 320, "grid.ny": 384, "solver.mapping": "flat"},
                                     {"seconds_per_iteration": 0.19e-3}),
        "evh1-oblique-4096-tiled": device_record(host["evh1-tiled"], {"grid.nx": 4096, "grid.ny": 4096},
                                                 {"zone_cycles": 4096.0 * 4096 * 20, "elapsed_s": 0.25}),
    }


# check()'s metrics: (value, met) per entry, its runs in the order of their names
EXPECTED = {
    "fft3d.pct_of_library_3d_256": [(92.0, True), (45.0, False)],  # pencil-r1, slab-r1
    "fft3d.pct_of_library_3d_512": [(90.0, True)],
    "fft3d.pack_unpack_pct_of_copy_256": [(65.0, False)],
    "pstswm.fft_stage_pct_of_plan_T340": [(60.0, True)],
    "pstswm.fft_stage_pct_of_plan_T680": [(50.0, False)],
    "pstswm.step_seconds_T680": [(5.0e-3, True)],
    "pop.pct_of_triad_tenth": [(40.0, False), (80.0, True), (50.0, False)],
    "pop.team_over_flat_tenth": [(1.5, False)],
    "pop.seconds_per_iteration_x1": [(0.19e-3, True)],
    "evh1.zone_cycles_per_second": [(4096.0 * 4096 * 20 / 0.25, True)],
}


def assert_expected(test, host):
    """metrics.compute over check(host) gives EXPECTED, nothing missing."""
    entries, missing = metrics.compute(check(host))
    test.assertEqual(missing, {})
    got = {m: [(e["value"], e["met"]) for e in es] for m, es in by_metric(entries).items()}
    test.assertEqual(set(got), set(EXPECTED))
    for metric, values in EXPECTED.items():
        test.assertEqual(len(got[metric]), len(values), metric)
        for (value, met), (want, want_met) in zip(got[metric], values):
            test.assertAlmostEqual(value, want, delta=1e-5 * want, msg=metric)
            test.assertEqual(met, want_met, metric)


def by_metric(entries):
    values = {}
    for e in entries:
        values.setdefault(e["metric"], []).append(e)
    return values


class Arithmetic(unittest.TestCase):
    def test_every_metric_from_its_runs(self):
        assert_expected(self, HOST)

    def test_targets(self):
        targets = {e["metric"]: e["target"] for e in metrics.compute(check())[0]}
        self.assertEqual(targets["fft3d.pct_of_library_3d_256"], 90)
        self.assertEqual(targets["fft3d.pack_unpack_pct_of_copy_256"], 80)
        self.assertEqual(targets["pstswm.fft_stage_pct_of_plan_T680"], 60)
        self.assertAlmostEqual(targets["pstswm.step_seconds_T680"], 0.016327 / 3, delta=1e-8)
        self.assertEqual(targets["pop.pct_of_triad_tenth"], 80)
        self.assertEqual(targets["pop.team_over_flat_tenth"], 1.3)
        self.assertEqual(targets["pop.seconds_per_iteration_x1"], 0.2e-3)
        self.assertEqual(targets["evh1.zone_cycles_per_second"], 1e9)

    def test_device_commit_and_date_from_the_records(self):
        records = check()
        records["pop-x1-flat"] = device_record(HOST["pop-x1"], {"grid.nx": 320, "grid.ny": 384},
                                               {"seconds_per_iteration": 0.3e-3}, dirty=True,
                                               date="2027-02-01T23:59:00+0000")
        entries = by_metric(metrics.compute(records)[0])
        x1 = entries["pop.seconds_per_iteration_x1"][0]
        self.assertEqual((x1["device"], x1["commit"], x1["date"], x1["met"]),
                         ("NVIDIA H200", HASH[:7] + "-dirty", "2027-02-01", False))
        fft = entries["fft3d.pct_of_library_3d_512"][0]
        self.assertEqual((fft["commit"], fft["date"]), (HASH[:7], "2027-01-15"))
        given = metrics.compute(records, date="2027-03-03")[0]
        self.assertEqual({e["date"] for e in given}, {"2027-03-03"})
        self.assertEqual(list(given[0]), ["metric", "value", "target", "met", "device", "date", "commit"])


class MissingRuns(unittest.TestCase):
    def compute(self, records):
        with contextlib.redirect_stderr(io.StringIO()) as err:
            entries, missing = metrics.compute(records)
        return by_metric(entries), missing, err.getvalue()

    def test_no_runs(self):
        records = {n: r for n, r in check().items() if not n.startswith("pop-tenth")}
        entries, missing, _ = self.compute(records)
        self.assertEqual(set(missing), {"pop.pct_of_triad_tenth", "pop.team_over_flat_tenth"})
        self.assertIn("no device run of pop tenth-degree benchmark", missing["pop.pct_of_triad_tenth"])
        self.assertNotIn("pop.pct_of_triad_tenth", entries)
        self.assertIn("pop.seconds_per_iteration_x1", entries)

    def test_unverified_runs_left_out(self):
        records = check()
        records["fft3d-256-slab-r1"]["verification"]["passed"] = False
        records["pop-tenth-team-r3"]["status"] = "interrupted"
        entries, missing, err = self.compute(records)
        self.assertEqual([e["value"] for e in entries["fft3d.pct_of_library_3d_256"]], [92.0])
        # team's median is now of 1.2 and 0.9 ms: 1.05 ms over flat's 0.8 ms
        self.assertAlmostEqual(entries["pop.team_over_flat_tenth"][0]["value"], 1.3125, delta=1e-6)
        self.assertIn("fft3d-256-slab-r1", err)
        self.assertIn("pop-tenth-team-r3", err)
        self.assertEqual(missing, {})

    def test_every_run_unverified(self):
        records = check()
        records["evh1-oblique-4096-tiled"]["verification"]["passed"] = False
        entries, missing, _ = self.compute(records)
        self.assertNotIn("evh1.zone_cycles_per_second", entries)
        self.assertIn("did not verify", missing["evh1.zone_cycles_per_second"])

    def test_host_runs_are_not_device_runs(self):
        records = check()
        host = copy.deepcopy(records["pstswm-T680-r1"])
        host["provenance"]["device"] = copy.deepcopy(HOST["pstswm-measure-fft"]["provenance"]["device"])
        host["results"]["per_step_s"]["total"] = 0.5
        records["pstswm-T680-host"] = host
        entries, _, _ = self.compute(records)
        self.assertEqual([e["value"] for e in entries["pstswm.step_seconds_T680"]], [5.0e-3])
        del records["pstswm-T680-r1"]
        entries, missing, _ = self.compute(records)
        self.assertIn("no device run of pstswm T680", missing["pstswm.step_seconds_T680"])

    def test_runs_without_the_figure(self):
        records = check()
        for name in ("pop-tenth-flat-r1", "pop-tenth-flat-r2", "pop-tenth-flat-r3"):
            del records[name]["results"]["limits"]  # a run without perf.limits=true
        records["fft3d-512-slab-r1"]["config"]["fft3d"]["serial_baseline"] = False
        records["pstswm-T340-r1"]["config"]["perf"]["measure_fft"] = False
        records["fft3d-256-pencil-2ranks"]["results"]["pack_unpack_bytes_per_transform"] = 0.0  # folded into FFTs
        entries, missing, _ = self.compute(records)
        self.assertIn("results.limits", missing["pop.pct_of_triad_tenth"])
        self.assertIn("serial_baseline", missing["fft3d.pct_of_library_3d_512"])
        self.assertIn("measure_fft", missing["pstswm.fft_stage_pct_of_plan_T340"])
        self.assertIn("no pack or unpack", missing["fft3d.pack_unpack_pct_of_copy_256"])
        self.assertIn("pop.team_over_flat_tenth", entries)  # needs no limits

    def test_the_triad_of_the_iterations_bytes(self):
        # on a device without per-phase timers, pop's limits section has one phase, the whole iteration
        records = check()
        for name in ("pop-tenth-flat-r1", "pop-tenth-flat-r2", "pop-tenth-flat-r3"):
            phases = records[name]["results"]["limits"]["phases"]
            phases[:] = [p for p in phases if p["phase"] == "operator and vector kernels"]
            phases[0]["phase"] = "whole iteration (kernels+halo+sums)"
        entries, missing, _ = self.compute(records)
        self.assertEqual([e["value"] for e in entries["pop.pct_of_triad_tenth"]], [40.0, 80.0, 50.0])

    def test_zero_and_non_finite_figures(self):
        records = check()
        records["pstswm-T340-r1"]["results"]["fft_alone_gflops"] = 0.0
        records["fft3d-512-slab-r1"]["results"]["forward_seconds_median"] = float("inf")
        records["fft3d-512-slab-r1"]["results"]["inverse_seconds_median"] = float("-inf")
        entries, missing, _ = self.compute(records)
        self.assertIn("divides by is 0", missing["pstswm.fft_stage_pct_of_plan_T340"])
        self.assertIn("not a finite number", missing["fft3d.pct_of_library_3d_512"])
        json.loads("[" + ",".join(metrics.entry_line(e) for es in entries.values() for e in es) + "]")

    def test_runs_of_different_builds(self):
        records = check()
        records["pop-tenth-team-r1"]["provenance"]["git_hash"] = "f" * 40
        _, missing, _ = self.compute(records)
        self.assertIn("different devices or builds", missing["pop.team_over_flat_tenth"])


def write_records(folder, records):
    """folder/records as device-check.sh leaves it: each run's record and text."""
    (folder / "records").mkdir()
    for name, r in records.items():
        (folder / "records" / f"{name}.json").write_text(json.dumps(r))
        (folder / "records" / f"{name}.txt").write_text("VERIFICATION: PASSED\n")


class Inputs(unittest.TestCase):
    def test_tar_and_folder_alike(self):
        with tempfile.TemporaryDirectory() as d:
            d = Path(d)
            write_records(d, check())
            (d / "records" / "cut-short.json").write_text('{"app": "pop", ')  # a run killed while writing
            with tarfile.open(d / "records.tar", "w") as tar:
                tar.add(d / "records", arcname="records")
            with contextlib.redirect_stderr(io.StringIO()) as err:
                from_tar = metrics.load_records(d / "records.tar")
                from_folder = metrics.load_records(d / "records")
            self.assertEqual(from_tar, from_folder)
            self.assertEqual(set(from_tar), set(check()))
            self.assertIn("cut-short.json is not a complete record", err.getvalue())


class AppendOnly(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.results = Path(self.dir.name) / "results.json"
        # results.json as it is, one entry written in another JSON style (which a rewrite would change)
        self.earlier = (HERE.parent / "results.json").read_text().replace('"value": 53.6564,', '"value":53.65640,', 1)
        self.assertIn('"value":53.65640,', self.earlier)
        self.results.write_text(self.earlier)
        self.entries = metrics.compute(check())[0]

    def tearDown(self):
        self.dir.cleanup()

    def test_earlier_entries_kept_byte_for_byte(self):
        self.assertEqual(metrics.append(self.results, self.entries), len(self.entries))
        text = self.results.read_text()
        head = self.earlier.rstrip()[:-1].rstrip()
        self.assertTrue(text.startswith(head))
        self.assertEqual(json.loads(text), json.loads(self.earlier) + self.entries)
        self.assertEqual(len(text.splitlines()), len(self.earlier.splitlines()) + len(self.entries))

    def test_entries_not_added_twice(self):
        metrics.append(self.results, self.entries)
        once = self.results.read_text()
        self.assertEqual(metrics.append(self.results, self.entries), 0)
        self.assertEqual(self.results.read_text(), once)

    def test_an_empty_list(self):
        self.results.write_text("[]\n")
        metrics.append(self.results, self.entries[:2])
        self.assertEqual(json.loads(self.results.read_text()), self.entries[:2])

    def test_not_a_list_left_alone(self):
        self.results.write_text('{"metric": "x"}\n')
        with self.assertRaises(SystemExit):
            metrics.append(self.results, self.entries)
        self.assertEqual(self.results.read_text(), '{"metric": "x"}\n')
        self.assertEqual([p.name for p in Path(self.dir.name).iterdir()], ["results.json"])  # no temporary left

    def test_a_failed_write_leaves_the_file(self):
        with unittest.mock.patch.object(metrics.os, "replace", side_effect=OSError("disk full")):
            with self.assertRaises(OSError):
                metrics.append(self.results, self.entries)
        self.assertEqual(self.results.read_text(), self.earlier)
        self.assertEqual([p.name for p in Path(self.dir.name).iterdir()], ["results.json"])

    def test_command_line(self):
        with tempfile.TemporaryDirectory() as d:
            write_records(Path(d), {n: r for n, r in check().items() if not n.startswith("evh1")})
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                rc = metrics.main([str(Path(d) / "records"), "--append", str(self.results), "--date", "2027-04-01"])
        self.assertEqual(rc, 0)
        printed = [json.loads(line) for line in out.getvalue().splitlines()]
        self.assertEqual(json.loads(self.results.read_text()), json.loads(self.earlier) + printed)
        self.assertEqual({e["date"] for e in printed}, {"2027-04-01"})
        self.assertIn("missing: evh1.zone_cycles_per_second: no device run", err.getvalue())


if __name__ == "__main__":
    unittest.main()
