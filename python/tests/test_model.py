"""Unit tests of the performance model's arithmetic (proxylab_tools.model) and the machine files
(proxylab_tools.machine_file): numbers worked out by hand."""
import argparse
import math
import tempfile
import unittest
from pathlib import Path
from unittest import mock

import harness_testing  # noqa: F401  (puts python/ on the path)
from proxylab_tools import machine_file, machine_measure, model_command
from proxylab_tools import model as mdl


def machine(**over):
    """A made-up machine with round numbers: 4 cores per node, 10 GB/s per core, 20 GB/s per node."""
    m = {"name": "test", "description": "round numbers", "cores_per_node": 4,
         "memory_bandwidth_per_core_gbs": 10.0, "memory_bandwidth_per_node_gbs": 20.0,
         "dgemm_gflops_per_core": 10.0, "fft_gflops_per_core": 2.0,
         "intra_node_latency_us": 1.0, "intra_node_bandwidth_gbs": 1.0,
         "inter_node_latency_us": 10.0, "inter_node_bandwidth_gbs": 4.0,
         "allreduce_stage_us": 2.0, "alltoall_message_us": 0.0}
    m.update(over)
    m["sources"] = {k: "test" for k in machine_file.KEYS}
    return m


def counts(ranks, kernels, comms, step="step"):
    return {"step": step, "ranks": ranks, "kernels": kernels, "communication": comms}


def kernel(name, rate, flops=0.0, bytes_=0.0, work=0.0, seconds=0.0):
    return {"kernel": name, "rate": rate, "flops": flops, "bytes": bytes_, "work": work, "seconds": seconds}


def comm(pattern, calls, bytes_, messages, group, copy_bytes=0.0):
    return {"pattern": pattern, "calls": calls, "bytes": bytes_, "messages": messages, "group": group,
            "copy_bytes": copy_bytes}


class Scaling(unittest.TestCase):
    def test_totals_follow_the_line_through_two_records(self):
        self.assertEqual(mdl.fit_total(1, 100.0, 4, 160.0, 2), 120.0)  # replicated work: 20 per extra rank
        self.assertEqual(mdl.fit_total(1, 100.0, 4, 160.0, 64), 100.0 + 20.0 * 63)
        self.assertEqual(mdl.fit_total(4, 50.0, 4, 50.0, 1000), 50.0)  # one record: constant
        self.assertEqual(mdl.fit_total(1, 100.0, 4, 10.0, 1000), 0.0)  # never negative

    def test_group_sizes(self):
        self.assertEqual(mdl.group_at(4, 4, 64), 64)   # all ranks stay all ranks
        self.assertEqual(mdl.group_at(4, 16, 64), 8)   # pencil rows: sqrt(P)
        self.assertEqual(mdl.group_at(1, 4, 64), 1)

    def test_process_grid_communicators_follow_the_codes_factorisation(self):
        # fft3d's most square grid, p_row <= p_col: 2 ranks are 1 x 2 (one real transpose, among the columns),
        # 12 are 3 x 4, 64 are 8 x 8, a prime 7 is 1 x 7
        for p, rows, cols in ((2, 1, 2), (9, 3, 3), (12, 3, 4), (64, 8, 8), (7, 1, 7)):
            self.assertEqual((mdl.grid_group(p, 0), mdl.grid_group(p, 1)), (rows, cols))
        row = dict(comm("alltoall", 0.5, 1000.0, 2, 3), grid_axis=0)
        col = dict(comm("alltoall", 0.5, 1000.0, 2, 3), grid_axis=1)
        self.assertEqual([mdl.scale_comm(c, 9, 2)["group"] for c in (row, col)], [1, 2])
        self.assertEqual(mdl.scale_comm(row, 9, 2)["bytes"], 0.0)

    def test_alltoall_bytes_per_rank_shrink_with_ranks(self):
        c = comm("alltoall", 2, 24576.0, 3, 4, copy_bytes=49152.0)  # 4 ranks: each sends 3/4 of its quarter
        at8 = mdl.scale_comm(c, 4, 8)
        # volume V = 24576 * 4 / (3/4) = 131072; at 8 ranks each sends (7/8) V / 8, and packs it (read + write)
        self.assertAlmostEqual(at8["bytes"], 131072 * 7 / 64)
        self.assertAlmostEqual(at8["copy_bytes"], 2 * 131072 * 7 / 64)
        self.assertEqual((at8["messages"], at8["group"], at8["calls"]), (7, 8, 2))

    def test_halo_bytes_follow_the_perimeter(self):
        at16 = mdl.scale_comm(comm("halo", 1.1, 1000.0, 8, 4), 4, 16)
        self.assertAlmostEqual(at16["bytes"], 500.0)
        self.assertEqual(at16["messages"], 8)

    def test_allreduce_keeps_its_payload(self):
        at = mdl.scale_comm(comm("allreduce", 2.5, 16.0, 1, 4), 4, 1024)
        self.assertEqual((at["bytes"], at["group"], at["calls"]), (16.0, 1024, 2.5))

    def test_counts_at_divides_totals_and_drops_communication_at_one_rank(self):
        lo = counts(1, [kernel("k", "memory", bytes_=100.0)], [])
        hi = counts(4, [kernel("k", "memory", bytes_=100.0)], [comm("allreduce", 1, 8, 1, 4)])
        at2 = mdl.counts_at(lo, hi, 2)
        self.assertEqual(at2["kernels"][0]["bytes"], 50.0)
        self.assertEqual(len(at2["communication"]), 1)
        self.assertEqual(mdl.counts_at(lo, hi, 1)["communication"], [])

    def test_points_beyond_the_decks_decomposition_are_marked(self):
        lo, hi = counts(1, [kernel("k", "memory", bytes_=1e9)], []), counts(4, [kernel("k", "memory", bytes_=1e9)], [])
        hi["max_ranks"] = 32  # pstswm T42: 32 latitude pairs
        self.assertNotIn("beyond_decomposition", mdl.predict(mdl.counts_at(lo, hi, 32), machine()))
        self.assertEqual(mdl.predict(mdl.counts_at(lo, hi, 64), machine())["beyond_decomposition"], 32)
        del hi["max_ranks"]  # no limit reported: nothing marked
        self.assertNotIn("beyond_decomposition", mdl.predict(mdl.counts_at(lo, hi, 64), machine()))

    def test_mismatched_records_are_refused(self):
        with self.assertRaises(mdl.ModelError):
            mdl.counts_at(counts(1, [kernel("a", "memory")], []), counts(4, [kernel("b", "memory")], []), 2)


