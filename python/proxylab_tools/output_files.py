"""Output files of the front end (--json records it delivers, results files, charts): checked before any run,
written atomically, every write checked. The same rules as the binaries' (common/include/proxylab/output_file.hpp):

- a regular file (or a new one) is replaced only by a complete file: written to a hidden temporary file in
  the same folder, then renamed over it; a run that fails removes a stale file of an earlier run;
- `-`, /dev/stdout, /dev/stderr and /dev/fd/N are written through the descriptor this process has (the front end
  then sends the run's own lines to stderr: stdout carries the record alone); a character device (/dev/null, /dev/full) or a pipe
  with a reader is written in place; a pipe without a reader, a folder or a missing folder is refused up front;
- a symbolic link stands for its target: the target is written (created when the link dangles) and removed when
  stale, the link stays;
- no output may be an input of the run or another of its outputs (run_files.py).

A refused path is bad input (exit 2); a failed write is a runtime failure (exit 3), named with its errno.
"""
from __future__ import annotations

import errno
import fcntl
import json
import os
import sys
import stat
import tempfile
from pathlib import Path

from .user_text import quote


class OutputError(Exception):
    """A write that failed: the message names the path and the errno."""

    def __init__(self, message: str, err: int | None = None):
        super().__init__(message)
        self.errno = err


class OutputProblem(ValueError):
    """An output path that cannot be written, found before the work (exit 2)."""


def require_writable(path: str | os.PathLike, what: str) -> None:
    """OutputProblem("WHAT 'path' is a folder, not a file") unless `path` can be written."""
    why = problem(path)
    if why:
        raise OutputProblem(f"{what} {why}")


def _open_in_place(path: str) -> int:
    """A pipe or character device, opened without waiting for a reader (ENXIO instead), then blocking."""
    fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    os.set_blocking(fd, True)
    return fd


def descriptor_of(path: str | os.PathLike) -> int | None:
    """- and /dev/stdout -> 1, /dev/stderr -> 2, /dev/stdin -> 0, /dev/fd/N and /proc/self/fd/N -> N; else None."""
    p = os.fspath(path)
    named = {"-": 1, "/dev/stdout": 1, "/dev/stderr": 2, "/dev/stdin": 0}
    if p in named:
        return named[p]
    for prefix in ("/dev/fd/", "/proc/self/fd/"):
        if p.startswith(prefix) and p[len(prefix):].isdigit():
            return int(p[len(prefix):])
    return None


def is_in_place(path: str | os.PathLike) -> bool:
    """True for targets written in place (character devices and pipes), False for regular or new files."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def problem(path: str | os.PathLike) -> str:
    """'' when `path` can be written, else why not (for a message: "'x.json' is a folder, not a file")."""
    p = os.fspath(path)
    if not p:
        return "'': the path is empty; allowed: a file path"
    q = quote(p)
    if p.endswith("/"):
        return f"{q} names a folder, not a file"
    fd = descriptor_of(p)
    if fd is not None:
        try:
            flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        except OSError:
            return f"{q} is descriptor {fd}, which is not open"
        return f"{q} is descriptor {fd}, open for reading only" if flags & os.O_ACCMODE == os.O_RDONLY else ""
    try:
        mode = os.stat(p).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as e:
        return f"{q} cannot be examined: {e.strerror} (errno {e.errno})"
    if mode is not None:
        if stat.S_ISDIR(mode):
            return f"{q} is a folder, not a file"
        if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
            try:
                os.close(_open_in_place(p))
                return ""
            except OSError as e:
                if stat.S_ISFIFO(mode) and e.errno == errno.ENXIO:
                    return f"{q} is a pipe with no reader (writing would wait forever)"
                return f"{q} cannot be opened for writing: {e.strerror} (errno {e.errno})"
        if not stat.S_ISREG(mode):
            return f"{q} is neither a regular file, a character device nor a pipe"
    folder = Path(os.path.realpath(p)).parent
    if not folder.is_dir():
        return f"{q} is in a folder that does not exist ({quote(folder)})"
    try:
        fd, tmp = tempfile.mkstemp(prefix=".proxylab-check-", dir=folder)
        os.close(fd)
        os.unlink(tmp)
    except OSError as e:
        return f"{q} cannot be created: folder {quote(folder)}: {e.strerror} (errno {e.errno})"
    return ""


def atomic_write(path: str | os.PathLike, data: bytes | str) -> None:
    """Writes `data` to `path` (see the module's rules); OutputError naming the path and errno on failure, after which
    no earlier file is left at `path` (otherwise a full disk would leave the old record in place)."""
    try:
        _write(path, data)
    except OutputError:
        remove_stale(path)
        raise


def _write(path: str | os.PathLike, data: bytes | str) -> None:
    p = os.fspath(path)
    raw = data.encode() if isinstance(data, str) else data
    try:
        fd = descriptor_of(p)
        if fd is not None:
            for stream in (sys.stdout, sys.stderr):
                stream.flush()  # what the front end printed before comes first
            view = memoryview(raw)
            while view:
                view = view[os.write(fd, view):]
            return
        if is_in_place(p):
            fd = _open_in_place(p)
            try:
                view = memoryview(raw)
                while view:
                    view = view[os.write(fd, view):]
            finally:
                os.close(fd)
            return
        target = os.path.realpath(p)
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", dir=os.path.dirname(target))
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(raw)
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
            os.replace(tmp, target)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
    except OSError as e:
        raise OutputError(f"{quote(p)}: writing failed: {e.strerror} (errno {e.errno})", e.errno) from e


def remove_stale(path: str | os.PathLike) -> None:
    """After a failed run: a regular file at `path` (a symbolic link's target) is an earlier run's and must not be taken
    for this one's."""
    p = os.fspath(path)
    if descriptor_of(p) is not None:  # a stream ("-" is no file named '-')
        return
    try:
        target = os.path.realpath(p)
        if stat.S_ISREG(os.lstat(target).st_mode):
            os.unlink(target)
    except OSError:
        pass


# A run record larger than this is read by nobody's script in one piece; a file beyond it is no record of ours.
RECORD_BYTES_MAX = 1 << 28


def remove_stale_record(path: str | os.PathLike) -> None:
    """After a run that wrote no record: an earlier run's record at `path` is removed (remove_stale), anything else is
    left. The front end cannot see every file a run reads (a deck key may name an FFTW wisdom file, which the binary
    refuses as --json before the run), so it removes only what is a run record: a JSON object with a "status"."""
    p = os.fspath(path)
    if descriptor_of(p) is not None:
        return
    try:
        target = os.path.realpath(p)
        info = os.lstat(target)
        if not stat.S_ISREG(info.st_mode) or info.st_size > RECORD_BYTES_MAX:
            return
        with open(target, "rb") as f:
            doc = json.loads(f.read())
    except (OSError, ValueError, RecursionError):
        return
    if isinstance(doc, dict) and "status" in doc:
        remove_stale(target)
