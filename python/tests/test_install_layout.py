"""Where the front end finds binaries and decks (python/proxylab_tools/runner.py): in a checkout (build/<preset>/bin,
inputs/) and in a `cmake --install` prefix (install-layout.json names bin/ seen from share/proxylab); decks by
path from the current directory, by path from the root, or by name ("x1" -> inputs/pop/x1.yaml)."""
import json
import os
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from proxylab_tools import runner


class InstalledLayout(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        prefix = Path(self.tmp.name)
        self.share = prefix / "share" / "proxylab"
        (self.share / "inputs" / "pop").mkdir(parents=True)
        (self.share / "inputs" / "pop" / "x1.yaml").write_text("grid: {nx: 320}\n")
        (prefix / "bin").mkdir()
        self.env = mock.patch.dict(os.environ, {k: v for k, v in os.environ.items() if k != "PROXYLAB_BUILD_DIR"},
                                   clear=True)
        self.env.start()

    def tearDown(self):
        self.env.stop()
        self.tmp.cleanup()

    def test_checkout_has_no_installed_bin_dir(self):
        with mock.patch.object(runner, "ROOT", self.share):
            self.assertIsNone(runner.installed_bin_dir())
            self.assertEqual(runner.binary("pop"), self.share / "build" / "openmp" / "bin" / "proxylab-pop")

    def test_installed_binaries_come_from_the_layout_file(self):
        (self.share / "install-layout.json").write_text(json.dumps({"bindir": "../../bin", "version": "0.2.0"}))
        with mock.patch.object(runner, "ROOT", self.share):
            bindir = (Path(self.tmp.name) / "bin").resolve()
            self.assertEqual(runner.installed_bin_dir(), bindir)
            self.assertEqual(runner.binary("probes-stream"), bindir / "proxylab-stream")
            with mock.patch.dict(os.environ, {"PROXYLAB_BUILD_DIR": "/elsewhere"}):  # ctest's build tree wins
                self.assertEqual(runner.binary("pop"), Path("/elsewhere/bin/proxylab-pop"))
            self.assertEqual(runner.front_end(), bindir / "proxylab")  # what a job script calls
            self.assertEqual(runner.install_hint("matplotlib"), "pip install matplotlib")  # no ./proxylab setup here

    def test_decks_by_name_by_root_path_and_by_own_path(self):
        with mock.patch.object(runner, "ROOT", self.share):
            x1 = self.share / "inputs" / "pop" / "x1.yaml"
            self.assertEqual(runner.resolve_deck("pop", "x1"), x1)
            self.assertEqual(runner.resolve_deck("pop", "x1.yaml"), x1)
            self.assertEqual(runner.resolve_deck("pop", "inputs/pop/x1.yaml"), x1)  # from the root, made absolute
            own = Path(self.tmp.name) / "mine.yaml"
            own.write_text("solver: {name: pcsi}\n")
            cwd = os.getcwd()
            try:
                os.chdir(self.tmp.name)
                self.assertEqual(runner.resolve_deck("pop", "mine.yaml"), own.resolve())
            finally:
                os.chdir(cwd)
            self.assertEqual(runner.resolve_deck("pop", "nonesuch"), Path("nonesuch"))
            self.assertIsNone(runner.resolve_deck("pop", None))  # no demo/small deck in this fake tree

    def test_a_missing_deck_names_the_decks_there_are(self):
        with mock.patch.object(runner, "ROOT", self.share):
            self.assertEqual(runner.missing_deck("pop", "x1"), "")
            self.assertEqual(runner.missing_deck("pop", None), "")
            message = runner.missing_deck("pop", "x2")
            self.assertIn("deck 'x2' not found", message)
            self.assertIn("(x1)", message)


if __name__ == "__main__":
    unittest.main()
