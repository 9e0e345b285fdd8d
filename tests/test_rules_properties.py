"""Properties of the rules engine over seeded random rounds, every player count and several
readings of the rules (hypothesis draws the seeds), and of paradox-free rounds found by a
small search (random play almost never finishes a round without a paradox)."""

from __future__ import annotations

import copy
import pickle
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracles.gen import paradox_free_round, random_line, replay, start_position

from catbox_solver.errors import IllegalPlayError, PositionError
from catbox_solver.model.deal import deck
from catbox_solver.model.position import PLAYS, Play, Position, cell_bit, largest_group
from catbox_solver.model.rules import RED, SCORE_ONLY, SWITCHES, Ruleset

SPECS = [
    "official",
    "quickref-red-lead",
    "per-card-red-lead",
    "czech-color-loss",
    "must-follow",
    "interrupted-removed",
    "diagonal-bonus",
]


def rules_for(players: int, spec: str) -> Ruleset:
    return Ruleset.from_name(spec, players)


round_setup = st.tuples(
    st.sampled_from([2, 3, 4, 5]),
    st.sampled_from(SPECS + ["two-player-prediction"]),
    st.integers(0, 2**32 - 1),
)


def expected_winner(trick: tuple[Play, ...]) -> int:
    """Index of the winning play, from the rules text: highest red if any red was played,
    else the highest value of the led color."""
    reds = [(p.value, i) for i, p in enumerate(trick) if p.color == RED]
    if reds:
        return max(reds)[1]
    return max((p.value, i) for i, p in enumerate(trick) if p.color == trick[0].color)[1]


def expected_rule(pos: Position, play: Play) -> str:
    """Which rule an illegal play in hand breaks, in the order the engine names them."""
    p = pos.to_move
    if pos.used & cell_bit(play.value, play.color):
        return "rule 1"
    if not pos.colors[p] >> play.color & 1:
        return "rule 2"
    return "red lead" if not pos.trick else "must follow"


def expected_legal(pos: Position, play: Play) -> bool:
    """Whether ``play`` (its value in hand) is legal, worked out from the rules text and
    the ruleset's switches on its own (the red lead and must-follow were not checked
    here: expected_rule named any other refusal one of them, audit)."""
    p = pos.to_move
    rules = pos.rules

    def open_cell(v: int, c: int) -> bool:  # rules 1 and 2
        return not pos.used & cell_bit(v, c) and bool(pos.colors[p] >> c & 1)

    if not open_cell(play.value, play.color):
        return False
    hand = set(pos.hands[p])
    if not pos.trick:
        if play.color != RED:
            return True
        if any(pos.used & cell_bit(v, RED) for v in range(1, rules.values + 1)):
            return True  # red is broken (no neutral token is ever red)
        if rules.red_lead == "never":
            return False
        values = [play.value] if rules.red_lead == "per-card" else hand
        return not any(open_cell(v, c) for v in values for c in range(4) if c != RED)
    led = pos.trick[0].color
    if rules.following == "must-follow" and play.color != led:
        return not any(open_cell(v, led) for v in hand)
    return True


def check_legal_plays(pos: Position) -> None:
    legal = pos.legal_plays()
    assert len(set(legal)) == len(legal), "a play listed twice"
    assert list(legal) == sorted(legal), "not ordered by value then color"
    p = pos.to_move
    for v in set(pos.hands[p]):
        for c in range(4):
            play = PLAYS[v][c]
            assert (play in legal) is expected_legal(pos, play), play
            if play in legal:
                assert pos.why_illegal(play) is None
                assert pos.play(play) == pos.after(play)
            else:
                rule = expected_rule(pos, play)
                assert pos.why_illegal(play) == rule
                with pytest.raises(IllegalPlayError) as info:
                    pos.play(play)
                assert info.value.rule == rule
    for play in legal:
        assert play.value in pos.hands[p]
        assert not pos.used & cell_bit(play.value, play.color)
        assert pos.colors[p] >> play.color & 1
    # values not in hand are refused too
    for v in range(1, pos.rules.values + 1):
        if v not in pos.hands[p]:
            assert pos.why_illegal(PLAYS[v][1]) == "card not in hand"


