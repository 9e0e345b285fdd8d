"""Reading input files whole, with a size limit, and the positions they hold.

:func:`load_positions` is the one place a position is read from a file: the text readers
(notation, JSON) never open one, whatever their input looks like.
"""

from __future__ import annotations

import copy
import errno
import sys
from collections.abc import Iterator
from pathlib import Path

from catbox_solver.errors import CatboxError, NotationError
from catbox_solver.formats.jsonform import DECODER, position_from_json
from catbox_solver.formats.notation import position_from_notation, position_from_text
from catbox_solver.model.position import Position

MAX_BYTES = 256 * 1024 * 1024
"""The largest input file read: about 800,000 positions of a batch at 300 bytes each; a
position, record or puzzle file is a few kB."""


class TooLarge(CatboxError):
    """An input file larger than :data:`MAX_BYTES` (or endless, like /dev/zero)."""


def read_limited(path: str | Path | None) -> bytes:
    """The bytes of the file ``path`` (None: standard input), at most MAX_BYTES; more
    raises TooLarge. Why: reading /dev/zero or a huge file whole ended in a MemoryError
    traceback. OSError is the caller's to report."""
    if path is None:
        if sys.stdin is None:  # (started with standard input closed: an AttributeError)
            raise OSError(errno.EBADF, "standard input is closed: nothing to read")
        data = sys.stdin.buffer.read(MAX_BYTES + 1)
        name = "standard input"
    else:
        if "\x00" in str(path):
            # (open() raised ValueError, which no caller expects from a file name)
            raise OSError(errno.EINVAL, "a file name cannot hold a NUL character", repr(str(path)))
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
        name = str(path)
    if len(data) > MAX_BYTES:
        raise TooLarge(f"{name}: larger than {MAX_BYTES // (1024 * 1024)} MiB, too large to read")
    return data


def write_whole(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to the file ``path``, replacing it. An OSError names
    the file: one raised while the data is flushed (a full disk) had no file name, so the
    CLI said only "error: No space left on device"."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        with open(path, "wb") as f:
            f.write(raw)
    except OSError as exc:
        if exc.filename is None:
            exc.filename = str(path)
        raise


def is_batch(path: str | Path) -> bool:
    """A batch file, one position per line: its name ends in ``.jsonl`` (any case)."""
    return str(path).lower().endswith(".jsonl")


def read_text(path: str | Path) -> str:
    """The text of the file ``path`` (UTF-8; a byte order mark, as some editors write,
    is not text); a NotationError names the file when it cannot be read."""
    name = str(path)
    if not name:
        raise NotationError("a file name is needed, not ''", "file")
    try:
        return read_limited(path).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise NotationError(f"file {name!r} is not UTF-8 text") from None
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise NotationError(f"cannot read file {name!r}: {reason}") from None


def with_prefix(exc: CatboxError, prefix: str) -> CatboxError:
    """The same error (same type and attributes) with ``prefix`` before its message."""
    new = copy.copy(exc)
    new.args = (prefix + str(exc),)
    return new


def iter_positions(path: str | Path) -> Iterator[Position | CatboxError]:
    """The positions of the file ``path``, each as read or as the error that kept it from
    being read: a ``.jsonl`` batch gives one item per line (an error's message starts
    "FILE line N: ", and the lines after it are still read; blank lines at its end are
    no positions), any other file one position, notation or JSON (an error is raised,
    its message starting "FILE: "). A file that cannot be read, or a batch with no
    position, raises."""
    name = str(path)
    text = read_text(path)
    if not is_batch(path):
        try:
            yield _one_position(text, name)
        except CatboxError as exc:
            raise with_prefix(exc, f"{name}: ") from None
        return
    lines = text.splitlines()
    while lines and not lines[-1].strip():  # (a trailing blank line is no position)
        lines.pop()
    if not lines:  # a batch with no line would answer nothing, silently
        raise NotationError(f"file {name!r} holds no positions (one per line)")
    for number, line in enumerate(lines, start=1):
        try:
            if not line.strip():
                raise NotationError("empty line")
            yield position_from_text(line)
        except CatboxError as exc:
            yield with_prefix(exc, f"{name} line {number}: ")


def load_positions(path: str | Path) -> list[Position]:
    """Every position of the file ``path``: the one of a plain file (notation, or JSON
    that may span lines), or one per line of a ``.jsonl`` batch. The first error is
    raised, naming the file (and the line)."""
    out: list[Position] = []
    for item in iter_positions(path):
        if isinstance(item, CatboxError):
            raise item
        out.append(item)
    return out


def _one_position(text: str, name: str) -> Position:
    """The position of a file that is not a batch: JSON (from ``{``, maybe over several
    lines) or notation on one line; a second position is refused, pointing to .jsonl."""
    stripped = text.strip()
    if not stripped:
        raise NotationError(f"file {name!r} is empty")
    more = NotationError("one position per file; use .jsonl for a batch")
    if stripped.startswith("{"):
        try:
            end = DECODER.raw_decode(stripped)[1]
        except (ValueError, RecursionError):  # (NotationError too: a key given twice)
            return position_from_json(stripped)  # (its reader names what is wrong)
        if stripped[end:].strip():
            raise more
        return position_from_json(stripped)
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > 1:
        raise more
    return position_from_notation(lines[0])


__all__ = [
    "MAX_BYTES", "TooLarge", "is_batch", "iter_positions", "load_positions", "read_limited",
    "read_text", "with_prefix", "write_whole",
]
