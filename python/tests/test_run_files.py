"""The front end's rules for a run's files, without running anything: user text printed quoted on one line
(user_text.py), no output that is an input or another output (run_files.py), a deck read from a stream without ever
waiting for a writer (runner.readable_deck), a stale record removed but never another file, and symbolic links
followed by every output (output_files.py)."""
import contextlib
import io
import json
import os
import signal
import tempfile
import unittest
from pathlib import Path

from proxylab_tools import cli, launch, output_files, run_files, runner
from proxylab_tools.run_files import INPUT, OUTPUT, RunFile
from proxylab_tools.user_text import quote


class UserText(unittest.TestCase):
    def test_one_line_escaped_and_quoted(self):
        # A path or label with a newline printed a line of its own, e.g. a forged "VERIFICATION: PASSED".
        self.assertEqual(quote("a\nVERIFICATION: PASSED\r\tb"), "'a\\nVERIFICATION: PASSED\\r\\tb'")
        self.assertEqual(quote("\x1b[2J\x7f"), "'\\x1b[2J\\x7f'")
        self.assertEqual(quote("it's a \\"), "'it\\'s a \\\\'")
        self.assertEqual(quote("\x9b\u2028\u2029\x85"), "'\\u009b\\u2028\\u2029\\u0085'")
        self.assertEqual(quote("h\u00e9t \u20ac"), "'h\u00e9t \u20ac'")
        self.assertEqual(quote(b"a\xf6b"), "'a\\xf6b'")  # a byte that is not UTF-8
        self.assertEqual(quote(Path("x.yaml")), "'x.yaml'")
        for text in ("a\nb", "\x1b", "\u2028", "x\ry"):
            self.assertEqual(len(quote(text).splitlines()), 1, text)

    def test_messages_quote_paths(self):
        with tempfile.TemporaryDirectory() as tmp:
            bad = f"{tmp}/no\nVERIFICATION: PASSED/r.json"
            self.assertEqual(len(output_files.problem(bad).splitlines()), 1)


