"""Named statements over all deals: the fast ones are proved here (the slow ones by
bench/bench_cpsat.py), every witness is a real round, and a false statement gives a
counterexample."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

import pytest
from oracles.csp import RoundState
from oracles.gen import replay
from ortools.sat.python import cp_model
from ortools.sat.python.cp_model_helper import CpSolverStatus

from catbox_solver.cpsat import proofs
from catbox_solver.cpsat.exists import WitnessBug, make_solver
from catbox_solver.cpsat.model import (
    RoundModel,
    add_clause,
    build_free_round,
    cell_index,
    empty_at_end_lit,
    neg,
    or_lit,
)
from catbox_solver.cpsat.proofs import (
    STATEMENTS,
    _paradox_free,
    _paradox_in,
    _red_exception_in,
    prove,
    prove_full_board,
    relabel,
    replay_deal,
)
from catbox_solver.dd.lines import paradox_free_line
from catbox_solver.dd.search import Search
from catbox_solver.errors import SearchError
from catbox_solver.games.game import hands_after_discards
from catbox_solver.model.deal import deal
from catbox_solver.model.position import Play, Position
from catbox_solver.model.rules import Ruleset

WORKERS = 2
LIMIT = 60.0


def test_full_board_three_and_four_players() -> None:
    results = prove("full-board", workers=WORKERS, timeout=LIMIT)
    assert [(r.players, r.verdict, r.status) for r in results] == [
        (3, "PROVED", "INFEASIBLE"),
        (4, "PROVED", "INFEASIBLE"),
    ]


def test_equal_discards_three_players() -> None:
    (res,) = prove("equal-discards", 3, WORKERS, LIMIT)
    assert res.verdict == "PROVED" and res.counterexample is None


def test_two_players_one_empty_cell_and_every_cell_can_be_it() -> None:
    (res,) = prove("one-empty-cell", 2, WORKERS, LIMIT)
    assert res.verdict == "PROVED"
    cells = [f"{c}{v}" for v in range(1, 6) for c in "RBYG"]
    assert sorted(res.witnesses) == sorted(cells)
    for name, w in res.witnesses.items():
        v, c = int(name[1]), "RBYG".index(name[0])
        assert w.final.tricks_left == 0 and not w.final.is_paradox
        assert w.final.owner_of(v, c) is None
        empty = [
            (vv, cc) for vv in range(1, 6) for cc in range(4) if w.final.owner_of(vv, cc) is None
        ]
        assert empty == [(v, c)]
    assert res.findings[1] == "cells that are never empty (0): -"


def test_earliest_paradox_three_players_is_trick_three() -> None:
    (res,) = prove("earliest-paradox", 3, WORKERS, LIMIT)
    assert res.verdict == "PROVED"
    assert res.findings == ["a paradox: earliest in trick 3, never before"]
    w = res.witnesses["trick 3"]
    assert w.final.is_paradox and w.final.tricks_played + 1 == 3


def test_last_color_kept_and_the_czech_reading_loses_all() -> None:
    (res,) = prove("last-color-kept", 2, WORKERS, LIMIT)
    assert res.verdict == "PROVED"
    czech = res.witnesses["czech-color-loss"]
    assert czech.rules.color_loss == "declared"
    assert 0 in czech.final.colors


def test_red_lead_exception_two_players_from_trick_three() -> None:
    (res,) = prove("red-lead-exception", 2, WORKERS, LIMIT)
    assert res.verdict == "PROVED"
    assert res.findings == [
        "red led before red is broken (the exception): earliest in trick 3, never before"
    ]
    w = res.witnesses["trick 3"]
    lead = w.line[4]  # trick 3 is led by the fifth play
    assert lead.color == 0
    assert all(p.color != 0 for p in w.line[:4]) and w.final.neutral & 0x11111 == 0


def test_the_earliest_trick_keeps_what_was_proven_when_time_runs_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A solver call stopped by the time limit at trick t: UNKNOWN, and the tricks before
    it are still proven (the finding was dropped: findings [], as if nothing was)."""
    calls = [0]

    def unknown_at(k: int) -> object:
        def fake(
            rules: Ruleset, question: object, workers: int, deadline: float
        ) -> proofs.FreeDealSolve:
            calls[0] += 1
            status = "UNKNOWN" if calls[0] == k else "INFEASIBLE"
            return proofs.FreeDealSolve(status, 0.01, None)

        return fake

    monkeypatch.setattr(proofs, "solve_free", unknown_at(3))
    (res,) = prove("earliest-paradox", 5, 1, 1.0)
    assert (res.verdict, res.status, res.counterexample, res.witnesses) == (
        "UNKNOWN", "UNKNOWN", None, {}
    )
    assert res.findings == [
        "a paradox: not before trick 3; undecided from trick 3 on (time limit)"
    ]
    assert calls[0] == 3
    calls[0] = 0
    monkeypatch.setattr(proofs, "solve_free", unknown_at(1))
    (res,) = prove("red-lead-exception", 4, 1, 1.0)
    assert (res.verdict, res.status) == ("UNKNOWN", "UNKNOWN")
    assert res.findings == [
        "red led before red is broken (the exception): nothing proven; undecided from "
        "trick 1 on (time limit)"
    ]


