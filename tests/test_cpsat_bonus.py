"""The prediction bonus and round scores in the CP-SAT model: existence of a line with
bonus/score >=, <=, == k against a plain enumeration of every line (written here with
``Position.legal_plays``/``after`` and ``Position.scores()``), on small random positions of
every player count under both adjacencies, a non-default row order and both readings of an
interrupted trick; witnesses replay; clashes are named; an unknown prediction is an error."""

from __future__ import annotations

import json
import random

import pytest
from oracles.gen import random_line, start_position

from catbox_solver.cpsat import exists as ex
from catbox_solver.errors import SearchError
from catbox_solver.model.position import Position
from catbox_solver.model.rules import Ruleset

Final = tuple[tuple[int, ...], tuple[int, ...]]


def ends(pos: Position) -> frozenset[Position]:
    """Every position where a line from ``pos`` ends (a plain search with a memo)."""
    memo: dict[Position, frozenset[Position]] = {}

    def rec(p: Position) -> frozenset[Position]:
        got = memo.get(p)
        if got is None:
            legal = () if p.tricks_left == 0 else p.legal_plays()
            if not legal:
                got = frozenset([p])
            else:
                got = frozenset().union(*(rec(p.after(pl)) for pl in legal))
            memo[p] = got
        return got

    return rec(pos)


def finals(pos: Position) -> frozenset[Final]:
    """(scores, bonuses) of every position where a line from ``pos`` ends."""
    n = pos.rules.players
    return frozenset((f.scores(), tuple(f.bonus(s) for s in range(n))) for f in ends(pos))


READINGS = [
    {},
    {"adjacency": "diagonal"},
    {"row_order": "GRYB"},
    {"adjacency": "diagonal", "row_order": "BGRY", "interrupted_trick": "removed"},
    {"interrupted_trick": "removed"},
]