def check_step(prev: Position, play: Play, nxt: Position) -> None:
    """One play: its token, the hand, colors, and (trick complete) the winner."""
    n = prev.rules.players
    seat = prev.to_move
    bit = cell_bit(play.value, play.color)
    assert not prev.used & bit, "cell used twice"
    assert nxt.owners[seat] == prev.owners[seat] | bit
    assert nxt.used == prev.used | bit
    assert all(nxt.owners[s] == prev.owners[s] for s in range(n) if s != seat)
    assert Counter(prev.hands[seat]) - Counter(nxt.hands[seat]) == Counter([play.value])
    # a lost color never comes back; only the off-color follower loses one, and only one
    assert nxt.colors[seat] & ~prev.colors[seat] == 0
    assert all(nxt.colors[s] == prev.colors[s] for s in range(n) if s != seat)
    if prev.trick and play.color != prev.trick[0].color:
        led = prev.trick[0].color
        lost = led if prev.rules.color_loss == "led" else play.color
        assert nxt.colors[seat] == prev.colors[seat] & ~(1 << lost)
    else:
        assert nxt.colors[seat] == prev.colors[seat]
    if len(prev.trick) == n - 1:
        trick = (*prev.trick, play)
        winner = (prev.leader + expected_winner(trick)) % n
        assert nxt.leader == winner
        assert nxt.trick == ()
        assert nxt.tricks_left == prev.tricks_left - 1
        assert [a - b for a, b in zip(nxt.tricks_won, prev.tricks_won, strict=True)] == [
            1 if s == winner else 0 for s in range(n)
        ]
    else:
        assert nxt.trick == (*prev.trick, play)
        assert nxt.tricks_won == prev.tricks_won


def check_position(pos: Position, played: list[int]) -> None:
    """Counting facts of any position: ``played`` is each seat's mask of plays so far."""
    rules = pos.rules
    n = rules.players
    assert list(pos.owners) == played
    assert bin(pos.used).count("1") == sum(bin(m).count("1") for m in played) + (
        rules.neutral_tokens
    )
    in_trick = {(pos.leader + i) % n for i in range(len(pos.trick))}
    for s in range(n):
        assert len(pos.hands[s]) == pos.tricks_left + 1 - (s in in_trick)
        assert bin(pos.owners[s]).count("1") == pos.tricks_played + (s in in_trick)
    assert sum(pos.tricks_won) == pos.tricks_played
    assert pos.to_move == (pos.leader + len(pos.trick)) % n


def check_scores(end: Position) -> None:
    rules = end.rules
    scores = end.scores()
    causer = end.paradox_by
    for s in range(rules.players):
        t = end.tricks_won[s]
        if s == causer:
            assert end.trick_points(s) == -t
            assert end.bonus(s) == 0
            assert scores[s] == -t
            continue
        assert end.trick_points(s) == t
        if rules.players == 2 and rules.two_player_bonus == "at-most-4":
            met = t <= 4
        else:
            assert end.predictions is not None
            met = t == end.predictions[s]
        owners = end.owners[s]
        if causer is not None and rules.interrupted_trick == "removed":
            for i, p in enumerate(end.trick):
                if (end.leader + i) % rules.players == s:
                    owners &= ~cell_bit(p.value, p.color)
        group = largest_group(owners, rules.row_order, rules.adjacency == "diagonal")
        assert end.bonus(s) == (group if met else 0)
        assert scores[s] == t + (group if met else 0)


@given(round_setup)
def test_random_rounds(setup: tuple[int, str, int]) -> None:
    players, spec, seed = setup
    if spec == "two-player-prediction" and players != 2:
        spec = "official"
    rules = rules_for(players, spec)
    line = random_line(start_position(rules, seed), seed + 1)
    played = [0] * players
    for prev, nxt in zip(line, line[1:], strict=False):
        check_position(prev, played)
        check_legal_plays(prev)
        # the play that led from prev to nxt is the one new token
        bit = nxt.used & ~prev.used
        i = bit.bit_length() - 1
        play = PLAYS[(i >> 2) + 1][i & 3]
        check_step(prev, play, nxt)
        played[prev.to_move] |= bit
    end = line[-1]
    check_position(end, played)
    assert end.is_over
    assert end.legal_plays() == ()
    if end.tricks_left > 0:
        assert end.is_paradox and end.paradox_by == end.to_move
        seat = end.to_move
        for v in set(end.hands[seat]):
            for c in range(4):
                if end.used >> ((v - 1) * 4 + c) & 1:
                    expected = "rule 1"
                elif not end.colors[seat] >> c & 1:
                    expected = "rule 2"
                else:
                    expected = "red lead" if not end.trick else "must follow"
                assert end.why_illegal(PLAYS[v][c]) == expected
    else:
        assert not end.is_paradox and end.paradox_by is None
    check_scores(end)


def fill_case(players: int, spec: str, seed: int) -> tuple[Position, list[Play]]:
    return paradox_free_round(rules_for(players, spec), seed)