class Costs(unittest.TestCase):
    def test_roofline_of_a_kernel(self):
        m = machine()
        # 1 rank: 10 GB/s; 1e9 bytes take 0.1 s; 1e9 dgemm flops at 10 GFLOP/s take 0.1 s
        self.assertAlmostEqual(mdl.kernel_seconds(kernel("k", "memory", bytes_=1e9), m, 1), 0.1)
        self.assertAlmostEqual(mdl.kernel_seconds(kernel("k", "dgemm", flops=2e9, bytes_=1e9), m, 1), 0.2)
        self.assertAlmostEqual(mdl.kernel_seconds(kernel("k", "fft", flops=1e9, bytes_=1e8), m, 1), 0.5)
        # 4 ranks on a node share 20 GB/s: 5 GB/s each
        self.assertAlmostEqual(mdl.kernel_seconds(kernel("k", "memory", bytes_=1e9), m, 4), 0.2)

    def test_calibrated_kernel_needs_its_unit_cost(self):
        k = kernel("sweeps", "calibrated", work=1000.0)
        self.assertAlmostEqual(mdl.kernel_seconds(k, machine(), 1, 1e-6), 1e-3)
        with self.assertRaises(mdl.ModelError):
            mdl.kernel_seconds(k, machine(), 1)

    def test_calibrated_kernels_keep_the_fraction_of_their_bound_measured_here(self):
        here = machine()  # 10 GB/s for one rank alone
        rec = {"results": {"model_counts": counts(1, [kernel("k", "memory", bytes_=1e9, seconds=0.2),
                                                      kernel("sweeps", "calibrated", work=10.0, seconds=1.0)], [])}}
        slow = mdl.kernel_slowdowns(rec, here)
        self.assertEqual(set(slow), {"k"})  # a calibrated kernel has its unit cost instead
        self.assertAlmostEqual(slow["k"], 2.0)  # 0.2 s measured against 1e9 B / 10 GB/s
        there = machine(memory_bandwidth_per_core_gbs=5.0, memory_bandwidth_per_node_gbs=5.0)
        one = counts(1, [kernel("k", "memory", bytes_=1e9)], [])
        self.assertAlmostEqual(mdl.predict(one, there, slowdowns=slow)["compute"], 0.4)
        self.assertAlmostEqual(mdl.predict(one, there)["compute"], 0.2)

    def test_unit_costs_scale_with_core_speed(self):
        record = {"results": {"model_counts": counts(1, [kernel("sweeps", "calibrated", work=1e6, seconds=2.0)], [])}}
        costs = mdl.unit_costs(record, machine(dgemm_gflops_per_core=10.0), machine(dgemm_gflops_per_core=20.0))
        self.assertAlmostEqual(costs["sweeps"], 1e-6)

    def test_alltoall_inside_a_node(self):
        # 4 ranks on one node: 3 messages of 1 us, 3e6 bytes at 1 GB/s
        t = mdl.comm_seconds(comm("alltoall", 1, 3e6, 3, 4), machine(), 4)
        self.assertAlmostEqual(t, 3e-6 + 3e-3)
        # packing 1e9 bytes at the 5 GB/s each of 4 ranks gets
        t_packed = mdl.comm_seconds(comm("alltoall", 1, 3e6, 3, 4, copy_bytes=1e9), machine(), 4)
        self.assertAlmostEqual(t_packed - t, 0.2)

    def test_alltoall_across_nodes_shares_the_nic(self):
        # 8 ranks, 2 nodes: 3 partners on the node, 4 off; 7e6 bytes: 3e6 at 1 GB/s, 4e6 at 4/4 GB/s
        t = mdl.comm_seconds(comm("alltoall", 1, 7e6, 7, 8), machine(), 8)
        self.assertAlmostEqual(t, 3 * 1e-6 + 4 * 10e-6 + 3e-3 + 4e-3)

    def test_node_aware_alltoall_sends_fewer_messages_at_scale(self):
        m = machine(alltoall_message_us=5.0)
        c = comm("alltoall", 1, 4096.0, 1023, 1024)
        plain = mdl.comm_seconds(c, m, 1024)
        aware = mdl.comm_seconds(dict(c, pattern="alltoall_node_aware"), m, 1024)
        self.assertLess(aware, plain / 3)  # one message per node pair instead of per rank pair: ~4x fewer

    def test_allreduce_stages(self):
        m = machine()
        # 4 ranks inside a node: 2 stages of 2 us + 2 * 8 * 3/4 bytes at 1 GB/s
        self.assertAlmostEqual(mdl.comm_seconds(comm("allreduce", 1, 8.0, 1, 4), m, 4), 4e-6 + 12e-9)
        # 64 ranks = 16 nodes: 2 stages inside, 4 between (2 + 10 - 1 us each), the volume through the shared NIC
        t = mdl.comm_seconds(comm("allreduce", 1, 8.0, 1, 64), m, 64)
        self.assertAlmostEqual(t, 2 * 2e-6 + 4 * 11e-6 + 2 * 8 * 63 / 64 / 1e9)

    def test_predict_sums_the_parts(self):
        c = counts(4, [kernel("k", "memory", bytes_=5e8)],
                   [comm("allreduce", 2, 8.0, 1, 4), comm("halo", 1, 1e6, 4, 4)])
        p = mdl.predict(c, machine())
        self.assertAlmostEqual(p["compute"], 0.1)
        self.assertAlmostEqual(p["reduction"], 2 * (4e-6 + 12e-9))
        self.assertAlmostEqual(p["halo"], 4e-6 + 1e-3)
        self.assertAlmostEqual(p["total"], p["compute"] + p["reduction"] + p["halo"])
        self.assertEqual((p["ranks"], p["nodes"]), (4, 1))

    def test_crossovers(self):
        a = [{"ranks": r, "total": t} for r, t in [(1, 1.0), (2, 0.6), (4, 0.5)]]
        b = [{"ranks": r, "total": t} for r, t in [(1, 2.0), (2, 0.7), (4, 0.3)]]
        self.assertEqual(mdl.crossovers({"a": a, "b": b}), [{"ranks": 4, "from": "a", "to": "b"}])
        self.assertEqual(mdl.crossovers({"a": a}), [])


