"""The front end's own argument handling: run passes deck, sets, threads and flags after -- to the
binary exactly once; demo and run pick each app's small deck; aliases name the probes."""
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from proxylab_tools import cli, launch, runner


class RunArguments(unittest.TestCase):
    def run_cli(self, argv):
        calls = []

        def fake_run_app(app, ranks, threads, deck, sets, json_path, trace, quiet, extra, capture, preset, launch):
            calls.append(dict(app=app, ranks=ranks, threads=threads, deck=deck, sets=sets, json=json_path,
                              trace=trace, quiet=quiet, extra=extra, launch=launch))
            return runner.RunResult(app, ranks, threads, str(deck), sets, 0, 0.0)

        built = mock.MagicMock()
        built.exists.return_value = True
        with mock.patch.object(runner, "run_app", fake_run_app), mock.patch.object(runner, "binary", lambda *a: built):
            rc = cli.main(argv)
        self.assertEqual(rc, 0)
        self.assertEqual(len(calls), 1)
        return calls[0]

    def test_deck_sets_and_extra_flags(self):
        c = self.run_cli(["run", "pop", "--deck", "inputs/pop/x1.yaml", "--ranks", "4", "--threads", "2", "--oversubscribe",
                          "--set", "solver.name=pcsi", "--set", "comm.halo=rma", "--", "--no-timers"])
        self.assertEqual((c["app"], c["ranks"], c["threads"]), ("pop", 4, 2))
        self.assertEqual(c["deck"], runner.ROOT / "inputs" / "pop" / "x1.yaml")  # found from any folder
        self.assertEqual(c["sets"], ["solver.name=pcsi", "comm.halo=rma"])
        self.assertEqual(c["extra"], ["--no-timers"])

    def test_kokkos_flags_before_the_bare_dashes_go_to_the_binary(self):
        c = self.run_cli(["run", "stream", "--kokkos-tools-libs=/opt/kp_kernel_timer.so", "--quiet",
                          "--kokkos-print-configuration", "--", "--no-timers"])
        self.assertEqual(c["extra"], ["--kokkos-tools-libs=/opt/kp_kernel_timer.so", "--kokkos-print-configuration",
                                      "--no-timers"])
        self.assertTrue(c["quiet"])

    def test_other_unknown_flags_are_still_refused(self):
        with mock.patch("sys.stderr"), self.assertRaises(SystemExit) as e:
            cli.main(["run", "stream", "--kokkos-tools-libs=/x.so", "--no-such-flag"])
        self.assertEqual(e.exception.code, 2)
        with mock.patch("sys.stderr"), self.assertRaises(SystemExit) as e:
            cli.main(["sweep", "stream", "--kokkos-tools-libs=/x.so"])  # its runs take no binary flags
        self.assertEqual(e.exception.code, 2)

    def test_default_deck_when_none_given(self):
        c = self.run_cli(["run", "stream"])
        self.assertTrue(str(c["deck"]).endswith("inputs/stream/small.yaml"))
        self.assertEqual(c["extra"], [])

    def test_probe_aliases(self):
        self.assertEqual(runner.canonical_app("probes-comm"), "comm")
        self.assertTrue(str(runner.binary("probes-stream")).endswith("proxylab-stream"))

    def test_command_line_of_a_run(self):
        plan = launch.Launch(2, 1, launch.LaunchOptions("mpiexec"))
        with mock.patch.object(runner.Path, "exists", lambda self: True), \
                mock.patch.object(launch, "mpiexec_executable", lambda: "/usr/bin/mpiexec.mpich"), \
                mock.patch.object(launch, "mpiexec_flavour", lambda exe: "hydra"):
            cmd = runner.app_command("pop", plan, "d.yaml", ["a.b=1"], "r.json", None, True, ["--no-timers"])
        self.assertEqual(cmd[:5], ["/usr/bin/mpiexec.mpich", "-n", "2", "-bind-to", "core:1"])
        self.assertTrue(cmd[5].endswith("proxylab-pop"))
        self.assertEqual(cmd[6:], ["--deck", "d.yaml", "--set", "a.b=1", "--json", "r.json", "--quiet", "--no-timers"])


if __name__ == "__main__":
    unittest.main()


class BuildOnAFreshClone(unittest.TestCase):
    """`./proxylab build` before `./proxylab setup` on a fresh clone stopped at CMake's MPI search: with no Kokkos of
    the user's and none set up, build runs the set-up first; otherwise it goes straight to CMake."""

    def commands(self, kokkos_root, deps_kokkos, configured):
        calls = []
        with tempfile.TemporaryDirectory() as root:
            if deps_kokkos:
                (Path(root) / ".deps" / "kokkos").mkdir(parents=True)
            with mock.patch.object(cli, "sh", lambda cmd: calls.append(cmd) or 0), \
                    mock.patch.object(cli, "configured", lambda preset: configured), \
                    mock.patch.object(cli, "ROOT", Path(root)), mock.patch.dict(cli.os.environ):
                cli.os.environ.pop("Kokkos_ROOT", None)
                if kokkos_root:
                    cli.os.environ["Kokkos_ROOT"] = kokkos_root
                self.assertEqual(cli.main(["build"]), 0)
        return [" ".join(map(str, c)) for c in calls]

    def test_fresh_clone_runs_the_setup_first(self):
        cmds = self.commands(kokkos_root=None, deps_kokkos=False, configured=False)
        self.assertIn("setup-deps.sh", cmds[0])
        self.assertTrue(cmds[1].startswith("cmake --preset openmp"))

    def test_set_up_or_configured_goes_straight_to_cmake(self):
        for kokkos_root, deps, conf in ((None, True, False), ("/opt/kokkos", False, False), (None, False, True)):
            cmds = self.commands(kokkos_root, deps, conf)
            self.assertFalse(any("setup-deps.sh" in c for c in cmds), (kokkos_root, deps, conf, cmds))
            self.assertTrue(cmds[-1].startswith("cmake --build"))
