"""``catbox puzzle solve`` and ``catbox puzzle generate``: check puzzle files, make new ones.

Thin: parse the arguments, call :mod:`catbox_solver.puzzles`, print.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import click

from catbox_solver.cli.common import (
    EXIT_INVALID,
    EXIT_UNCHECKED,
    GivenPath,
    Seconds,
    WholeNumber,
    WholeRange,
    counted,
    echo_json,
    json_option,
    progress,
    quiet_option,
    ready_search,
    ruleset_option,
)
from catbox_solver.cli.puzzle_group import puzzle
from catbox_solver.cli.solve_cmds import line_text
from catbox_solver.formats.files import write_whole
from catbox_solver.formats.notation import position_to_notation
from catbox_solver.puzzles import (
    THEMES,
    Puzzle,
    PuzzleError,
    PuzzleTimeout,
    Solution,
    condition_text,
    generate,
    load_puzzles,
    puzzle_to_toml,
    solve_puzzle,
)
from catbox_solver.render.text import render_text


def _heading(pz: Puzzle) -> str:
    """A puzzle's first line in the output: its id, its title and its file."""
    where = f"  ({pz.path})" if pz.path is not None else ""
    return f"== {pz.id}: {pz.title}{where}"


def solution_text(sol: Solution, board: bool = True, ansi: bool = False) -> str:
    """A readable solution: the position, the question, the right plays with a line of
    best play, a refutation line for every wrong play, and the check of the stored
    answer."""
    pz = sol.puzzle
    pos = pz.position
    out = [_heading(pz)]
    if board:
        out += ["", render_text(pos, ansi), ""]
    out.append(f"Question: {pz.question_text()}")
    if pz.question == "exists":
        out.append(f"Solution: {'yes' if sol.answer else 'no'}")
        if sol.witness:
            out.append(f"  for example: {line_text(pos, sol.witness)}")
        elif pz.conditions:
            conds = ", ".join(condition_text(c) for c in pz.conditions)
            out.append(f"  no way to finish the round with {conds}")
    else:
        right = [v for v in sol.verdicts if v.correct]
        wrong = [v for v in sol.verdicts if not v.correct]
        names = ", ".join(v.play.text for v in right) or "none"
        value = "" if sol.value is None else f" (value {sol.value})"
        out.append(f"Solution: {names}{value}")
        for v in right:
            out.append(f"  {v.play.text:<4} right  {v.note}")
            out.append(f"       line: {line_text(pos, v.line)}")
        for v in wrong:
            mark = "wrong, tempting" if v.tempting else "wrong"
            out.append(f"  {v.play.text:<4} {mark}: {v.note}")
            out.append(f"       refutation: {line_text(pos, v.line)}")
    if pz.explanation:
        out.append(f"Why: {pz.explanation}")
    effort = (
        f"{sol.nodes} nodes, {sol.seconds:.2f} s; difficulty stored {pz.difficulty}, "
        f"measured {sol.difficulty}"
    )
    if sol.ok:
        out.append(f"Stored answer: correct ({effort})")
    else:
        out.append(f"Stored answer: WRONG: {'; '.join(sol.problems)} ({effort})")
    return "\n".join(out)


@puzzle.command("solve")
@click.argument("path", type=GivenPath(path_type=Path))
@click.option("--timeout", type=Seconds(), default=None, help="Seconds per puzzle (default none).")
@click.option("--no-board", is_flag=True, help="Do not draw the position.")
@click.option("--ansi", is_flag=True, help="Color the board even when piped.")
@json_option
@quiet_option
def solve_cmd(
    path: Path, timeout: float | None, no_board: bool, ansi: bool, as_json: bool, quiet: bool
) -> None:
    """Solve puzzle files and check their stored answers.

    PATH is one puzzle file (TOML) or a directory: every *.toml in it, by name. For each
    puzzle: the position, the question, the right plays with a line of best play, and a
    refutation line for every wrong play. A puzzle whose search runs out of --timeout is
    marked not checked and the others go on. Exit code 1 if any stored answer is wrong,
    2 if a file cannot be read, 3 if none is wrong but some were not checked in time.

    \b
    Example:
      catbox puzzle solve puzzles/
      catbox puzzle solve puzzles/fig-3-7-peter-paradox.toml --json
      catbox puzzle solve puzzles/ --timeout 10 --no-board
    """
    puzzles = load_puzzles(path)
    solutions: list[Solution] = []
    unchecked: list[tuple[Puzzle, str]] = []  # out of time: the puzzle and why
    ready_search(quiet)  # (the note also in text mode, where no progress bar is shown)
    for pz in progress(puzzles, len(puzzles), "solving", quiet or not as_json):
        try:
            sol = solve_puzzle(pz, timeout)
        except PuzzleTimeout as exc:
            # (the message names the puzzle, which the heading and the JSON's "file"
            # already do: it was said twice)
            why = exc.reason
            unchecked.append((pz, why))
            if not as_json:
                click.echo(f"{_heading(pz)}\nStored answer: not checked: {why}\n")
            continue
        solutions.append(sol)
        if not as_json:
            # color=True: click would strip the codes when stdout is not a terminal
            text = solution_text(sol, board=not no_board, ansi=ansi)
            click.echo(text, color=True if ansi else None)
            click.echo("")
    wrong = [s.puzzle.id for s in solutions if not s.ok]
    late = [pz.id for pz, _ in unchecked]
    if as_json:
        echo_json({
            "puzzles": [s.to_json() for s in solutions],
            "wrong": wrong,
            "unchecked": [
                {"id": pz.id, "file": None if pz.path is None else str(pz.path), "reason": why}
                for pz, why in unchecked
            ],
        })
    else:
        n = len(solutions) + len(unchecked)
        if wrong:
            click.echo(f"{len(wrong)} of {n} stored answers wrong: {', '.join(wrong)}")
        elif not late:
            click.echo(f"{counted(n, 'puzzle')}: every stored answer is right")
        elif solutions:
            click.echo(f"{counted(n, 'puzzle')}: the {counted(len(solutions), 'stored answer')}"
                       f" checked {'is' if len(solutions) == 1 else 'are'} right")
        else:  # (this said "every stored answer checked is right" with none checked)
            click.echo(f"{counted(n, 'puzzle')}: none checked")
        if late:
            click.echo(f"{len(late)} of {n} not checked (out of time): {', '.join(late)}")
    if wrong:
        raise click.exceptions.Exit(EXIT_INVALID)
    if late:
        raise click.exceptions.Exit(EXIT_UNCHECKED)