try:
    import yaml  # noqa: F401
    HAVE_YAML = True
except ImportError:
    HAVE_YAML = False


@unittest.skipUnless(HAVE_YAML, "PyYAML missing: machine files cannot be read (apt-get install python3-yaml)")
class Cache(unittest.TestCase):
    def test_the_part_of_the_working_set_in_the_cache_share_moves_at_the_cache_bandwidth(self):
        m = machine(cache_per_core_mb=1.0, cache_bandwidth_per_core_gbs=40.0)  # memory: 5 GB/s per rank on 4
        self.assertEqual(mdl.cache_share(m, 4), 1e6)
        self.assertEqual(mdl.cache_share(m, 1), 4e6)  # alone on the node: the whole cache
        self.assertAlmostEqual(mdl.seconds_per_byte(m, 4, 0.5e6), 1 / 40e9)
        self.assertAlmostEqual(mdl.seconds_per_byte(m, 4, 4e6), 0.25 / 40e9 + 0.75 / 5e9)
        self.assertAlmostEqual(mdl.seconds_per_byte(m, 1, 4e6), 1 / 40e9)
        self.assertAlmostEqual(mdl.seconds_per_byte(machine(), 4, 0.5e6), 1 / 5e9)  # no cache described

    def test_predict_uses_the_steps_working_set(self):
        m = machine(cache_per_core_mb=1.0, cache_bandwidth_per_core_gbs=40.0)
        small = counts(4, [kernel("a", "memory", bytes_=2e5), kernel("b", "memory", bytes_=2e5)], [])
        self.assertAlmostEqual(mdl.predict(small, m)["compute"], 4e5 / 40e9)
        large = counts(4, [kernel("a", "memory", bytes_=1e6), kernel("b", "dgemm", flops=1.0, bytes_=1e6)], [])
        self.assertAlmostEqual(mdl.predict(large, m)["compute"], 2e6 * (0.5 / 40e9 + 0.5 / 5e9))

    def test_the_two_cache_keys_come_together(self):
        m = machine(cache_per_core_mb=1.0)
        m["sources"]["cache_per_core_mb"] = "test"
        with self.assertRaisesRegex(machine_file.MachineError, "cache_bandwidth_per_core_gbs"):
            machine_file.validate(m, "m.yaml")


