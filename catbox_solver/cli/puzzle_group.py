"""The ``catbox puzzle`` command group; its commands live in puzzle_cmds.py (solve,
generate) and render_cmds.py (export)."""

from __future__ import annotations

from catbox_solver.cli.common import main


@main.group()
def puzzle() -> None:
    """Puzzle files: solve and check them, generate new ones, export a printable sheet.

    \b
    Example:
      catbox puzzle solve puzzles/
      catbox puzzle generate --theme avoid-paradox --players 4 --count 5 --seed 1 --out new/
      catbox puzzle export puzzles/ -o sheet.html
    """
