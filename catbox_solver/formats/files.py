"""Reading input files whole, with a size limit."""

from __future__ import annotations

import errno
import sys
from pathlib import Path

from catbox_solver.errors import CatboxError

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


__all__ = ["MAX_BYTES", "TooLarge", "read_limited", "write_whole"]