class Launches(unittest.TestCase):
    def test_each_launch_costs_the_machines_launch_time(self):
        lo = dict(counts(1, [kernel("k", "memory", bytes_=1e9)], []), launches=10.0)
        hi = dict(counts(4, [kernel("k", "memory", bytes_=1e9)], [comm("halo", 1, 800.0, 4, 4)]), launches=14.0)
        m = machine()
        one, two = mdl.counts_at(lo, hi, 1), mdl.counts_at(lo, hi, 2)
        self.assertEqual((one["launches"], two["launches"]), (10.0, 14.0))  # packing kernels from 2 ranks on
        plain, charged = mdl.predict(one, m), mdl.predict(one, m, None, 2e-6)
        self.assertAlmostEqual(charged["compute"] - plain["compute"], 10 * 2e-6)
        self.assertAlmostEqual(charged["detail"]["launches"], 2e-5)

    def test_launches_grow_with_the_partners_a_transpose_packs_for(self):
        lo = dict(counts(1, [kernel("fft", "fft", flops=1e6)], []), launches=1.0)
        hi = dict(counts(4, [kernel("fft", "fft", flops=1e6)], [comm("alltoall", 1, 8e3, 3, 4)]), launches=4.0)
        self.assertEqual([mdl.counts_at(lo, hi, p)["launches"] for p in (1, 2, 4, 16)], [1.0, 2.0, 4.0, 16.0])

    def test_launch_cost_is_the_targets_or_the_calibration_machines_scaled_by_core_speed(self):
        here = machine(kernel_launch_us=1.0, dgemm_gflops_per_core=20.0)
        self.assertAlmostEqual(mdl.launch_cost(here, machine(dgemm_gflops_per_core=5.0)), 4e-6)
        self.assertAlmostEqual(mdl.launch_cost(here, machine(kernel_launch_us=0.5)), 0.5e-6)
        self.assertEqual(mdl.launch_cost(machine(), machine()), 0.0)
        self.assertEqual(mdl.launch_cost(None, machine()), 0.0)  # no calibration machine (lesson 13 on a new host)


