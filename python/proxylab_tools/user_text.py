"""User text (paths, deck names, values) as the front end prints it: on one line, in quotes, every character that a
terminal or a line-matching script could take for something else escaped C-style. The binaries' helper is the same
(common/include/proxylab/user_text.hpp): a deck path or a --json path holding a newline then prints as one quoted
line, never as a forged `VERIFICATION: PASSED` line, and escape sequences never reach the terminal."""
from __future__ import annotations

import os

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\", "'": "\\'"}
# Line breaks to str.splitlines() and terminals besides \n and \r: NEL and the Unicode line and paragraph separators.
_BREAKS = {"\x85", "\u2028", "\u2029"}


def _escaped_char(c: str) -> str:
    if c in _NAMED:
        return _NAMED[c]
    code = ord(c)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8, as os.fsdecode keeps it (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x20 or code == 0x7F:
        return f"\\x{code:02x}"
    if 0x80 <= code <= 0x9F or c in _BREAKS:  # C1 controls (0x9b starts an escape sequence) and line breaks
        return f"\\u{code:04x}"
    return c


def quote(text: str | bytes | os.PathLike) -> str:
    """'text' with \\n, \\r, \\t, \\\\, \\' and \\xHH (other control characters, bytes that are not UTF-8) escaped."""
    s = os.fsdecode(text) if isinstance(text, (bytes, os.PathLike)) else text
    return "'" + "".join(_escaped_char(c) for c in s) + "'"