class DistinctFiles(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        self.deck = self.dir / "deck.yaml"
        self.deck.write_text("stream: {n: 4096}\n")

    def tearDown(self):
        self.tmp.cleanup()

    def test_the_same_file_by_any_name(self):
        os.symlink(self.deck, self.dir / "link.yaml")
        os.link(self.deck, self.dir / "hard.yaml")
        os.symlink(self.dir / "new.json", self.dir / "dangling.json")
        cwd = os.getcwd()
        os.chdir(self.dir)
        try:
            for other in ("deck.yaml", "./deck.yaml", "link.yaml", "hard.yaml", f"../{self.dir.name}/deck.yaml"):
                self.assertTrue(run_files.same_file(self.deck, other), other)
            self.assertTrue(run_files.same_file("new.json", "dangling.json"))  # neither exists: the link's target
            self.assertTrue(run_files.same_file("new.json", self.dir / "new.json"))
            self.assertFalse(run_files.same_file("new.json", "other.json"))
            self.assertFalse(run_files.same_file("deck.yaml", "new.json"))
        finally:
            os.chdir(cwd)

    def test_an_output_may_not_be_an_input_or_another_output(self):
        why = run_files.conflict([RunFile("--deck", self.deck, INPUT), RunFile("--json", self.deck, OUTPUT)])
        self.assertEqual(why, f"--json {quote(self.deck)} is the same file as --deck {quote(self.deck)}: an output "
                              "may not replace an input of the run; allowed: a path that names none of the run's inputs")
        out = self.dir / "x.json"
        why = run_files.conflict([RunFile("--deck", self.deck, INPUT), RunFile("--trace", out, OUTPUT),
                                  RunFile("--json", out, OUTPUT)])
        self.assertIn(f"--trace {quote(out)} and --json {quote(out)} are the same file: one output would replace "
                      "the other", why)
        with self.assertRaises(output_files.OutputProblem):
            run_files.require_distinct([RunFile("--out", self.deck, OUTPUT), RunFile("trace", self.deck, INPUT)])
        # two inputs may be one file; streams and devices are written in place and replace nothing
        self.assertEqual(run_files.conflict([RunFile("a", self.deck, INPUT), RunFile("b", self.deck, INPUT)]), "")
        self.assertEqual(run_files.conflict([RunFile("--json", "-", OUTPUT), RunFile("--trace", "/dev/stdout", OUTPUT),
                                             RunFile("--x", "/dev/null", OUTPUT), RunFile("--y", "/dev/null", OUTPUT),
                                             RunFile("--deck", None, INPUT)]), "")


class HarnessOutputs(unittest.TestCase):
    def test_a_chart_never_replaces_what_it_draws(self):
        # gantt T.png wrote its chart over the trace it drew (the chart's default name is the trace's with .png).
        with tempfile.TemporaryDirectory() as tmp:
            trace, record = Path(tmp) / "t.png", Path(tmp) / "r.json"
            trace.write_text('{"traceEvents": []}')
            record.write_text('{"app": "comm", "results": {}}')
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(cli.main(["gantt", str(trace)]), 2)
                self.assertEqual(cli.main(["plot", "comm", str(record), "--out", str(record)]), 2)
            self.assertIn(f"--out {quote(trace)} is the same file as trace {quote(trace)}", out.getvalue())
            self.assertIn(f"--out {quote(record)} is the same file as record", out.getvalue())
            self.assertEqual(trace.read_text(), '{"traceEvents": []}')
            self.assertEqual(record.read_text(), '{"app": "comm", "results": {}}')


class DeckStreams(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def refused(self, deck) -> str:
        def hung(*_):
            raise AssertionError("reading the deck waited for a writer")
        previous = signal.signal(signal.SIGALRM, hung)
        signal.alarm(5)
        try:
            with self.assertRaises(launch.LaunchError) as e:
                runner.readable_deck(deck, str(self.dir))
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
        return str(e.exception)

    def test_a_pipe_without_a_writer_is_refused_at_once(self):
        # --deck on a FIFO nobody writes into hung the front end (and then the binary, which ignored SIGTERM).
        fifo = self.dir / "deck.fifo"
        os.mkfifo(fifo)
        why = self.refused(fifo)
        self.assertIn(f"--deck {quote(fifo)}: is a pipe with no writer and nothing in it", why)
        self.assertIn("allowed: a YAML deck file", why)

    def test_a_device_is_refused_by_its_own_name(self):
        # --deck /dev/null named the front end's private copy of it in the binary's message.
        self.assertIn("--deck '/dev/null': is a character device, not a deck file", self.refused("/dev/null"))

    def test_a_pipe_with_a_writer_is_read(self):
        read, write = os.pipe()
        os.write(write, b"stream: {n: 4096}\n")
        os.close(write)
        copy = runner.readable_deck(f"/dev/fd/{read}", str(self.dir))
        os.close(read)
        self.assertEqual(Path(copy).read_text(), "stream: {n: 4096}\n")
        deck = self.dir / "deck.yaml"
        deck.write_text("x: 1\n")
        self.assertEqual(runner.readable_deck(deck, str(self.dir)), deck)  # a regular file goes as it is


class StaleRecords(unittest.TestCase):
    def test_only_a_record_is_removed(self):
        # A run refused because its --json is the FFTW wisdom file a deck key names (the front end cannot see deck
        # keys) used to end with the front end removing that file as the "stale record".
        with tempfile.TemporaryDirectory() as tmp:
            record, wisdom = Path(tmp) / "r.json", Path(tmp) / "w.wisdom"
            record.write_text(json.dumps({"status": "completed", "app": "pop"}))
            wisdom.write_text("(fftw-3.3.10 fftw_wisdom #x1 #x2)\n")
            output_files.remove_stale_record(wisdom)
            self.assertTrue(wisdom.exists())
            link = Path(tmp) / "link.json"
            os.symlink(record, link)
            output_files.remove_stale_record(link)
            self.assertFalse(record.exists())  # a link stands for its target
            self.assertTrue(link.is_symlink())

    def test_a_dangling_link_is_written_through(self):
        # The binaries replaced a dangling link by a regular file, the front end wrote its target: both write the
        # target now (the link stays).
        with tempfile.TemporaryDirectory() as tmp:
            link, target = Path(tmp) / "link.json", Path(tmp) / "target.json"
            os.symlink(target, link)
            self.assertEqual(output_files.problem(link), "")
            output_files.atomic_write(link, "{}\n")
            self.assertTrue(link.is_symlink())
            self.assertEqual(target.read_text(), "{}\n")


if __name__ == "__main__":
    unittest.main()
