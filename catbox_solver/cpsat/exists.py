"""Existence questions decided by CP-SAT: "is there any continuation where ...?".

The question is cooperative: every play is a free choice within the rules. A condition is
put behind its own assumption literal, so that when no continuation meets them all the
solver names a set of conditions that clash. Every witness line is replayed through
:meth:`Position.play` and checked against the conditions before it is returned; one that
does not replay is a bug of the encoding and raises :class:`WitnessBug`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from catbox_solver.cpsat.bonus import bonus_active_lit, group_bound_var, group_size_var
from catbox_solver.cpsat.model import (
    Lit,
    RoundModel,
    add_clause,
    add_owner_at_end,
    build_round,
    empty_at_end_lit,
    neg,
    no_paradox_lit,
    paradox_lit,
    value_of,
)
from catbox_solver.errors import CatboxError, SearchError
from catbox_solver.formats.notation import board_tokens
from catbox_solver.interrupt import Interrupted, solve_cp
from catbox_solver.model.numbers import check_int, check_seconds, shown
from catbox_solver.model.position import PLAYS, Play, Position, need_position
from catbox_solver.model.rules import COLOR_CHARS, Ruleset

DEFAULT_WORKERS = 2
DEFAULT_TIMEOUT = 60.0


class WitnessBug(AssertionError):
    """A solver witness that the rules engine rejects: a bug in the encoding, not bad input."""


# ---- conditions --------------------------------------------------------------------------


def value_range(values: int | None = None) -> str:
    """The values a board has, in words: for the round of ``values`` values ("with 4
    players the values are 1-8"), or for every player count (None)."""
    counts = {Ruleset(players=n).values: n for n in range(2, 6)}
    if values is None:
        top = sorted(counts)
        return "the values are " + ", ".join(
            f"1-{v} with {counts[v]}" + (" players" if i == 0 else "") for i, v in enumerate(top)
        )
    if values in counts:
        return f"with {counts[values]} players the values are 1-{values}"
    return f"the values are 1-{values}"


def parse_cell(text: str, values: int | None = None) -> tuple[int, int]:
    """Read a cell like ``g4`` or ``G4`` (color letter, value) into (value, color); a
    value beyond ``values`` (None: beyond every board, 1-9) is an error naming the range,
    as the condition says it once the round is known."""
    if not isinstance(text, str) or len(text.strip()) != 2:
        raise SearchError(f"a cell is a color and a value like 'g4', not {shown(text)}")
    s = text.strip()
    if s[0].upper() not in COLOR_CHARS or s[1] not in "0123456789":
        raise SearchError(f"a cell is a color and a value like 'g4', not {shown(text)}")
    v = int(s[1])
    if not 1 <= v <= (9 if values is None else values):
        raise SearchError(f"cell {shown(text)}: no cell of value {v}; {value_range(values)}")
    return v, COLOR_CHARS.index(s[0].upper())


def cell_text(value: int, color: int) -> str:
    return f"{COLOR_CHARS[color]}{value}"


# counts of tricks, bonus or score are clamped to this size (see _clamped)
_FAR = 1_000_000


def _clamped(count: int) -> int:
    """``count`` within +-_FAR: no round comes near that many tricks or points, so a count
    beyond decides its condition as one at _FAR does; CP-SAT's integers are 64-bit, and a
    larger one was a TypeError from deep inside OR-Tools."""
    return max(-_FAR, min(_FAR, count))


@dataclass(frozen=True, repr=False)
class Condition:
    """One condition of an existence question, built by :func:`no_paradox`,
    :func:`tricks` and the other functions below; ``name`` (and ``repr``) is that call."""

    kind: str
    seat: int | None = None
    count: int | None = None
    trick: int | None = None
    cell: tuple[int, int] | None = None
    board: tuple[tuple[str, str], ...] | None = None

    def __post_init__(self) -> None:
        """Check the kind, the fields it takes, their types and the cell: a float, None or a
        negative index was read as another condition (``empty((3, -1))`` as G3) or failed
        deep in the solver, and a field the kind does not take changed the condition
        silently (``Condition("paradox", seat=1)``, named ``paradox()``, asked for a paradox
        of seat 1)."""
        takes = _TAKES.get(self.kind)
        if takes is None:
            raise SearchError(f"no condition {self.kind!r}; one of {', '.join(_TAKES)}")
        for what in ("seat", "count", "trick", "cell", "board"):
            if what not in takes and getattr(self, what) is not None:
                raise SearchError(f"{self.kind}: takes no {what}")
        for what in ("seat", "count", "trick"):
            value = getattr(self, what)
            if value is not None:
                check_int(value, f"{self.kind}: {what}", error=SearchError)
        for what in ("seat", "count"):  # (a kind's trick is optional: "at any trick")
            if what in takes and getattr(self, what) is None:
                raise SearchError(f"{self.kind}: a {what} is needed")
        if self.kind == "empty":
            cell = self.cell
            if not isinstance(cell, tuple) or len(cell) != 2:
                raise SearchError(f"empty: a cell is (value, color), not {cell!r}")
            check_int(cell[0], "empty: the cell's value", 1, error=SearchError)
            check_int(cell[1], "empty: the cell's color (0-3: R, B, Y, G)", 0, 3, error=SearchError)

    @property
    def name(self) -> str:
        """The condition as the library writes it, the call that builds it:
        ``no_paradox()``, ``tricks_at_least(0, 3)``, ``paradox_by(1, trick=6)``,
        ``empty('G4')`` (the CLI names it by its options instead)."""
        call = self.kind.replace("-", "_")
        if self.kind == "empty":
            assert self.cell is not None
            return f"empty({cell_text(*self.cell)!r})"
        if self.kind == "final-board":
            assert self.board is not None
            rows = repr(dict(self.board))
            # (a whole board is under 60 characters; a longer text is shortened, as in
            # every error that quotes an argument)
            return f"final_board({rows if len(rows) <= 80 else rows[:60] + '...'})"
        args = [str(x) for x in (self.seat, self.count) if x is not None]
        if self.trick is not None:
            args.append(f"trick={self.trick}")
        return f"{call}({', '.join(args)})"

    def __repr__(self) -> str:
        return self.name

    def add(self, rm: RoundModel, enforce: Lit) -> None:
        """Add the condition to the model, enforced by the literal ``enforce``."""
        model = rm.model
        n = rm.players
        if self.seat is not None and not 0 <= self.seat < n:
            raise SearchError(f"{self.name}: seat {self.seat} outside 0-{n - 1}")
        if self.trick is not None and not 1 <= self.trick <= rm.rules.tricks:
            raise SearchError(f"{self.name}: trick {self.trick} outside 1-{rm.rules.tricks}")
        if self.kind == "no-paradox":
            add_clause(model, [no_paradox_lit(rm)], enforce)
        elif self.kind in ("paradox-by", "paradox"):
            add_clause(model, [paradox_lit(rm, self.seat, self.trick)], enforce)
        elif self.kind in ("tricks", "tricks-at-least", "tricks-at-most"):
            assert self.seat is not None and self.count is not None
            t, k = rm.tricks_won[self.seat], _clamped(self.count)
            if self.kind == "tricks":
                ct = model.add(t == k)
            elif self.kind == "tricks-at-least":
                ct = model.add(t >= k)
            else:
                ct = model.add(t <= k)
            if not isinstance(ct, bool):
                ct.only_enforce_if(enforce)
        elif self.kind in SCORED:
            assert self.seat is not None and self.count is not None
            add_scored(rm, self.kind, self.seat, _clamped(self.count), enforce)
        elif self.kind == "empty":
            assert self.cell is not None
            v, c = self.cell
            if v > rm.rules.values:
                raise SearchError(
                    f"{self.name}: no cell of value {v}; {value_range(rm.rules.values)}"
                )
            add_clause(model, [empty_at_end_lit(rm, (v - 1) * 4 + c)], enforce)
        elif self.kind == "final-board":
            owners, neutral = self._board_tokens(rm.rules)
            for cell in range(rm.rules.values * 4):
                bit = 1 << cell
                owner = -1 if neutral & bit else next(
                    (p for p, mask in enumerate(owners) if mask & bit), None
                )
                add_owner_at_end(rm, cell, owner, enforce)
        else:  # pragma: no cover - conditions are built by the functions below
            raise SearchError(f"unknown condition {self.kind!r}")

    def _board_tokens(self, rules: Ruleset) -> tuple[list[int], int]:
        """The final board's tokens (owner masks per seat, neutral mask), read by the
        notation's own row reader, so that a row means here what it means in a position
        (this had a reader of its own, which refused 'n' and spaces around ':'); neutral
        tokens only with 2 players."""
        assert self.board is not None
        try:
            owners, neutral = board_tokens(dict(self.board), rules)
        except CatboxError as exc:
            raise SearchError(f"{self.name}: {exc}") from None
        if neutral and rules.players != 2:
            cell = (neutral & -neutral).bit_length() - 1
            raise SearchError(
                f"{self.name}: row {COLOR_CHARS[cell % 4]} value {cell // 4 + 1}: neutral "
                "tokens exist only with 2 players"
            )
        return owners, neutral

    def holds(self, final: Position) -> bool:
        """Check the condition on the position where a replayed line ends."""
        if self.kind == "no-paradox":
            return not final.is_paradox
        if self.kind in ("paradox-by", "paradox"):
            if not final.is_paradox:
                return False
            if self.seat is not None and final.paradox_by != self.seat:
                return False
            return self.trick is None or final.tricks_played + 1 == self.trick
        if self.kind in ("tricks", "tricks-at-least", "tricks-at-most"):
            assert self.seat is not None and self.count is not None
            t = final.tricks_won[self.seat]
            if self.kind == "tricks":
                return t == self.count
            return t >= self.count if self.kind == "tricks-at-least" else t <= self.count
        if self.kind in SCORED:
            assert self.seat is not None and self.count is not None
            got = final.bonus(self.seat)
            if self.kind.startswith("score"):  # this seat's score (others may lack predictions)
                got += final.trick_points(self.seat)
            if self.kind.endswith("at-least"):
                return got >= self.count
            return got <= self.count if self.kind.endswith("at-most") else got == self.count
        owners = final.final_owners()
        used = final.neutral
        for m in owners:
            used |= m
        if self.kind == "empty":
            assert self.cell is not None
            v, c = self.cell
            return not used >> ((v - 1) * 4 + c) & 1
        want, neutral = self._board_tokens(final.rules)
        return final.neutral == neutral and list(owners) == want


SCORED = (
    "bonus",
    "bonus-at-least",
    "bonus-at-most",
    "score",
    "score-at-least",
    "score-at-most",
)

_TAKES: dict[str, tuple[str, ...]] = {  # the fields each kind of condition takes
    "no-paradox": (),
    "paradox": ("trick",),
    "paradox-by": ("seat", "trick"),
    **{k: ("seat", "count") for k in ("tricks", "tricks-at-least", "tricks-at-most", *SCORED)},
    "empty": ("cell",),
    "final-board": ("board",),
}
"""The condition kinds about the prediction bonus and the round score."""


def _enforced(model: cp_model.CpModel, relation: Callable[[], Any], lits: Sequence[Lit]) -> None:
    """Add the linear ``relation()`` enforced only if every literal holds (constants
    folded). Nothing is added when a literal is the constant False: the relation is built
    only after that test, since a relation added to the model holds whatever is enforced
    later (a finished round's unscored bonus made every upper bound on it unconditional,
    and the model infeasible)."""
    if any(lit is False for lit in lits):
        return
    live = [lit for lit in lits if lit is not True]
    rel = relation()
    if isinstance(rel, bool):  # (a relation between constants)
        if not rel:
            add_clause(model, [neg(lit) for lit in live])
        return
    model.add(rel).only_enforce_if(live)


def add_scored(rm: RoundModel, kind: str, seat: int, k: int, enforce: Lit) -> None:
    """A bonus or score condition on ``seat``, enforced by ``enforce``. With ``on`` = the
    bonus is scored (prediction met, no paradox caused), bonus = on ? largest group : 0 and
    score = trick points + bonus. A lower bound on the largest group uses the connected
    chosen set (:func:`group_size_var`), an upper bound the labelling
    (:func:`group_bound_var`); both are existential, so every condition is exact."""
    model = rm.model
    on = bonus_active_lit(rm, seat)
    tp = rm.trick_points[seat]
    lower = kind in ("bonus", "bonus-at-least", "score", "score-at-least")
    upper = kind in ("bonus", "bonus-at-most", "score", "score-at-most")
    if kind.startswith("bonus"):
        if lower and k > 0:  # on and a connected set of >= k own cells
            add_clause(model, [on], enforce)
            _enforced(model, lambda: group_size_var(rm, seat) >= k, [enforce])
        if upper:
            if k < 0:
                add_clause(model, [], enforce)
            else:  # off, or every group <= k
                _enforced(model, lambda: group_bound_var(rm, seat) <= k, [enforce, on])
        return
    if lower:
        # score >= k: tp >= k (the bonus only adds), or on with tp + g >= k
        plain = model.new_bool_var(f"scoreplain{seat}_{k}_{kind}")
        grouped = model.new_bool_var(f"scoregroup{seat}_{k}_{kind}")
        add_clause(model, [plain, grouped], enforce)
        _enforced(model, lambda: tp >= k, [plain])
        add_clause(model, [on], grouped)
        _enforced(model, lambda: tp + group_size_var(rm, seat) >= k, [grouped])
    if upper:
        # score <= k: off and tp <= k, or on and tp + m <= k (m >= largest group)
        _enforced(model, lambda: tp <= k, [enforce, neg(on)])
        _enforced(model, lambda: tp + group_bound_var(rm, seat) <= k, [enforce, on])


def no_paradox() -> Condition:
    """The round ends with no paradox."""
    return Condition("no-paradox")


def paradox(trick: int | None = None) -> Condition:
    """Some player causes a paradox (in round trick number ``trick``, 1-based)."""
    return Condition("paradox", trick=trick)


def paradox_by(seat: int, trick: int | None = None) -> Condition:
    """Seat ``seat`` causes a paradox (in round trick number ``trick``, 1-based)."""
    return Condition("paradox-by", seat=seat, trick=trick)


def tricks(seat: int, count: int) -> Condition:
    """Seat ``seat`` ends the round with exactly ``count`` tricks."""
    return Condition("tricks", seat=seat, count=count)


def tricks_at_least(seat: int, count: int) -> Condition:
    return Condition("tricks-at-least", seat=seat, count=count)


def tricks_at_most(seat: int, count: int) -> Condition:
    return Condition("tricks-at-most", seat=seat, count=count)


def bonus(seat: int, count: int) -> Condition:
    """Seat ``seat`` scores a bonus of exactly ``count`` (0 when it caused the paradox or
    missed its prediction, else its largest connected group of tokens)."""
    return Condition("bonus", seat=seat, count=count)


def bonus_at_least(seat: int, count: int) -> Condition:
    return Condition("bonus-at-least", seat=seat, count=count)


def bonus_at_most(seat: int, count: int) -> Condition:
    return Condition("bonus-at-most", seat=seat, count=count)


def score(seat: int, count: int) -> Condition:
    """Seat ``seat`` ends the round with a score (trick points plus bonus) of exactly
    ``count``."""
    return Condition("score", seat=seat, count=count)


def score_at_least(seat: int, count: int) -> Condition:
    return Condition("score-at-least", seat=seat, count=count)


def score_at_most(seat: int, count: int) -> Condition:
    return Condition("score-at-most", seat=seat, count=count)


def empty(cell: str | tuple[int, int]) -> Condition:
    """The cell (``g4`` or (value, color)) holds no token when the round ends."""
    if isinstance(cell, str):
        cell = parse_cell(cell)
    return Condition("empty", cell=cell)


def final_board(board: dict[str, str]) -> Condition:
    """The board when the round ends, as catbox-position board rows per color (``.``
    empty, a seat digit, ``N`` neutral, a last ``#`` for the covered column), read as the
    notation reads them when the round is known."""
    if not isinstance(board, dict) or set(board) != set(COLOR_CHARS):
        raise SearchError("a final board names the four rows R, B, Y, G")
    if not all(isinstance(row, str) for row in board.values()):
        raise SearchError("a final board's rows are strings like '0.1..'")
    return Condition("final-board", board=tuple((ch, board[ch]) for ch in COLOR_CHARS))


# ---- answers -----------------------------------------------------------------------------


@dataclass
class ExistsAnswer:
    """``exists`` True (with ``lines``), False (with ``clash``, the names of the clashing
    conditions as :attr:`Condition.name` writes them: ``tricks_at_least(0, 3)``) or None
    (the solver stopped: ``reason``). ``minimal`` is False when the time limit stopped the
    narrowing of ``clash`` down (every named condition may then not take part in it), and
    ``complete`` is False when it stopped the search for more witness lines (``count`` >
    1) before as many as asked were found or none was left; ``reason`` then says so."""

    exists: bool | None
    lines: list[tuple[Play, ...]] = field(default_factory=list)
    clash: list[str] = field(default_factory=list)
    reason: str = ""
    seconds: float = 0.0
    minimal: bool = True
    complete: bool = True

    @property
    def line(self) -> tuple[Play, ...] | None:
        return self.lines[0] if self.lines else None

    def to_json(self) -> dict[str, Any]:
        from catbox_solver.formats.jsonform import play_json

        if self.exists is None:
            return {"exists": None, "reason": self.reason}
        if not self.exists:
            out: dict[str, Any] = {
                "exists": False, "clash": list(self.clash), "minimal": self.minimal
            }
            if not self.minimal:
                out["reason"] = self.reason
            return out
        out = {"exists": True, "line": [play_json(p) for p in self.lines[0]]}
        if len(self.lines) > 1:
            out["lines"] = [[play_json(p) for p in line] for line in self.lines]
        out["complete"] = self.complete
        if not self.complete:
            out["reason"] = self.reason
        return out


def extract_line(rm: RoundModel, solver: cp_model.CpSolver) -> tuple[Play, ...]:
    """The plays of the solution, step by step until the round ends."""
    line: list[Play] = []
    for s in range(rm.steps):
        chosen = [cell for cell, lit in rm.x[s].items() if value_of(solver, lit)]
        if not chosen:
            break
        cell = chosen[0]
        line.append(PLAYS[cell // 4 + 1][cell % 4])
    return tuple(line)


def replay(pos: Position, line: Sequence[Play], conditions: Sequence[Condition]) -> Position:
    """Play ``line`` from ``pos`` through the rules engine; the round must be over at its
    end and every condition must hold, else :class:`WitnessBug`. (A position that is
    not one, or a line that is not a sequence of plays, is the caller's error.)"""
    need_position(pos, SearchError)
    if not isinstance(line, (list, tuple)) or not all(isinstance(pl, Play) for pl in line):
        raise SearchError(f"a line is a sequence of plays, not {line!r}")
    cur = pos
    for i, pl in enumerate(line):
        try:
            cur = cur.play(pl)
        except Exception as exc:  # an illegal witness play is a bug of the encoding
            raise WitnessBug(
                f"bug: solver witness play {i + 1} ({pl.text}) does not replay: {exc}"
            ) from exc
    if not cur.is_over:
        raise WitnessBug(f"bug: solver witness stops after {len(line)} plays but the round goes on")
    for cond in conditions:
        if not cond.holds(cur):
            raise WitnessBug(f"bug: solver witness does not meet {cond.name}")
    return cur


def make_solver(workers: int, timeout: float) -> cp_model.CpSolver:
    """A CP-SAT solver with ``workers`` threads and a time limit in seconds (checked: a
    NaN or negative one, or -1 workers, made CP-SAT answer MODEL_INVALID, read as
    "unknown")."""
    check_int(workers, "workers", 1, 64, error=SearchError)
    timeout = check_seconds(timeout, error=SearchError)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.max_time_in_seconds = timeout
    return solver


class Questions:
    """One model of a position, asked any number of questions: each condition is added
    once, behind its own assumption literal, and a question assumes only its own."""

    def __init__(self, pos: Position) -> None:
        need_position(pos, SearchError)
        self.pos = pos
        self.rm = build_round(pos)
        self.lits: dict[Condition, Lit] = {}
        self.sessions = 0

    def literal(self, cond: Condition) -> Lit:
        """The assumption literal that switches ``cond`` on (added on first use)."""
        if not isinstance(cond, Condition):
            raise SearchError(f"a condition is needed, not {cond!r}")
        lit = self.lits.get(cond)
        if lit is None:
            lit = self.rm.model.new_bool_var(f"cond{len(self.lits)}")
            cond.add(self.rm, lit)
            self.lits[cond] = lit
        return lit

    def ask(
        self,
        conditions: Sequence[Condition] = (),
        count: int = 1,
        timeout: float = DEFAULT_TIMEOUT,
        workers: int = DEFAULT_WORKERS,
    ) -> ExistsAnswer:
        """Is there a continuation meeting every condition? With ``count`` > 1, up to that
        many distinct witness lines (each found line is blocked for this question only)."""
        # (a NaN count skipped the search: "exists", no line; workers: make_solver)
        check_int(count, "count", 1, error=SearchError)
        timeout = check_seconds(timeout, error=SearchError)
        if isinstance(conditions, Condition) or not isinstance(conditions, (list, tuple)):
            # (one condition, or None, failed inside with a TypeError)
            raise SearchError(f"conditions are a list of conditions, not {conditions!r}")
        for cond in conditions:
            if not isinstance(cond, Condition):
                raise SearchError(f"a condition is needed (exists.no_paradox() ...), not {cond!r}")
        t0 = time.perf_counter()
        rm, model, pos = self.rm, self.rm.model, self.pos
        assumptions = [self.literal(c) for c in conditions]
        session: Lit | None = None
        if count > 1:
            self.sessions += 1
            session = model.new_bool_var(f"session{self.sessions}")
        model.clear_assumptions()
        model.add_assumptions(assumptions + ([session] if session is not None else []))
        lines: list[tuple[Play, ...]] = []
        while len(lines) < count:
            remaining = timeout - (time.perf_counter() - t0)
            solver = make_solver(workers, max(remaining, 0.01))
            try:
                status = solve_cp(solver, model)
            except KeyboardInterrupt:
                # Ctrl-C: the lines found so far are kept (a KeyboardInterrupt all the same),
                # and not called complete (a count cut short at 2 of 5 lines is partial)
                partial = _incomplete_answer(lines, count, "Ctrl-C", t0) if lines else None
                raise Interrupted(partial) from None
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                line = extract_line(rm, solver)
                replay(pos, line, conditions)
                if line in lines:
                    raise WitnessBug(
                        f"bug: the solver repeated witness {' '.join(p.text for p in line)}"
                    )
                lines.append(line)
                if session is not None:
                    block_line(rm, line, session)
                continue
            if status == cp_model.INFEASIBLE:
                if lines:
                    break
                clash, minimal, stopped = _clash(rm, conditions, assumptions, solver,
                                                 workers, t0 + timeout)
                by = "Ctrl-C" if stopped else f"the time limit ({timeout:g} s)"
                answer = ExistsAnswer(
                    False,
                    clash=clash,
                    minimal=minimal,
                    reason="" if minimal else (
                        f"{by} stopped the narrowing down of the clash: fewer of these "
                        "conditions may clash"
                    ),
                    seconds=time.perf_counter() - t0,
                )
                if stopped:  # (the clash is proven: kept, a KeyboardInterrupt all the same)
                    raise Interrupted(answer)
                return answer
            if lines:  # the time limit cut the enumeration short: more lines may exist
                return _incomplete_answer(lines, count, f"the time limit ({timeout:g} s)", t0)
            return ExistsAnswer(
                None,
                reason=f"solver stopped ({solver.status_name(status)}) after {timeout:g} s",
                seconds=time.perf_counter() - t0,
            )
        return ExistsAnswer(True, lines=lines, seconds=time.perf_counter() - t0)


def _incomplete_answer(
    lines: list[tuple[Play, ...]], count: int, by: str, t0: float
) -> ExistsAnswer:
    """The witness lines found before ``by`` (the time limit, or Ctrl-C) stopped the search
    for the ``count`` asked for: an answer that is not complete."""
    return ExistsAnswer(
        True,
        lines=lines,
        complete=False,
        reason=(f"{by} stopped the search for more lines after {len(lines)} of the "
                f"{count} asked for: more may exist"),
        seconds=time.perf_counter() - t0,
    )


def exists(
    pos: Position,
    conditions: Sequence[Condition] = (),
    count: int = 1,
    timeout: float = DEFAULT_TIMEOUT,
    workers: int = DEFAULT_WORKERS,
) -> ExistsAnswer:
    """Is there a continuation of ``pos`` meeting every condition? With ``count`` > 1,
    up to that many distinct witness lines. (To ask one position several questions, build
    :class:`Questions` once.)"""
    return Questions(pos).ask(conditions, count, timeout, workers)


def block_line(rm: RoundModel, line: Sequence[Play], enforce: Lit | None = None) -> None:
    """Forbid this exact line in later solutions (for counting distinct witnesses)."""
    lits = [neg(rm.x[s][pl.cell]) for s, pl in enumerate(line)]
    if len(line) < rm.steps:
        lits.append(rm.played[len(line)])
    add_clause(rm.model, lits, enforce)


def _clash(
    rm: RoundModel,
    conditions: Sequence[Condition],
    assumptions: list[Lit],
    solver: cp_model.CpSolver,
    workers: int,
    deadline: float,
) -> tuple[list[str], bool, bool]:
    """Names of conditions that together have no continuation, whether the set is
    minimal, and whether Ctrl-C stopped the narrowing: the solver's sufficient
    assumptions, then shrunk one condition at a time (a condition stays in the set only
    if the others alone have a continuation), so that every named condition takes part.
    Each trial solve has the caller's ``workers`` and only the time left before
    ``deadline`` (``time.perf_counter()``): they had the default threads and the whole
    limit each, so a question could run (conditions + 1) times its limit. A trial cut
    short, or not run for lack of time, keeps its condition (the set still clashes) and
    the set is not claimed minimal; after Ctrl-C the set so far is kept (it was lost)."""
    if not conditions:
        return [], True, False
    index = {a.index: i for i, a in enumerate(assumptions)}  # duplicates: the last one
    core = [index[c] for c in solver.sufficient_assumptions_for_infeasibility() if c in index]
    if not core:
        core = list(range(len(conditions)))
    model = rm.model
    minimal = True
    stopped = False
    try:
        for i in list(core):
            if len(core) == 1:  # (no conditions at all always have a continuation)
                break
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                minimal = False
                break
            trial = [k for k in core if k != i]
            model.clear_assumptions()
            model.add_assumptions([assumptions[k] for k in trial])
            status = solve_cp(make_solver(workers, remaining), model)
            if status == cp_model.INFEASIBLE:
                core = trial
            elif status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                minimal = False  # (undecided: the condition stays, maybe not needed)
    except KeyboardInterrupt:  # Ctrl-C in a trial solve (Interrupted), or between two
        minimal, stopped = False, True
    finally:
        model.clear_assumptions()
    return [conditions[k].name for k in sorted(core)], minimal, stopped
