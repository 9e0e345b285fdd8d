"""``catbox show`` and ``catbox legal``: look at a position and list its legal plays.

Both take a POSITION (notation, JSON text, ``@FILE``) or a batch ``@FILE.jsonl``; the batch
runs once per line and a line that cannot be read reports its error and the batch goes on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from catbox_solver.cli.common import (
    CtrlC,
    Undecided,
    echo_json,
    end_batch,
    json_option,
    line_error,
    main,
    numbered,
)
from catbox_solver.errors import CatboxError
from catbox_solver.formats.jsonform import play_json, position_to_dict
from catbox_solver.formats.notation import (
    at_batch_line,
    is_batch_argument,
    position_to_notation,
    read_positions,
)
from catbox_solver.model.position import Position
from catbox_solver.render.text import render_text

EXAMPLE_2P = (
    "2p official | R:..... B:..... Y:..... G:NN.N. | 122334555 111234455 | RBYG RBYG | "
    "lead 0 | won 0 0 | left 8"
)
EXAMPLE_4P = (
    "4p official | R:.1....3. B:.....0.2 Y:........ G:......3. | "
    "11345578 23334558 11224678 3445667 | RBYG RYG RBYG RYG | lead 3: 7g | won 0 0 0 1 | "
    "bid 3 1 1 3 | left 7"
)
POSITION_HELP = (
    "POSITION is the one-line notation (docs/notation.md), JSON text in the "
    "catbox-position/1 form (starting with '{'), @FILE holding either, or @FILE.jsonl with "
    "one position per line (a batch)."
)


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
        for item in read_positions(arg):
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


def legal_json(pos: Position) -> dict[str, Any]:
    """The ``catbox legal --json`` object: seat to move, paradox flag, each legal play once."""
    return {
        "to_move": pos.to_move,
        "paradox": pos.is_paradox,
        "plays": [play_json(p) for p in pos.legal_plays()],
    }


def legal_text(pos: Position) -> str:
    """One readable line: who is to move and the legal plays, or why there are none."""
    if pos.tricks_left == 0:
        return "the round is over: no plays"
    plays = pos.legal_plays()
    if not plays:
        return f"seat {pos.to_move} to move has no legal play: paradox, the round is over"
    word = "play" if len(plays) == 1 else "plays"
    return f"seat {pos.to_move} to move, {len(plays)} legal {word}: " + " ".join(
        p.text for p in plays
    )


SHOW_HELP = f"""Show a position: research board, hands, colors, trick, who is to move.

With --json print the catbox-position/1 object, with --notation the canonical one-line
notation (both read back to the same position).

\b
Examples:
  catbox show "{EXAMPLE_2P}"
  catbox show @position.json --notation
  catbox show @positions.jsonl --json
"""

LEGAL_HELP = f"""List the legal plays of the player to move (two copies of a value are one play).

--json prints {{"to_move": SEAT, "paradox": BOOL, "plays": [{{"value": 3, "color": "B",
"text": "3b"}}, ...]}}; "paradox" is true when the player to move has no legal play while
tricks are left. A finished round has no plays and "to_move" is the last trick's winner.

\b
Examples:
  catbox legal "{EXAMPLE_4P}"
  catbox legal @positions.jsonl --json
"""


@main.command(help=SHOW_HELP, epilog=POSITION_HELP)
@click.argument("position")
@json_option
@click.option("--notation", is_flag=True, help="Print the one-line notation instead.")
@click.option("--ansi", is_flag=True, help="Color the board's row labels (terminal output).")
def show(position: str, as_json: bool, notation: bool, ansi: bool) -> None:
    """Show a position (readable, --json or --notation)."""
    if as_json and notation:
        raise click.UsageError("choose one of --json and --notation")
    if notation:
        run_positions(position, False, position_to_dict, position_to_notation,
                      number_lines=False)
    else:
        run_positions(
            position, as_json, position_to_dict, lambda p: render_text(p, ansi), ansi
        )


@main.command(help=LEGAL_HELP, epilog=POSITION_HELP)
@click.argument("position")
@json_option
def legal(position: str, as_json: bool) -> None:
    """List the legal plays of the player to move."""
    run_positions(position, as_json, legal_json, legal_text)
