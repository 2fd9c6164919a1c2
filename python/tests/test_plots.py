"""The charts (run by the venv's Python, which has matplotlib): every kind is drawn from known data, and each
has axis labels with units and a title naming the machine and the command."""
import json
import tempfile
import unittest
from pathlib import Path

from PIL import Image

from harness_testing import HERE
from proxylab_tools import harness_compare as compare
from proxylab_tools import harness_common as hc
from proxylab_tools import harness_sweep as sweep
from proxylab_tools import model_plot
from proxylab_tools import plots
from test_harness_logic import run

MACHINE = {"host": "testhost", "cores": 7, "cpu": "Test CPU"}


def data_boxes(ax):
    """The display boxes of what an axes draws as data, clipped to the axes: each bar's or span's column up to the
    top of the axes (a legend above a bar covers its whisker, and a taller run's bar), the points of lines, and the
    segments of error bars and broken_barh (collections)."""
    from matplotlib.transforms import Bbox
    frame = ax.get_window_extent()
    boxes = [Bbox([[b.x0, b.y0], [b.x1, frame.y1]]) for b in (p.get_window_extent() for p in ax.patches)]
    for line in ax.get_lines():
        boxes += [Bbox([xy, xy]) for xy in line.get_transform().transform(line.get_xydata())]
    for c in ax.collections:
        boxes += [path.get_extents(c.get_transform()) for path in c.get_paths()]
    return [b for b in (Bbox.intersection(b, frame) for b in boxes if b.width == b.width) if b is not None]


