"""``catbox annotate`` and ``catbox puzzle from-game``: engine analysis of a played game.

Thin: read the record, call :mod:`catbox_solver.annotate`, print.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from catbox_solver.annotate.analysis import (
    QUESTIONS,
    Analysis,
    AnalysisInterrupted,
    analyse_game,
)
from catbox_solver.annotate.html import write_analysis_html
from catbox_solver.annotate.puzzles import puzzles_from_game
from catbox_solver.annotate.text import analysis_text, annotated_record
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
    main,
    progress_line,
    quiet_option,
    ready_search,
    stopped,
)
from catbox_solver.cli.puzzle_group import puzzle
from catbox_solver.cli.solve_cmds import jobs_option
from catbox_solver.errors import RecordError, SearchError
from catbox_solver.formats.files import read_limited, write_whole
from catbox_solver.formats.record import GameRecord, read_record, write_record
from catbox_solver.model.numbers import whole_number
from catbox_solver.puzzles import PuzzleError, puzzle_to_toml

Report = Callable[[int, int, str], None]


def _read(record_file: str) -> GameRecord:
    """The record of a file ('-': standard input); a RecordError (exit 2) when it is not
    one."""
    try:
        text = read_limited(None if record_file == "-" else record_file).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RecordError(f"{record_file}: not a text file (UTF-8)") from None
    try:
        return read_record(text)
    except RecordError as exc:
        raise RecordError(f"{record_file}: {exc}") from None


def _clock(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


@contextmanager
def _progress(quiet: bool) -> Iterator[Report | None]:
    """The progress line on stderr (a terminal, not --quiet): plays done of all, the time
    left at the pace so far, the play judged last."""
    begun = time.perf_counter()

    def text(done: int, total: int, what: str) -> str:
        spent = time.perf_counter() - begun
        left = f", about {_clock(spent / done * (total - done))} left" if done else ""
        return f"annotating: {done}/{total} plays done{left}" + (
            f"; last {what}" if what else "")

    with progress_line(quiet, text) as report:
        yield report


def _tricks(text: str | None) -> tuple[int, int] | None:
    """--tricks A-B (or one trick A) as (A, B); a SearchError (exit 2) otherwise."""
    if text is None:
        return None
    first, _, last = text.partition("-")
    a, b = whole_number(first.strip()), whole_number((last or first).strip())
    if a is None or b is None or not 1 <= a <= b:
        raise SearchError(f"--tricks {text!r}: a trick number or a range like 6-8")
    return a, b


def _analyse(record: GameRecord, question: str, hidden: bool, samples: int, seed: int,
             timeout: float | None, jobs: int, quiet: bool, rounds: tuple[int, ...],
             tricks: str | None, quick: bool = False) -> tuple[Analysis, bool]:
    """The analysis, and whether Ctrl-C cut it short."""
    span = _tricks(tricks)
    ready_search(quiet)
    with _progress(quiet) as report:
        try:
            return analyse_game(record, question, timeout, hidden, samples, seed, jobs,
                                report, rounds=rounds or None, tricks=span,
                                quick=quick), False
        except AnalysisInterrupted as e:
            assert isinstance(e.partial, Analysis)
            return e.partial, True


_question = click.option(
    "--question", type=click.Choice(QUESTIONS), default="paradox", show_default=True,
    help="paradox: can the mover be sure never to cause a paradox; tricks: its guaranteed "
    "trick points; score: its guaranteed round score.")
_rounds = click.option(
    "--round", "rounds", type=WholeRange(1, 5), multiple=True,
    help="Judge only the plays of round N (repeat for several; default: every round).")
_span = click.option(
    "--tricks", default=None,
    help="Judge only the plays of these tricks of each round: 6-8, or one trick: 7.")
_timeout = click.option(
    "--timeout-per-play", "timeout", type=Seconds(), default=60.0, show_default=True,
    help="Seconds for each search of a play; a value still open is unknown, with the "
    "range proven.")


@main.command("annotate")
@click.argument("record_file", metavar="RECORD", type=GivenPath(allow_dash=True))
@_question
@click.option("--hidden", is_flag=True,
              help="Also judge each play by what the mover could see (single dummy over "
              "the deals it could not tell apart, as catbox odds).")
@click.option("--samples", type=WholeRange(1, 10**7), default=100, show_default=True,
              help="With --hidden: deals drawn when there are more (else each is "
              "weighed exactly).")
@click.option("--seed", type=WholeNumber(), default=0, show_default=True,
              help="With --hidden: the seed of the deals drawn.")
@_timeout
@_rounds
@_span
@jobs_option("plays", "The analysis is the same.")
@click.option("--html", "html_file", type=GivenPath(dir_okay=False), default=None,
              help="Write a self-contained HTML page of the analysis to FILE.")
@click.option("--annotated", "annotated_file", type=GivenPath(dir_okay=False), default=None,
              help="Write the record with the marks as comments to FILE (still a valid "
              "record).")
@click.option("--brief", is_flag=True, help="List only the plays that lose or stay unknown.")
@click.option("--quick", is_flag=True,
              help="Paradox: search only what each mark needs, the position before the "
              "play, then the play (a safe play is marked best; values not needed stay "
              "unsearched).")
@json_option
@quiet_option
def annotate_cmd(record_file: str, question: str, hidden: bool, samples: int, seed: int,
                 timeout: float | None, rounds: tuple[int, ...], tricks: str | None,
                 jobs: int, html_file: str | None,
                 annotated_file: str | None, brief: bool, quick: bool, as_json: bool,
                 quiet: bool) -> None:
    """Judge every play of a game record with the exact search.

    For each play, the position before it is solved with every hand open, the player who
    made it against all the others: the value of each of its legal plays, the value of
    the play made, the best plays and a mark: blunder, mistake, inaccuracy, best, only
    (one legal play, or all worth the same) or unknown (the time limit left it open; the
    proven ranges are shown). The marks' thresholds are in docs/annotate.md. A table
    per seat ends it. --json prints {"plays": [...], "summary": {...}, ...}; --html
    writes a page with each losing play's board; --annotated writes the record with a
    comment on each losing play.

    --quick (paradox) searches only what each mark needs: the position before the play,
    then the play made; a safe play is then marked best, meaning best or all worth the
    same, and the values not needed stay unsearched.

    Exit code 3 when a value was left unknown (with --quick: a mark), 1 when the record
    does not verify (the plays before its first illegal event are judged, then the
    referee's message), 2 on a malformed record or bad option, 130 after Ctrl-C (what was
    judged by then is printed). RECORD '-' reads standard input.

    \b
    Examples:
      catbox annotate docs/games/3p-seed5.txt
      catbox annotate docs/games/3p-seed5.txt --question tricks --timeout-per-play 10 --json
      catbox annotate docs/games/3p-seed5.txt --html analysis.html --annotated notes.txt --brief
      catbox annotate docs/games/3p-seed5.txt --hidden --samples 20 --jobs 0
      catbox annotate docs/games/3p-seed5.txt --round 2 --tricks 4-8   # one round's end
      catbox annotate docs/games/3p-seed5.txt --quick --brief
      catbox play --players 4 --seed 7 --record game.txt   # then: catbox annotate game.txt
    """
    if quick and question != "paradox":
        raise SearchError(f"--quick is for --question paradox, not {question}")
    record = _read(record_file)
    analysis, cut = _analyse(record, question, hidden, samples, seed, timeout, jobs, quiet,
                             rounds, tricks, quick)
    if as_json:
        echo_json(analysis.to_json())
    else:
        click.echo(analysis_text(analysis, every_play=not brief))
        if not analysis.verdict.valid:
            click.echo(str(analysis.verdict))
    if html_file is not None:
        write_analysis_html(analysis, html_file)
    if annotated_file is not None:
        write_whole(annotated_file, write_record(annotated_record(analysis)))
    if cut:
        stopped("shown is what was analysed by then")
    if not analysis.verdict.valid:
        raise click.exceptions.Exit(EXIT_INVALID)
    if analysis.unknown:
        raise click.exceptions.Exit(EXIT_UNCHECKED)


@puzzle.command("from-game")
@click.argument("record_file", metavar="RECORD", type=GivenPath(allow_dash=True))
@click.option("--out", type=GivenPath(file_okay=False, path_type=Path), required=True,
              help="Directory for the puzzle files (created if needed).")
@_question
@_timeout
@_rounds
@_span
@click.option("--prefix", default="game", show_default=True,
              help="The start of each puzzle's id (lower-case letters, digits, '-').")
@click.option("--unique-only", is_flag=True, help="Only blunders with one right play.")
@jobs_option("plays", "The puzzles are the same.")
@json_option
@quiet_option
def from_game_cmd(record_file: str, out: Path, question: str, timeout: float | None,
                  rounds: tuple[int, ...], tricks: str | None, prefix: str,
                  unique_only: bool, jobs: int, as_json: bool, quiet: bool) -> None:
    """Turn each blunder of a played game into a puzzle file, checked by the solver.

    The game is analysed as by catbox annotate; each blunder whose values are all known
    becomes a puzzle: the position before it, the question the mover got wrong (safe for
    --question paradox, best-tricks or best-score) and the right plays as its answer.
    Each is solved as catbox puzzle solve does and written to OUT/<id>.toml only when
    the stored answer checks (an existing file is not overwritten).

    Exit code 3 when a value or a puzzle was left unchecked by the time limit, 1 when
    the record does not verify, 2 on bad input, 130 after Ctrl-C.

    \b
    Example:
      catbox puzzle from-game docs/games/3p-seed5.txt --out from-game/
      catbox puzzle solve from-game/
    """
    if out.exists() and not out.is_dir():
        raise PuzzleError(f"{out}: --out must be a directory")
    record = _read(record_file)
    analysis, cut = _analyse(record, question, False, 1, 0, timeout, jobs, quiet, rounds,
                             tricks)
    made = puzzles_from_game(analysis, prefix, timeout, unique_only)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PuzzleError(f"{out}: cannot create the directory: {exc.strerror}") from None
    rows: list[dict[str, Any]] = []
    for gp in made:
        target = out / f"{gp.puzzle.id}.toml"
        status = "written"
        if not gp.ok:
            status = "unchecked" if gp.solution is None else "wrong"
        elif target.exists():
            status = "kept"
        else:
            write_whole(target, puzzle_to_toml(gp.puzzle))
        reason = gp.unchecked or ("; ".join(gp.solution.problems) if gp.solution else "")
        rows.append({"id": gp.puzzle.id, "file": str(target), "status": status,
                     "answer": [p.text for p in gp.puzzle.plays],
                     "difficulty": gp.puzzle.difficulty, "reason": reason or None})
    if as_json:
        echo_json({"question": question, "puzzles": rows,
                   "blunders": sum(n.mark == "blunder" for n in analysis.notes),
                   "unknown": analysis.unknown, "complete": analysis.complete})
    else:
        for row in rows:
            extra = f" ({row['reason']})" if row["reason"] else ""
            click.echo(f"{row['status']:9} {row['file']}  answer {' '.join(row['answer'])}  "
                       f"difficulty {row['difficulty']}{extra}")
        written = sum(r["status"] == "written" for r in rows)
        click.echo(f"wrote {counted(written, 'puzzle')} to {out}")
    if cut:
        stopped("shown are the puzzles of the plays analysed by then")
    if not analysis.verdict.valid:
        click.echo(str(analysis.verdict), err=True)
        raise click.exceptions.Exit(EXIT_INVALID)
    if any(r["status"] == "wrong" for r in rows):
        raise click.exceptions.Exit(EXIT_INVALID)
    if analysis.unknown or any(r["status"] == "unchecked" for r in rows):
        raise click.exceptions.Exit(EXIT_UNCHECKED)
