"""Named statements over all deals: the fast ones are proved here (the slow ones by
bench/bench_cpsat.py), every witness is a real round, and a false statement gives a
counterexample."""

from __future__ import annotations

import pytest

from catbox_solver.errors import SearchError
from catbox_solver.model.rules import Ruleset
from catbox_solver.search.exists import WitnessBug
from catbox_solver.search.proofs import (
    STATEMENTS,
    prove,
    prove_full_board,
    relabel,
    replay_deal,
)

WORKERS = 2
LIMIT = 60.0


def test_full_board_three_and_four_players() -> None:
    results = prove("full-board", workers=WORKERS, time_limit=LIMIT)
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


def test_a_false_statement_gives_a_replayed_counterexample() -> None:
    res = prove_full_board(Ruleset(2), WORKERS, LIMIT)  # 2 players always leave a cell
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