def test_a_false_statement_gives_a_replayed_counterexample() -> None:
    res = prove_full_board(Ruleset(2), WORKERS, time.perf_counter() + LIMIT)  # 2p leave a cell
    assert res.verdict == "COUNTEREXAMPLE" and res.counterexample is not None
    ce = res.counterexample
    assert ce.final.tricks_left == 0 and len(ce.line) == 16
    assert "line " in ce.text() and ce.to_json()["paradox_by"] is None


def test_witness_checks_catch_a_bad_deal_or_line() -> None:
    (res,) = prove("earliest-paradox", 3, WORKERS, LIMIT)
    w = res.witnesses["trick 3"]
    with pytest.raises(WitnessBug):
        replay_deal(w.rules, w.hands, w.discards, w.revealed, w.hidden, w.line[:2])
    other = next(v for v in range(1, 7) if v != w.discards[0][0])
    six_copies = ((other,), *w.discards[1:])
    with pytest.raises(WitnessBug, match=f"6 copies of value {other}"):
        replay_deal(w.rules, w.hands, six_copies, w.revealed, w.hidden, w.line)
    # a swapped card makes one value too many and another too few: the excess is named
    # (it was whichever value came first, so this check failed for some witnesses)
    dealt = deal(w.rules, 1).hands  # every seat's lowest card is a 1
    hands, ones = [h[1:] for h in dealt], [(h[0],) for h in dealt]
    with pytest.raises(WitnessBug, match="6 copies of value 6"):
        replay_deal(w.rules, hands, [(6,), *ones[1:]], (), (), ())
    swapped = relabel(w, {1: 2, 2: 1})  # blue and yellow trade names: still a round
    assert swapped.final.is_paradox and swapped.final.paradox_by == w.final.paradox_by


def test_statement_names_and_player_counts() -> None:
    assert list(STATEMENTS) == [
        "one-empty-cell",
        "full-board",
        "equal-discards",
        "last-color-kept",
        "earliest-paradox",
        "red-lead-exception",
    ]
    with pytest.raises(SearchError):
        prove("full-board", 5)
    with pytest.raises(SearchError):
        prove("nothing")