def _known_positions(out: Path) -> dict[str, Path]:
    """The puzzle files already in ``out`` by the notation of their position."""
    if not out.is_dir() or not any(out.glob("*.toml")):
        return {}
    return {position_to_notation(p.position): p.path or out for p in load_puzzles(out)}


@puzzle.command("generate")
@click.option("--theme", type=click.Choice(THEMES), required=True, help="Puzzle theme.")
@click.option("--players", "-p", type=WholeRange(2, 5), default=4, show_default=True,
              help="Number of players (2-5); one count a run (run again for others).")
@click.option("--count", type=WholeRange(1, 10_000), default=10, show_default=True,
              help="How many puzzles: the first COUNT of the seed.")
@click.option("--seed", type=WholeNumber(), default=0, show_default=True,
              help="Same seed, same puzzles (those already in OUT are reported, not "
              "written again).")
@click.option(
    "--out", type=GivenPath(file_okay=False, path_type=Path), required=True,
    help="Directory for the new puzzle files (created if needed).",
)
@ruleset_option
@json_option
@quiet_option
def generate_cmd(
    theme: str, players: int, count: int, seed: int, out: Path, ruleset: str,
    as_json: bool, quiet: bool,
) -> None:
    """Generate puzzles with a unique answer and write them as TOML files.

    Seeded deals are played without paradox to a few tricks before the end; a position
    is kept when only one play is correct (best-score: one best play, a point clear),
    there are at least three legal plays and at least one tempting wrong one. The run
    takes the first COUNT puzzles of the seed: the same seed gives the same puzzles,
    whatever OUT holds. One whose position is already in OUT is reported as there and
    not written again; a file of its name holding another position (edited since) is
    kept, never overwritten. Each file gets a difficulty from the solving effort.
    Themes: avoid-paradox, force-paradox, red-lead, red-lead-exception (only the
    positions the red-lead exception decides), exact-bid (3-5 players), empty-square
    (2 players).

    \b
    Example:
      catbox puzzle generate --theme avoid-paradox --players 4 --count 5 --seed 1 --out new/
      catbox puzzle solve new/
    """
    if out.exists() and not out.is_dir():
        raise PuzzleError(f"{out}: --out must be a directory")
    known = _known_positions(out)
    stream = generate(theme, players, seed, ruleset=ruleset)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PuzzleError(f"{out}: cannot create the directory: {exc.strerror}") from None
    made: list[Puzzle] = []
    written: list[str] = []
    present: list[str] = []  # the seed's puzzles whose position OUT already holds
    kept: list[str] = []  # files of a puzzle's name holding another position
    ready_search(quiet)
    for pz in progress(itertools.islice(stream, count), count, f"{theme} puzzles", quiet):
        target = out / f"{pz.id}.toml"
        there = known.get(position_to_notation(pz.position))
        if there is not None:
            present.append(str(there))
        elif target.exists():
            kept.append(str(target))
        else:
            write_whole(target, puzzle_to_toml(pz))
            made.append(pz)
            written.append(str(target))
    for name in kept:
        click.echo(f"kept {name}: a file of that name is there (not overwritten)", err=True)
    if as_json:
        echo_json({
            "theme": theme, "players": players, "seed": seed,
            "files": written,
            "difficulty": [p.difficulty for p in made],
            "present": present,
            "kept": kept,
        })
    else:
        for name, pz in zip(written, made, strict=True):
            click.echo(f"{name}  difficulty {pz.difficulty}  {pz.title}")
        for name in present:
            click.echo(f"{name}  already there")
        there_too = f" ({len(present)} already there)" if present else ""
        click.echo(f"wrote {counted(len(made), f'{theme} puzzle')} to {out}{there_too}")
