"""``catbox solve`` and ``catbox ddtable``: double-dummy search from the command line.

Thin: parse the arguments, call :mod:`catbox_solver.dd.solve`, print.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar, cast

import click

from catbox_solver.cli.common import (
    CtrlC,
    Seconds,
    Undecided,
    WholeRange,
    echo_json,
    json_option,
    main,
    progress_line,
    quiet_option,
    ready_search,
)
from catbox_solver.dd.answer import QUESTIONS, Answer, DDTable
from catbox_solver.dd.checks import MAX_JOBS
from catbox_solver.dd.solve import dd_table, solve
from catbox_solver.errors import SearchError
from catbox_solver.interrupt import Interrupted
from catbox_solver.model.numbers import whole_number
from catbox_solver.model.position import Position
from catbox_solver.questions import Question
from catbox_solver.render.text import line_text as line_text  # (puzzle_cmds uses it)


def parse_hero(text: str, pos: Position) -> int:
    """``to-move`` or a seat number; SearchError (exit code 2) otherwise."""
    if text.strip().lower() in ("to-move", "tomove", "to_move"):
        return pos.to_move
    seat = whole_number(text.strip())  # (ASCII digits only, as every other seat read)
    if seat is None:
        raise SearchError(f"--hero must be a seat number or 'to-move', not {text!r}")
    if not 0 <= seat < pos.rules.players:
        raise SearchError(f"--hero {seat}: seats are 0-{pos.rules.players - 1}")
    return seat




T = TypeVar("T")
Report = Callable[[int, int, str], None]  # progress(done, total, what)


@contextmanager
def _progress(quiet: bool, label: str, unit: str = "searches") -> Iterator[Report | None]:
    """A one-line progress indication on stderr (terminal only, not with --quiet): the
    searches (or other ``unit``) done, what is searched now and the range proven for it."""

    def text(done: int, total: int, what: str) -> str:
        return f"{label}: {done}/{total} {unit} done" + (f"; now {what}" if what else "")

    with progress_line(quiet, text) as report:
        yield report


def _value_text(
    question: str, value: Any, bounds: tuple[int, int] | None = None, why: str = "out of time"
) -> str:
    if value is None:
        if bounds is not None:
            lo, hi = bounds
            return f"unknown ({why}; proven {lo} to {hi})"
        return f"unknown ({why})"
    if question in ("paradox", "table"):
        return "yes" if value else "no"
    return str(value)


QUESTION_TEXT = {
    "paradox": "can seat {h} be sure never to cause a paradox?",
    "tricks": "trick points seat {h} can be sure of",
    "score": "round score seat {h} can be sure of",
    "table": "can the players together finish the round with no paradox?",
}


def answer_text(pos: Position, ans: Answer, why: str = "out of time") -> str:
    """Readable answer: the value, the plays best first, the principal variation. ``why``
    an answer may be unknown: "out of time", or "stopped" (Ctrl-C)."""
    head = QUESTION_TEXT[ans.question].format(h=ans.hero)
    lines = [f"{head} {_value_text(ans.question, ans.value, ans.bounds, why)}"]
    if ans.plays:
        mover = "the hero" if ans.to_move == ans.hero else f"seat {ans.to_move}"
        if ans.question == "table":
            mover = f"seat {ans.to_move}"
        order = (
            "best first" if ans.to_move == ans.hero or ans.question == "table"
            else "worst for the hero first"  # (the others play against the hero)
        )
        lines.append(f"after each play of {mover} (to move), {order}:")
        for r in ans.best_first():
            lines.append(
                f"  {r.play.text:4} {_value_text(ans.question, r.result, r.bounds, why)}"
            )
    if not ans.pv_complete:
        start = f": {line_text(pos, ans.pv)}" if ans.pv else ""
        n = len(ans.pv)
        lines.append(f"best line: {why} after {n} play{'' if n == 1 else 's'}{start}")
    elif ans.pv:
        lines.append(f"best line: {line_text(pos, ans.pv)}")
    lines.append(f"{ans.nodes} nodes, {ans.seconds:.3f} s")
    return "\n".join(lines)


class ProvenCtrlC(CtrlC):
    """Ctrl-C in solve or ddtable: the answer as far as it was proven is printed (as on a
    timeout, "stopped" for "out of time"), then the batch stops (see CtrlC)."""

    @property
    def why(self) -> str:
        return "stopped" if self.hit else "out of time"

    def run(self, quiet: bool, label: str, compute: Callable[[Report | None], T],
            unit: str = "searches") -> T:
        """``compute(report)`` under the progress line; on Ctrl-C the answer as far as it
        was proven (Interrupted.partial)."""
        with _progress(quiet, label, unit) as report:
            try:
                return compute(report)
            except Interrupted as e:
                self.came("shown is what was proven by then")
                return cast(T, e.partial)


def jobs_option(
    what: str, same: str = "The answer is the same."
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """--jobs: how many of ``what`` to search at once (``same``: what stays the same)."""
    return click.option(
        "--jobs",
        type=WholeRange(0, MAX_JOBS),
        default=1,
        show_default=True,
        help=f"Search N {what} at once, one thread (and core) each; 0: one per core. {same}",
    )


def hero_and_question(
    hero_help: str, questions: tuple[str, ...], default: str, question_help: str
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """--hero (a seat or 'to-move') and --question, as solve and odds take them."""
    hero = click.option("--hero", default="to-move", show_default=True, help=hero_help)
    question = click.option("--question", type=click.Choice(questions), default=default,
                            show_default=True, help=question_help)
    return lambda f: hero(question(f))


@main.command("solve")
@click.argument("position")
@hero_and_question(
    "The hero's seat number, or 'to-move' for the player to move.",
    QUESTIONS, "tricks",
    "paradox: can the hero avoid causing one; tricks: guaranteed trick points; "
    "score: guaranteed round score; table: can everyone together avoid a paradox.",
)
@click.option("--timeout", type=Seconds(), default=None, help="Give up after S seconds (unknown).")
@jobs_option("plays")
@json_option
@quiet_option
def solve_cmd(
    position: str,
    hero: str,
    question: str,
    timeout: float | None,
    jobs: int,
    as_json: bool,
    quiet: bool,
) -> None:
    """Solve POSITION double dummy (all hands open): the hero against all other players.

    The answer is exact: the value, the value after every legal play of the player to
    move, and a best line. With --timeout the search may end with "unknown", never with
    a guess; for tricks and score an unknown value or play result comes with the range
    the search had proven it to lie in ("bounds": [lo, hi] in the JSON). Every play's
    sign (whether the hero avoids causing a paradox) is searched first, so a timeout
    still leaves each play a range. Out of time while the best line is searched, the
    value and the plays' results stand and the line found so far is shown, marked cut
    short ("pv_complete": false); the same when the plays found by then decide the
    value, some still open (a range closed to one number, or a play that settles a yes
    or no). On a terminal (not with --quiet) a progress line
    shows the searches done, the one under way and the range proven for it so far.
    Ctrl-C stops at once and prints what was proven by then (exit code 130). Exit code
    3 when the timeout left the value or a play's result unknown, 2 on bad input.

    How long, with 4 players: paradox and table usually take under a second from the
    first lead (a few positions far longer), tricks a few seconds at 6 tricks left;
    tricks and score from the first lead can take many minutes (docs/search.md), so
    give them a --timeout.

    POSITION is the one-line notation, JSON text (catbox-position/1, starting with '{'),
    @FILE holding either, or @FILE.jsonl with one position per line (a batch).

    \b
    Examples:
      catbox solve @pos.json --hero to-move --question tricks
      catbox solve @pos.json --hero 2 --question paradox --json
      catbox solve @many.jsonl --question table --json --timeout 10
      catbox solve @first-lead.json --question tricks --timeout 60
      catbox solve @first-lead.json --question tricks --jobs 0   # every core
    """
    from catbox_solver.cli.position_cmds import run_positions

    stop = ProvenCtrlC()

    def answer(pos: Position) -> Answer:
        seat = parse_hero(hero, pos)
        ready_search(quiet)
        return stop.run(
            quiet, "solving", lambda report: solve(
                pos, seat, cast(Question, question), timeout, report, jobs=jobs
            )
        )

    undecided = Undecided()

    def solved(pos: Position) -> Answer:
        ans = answer(pos)
        # (an answer Ctrl-C cut short is not one the time limit left undecided)
        undecided.add(not stop.hit and (ans.value is None
                                        or any(r.result is None for r in ans.plays)))
        return ans

    def text(pos: Position) -> str:
        return answer_text(pos, solved(pos), stop.why)

    run_positions(position, as_json, lambda pos: solved(pos).to_json(), text,
                  undecided=undecided, stop=stop)
    undecided.end()


def _cell(value: int | None, bounds: tuple[int, int] | None, unknown: str) -> str:
    """A table cell: the value, or the proven range lo..hi when out of time."""
    if value is not None:
        return str(value)
    if bounds is not None:
        return f"{bounds[0]}..{bounds[1]}"
    return unknown


def table_text(table: DDTable, why: str = "out of time") -> str:
    """Readable DD table; ``why`` a value may be unknown ("out of time" or "stopped")."""
    lines = [f"{'seat':>4}  {'no paradox':>10}  {'tricks':>6}  {'score':>5}"]
    for r in table.rows:
        par = "?" if r.paradox is None else "yes" if r.paradox else "no"
        tricks = _cell(r.tricks, r.tricks_bounds, "?")
        score = _cell(r.score, r.score_bounds, "-")
        lines.append(f"{r.seat:>4}  {par:>10}  {tricks:>6}  {score:>5}")
    lines.append(f"{table.nodes} nodes, {table.seconds:.3f} s")
    lines.append(
        f"(score '-': prediction unknown or {why}; '?': {why}; "
        f"'lo..hi': {why}, proven in that range)"
    )
    return "\n".join(lines)


@main.command("ddtable")
@click.argument("position")
@click.option("--timeout", type=Seconds(), default=None, help="Give up after S seconds (unknown).")
@jobs_option("seats")
@json_option
@quiet_option
def ddtable_cmd(
    position: str, timeout: float | None, jobs: int, as_json: bool, quiet: bool
) -> None:
    """The double-dummy table of POSITION: every seat as hero against all the others.

    For each seat: can it be sure never to cause a paradox (JSON "paradox": true when it
    can, the paradox question's answer), the trick points it can be sure of, and the
    round score it can be sure of (needs its prediction). With --timeout, every
    seat's paradox verdict is searched first, then the trick points, then the scores; a
    value left unknown shows the range proven (lo..hi; "tricks_bounds" and
    "score_bounds" in the JSON). Ctrl-C stops at once and prints the table as far as it
    was proven (exit code 130). Exit code 3 when the timeout left an entry unknown (not
    a score for want of the prediction), 2 on bad input.

    POSITION is the one-line notation, JSON text (catbox-position/1, starting with '{'),
    @FILE holding either, or @FILE.jsonl with one position per line (a batch).

    \b
    Examples:
      catbox ddtable @pos.json
      catbox ddtable @pos.json --json --timeout 60
      catbox ddtable @pos.json --jobs 4
    """
    from catbox_solver.cli.position_cmds import run_positions

    stop = ProvenCtrlC()

    def table(pos: Position) -> DDTable:
        ready_search(quiet)
        return stop.run(
            quiet, "seats", lambda report: dd_table(pos, timeout, report, jobs=jobs)
        )

    undecided = Undecided()

    def tabled(pos: Position) -> DDTable:
        t = table(pos)
        preds = pos.predictions or (None,) * pos.rules.players
        undecided.add(not stop.hit and any(  # (Ctrl-C: not the time limit's)
            r.paradox is None or r.tricks is None
            # (a score is None without a timeout only where the prediction is unknown)
            or r.score is None and not (pos.rules.has_predictions and preds[r.seat] is None)
            for r in t.rows
        ))
        return t

    def text(pos: Position) -> str:
        return table_text(tabled(pos), stop.why)

    run_positions(position, as_json, lambda pos: tabled(pos).to_json(), text,
                  undecided=undecided, stop=stop)
    undecided.end()


@main.command("warm-up")
@json_option
@quiet_option
def warm_up_cmd(as_json: bool, quiet: bool) -> None:
    """Make the search kernel ready now, so that the first search does not wait.

    numba compiles the double-dummy kernel at its first use after an install and keeps
    it in its disk cache; every later use loads it from there. Install scripts, images
    and CI run this once after `pip install` so that no user's first `catbox solve`
    waits for the compile. It prints how long it took (JSON: {"seconds": ...}); run
    again it only loads the cache.

    \b
    Example:
      catbox warm-up
    """
    import time

    from catbox_solver.dd.warmup import warm_up

    start = time.perf_counter()
    if not quiet and not as_json:
        click.echo("making the search kernel ready (compiled once after an install)...",
                   err=True)
    warm_up()
    seconds = time.perf_counter() - start
    if as_json:
        echo_json({"seconds": round(seconds, 3)})
    else:
        click.echo(f"search kernel ready in {seconds:.1f} s")
