"""A run's files and the text it prints, on the real binaries (directly at 1 and 2 ranks, and through the front end):
no output replaces an input of the run or another of its outputs, a deck is never waited for (a FIFO with no writer,
a device), a signal ends the wait for a silent writer, user text never forges a line, symbolic links are followed.
The front end's own rules without binaries: test_run_files.py."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

from harness_testing import ROOT
from test_life_cycle import BUILD, ENV, MPIEXEC, sh


@unittest.skipUnless(all((BUILD / "bin" / f"proxylab-{a}").exists() for a in ("stream", "evh1", "pop", "fft3d")),
                     "stream, evh1, pop and fft3d are not all built")
class RunFiles(unittest.TestCase):
    """No output replaces an input of the run or another output (exit 2 before the run, naming both), directly and
    through the front end; a deck is never waited for; user text never forges a line; symbolic links are followed."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        self.deck = self.dir / "deck.yaml"
        self.text = (ROOT / "inputs/stream/small.yaml").read_text()
        self.deck.write_text(self.text)

    def tearDown(self):
        self.tmp.cleanup()

    def commands(self, app: str = "stream", args: str = "") -> list[tuple[str, str]]:
        """The same run directly at 1 and 2 ranks and through the front end."""
        binary = f"{BUILD}/bin/proxylab-{app} --quiet {args}"
        return [("direct np1", f"{MPIEXEC} -n 1 {binary}"), ("direct np2", f"{MPIEXEC} -n 2 {binary}"),
                ("front end", f"{sys.executable} -m proxylab_tools.cli run {app} --ranks 2 --oversubscribe --quiet "
                              f"{args}")]

    def refused(self, command: str, *fragments: str) -> str:
        p = sh(command, timeout=60)
        self.assertEqual(p.returncode, 2, f"{command}: {p.stdout[-2000:]}{p.stderr[-2000:]}")
        self.assertNotIn("VERIFICATION", p.stdout, f"{command}: it ran")
        for f in fragments:  # the binaries' messages are on stderr, the front end's own on stdout
            self.assertIn(f, p.stdout + p.stderr, command)
        return p.stdout + p.stderr

    def test_an_output_never_replaces_the_deck(self):
        # --json DECK replaced the run's deck with its record (exit 0, the deck gone); so did pop's operator file.
        os.symlink(self.deck, self.dir / "link.yaml")
        os.link(self.deck, self.dir / "hard.yaml")
        for name, cmd in self.commands(args=f"--deck {self.deck} --set stream.n=4096"):
            for output, path in (("--json", self.deck), ("--json", self.dir / "link.yaml"),
                                 ("--json", self.dir / "hard.yaml"), ("--trace", self.deck)):
                self.refused(f"{cmd} {output} {path}", f"{output} '{path}' is the same file as --deck",
                             "an output may not replace an input of the run")
                self.assertEqual(self.deck.read_text(), self.text, f"{name} {output} {path}")
        pop = self.dir / "pop.yaml"
        pop.write_text((ROOT / "inputs/pop/small.yaml").read_text())
        for name, cmd in self.commands("pop", f"--deck {pop} --set output.operator_file={pop}"):
            self.refused(cmd, f"output.operator_file '{pop}' is the same file as --deck '{pop}'")
            self.assertEqual(pop.read_text(), (ROOT / "inputs/pop/small.yaml").read_text(), name)

    def test_two_outputs_never_share_a_file(self):
        # --trace x --json x and evh1's density header against --json replaced one another in silence.
        out = self.dir / "x.json"
        for name, cmd in self.commands(args="--set stream.n=4096"):
            self.refused(f"{cmd} --trace {out} --json {out}", "are the same file: one output would replace the other")
        for name, cmd in self.commands("evh1", f"--deck inputs/evh1/test-sod.yaml --set output.density_file={out}"):
            self.refused(f"{cmd} --json {out}.json", f"output.density_file '{out}' (its file '{out}.json')")
        self.assertEqual(list(self.dir.iterdir()), [self.deck])

    def test_the_wisdom_file_is_no_record(self):
        # fft3d.wisdom is read and rewritten by design; as --json too it would be replaced by the record. The run is
        # refused and the file stays (the front end no longer removes it as a "stale record").
        wisdom = self.dir / "fft.wisdom"
        wisdom.write_text("(fftw-3.3.10 fftw_wisdom)\n")
        for name, cmd in self.commands("fft3d", f"--deck inputs/fft3d/small.yaml --set fft3d.planning=measure "
                                                f"--set fft3d.wisdom={wisdom}"):
            self.refused(f"{cmd} --json {wisdom}", f"--json '{wisdom}' is the same file as fft3d.wisdom")
            self.assertEqual(wisdom.read_text(), "(fftw-3.3.10 fftw_wisdom)\n", name)

    def test_a_refused_deck_leaves_an_input_given_as_output(self):
        # A deck refused for another key: its file keys are never read, so the wisdom file it names was not known
        # when the run ended, and the binary removed it as the "stale record" at --json. Only a record goes now.
        wisdom, record = self.dir / "fft.wisdom", self.dir / "old.json"
        wisdom.write_text("(fftw-3.3.10 fftw_wisdom)\n")
        for name, cmd in self.commands("fft3d", f"--deck inputs/fft3d/small.yaml --set fft3d.planning=measure "
                                                f"--set fft3d.wisdom={wisdom} --set fft3d.nope=1"):
            self.refused(f"{cmd} --json {wisdom}", "fft3d.nope")
            self.assertEqual(wisdom.read_text(), "(fftw-3.3.10 fftw_wisdom)\n", name)
            record.write_text('{"status": "completed"}')
            self.refused(f"{cmd} --json {record}", "fft3d.nope")
            self.assertFalse(record.exists(), f"{name}: an earlier run's record is still there")

    def test_a_stopped_run_leaves_the_wisdom_file_alone(self):
        # fft_wisdom.hpp: a run that ends early leaves the file as it was; one stopped in its loop still wrote it
        wisdom = self.dir / "fft3d.wisdom"
        p = subprocess.Popen(["bash", "-c", f"{MPIEXEC} -n 2 {BUILD}/bin/proxylab-fft3d --deck inputs/fft3d/small.yaml "
                              f"--set fft3d.planning=measure --set fft3d.wisdom={wisdom} --set fft3d.iterations=100000 "
                              "2>&1 >/dev/null"], cwd=ROOT, env=ENV, stdout=subprocess.PIPE, start_new_session=True)
        text, deadline = b"", time.monotonic() + 60
        while b"iteration " not in text and time.monotonic() < deadline:
            chunk = os.read(p.stdout.fileno(), 4096)
            if not chunk:
                break
            text += chunk
        os.killpg(p.pid, signal.SIGTERM)
        rest, _ = p.communicate(timeout=60)
        self.assertIn(b"interrupted at iteration", text + rest, (text + rest)[-1000:])  # stopped in its loop
        self.assertFalse(wisdom.exists(), "a stopped run wrote the wisdom file")

    def test_a_deck_is_never_waited_for(self):
        # --deck on a FIFO with no writer hung the front end and the binary (which then ignored SIGTERM).
        fifo = self.dir / "deck.fifo"
        os.mkfifo(fifo)
        for name, cmd in self.commands(args=f"--deck {fifo}"):
            t = time.monotonic()
            self.refused(cmd, f"--deck '{fifo}': is a pipe with no writer and nothing in it")
            self.assertLess(time.monotonic() - t, 30, name)
        for name, cmd in self.commands(args="--deck /dev/null"):
            self.refused(cmd, "--deck '/dev/null': is a character device")  # named so, not as a private copy
        p = sh(f"printf 'stream: [\\n' | {self.commands()[2][1]} --deck /dev/stdin")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("deck /dev/stdin: line 2, column 1: not valid YAML", p.stderr)

    def test_a_deck_redirected_into_stdin(self):
        # --deck /dev/stdin < deck.yaml went to the ranks as /dev/stdin, their own (empty) stdin: "is empty".
        self.deck.write_text("stream:\n  n: 4096\n  iterations: 2\n")
        p = sh(f"{self.commands()[2][1]} --deck /dev/stdin --json {self.dir}/r.json < {self.deck}")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        record = json.loads((self.dir / "r.json").read_text())
        self.assertEqual((record["deck"], record["config"]["stream"]["n"]), ("/dev/stdin", 4096))

    def test_a_signal_ends_the_wait_for_a_writer(self):
        # Blocked in open() on a FIFO, the binary ignored SIGTERM (SIGKILL was needed). A writer that is there but has
        # not written yet is waited for, and SIGTERM ends the wait (exit 130), in the binary and in the front end.
        fifo = self.dir / "deck.fifo"
        os.mkfifo(fifo)
        for name, argv in (("direct", [f"{BUILD}/bin/proxylab-stream", "--deck", str(fifo)]),
                           ("front end", [str(ROOT / "proxylab"), "run", "stream", "--deck", str(fifo)])):
            writer = subprocess.Popen(["bash", "-c", f"exec sleep 60 > '{fifo}'"])  # opens the FIFO, never writes
            try:
                p = subprocess.Popen(argv, cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
                self.addCleanup(p.kill)  # a run that hangs must not outlive the test
                deadline = time.monotonic() + 60
                while Path(f"/proc/{writer.pid}/comm").read_text().strip() != "sleep":  # the run has opened the FIFO
                    self.assertLess(time.monotonic(), deadline, f"{name}: the deck was never opened")
                    time.sleep(0.05)
                time.sleep(0.5)
                t = time.monotonic()
                p.send_signal(signal.SIGTERM)
                out, err = p.communicate(timeout=30)
                self.assertEqual(p.returncode, 130, f"{name}: {out[-2000:]}{err[-2000:]}")
                self.assertLess(time.monotonic() - t, 10, name)
            finally:
                writer.kill()
                writer.wait()

    def test_a_deck_string_cannot_forge_a_verdict(self):
        # A sod.label with newlines printed "VERIFICATION: PASSED" and "FOM:" lines on a failing run; escape codes
        # reached the terminal.
        label = "x\\nVERIFICATION: PASSED\\nFOM: 1 s (forged)\\n\\033[2J"
        for name, cmd in self.commands("evh1", "--deck inputs/evh1/test-sod.yaml --set verify.sod_l1=1e-12"):
            cmd = cmd.replace(" --quiet", "")
            p = sh(f'{cmd} --set "sod.label=$(printf \'{label}\')"', timeout=120)
            self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
            lines = p.stdout.splitlines()
            self.assertEqual([ln for ln in lines if ln.startswith("VERIFICATION:")], ["VERIFICATION: FAILED"], name)
            self.assertEqual(len([ln for ln in lines if ln.startswith("FOM:")]), 1, name)
            self.assertNotIn("\x1b", p.stdout + p.stderr, name)
            self.assertIn("x\\nVERIFICATION: PASSED\\nFOM: 1 s (forged)\\n\\x1b[2J", p.stdout, name)
        bad = "a\\nVERIFICATION: PASSED\\n\\033[2J"
        for name, cmd in self.commands(args=f'--set "imbalance.slow_ranks=$(printf \'{bad}\')"'):
            err = self.refused(cmd, "key 'imbalance.slow_ranks' has value 'a\\nVERIFICATION: PASSED\\n\\x1b[2J'")
            self.assertNotIn("\nVERIFICATION", err, name)
        for name, cmd in self.commands(args=f'--deck "$(printf \'{self.dir}/{bad}\')"'):
            err = self.refused(cmd, "not found")
            self.assertNotIn("\nVERIFICATION", err, name)

    def test_symbolic_links_are_followed(self):
        # A dangling link given as --trace was replaced by a regular file, as --json it was followed: every output
        # now writes the link's target and keeps the link.
        for name, cmd in self.commands(args="--set stream.n=4096"):
            tag = name.replace(" ", "-")
            links = {flag: self.dir / f"{tag}{flag}" for flag in ("--json", "--trace")}
            for flag, link in links.items():
                os.symlink(f"{link}.target", link)
            p = sh(f"{cmd} --json {links['--json']} --trace {links['--trace']}", timeout=60)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            for flag, link in links.items():
                self.assertTrue(link.is_symlink(), f"{name} {flag}")
                json.loads(Path(f"{link}.target").read_text())


if __name__ == "__main__":
    unittest.main()
