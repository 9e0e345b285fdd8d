"""The CLI's POSITION argument and its batches.

A POSITION is the one-line notation, catbox-position/1 JSON text, ``@FILE`` holding
either, or ``@FILE.jsonl`` with one position per line (a batch). Only this module turns
``@`` into a file: the library's text readers never open one, and files are read by
:func:`catbox_solver.formats.files.load_positions` and its line-by-line twin.
:func:`run_positions` runs a command once per position of a batch, reporting each line's
error where its answer would stand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import click

from catbox_solver.cli.common import CtrlC, Undecided, echo_json, end_batch, line_error, numbered
from catbox_solver.errors import CatboxError, NotationError
from catbox_solver.formats.files import is_batch, iter_positions, with_prefix
from catbox_solver.formats.notation import position_from_text
from catbox_solver.model.position import Position


def is_batch_argument(arg: str) -> bool:
    """Whether a POSITION argument names a batch file ``@FILE.jsonl``."""
    return isinstance(arg, str) and arg.startswith("@") and is_batch(arg[1:])


def _file_name(arg: str) -> str:
    name = arg[1:]
    if not name:
        raise NotationError("'@' must be followed by a file name", "file", 2)
    return name


def position_argument(arg: str) -> Position:
    """The position of a POSITION argument: notation, JSON text, or ``@FILE`` holding
    either (a ``.jsonl`` file must then hold exactly one line)."""
    if not isinstance(arg, str):
        raise NotationError(f"a position is text, not {type(arg).__name__}")
    if not arg.startswith("@"):
        return position_from_text(arg)
    name = _file_name(arg)
    items = list(iter_positions(name))
    if len(items) != 1:
        raise NotationError(f"file {name!r} holds {len(items)} lines; one position is needed here")
    (item,) = items
    if isinstance(item, CatboxError):
        raise item
    return item


def position_arguments(arg: str) -> Iterator[Position | CatboxError]:
    """The positions of a POSITION argument that may be a batch: ``@FILE.jsonl`` gives one
    item per line, the position or its line's error (the batch goes on); anything else the
    single position of :func:`position_argument` (its error is raised)."""
    if not is_batch_argument(arg):
        yield position_argument(arg)
        return
    yield from iter_positions(_file_name(arg))


def at_batch_line(exc: CatboxError, arg: str, number: int) -> CatboxError:
    """``exc`` as the error of line ``number`` of the batch ``arg`` (``@FILE.jsonl``): the
    same error with the file and line before its message, so that a batch that goes on
    past it still says where it was."""
    return with_prefix(exc, f"{arg[1:]} line {number}: ")


def run_positions(
    arg: str,
    as_json: bool,
    to_json: Callable[[Position], Any],
    to_text: Callable[[Position], str],
    ansi: bool = False,
    number_lines: bool = True,
    undecided: Undecided | None = None,
    stop: CtrlC | None = None,
) -> int:
    """Run a command on the POSITION argument ``arg``, single or batch.

    Single: print ``to_json(pos)`` as JSON or ``to_text(pos)``; a bad position, or an
    error of the command on it, raises (the CLI turns it into a one-line error, exit code
    2). Batch: one output per input line, in order; a line that cannot be read, or that
    the command cannot answer (a --hero outside its seats, say), prints its error with
    the file and line (with --json ``{"error": ...}`` on stdout, else on stderr) and the
    batch goes on; exit code 2 at the end if any line failed. In a batch's text each line
    starts "line N: " (its input line), unless ``number_lines`` is False (output meant
    to be read back, as the notation). ``ansi`` keeps ANSI color codes in the text even
    when stdout is not a terminal. ``undecided``: the answers the time limit left partly
    unknown, counted on stderr at the end of a batch (the caller exits with code 3).
    ``stop``: once Ctrl-C came, no further line is read; the summaries of the lines read
    are said, then the command ends with code 130 (a failed line's 2 came first). Returns
    the number of positions (input lines) read.
    """
    batch = is_batch_argument(arg)
    unread = unanswered = total = 0
    try:
        for item in position_arguments(arg):
            if stop is not None and stop.hit:
                break
            total += 1
            if isinstance(item, CatboxError):
                unread += 1
                line_error(item, as_json)
                continue
            try:
                out = to_json(item) if as_json else to_text(item)
            except CatboxError as exc:
                if not batch:
                    raise
                unanswered += 1
                line_error(at_batch_line(exc, arg, total), as_json)
                continue
            if as_json:
                echo_json(out)
            else:
                if batch and "\n" in out and total > 1:
                    click.echo("")
                line = total if batch and number_lines else None
                click.echo(numbered(out, line), color=True if ansi else None)
    except KeyboardInterrupt:
        # (a Ctrl-C outside the searches, while lines are read or printed, or one whose
        # answer shows nothing: the summaries of the lines read still come first)
        if stop is None:
            raise
        if not stop.hit:
            stop.came()
    if batch and undecided is not None:
        undecided.report(total)
    end_batch(total, unread, unanswered, stop)
    return total


__all__ = [
    "at_batch_line", "is_batch_argument", "position_argument", "position_arguments",
    "run_positions",
]
