"""The double-dummy search against the plain references: ``Position`` for the rules and
the plain minimax of tests/oracles (minimax_ref, and minimax_all: the same recursion for
every seat and question at once, with a cache).

Only the public API with the default engine: ``solve``, ``value_only``, ``dd_table``.

- Table keys: pairs of positions that differ in one field of the search's state and have
  different values, solved in one search so that a key forgetting the field makes them
  collide (KEY_PAIRS, found by search over seeded random positions).
- Cross-checks up to 4 tricks left: every question, every play's result, the principal
  variation replayed through ``Position``, and the DD table of every seat, on 600
  positions of 2-4 players (tests/oracles/exact_positions.txt): those of seeded random
  rounds with the most transpositions (trick starts reached again), a quarter of them from
  rounds that keep red unbroken late, where the key's red-broken bit matters.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from oracles.gen import replay
from oracles.minimax_all import QUESTIONS, AllValues, asked
from oracles.minimax_ref import minimax, play_values, tree_size

from catbox_solver.dd.answer import Answer
from catbox_solver.dd.solve import dd_table, solve, value_only
from catbox_solver.formats.notation import position_from_notation
from catbox_solver.model.position import Play, Position
from catbox_solver.questions import Question

POSITIONS = Path(__file__).parent / "oracles" / "exact_positions.txt"
TREE_LIMIT = 3000  # positions whose game tree is larger are skipped (minimax time)


def _load_positions() -> list[Position]:
    texts = [t for t in POSITIONS.read_text().splitlines() if t.strip()]
    return [position_from_notation(t) for t in texts]


def answer_errors(pos: Position, ans: Answer, ref: AllValues) -> list[str]:
    """Every way ``ans`` differs from the plain minimax: the value, each play's result,
    and the principal variation (replayed through the checked ``Position.play``, each
    position along it keeping the value, and reaching the end of the round)."""
    hero, q = ans.hero, ans.question
    where = f"{pos!r} hero {hero} {q}"
    bad = []
    value = ref.values(pos)[hero, q]
    if ans.value != value:
        bad.append(f"{where}: value {ans.value} != {value}")
    got = [(r.play.text, r.result) for r in ans.plays]
    want = ref.play_values(pos, hero, q)
    if got != want:
        bad.append(f"{where}: plays {got} != {want}")
    if q == "table" and not value:
        if ans.pv:
            bad.append(f"{where}: a line {ans.pv} where no paradox-free end exists")
        return bad
    line = pos
    for play in ans.pv:
        try:
            line = line.play(play)
        except Exception as exc:  # noqa: BLE001 - reported as a failure
            bad.append(f"{where}: pv {ans.pv} has an illegal play {play}: {exc}")
            return bad
        if ref.values(line)[hero, q] != value:
            bad.append(f"{where}: pv {ans.pv} loses the value at {play}")
            return bad
    if not line.is_over:
        bad.append(f"{where}: pv {ans.pv} stops before the end of the round")
    elif q == "table" and line.is_paradox:
        bad.append(f"{where}: pv {ans.pv} ends in a paradox")
    return bad


def table_errors(pos: Position, ref: AllValues) -> list[str]:
    """Every seat's row of ``dd_table`` against the plain minimax."""
    vals = ref.values(pos)
    bad = []
    for row in dd_table(pos).rows:
        want = (vals[row.seat, "paradox"], vals[row.seat, "tricks"],
                vals.get((row.seat, "score")))
        got = (row.paradox, row.tricks, row.score)
        if got != want:
            bad.append(f"{pos!r} dd_table seat {row.seat}: {got} != {want}")
    return bad


def test_minimax_all_is_minimax_ref() -> None:
    """The cached all-questions minimax is minimax_ref's, value and plays."""
    ref = AllValues()
    for pos in _load_positions()[::40]:
        if tree_size(pos, 600) >= 600:
            continue
        for hero, q in asked(pos):
            assert ref.values(pos)[hero, q] == minimax(pos, hero, q)
            assert ref.play_values(pos, hero, q) == play_values(pos, hero, q)


