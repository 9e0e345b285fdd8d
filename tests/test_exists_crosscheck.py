"""The CP-SAT existence answers against two independent deciders: a plain search over
``Position.legal_plays`` (written here) and the python-constraint encoding
(:mod:`oracles.csp`), on random positions with at most 3 tricks left, for
every player count and every preset reading; and against the conformance table answers."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from oracles.csp import exists_csp
from oracles.gen import paradox_free_round, random_line, replay, start_position

from catbox_solver.cpsat import exists as ex
from catbox_solver.formats.jsonform import position_from_dict
from catbox_solver.model.position import Position
from catbox_solver.model.rules import PRESETS, Ruleset

CONFORMANCE = Path(__file__).resolve().parents[2] / "shared" / "conformance"

Outcome = tuple[int | None, int | None, tuple[int, ...], int]


def outcomes(pos: Position) -> frozenset[Outcome]:
    """Every way the round can end from ``pos``: (paradox seat or None, trick number of the
    paradox or None, tricks won, mask of the cells holding a token at the end), by a plain
    search with a memo."""
    memo: dict[Position, frozenset[Outcome]] = {}

    def rec(p: Position) -> frozenset[Outcome]:
        got = memo.get(p)
        if got is not None:
            return got
        board = p.neutral
        for m in p.final_owners():
            board |= m
        if p.tricks_left == 0:
            out: frozenset[Outcome] = frozenset([(None, None, p.tricks_won, board)])
        else:
            legal = p.legal_plays()
            if not legal:
                out = frozenset([(p.to_move, p.tricks_played + 1, p.tricks_won, board)])
            else:
                out = frozenset().union(*(rec(p.after(pl)) for pl in legal))
        memo[p] = out
        return out

    return rec(pos)


def random_positions(seed: int, count: int, max_steps: int) -> list[Position]:
    """Positions from seeded random rounds (random player count and preset reading) with at
    most 3 tricks and ``max_steps`` plays left."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        n = rng.choice([2, 3, 4, 5])
        rules = Ruleset.from_name(rng.choice(list(PRESETS)), n)
        line = random_line(start_position(rules, rng), rng)
        cands = [
            p
            for p in line
            if 0 < p.tricks_left <= 3 and p.tricks_left * n - len(p.trick) <= max_steps
        ]
        if cands:
            out.append(rng.choice(cands))
    return out


def test_cpsat_agrees_with_plain_search() -> None:
    rng = random.Random(7)
    disagreements = []
    positions = random_positions(2026, 200, 15)
    assert len({p.rules.players for p in positions}) == 4
    assert len({p.rules.name for p in positions}) == len(PRESETS)
    for pos in positions:
        outs = outcomes(pos)
        seat = rng.randrange(pos.rules.players)
        k = rng.randrange(4)
        trick = pos.tricks_played + 1 + rng.randrange(pos.tricks_left)
        v, c = rng.randrange(1, pos.rules.values + 1), rng.randrange(4)
        cell = 1 << ((v - 1) * 4 + c)
        questions = [
            ([ex.no_paradox()], any(o[0] is None for o in outs)),
            ([ex.paradox_by(seat)], any(o[0] == seat for o in outs)),
            ([ex.paradox_by(seat, trick)], any(o[0] == seat and o[1] == trick for o in outs)),
            ([ex.tricks_at_least(seat, k)], any(o[2][seat] >= k for o in outs)),
            ([ex.empty((v, c))], any(not o[3] & cell for o in outs)),
            (
                [ex.no_paradox(), ex.tricks(seat, k)],
                any(o[0] is None and o[2][seat] == k for o in outs),
            ),
        ]
        asker = ex.Questions(pos)  # one model, six questions
        for conds, want in questions:
            got = asker.ask(conds, workers=1)  # a witness is replayed inside
            if got.exists is not want:
                disagreements.append((pos, [c.name for c in conds], want, got.exists))
    assert disagreements == []


def test_three_deciders_agree_on_small_positions() -> None:
    rng = random.Random(8)
    disagreements = []
    for pos in random_positions(77, 70, 8):
        outs = outcomes(pos)
        seat = rng.randrange(pos.rules.players)
        k = rng.randrange(3)
        cases = [
            ({"no_paradox": True}, [ex.no_paradox()], any(o[0] is None for o in outs)),
            ({"paradox_by": seat}, [ex.paradox_by(seat)], any(o[0] == seat for o in outs)),
            (
                {"tricks_at_least": (seat, k)},
                [ex.tricks_at_least(seat, k)],
                any(o[2][seat] >= k for o in outs),
            ),
        ]
        asker = ex.Questions(pos)
        for kwargs, conds, want in cases:
            by_csp = exists_csp(pos, **kwargs)  # type: ignore[arg-type]
            by_cpsat = asker.ask(conds, workers=1).exists
            if not (by_csp is by_cpsat is want):
                disagreements.append((pos, kwargs, want, by_csp, by_cpsat))
    assert disagreements == []


@pytest.mark.skipif(not CONFORMANCE.exists(), reason="conformance data not present")
def test_conformance_table_answers() -> None:
    ins = (CONFORMANCE / "dd-in.jsonl").read_text().splitlines()
    expect = (CONFORMANCE / "dd-table-expect.jsonl").read_text().splitlines()
    assert len(ins) == len(expect) == 106
    disagreements = []
    for i, (line, want) in enumerate(zip(ins, expect, strict=True)):
        pos = position_from_dict(json.loads(line))
        got = ex.exists(pos, [ex.no_paradox()], workers=1)
        if got.exists is not json.loads(want)["exists"]:
            disagreements.append(i + 1)
    assert disagreements == []


def test_bonus_and_score_conditions_on_rounds_that_are_over() -> None:
    """A round already over (all tricks played, or a paradox) has one outcome: every bonus
    and score condition, exact or a bound, must say whether it holds, and a question that
    fails leaves the model as it was. Found by probing: on a finished round whose bonus was
    not scored, an upper bound on the bonus was added unenforced and made the whole model
    infeasible ('impossible' for --bonus 0=0 while the bonus was 0, and for every later
    question on that model)."""
    rng = random.Random(14)
    checked = unscored = paradoxes = 0
    for k in range(20):
        n = 2 + k % 4
        rules = Ruleset.from_name(list(PRESETS)[k % len(PRESETS)], n)
        if k % 2:
            end = random_line(start_position(rules, rng), rng)[-1]  # (mostly a paradox)
        else:
            start, plays = paradox_free_round(rules, 500 + k)
            end = replay(start, plays)[-1]
        assert end.is_over
        paradoxes += end.is_paradox
        asker = ex.Questions(end)
        scores = end.scores()
        for seat in range(n):
            bonus = scores[seat] - end.trick_points(seat)
            unscored += bonus == 0
            for truth, exactly, at_most, at_least in (
                (bonus, ex.bonus, ex.bonus_at_most, ex.bonus_at_least),
                (scores[seat], ex.score, ex.score_at_most, ex.score_at_least),
            ):
                for k in (truth - 1, truth, truth + 1):
                    for cond, holds in (
                        (exactly(seat, k), truth == k),
                        (at_most(seat, k), truth <= k),
                        (at_least(seat, k), truth >= k),
                    ):
                        assert asker.ask([cond], workers=1).exists is holds, (end, cond)
                        checked += 1
        assert asker.ask([], workers=1).exists is True  # (the model is whole)
    assert checked >= 1000 and unscored >= 15 and 6 <= paradoxes <= 12, (
        checked, unscored, paradoxes
    )