@pytest.mark.parametrize("players", [3, 4])
def test_the_free_deal_model_agrees_with_the_search_on_fixed_deals(players: int) -> None:
    """The proofs' "no such round" answers come from the free-deal model, and only its
    feasible side was checked (by replaying its witnesses): a model that left out real
    deals proved equal-discards trivially and every test passed (audit).
    Here a second method checks its infeasible side too: with every hand and discard
    fixed (seeded deals, random discards, so equal ones often), the model finds a
    paradox-free round exactly when the double-dummy search (`table`) says one exists."""
    rules = Ruleset(players=players)
    seen = set()
    for seed in range(8):
        rng = random.Random(seed)
        dealt = deal(rules, seed).hands
        discards = [rng.choice(hand) for hand in dealt]
        hands = hands_after_discards(dealt, discards)
        rm = build_free_round(rules, 0, [list(h) for h in hands], [[d] for d in discards])
        _paradox_free(rm)
        status = make_solver(WORKERS, LIMIT).solve(rm.model)
        assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE)
        pos = Position.new_round(rules, hands, 0)
        exists = Search(pos, 0).exact("table")
        assert (status != cp_model.INFEASIBLE) is exists, (seed, discards)
        equal = len(set(discards)) < players
        if exists or not equal or (False, True) in seen:
            seen.add((exists, equal))
            continue
        # with no condition every deal has some round, a paradox or not: a model that
        # left out the deals with equal discards agreed above (no paradox-free round
        # either) but fails here (once per player count: each such solve takes seconds)
        free = build_free_round(rules, 0, [list(h) for h in hands], [[d] for d in discards])
        assert make_solver(WORKERS, LIMIT).solve(free.model) in (
            cp_model.OPTIMAL, cp_model.FEASIBLE
        ), (seed, discards)
        seen.add((False, True))
    assert (False, True) in seen and (True, False) in seen  # (both answers were met)


Cut = tuple[
    tuple[tuple[int, ...], ...], list[int], tuple[int, ...], list[Play], Position
]


def _cut_round(rules: Ruleset, seed: int, cut: int, keep_red: bool = False,
               lose_colors: bool = False, paradox_free: bool = False) -> Cut:
    """A seeded deal, random discards and a random line through the rules engine up to
    round trick ``cut`` (or a paradox): avoiding red where it can (``keep_red``), declaring
    off the led color where it can (``lose_colors``), or the start of a paradox-free round
    found by the library's depth-first search (``paradox_free``; the discards distinct;
    none found: the first lead)."""
    rng = random.Random(seed)
    dealt = deal(rules, seed)
    discards: list[int] = []
    for hand in dealt.hands:
        others = [v for v in hand if v not in discards] if paradox_free else []
        discards.append(rng.choice(others or hand))
    hands = hands_after_discards(dealt.hands, discards)
    revealed = dealt.revealed if rules.players == 2 else ()
    pos = Position.new_round(rules, hands, 0, None, revealed)
    line: list[Play] = []
    if paradox_free:
        whole = paradox_free_line(pos, rng, 20_000) or []
        line = list(whole[: cut * rules.players])
        return hands, discards, revealed, line, replay(pos, line)[-1]
    while pos.tricks_played < cut and not pos.is_paradox:
        legal = list(pos.legal_plays())
        if keep_red:
            legal = [p for p in legal if p.color != 0] or legal
        if lose_colors and pos.trick:
            legal = [p for p in legal if p.color != pos.trick[0].color] or legal
        line.append(rng.choice(legal))
        pos = pos.play(line[-1])
    return hands, discards, revealed, line, pos


def _fixed_round(rules: Ruleset, hands: Sequence[Sequence[int]], discards: Sequence[int],
                 revealed: Sequence[int], line: Sequence[Play]) -> RoundModel:
    """The proofs' free-deal model with the deal, the discards, the leftovers shown (2
    players) and the first plays fixed."""
    rm = build_free_round(rules, 0, [list(h) for h in hands], [[d] for d in discards])
    for v in rm.revealed if rules.players == 2 else ():
        rm.model.add(rm.revealed[v] == list(revealed).count(v))
    for s, play in enumerate(line):
        add_clause(rm.model, [rm.x[s][cell_index(play.value, play.color)]])
    return rm


def _feasible(rm: RoundModel) -> bool:
    status = make_solver(WORKERS, LIMIT).solve(rm.model)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE)
    return status != cp_model.INFEASIBLE