# ---- table keys ----------------------------------------------------------------------------
@dataclass(frozen=True)
class KeyPair:
    """Two positions reached from ``root`` by the plays ``a`` and ``b`` (each the start of
    a trick, where the search keys its tables) that differ in one ``field`` of the
    search's state and have different ``values`` for ``hero`` and ``question``; solving
    ``root`` searches both in one table, so a key that forgets the field answers one of
    them with the other's value. Fields: ``red_broken`` (a red cell is used, counting
    values nobody can play any more), ``leader``, ``handN`` (seat N's hand),
    ``red_row`` / ``bgy_rows`` (cells used), ``red_holders`` / ``bgy_holders`` (the seats
    that keep a color), ``tricks_left``; for the score question, which keys the hero's
    own tokens and tricks: ``used``, ``own``, ``won``, ``sleader``, ``colors``, ``hands``.
    Found by searching seeded random positions for pairs whose keys agree once the field
    is left out; each was seen to catch the search with that field left out of its key."""

    field: str
    root: str
    hero: int
    question: Question
    a: str
    b: str
    values: tuple[int | bool, int | bool]


KEY_PAIRS = [
    KeyPair(**{**row, "values": tuple(row["values"])})
    for row in json.loads((Path(__file__).parent / "oracles" / "key_pairs.json").read_text())
]


@pytest.mark.parametrize("pair", KEY_PAIRS, ids=[f"{p.field}-{i}" for i, p in enumerate(KEY_PAIRS)])
def test_key_pair(pair: KeyPair) -> None:
    root = position_from_notation(pair.root)
    ends = [replay(root, [Play.parse(t) for t in line.split()])[-1] for line in (pair.a, pair.b)]
    for end in ends:
        assert not end.trick and end.tricks_left == ends[0].tricks_left
    got = tuple(minimax(end, pair.hero, pair.question) for end in ends)
    assert got == pair.values and got[0] != got[1]
    ref = AllValues()
    errors = answer_errors(root, solve(root, pair.hero, pair.question), ref)
    errors += table_errors(root, ref)
    if value_only(root, pair.hero, pair.question) != ref.values(root)[pair.hero, pair.question]:
        errors.append("value_only differs")
    assert not errors, "\n".join(errors)


def test_key_pairs_cover_the_fields() -> None:
    """The fields with a pair that catches a key without them. (Searched for and not
    found with up to 4 tricks left: pairs that catch the red row, the red holders, the
    tricks left, seat 4's hand, and the score key's own tokens and leader alone.)"""
    fields = {p.field for p in KEY_PAIRS}
    assert fields == {"red_broken", "leader", "hand0", "hand1", "hand2", "hand3", "bgy_rows",
                      "bgy_holders", "won", "colors", "used", "hands"}


# ---- cross-checks ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Checked:
    positions: int
    answers: int
    errors: list[str]


def cross_check(positions: list[Position]) -> Checked:
    """For each position: one seat (by turn) asked every question by ``solve`` and
    ``value_only``, and ``dd_table`` for every seat; all against the plain minimax."""
    errors: list[str] = []
    done = answers = 0
    for i, pos in enumerate(positions):
        if tree_size(pos, TREE_LIMIT + 1) > TREE_LIMIT:
            continue
        done += 1
        ref = AllValues()
        hero = i % pos.rules.players
        for h, q in asked(pos):
            if h != hero:
                continue
            errors += answer_errors(pos, solve(pos, hero, q), ref)
            if value_only(pos, hero, q) != ref.values(pos)[hero, q]:
                errors.append(f"{pos!r} hero {hero} {q}: value_only differs")
            answers += 2
        errors += table_errors(pos, ref)
        answers += 1
    return Checked(done, answers, errors)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_search_equals_minimax_up_to_4_tricks_left(players: int) -> None:
    positions = [p for p in _load_positions() if p.rules.players == players]
    assert max(p.tricks_left for p in positions) == 4
    checked = cross_check(positions)
    assert checked.positions >= 150
    assert not checked.errors, (
        f"{len(checked.errors)} wrong answers of {checked.answers}:\n"
        + "\n".join(checked.errors[:10])
    )


def test_questions_are_all_asked() -> None:
    """Every question comes up in the cross-checks (score needs a known prediction)."""
    seen = {q for pos in _load_positions()[:30] for _, q in asked(pos)}
    assert seen == set(QUESTIONS)
