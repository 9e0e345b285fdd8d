"""``catbox show`` and ``catbox legal``: look at a position and list its legal plays.

Both take a POSITION (notation, JSON text, ``@FILE``) or a batch ``@FILE.jsonl``; the batch
runs once per line and a line that cannot be read reports its error and the batch goes on.
"""

from __future__ import annotations

from typing import Any

import click

from catbox_solver.cli.batch import run_positions as run_positions  # (for the commands)
from catbox_solver.cli.common import json_option, main
from catbox_solver.formats.jsonform import play_json, position_to_dict
from catbox_solver.formats.notation import position_to_notation
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