def _event_by_reading(st: RoundState, last: int, event: str) -> int | None:
    """The first round trick up to ``last`` in which ``event`` (a paradox, or red led while
    red is not broken) can happen from ``st``, by a plain search over the separate reading
    of the rules in :mod:`oracles.csp` (None: in none of them)."""
    trick = st.rules.tricks - st.tricks_left + 1
    if st.tricks_left == 0 or trick > last:
        return None
    options = st.options()
    if event == "paradox" and not options:
        return trick
    if event == "red" and not st.trick:
        if not any(c == 0 for _v, c in st.taken) and any(c == 0 for _v, c in options):
            return trick
        if trick == last:  # (red is led only at the lead)
            return None
    first = None
    for pair in options:
        found = _event_by_reading(st.after(pair), last, event)
        if found is not None and (first is None or found < first):
            first = found
            if first == trick:
                break
    return first


@pytest.mark.parametrize("event", ["paradox", "red"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_proofs_events_agree_with_a_plain_search_on_fixed_rounds(
    players: int, event: str
) -> None:
    """earliest-paradox and red-lead-exception prove "never before trick t" with the
    free-deal model and the event's literal (`_paradox_in`, `_red_exception_in`); only
    their witnesses were replayed. Here the infeasible side is checked too: the deal, the
    discards and a random first part of the round (which avoids red where it can, to keep
    red unbroken) are fixed in the model, and the first of the next two tricks in which the
    event can happen must be the one a plain search over the separate reading of
    :mod:`oracles.csp` finds. Cases where it can and where it cannot are both
    met, for every player count."""
    rules = Ruleset(players=players)
    if event == "red":
        rules = rules.with_switches(red_lead="exception")
    literal = _paradox_in if event == "paradox" else _red_exception_in
    met = {True: 0, False: 0}
    for seed in range(400):
        rng = random.Random(seed)
        cut = rng.randrange(2, rules.tricks - 1)
        hands, discards, revealed, line, pos = _cut_round(rules, seed, cut, event == "red")
        last = pos.tricks_played + (1 if event == "paradox" else 2)
        if pos.is_paradox or last > rules.tricks:
            continue
        by_reading = _event_by_reading(RoundState.of(pos), last, event)
        if met[by_reading is not None] >= 3:
            continue
        met[by_reading is not None] += 1
        by_model = None
        for t in range(pos.tricks_played + 1, last + 1):
            rm = _fixed_round(rules, hands, discards, revealed, line)
            add_clause(rm.model, [literal(rm, t)])
            if _feasible(rm):
                by_model = t
                break
        assert by_model == by_reading, (seed, [p.text for p in line])
        if min(met.values()) >= 3:
            break
    assert met == {True: 3, False: 3}


def _endings(st: RoundState) -> set[tuple[bool, frozenset[tuple[int, int]], bool]]:
    """Every way the rest of the round can go, by a plain search over csp.py's reading:
    (ended in a paradox, the cells left empty, some player lost all four colors)."""
    lost = any(not colors for colors in st.colors)
    options = st.options()
    if st.tricks_left == 0 or not options:
        everything = {(v, c) for v in range(1, st.rules.values + 1) for c in range(4)}
        return {(st.tricks_left > 0, frozenset(everything - st.taken), lost)}
    out = set()
    for pair in options:
        out |= {(paradox, empty, lost or lost_later)
                for paradox, empty, lost_later in _endings(st.after(pair))}
    return out


@pytest.mark.parametrize("players", [2, 5])
def test_which_cells_can_stay_empty_agrees_with_a_plain_search(players: int) -> None:
    """one-empty-cell asks, per cell, for a paradox-free round that leaves it empty, and
    its "never empty" cells are the model's infeasible answers. With the deal, discards
    and all but the last two tricks fixed, the cells the model can leave empty in a
    paradox-free round are the ones a plain search over csp.py's reading finds."""
    rules = Ruleset(players=players)
    cases = 0
    for seed in range(40):
        hands, discards, revealed, line, pos = _cut_round(
            rules, seed, rules.tricks - 2, paradox_free=True
        )
        if pos.tricks_left != 2:  # (no paradox-free round found)
            continue
        endings = _endings(RoundState.of(pos))
        by_reading = {cell for paradox, empty, _ in endings if not paradox for cell in empty}
        if not by_reading:
            continue
        by_model = set()
        for v, c in {(v, c) for _p, empty, _ in endings for v, c in empty}:
            rm = _fixed_round(rules, hands, discards, revealed, line)
            _paradox_free(rm)
            add_clause(rm.model, [empty_at_end_lit(rm, cell_index(v, c))])
            if _feasible(rm):
                by_model.add((v, c))
        assert by_model == by_reading, (seed, [p.text for p in line])
        assert all(len(empty) == 1 for paradox, empty, _ in endings if not paradox)
        cases += 1
        if cases == 2:
            break
    assert cases == 2


@pytest.mark.parametrize("players", [2, 3])
def test_losing_all_colors_agrees_with_a_plain_search(players: int) -> None:
    """last-color-kept: with the Czech reading (the declared color is lost) a player can
    lose all four, with the official one never. With the deal, discards and all but the
    last three tricks fixed (a line that declares off the led color where it can), the
    model finds such a round exactly when a plain search over csp.py's reading does."""
    met = {True: 0, False: 0}
    for reading in ("declared", "led"):
        rules = Ruleset(players=players).with_switches(color_loss=reading)
        for seed in range(300):
            hands, discards, revealed, line, pos = _cut_round(
                rules, seed, rules.tricks - 3, lose_colors=True
            )
            if pos.is_paradox:
                continue
            by_reading = any(lost for _p, _e, lost in _endings(RoundState.of(pos)))
            if met[by_reading] >= 2 or (by_reading and reading == "led"):
                continue
            met[by_reading] += 1
            rm = _fixed_round(rules, hands, discards, revealed, line)
            lits = [or_lit(rm.model, [rm.keeps[j][p][c] for c in range(4)], f"any{j}_{p}")
                    for j in range(1, rm.tricks + 1) for p in range(players)]
            add_clause(rm.model, [neg(lit) for lit in lits])
            assert _feasible(rm) is by_reading, (reading, seed, [p.text for p in line])
            if met[True] >= 2 and met[False] >= 2:
                break
    assert met == {True: 2, False: 2}


def test_the_time_limit_is_one_total_for_every_solver_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``prove``'s time limit is for the whole run: the solver calls share it (each had
    the whole limit, so one-empty-cell with 37 calls and 0.5 s took 24 s). The solver is
    faked: the statement proved at once, then each cell's call uses all the time it is
    given and answers UNKNOWN; the time used adds up to the limit, no more."""
    given: list[float] = []
    used: list[float] = []

    def fake_solve(solver: cp_model.CpSolver, model: cp_model.CpModel) -> CpSolverStatus:
        seconds = solver.parameters.max_time_in_seconds
        given.append(seconds)
        if len(given) == 1:
            used.append(0.0)
            return cp_model.INFEASIBLE  # (the statement itself: proved at once)
        time.sleep(seconds)
        used.append(seconds)
        return cp_model.UNKNOWN

    monkeypatch.setattr(proofs, "solve_cp", fake_solve)
    limit = 1.5
    t0 = time.perf_counter()
    (res,) = prove("one-empty-cell", 5, 1, limit)
    took = time.perf_counter() - t0
    # each call is given at most what the calls before it left, so together they use no
    # more than the limit (a call that ends early leaves its time to the next)
    assert sum(used) <= limit
    for i, seconds in enumerate(given):
        assert seconds <= limit - sum(used[:i]) + 1e-9, (i, given, used)
    assert len(given) < 37  # (the calls no time was left for were not made)
    assert res.verdict == "UNKNOWN"
    cells = [f"{c}{v}" for v in range(1, Ruleset(5).values + 1) for c in "RBYG"]
    assert res.findings[-1] == f"undecided (time limit): {' '.join(cells)}"
    # past the limit by one free-deal model built at most (well under a second alone)
    assert took < limit + 10
