"""Reading a JSON file the user names (a trace for gantt, a record for plot, a results file to redraw): every way
it can be unusable is an InputError whose one line says what is wrong, never a traceback (standard library only).

Refused: a path that is not a regular file (a FIFO would block the read, a directory or device is no file), a file
that cannot be read or is not UTF-8, text that is not JSON, the literals NaN and Infinity (not JSON; the binaries
write a missing number as null), and nesting deeper than Python's parser can follow (its RecursionError).
"""
from __future__ import annotations

import json
import stat
from pathlib import Path


class InputError(ValueError):
    """A JSON input that cannot be used; the message says why, as a phrase the caller puts after the file's name
    ("cannot read trace 'x.json': not JSON: ...")."""


def _no_constant(name: str):
    raise InputError(f"{name} is not a JSON number (a missing value is written as null)")


def load(path: str | Path):
    """The parsed contents of a JSON file, or InputError."""
    path = Path(path)
    try:
        mode = path.stat().st_mode
    except OSError as e:
        raise InputError(e.strerror or str(e)) from None
    if not stat.S_ISREG(mode):
        raise InputError("not a regular file (a directory, pipe or device)")
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as e:
        raise InputError(e.strerror or str(e)) from None
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text (byte {e.start})") from None
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise InputError(f"not JSON: {e.msg} (line {e.lineno}, column {e.colno})") from None
    except RecursionError:
        raise InputError("nested too deep (arrays and objects inside one another beyond what the parser "
                         "follows)") from None


def describe(value) -> str:
    """A value for an error message, short whatever it holds: a container by its type and size, a scalar as repr
    cut to 40 characters (a hostile file's values must not flood the message)."""
    if isinstance(value, (list, dict)):
        return f"{type(value).__name__} of {len(value)} item{'s' if len(value) != 1 else ''}"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