class CountingRuns(unittest.TestCase):
    """The counting runs are capped at a few steps (model_command.COUNT_CAPS), unless the deck or --set asks for
    fewer; the cap reaches the binary."""
    ROOT = Path(__file__).resolve().parents[2]

    def test_a_deck_of_days_is_capped(self):
        sets, line = model_command.counting_cap("pstswm", self.ROOT / "inputs/pstswm/T42L18-case2.yaml", [])
        self.assertEqual(sets, ["time.steps=20"])
        self.assertEqual(line, "counting runs capped at 20 time steps (time.steps=20)")

    def test_a_shorter_deck_or_the_users_set_keeps_its_steps(self):
        sets, line = model_command.counting_cap("pstswm", self.ROOT / "inputs/pstswm/T680L18-case2.yaml", [])
        self.assertEqual((sets, line), ([], "counting runs over the deck's 5 time steps (time.steps; the cap is 20)"))
        sets, line = model_command.counting_cap("pop", self.ROOT / "inputs/pop/x1.yaml", ["solver.max_iters=300"])
        self.assertEqual((sets, line), (["solver.crit=0"], "counting runs at solver.max_iters=300 (--set)"))

    def test_pop_runs_exactly_the_capped_iterations(self):
        self.assertEqual(model_command.counting_cap("pop", self.ROOT / "inputs/pop/x1.yaml", [])[0],
                         ["solver.max_iters=100", "solver.crit=0"])
        self.assertEqual(model_command.counting_cap("evh1", None, [])[0], ["time.max_steps=20"])

    def test_the_binary_gets_the_cap_before_the_users_sets(self):
        args = argparse.Namespace(app="fft3d", deck="64cube", set=["fft3d.nx=32"], preset="openmp", timeout=60,
                                  quiet=True)
        with mock.patch.object(model_command.runner, "run_app") as run_app:
            model_command.run_counting(args, 9, ["fft3d.transpose=alltoallv"], "counting")
        self.assertEqual(run_app.call_args.args[4],
                         ["fft3d.iterations=4", "fft3d.nx=32", "fft3d.transpose=alltoallv"])
        self.assertEqual(run_app.call_args.args[1], 9)


class MachineFiles(unittest.TestCase):
    def test_committed_machines_load_and_cite_every_value(self):
        names = machine_file.available()
        for name in ("t3e-1200e", "x1", "xt4", "xe6"):
            self.assertIn(name, names)
        for name in names:
            m = machine_file.load(name)
            optional = {k for k in machine_file.OPTIONAL_KEYS if k in m}
            self.assertEqual(set(m["sources"]), set(machine_file.KEYS) | optional, name)

    def test_round_trip(self):
        m = machine()
        self.assertEqual(machine_file.validate(yaml.safe_load(machine_file.dumps(m)), "x"), m)
        m = machine(kernel_launch_us=0.9)
        m["sources"]["kernel_launch_us"] = "test"
        self.assertEqual(machine_file.validate(yaml.safe_load(machine_file.dumps(m)), "x"), m)
        del m["sources"]["kernel_launch_us"]
        with self.assertRaisesRegex(machine_file.MachineError, "kernel_launch_us"):
            machine_file.validate(m, "m.yaml")

    def test_bad_values_name_the_key(self):
        for change, word in [({"cores_per_node": 2.5}, "cores_per_node"), ({"dgemm_gflops_per_core": 0}, "dgemm"),
                             ({"inter_node_latency_us": "fast"}, "inter_node_latency_us"), ({"colour": 1}, "colour")]:
            with self.assertRaises(machine_file.MachineError) as e:
                machine_file.validate(dict(machine(), **change), "m.yaml")
            self.assertIn(word, str(e.exception))
        m = machine()
        del m["sources"]["fft_gflops_per_core"]
        with self.assertRaisesRegex(machine_file.MachineError, "fft_gflops_per_core"):
            machine_file.validate(m, "m.yaml")

    def test_a_folder_or_a_binary_file_is_refused_naming_it(self):
        # model --machine DIR or a binary file used to end in a traceback.
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaisesRegex(machine_file.MachineError, "is not a file"):
                machine_file.load(d)
            binary = Path(d) / "b.yaml"
            binary.write_bytes(bytes(range(256)))
            with self.assertRaisesRegex(machine_file.MachineError, "not UTF-8 text"):
                machine_file.load(str(binary))
            # 1,200 nested lists were a RecursionError traceback of model --machine
            deep = Path(d) / "deep.yaml"
            deep.write_text("[" * 1200 + "]" * 1200)
            with self.assertRaisesRegex(machine_file.MachineError, "deep.yaml: nested too deep"):
                machine_file.load(str(deep))

    def test_rank_counts_beyond_any_machine_are_refused(self):
        # model --ranks 99999999999999 used to predict for 1e14 ranks on a 3072-point grid.
        import contextlib
        import io
        from proxylab_tools import cli
        err = io.StringIO()
        with contextlib.redirect_stdout(err), contextlib.redirect_stderr(err):
            rc = cli.main(["model", "pop", "--machine", "xt4", "--ranks", "1,99999999999999"])
        self.assertEqual(rc, 2)
        self.assertIn("--ranks 99999999999999: at most 67108864", err.getvalue())

    def test_unknown_pattern_in_a_record(self):
        rec = {"results": {"model_counts": counts(2, [], [comm("broadcast", 1, 8, 1, 2)])}}
        with self.assertRaisesRegex(mdl.ModelError, "broadcast"):
            mdl.counts_of(rec)
        with self.assertRaisesRegex(mdl.ModelError, "model_counts"):
            mdl.counts_of({"results": {}})


