"""The charts (run by the venv's Python, which has matplotlib): every kind is drawn from known data, and each
has axis labels with units and a title naming the machine and the command."""
import json
import tempfile
import unittest
from pathlib import Path

from harness_testing import HERE
from proxylab_tools import harness_compare as compare
from proxylab_tools import harness_common as hc
from proxylab_tools import harness_sweep as sweep
from proxylab_tools import plots
from test_harness_logic import run

MACHINE = {"host": "testhost", "cores": 7, "cpu": "Test CPU"}


class Charts(unittest.TestCase):
    def setUp(self):
        self.plt = plots._plt()
        self.plt.close("all")
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def check_figure(self, png: Path, command: str, host: str = "testhost"):
        self.assertEqual(png.read_bytes()[:4], b"\x89PNG")
        fig = self.plt.gcf()
        title = fig._suptitle.get_text()
        self.assertIn(host, title)
        self.assertIn("cores", title)
        self.assertIn(command[:60], title.replace("\n", " "))
        for ax in fig.axes:
            for label in (ax.get_xlabel(), ax.get_ylabel()):
                if label and label not in ("MPI rank", "timer region", "instrumentation"):
                    self.assertRegex(label, r"\[.+\]|ranks", f"axis label without a unit: {label!r}")

    def test_compare_chart(self):
        runs = [run(v, r, f, 1.0, ranks=p, regions={"step": 0.5, "step/halo": 0.1})
                for p in (1, 2) for r in range(2) for v, f in (("A", 10.0 * p), ("B", 12.0 * p))]
        doc = {"tool": "compare", "app": "demo", "machine": MACHINE, "command": "./proxylab compare demo --vary k=A,B",
               "summary": {"labels": ["A", "B"], "repeat": 2, "fom_name": "rate",
                           "configs": compare.summarize(runs, ["A", "B"])}}
        png = self.dir / "c.png"
        plots.plot_compare(json.loads(json.dumps(hc.strict_json(doc))), png)
        self.check_figure(png, doc["command"])
        self.assertEqual(len(self.plt.gcf().axes), 2)
        self.assertEqual(self.plt.gcf().axes[0].get_ylabel(), "rate [GB/s]")

    def test_sweep_chart(self):
        cs = sweep.curves("strong", [1, 2, 4], None, [])
        runs = [run("x", 0, 1.0, 8.0 / p, ranks=p, curve=cs[0][0]) for p in (1, 2, 4)]
        doc = {"tool": "sweep", "app": "demo", "machine": MACHINE, "command": "./proxylab sweep demo --ranks 1,2,4",
               "summary": {"mode": "strong", "metric": "run time", "repeat": 1, "threads": 1, "fom_unit": "GB/s",
                           "curves": sweep.summarize(runs, cs, "strong", None)}}
        png = self.dir / "s.png"
        plots.plot_sweep(json.loads(json.dumps(hc.strict_json(doc))), png)
        self.check_figure(png, doc["command"])
        self.assertEqual(self.plt.gcf().axes[1].get_ylabel(), "parallel efficiency [%]")

    def test_gantt_chart_of_the_fixture(self):
        png = self.dir / "g.png"
        plots.plot_gantt(HERE / "fixtures" / "trace_fft3d_2ranks.json", png, "./proxylab gantt trace_fft3d_2ranks.json")
        self.check_figure(png, "./proxylab gantt trace_fft3d_2ranks.json", host=hc.machine()["host"])
        self.assertEqual(len(self.plt.gcf().axes[0].get_yticks()), 2)  # two ranks

    def test_gantt_coloured_by_region(self):
        png = self.dir / "r.png"
        plots.plot_gantt(HERE / "fixtures" / "trace_fft3d_2ranks.json", png, "./proxylab gantt x", by="region")
        self.check_figure(png, "./proxylab gantt x", host=hc.machine()["host"])
        names = [t.get_text() for t in self.plt.gcf().legends[0].get_texts()]
        self.assertIn("forward/transpose", names)
        self.assertLessEqual(len(names), 11)  # ten regions and "other regions"

    def test_comm_chart_of_the_fixture(self):
        # fixture: `./proxylab run comm --ranks 2 --deck inputs/comm/small.yaml --json ...` (workshop lesson 2)
        doc = json.loads((HERE / "fixtures" / "comm_small_2ranks.json").read_text())
        png = self.dir / "comm.png"
        plots.plot_comm(doc, png, "./proxylab plot comm comm_small_2ranks.json")
        self.check_figure(png, "./proxylab plot comm comm_small_2ranks.json", host=doc["provenance"]["host"])
        fig = self.plt.gcf()
        self.assertEqual(len(fig.axes), 4)
        latency = {line.get_label(): line for line in fig.axes[0].get_lines()}
        self.assertIn("pingpong", latency)
        sizes = sorted(r["bytes"] for r in doc["results"]["pingpong"] if r["bytes"] > 0)
        self.assertEqual(sorted(latency["pingpong"].get_xdata()), sizes)  # every size but 0 B (log axis)
        halo = {p.get_label() for p in fig.axes[3].patches} | {t.get_text() for t in fig.axes[3].get_legend().get_texts()}
        self.assertTrue({"packed", "persistent", "rma"} <= halo)

    def test_roofline_chart(self):
        doc = {"tool": "roofline", "machine": MACHINE, "command": "./proxylab roofline", "triad_gbs": 24.0,
               "dgemm_gflops": 48.0, "ridge_intensity": 2.0,
               "points": [{"kernel": "STREAM triad", "intensity": 2 / 24, "gflops": 2.0, "fraction_of_roof": 1.0},
                          {"kernel": "LT gemm", "intensity": 3.0, "gflops": 24.0, "fraction_of_roof": 0.5}]}
        png = self.dir / "roofline.png"
        plots.plot_roofline(doc, png)
        self.check_figure(png, "./proxylab roofline")
        ax = self.plt.gcf().axes[0]
        self.assertEqual((ax.get_xscale(), ax.get_yscale()), ("log", "log"))
        roof = ax.get_lines()[0]
        self.assertAlmostEqual(max(roof.get_ydata()), 48.0)  # the DGEMM ceiling
        self.assertEqual(len(ax.get_lines()), 3)  # the roof and one marker per kernel

    def test_plot_command_rejects_what_is_not_a_comm_record(self):
        from proxylab_tools import cli
        self.assertEqual(cli.main(["plot", "comm", str(HERE / "fixtures" / "trace_small.json")]), 2)
        self.assertEqual(cli.main(["plot", "comm", str(self.dir / "missing.json")]), 2)


if __name__ == "__main__":
    unittest.main()
