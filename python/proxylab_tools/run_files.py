"""The files a run reads and writes, and the one rule that keeps them apart: no output may be an input of the run or
another of its outputs (a record written over the deck, a chart over the trace it draws). The binaries apply the same
rule to their flags and every file key of their decks (common/include/proxylab/run_files.hpp); the front end applies
it to what it writes itself (the --json record it delivers, the harness's results) before anything runs.

Files are compared as the system sees them: the same device and inode when both exist, else the same absolute path
once symbolic links are followed (a dangling link stands for its target). Outputs written in place (-, /dev/stdout,
a character device, a pipe) replace no file and are not compared, nor are inputs that are streams."""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass

from . import output_files
from .user_text import quote

INPUT, OUTPUT = "input", "output"


@dataclass
class RunFile:
    what: str  # the flag or key that names it: "--json", "--deck", "--out"
    path: str | os.PathLike | None
    use: str  # INPUT or OUTPUT


def replaceable(path: str | os.PathLike) -> bool:
    """A regular file or a new one (what an output replaces by a rename), not a stream or a device."""
    if output_files.descriptor_of(path) is not None:
        return False
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True


def same_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    """Device and inode when both exist; the absolute paths with every symbolic link followed when neither does."""
    def status(p):
        try:
            return os.stat(p)
        except OSError:
            return None
    sa, sb = status(a), status(b)
    if sa and sb:
        return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)
    return sa is None and sb is None and os.path.realpath(a) == os.path.realpath(b)


def conflict(files: list[RunFile]) -> str:
    """'' when no output is another of the files, else the message naming both and the path."""
    named = [f for f in files if f.path and replaceable(f.path)]
    for k, later in enumerate(named):
        for earlier in named[:k]:
            if OUTPUT not in (earlier.use, later.use) or not same_file(earlier.path, later.path):
                continue
            if INPUT in (earlier.use, later.use):
                out, inp = (later, earlier) if later.use == OUTPUT else (earlier, later)
                return (f"{out.what} {quote(out.path)} is the same file as {inp.what} {quote(inp.path)}: an output "
                        "may not replace an input of the run; allowed: a path that names none of the run's inputs")
            return (f"{earlier.what} {quote(earlier.path)} and {later.what} {quote(later.path)} are the same file: "
                    "one output would replace the other; allowed: a separate file for each output")
    return ""


def require_distinct(files: list[RunFile]) -> None:
    """output_files.OutputProblem (bad input, exit 2) when conflict() finds two files that are one."""
    why = conflict(files)
    if why:
        raise output_files.OutputProblem(why)
