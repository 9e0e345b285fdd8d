"""Perft: the number of distinct play sequences to depth 1-4 from fixed positions, pinned as
literal tables (as chess engines pin their move generator). A paradox or a finished round is
a leaf that stops (it counts 1 at whatever depth it is reached).

The positions are the first lead of a seeded deal (``deal(Ruleset(players=n), 100 + n)``,
each seat discarding its highest card, predictions 1, 2, 3, ... cycling through the allowed
choices) and a mid-round position reached from it by fixed plays; the hands are written out
here so the tables depend on the rules engine only. Depths 1-2 are cross-checked by an
independent brute force written from RULES.md (every (value, color) pair filtered by the
rules text, applied by a separate tiny model)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from catbox_solver.model.position import Position, neutral_mask
from catbox_solver.model.rules import Ruleset

START: dict[int, tuple[list[list[int]], list[int] | None, tuple[int, ...]]] = {
    # players: (hands after discards, predictions, revealed leftovers for neutral tokens)
    2: ([[1, 1, 1, 2, 2, 3, 4, 4, 5], [1, 2, 2, 3, 3, 3, 4, 4, 5]], None, (2, 3, 4)),
    3: (
        [[1, 2, 2, 2, 3, 3, 4, 4, 5], [1, 1, 2, 3, 3, 4, 4, 5, 6], [1, 1, 2, 3, 4, 5, 5, 6, 6]],
        [1, 3, 4],
        (),
    ),
    4: (
        [
            [2, 2, 3, 4, 4, 5, 6, 7, 8],
            [2, 2, 4, 4, 4, 5, 6, 6, 7],
            [1, 1, 3, 5, 5, 6, 7, 7, 7],
            [1, 1, 1, 2, 3, 3, 3, 5, 6],
        ],
        [1, 2, 3, 1],
        (),
    ),
    5: (
        [
            [1, 4, 5, 5, 6, 7, 7, 9],
            [1, 1, 2, 4, 5, 6, 6, 8],
            [2, 2, 3, 3, 4, 6, 6, 7],
            [1, 2, 3, 3, 3, 4, 7, 9],
            [1, 2, 4, 5, 5, 7, 8, 8],
        ],
        [1, 2, 3, 1, 2],
        (),
    ),
}

MID_PLAYS = {
    # seeded random legal plays from the start position into trick 4 (one play made)
    2: "3y 5g 4y 2r 2b 4b 1r",
    3: "1y 1b 5b 5y 3b 1r 6b 4y 3r 4r",
    4: "6b 2y 7g 2g 3y 5g 6r 5r 1r 3r 4g 7r 2r",
    5: "7y 5g 2g 7g 7b 5y 8g 7r 2r 5b 3b 1b 4r 9r 4b 1g",
}

PERFT_START = {
    2: [12, 192, 1868, 21850],
    3: [15, 345, 7590, 104184],
    4: [21, 405, 7626, 137508],
    5: [18, 420, 7980, 175770],
}

PERFT_MID = {
    2: [5, 27, 76, 226],
    3: [11, 62, 443, 2322],
    4: [2, 4, 40, 60],
    5: [5, 31, 140, 388],
}

# the start positions under other readings of the rules
PERFT_VARIANTS = {
    (2, "quickref-red-lead"): [12, 192, 1868, 21850],
    (2, "per-card-red-lead"): [12, 192, 1872, 21890],
    (2, "czech-color-loss"): [12, 192, 1820, 20911],
    (2, "must-follow"): [12, 42, 380, 1100],
    (3, "quickref-red-lead"): [15, 345, 7590, 104184],
    (3, "per-card-red-lead"): [15, 345, 7590, 104202],
    (3, "czech-color-loss"): [15, 345, 7590, 102327],
    (3, "must-follow"): [15, 75, 300, 4008],
    (4, "quickref-red-lead"): [21, 405, 7626, 137508],
    (4, "per-card-red-lead"): [21, 405, 7626, 137508],
    (4, "czech-color-loss"): [21, 405, 7626, 137508],
    (4, "must-follow"): [21, 90, 345, 1050],
    (5, "quickref-red-lead"): [18, 420, 7980, 175770],
    (5, "per-card-red-lead"): [18, 420, 7980, 175770],
    (5, "czech-color-loss"): [18, 420, 7980, 175770],
    (5, "must-follow"): [18, 96, 384, 1539],
}


def perft(pos: Position, depth: int) -> int:
    """Distinct play sequences of ``depth`` plays; a position with no legal play (paradox or
    finished round) is a leaf."""
    if depth == 0:
        return 1
    legal = pos.legal_plays()
    if not legal:
        return 1
    if depth == 1:
        return len(legal)
    return sum(perft(pos.after(p), depth - 1) for p in legal)


def fixed_first_lead(players: int, spec: str = "official") -> Position:
    """The fixed round of START at its first lead (seat 0 leads) under the reading ``spec``:
    the same hands every run, so that the perft counts can be pinned."""
    hands, preds, revealed = START[players]
    return Position.new_round(Ruleset.from_name(spec, players), hands, 0, preds, revealed)


def mid_position(players: int) -> Position:
    pos = fixed_first_lead(players)
    for text in MID_PLAYS[players].split():
        pos = pos.play(text)
    return pos


def test_positions_are_as_described() -> None:
    for n in (2, 3, 4, 5):
        start = fixed_first_lead(n)
        assert start.to_move == 0 and start.tricks_played == 0
        mid = mid_position(n)
        assert mid.tricks_played == 3 and len(mid.trick) == 1 and not mid.is_over
    assert fixed_first_lead(2).neutral == neutral_mask((2, 3, 4))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_perft_start(players: int) -> None:
    pos = fixed_first_lead(players)
    assert [perft(pos, d) for d in range(1, 5)] == PERFT_START[players]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_perft_mid(players: int) -> None:
    pos = mid_position(players)
    assert [perft(pos, d) for d in range(1, 5)] == PERFT_MID[players]


@pytest.mark.parametrize(("players", "spec"), sorted(PERFT_VARIANTS))
def test_perft_variants(players: int, spec: str) -> None:
    pos = fixed_first_lead(players, spec)
    assert [perft(pos, d) for d in range(1, 5)] == PERFT_VARIANTS[(players, spec)]


# ---- an independent brute force from the rules text ----------------------------------------


@dataclass
class Simple:
    """A round state written out plainly: board cell (color, value) -> seat (-1 neutral)."""

    players: int
    values: int
    board: dict[tuple[int, int], int]
    hands: list[list[int]]
    colors: list[set[int]]
    leader: int
    trick: list[tuple[int, int]] = field(default_factory=list)
    tricks_left: int = 8
    red_lead: str = "exception"
    color_loss: str = "led"
    following: str = "free"


def simple_from(pos: Position) -> Simple:
    r = pos.rules
    board: dict[tuple[int, int], int] = {}
    for c in range(4):
        for v in range(1, r.values + 1):
            owner = pos.owner_of(v, c)
            if owner is not None:
                board[(c, v)] = owner
    return Simple(
        r.players,
        r.values,
        board,
        [list(h) for h in pos.hands],
        [{c for c in range(4) if pos.colors[s] >> c & 1} for s in range(r.players)],
        pos.leader,
        [(p.value, p.color) for p in pos.trick],
        pos.tricks_left,
        r.red_lead,
        r.color_loss,
        r.following,
    )


def simple_legal(s: Simple) -> list[tuple[int, int]]:
    """RULES.md 'Playing a card', pair by pair."""
    if s.tricks_left == 0:
        return []
    p = (s.leader + len(s.trick)) % s.players

    def rules_1_2(v: int, c: int) -> bool:
        return v in s.hands[p] and (c, v) not in s.board and c in s.colors[p]

    pairs = [(v, c) for v in range(1, s.values + 1) for c in range(4) if rules_1_2(v, c)]
    if not s.trick:
        red_broken = any(c == 0 for (c, _v) in s.board)
        if red_broken:
            return pairs
        non_red = [(v, c) for v, c in pairs if c != 0]
        if s.red_lead == "exception":
            return non_red if non_red else pairs
        if s.red_lead == "never":
            return non_red
        # per-card: a card may be led red only if that card has no legal non-red color
        return [(v, c) for v, c in pairs if c != 0 or not any(w == v for w, _ in non_red)]
    if s.following == "must-follow":
        led = s.trick[0][1]
        follow = [(v, c) for v, c in pairs if c == led]
        if follow:
            return follow
    return pairs


def simple_after(s: Simple, v: int, c: int) -> Simple:
    p = (s.leader + len(s.trick)) % s.players
    board = dict(s.board)
    board[(c, v)] = p
    hands = [list(h) for h in s.hands]
    hands[p].remove(v)
    colors = [set(cs) for cs in s.colors]
    if s.trick and c != s.trick[0][1]:
        colors[p].discard(s.trick[0][1] if s.color_loss == "led" else c)
    trick = [*s.trick, (v, c)]
    leader, left = s.leader, s.tricks_left
    if len(trick) == s.players:
        reds = [(val, i) for i, (val, col) in enumerate(trick) if col == 0]
        led = [(val, i) for i, (val, col) in enumerate(trick) if col == trick[0][1]]
        leader = (s.leader + max(reds or led)[1]) % s.players
        trick = []
        left -= 1
    return Simple(
        s.players, s.values, board, hands, colors, leader, trick, left,
        s.red_lead, s.color_loss, s.following,
    )  # fmt: skip


def simple_perft(s: Simple, depth: int) -> int:
    if depth == 0:
        return 1
    legal = simple_legal(s)
    if not legal:
        return 1
    return sum(simple_perft(simple_after(s, v, c), depth - 1) for v, c in legal)


def all_positions() -> list[tuple[str, Position]]:
    out = []
    for n in (2, 3, 4, 5):
        out.append((f"{n}p start", fixed_first_lead(n)))
        out.append((f"{n}p mid", mid_position(n)))
    for n, spec in sorted(PERFT_VARIANTS):
        out.append((f"{n}p {spec}", fixed_first_lead(n, spec)))
    return out


@pytest.mark.parametrize(("name", "pos"), all_positions())
def test_brute_force_depth_1_2(name: str, pos: Position) -> None:
    s = simple_from(pos)
    assert sorted(simple_legal(s)) == sorted((p.value, p.color) for p in pos.legal_plays())
    for depth in (1, 2):
        assert simple_perft(s, depth) == perft(pos, depth), (name, depth)
    # the next positions agree too, child by child
    for play in pos.legal_plays():
        child = pos.after(play)
        sc = simple_after(s, play.value, play.color)
        assert sorted(simple_legal(sc)) == sorted((p.value, p.color) for p in child.legal_plays())


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_brute_force_deeper(players: int) -> None:
    """The independent model agrees with the pinned tables deeper too: depth 4 on the small
    mid-round trees, depth 3 from the first lead."""
    assert simple_perft(simple_from(mid_position(players)), 4) == PERFT_MID[players][3]
    assert simple_perft(simple_from(fixed_first_lead(players)), 3) == PERFT_START[players][2]
