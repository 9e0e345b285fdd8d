"""``catbox render`` (a position as an SVG picture) and ``catbox puzzle export`` (a printable
HTML sheet of puzzles)."""

from __future__ import annotations

from pathlib import Path

import click

from catbox_solver.cli.batch import position_argument
from catbox_solver.cli.common import (
    EXIT_INVALID,
    EXIT_UNCHECKED,
    GivenPath,
    Seconds,
    WholeNumber,
    WholeRange,
    counted,
    main,
    progress,
    quiet_option,
    ready_search,
)
from catbox_solver.cli.puzzle_group import puzzle
from catbox_solver.formats.files import write_whole
from catbox_solver.puzzles import (
    Puzzle,
    PuzzleError,
    PuzzleTimeout,
    load_puzzles,
    parse_filter,
    select_puzzles,
    solve_puzzle,
)
from catbox_solver.render.sheet import DEFAULT_TITLE, write_sheet
from catbox_solver.render.svg import MAX_SIZE, position_svg

_EXAMPLE_4P = (
    "4p official | R:.1....3. B:.....0.2 Y:........ G:......3. | "
    "11345578 23334558 11224678 3445667 | RBYG RYG RBYG RYG | lead 3: 7g | won 0 0 0 1 | "
    "bid 3 1 1 3 | left 7"
)

RENDER_HELP = f"""Draw a position as an SVG picture: the research board, the trick in
progress, every hand, each player's colors (lost ones crossed out), tricks won, predictions
and who is to move (or the paradox, or the scores at the end of the round).

A player's token is a disc with the seat number; a neutral token is a grey square marked N;
the covered column is hatched. The picture reads in black and white too.

\b
Examples:
  catbox render "{_EXAMPLE_4P}" -o board.svg
  catbox render @position.json --size 480 --hero 0 > board.svg
"""

EXPORT_HELP = """Export puzzles as one self-contained HTML page to print or share: the
puzzles by number of players, easiest first, each with its picture, difficulty, question,
a hint and a "Show answer" button revealing the answer and its explanation (lines of play
broken by trick). The page loads nothing from the network; printed, several puzzles share
a page.

PUZZLES is a puzzle file (TOML) or a directory of them (*.toml). --filter picks some:
FIELD=VALUE, with FIELD one of players, difficulty, question, tag, id; several values
(comma-separated) mean any of them, != none of them; players and difficulty also take <,
<=, >, >=; tag and id take shell patterns (fig-*). Several --filter options must all hold.
Every puzzle exported is solved first, and nothing is written when a stored answer is
wrong (exit code 1) or a puzzle cannot be checked within --timeout (exit code 3);
--no-check skips that.

\b
Examples:
  catbox puzzle export puzzles/ -o sheet.html
  catbox puzzle export puzzles/ --title "Club night, week 3" -o week3.html
  catbox puzzle export puzzles/ --filter players=4 --filter 'difficulty<=2' -o easy.html
  catbox puzzle export puzzles/ --filter tag=red-lead,exception -o red.html
"""


@main.command(
    help=RENDER_HELP,
    short_help="Draw a position as an SVG picture.",
    epilog="POSITION is the one-line notation (docs/notation.md), JSON text in the "
    "catbox-position/1 form, or @FILE holding either.",
)
@click.argument("position")
@click.option(
    "-o",
    "--output",
    type=GivenPath(dir_okay=False, path_type=Path),
    help="Write the SVG to this file (default, or '-': standard output).",
)
@click.option(
    "--size",
    type=WholeRange(1, MAX_SIZE),
    default=None,
    help="Width in pixels (default: the natural 720).",
)
@click.option("--hero", type=WholeNumber(), default=None, help="Mark this seat as the hero.")
def render(position: str, output: Path | None, size: int | None, hero: int | None) -> None:
    """Draw a position as SVG."""
    svg = position_svg(position_argument(position), size, hero=hero)
    if output is None or str(output) == "-":
        click.echo(svg, nl=False)
    else:
        write_whole(output, svg)


@puzzle.command("export", help=EXPORT_HELP, short_help="Export puzzles as a printable HTML sheet.")
@click.argument("puzzles", type=GivenPath(path_type=Path))
@click.option(
    "-o",
    "--output",
    type=GivenPath(dir_okay=False, path_type=Path),
    help="Write the HTML page to this file (default, or '-': standard output).",
)
@click.option("--title", default=DEFAULT_TITLE, show_default=True, help="The page title.")
@click.option("--filter", "filters", multiple=True, metavar="FIELD=VALUE",
              help="Export only the puzzles that pass (players=4, 'difficulty<=2', "
              "tag=red-lead, question!=exists, id=fig-*); repeatable, all must hold.")
@click.option("--no-check", is_flag=True,
              help="Do not solve the puzzles first (a wrong stored answer is published).")
@click.option("--timeout", type=Seconds(), default=None,
              help="Seconds per puzzle for the check (default none).")
@quiet_option
def export(puzzles: Path, output: Path | None, title: str, filters: tuple[str, ...],
           no_check: bool, timeout: float | None, quiet: bool) -> None:
    """Export puzzles as a printable HTML sheet."""
    checks = [parse_filter(f) for f in filters]  # (a bad filter before any file is read)
    loaded = select_puzzles(load_puzzles(puzzles), checks)
    if not loaded:
        raise PuzzleError(f"{puzzles}: no puzzle passes --filter {' --filter '.join(filters)}")
    if not no_check:
        _check_answers(loaded, timeout, quiet)
    if output is None or str(output) == "-":
        from catbox_solver.render.sheet import sheet_html

        click.echo(sheet_html(loaded, title), nl=False)
        return
    size = write_sheet(loaded, output, title)
    click.echo(f"wrote {output}: {counted(len(loaded), 'puzzle')}, {size} bytes", err=True)


def _check_answers(loaded: list[Puzzle], timeout: float | None, quiet: bool) -> None:
    """Solve every puzzle before it is published: a wrong stored answer went onto the sheet
    without a word, while `puzzle solve` exits 1 on it."""
    wrong: list[str] = []
    late: list[str] = []
    ready_search(quiet)
    for pz in progress(loaded, len(loaded), "checking", quiet):
        try:
            sol = solve_puzzle(pz, timeout)
        except PuzzleTimeout:
            late.append(pz.id)
            continue
        if not sol.ok:
            wrong.append(f"{pz.id} ({'; '.join(sol.problems)})")
    if wrong:
        click.echo(f"error: {len(wrong)} of {counted(len(loaded), 'stored answer')} wrong: "
                   f"{', '.join(wrong)}; nothing written (--no-check exports them as they "
                   "are)", err=True)
        raise click.exceptions.Exit(EXIT_INVALID)
    if late:
        click.echo(f"error: {len(late)} of {counted(len(loaded), 'puzzle')} not checked "
                   f"within --timeout: {', '.join(late)}; nothing written (a longer "
                   "--timeout, or --no-check)", err=True)
        raise click.exceptions.Exit(EXIT_UNCHECKED)
