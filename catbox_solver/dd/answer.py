"""What the double-dummy search answers: the questions, a play's result, an answer with
its line, and a table of every seat (small frozen values with ``to_json``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from catbox_solver.model.position import Play
from catbox_solver.model.rules import COLOR_CHARS
from catbox_solver.questions import QUESTIONS as QUESTIONS  # (re-exported)
from catbox_solver.questions import Question

Value = bool | int | None
# progress(done, total, what): ``done`` of ``total`` steps are finished, ``what`` says what
# is being searched now (a play or a seat, the question, the range proven so far; "" at
# the end)
Progress = Callable[[int, int, str], None]


class OutOfTime(Exception):
    """The deadline passed: the answer is unknown. Raised by a :class:`Search` used on its
    own; solve, value_only and dd_table catch it and answer "unknown" with the range
    proven. (Not a CatboxError: the input was fine.)"""


@dataclass(frozen=True, slots=True)
class PlayResult:
    """The value of the question after one legal play of the player to move. ``bounds``:
    when the result is unknown (out of time) for ``tricks`` or ``score``, the range
    ``(lo, hi)`` the search had proven it to lie in; otherwise None."""

    play: Play
    result: Value
    bounds: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """The answer to a question about a position: ``value`` (None if the search ran out of
    time), the value after every legal play of the player to move, a principal variation
    (best play by everyone, from the position to the end of the round), the number of
    nodes searched and the time taken. Out of time, the value can still be known while
    some plays are open (their result None): when the plays found decide it (a ``tricks``
    or ``score`` range closed to one number, a play that settles ``paradox`` or
    ``table``); ``pv`` is then empty and ``pv_complete`` False."""

    question: Question
    hero: int
    value: Value
    plays: tuple[PlayResult, ...]
    pv: tuple[Play, ...]
    nodes: int
    seconds: float
    to_move: int
    bounds: tuple[int, int] | None = None
    """When the value is unknown (out of time) for ``tricks`` or ``score``: the range
    ``(lo, hi)`` it is proven to lie in, from the plays' results and ranges."""
    pv_complete: bool = True
    """False when the value is known but the time ran out before the line was found:
    either while the line was searched, after every play's result was known (``pv`` is
    then the start of a best line, each of its plays keeping the value), or before some
    plays were known (``pv`` empty)."""

    def to_json(self) -> dict[str, Any]:
        """The fixed JSON shape of POSITION-JSON.md, plus ``bounds`` ([lo, hi]) beside a
        value or a play's result that is null for ``tricks`` or ``score``, and
        ``"pv_complete": false`` when the time ran out before the line was complete."""
        plays: list[dict[str, Any]] = []
        for r in self.plays:
            row: dict[str, Any] = {
                "value": r.play.value,
                "color": COLOR_CHARS[r.play.color],
                "text": r.play.text,
                "result": r.result,
            }
            if r.bounds is not None:
                row["bounds"] = list(r.bounds)
            plays.append(row)
        out: dict[str, Any] = {
            "question": self.question,
            "hero": self.hero,
            "value": self.value,
        }
        if self.bounds is not None:
            out["bounds"] = list(self.bounds)
        out["plays"] = plays
        out["pv"] = [
            {"value": p.value, "color": COLOR_CHARS[p.color], "text": p.text} for p in self.pv
        ]
        if not self.pv_complete:
            out["pv_complete"] = False
        out["nodes"] = self.nodes
        out["seconds"] = round(self.seconds, 6)
        return out

    def best_first(self) -> tuple[PlayResult, ...]:
        """The plays, best for the player to move first (hero: highest value first; any
        other player: lowest value for the hero first). A play out of time counts by its
        proven range (hero: by its low, then its high; any other player: by its high,
        then its low), so one proven to beat a known value comes before it; without a
        range it comes last."""
        mover_is_hero = self.to_move == self.hero or self.question == "table"

        def rank(r: PlayResult) -> tuple[int, int, int]:
            if r.result is not None:
                lo = hi = int(r.result)
            elif r.bounds is not None:
                lo, hi = r.bounds
            else:
                return (1, 0, 0)
            return (0, -lo, -hi) if mover_is_hero else (0, hi, lo)

        return tuple(sorted(self.plays, key=rank))


@dataclass(frozen=True, slots=True)
class TableRow:
    """One line of a double-dummy table: the seat as hero, whether it can avoid causing a
    paradox, its guaranteed trick points and its guaranteed score (None if its prediction
    is unknown or the time ran out). When the time ran out on the trick points or the
    score, ``tricks_bounds`` / ``score_bounds`` give the range ``(lo, hi)`` proven."""

    seat: int
    paradox: bool | None
    tricks: int | None
    score: int | None
    tricks_bounds: tuple[int, int] | None = None
    score_bounds: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class DDTable:
    rows: tuple[TableRow, ...]
    nodes: int
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """Every seat's row; ``tricks_bounds`` / ``score_bounds`` ([lo, hi]) only beside
        a value left unknown."""
        table: list[dict[str, Any]] = []
        for r in self.rows:
            row: dict[str, Any] = {
                "seat": r.seat, "paradox": r.paradox, "tricks": r.tricks, "score": r.score
            }
            if r.tricks_bounds is not None:
                row["tricks_bounds"] = list(r.tricks_bounds)
            if r.score_bounds is not None:
                row["score_bounds"] = list(r.score_bounds)
            table.append(row)
        return {"table": table, "nodes": self.nodes, "seconds": round(self.seconds, 6)}
