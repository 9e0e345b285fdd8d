"""The compiled search's move generator, counting facts and cut-offs (dd/kernel.py)
against the rules engine: every claim a cut-off makes is checked by brute force over
``Position`` where it fires, and how often each fires on the seeded positions is pinned
(a slip in a guard bit or a mask changes how often a cut-off fires while every answer
stays right: only the pinned counts see it). The kernel's move order against the rules
its docstrings give."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import numpy as np
import pytest
from kernel_cases import (
    RULESETS,
    Memo,
    case_positions,
    core_for,
    rest_value,
    round_lines,
    round_positions,
)
from oracles.minimax_ref import minimax, tree_size

from catbox_solver.dd.fast import FastState
from catbox_solver.dd.kernel import (
    B_SIZE,
    LEARNED_TL,
    S_TL,
    _duck,
    _loser_margin,
    _losing_cells,
    _low_follow,
    _lowest,
    _surely_free,
    bounds,
    capacity,
    capacity_holds,
    gen_plays,
    hero_ducks,
    hero_ducks_twice,
    red_holds,
    safe,
    wins_then_safe,
)
from catbox_solver.dd.kernel.order import _order_learned
from catbox_solver.formats.notation import position_from_notation
from catbox_solver.model.position import Play, Position, trick_winner_index

Cell = tuple[int, int]  # (value, color)


# ---- the move generator ------------------------------------------------------------------
def test_gen_plays_is_fast_state_legal() -> None:
    """Same plays in the same order as FastState.legal and Position.legal_plays on every
    position of random rounds of every ruleset, finished and paradox positions included."""
    out = np.zeros(40, np.int64)
    checked = empty = following = 0
    for pos in round_positions():
        fs = FastState(pos)
        core = core_for(fs, 0, tt_bits=1)
        k = gen_plays(core.s, out)
        got = [(int(x) >> 2, int(x) & 3) for x in out[:k]]
        expect = [(p.value, p.color) for p in fs.legal()]
        assert got == expect, repr(pos)
        assert expect == [(p.value, p.color) for p in pos.legal_plays()]
        checked += 1
        empty += not expect
        following += bool(pos.trick)
    assert (checked, empty, following) == (2693, 128, 1840)


# ---- references over Position ------------------------------------------------------------
def _cells(pos: Position, seat: int, cols: int | None = None) -> set[Cell]:
    """The free cells of the values ``seat`` holds, in its colors (or in ``cols``)."""
    cols = pos.colors[seat] if cols is None else cols
    return {
        (v, c)
        for v in set(pos.hands[seat])
        for c in range(4)
        if cols >> c & 1 and not pos.used >> (4 * v - 4 + c) & 1
    }


def _mask(cells: set[Cell]) -> int:
    return sum(1 << (4 * v - 4 + c) for v, c in cells)


def _loses(card: Cell, c: int, best: int, red: bool) -> bool:
    """Does ``card`` fail to win a trick led in color ``c`` whose winning card is ``best``
    (red if ``red``)? (The rules engine's trick_winner_index.)"""
    if card == ((best, 0) if red else (best, c)):
        return False  # (the winning card's own cell: taken, never a play)
    trick = [Play(best, c)] if not red or c == 0 else [Play(1, c), Play(best, 0)]
    return trick_winner_index([*trick, Play(*card)]) != len(trick)


def _fillers(pos: Position, seats: list[int], cells: set[Cell], rows: dict[int, int]) -> dict[
    int, set[Cell]
]:
    """For each seat, the ``cells`` it could fill: a value it holds, in a color it has
    (and in ``rows[seat]`` if given)."""
    return {
        i: {(v, c) for v, c in cells if v in pos.hands[i]
            and (pos.colors[i] & rows.get(i, 15)) >> c & 1}
        for i in seats
    }


def _saturable(cells: set[Cell], fillers: dict[int, set[Cell]]) -> bool:
    """Can the seats, one cell each, fill every one of ``cells``? (A matching of cells to
    seats, augmenting paths.)"""
    if len(cells) > len(fillers):
        return False
    owner: dict[int, Cell] = {}

    def place(cell: Cell, seen: set[int]) -> bool:
        for i, can in fillers.items():
            if cell in can and i not in seen:
                seen.add(i)
                if i not in owner or place(owner[i], seen):
                    owner[i] = cell
                    return True
        return False

    return all(place(cell, set()) for cell in cells)


def _most_filled(
    pos: Position, cells: set[Cell], fills: dict[int, int], rows: dict[int, int]
) -> int:
    """The most of ``cells`` the seats can fill, seat i at most ``fills[i]`` cells and at
    most its copies of each value, only of values it holds in colors it has (a maximum
    flow: seat, then seat and value, then cell)."""
    can = _fillers(pos, list(fills), cells, rows)
    cap: dict[object, dict[object, int]] = {"s": {}}
    for i, f in fills.items():
        cap["s"][("seat", i)] = f
        cap[("seat", i)] = {}
        for v, c in can[i]:
            cap[("seat", i)][("sv", i, v)] = pos.hands[i].count(v)
            cap.setdefault(("sv", i, v), {})[(v, c)] = 1
            cap.setdefault((v, c), {})["t"] = 1
    for a in list(cap):
        for b in list(cap[a]):
            cap.setdefault(b, {}).setdefault(a, 0)
    flow = 0
    while True:
        prev: dict[object, object] = {"s": None}
        queue: list[object] = ["s"]
        while queue and "t" not in prev:
            a = queue.pop(0)
            for b, left in cap[a].items():
                if left > 0 and b not in prev:
                    prev[b] = a
                    queue.append(b)
        if "t" not in prev:
            return flow
        b = "t"
        while prev[b] is not None:
            a = prev[b]
            cap[a][b] -= 1
            cap[b][a] += 1
            b = a
        flow += 1


def _draws(seed: int) -> Iterator[tuple[Position, int, np.ndarray, random.Random]]:
    """Every position of the random rounds, every hero, three times: the kernel state and
    a seeded generator for the arguments."""
    rng = random.Random(seed)
    for pos in round_positions():
        fs = FastState(pos)
        for hero in range(fs.n):
            s = core_for(fs, hero, tt_bits=1).s
            for _ in range(3):
                yield pos, hero, s, rng


def _trick_args(pos: Position, rng: random.Random) -> tuple[int, int, bool, int, int]:
    """A random led color, winning card (value, red or not), first seat and count of seats."""
    n = pos.rules.players
    return (rng.randrange(4), rng.randint(1, pos.rules.values + 1), rng.random() < 0.3,
            rng.randrange(n), rng.randrange(n))


def _between(pos: Position, first: int, m: int) -> list[int]:
    n = pos.rules.players
    return [(first + t) % n for t in range(m)]


# ---- counting facts: capacity, safe, bounds -----------------------------------------------
def test_capacity_counts_the_playable_cells_and_bounds_the_plays() -> None:
    """capacity(seat) is the sum over values of min(copies held, free cells of the value in
    the seat's colors), and along every random round no seat makes more plays than its
    capacity at any earlier point (every seat of every position of every ruleset)."""
    total = tight = 0
    for line in round_lines():
        fs0 = FastState(line[0])
        n = fs0.n
        plays_after = [[0] * n for _ in line]  # plays each seat makes from here on
        for j in range(len(line) - 2, -1, -1):
            plays_after[j] = list(plays_after[j + 1])
            plays_after[j][line[j].to_move] += 1
        for pos, later in zip(line, plays_after, strict=True):
            s = core_for(FastState(pos), 0, tt_bits=1).s
            for seat in range(n):
                got = int(capacity(s, seat))
                cells = _cells(pos, seat)
                expect = sum(min(pos.hands[seat].count(v), sum(1 for w, _ in cells if w == v))
                             for v in set(pos.hands[seat]))
                assert got == expect, (repr(pos), seat)
                assert later[seat] <= got, (repr(pos), seat)
                total += got
                tight += later[seat] == got
    assert (total, tight) == (49700, 1496)


def _survives(pos: Position, seat: int, turns: int, memo: dict[tuple[Position, int], bool]) -> bool:
    """Brute force: can ``seat``, whatever the others play, make sure it has a legal play
    at each of its next ``turns`` turns? (A round that ends first, in a paradox of
    another seat or finished, is fine.)"""
    if turns == 0:
        return True
    got = memo.get((pos, turns))
    if got is None:
        plays = pos.legal_plays()
        if not plays:
            got = pos.paradox_by != seat
        elif pos.to_move == seat:
            got = any(_survives(pos.after(p), seat, turns - 1, memo) for p in plays)
        else:
            got = all(_survives(pos.after(p), seat, turns, memo) for p in plays)
        memo[(pos, turns)] = got
    return got


def test_safe_means_a_play_at_each_turn() -> None:
    """safe(seat, k) for every seat and k in 1..tricks left on every position of random
    rounds of every ruleset: every yes is confirmed by brute force over Position where the
    game tree is small (the seat has a legal play at each of its next k turns, whatever
    the others play); the yes count is pinned."""
    safes = safe_true = brute = 0
    for pos in round_positions():
        fs = FastState(pos)
        s = core_for(fs, 0, tt_bits=1).s
        small = pos.legal_plays() and tree_size(pos, 1000) < 1000
        for seat in range(fs.n):
            memo: dict[tuple[Position, int], bool] = {}
            for k in range(1, fs.tricks_left + 1):
                got = bool(safe(s, seat, k))
                safes += 1
                safe_true += got
                if got and small:
                    brute += 1
                    assert _survives(pos, seat, k, memo), (repr(pos), seat, k)
    assert (safes, safe_true, brute) == (50869, 23293, 3209)


def test_bounds_hold_the_value() -> None:
    """At every trick start of random rounds of every ruleset, for every hero, bounds()
    holds the trick game's value (plain minimax) where the game tree is small; how often
    the bounds are tighter than (-tricks left, tricks left) is pinned."""
    nbounds = tight = brute = 0
    got_los: list[int] = []
    for pos in round_positions():
        tl = pos.tricks_left
        if not tl or pos.trick:
            continue
        fs = FastState(pos)
        small = pos.legal_plays() and tree_size(pos, 3000) < 3000
        memo: Memo = {}
        for hero in range(fs.n):
            lo, hi = (int(x) for x in bounds(core_for(fs, hero, tt_bits=1).s))
            nbounds += 1
            tight += (lo, hi) != (-tl, tl)
            got_los.append(lo)
            if small:
                brute += 1
                assert lo <= rest_value(pos, hero, memo) <= hi, (repr(pos), hero, lo, hi)
    assert (nbounds, tight, brute, sum(got_los)) == (2871, 1034, 802, -11464)


# ---- the counting helpers -----------------------------------------------------------------
def test_lowest_and_losing_cells_follow_the_rules() -> None:
    """_lowest(seat, c) is the lowest value the seat holds with a free cell of color c in
    its colors; _losing_cells(c, best, red, follows) are exactly the hero's free cells
    that do not win the trick (the rules engine's trick winner), of the led color only if
    ``follows``: every position of random rounds, every hero, random arguments."""
    lowest_nonzero = cells_count = 0
    for pos, hero, s, rng in _draws(19):
        c, best, red, _, _ = _trick_args(pos, rng)
        seat = rng.randrange(pos.rules.players)
        vals = [v for v, col in _cells(pos, seat) if col == c]
        got = int(_lowest(s, seat, c))
        assert got == min(vals, default=0), (repr(pos), seat, c)
        lowest_nonzero += got > 0
        for follows in (False, True):
            expect = {x for x in _cells(pos, hero)
                      if _loses(x, c, best, red) and (not follows or x[1] == c)}
            assert int(_losing_cells(s, c, best, red, follows)) == _mask(expect), repr(pos)
            cells_count += len(expect)
    assert (lowest_nonzero, cells_count) == (20092, 241248)


def test_surely_free_means_a_cell_the_seats_cannot_all_fill() -> None:
    """_surely_free(cells, first, m): whenever it says yes, the m seats from ``first`` on,
    one cell each (of a value it holds, in a color it has), cannot fill all of the hero's
    ``cells`` (random subsets of its losing cells; exact by matching); how often it says
    yes, and how often it says no where they cannot, are pinned."""
    checked = yes = missed = 0
    for pos, hero, s, rng in _draws(23):
        c, best, red, first, m = _trick_args(pos, rng)
        lose = [x for x in sorted(_cells(pos, hero)) if _loses(x, c, best, red)]
        cells = {x for x in lose if rng.random() < 0.6}
        got = bool(_surely_free(s, _mask(cells), first, m))
        free = not _saturable(cells, _fillers(pos, _between(pos, first, m), cells, {}))
        assert free or not got, (repr(pos), hero, cells, first, m)
        checked += 1
        yes += got
        missed += free and not got
    assert (checked, yes, missed) == (30231, 21709, 27)


def test_low_follow_means_a_losing_follow_the_seats_cannot_take() -> None:
    """_low_follow(c, best, red, first, m): whenever it says yes, the hero has a color-c
    follow that does not win and that the m seats from ``first`` on (one cell each)
    cannot all take; counts pinned."""
    yes = missed = 0
    for pos, hero, s, rng in _draws(29):
        c, best, red, first, m = _trick_args(pos, rng)
        low = {x for x in _cells(pos, hero) if x[1] == c and _loses(x, c, best, red)}
        got = bool(_low_follow(s, c, best, red, first, m))
        kept = not _saturable(low, _fillers(pos, _between(pos, first, m), low, {}))
        assert kept or not got, (repr(pos), hero, c, best, red, first, m)
        yes += got
        missed += kept and not got
    assert (yes, missed) == (11605, 14)


def _ducks(pos: Position, hero: int, c: int, best: int, red: bool, seats: list[int]) -> bool:
    """Exact: whatever ``seats`` fill (one cell each, of a value held, in a color had),
    does the hero keep a legal play that does not win? With "must follow": a follow if it
    has one left, else any play."""
    mine = _cells(pos, hero)
    lose = {x for x in mine if _loses(x, c, best, red)}
    can = _fillers(pos, seats, mine, {})

    def filled(cells: set[Cell]) -> bool:
        return _saturable(cells, {i: x & cells for i, x in can.items()})

    if pos.rules.following != "must-follow":
        return not filled(lose)
    follows = {x for x in mine if x[1] == c}
    low = follows & lose
    # the seats win by leaving only winning follows, or no follow and no losing play
    return not (filled(low) and follows - low) and not filled(follows | lose)


def test_duck_means_a_legal_losing_play_after_the_fills() -> None:
    """_duck(c, best, red, first, m): whenever it says yes, the hero keeps a legal play
    that does not win whatever the m seats from ``first`` on fill before its turn (exact,
    both following rules); counts pinned."""
    yes = missed = must = 0
    for pos, hero, s, rng in _draws(31):
        c, best, red, first, m = _trick_args(pos, rng)
        got = bool(_duck(s, c, best, red, first, m))
        ok = _ducks(pos, hero, c, best, red, _between(pos, first, m))
        assert ok or not got, (repr(pos), hero, c, best, red, first, m)
        yes += got
        missed += ok and not got
        must += got and pos.rules.following == "must-follow"
    assert (yes, missed, must) == (23786, 275, 2431)


def test_loser_margin_is_a_lower_bound_on_the_losing_plays_kept() -> None:
    """_loser_margin(cols, mult, c, best, nl, rows): the margin is at most the hero's
    losing cells (in ``cols``) less the most the seats can fill (seat i up to its fill
    count and its copies of each value; ``nl`` only in ``rows``; exact by maximum flow),
    less one; ``worst`` is the most one play of the hero takes (all the losing cells of a
    value held once, else one), and ``bad`` the cells of the plays that take more than
    the margin. How often the margin is below its exact value is pinned."""
    checked = slack = negative = bad_cells = 0
    for pos, hero, s, rng in _draws(37):
        n = pos.rules.players
        c, best, _, _, _ = _trick_args(pos, rng)
        nl = rng.randrange(n)
        cols = rng.randrange(16)
        rows = rng.randrange(16)
        fills = {i: rng.randint(1, 3) for i in range(n) if i != hero and rng.random() < 0.7}
        mult = sum(f << (2 * i) for i, f in fills.items())
        margin, worst, bad = (int(x) for x in _loser_margin(s, cols, mult, c, best, nl, rows))
        lose = {x for x in _cells(pos, hero, cols) if _loses(x, c, best, False)}
        exact = len(lose) - _most_filled(pos, lose, fills, {nl: rows}) - 1
        assert margin <= exact, (repr(pos), hero, cols, fills, c, best, nl, rows)
        per_value = {v: {x for x in lose if x[0] == v} for v, _ in lose}
        copies = {v: pos.hands[hero].count(v) for v in per_value}
        assert worst == max((len(x) if copies[v] == 1 else 1 for v, x in per_value.items()),
                            default=0), repr(pos)
        expect = 0
        for v, x in per_value.items():
            if copies[v] == 1 and len(x) > margin:
                expect |= 15 << (4 * v - 4)
            elif copies[v] > 1 and margin < 1:
                expect |= _mask(x)
        assert bad == expect, repr(pos)
        checked += 1
        slack += margin < exact
        negative += margin < 0
        bad_cells += bin(bad).count("1")
    assert (checked, slack, negative, bad_cells) == (30231, 1155, 10000, 68457)


# ---- the cut-offs of the cornered hero and of the hero wanting tricks -----------------------
def _can_duck(pos: Position, hero: int) -> bool:
    """Brute force over the rules engine: whatever the others play before the hero's turn
    in this trick, does the hero then have a legal play that does not win the trick as it
    stands (on lead: that no completion of the trick lets it win)? A seat with no legal
    play ends the round: nothing to duck."""
    plays = pos.legal_plays()
    if pos.to_move != hero:
        return all(_can_duck(pos.after(pl), hero) for pl in plays) if plays else True
    trick = list(pos.trick)
    if not trick:
        return any(_never_wins(pos.after(pl), [pl], hero) for pl in plays)
    return any(trick_winner_index([*trick, pl]) != len(trick) for pl in plays)


def _never_wins(pos: Position, trick: list[Play], hero: int) -> bool:
    """Whatever the others play to complete ``trick`` (the hero's lead first), the hero
    does not win it (or someone has no legal play)."""
    if len(trick) == pos.rules.players:
        return trick_winner_index(trick) != 0
    plays = pos.legal_plays()
    return all(_never_wins(pos.after(pl), [*trick, pl], hero) for pl in plays)


def test_hero_ducks_means_a_losing_play_at_its_turn() -> None:
    """Every time hero_ducks says yes, the hero, whatever the others play before its turn,
    has a legal play that does not win the trick (on lead: a lead that no completion of
    the trick lets win; brute force over Position); on every position of random rounds and
    paradox-free lines of every ruleset (must-follow readings included), for every seat
    not yet played in the trick. Counts pinned."""
    positions = case_positions(11, RULESETS, lines=1)
    checked = yes = leads = must = 0
    for pos in positions:
        if not pos.tricks_left or not pos.legal_plays():
            continue
        fs = FastState(pos)
        for hero in range(fs.n):
            if (hero - fs.leader) % fs.n < len(fs.trick):
                continue
            got = bool(hero_ducks(core_for(fs, hero, tt_bits=1).s))
            checked += 1
            if got and (fs.n < 5 or fs.tricks_left <= 4):  # (brute force: time)
                yes += 1
                leads += hero == fs.leader and not fs.trick
                must += fs.must_follow
                assert _can_duck(pos, hero), (repr(pos), hero)
    assert (checked, yes, leads, must) == (8260, 4754, 300, 501)


def test_wins_then_safe_means_the_hero_wins_a_trick_and_no_paradox() -> None:
    """Every time wins_then_safe says yes, the hero can make sure of at least one more
    trick and no paradox of its own (the plain minimax: trick points above the tricks won
    before this trick); asked where the search asks it: after each play of the hero, and
    at every later point of the trick; positions of random rounds and paradox-free lines
    of every ruleset. Counts pinned."""
    positions = case_positions(17, RULESETS, lines=1)
    checked = yes = brute = completed = 0
    for pos in positions:
        if not pos.tricks_left or not pos.legal_plays():
            continue
        n = pos.rules.players
        cases: list[tuple[Position, int]] = []
        for hero in range(n):
            if (hero - pos.leader) % n < len(pos.trick):
                cases.append((pos, hero))
        cases.extend((pos.after(pl), pos.to_move) for pl in pos.legal_plays())
        for after, hero in cases:
            got = bool(wins_then_safe(core_for(FastState(after), hero, tt_bits=1).s))
            checked += 1
            if got:
                yes += 1
                completed += not after.trick
                if tree_size(after, 20_000) < 20_000:
                    brute += 1
                    won = pos.tricks_won[hero]
                    assert minimax(after, hero, "tricks") >= won + 1, (repr(after), hero)
    assert (checked, yes, brute, completed) == (33893, 750, 544, 256)


def _can_follow_low(pos: Position, hero: int) -> bool:
    """Brute force: whatever the others play before the hero's turn, does it then have a
    legal play of the led color that does not win the trick as it stands?"""
    plays = pos.legal_plays()
    if pos.to_move != hero:
        return all(_can_follow_low(pos.after(pl), hero) for pl in plays) if plays else True
    trick = list(pos.trick)
    return any(
        pl.color == trick[0].color and trick_winner_index([*trick, pl]) != len(trick)
        for pl in plays
    )


def test_low_follow_means_a_losing_follow_at_its_turn() -> None:
    """Every time _low_follow says yes in a trick under way, the hero, whatever the others
    play before its turn, has a legal follow that does not win (brute force over
    Position); every seat not yet played, on the positions of random rounds and
    paradox-free lines of every ruleset. Counts pinned, and the follows that only the
    seats before the hero can take."""
    positions = [p for p in case_positions(13, RULESETS, lines=1) if p.trick]
    checked = yes = stolen = 0
    for pos in positions:
        if not pos.legal_plays():
            continue
        fs = FastState(pos)
        trick = fs.trick
        best = trick[trick_winner_index(trick)]
        p0 = (fs.leader + len(trick)) % fs.n
        for hero in range(fs.n):
            if (hero - fs.leader) % fs.n < len(trick):
                continue
            m = (hero - p0) % fs.n
            args = (trick[0].color, best.value, best.color == 0, p0, m)
            s = core_for(fs, hero, tt_bits=1).s
            got = bool(_low_follow(s, *args))
            checked += 1
            if got:
                yes += 1
                if fs.n < 5 or fs.tricks_left <= 4:  # (brute force: time)
                    assert _can_follow_low(pos, hero), (repr(pos), hero)
            else:
                # it has such a follow now, but the seats before it might take it
                stolen += bool(_low_follow(s, *args[:4], 0))
    assert (checked, yes, stolen) == (4694, 2528, 345)


def _hero_can(
    pos: Position,
    hero: int,
    verdict: Callable[[Position, tuple[Play, ...]], bool | None],
    memo: dict[Position, bool],
) -> bool:
    """Brute force over the rules engine: can the hero, whatever the others play, reach a
    position where ``verdict`` (given the position and its legal plays) says True? It
    says None to play on; it must decide a position with no legal play."""
    got = memo.get(pos)
    if got is None:
        plays = pos.legal_plays()
        got = verdict(pos, plays)
        if got is None:
            kids = (_hero_can(pos.after(pl), hero, verdict, memo) for pl in plays)
            got = any(kids) if pos.to_move == hero else all(kids)
        memo[pos] = got
    return got


def _loses_twice(pos: Position, hero: int, stop: int) -> bool:
    """Can the hero, whatever the others play, make sure it wins neither this trick nor
    the next (``stop``: the tricks left when both are done)? A seat with no legal play
    ends the round (or is the hero's paradox): done."""

    def verdict(p: Position, plays: tuple[Play, ...]) -> bool | None:
        if p.tricks_won[hero] or p.tricks_left == stop:
            return not p.tricks_won[hero]
        return True if not plays else None

    return _hero_can(pos, hero, verdict, {})


def _seat_test_cases(
    positions: list[Position],
    compiled: Callable[[np.ndarray], bool],
    brute: Callable[[Position, int, FastState], bool],
    small: Callable[[FastState], bool],
) -> dict[str, int]:
    """Asks a yes/no test of the search of every seat on every position with a legal
    play: each "yes" on a position that is ``small`` must pass ``brute`` (given the
    position with the tricks won set to zero). Returns the counts: checked, yes, played
    (the seat had played in the trick), leads (the seat leads a new trick), brute."""
    counts = dict.fromkeys(("checked", "yes", "played", "leads", "brute"), 0)
    for pos in positions:
        if not pos.legal_plays():
            continue
        fs = FastState(pos)
        for hero in range(fs.n):
            got = bool(compiled(core_for(fs, hero, tt_bits=1).s))
            counts["checked"] += 1
            if not got:
                continue
            counts["yes"] += 1
            counts["played"] += (hero - fs.leader) % fs.n < len(fs.trick)
            counts["leads"] += hero == fs.leader and not fs.trick
            if small(fs):
                counts["brute"] += 1
                base = pos._replace(tricks_won=(0,) * fs.n)
                assert brute(base, hero, fs), (repr(pos), hero)
    return counts


def test_hero_ducks_twice_means_two_tricks_lost() -> None:
    """Every time hero_ducks_twice says yes the hero can make sure, whatever the others
    play, to win neither this trick nor the next (brute force over Position, 2-4
    players); on every position of random rounds and paradox-free lines of the official
    readings (no need to follow, the led color lost), for every seat, with at least 3
    tricks left. Some of the yes answers need the hero's choice of its card now (its
    worst card would not do); the test without the choice says yes only where the test
    with it does. Counts pinned."""
    rulesets = [r for r in RULESETS if r.following == "free" and r.color_loss == "led"]
    positions = [p for p in case_positions(12, rulesets) if p.tricks_left >= 3]

    def small(fs: FastState) -> bool:
        return fs.tricks_left <= (4 if fs.n < 5 else 3)  # (brute force: time)

    c = _seat_test_cases(
        positions,
        lambda s: hero_ducks_twice(s, True),
        lambda base, hero, fs: _loses_twice(base, hero, fs.tricks_left - 2),
        small,
    )
    assert tuple(c.values()) == (13977, 5272, 1595, 42, 755)
    chosen = chosen_brute = 0
    for pos in positions:
        if not pos.legal_plays():
            continue
        fs = FastState(pos)
        for hero in range(fs.n):
            s = core_for(fs, hero, tt_bits=1).s
            worst = bool(hero_ducks_twice(s, False))
            choose = bool(hero_ducks_twice(s, True))
            assert choose or not worst, (repr(pos), hero)
            if choose and not worst:
                chosen += 1
                chosen_brute += small(fs)  # (brute-forced above)
    assert (chosen, chosen_brute) == (649, 171)


# Positions where the hero cannot make sure to lose both tricks, although a count that let
# each seat fill only one cell of a value (it fills two: one now, one before the hero's turn
# in the next trick, and it holds two copies) would say it can (found by a search over
# seeded paradox-free lines with that count planted).
_TWO_COPIES_TWO_FILLS = (
    (
        "4p quickref-red-lead | R:...3.... B:.32.10.. Y:1013220. G:23..011. | 17888 4677 "
        "33588 12245 | RBYG RBYG RBYG RBG | lead 1: 7g | won 2 1 0 1 | bid 2 3 2 2 | left 4",
        2,
    ),
    (
        "3p per-card-red-lead | R:02.1.. B:21.0.. Y:2.1..0 G:21..10 | 13334 2355 44566 | "
        "RBYG RBYG RBYG | lead 1: 5g | won 3 1 0 | bid 4 1 4 | left 4",
        0,
    ),
    (
        "4p diagonal-bonus | R:..2..... B:.0.3.1.2 Y:023213.0 G:01320.13 | 3566 12577 1148 "
        "2678 | RBYG RBYG RBY RBYG | lead 2: 4y 3y 8y | won 0 0 3 1 | bid 1 3 2 1 | left 4",
        3,
    ),
)


@pytest.mark.parametrize(("text", "hero"), _TWO_COPIES_TWO_FILLS)
def test_hero_ducks_twice_counts_two_cells_of_a_seat_with_two_copies(
    text: str, hero: int
) -> None:
    """A seat that fills a cell now and another before the hero's turn in the next trick,
    holding two copies of a value, can take two of the hero's cells of it: the two-trick
    test must say no where the brute force says the hero cannot lose both tricks."""
    pos = position_from_notation(text)
    base = pos._replace(tricks_won=(0,) * pos.rules.players)
    assert not _loses_twice(base, hero, pos.tricks_left - 2)
    assert not hero_ducks_twice(core_for(FastState(pos), hero, tt_bits=1).s, True)


# Positions where the hero cannot make sure to lose both tricks, although a count that let
# the next leader, still to play in this trick, fill no cell now (its card wins this trick:
# it is of the led color or red, and may still be a cell the hero needs) would say it can
# (found by a search over seeded paradox-free lines with that count planted).
_NEXT_LEADER_FILLS = (
    (
        "4p per-card-red-lead | R:........ B:22011330 Y:..0.132. G:312..032 | 11125 34478 "
        "6688 2345 | RBYG RBYG RBYG RBYG | lead 2: 3g 1g | won 1 0 2 1 | bid 1 2 2 3 | left 4",
        3,
    ),
    (
        "3p per-card-red-lead | R:...... B:.01.20 Y:01.221 G:0.1.21 | 14456 1234 12346 | "
        "RBG RBYG RBYG | lead 1: 3g | won 0 2 2 | bid 4 3 3 | left 4",
        2,
    ),
    (
        "5p interrupted-removed | R:41023..2. B:144..20.3 Y:.0143.... G:2.0103431 | 268 137 "
        "5789 129 466 | RBYG RBYG RBY RBYG RBY | lead 3: 5y 4y 2y 3y | won 0 0 1 2 1 | "
        "bid 2 3 3 3 3 | left 3",
        0,
    ),
)


@pytest.mark.parametrize(("text", "hero"), _NEXT_LEADER_FILLS)
def test_hero_ducks_twice_counts_the_next_leaders_card_now(text: str, hero: int) -> None:
    """The next leader's card in this trick (the winning one) fills a cell too: the
    two-trick test must say no where the brute force says the hero cannot lose both
    tricks."""
    pos = position_from_notation(text)
    base = pos._replace(tricks_won=(0,) * pos.rules.players)
    assert not _loses_twice(base, hero, pos.tricks_left - 2)
    assert not hero_ducks_twice(core_for(FastState(pos), hero, tt_bits=1).s, True)


def _u_at_least(pos: Position, hero: int, r: int) -> bool:
    """For r <= 0 (tricks won counted from zero): can the hero make sure to cause no
    paradox, or to cause it after at most -1 - r wins?"""

    def verdict(p: Position, plays: tuple[Play, ...]) -> bool | None:
        if plays:
            return None
        return p.paradox_by != hero or -1 - p.tricks_won[hero] >= r

    return _hero_can(pos, hero, verdict, {})


def test_capacity_holds_means_at_least_r() -> None:
    """Every time capacity_holds says u >= r the hero can make sure of it (brute force
    over Position); in every trick under way of random rounds and paradox-free lines of
    every ruleset, for every seat and every r from -tricks_left to -1. At the start of a
    trick, the lower bound of ``bounds`` (another seat's capacity among it) likewise.
    Counts pinned."""
    positions = case_positions(14, RULESETS)
    row = np.zeros(96, np.int64)
    checked = yes = own = played = brute = starts = others = 0
    for pos in positions:
        plays = pos.legal_plays()
        if not plays:
            continue
        fs = FastState(pos)
        small = fs.tricks_left <= 3
        for hero in range(fs.n):
            s = core_for(fs, hero, tt_bits=1).s
            base = pos._replace(tricks_won=(0,) * fs.n)
            if not fs.trick:
                lo = bounds(s)[0]
                if -fs.tricks_left < lo < 0 and small:
                    starts += 1
                    others += lo > -1 - int(capacity(s, hero))
                    assert _u_at_least(base, hero, lo), (repr(pos), hero, lo)
                continue
            k = gen_plays(s, row)
            for r in range(-fs.tricks_left, 0):
                got = bool(capacity_holds(s, row, k, r))
                checked += 1
                if not got:
                    continue
                yes += 1
                own += pos.to_move == hero
                played += (hero - fs.leader) % fs.n < len(fs.trick)
                if r > -fs.tricks_left and small:
                    brute += 1
                    assert _u_at_least(base, hero, r), (repr(pos), hero, r)
    assert (checked, yes, own, played) == (77156, 8007, 3394, 3484)
    assert (brute, starts, others) == (891, 142, 40)


def test_red_holds_means_the_hero_loses_a_trick_or_is_never_stuck() -> None:
    """Every time red_holds says yes the hero can make sure to cause no paradox or to
    lose one of the tricks before it, u >= 1 - tricks_left (brute force over Position); on
    every position of random rounds and paradox-free lines of every ruleset, for every
    seat. Counts pinned."""
    positions = case_positions(15, RULESETS)
    c = _seat_test_cases(
        positions,
        red_holds,
        lambda base, hero, fs: _u_at_least(base, hero, 1 - fs.tricks_left),
        lambda fs: fs.tricks_left <= (3 if fs.n < 4 else 2),  # (brute force: time)
    )
    assert tuple(c.values()) == (22653, 3608, 562, 782, 1083)


# ---- the move order -----------------------------------------------------------------------
def _order(pos: Position, hero: int, r: int, tricks_left: int | None = None) -> list[Play]:
    """The kernel's order (Core.order) of the plays of the seat to move in the search
    u >= r for ``hero``; with ``tricks_left``, asked as if that many tricks were left (the
    order reads the tricks left only to choose the learned step)."""
    core = core_for(FastState(pos), hero)
    if tricks_left is not None:
        core.s[S_TL] = tricks_left
    codes = core.order([4 * p.value + p.color for p in pos.legal_plays()], pos.to_move, r)
    return [Play(c >> 2, c & 3) for c in codes]


def _order_cases(seed: int) -> list[Position]:
    """Seeded positions of the official 4- and 5-player rules with two plays or more."""
    from catbox_solver.model.rules import Ruleset

    cases = case_positions(seed, [Ruleset(players=4), Ruleset(players=5)], lines=8)
    return [p for p in cases if len(p.legal_plays()) >= 2]


def test_the_cornered_heros_order_is_low_and_keeps_its_colors() -> None:
    """At r < 0 the hero tries first the plays that cannot win the trick as it stands
    (on lead: plain before red, low before high; following: non-winning first, then the
    led color before others, plain before red, low before high), on the seeded positions
    of the official 4- and 5-player rules; and the order is a permutation of the plays."""
    checked = 0
    for pos in _order_cases(79):
        hero = pos.to_move
        got = _order(pos, hero, -1)
        plays = pos.legal_plays()
        assert sorted(got) == sorted(plays)
        if not pos.trick:
            expect = sorted(plays, key=lambda p: (p.color == 0, p.value))
        else:
            led = pos.trick[0].color

            def rank(p: Play, led: int = led, trick: tuple[Play, ...] = pos.trick) -> tuple[
                bool, bool, bool, int
            ]:
                wins = trick_winner_index([*trick, p]) == len(trick)
                return (wins, p.color != led, p.color == 0, p.value)

            expect = sorted(plays, key=rank)
        assert got == expect, repr(pos)
        checked += 1
    assert checked == 645


def test_void_coalition_seat_ruffs_last_when_the_hero_is_cornered() -> None:
    """Move order at r < 0 above LEARNED_TL tricks left: a coalition seat with no play in
    the led color tries its red plays after all its others, and when the hero's card is
    winning the trick, the plays that let it win come before those that beat it (from
    LEARNED_TL down the learned order decides: it is the last step, so the order is a
    fixed point of it, and it moves plays on many positions). Seeded positions of the
    official 4- and 5-player rules, every hero, each also asked as if more tricks were
    left. Counts pinned."""
    voids = with_red = winning = learned = moved = 0
    for pos in _order_cases(77):
        fs = FastState(pos)
        for hero in range(fs.n):
            if pos.to_move == hero:
                continue
            early = _order(pos, hero, -1, max(fs.tricks_left, LEARNED_TL + 1))
            trick = pos.trick
            if trick and all(p.color != trick[0].color for p in early):
                voids += 1
                reds = [i for i, p in enumerate(early) if p.color == 0]
                others = [i for i, p in enumerate(early) if p.color != 0]
                if reds and others:
                    assert max(others) < min(reds), (repr(pos), hero, early)
                    with_red += 1
            if trick and (hero - pos.leader) % fs.n < len(trick):
                w = trick_winner_index(trick)
                if (pos.leader + w) % fs.n == hero:
                    beats = [trick_winner_index([*trick, p]) == len(trick) for p in early]
                    assert beats == sorted(beats), (repr(pos), hero, early)
                    winning += any(beats) and not all(beats)
            if fs.tricks_left <= LEARNED_TL:
                now = _order(pos, hero, -1)
                core = core_for(fs, hero)
                row = np.zeros(B_SIZE, dtype=np.int64)
                row[: len(now)] = [4 * p.value + p.color for p in now]
                _order_learned(core.s, row, len(now))
                assert [Play(int(c) >> 2, int(c) & 3) for c in row[: len(now)]] == now
                learned += 1
                moved += now != early
    assert (voids, with_red, winning, learned, moved) == (299, 143, 396, 2144, 1430)


_FIRST_LEAD = (
    "4p official | R:........ B:........ Y:........ G:........ | 124577888 112345677 "
    "122344568 333556668 | RBYG RBYG RBYG RBYG | lead 0 | won 0 0 0 0 | bid 2 1 3 1 | left 8"
)
_SECOND_PLAY = (
    "4p official | R:........ B:........ Y:....1... G:0....... | 24577888 11234677 "
    "122344568 333556668 | RBYG RBY RBYG RBYG | lead 0: 1g 5y | won 0 0 0 0 | bid 2 1 3 1 "
    "| left 8"
)
_LEARNED = (
    "4p official | R:...2.2.2 B:..1133.3 Y:123011.. G:00.....0 | 57788 1277 12345 33566 | "
    "BG BY RBY BY | lead 1: 4b | won 0 1 3 0 | bid 2 1 3 1 | left 4"
)
_ORDERS = (
    # (position, hero, r, the kernel's order of the plays of the seat to move)
    # the hero leads wanting tricks: high first (red cannot be led yet)
    (_FIRST_LEAD, 0, 1, "8b 8y 8g 7b 7y 7g 5b 5y 5g 4b 4y 4g 2b 2y 2g 1b 1y 1g"),
    # not wanting them: low first
    (_FIRST_LEAD, 0, 0, "1b 1y 1g 2b 2y 2g 4b 4y 4g 5b 5y 5g 7b 7y 7g 8b 8y 8g"),
    # the coalition leads, the hero cornered: cards the hero holds (on a color it can
    # still follow) first, the 8s it does not hold last
    (_FIRST_LEAD, 1, -1, "1b 1y 1g 2b 2y 2g 4b 4y 4g 5b 5y 5g 7b 7y 7g 8b 8y 8g"),
    # the cornered hero follows: plays that lose the trick (off the led color, plain,
    # low), then the higher greens, then the reds that would win it
    (_SECOND_PLAY, 2, -1, "1b 1y 2b 2y 3b 3y 4b 4y 5b 6b 6y 8b 8y 2g 3g 4g 5g 6g 8g 1r 2r 3r "
     "4r 5r 6r 8r"),
    # the coalition against a hero wanting tricks: the hero's cells of the led color
    # first, then its other cells, then the led color, then the rest
    (_SECOND_PLAY, 0, 1, "2g 4g 5g 8g 2r 2b 2y 4r 4b 4y 5r 5b 8r 8b 8y 3g 6g 1r 1b 1y 3r 3b "
     "3y 6r 6b 6y"),
    # 4 tricks left, the hero cornered: the learned order
    (_LEARNED, 3, -1, "1b 2b 1r 2r 3r 5r"),
)


@pytest.mark.parametrize(("text", "hero", "r", "expect"), _ORDERS)
def test_the_order_on_a_few_positions(text: str, hero: int, r: int, expect: str) -> None:
    """The kernel's order (Core.order) pinned on a few positions: the hero wanting tricks
    (red and high first), not wanting them, cornered; the coalition leading the colors
    the hero can still play and taking its cells."""
    pos = position_from_notation(text)
    assert " ".join(p.text for p in _order(pos, hero, r)) == expect