def bonus_positions(seed: int, count: int, max_steps: int) -> list[Position]:
    """Positions with at most 3 tricks and ``max_steps`` plays left, from seeded random
    rounds of every player count and the readings above; predictions are set near the
    tricks each seat can still reach, so that the bonus is often scored."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        n = [2, 3, 4, 5][len(out) % 4]
        switches = dict(READINGS[len(out) % len(READINGS)])
        if n == 2 and rng.random() < 0.4:
            switches["two_player_bonus"] = "prediction"
        rules = Ruleset(n, **switches)
        line = random_line(start_position(rules, rng), rng)
        cands = [
            p
            for p in line
            if 0 < p.tricks_left <= 3 and p.tricks_left * n - len(p.trick) <= max_steps
        ]
        if not cands:
            continue
        pos = rng.choice(cands)
        if rules.has_predictions:
            # a prediction some line meets where possible (else any allowed one)
            reach = [{f.tricks_won[s] for f in ends(pos)} for s in range(n)]
            choices = rules.prediction_choices
            preds = []
            for s in range(n):
                near = [c for c in choices if c in reach[s]]
                preds.append(rng.choice(near or list(choices)))
            pos = pos.with_predictions(preds)
        out.append(pos)
    return out


def test_bonus_and_score_agree_with_plain_enumeration() -> None:
    rng = random.Random(11)
    disagreements = []
    asked = varied = 0
    positions = bonus_positions(404, 40, 10)
    assert {p.rules.players for p in positions} == {2, 3, 4, 5}
    for pos in positions:
        outs = finals(pos)
        asker = ex.Questions(pos)
        for seat in range(pos.rules.players):
            scores = {o[0][seat] for o in outs}
            bonuses = {o[1][seat] for o in outs}
            varied += len(bonuses) > 1
            ks = sorted({*rng.sample(sorted(scores), 1), min(scores) - 1, max(scores) + 1})
            bs = sorted({*rng.sample(sorted(bonuses), 1), max(bonuses) + 1, 0})
            questions: list[tuple[ex.Condition, bool]] = []
            for k in ks:
                questions += [
                    (ex.score_at_least(seat, k), any(s >= k for s in scores)),
                    (ex.score_at_most(seat, k), any(s <= k for s in scores)),
                    (ex.score(seat, k), k in scores),
                ]
            for k in bs:
                questions += [
                    (ex.bonus_at_least(seat, k), any(b >= k for b in bonuses)),
                    (ex.bonus_at_most(seat, k), any(b <= k for b in bonuses)),
                    (ex.bonus(seat, k), k in bonuses),
                ]
            for cond, want in rng.sample(questions, 4):
                asked += 1
                got = asker.ask([cond], workers=1)  # a witness is replayed inside
                if got.exists is not want:
                    disagreements.append((pos, cond.name, want, got.exists))
    assert asked == 4 * sum(p.rules.players for p in positions)
    assert varied == 17  # seats whose bonus depends on the line (the encoding is exercised)
    assert disagreements == []


def test_combined_conditions_agree_with_plain_enumeration() -> None:
    """Two conditions at once (score and bonus of the same or another seat, exact values)."""
    rng = random.Random(12)
    disagreements = []
    for pos in bonus_positions(505, 16, 8):
        outs = sorted(finals(pos))
        n = pos.rules.players
        asker = ex.Questions(pos)
        for _ in range(3):
            a, b = rng.randrange(n), rng.randrange(n)
            sa = rng.choice(outs)[0][a]
            bb = rng.choice(outs)[1][b]
            want = any(o[0][a] == sa and o[1][b] == bb for o in outs)
            got = asker.ask([ex.score(a, sa), ex.bonus(b, bb)], workers=1)
            if got.exists is not want:
                disagreements.append((pos, a, sa, b, bb, want, got.exists))
    assert disagreements == []


def test_every_witness_of_a_group_question_replays() -> None:
    """Several distinct lines for one question: each is replayed (inside ``ask``) and its
    final position has the asked score."""
    pos = bonus_positions(606, 1, 10)[0]
    outs = finals(pos)
    k = max(o[0][0] for o in outs)
    got = ex.exists(pos, [ex.score(0, k)], count=3, workers=1)
    assert got.exists is True and 1 <= len(got.lines) <= 3
    for line in got.lines:
        cur = pos
        for pl in line:
            cur = cur.play(pl)
        assert cur.is_over and cur.scores()[0] == k


def test_contradictory_bonus_conditions_name_the_clash() -> None:
    """Each bonus bound alone has a line; together they clash, and the other (harmless)
    condition is not named."""
    pos, seat, k = next(
        (p, s, max(o[1][s] for o in finals(p)))
        for p in bonus_positions(707, 20, 10)
        for s in range(p.rules.players)
        if len({o[1][s] for o in finals(p)}) >= 2
    )
    lo, hi = ex.bonus_at_least(seat, k), ex.bonus_at_most(seat, k - 1)
    assert ex.exists(pos, [lo], workers=1).exists is True
    assert ex.exists(pos, [hi], workers=1).exists is True
    got = ex.exists(pos, [ex.tricks_at_least(0, 0), lo, hi], workers=1)
    assert got.exists is False
    # (in library terms: the CLI maps them to its options)
    assert got.clash == [f"bonus_at_least({seat}, {k})", f"bonus_at_most({seat}, {k - 1})"]


def test_unknown_prediction_is_an_error() -> None:
    pos = next(p for p in bonus_positions(808, 4, 10) if p.rules.players == 4)
    unknown = pos.with_predictions([None, 2, 2, 2])
    with pytest.raises(SearchError, match="prediction of seat 0 is unknown"):
        ex.exists(unknown, [ex.score_at_least(0, 1)], workers=1)
    # another seat's question is fine; the 2-player official game needs no prediction
    assert ex.exists(unknown, [ex.score_at_least(1, -99)], workers=1).exists is True
    twos = [p for p in bonus_positions(809, 12, 10) if p.rules.players == 2]
    official = next(p for p in twos if p.rules.two_player_bonus == "at-most-4")
    assert official.predictions is None
    assert ex.exists(official, [ex.bonus_at_most(0, 99)], workers=1).exists is True
    variant = next(p for p in twos if p.rules.two_player_bonus == "prediction")
    with pytest.raises(SearchError, match="prediction of seat 1 is unknown"):
        ex.exists(variant.with_predictions([3, None]), [ex.bonus(1, 0)], workers=1)


THREE_P = (
    "3p official | R:.1.212 B:.11..2 Y:000.00 G:..212. | 1456 1356 1224 | YG RBG RBG | "
    "lead 2 | won 2 1 2 | bid 3 4 1 | left 3"
)


def test_cli_score_and_bonus_options() -> None:
    from click.testing import CliRunner

    from catbox_solver.cli import main
    from catbox_solver.formats.notation import position_from_notation

    pos = position_from_notation(THREE_P)
    outs = finals(pos)
    best = max(o[0][0] for o in outs)
    runner = CliRunner()
    got = runner.invoke(main, ["exists", THREE_P, "--score", f"0={best}", "--json"])
    assert got.exit_code == 0
    line = json.loads(got.stdout)["line"]
    cur = pos
    for play in line:
        cur = cur.play(play["text"])
    assert cur.is_over and cur.scores()[0] == best
    text = runner.invoke(main, ["exists", THREE_P, "--score-at-least", f"0={best}"])
    assert text.exit_code == 0 and f"scores {best} " in text.stdout
    over = runner.invoke(
        main, ["exists", THREE_P, "--score-at-least", f"0={best + 1}", "--bonus-at-most", "1=9"]
    )
    assert over.stdout == f"impossible: no continuation meets --score-at-least 0={best + 1}\n"
    low = min(o[0][2] for o in outs)
    neg = runner.invoke(main, ["exists", THREE_P, "--score-at-most", f"2={low}", "--json"])
    assert json.loads(neg.stdout)["exists"] is True
    bad = runner.invoke(main, ["exists", THREE_P, "--bonus", "1=-1"])
    assert bad.exit_code == 2 and bad.stderr == (
        "error: --bonus takes SEAT=COUNT like 1=3, not '1=-1'\n"
    )
    unknown = THREE_P.replace("bid 3 4 1", "bid 3 ? 1")
    err = runner.invoke(main, ["exists", unknown, "--bonus-at-least", "1=1"])
    assert err.exit_code == 2 and "prediction of seat 1 is unknown" in err.stderr


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_finished_round_has_exactly_its_own_scores(players: int) -> None:
    """No plays left (round complete or stopped by a paradox): the model's bonus and score
    are the engine's, under both readings of an interrupted trick."""
    for seed, reading in ((1, "stay"), (2, "removed")):
        rules = Ruleset(players, interrupted_trick=reading)
        final = random_line(start_position(rules, seed), seed)[-1]
        asker = ex.Questions(final)
        for s in range(players):
            score, bonus = final.scores()[s], final.bonus(s)
            answers = [
                asker.ask([c], workers=1).exists
                for c in (
                    ex.score(s, score),
                    ex.score(s, score + 1),
                    ex.bonus(s, bonus),
                    ex.bonus_at_least(s, bonus + 1),
                    ex.score_at_most(s, score - 1),
                )
            ]
            assert answers == [True, False, True, False, False]