def legends_over_data(fig) -> list[str]:
    """Every legend whose box overlaps data of any axes, as 'legend [labels] over <axes title>'."""
    fig.canvas.draw()
    legends = [ax.get_legend() for ax in fig.axes if ax.get_legend()] + list(fig.legends)
    found = []
    for legend in legends:
        box = legend.get_window_extent()
        for ax in fig.axes:
            if any(box.overlaps(b) for b in data_boxes(ax)):
                found.append(f"legend {[t.get_text() for t in legend.get_texts()]} over {ax.get_title()!r}")
    return found


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
        self.assertEqual(Image.open(png).mode, "P", "a chart is saved as a palette PNG (plots.save)")
        fig = self.plt.gcf()
        title = fig._suptitle.get_text()
        self.assertIn(host, title)
        self.assertRegex(title, r"\b1 core\b|\d+ cores\b")
        self.assertIn(command[:60], title.replace("\n", " "))
        for ax in fig.axes:
            for label in (ax.get_xlabel(), ax.get_ylabel()):
                if label and label not in ("MPI rank", "timer region", "instrumentation"):
                    self.assertRegex(label, r"\[.+\]|ranks", f"axis label without a unit: {label!r}")
        self.assertEqual(legends_over_data(fig), [], "a legend covers data")

    def draw_compare(self, runs: list, labels: list[str]) -> None:
        doc = {"tool": "compare", "app": "demo", "machine": MACHINE, "command": "./proxylab compare demo --vary k=A,B",
               "summary": {"labels": labels, "repeat": 2, "fom_name": "rate",
                           "configs": compare.summarize(runs, labels)}}
        png = self.dir / "c.png"
        plots.plot_compare(json.loads(json.dumps(hc.strict_json(doc))), png)
        self.check_figure(png, doc["command"])

    def test_compare_chart(self):
        self.draw_compare([run(v, r, f, 1.0, ranks=p, regions={"step": 0.5, "step/halo": 0.1})
                           for p in (1, 2) for r in range(2) for v, f in (("A", 10.0 * p), ("B", 12.0 * p))], ["A", "B"])
        self.assertEqual(len(self.plt.gcf().axes), 2)
        self.assertEqual(self.plt.gcf().axes[0].get_ylabel(), "rate [GB/s]")

    def test_compare_chart_of_one_configuration(self):
        # two variants at one rank count: bars nearly as high as the axes, across its width (workshop lesson 3)
        labels = ["mapping=pencil", "mapping=batched"]
        self.draw_compare([run(v, r, f + r, 1.0, regions={"hydro": 0.5 * f, "hydro/sweep_x": 0.2 * f})
                           for r in range(3) for v, f in zip(labels, (2.75, 3.03))], labels)

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

    def test_a_log_axis_within_two_decades_has_several_labels(self):
        # 3 to 30 on a log axis showed one tick label (10^1)
        fig, ax = self.plt.subplots()
        ax.bar(["a", "b"], [3, 30])
        plots.log_scale_if_spread(ax, [3, 30], 5)
        plots.save(fig, self.dir / "log.png")
        lo, hi = ax.get_ylim()
        shown = [t for t in ax.yaxis.get_ticklabels(minor=True) + ax.yaxis.get_ticklabels()
                 if t.get_text() and lo <= t.get_position()[1] <= hi]
        self.assertGreaterEqual(len(shown), 3, [t.get_text() for t in shown])

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
        # the regions' colours are not the utilization legend's (compute was green in both)
        region = {tuple(h.get_facecolor()) for h in self.plt.gcf().legends[0].legend_handles}
        utilization = {tuple(h.get_facecolor()) for h in self.plt.gcf().axes[1].get_legend().legend_handles}
        self.assertFalse(region & utilization)

    def test_comm_chart_of_the_fixture(self):
        # fixture: `./proxylab run comm --ranks 2 --deck inputs/comm/small.yaml --json ...` (workshop lesson 2; the
        # deck then stopped at 4 KiB)
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
        self.assertIn("2 ranks x 1 thread", fig._suptitle.get_text())
        one = dict(doc, provenance=dict(doc["provenance"], ranks=1))
        plots.plot_comm(one, png, "./proxylab plot comm one.json")
        self.assertIn("1 rank x 1 thread", self.plt.gcf()._suptitle.get_text())  # not "1 ranks"

    def test_roofline_chart(self):
        doc = {"tool": "roofline", "machine": MACHINE, "command": "./proxylab roofline", "triad_gbs": 24.0,
               "memory_gbs": 32.0, "dgemm_gflops": 48.0, "ridge_intensity": 1.5, "last_level_cache_bytes": 2 ** 25,
               "points": [{"kernel": "STREAM triad", "intensity": 2 / 24, "gflops": 2.0, "fraction_of_roof": 0.75,
                           "footprint_bytes": 2 ** 30, "in_cache": False},
                          {"kernel": "pop PCG", "intensity": 0.2, "gflops": 8.0, "fraction_of_roof": 1.25,
                           "footprint_bytes": 2 ** 24, "in_cache": True},
                          {"kernel": "LT gemm", "intensity": 3.0, "gflops": 24.0, "fraction_of_roof": 0.5,
                           "footprint_bytes": 2 ** 26, "in_cache": False}]}
        png = self.dir / "roofline.png"
        plots.plot_roofline(doc, png)
        self.check_figure(png, "./proxylab roofline")
        ax = self.plt.gcf().axes[0]
        self.assertEqual((ax.get_xscale(), ax.get_yscale()), ("log", "log"))
        roof, counted = ax.get_lines()[:2]
        self.assertAlmostEqual(max(roof.get_ydata()), 48.0)  # the DGEMM ceiling
        self.assertAlmostEqual(roof.get_ydata()[0] / roof.get_xdata()[0], 32.0)  # the memory roof: moved bytes
        self.assertAlmostEqual(counted.get_ydata()[0] / counted.get_xdata()[0], 24.0)  # dashed: triad as counted
        self.assertEqual(len(ax.get_lines()), 5)  # the roof, triad as counted and one marker per kernel
        legend = [t.get_text().replace("\n", " ") for t in ax.get_legend().get_texts()]
        self.assertIn("pop PCG: 125% of roof (above the DRAM roof: its data (16 MiB) fit in the 32 MiB last-level "
                      "cache)", legend)
        self.assertIn("LT gemm: 50% of roof", legend)
        self.assertIn("1 run;", ax.get_title())  # not "1 runs"

    def test_model_chart_beyond_the_decomposition_limit_and_crossovers(self):
        def point(p, total, beyond=False):
            q = {"ranks": p, "total": total, "compute": total / 2, "transpose": total / 2, "halo": 0.0,
                 "reduction": 0.0}
            return {**q, "beyond_decomposition": 4} if beyond else q
        doc = {"app": "demo", "deck": "inputs/demo/x.yaml", "command": "./proxylab model demo",
               "machine": {"name": "m", "cores_per_node": 1, "description": "one core"},
               "curves": {"A": [point(1, 8.0), point(2, 5.0), point(4, 4.0), point(8, 1.0, True)],
                          "B": [point(1, 9.0), point(2, 4.0), point(4, 4.5), point(8, 2.0, True)]},
               "crossovers": [{"ranks": 2, "from": "A", "to": "B"}, {"ranks": 4, "from": "B", "to": "A"},
                              {"ranks": 8, "from": "A", "to": "B"}]}
        png = self.dir / "model.png"
        model_plot.plot_model(doc, png)
        self.check_figure(png, doc["command"], host="model of m")
        self.assertIn("1 core", self.plt.gcf()._suptitle.get_text())  # not "1 cores"
        ax = self.plt.gcf().axes[0]
        solid = [ln for ln in ax.get_lines() if ln.get_linestyle() == "-" and ln.get_label() in ("A", "B")]
        self.assertEqual([max(ln.get_xdata()) for ln in solid], [4, 4])  # real runs stop at the limit
        dashed = [ln for ln in ax.get_lines() if ln.get_linestyle() == "--"]
        self.assertEqual([list(ln.get_xdata()) for ln in dashed], [[4, 8], [4, 8]])  # beyond it: dashed, from 4
        legend = [t.get_text().replace("\n", " ") for t in ax.get_legend().get_texts()]
        self.assertIn("beyond the decomposition limit (4 ranks): trend only, no such run", legend)
        labels = [t for t in ax.texts if "faster from" in t.get_text()]
        self.assertEqual(len({t.xy[1] for t in labels}), 3)  # each crossover label at its own height
        self.assertIn("faster from 8 ranks (beyond the limit)", labels[2].get_text())

    def test_plot_command_rejects_what_is_not_a_comm_record(self):
        from proxylab_tools import cli
        self.assertEqual(cli.main(["plot", "comm", str(HERE / "fixtures" / "trace_small.json")]), 2)
        self.assertEqual(cli.main(["plot", "comm", str(self.dir / "missing.json")]), 2)

    def test_a_results_file_of_another_kind_is_one_line_not_a_traceback(self):
        # python -m proxylab_tools.plots KIND INPUT PNG redraws a chart: a file of another kind was a KeyError
        import contextlib
        import io
        for kind, doc in (("compare", {"summary": {"mode": "strong"}}), ("sweep", [1, 2]),
                          ("roofline", {"triad_gbs": "fast"})):
            source = self.dir / f"{kind}.json"
            source.write_text(json.dumps(doc))
            err = io.StringIO()
            with self.subTest(kind=kind), contextlib.redirect_stderr(err):
                self.assertEqual(plots.main([kind, str(source), str(self.dir / "x.png")]), 2)
            self.assertIn(f"'{source}' is not a {kind} results file", err.getvalue())
            self.assertEqual(len(err.getvalue().strip().splitlines()), 1)
            self.assertFalse((self.dir / "x.png").exists())


if __name__ == "__main__":
    unittest.main()
