"""Named statements over all deals, proved with CP-SAT.

A statement "every round ... has property P" is proved by asking the solver for a
counterexample: a free deal (hands, discards, leftovers are variables, see
:func:`catbox_solver.cpsat.model.build_free_round`) and a line of play without P. INFEASIBLE
means there is none: PROVED. A found counterexample is replayed through the rules engine
and printed. Statements of the form "which cells can ..." also give, for each cell that
can, a witness deal and line, replayed too.

Symmetry used: seat 0 starts (seats are only names); for 3-5 players blue, yellow and green
are interchangeable in every rule, so a witness for a blue cell gives one for the yellow and
green cells of the same value by relabelling colors (the relabelled line is replayed too).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from catbox_solver.cpsat.exists import WitnessBug, extract_line, make_solver
from catbox_solver.cpsat.model import (
    Lit,
    RoundModel,
    add_clause,
    and_lit,
    build_free_round,
    empty_at_end_lit,
    neg,
    no_paradox_lit,
    or_lit,
    red_broken_lit,
    value_of,
)
from catbox_solver.errors import SearchError
from catbox_solver.interrupt import Interrupted, solve_cp
from catbox_solver.model.numbers import check_int, check_seconds, shown
from catbox_solver.model.position import PLAYS, Play, Position
from catbox_solver.model.rules import COLOR_CHARS, RED, Ruleset

DEFAULT_WORKERS = 2
DEFAULT_TIMEOUT = 120.0


@dataclass
class DealLine:
    """A whole round: hands after the discard, discards, 2-player leftovers (the revealed
    ones first) and the line of play, with the position where it ends."""

    rules: Ruleset
    hands: tuple[tuple[int, ...], ...]
    discards: tuple[tuple[int, ...], ...]
    revealed: tuple[int, ...]
    hidden: tuple[int, ...]
    line: tuple[Play, ...]
    final: Position

    def text(self) -> str:
        parts = [
            "hands " + " / ".join("".join(map(str, h)) for h in self.hands),
            "discards " + " ".join("".join(map(str, d)) for d in self.discards),
        ]
        if self.rules.players == 2:
            parts.append(
                "leftovers revealed "
                + "".join(map(str, self.revealed))
                + " hidden "
                + "".join(map(str, self.hidden))
            )
        parts.append("line " + " ".join(p.text for p in self.line))
        if self.final.is_paradox:
            parts.append(
                f"(paradox by seat {self.final.paradox_by} in trick {self.final.tricks_played + 1})"
            )
        return "; ".join(parts)

    def to_json(self) -> dict[str, object]:
        return {
            "hands": [list(h) for h in self.hands],
            "discards": [list(d) for d in self.discards],
            "revealed": list(self.revealed),
            "hidden": list(self.hidden),
            "line": [p.text for p in self.line],
            "paradox_by": self.final.paradox_by,
        }


def _multiset(counts: dict[int, int]) -> tuple[int, ...]:
    return tuple(v for v in sorted(counts) for _ in range(counts[v]))


def replay_deal(
    rules: Ruleset,
    hands: Sequence[Sequence[int]],
    discards: Sequence[Sequence[int]],
    revealed: Sequence[int],
    hidden: Sequence[int],
    line: Sequence[Play],
) -> DealLine:
    """Check the deal (5 copies of each value) and replay the line from the first lead;
    anything wrong is a bug of the encoding (:class:`WitnessBug`)."""
    totals = {
        v: sum(h.count(v) for h in hands) + sum(d.count(v) for d in discards)
        + list(revealed).count(v) + list(hidden).count(v)
        for v in range(1, rules.values + 1)
    }
    # a value with too many copies first (a card swapped for another also leaves one short,
    # and which of the two was named depended on their order)
    wrong = [v for v, total in totals.items() if total > rules.copies]
    wrong += [v for v, total in totals.items() if rules.leftover == 0 and total < rules.copies]
    if wrong:
        raise WitnessBug(f"bug: witness deal has {totals[wrong[0]]} copies of value {wrong[0]}")
    pos = Position.new_round(rules, [list(h) for h in hands], 0, None, tuple(revealed))
    for i, pl in enumerate(line):
        try:
            pos = pos.play(pl)
        except Exception as exc:
            raise WitnessBug(
                f"bug: witness play {i + 1} ({pl.text}) does not replay: {exc}"
            ) from exc
    if not pos.is_over:
        raise WitnessBug("bug: witness line stops before the round is over")
    return DealLine(
        rules,
        tuple(tuple(h) for h in hands),
        tuple(tuple(d) for d in discards),
        tuple(revealed),
        tuple(hidden),
        tuple(line),
        pos,
    )


def extract_deal(rm: RoundModel, solver: cp_model.CpSolver) -> DealLine:
    """The deal and line of a solution of a free-deal model, replayed."""
    hands = [_multiset({v: int(solver.value(x)) for v, x in h.items()}) for h in rm.hand]
    discards = [_multiset({v: int(solver.value(x)) for v, x in d.items()}) for d in rm.discards]
    hidden = _multiset({v: int(solver.value(x)) for v, x in rm.hidden.items()})
    revealed: list[int] = []
    for v in sorted(rm.revealed):
        revealed += [v] * int(solver.value(rm.revealed[v]))
    line = extract_line(rm, solver)
    return replay_deal(rm.rules, hands, discards, revealed, hidden, line)


def relabel(dl: DealLine, perm: dict[int, int]) -> DealLine:
    """The same round with non-red colors renamed by ``perm`` (3-5 players), replayed."""
    line = tuple(PLAYS[p.value][perm.get(p.color, p.color)] for p in dl.line)
    return replay_deal(dl.rules, dl.hands, dl.discards, dl.revealed, dl.hidden, line)


@dataclass
class FreeDealSolve:
    """The outcome of one solver call on a free-deal model: the solver's status and, if
    it found one, the replayed round."""

    status: str
    seconds: float
    found: DealLine | None = None


def solve_free(
    rules: Ruleset,
    question: Callable[[RoundModel], None],
    workers: int,
    deadline: float,
) -> FreeDealSolve:
    """Build a free-deal model, add ``question``'s constraints, solve in the time left
    before ``deadline`` (a ``time.perf_counter()`` reading: a proof's solver calls share
    one time limit). No time left: status UNKNOWN, no model built."""
    t0 = time.perf_counter()
    if deadline - t0 <= 0:
        return FreeDealSolve("UNKNOWN", 0.0)
    rm = build_free_round(rules)
    question(rm)
    left = deadline - time.perf_counter()
    if left <= 0:  # (the model took the rest of the time)
        return FreeDealSolve("UNKNOWN", time.perf_counter() - t0)
    solver = make_solver(workers, left)
    status = solve_cp(solver, rm.model)
    name = solver.status_name(status)
    found = None
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        found = extract_deal(rm, solver)
    return FreeDealSolve(name, time.perf_counter() - t0, found)


# ---- statements --------------------------------------------------------------------------


@dataclass
class ProofResult:
    """The outcome of a named statement: PROVED, COUNTEREXAMPLE or UNKNOWN, with lines of
    findings (witnesses per cell and so on)."""

    name: str
    players: int
    verdict: str
    seconds: float
    status: str
    counterexample: DealLine | None = None
    findings: list[str] = field(default_factory=list)
    witnesses: dict[str, DealLine] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "players": self.players,
            "verdict": self.verdict,
            "status": self.status,
            "seconds": round(self.seconds, 3),
            "counterexample": None
            if self.counterexample is None
            else self.counterexample.to_json(),
            "findings": self.findings,
            "witnesses": {k: w.to_json() for k, w in self.witnesses.items()},
        }


def _verdict(search: FreeDealSolve) -> str:
    if search.status == "INFEASIBLE":
        return "PROVED"
    if search.found is not None:
        return "COUNTEREXAMPLE"
    return "UNKNOWN"


def _result(name: str, rules: Ruleset, search: FreeDealSolve) -> ProofResult:
    return ProofResult(
        name, rules.players, _verdict(search), search.seconds, search.status, search.found
    )


def _empty_cells(rm: RoundModel) -> list[Lit]:
    return [empty_at_end_lit(rm, cell) for cell in rm.cells]


def _paradox_free(rm: RoundModel) -> None:
    add_clause(rm.model, [no_paradox_lit(rm)])


def _cell_name(cell: int) -> str:
    return f"{COLOR_CHARS[cell % 4]}{cell // 4 + 1}"


def prove_one_empty_cell(rules: Ruleset, workers: int, deadline: float) -> ProofResult:
    """2 and 5 players: every paradox-free round leaves exactly one cell empty; for each
    cell, whether it can be the empty one (a witness for each that can)."""

    def counter(rm: RoundModel) -> None:
        _paradox_free(rm)
        rm.model.add(sum(_empty_cells(rm)) != 1)

    res = _result("one-empty-cell", rules, solve_free(rules, counter, workers, deadline))
    if res.verdict != "PROVED":
        return res
    _which_cells_empty(res, rules, workers, deadline)
    return res


def _which_cells_empty(res: ProofResult, rules: Ruleset, workers: int, deadline: float) -> None:
    symmetric = rules.players >= 3
    can: list[str] = []
    cannot: list[str] = []
    unknown: list[str] = []
    stopped: list[str] = []  # not asked: Ctrl-C came (the rest are skipped)
    for v in range(1, rules.values + 1):
        for c in range(4):
            name = f"{COLOR_CHARS[c]}{v}"
            if stopped:
                stopped.append(name)
                continue
            if symmetric and c >= 2:
                base = res.witnesses.get(f"{COLOR_CHARS[1]}{v}")
                if base is not None:
                    w = relabel(base, {1: c, c: 1})
                    if w.final.owner_of(v, c) is not None:
                        raise WitnessBug(f"bug: relabelled witness fills {name}")
                    res.witnesses[name] = w
                    can.append(name)
                    continue
                if f"{COLOR_CHARS[1]}{v}" in cannot:
                    cannot.append(name)
                    continue

            def question(rm: RoundModel, cell: int = (v - 1) * 4 + c) -> None:
                _paradox_free(rm)
                add_clause(rm.model, [empty_at_end_lit(rm, cell)])

            try:
                search = solve_free(rules, question, workers, deadline)
            except KeyboardInterrupt:  # Ctrl-C in the solve (Interrupted) or the model
                stopped.append(name)
                continue
            res.seconds += search.seconds
            if search.found is not None:
                if search.found.final.owner_of(v, c) is not None:
                    raise WitnessBug(f"bug: witness for empty {name} fills it")
                res.witnesses[name] = search.found
                can.append(name)
            elif search.status == "INFEASIBLE":
                cannot.append(name)
            else:
                unknown.append(name)
    res.findings.append(f"cells that can be the empty one ({len(can)}): {' '.join(can)}")
    res.findings.append(f"cells that are never empty ({len(cannot)}): {' '.join(cannot) or '-'}")
    if unknown or stopped:  # (the verdict line's solver status is the proved first part's)
        res.findings.insert(0, "proved: every paradox-free round leaves exactly one cell "
                            "empty; only which cells can be that one is left undecided")
    if unknown:
        res.findings.append(f"undecided (time limit): {' '.join(unknown)}")
        res.verdict = "UNKNOWN"
    if stopped:
        res.findings.append(f"undecided (stopped by Ctrl-C): {' '.join(stopped)}")
        res.verdict = "UNKNOWN"
        raise Interrupted(res)


def prove_full_board(rules: Ruleset, workers: int, deadline: float) -> ProofResult:
    """3 and 4 players: every paradox-free round fills every cell of the board."""

    def counter(rm: RoundModel) -> None:
        _paradox_free(rm)
        add_clause(rm.model, _empty_cells(rm))

    return _result("full-board", rules, solve_free(rules, counter, workers, deadline))


def prove_equal_discards(rules: Ruleset, workers: int, deadline: float) -> ProofResult:
    """3 and 4 players: if two players discard the same value, every line ends in a
    paradox."""

    def counter(rm: RoundModel) -> None:
        _paradox_free(rm)
        model, n = rm.model, rm.players
        pairs = []
        for v in range(1, rules.values + 1):
            both = model.new_bool_var(f"double{v}")
            model.add(sum(rm.discards[p][v] for p in range(n)) >= 2).only_enforce_if(both)
            pairs.append(both)
        add_clause(model, pairs)

    return _result("equal-discards", rules, solve_free(rules, counter, workers, deadline))


def prove_last_color_kept(rules: Ruleset, workers: int, deadline: float) -> ProofResult:
    """Official color loss: no player ever loses all four colors (a follower who declares
    another color keeps that one). Paradoxes included."""

    def counter(rm: RoundModel) -> None:
        lits = []
        for j in range(1, rm.tricks + 1):
            for p in range(rm.players):
                lits.append(or_lit(rm.model, [rm.keeps[j][p][c] for c in range(4)], f"any{j}_{p}"))
        add_clause(rm.model, [neg(lit) for lit in lits])

    rules = rules.with_switches(color_loss="led")
    res = _result("last-color-kept", rules, solve_free(rules, counter, workers, deadline))
    czech = rules.with_switches(color_loss="declared")
    try:
        other = solve_free(czech, counter, workers, deadline)
    except KeyboardInterrupt:  # Ctrl-C: the official reading is proven, the Czech one not
        res.findings.append("with the Czech reading: undecided (stopped by Ctrl-C)")
        raise Interrupted(res) from None
    res.seconds += other.seconds
    if other.found is not None:
        res.findings.append(
            "with the Czech reading (declared color lost) a player can lose all four "
            "(witness czech-color-loss)"
        )
        res.witnesses["czech-color-loss"] = other.found
    else:
        res.findings.append(f"with the Czech reading: {other.status}")
    return res


def _earliest(
    name: str,
    rules: Ruleset,
    event: Callable[[RoundModel, int], Lit],
    workers: int,
    deadline: float,
    what: str,
) -> ProofResult:
    """Smallest round trick number t at which ``event`` can happen: a witness at t, and a
    proof (one solver call) that it cannot happen before t. Stopped at trick t (the time
    limit, or Ctrl-C), the result is UNKNOWN and keeps what the tricks before proved."""
    t0 = time.perf_counter()
    found: FreeDealSolve | None = None
    t = 0

    def undecided(status: str, why: str) -> ProofResult:
        res = ProofResult(name, rules.players, "UNKNOWN", time.perf_counter() - t0, status)
        before = f"not before trick {t}" if t > 1 else "nothing proven"
        res.findings.append(f"{what}: {before}; undecided from trick {t} on ({why})")
        return res

    for t in range(1, rules.tricks + 1):

        def at(rm: RoundModel, t: int = t) -> None:
            add_clause(rm.model, [event(rm, t)])

        try:
            found = solve_free(rules, at, workers, deadline)
        except KeyboardInterrupt:  # Ctrl-C: what the tricks before this one proved
            raise Interrupted(undecided("STOPPED", "stopped by Ctrl-C")) from None
        if found.found is not None:
            break
        if found.status != "INFEASIBLE":  # (the time limit: the tricks before are kept,
            return undecided(found.status, "time limit")  # as on Ctrl-C; they were lost)
    assert found is not None
    if found.found is None:
        res = ProofResult(name, rules.players, "PROVED", time.perf_counter() - t0, "INFEASIBLE")
        res.findings.append(f"{what} can never happen")
        return res
    # the solver calls for tricks 1 .. t-1 were all INFEASIBLE: that is the proof
    res = ProofResult(name, rules.players, "PROVED", time.perf_counter() - t0, "INFEASIBLE")
    res.findings.append(f"{what}: earliest in trick {t}, never before")
    res.witnesses[f"trick {t}"] = found.found
    return res


def _paradox_in(rm: RoundModel, t: int) -> Lit:
    steps = [s for s in range(rm.steps) if rm.trick_of(s) + 1 == t]
    return or_lit(rm.model, [rm.paradox[s] for s in steps], f"paradoxin{t}")


def prove_earliest_paradox(rules: Ruleset, workers: int, deadline: float) -> ProofResult:
    """The earliest trick in which a paradox can happen (no paradox before it)."""
    return _earliest("earliest-paradox", rules, _paradox_in, workers, deadline, "a paradox")


def _red_exception_in(rm: RoundModel, t: int) -> Lit:
    """Trick t is led red while red is not broken."""
    s = rm.lead_step(t - 1)
    if s is None:
        return False
    reds = [lit for cell, lit in rm.x[s].items() if cell % 4 == RED]
    red_led = or_lit(rm.model, reds, f"redled{s}")
    return and_lit(rm.model, [red_led, neg(red_broken_lit(rm, s))], f"redexception{s}")


def prove_red_lead_exception(rules: Ruleset, workers: int, deadline: float) -> ProofResult:
    """The official red-lead exception (a leader with no legal non-red play leads red
    before red is broken): the earliest trick where it can be used."""
    rules = rules.with_switches(red_lead="exception")
    return _earliest(
        "red-lead-exception",
        rules,
        _red_exception_in,
        workers,
        deadline,
        "red led before red is broken (the exception)",
    )


@dataclass(frozen=True)
class Statement:
    name: str
    players: tuple[int, ...]
    text: str
    run: Callable[[Ruleset, int, float], ProofResult]


STATEMENTS: dict[str, Statement] = {
    s.name: s
    for s in (
        Statement(
            "one-empty-cell",
            (2, 5),
            "every paradox-free round leaves exactly one cell empty; which cells can be it",
            prove_one_empty_cell,
        ),
        Statement(
            "full-board",
            (3, 4),
            "every paradox-free round fills every cell of the board",
            prove_full_board,
        ),
        Statement(
            "equal-discards",
            (3, 4),
            "two equal discards make a paradox unavoidable",
            prove_equal_discards,
        ),
        Statement(
            "last-color-kept",
            (2, 3, 4, 5),
            "no player ever loses all four colors (official reading; not so in the Czech one)",
            prove_last_color_kept,
        ),
        Statement(
            "earliest-paradox",
            (2, 3, 4, 5),
            "the earliest trick in which a paradox can happen, and none before it",
            prove_earliest_paradox,
        ),
        Statement(
            "red-lead-exception",
            (2, 3, 4, 5),
            "the earliest trick in which the red-lead exception can be used, none before it",
            prove_red_lead_exception,
        ),
    )
}


def check_players(st: Statement, players: int) -> None:
    """A SearchError unless ``st`` is about ``players`` players (for running it, and for
    listing it with a player count: both say the same)."""
    if players not in st.players:
        raise SearchError(
            f"statement {st.name!r} is about {', '.join(map(str, st.players))} players, "
            f"not {players}"
        )


def prove(
    name: str,
    players: int | None = None,
    workers: int = DEFAULT_WORKERS,
    timeout: float = DEFAULT_TIMEOUT,
) -> list[ProofResult]:
    """Run a named statement for one player count, or for every count it is about.
    ``timeout`` is for the whole run, every solver call of every count together (the
    calls that no time is left for answer UNKNOWN at once). Ctrl-C raises Interrupted
    whose ``partial`` is the list of results so far (a result cut short says which cells
    were not asked, as "undecided (stopped by Ctrl-C)")."""
    st = STATEMENTS.get(name) if isinstance(name, str) else None  # (a list: TypeError)
    if st is None:
        raise SearchError(f"unknown statement {shown(name)} (known: {', '.join(STATEMENTS)})")
    if players is not None:
        check_int(players, "players", 2, 5, error=SearchError)
    counts = st.players if players is None else (players,)
    for n in counts:
        check_players(st, n)
    deadline = time.perf_counter() + check_seconds(timeout, error=SearchError)
    done: list[ProofResult] = []
    for n in counts:
        try:
            done.append(st.run(Ruleset(players=n), workers, deadline))
        except KeyboardInterrupt as e:
            # Ctrl-C: the results so far, and the one under way if it kept some findings
            partial = getattr(e, "partial", None)
            if isinstance(partial, ProofResult):
                done.append(partial)
            raise Interrupted(done) from None
    return done


__all__ = ["STATEMENTS", "ProofResult", "DealLine", "check_players", "prove", "value_of"]