class Measuring(unittest.TestCase):
    """What ./proxylab machine reads from the probes' records (numbers made up)."""
    record = {"results": {
        "pingpong": [{"bytes": 0, "t_med_us": 0.9}, {"bytes": 8, "t_med_us": 1.0},
                     {"bytes": 4194304, "t_med_us": 2097.152}],
        "allreduce": [{"operation": "allreduce", "words": 1, "group": 1, "t_med_us": 0.01},
                      {"operation": "allreduce", "words": 1, "group": 2, "t_med_us": 1.5},
                      {"operation": "iallreduce", "words": 1, "group": 2, "t_med_us": 9.0}],
        "alltoall": [{"strategy": "alltoall", "group": 2, "bytes": 8, "t_med_us": 3.0},
                     {"strategy": "alltoallv", "group": 2, "bytes": 8, "t_med_us": 9.0}]}}

    def test_pingpong_latency_and_bandwidth(self):
        lat, bw = machine_measure.pingpong(self.record)
        self.assertEqual(lat, 1.0)  # 8 B, not the zero-byte message
        self.assertAlmostEqual(bw, 2.0)  # 4 MiB in 2.097 ms

    def test_allreduce_stage_and_alltoall_message(self):
        self.assertEqual(machine_measure.allreduce_stage_us(self.record, 2), 1.5)
        self.assertEqual(machine_measure.alltoall_message_us(self.record, 2, 1.0), 2.0)
        self.assertEqual(machine_measure.alltoall_message_us(self.record, 2, 5.0), 0.0)  # never negative


if __name__ == "__main__":
    unittest.main()


class SimulateWithTheModel(unittest.TestCase):
    """`proxylab simulate` without --no-model counts a run first, as `model` does (it called the counting with an
    argument missing and read an option it does not have: a traceback)."""

    def test_the_counting_runs_are_asked_as_the_model_asks_them(self):
        from proxylab_tools import smpi
        parser = argparse.ArgumentParser()
        smpi.register(parser.add_subparsers())
        args = parser.parse_args(["simulate", "pop", "--machine", "xt4", "--ranks", "4"])
        seen = {}

        def counting(a, sets, what):
            seen.update(sets=sets, what=what, quiet=a.quiet, count_ranks=a.count_ranks)
            raise mdl.ModelError("counting stops here")

        with mock.patch.object(smpi, "unavailable", return_value=None), \
                mock.patch.object(model_command, "measure_counts", counting):
            self.assertEqual(args.func(args), 2)
        self.assertEqual(seen, {"sets": [], "what": "counting", "quiet": False, "count_ranks": None})
