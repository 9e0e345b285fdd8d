"""``catbox exists`` and ``catbox prove``: questions decided by the CP-SAT model of a round."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, cast

import click

from catbox_solver.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_INVALID,
    EXIT_UNCHECKED,
    CtrlC,
    Undecided,
    WholeNumber,
    WholeRange,
    echo_json,
    json_option,
    main,
    stopped,
    timeout_option,
    too_many_digits,
)
from catbox_solver.errors import CatboxError, SearchError
from catbox_solver.interrupt import Interrupted
from catbox_solver.model.numbers import shown, whole_number
from catbox_solver.model.position import cell_bit


def _seat_count(text: str, option: str, signed: bool = False) -> tuple[int, int]:
    """Read ``SEAT=COUNT`` (``signed``: the count may be negative, as a score can be). A
    seat or count of too many digits is named as such (it was "takes SEAT=COUNT like
    1=3"), and a long text is shortened (it was echoed whole)."""
    seat, sep, count = text.partition("=")
    if sep:
        for part, what, sign in ((seat, "seat", False), (count, "count", signed)):
            wrong = too_many_digits(part.strip(), sign)
            if wrong:
                raise SearchError(f"{option} {shown(text)}: the {what} {wrong}")
    s, k = whole_number(seat.strip()), whole_number(count.strip(), signed=signed)
    if not sep or s is None or k is None:
        example = "1=-2" if signed else "1=3"
        raise SearchError(f"{option} takes SEAT=COUNT like {example}, not {shown(text)}")
    return s, k


def _board(text: str) -> dict[str, str]:
    """A final board as ``R:0.1.. B:..... Y:..... G:N..N.`` (the notation's board field,
    read by the notation's own reader) or a JSON object ``{"R": "0.1..", ...}``."""
    import json

    from catbox_solver.formats.notation import board_rows

    s = text.strip()
    if s.startswith("{"):
        try:  # (as pairs: a row given twice, "R" and "r" or the same key, is an error)
            obj = json.loads(s, object_pairs_hook=lambda pairs: pairs)
        except json.JSONDecodeError as exc:
            raise SearchError(f"--final-board: bad JSON ({exc.msg})") from None
        except (ValueError, RecursionError):  # a huge number, or nesting too deep
            raise SearchError("--final-board: JSON that cannot be read") from None
        if not isinstance(obj, list) or not all(isinstance(v, str) for _, v in obj):
            raise SearchError("--final-board: a JSON object of row strings is needed")
        rows: dict[str, str] = {}
        for key, row in obj:
            if key.upper() in rows:
                raise SearchError(f"--final-board: row {key.upper()} is given twice")
            rows[key.upper()] = row
        return rows
    try:
        return board_rows(text)
    except CatboxError as exc:
        raise SearchError(f"--final-board: {exc}") from None


def build_conditions(
    no_paradox: bool,
    paradox: bool,
    paradox_by: int | None,
    at_trick: int | None,
    tricks: tuple[str, ...],
    at_least: tuple[str, ...],
    at_most: tuple[str, ...],
    empty: tuple[str, ...],
    final_board: str | None,
    scored: dict[str, tuple[str, ...]] | None = None,
) -> list[Any]:
    """The conditions named by the options, in a fixed order."""
    from catbox_solver.cpsat import exists as ex

    conds: list[ex.Condition] = []
    if no_paradox:
        conds.append(ex.no_paradox())
    if paradox_by is not None:
        conds.append(ex.paradox_by(paradox_by, at_trick))
    elif paradox or at_trick is not None:
        conds.append(ex.paradox(at_trick))
    for text in tricks:
        conds.append(ex.tricks(*_seat_count(text, "--tricks")))
    for text in at_least:
        conds.append(ex.tricks_at_least(*_seat_count(text, "--tricks-at-least")))
    for text in at_most:
        conds.append(ex.tricks_at_most(*_seat_count(text, "--tricks-at-most")))
    for text in empty:
        conds.append(ex.empty(text))
    if final_board is not None:
        conds.append(ex.final_board(_board(final_board)))
    for kind in ex.SCORED:
        for text in (scored or {}).get(kind, ()):
            seat, count = _seat_count(text, f"--{kind}", signed=kind.startswith("score"))
            conds.append(ex.Condition(kind, seat=seat, count=count))
    return conds


def condition_flag(cond: Any) -> str:
    """A condition as the options that ask it (``--tricks-at-least 0=3``): the CLI's own
    name for what the library names ``tricks_at_least(0, 3)``."""
    kind = cond.kind
    at = f" --at-trick {cond.trick}" if cond.trick is not None else ""
    if kind == "no-paradox":
        return "--no-paradox"
    if kind == "paradox-by":
        return f"--paradox-by {cond.seat}{at}"
    if kind == "paradox":
        return f"--paradox{at}"
    if kind == "empty":
        from catbox_solver.cpsat.exists import cell_text

        return f"--empty {cell_text(*cond.cell)}"
    if kind == "final-board":
        rows = " ".join(f"{k}:{v}" for k, v in cond.board)
        # (a whole board is under 50 characters; a longer text is shortened, as in every
        # error that quotes an argument)
        return "--final-board " + (rows if len(rows) <= 60 else rows[:40] + "...")
    return f"--{kind} {cond.seat}={cond.count}"


def _flags(clash: Sequence[str], conds: Sequence[Any]) -> list[str]:
    """The clash's condition names (the library's) as the options that asked them."""
    by_name = {c.name: condition_flag(c) for c in conds}
    return [by_name.get(name, name) for name in clash]


def _flagged(exc: SearchError, conds: Sequence[Any]) -> SearchError:
    """A condition's error (``tricks(5, 2): seat 5 outside 0-3``) as the CLI says it,
    naming the options that asked the condition (``--tricks 5=2: ...``)."""
    text = str(exc)
    for c in conds:
        if text.startswith(c.name + ": "):
            new = copy.copy(exc)
            new.args = (condition_flag(c) + text[len(c.name):],)
            return new
    return exc


def _answer_json(answer: Any, conds: Sequence[Any]) -> dict[str, Any]:
    """The answer's JSON, its clash named by the options that asked the conditions."""
    out: dict[str, Any] = answer.to_json()
    if "clash" in out:
        out["clash"] = _flags(out["clash"], conds)
    return out


def _answer_text(pos: Any, answer: Any, conds: Sequence[Any] = ()) -> str:
    """An answer as text. ``conds``: the conditions asked, to name those of a clash by
    their options and to say which asks a cell to stay empty that holds a token already
    (it read as a plain clash)."""
    if answer.exists is None:
        return f"unknown: {answer.reason}"
    if not answer.exists:
        clash = _flags(answer.clash, conds)
        if len(clash) == 1:  # ("the conditions clash" read oddly of one)
            head = f"impossible: no continuation meets {clash[0]}"
        else:
            head = f"impossible: the conditions clash: {', '.join(clash) or '(no conditions)'}"
        notes = [
            f"note: {condition_flag(c)}: that cell holds a token already" for c in conds
            if c.kind == "empty" and c.name in answer.clash
            and pos.used & cell_bit(*c.cell)
        ]
        if not answer.minimal:
            notes.append(f"note: {answer.reason}")
        return "\n".join([head, *notes])
    out = []
    for i, line in enumerate(answer.lines):
        cur = pos
        for pl in line:
            cur = cur.after(pl)
        if cur.is_paradox:
            end = f"paradox by seat {cur.paradox_by} in trick {cur.tricks_played + 1}"
        else:
            end = "round complete"
        won = " ".join(map(str, cur.tricks_won))
        try:
            won += "; scores " + " ".join(map(str, cur.scores()))
        except CatboxError:  # a prediction is unknown: no scores to show
            pass
        label = "witness" if len(answer.lines) == 1 else f"witness {i + 1}"
        text = " ".join(p.text for p in line) or "(no plays)"
        out.append(f"{label}: {text}  [{end}; tricks won {won}]")
    if not answer.complete:
        out.append(f"note: {answer.reason}")
    return "exists\n" + "\n".join(out)


@main.command("exists")
@click.argument("position")
@click.option("--no-paradox", is_flag=True, help="The round ends without a paradox.")
@click.option("--paradox", is_flag=True, help="Some player causes a paradox.")
@click.option("--paradox-by", type=WholeNumber(), metavar="SEAT",
              help="This seat causes a paradox.")
@click.option("--at-trick", type=WholeNumber(), metavar="T",
              help="The paradox happens in trick T (1 to the number of tricks: 8, with 5 "
              "players 7).")
@click.option("--tricks", multiple=True, metavar="SEAT=K", help="Seat ends with exactly K tricks.")
@click.option("--tricks-at-least", multiple=True, metavar="SEAT=K", help="At least K tricks.")
@click.option("--tricks-at-most", multiple=True, metavar="SEAT=K", help="At most K tricks.")
@click.option("--empty", multiple=True, metavar="CELL", help="Cell (e.g. g4) stays empty.")
@click.option(
    "--final-board",
    metavar="BOARD",
    help="The board at the end: 'R:.. B:.. Y:.. G:..' as in the notation ('.' empty, a seat "
    "digit, N neutral, a last '#' for the covered column).",
)
@click.option("--bonus", multiple=True, metavar="SEAT=K", help="Seat's bonus is exactly K.")
@click.option("--bonus-at-least", multiple=True, metavar="SEAT=K", help="Bonus at least K.")
@click.option("--bonus-at-most", multiple=True, metavar="SEAT=K", help="Bonus at most K.")
@click.option("--score", multiple=True, metavar="SEAT=K", help="Seat's round score is exactly K.")
@click.option("--score-at-least", multiple=True, metavar="SEAT=K", help="Score at least K.")
@click.option("--score-at-most", multiple=True, metavar="SEAT=K", help="Score at most K.")
@click.option("--count", type=WholeRange(1, 10000), default=1,
              help="Up to N distinct lines (cut short by the time limit: the answer says so).")
@timeout_option(60.0, "Seconds for the question.")
@click.option("--workers", type=WholeRange(1, 64), default=2, help="Solver threads.")
@json_option
def exists_cmd(
    position: str,
    no_paradox: bool,
    paradox: bool,
    paradox_by: int | None,
    at_trick: int | None,
    tricks: tuple[str, ...],
    tricks_at_least: tuple[str, ...],
    tricks_at_most: tuple[str, ...],
    empty: tuple[str, ...],
    final_board: str | None,
    bonus: tuple[str, ...],
    bonus_at_least: tuple[str, ...],
    bonus_at_most: tuple[str, ...],
    score: tuple[str, ...],
    score_at_least: tuple[str, ...],
    score_at_most: tuple[str, ...],
    count: int,
    timeout: float,
    workers: int,
    as_json: bool,
) -> None:
    """Is there a way to continue POSITION that meets every condition?

    All players cooperate: each play is any legal play. The answer is a witness line
    (replayed through the rules engine first), "impossible" with the conditions that
    clash, or "unknown" when the time limit stops the solver.

    The bonus of a seat is its largest connected group of tokens on the research board
    when the round ends, scored only if it met its prediction (official 2 players: at most
    4 tricks) and did not cause the paradox; the score is trick points (+tricks, -tricks
    for the paradox) plus the bonus. These need the seat's prediction in POSITION.

    POSITION is the one-line notation, catbox-position/1 JSON text, @FILE, or @FILE.jsonl
    (one position per line; each line of a text answer starts with "line N: ", the input
    line; with --json one answer line each).

    Exit code 0 when answered (a witness, or impossible), 3 when the time limit left the
    answer unknown or cut --count short, 2 on bad input, 130 on Ctrl-C. With @FILE.jsonl:
    2 if a line could not be read or answered, else 3 if an answer was undecided (both
    counted on stderr), else 0.

    \b
    Examples:
      catbox exists "$(catbox deal --players 4 --seed 1 --notation)" --no-paradox
      catbox exists @pos.json --paradox-by 2 --at-trick 6 --json
      catbox exists @pos.json --tricks 0=3 --empty g4 --count 5
      catbox exists @pos.json --score-at-least 1=6 --bonus-at-most 2=0
      catbox exists @pos.json --score 0=-2
    """
    from catbox_solver.cli.position_cmds import run_positions
    from catbox_solver.cpsat.exists import ExistsAnswer, exists

    conds = build_conditions(
        no_paradox,
        paradox,
        paradox_by,
        at_trick,
        tricks,
        tricks_at_least,
        tricks_at_most,
        empty,
        final_board,
        {
            "bonus": bonus,
            "bonus-at-least": bonus_at_least,
            "bonus-at-most": bonus_at_most,
            "score": score,
            "score-at-least": score_at_least,
            "score-at-most": score_at_most,
        },
    )
    undecided = Undecided()
    stop = CtrlC()

    def answer(pos: Any) -> Any:
        try:
            ans = exists(pos, conds, count=count, timeout=timeout, workers=workers)
        except SearchError as exc:
            raise _flagged(exc, conds) from None
        except Interrupted as e:
            # Ctrl-C: the witness lines found by then (with --count), or the clash as
            # narrowed down by then, printed as the answer; then exit code 130
            if not isinstance(e.partial, ExistsAnswer):
                raise  # (nothing to show: run_positions says the batch's summaries, stops)
            stop.came("shown are the lines found by then" if e.partial.exists
                      else "shown is the clash as narrowed down by then")
            return e.partial
        undecided.add(ans.exists is None or not ans.complete)
        return ans

    run_positions(
        position, as_json, lambda pos: _answer_json(answer(pos), conds),
        lambda pos: _answer_text(pos, answer(pos), conds), undecided=undecided, stop=stop,
    )
    undecided.end()  # (the time limit stopped the solver: unknown, or --count cut short)


def _proof_text(res: Any) -> str:
    """A proof result as text: the verdict line, then its counterexample, findings and
    witnesses indented."""
    out = [f"{res.name}, {res.players} players: {res.verdict} "
           f"(solver {res.status}, {res.seconds:.2f} s)"]
    if res.counterexample is not None:
        out.append(f"  counterexample: {res.counterexample.text()}")
    out += [f"  {line}" for line in res.findings]
    out += [f"  {key}: {w.text()}" for key, w in res.witnesses.items()]
    return "\n".join(out)


@main.command("prove")
@click.argument("name", required=False)
@click.option("--players", "-p", type=WholeRange(2, 5), help="Only this player count.")
@click.option(
    "--list", "list_", is_flag=True,
    help="Name every statement (or NAME; with --players, those for that count) and stop.",
)
@timeout_option(120.0, "Seconds in all, for every solver call of the proof together.")
@click.option("--workers", type=WholeRange(1, 64), default=2, help="Solver threads.")
@json_option
def prove_cmd(
    name: str | None,
    players: int | None,
    list_: bool,
    timeout: float,
    workers: int,
    as_json: bool,
) -> None:
    """Prove a named statement over all deals (or print a counterexample).

    The solver looks for a deal and a line of play that break the statement; none
    (INFEASIBLE) means PROVED. Statements that ask "which cells can ..." give a witness
    deal and line for each cell that can. docs/theorems.md explains each statement.
    With --json: one JSON array, an object per player count.

    Exit code 0 when every result is PROVED, 1 when one is a COUNTEREXAMPLE, else 3 when
    one is UNKNOWN (the time limit, --timeout for the whole run, stopped a solver call or
    left it no time), 2 on bad input, 130 on Ctrl-C.

    \b
    Examples:
      catbox prove --list
      catbox prove --list --players 5
      catbox prove full-board --players 4
      catbox prove one-empty-cell --players 5 --json
    """
    from catbox_solver.cpsat.proofs import STATEMENTS, ProofResult, check_players, prove

    if list_ or name is None:
        if not list_:
            raise SearchError("name a statement (catbox prove --list shows them)")
        if name is not None and name not in STATEMENTS:
            raise SearchError(f"no statement {shown(name)} (catbox prove --list shows them)")
        if name is not None and players is not None:  # (as running it says: it listed none)
            check_players(STATEMENTS[name], players)
        # --list NAME: that statement; --players N: the statements proved for N players
        listed = [
            s for s in STATEMENTS.values()
            if name in (None, s.name) and (players is None or players in s.players)
        ]
        if as_json:
            echo_json(
                [
                    {"name": s.name, "players": list(s.players), "statement": s.text}
                    for s in listed
                ]
            )
            return
        for s in listed:
            counts = ",".join(map(str, s.players))
            click.echo(f"{s.name:20} ({counts} players)  {s.text}")
        return
    try:
        results = prove(name, players, workers=workers, timeout=timeout)
        cut = False
    except Interrupted as e:  # Ctrl-C: the results so far, then exit code 130
        results, cut = cast("list[ProofResult]", e.partial), True
    if as_json:
        if results:  # one document (an object per line was no JSON for json.load)
            echo_json([res.to_json() for res in results])
    else:
        for res in results:
            click.echo(_proof_text(res))
    if cut:
        stopped("shown is what was proven by then" if results else "")
    verdicts = {res.verdict for res in results}
    if "COUNTEREXAMPLE" in verdicts:  # (a definite "no" before an undecided one)
        raise click.exceptions.Exit(EXIT_INVALID)
    if "UNKNOWN" in verdicts:
        raise click.exceptions.Exit(EXIT_UNCHECKED)


__all__ = ["exists_cmd", "prove_cmd", "EXIT_BAD_INPUT"]
