"""The quickest forced paradox (catbox_solver.dd.forced): checked against a plain
minimax of the distance (tests/oracles/minimax_ref.py) and the double-dummy paradox verdict, and
its lines replayed through the rules engine."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.gen import paradox_free_line, random_line, replay, start_position
from oracles.minimax_ref import paradox_distance, tree_size

from catbox_solver.dd.answer import OutOfTime
from catbox_solver.dd.forced import paradox_within, plays_left, quickest_paradox
from catbox_solver.dd.search import Search
from catbox_solver.errors import SearchError
from catbox_solver.model.position import Position
from catbox_solver.model.rules import PRESETS, Ruleset
from catbox_solver.puzzles import load_puzzle, solve_puzzle


def _position(seed: int, players: int) -> tuple[Position, int] | None:
    """A position 1-3 tricks before the end of a seeded round (half along a paradox-free
    line, half along random play) with a tree small enough for the plain minimax."""
    rng = random.Random(seed)
    rules = Ruleset.from_name(rng.choice(list(PRESETS)), players)
    pos = start_position(rules, rng, distinct_discards=True)
    if rng.random() < 0.5:
        plays = paradox_free_line(pos, 5000, seed=rng.randrange(10**6))
        if plays is None:
            return None
        line = replay(pos, plays)
    else:
        line = random_line(pos, rng)
    cands = [p for p in line if 0 < p.tricks_left <= 3 and p.legal_plays()]
    if not cands:
        return None
    p = rng.choice(cands)
    if tree_size(p, 5_000) >= 5_000:
        return None
    return p, rng.randrange(players)


def _check(pos: Position, hero: int) -> float:
    want = paradox_distance(pos, hero)
    got = quickest_paradox(pos, hero)
    safe = Search(pos, hero).exact("paradox")
    assert (got is None) == (want == float("inf")) == bool(safe)
    # the bounded question agrees at every depth
    for k in range(plays_left(pos) + 1):
        assert paradox_within(pos, hero, k) == (want <= k)
    if got is None:
        return want
    assert got.plays == want
    assert len(got.line) == got.plays
    final = replay(pos, got.line)[-1]  # legal, through the checked Position.play
    assert final.is_paradox and final.paradox_by == hero
    # along the line: each seat's play keeps the distance (the others never dawdle, the
    # hero never gives up early): the distance drops by exactly one per play
    for k, p in enumerate(replay(pos, got.line)):
        assert paradox_distance(p, hero) == want - k
    return want


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from((2, 3, 4, 5)))
def test_quickest_paradox_equals_the_plain_minimax(seed: int, players: int) -> None:
    found = _position(seed, players)
    if found is not None:
        _check(*found)


def test_both_outcomes_and_every_player_count_are_met() -> None:
    """The property above on fixed seeds, so that each player count meets a forced paradox
    of several plays and a hero that is safe."""
    met: dict[int, set[str]] = {n: set() for n in (2, 3, 4, 5)}
    seed = 0
    while any(len(m) < 2 for m in met.values()):
        seed += 1
        assert seed < 2000, met
        n = 2 + seed % 4
        found = _position(seed, n)
        if found is None:
            continue
        d = _check(*found)
        met[n].add("safe" if d == float("inf") else "forced" if d >= 2 else "now")


def test_the_search_line_can_be_longer_or_shorter_than_the_forced_one() -> None:
    """Why puzzles use this search: the paradox search's line after 5g (4 players) has 5
    plays where the others force the paradox in 4 (so 5g is not tempting); after 3r (3
    players) its line has 4 plays where the hero can hold out for 5."""
    pz = load_puzzle("puzzles/avoid-paradox-4p-a612a77a.toml")
    after = pz.position.play("5g")
    forced = quickest_paradox(after, pz.seat)
    assert forced is not None and forced.plays == 3
    assert [p.text for p in forced.line] == ["2y", "6b", "6y"]
    assert len(Search(after, pz.seat).principal_variation("paradox", False)) == 4
    verdict = {v.play.text: v for v in solve_puzzle(pz).verdicts}["5g"]
    assert [p.text for p in verdict.line] == ["5g", "2y", "6b", "6y"]
    assert not verdict.tempting

    pz = load_puzzle("puzzles/red-lead-3p-dae4774f.toml")
    after = pz.position.play("3r")
    forced = quickest_paradox(after, pz.seat)
    assert forced is not None and forced.plays == 4
    assert len(Search(after, pz.seat).principal_variation("paradox", False)) == 3


def test_a_paradox_position_and_a_finished_round() -> None:
    stuck = None
    for seed in range(200):
        for p in random_line(start_position(Ruleset.from_name("official", 3), seed), seed):
            if p.is_paradox:
                stuck = p
                break
        if stuck is not None:
            break
    assert stuck is not None and stuck.paradox_by is not None
    found = quickest_paradox(stuck, stuck.paradox_by)
    assert found is not None and (found.plays, found.line) == (0, ())
    other = (stuck.paradox_by + 1) % 3
    assert quickest_paradox(stuck, other) is None
    assert plays_left(stuck) >= 0


def test_bad_arguments_are_search_errors() -> None:
    pos = start_position(Ruleset.from_name("official", 4), 1)
    for hero in (-1, 4, True, 1.5, "0"):
        with pytest.raises(SearchError, match="hero seat"):
            quickest_paradox(pos, hero)  # type: ignore[arg-type]
    with pytest.raises(SearchError):
        quickest_paradox(None, 0)  # type: ignore[arg-type]
    # (a NaN deadline was never reached; a bound of plays that is not a whole number)
    with pytest.raises(SearchError, match="deadline"):
        quickest_paradox(pos, 0, deadline=float("nan"))
    for plays in (-1, 2.5, True, None):
        with pytest.raises(SearchError, match="plays"):
            paradox_within(pos, 0, plays)  # type: ignore[arg-type]


def test_a_past_deadline_stops_the_search() -> None:
    pz = load_puzzle("puzzles/avoid-paradox-5p-1d348ac6.toml")
    with pytest.raises(OutOfTime):
        quickest_paradox(pz.position.play("9y"), pz.seat, deadline=0.0)
