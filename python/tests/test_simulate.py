"""ctest label `simulate`: the real pop binary built against SimGrid SMPI (ci/build-smpi.sh proxylab-pop) runs at 4
simulated ranks on 2 nodes of a machine description, verifies itself, reports the counts of a 4-rank run, and its
simulated time per step moves the way the platform says (a slower network makes it slower). Skipped, with the
reason, when smpirun or the SMPI build is missing (ci/stage-simulate.sh installs and builds both)."""
import unittest

import harness_testing  # noqa: F401  (puts python/ on the path)
from proxylab_tools import machine_file, runner, smpi
from proxylab_tools import model as mdl

DECK = runner.ROOT / "inputs" / "pop" / "small.yaml"


class SimulatedPop(unittest.TestCase):
    def setUp(self):
        why = smpi.unavailable("pop")
        if why:
            print(why)  # ctest's SKIP_REGULAR_EXPRESSION
            self.skipTest(why)

    def test_four_ranks_on_two_nodes(self):
        m = dict(machine_file.load("xt4"), cores_per_node=2)
        record, proc = smpi.run("pop", 4, m, m["dgemm_gflops_per_core"], DECK, ["solver.max_iters=60"], timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stdout[-2000:] + proc.stderr[-2000:])
        self.assertTrue(record["verification"]["passed"])
        counts = mdl.counts_of(record)
        self.assertEqual(counts["ranks"], 4)
        self.assertEqual({c["pattern"] for c in counts["communication"]}, {"halo", "allreduce"})
        slow_net = dict(m, inter_node_latency_us=1000 * m["inter_node_latency_us"])
        slow, proc = smpi.run("pop", 4, slow_net, m["dgemm_gflops_per_core"], DECK, ["solver.max_iters=60"],
                              timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr[-2000:])
        # 2 global sums and a halo update per iteration, each crossing nodes: at least 1 ms more per iteration
        self.assertGreater(mdl.seconds_per_step("pop", slow) - mdl.seconds_per_step("pop", record), 1e-3)


class Platform(unittest.TestCase):
    def test_platform_file(self):
        m = machine_file.load("xe6")
        xml = smpi.platform_xml(m, 3)
        self.assertIn('radical="0-2"', xml)
        self.assertIn('core="32"', xml)
        self.assertEqual(smpi.hostfile(m, 33).splitlines()[-2:], ["node-0", "node-1"])


if __name__ == "__main__":
    unittest.main()