@pytest.mark.parametrize("spec", ["official", "must-follow", "czech-color-loss"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [11, 2024])
def test_paradox_free_round_fills_the_board(players: int, spec: str, seed: int) -> None:
    start, plays = fill_case(players, spec, seed)
    rules = start.rules
    assert len(plays) == rules.tricks * players
    line = replay(start, plays)
    played = [0] * players
    for prev, play, nxt in zip(line[:-1], plays, line[1:], strict=True):
        check_step(prev, play, nxt)
        played[prev.to_move] |= cell_bit(play.value, play.color)
        check_position(nxt, played)
    end = line[-1]
    assert end.tricks_left == 0 and end.is_over and not end.is_paradox
    assert all(len(h) == 1 for h in end.hands)
    assert sum(end.tricks_won) == rules.tricks
    empty = rules.cells - bin(end.used).count("1")
    assert empty == {2: 1, 3: 0, 4: 0, 5: 1}[players]
    if players == 2:
        assert bin(end.neutral).count("1") == 3
    if players in (3, 4):
        # every value: exactly one copy among the discards and the final unplayed cards
        dealt = Counter(deck(rules))
        discards = dealt - sum((Counter(h) for h in start.hands), Counter())
        kept = sum((Counter(h) for h in end.hands), Counter())
        assert discards + kept == Counter(range(1, rules.values + 1))
    check_scores(end)


@given(st.sampled_from([2, 3, 4, 5]), st.integers(0, 2**32 - 1))
def test_play_and_after_agree_and_positions_validate(players: int, seed: int) -> None:
    """Every position along a random line is valid when rebuilt from its fields, equal and
    hash-equal to the one ``after`` made."""
    rules = Ruleset(players=players)
    for pos in random_line(start_position(rules, seed), seed):
        rebuilt = Position(
            pos.rules, pos.owners, pos.neutral, pos.hands, pos.colors, pos.leader,
            pos.trick, pos.tricks_won, pos.predictions, pos.tricks_left,
        )  # fmt: skip
        assert rebuilt == pos and hash(rebuilt) == hash(pos)


PLAY_SPECS = ["official", "quickref-red-lead", "per-card-red-lead", "czech-color-loss",
              "must-follow"]


@given(
    players=st.sampled_from([2, 3, 4, 5]),
    base=st.sampled_from(PLAY_SPECS),
    interrupted=st.sampled_from(SWITCHES["interrupted_trick"]),
    adjacency=st.sampled_from(SWITCHES["adjacency"]),
    bonus=st.sampled_from(SWITCHES["two_player_bonus"]),
    rows=st.permutations("RBYG"),
    seed=st.integers(0, 2**32 - 1),
)
def test_score_only_switches_change_no_play(
    players: int, base: str, interrupted: str, adjacency: str, bonus: str, rows: list[str],
    seed: int,
) -> None:
    """The switches of SCORE_ONLY and the row order change no legal play, no trick and no
    paradox: a random round replayed under any setting of them has the same legal plays at
    every step and ends the same (rules diff answers every question but the score at once
    for two readings that differ only there)."""
    rules = rules_for(players, base)
    other = rules.with_switches(interrupted_trick=interrupted, adjacency=adjacency,
                                two_player_bonus=bonus, row_order="".join(rows))
    assert set(SCORE_ONLY) == {"interrupted_trick", "adjacency", "two_player_bonus"}
    assert other.for_play() == rules.for_play() == rules_for(players, base)
    line = random_line(start_position(rules, seed), seed)
    there = line[0].with_rules(other)
    for pos, after in zip(line, line[1:], strict=False):
        assert there.legal_plays() == pos.legal_plays()
        (play,) = [p for p in pos.legal_plays() if pos.after(p) == after]
        there = there.play(play)
    assert (there.tricks_won, there.paradox_by, there.tricks_left, there.used) == (
        line[-1].tricks_won, line[-1].paradox_by, line[-1].tricks_left, line[-1].used)
    assert there.legal_plays() == line[-1].legal_plays()


@given(round_setup)
def test_positions_pickle_and_copy_as_themselves(setup: tuple[int, str, int]) -> None:
    """A pickled Position comes back equal, with the same legal plays and notation (it is
    rebuilt through its checked constructor); copies are the Position itself (immutable)."""
    players, spec, seed = setup
    rules = rules_for(players, spec)
    for pos in random_line(start_position(rules, seed), seed):
        back = pickle.loads(pickle.dumps(pos))
        assert back == pos and hash(back) == hash(pos)
        assert back.legal_plays() == pos.legal_plays()
        assert back.notation() == pos.notation()
        assert copy.copy(pos) is pos and copy.deepcopy(pos) is pos


def test_unpickling_checks_the_position() -> None:
    """A pickled Position that breaks the rules (built unchecked, as the fast paths may)
    does not load silently: unpickling runs the constructor's check (here one cell
    claimed by every seat)."""
    pos = start_position(Ruleset(players=3), 5)
    pos = pos.play(pos.legal_plays()[0])
    mine = pos.owners[pos.leader]
    bad = Position(pos.rules, tuple(mine for _ in pos.owners), pos.neutral, pos.hands,
                   pos.colors, pos.leader, pos.trick, pos.tricks_won, pos.predictions,
                   pos.tricks_left, validate=False)
    data = pickle.dumps(bad)
    with pytest.raises(PositionError, match="holds two tokens"):
        pickle.loads(data)
