"""The compiled core (dd/kernel.py, numba) against the pure-Python search it transcribes
(Search._u_py, _bounds, _safe, _capacity in dd.py) and the move generator FastState.legal:
exact equality on seeded positions of every ruleset, a tiny transposition table, deadlines."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.gen import paradox_free_line, paradox_free_round, random_line, replay, start_position
from oracles.minimax_ref import minimax, tree_size

from catbox_solver.dd.fast import FastState
from catbox_solver.dd.kernel import (
    B_SIZE,
    B_WORDS,
    LEARNED_TL,
    PROBE_FIRST,
    PROBE_NODES,
    PROBE_TL,
    S_TL,
    T_HI,
    T_LO,
    T_SIZE,
    TT_BITS,
    TT_LONG_BITS,
    TT_WORDS,
    Core,
    _duck,
    _grown,
    _loser_margin,
    _losing_cells,
    _low_follow,
    _lowest,
    _order_low,
    _surely_free,
    bounds,
    capacity,
    capacity_holds,
    gen_plays,
    hero_ducks,
    hero_ducks_twice,
    make_key,
    red_holds,
    safe,
    tt_find,
    tt_slot,
    wins_then_safe,
)
from catbox_solver.dd.search import Search
from catbox_solver.dd.solve import solve, value_only
from catbox_solver.errors import PositionError, SearchError
from catbox_solver.formats.notation import position_from_notation
from catbox_solver.model.position import Play, Position, trick_winner_index
from catbox_solver.model.rules import PRESETS, Ruleset

RULESETS = [Ruleset.from_name(name, n) for n in (2, 3, 4, 5) for name in PRESETS]


def _core(
    fs: FastState,
    hero: int,
    tt_bits: int | None = None,
    probes: tuple[int, int, int] = (PROBE_TL, PROBE_NODES, PROBE_FIRST),
) -> Core:
    """A Core for ``hero`` with the state of ``fs`` loaded (``tt_bits``: see Core)."""
    core = Core(
        hero,
        (fs.n, fs.nv, fs.redrow, int(fs.must_follow), int(fs.loss_led), fs.red_lead),
        tt_bits=tt_bits,
        probes=probes,
    )
    core.load(fs.used, fs.leader, fs.tricks_left, fs.trick, fs.hands, fs.colors)
    return core


@cache
def _round_positions() -> tuple[Position, ...]:
    """Every position (the final one included) of 4 seeded random rounds per ruleset."""
    rng = random.Random(7)
    out: list[Position] = []
    for rules in RULESETS:
        for _ in range(4):
            out.extend(random_line(start_position(rules, rng), rng))
    return tuple(out)


def _pf_line(rules: Ruleset, rng: random.Random) -> list[Position]:
    """Positions along a paradox-free line of a seeded round (the first of a few deals
    that has one)."""
    for _ in range(20):
        pos = start_position(rules, rng, distinct_discards=True)
        plays = paradox_free_line(pos, 20_000, seed=rng.randrange(10**6))
        if plays is not None:
            return replay(pos, plays)
    raise AssertionError(f"no paradox-free line for {rules}")


def _test_positions(seed: int, rulesets: list[Ruleset], lines: int = 4) -> list[Position]:
    """The positions of the random rounds of ``rulesets``, then those of ``lines``
    paradox-free lines per ruleset (seeded by ``seed``)."""
    rng = random.Random(seed)
    out = [p for p in _round_positions() if p.rules in rulesets]
    for rules in rulesets:
        for _ in range(lines):
            out.extend(_pf_line(rules, rng))
    return out


# ---- the move generator and the counting facts ------------------------------------------
def test_gen_plays_is_fast_state_legal() -> None:
    """Same plays in the same order as FastState.legal (and Position.legal_plays) on every
    position of random rounds of every ruleset, finished and paradox positions included."""
    out = np.zeros(40, np.int64)
    checked = empty = following = 0
    for pos in _round_positions():
        fs = FastState(pos)
        core = _core(fs, 0, tt_bits=1)
        k = gen_plays(core.s, out)
        got = [(int(x) >> 2, int(x) & 3) for x in out[:k]]
        expect = [(p.value, p.color) for p in fs.legal()]
        assert got == expect, repr(pos)
        assert expect == [(p.value, p.color) for p in pos.legal_plays()]
        checked += 1
        empty += not expect
        following += bool(pos.trick)
    assert checked > 2500
    assert empty >= 100
    assert following >= 1500


def test_capacity_safe_and_bounds_equal_the_python_search() -> None:
    """capacity(seat) for every seat, safe(seat, k) for every seat and k in 1..tricks
    left, and at trick starts bounds() for every hero, equal Search._capacity, _safe and
    _bounds on every position of random rounds of every ruleset."""
    caps = safes = safe_true = nbounds = tight = 0
    for pos in _round_positions():
        fs = FastState(pos)
        n = fs.n
        tl = fs.tricks_left
        for hero in range(n):
            core = _core(fs, hero, tt_bits=1)
            search = Search(pos, hero, engine="python")
            if hero == 0:
                for seat in range(n):
                    assert capacity(core.s, seat) == search._capacity(seat), (pos, seat)
                    caps += 1
                    for k in range(1, tl + 1):
                        got = bool(safe(core.s, seat, k))
                        assert got == search._safe(seat, k), (pos, seat, k)
                        safes += 1
                        safe_true += got
            if tl and not pos.trick:
                got_b = tuple(int(x) for x in bounds(core.s))
                assert got_b == search._bounds(tl), (pos, hero)
                nbounds += 1
                tight += got_b != (-tl, tl)
    assert caps > 9000
    assert safes > 45000
    assert 10000 < safe_true < safes - 10000
    assert nbounds > 2500
    assert tight > 700


def test_the_counting_helpers_equal_the_python_search() -> None:
    """The compiled counting helpers, which work on every value at once (nibble
    arithmetic, session 17), equal the Python search's loops over values and seats
    (Search._loser_margin, _duck, _losing_cells, _lowest, _surely_free, _low_follow) on
    every position of random rounds of every ruleset, every hero, with random led colors,
    winning cards, fills and seat ranges. Why: a slip in a guard bit or a mask changes
    how often a cut-off fires; the searches' answers would stay right, so only a direct
    comparison sees it."""
    rng = random.Random(17)
    checked = margins_low = ducks_yes = free_yes = follow_yes = 0
    for pos in _round_positions():
        fs = FastState(pos)
        n = fs.n
        for hero in range(n):
            s = _core(fs, hero, tt_bits=1).s
            search = Search(pos, hero, engine="python")
            for _ in range(3):
                c = rng.randrange(4)
                best = rng.randint(1, fs.nv + 1)
                red = rng.random() < 0.3
                first = rng.randrange(n)
                m = rng.randrange(n)
                cols = rng.randrange(16)
                nl = rng.randrange(n)
                rows = rng.randrange(16)
                fills = {i: rng.randint(1, 3) for i in range(n) if i != hero and rng.random() < 0.7}
                mult = sum(f << (2 * i) for i, f in fills.items())
                got_m = tuple(int(x) for x in _loser_margin(s, cols, mult, c, best, nl, rows))
                assert got_m == search._loser_margin(cols, fills, c, best, nl, rows), repr(pos)
                margins_low += got_m[0] < got_m[1]
                got = bool(_duck(s, c, best, red, first, m))
                assert got == search._duck(c, best, red, first, m), repr(pos)
                ducks_yes += got
                for follows in (False, True):
                    cells = int(_losing_cells(s, c, best, red, follows))
                    assert cells == search._losing_cells(c, best, red, follows), repr(pos)
                cells = int(_losing_cells(s, c, best, red, False)) & rng.getrandbits(36)
                got = bool(_surely_free(s, cells, first, m))
                assert got == search._surely_free(cells, first, m), repr(pos)
                free_yes += got
                got = bool(_low_follow(s, c, best, red, first, m))
                assert got == search._low_follow(c, best, red, first, m), repr(pos)
                follow_yes += got
                seat = rng.randrange(n)
                assert _lowest(s, seat, c) == search._lowest(seat, c), repr(pos)
                checked += 1
    assert checked > 20000, checked
    assert 2000 < margins_low < checked - 2000, margins_low
    assert 2000 < ducks_yes < checked - 2000, ducks_yes
    assert 2000 < free_yes < checked - 2000, free_yes
    assert 1000 < follow_yes < checked - 1000, follow_yes


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
    """hero_ducks (compiled) equals Search._hero_ducks, and every time it says yes, the
    hero, whatever the others play before its turn, has a legal play that does not win
    the trick (on lead: a lead that no completion of the trick lets win; brute force over
    Position); on every position of random rounds and paradox-free lines of every
    ruleset (must-follow readings included), for every seat not yet played in the
    trick."""
    positions = _test_positions(11, RULESETS, lines=1)
    checked = yes = leads = must = 0
    for pos in positions:
        if not pos.tricks_left or not pos.legal_plays():
            continue
        fs = FastState(pos)
        for hero in range(fs.n):
            if (hero - fs.leader) % fs.n < len(fs.trick):
                continue
            got = bool(hero_ducks(_core(fs, hero, tt_bits=1).s))
            assert got == Search(pos, hero, engine="python")._hero_ducks(), (repr(pos), hero)
            checked += 1
            if got and (fs.n < 5 or fs.tricks_left <= 4):  # (brute force: time)
                yes += 1
                leads += hero == fs.leader and not fs.trick
                must += fs.must_follow
                assert _can_duck(pos, hero), (repr(pos), hero)
    assert checked > 5000, checked
    assert 3000 < yes < checked - 1000, (yes, checked)
    assert leads > 200, leads
    assert must > 200, must


def test_wins_then_safe_means_the_hero_wins_a_trick_and_no_paradox() -> None:
    """wins_then_safe (compiled) equals Search._wins_then_safe, and every time it says
    yes the hero can make sure of at least one more trick and no paradox of its own
    (brute force, the plain minimax: trick points above the tricks won before this
    trick); asked where the search asks it: after each play of the hero, and at every
    later point of the trick; positions of random rounds and paradox-free lines of
    every ruleset."""
    positions = _test_positions(17, RULESETS, lines=1)
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
            fs = FastState(after)
            got = bool(wins_then_safe(_core(fs, hero, tt_bits=1).s))
            assert got == Search(after, hero, engine="python")._wins_then_safe(), (
                repr(after), hero,
            )
            checked += 1
            if got:
                yes += 1
                completed += not after.trick
                if tree_size(after, 20_000) < 20_000:
                    brute += 1
                    won = pos.tricks_won[hero]
                    assert minimax(after, hero, "tricks") >= won + 1, (repr(after), hero)
    assert checked > 20_000, checked
    assert yes > 600, yes
    assert brute > 450, brute
    assert completed > 200, completed


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
    """_low_follow (compiled) equals Search._low_follow, and every time it says yes the
    hero, whatever the others play before its turn, has a legal follow that does not win
    (brute force over Position); every seat not yet played in a trick under way, on the
    positions of random rounds and paradox-free lines of every ruleset."""
    positions = [p for p in _test_positions(13, RULESETS, lines=1) if p.trick]
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
            got = bool(_low_follow(_core(fs, hero, tt_bits=1).s, *args))
            assert got == Search(pos, hero, engine="python")._low_follow(*args)
            checked += 1
            if got:
                yes += 1
                if fs.n < 5 or fs.tricks_left <= 4:  # (brute force: time)
                    assert _can_follow_low(pos, hero), (repr(pos), hero)
            else:
                # it has such a follow now, but the seats before it might take it
                stolen += bool(_low_follow(_core(fs, hero, tt_bits=1).s, *args[:4], 0))
    assert checked > 3000, checked
    assert 500 < yes < checked - 500, (yes, checked)
    assert stolen > 100, stolen


def _hero_can(
    pos: Position,
    hero: int,
    verdict: Callable[[Position, list[Play]], bool | None],
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

    def verdict(p: Position, plays: list[Play]) -> bool | None:
        if p.tricks_won[hero] or p.tricks_left == stop:
            return not p.tricks_won[hero]
        return True if not plays else None

    return _hero_can(pos, hero, verdict, {})


def _seat_test_cases(
    positions: list[Position],
    compiled: Callable[[np.ndarray], bool],
    python: Callable[[Search], bool],
    brute: Callable[[Position, int, FastState], bool],
    small: Callable[[FastState], bool],
) -> dict[str, int]:
    """Asks a yes/no test of the search of every seat on every position with a legal
    play: the compiled test and the Python one must agree, and each "yes" on a position
    that is ``small`` must pass ``brute`` (given the position with the tricks won set to
    zero). Returns the counts: checked, yes, played (the seat had played in the trick),
    leads (the seat leads a new trick), brute."""
    counts = dict.fromkeys(("checked", "yes", "played", "leads", "brute"), 0)
    for pos in positions:
        if not pos.legal_plays():
            continue
        fs = FastState(pos)
        for hero in range(fs.n):
            got = bool(compiled(_core(fs, hero, tt_bits=1).s))
            assert got == python(Search(pos, hero, engine="python")), (repr(pos), hero)
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
    """hero_ducks_twice (compiled) equals Search._hero_ducks_twice, and every time it says
    yes the hero can make sure, whatever the others play, to win neither this trick nor
    the next (brute force over Position, 2-4 players); on every position of random rounds
    and paradox-free lines of the official readings (no need to follow, the led color
    lost), for every seat, with at least 3 tricks left. Some of the yes answers need the
    hero's choice of its card now (its worst card would not do): those are counted, and
    the test without the choice is compared too."""
    rulesets = [r for r in RULESETS if r.following == "free" and r.color_loss == "led"]
    positions = [p for p in _test_positions(12, rulesets) if p.tricks_left >= 3]

    def small(fs: FastState) -> bool:
        return fs.tricks_left <= (4 if fs.n < 5 else 3)  # (brute force: time)

    c = _seat_test_cases(
        positions,
        lambda s: hero_ducks_twice(s, True),
        Search._hero_ducks_twice,
        lambda base, hero, fs: _loses_twice(base, hero, fs.tricks_left - 2),
        small,
    )
    checked, yes, played, leads, brute = c.values()
    assert checked > 10000, checked
    assert 2000 < yes < checked - 2000, (yes, checked)
    assert played > 1000, played
    assert leads > 30, leads
    assert brute > 400, brute
    chosen = chosen_brute = 0
    for pos in positions:
        if not pos.legal_plays():
            continue
        fs = FastState(pos)
        for hero in range(fs.n):
            s = _core(fs, hero, tt_bits=1).s
            worst = bool(hero_ducks_twice(s, False))
            assert worst == Search(pos, hero, engine="python")._hero_ducks_twice(False)
            if not worst and hero_ducks_twice(s, True):
                chosen += 1
                chosen_brute += small(fs)  # (brute-forced above)
    assert chosen > 300 and chosen_brute > 100, (chosen, chosen_brute)


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
    assert not hero_ducks_twice(_core(FastState(pos), hero, tt_bits=1).s, True)
    assert not Search(pos, hero, engine="python")._hero_ducks_twice()


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
    assert not hero_ducks_twice(_core(FastState(pos), hero, tt_bits=1).s, True)
    assert not Search(pos, hero, engine="python")._hero_ducks_twice()


def _u_at_least(pos: Position, hero: int, r: int) -> bool:
    """For r <= 0 (tricks won counted from zero): can the hero make sure to cause no
    paradox, or to cause it after at most -1 - r wins?"""

    def verdict(p: Position, plays: list[Play]) -> bool | None:
        if plays:
            return None
        return p.paradox_by != hero or -1 - p.tricks_won[hero] >= r

    return _hero_can(pos, hero, verdict, {})


def test_capacity_holds_means_at_least_r() -> None:
    """capacity_holds (compiled) equals Search._capacity_holds, and every time it says
    u >= r the hero can make sure of it (brute force over Position); in every trick under
    way of random rounds and paradox-free lines of every ruleset, for every seat and every
    r from -tricks_left to -1. At the start of a trick, the lower bound of ``bounds``
    (another seat's capacity among it) likewise."""
    positions = _test_positions(14, RULESETS)
    row = np.zeros(96, np.int64)
    checked = yes = own = played = brute = starts = others = 0
    for pos in positions:
        plays = pos.legal_plays()
        if not plays:
            continue
        fs = FastState(pos)
        small = fs.tricks_left <= 3
        for hero in range(fs.n):
            search = Search(pos, hero, engine="python")
            s = _core(fs, hero, tt_bits=1).s
            if not fs.trick:
                lo = bounds(s)[0]
                if -fs.tricks_left < lo < 0 and small:
                    starts += 1
                    others += lo > -1 - int(capacity(s, hero))
                    base = pos._replace(tricks_won=(0,) * fs.n)
                    assert _u_at_least(base, hero, lo), (repr(pos), hero, lo)
                continue
            k = gen_plays(s, row)
            base = pos._replace(tricks_won=(0,) * fs.n)
            for r in range(-fs.tricks_left, 0):
                got = bool(capacity_holds(s, row, k, r))
                assert got == search._capacity_holds(r, fs.legal()), (repr(pos), hero, r)
                checked += 1
                if not got:
                    continue
                yes += 1
                own += pos.to_move == hero
                played += (hero - fs.leader) % fs.n < len(fs.trick)
                if r > -fs.tricks_left and small:
                    brute += 1
                    assert _u_at_least(base, hero, r), (repr(pos), hero, r)
    assert checked > 10000, checked
    assert 2000 < yes < checked - 2000, (yes, checked)
    assert own > 300 and played > 1000, (own, played)
    assert brute > 500, brute
    assert starts > 100 and others > 20, (starts, others)


def test_red_holds_means_the_hero_loses_a_trick_or_is_never_stuck() -> None:
    """red_holds (compiled) equals Search._red_holds, and every time it says yes the hero
    can make sure to cause no paradox or to lose one of the tricks before it, u >= 1 -
    tricks_left (brute force over Position); on every position of random rounds and
    paradox-free lines of every ruleset, for every seat."""
    positions = _test_positions(15, RULESETS)
    c = _seat_test_cases(
        positions,
        red_holds,
        Search._red_holds,
        lambda base, hero, fs: _u_at_least(base, hero, 1 - fs.tricks_left),
        lambda fs: fs.tricks_left <= (3 if fs.n < 4 else 2),  # (brute force: time)
    )
    checked, yes, played, leads, brute = c.values()
    assert checked > 10000, checked
    assert 2000 < yes < checked - 2000, (yes, checked)
    assert played > 300 and leads > 300, (played, leads)
    assert brute > 800, brute


# ---- the search: compiled u(r) against the Python u(r) --------------------------------------
@cache
def _small_positions() -> tuple[Position, ...]:
    """Seeded positions with 1-3 tricks left and a legal play, of every ruleset: per
    ruleset 2 paradox-free lines (the hard ones) and 2 random lines, up to 3 positions of
    each."""
    rng = random.Random(2025)
    out: list[Position] = []
    for rules in RULESETS:
        for kind in ("paradox-free", "random", "paradox-free", "random"):
            if kind == "random":
                line = random_line(start_position(rules, rng), rng)
            else:
                line = _pf_line(rules, rng)
            cands = [p for p in line if 0 < p.tricks_left <= 3 and p.legal_plays()]
            out.extend(rng.sample(cands, min(3, len(cands))))
    return tuple(out)


@cache
def _small_trick_starts() -> tuple[Position, ...]:
    """Every trick start with a legal play in the game trees of the small positions whose
    trees have fewer than 3000 positions."""
    out: list[Position] = []
    seen: set[Position] = set()
    for root in _small_positions():
        if tree_size(root, 3000) >= 3000:
            continue
        stack = [root]
        while stack:
            pos = stack.pop()
            if pos in seen:
                continue
            seen.add(pos)
            plays = pos.legal_plays()
            stack.extend(pos.after(p) for p in plays)
            if plays and not pos.trick:
                out.append(pos)
    return tuple(out)


def _rest_value(pos: Position, hero: int, memo: dict[tuple[Position, int], int]) -> int:
    """The trick game's value of the rest of the round (``u``: g more tricks and no
    paradox of the hero, or -1 - g when it causes one after g more), by the plain
    minimax: the trick points less those already won, the paradox verdict telling the
    two cases apart."""
    got = memo.get((pos, hero))
    if got is None:
        points = minimax(pos, hero, "tricks")
        won = pos.tricks_won[hero]
        assert isinstance(points, int)
        got = points - won if minimax(pos, hero, "paradox") else points + won - 1
        memo[(pos, hero)] = got
    return got


def _free_cells(pos: Position, seat: int, v: int) -> int:
    """How many free cells of value ``v`` are in ``seat``'s colors."""
    return bin(~(pos.used >> 4 * (v - 1)) & pos.colors[seat] & 15).count("1")


def _spare_copies(pos: Position) -> bool:
    """Some seat holds more copies of a value than it has free cells of that value in
    its colors (the key counts them up to those cells)."""
    return any(
        hand.count(v) > _free_cells(pos, seat, v)
        for seat, hand in enumerate(pos.hands)
        for v in set(hand)
    )


def _key(pos: Position, hero: int, words: np.ndarray) -> tuple[int, ...]:
    """The compiled table's key of the trick start ``pos`` (make_key)."""
    core = _core(FastState(pos), hero, tt_bits=12)
    make_key(core.s, words)
    return tuple(int(w) for w in words[B_WORDS : B_WORDS + TT_WORDS])


def test_one_key_one_value() -> None:
    """The compiled table's key (make_key) merges only trick starts of equal value: every
    trick start in the game trees of small positions, for every hero, grouped by ruleset,
    hero and key, has one value of the plain minimax. The key renumbers the live values,
    counts a seat's colors and a value's cells only while some play can still use them,
    and a seat's copies of a value only up to its free cells of it in its colors; many
    groups merge positions that differ in their hands, never in the tricks left."""
    memo: dict[tuple[Position, int], int] = {}
    groups: dict[tuple[object, ...], tuple[Position, int]] = {}
    words = np.zeros(B_SIZE, dtype=np.int64)
    merged = spare = 0
    for pos in _small_trick_starts():
        for hero in range(pos.rules.players):
            value = _rest_value(pos, hero, memo)
            first = groups.setdefault((pos.rules, hero, *_key(pos, hero, words)), (pos, value))
            if first[0] != pos:
                assert first[1] == value, (repr(first[0]), repr(pos), hero)
                # the hands no longer tell the tricks left: the key does
                assert first[0].tricks_left == pos.tricks_left
                merged += 1
                spare += first[0].hands != pos.hands and (
                    _spare_copies(first[0]) or _spare_copies(pos)
                )
    assert merged > 3000, merged
    assert spare > 2500, spare


def _with_copy_exchanged(pos: Position, seat: int, v: int, w: int) -> Position | None:
    """``pos`` with one copy of value ``v`` in ``seat``'s hand exchanged for a ``w``, or
    None when that makes no valid position (six copies of ``w``)."""
    hand = list(pos.hands[seat])
    hand.remove(v)
    hands = list(pos.hands)
    hands[seat] = tuple(sorted([*hand, w]))
    try:
        return Position(
            pos.rules,
            pos.owners,
            pos.neutral,
            hands,
            pos.colors,
            pos.leader,
            pos.trick,
            pos.tricks_won,
            pos.predictions,
            pos.tricks_left,
        )
    except PositionError:
        return None


def test_a_copy_without_a_free_cell_changes_neither_key_nor_value() -> None:
    """A seat's copy of a value beyond its free cells of that value in its colors is never
    played: exchanged for a value it can never play, the key stays and so does the value
    (plain minimax). Any other such exchange (a copy it could still play) changes the key.
    Over the trick starts of small positions' game trees, every seat and value, the seat
    itself and the next as the hero."""
    memo: dict[tuple[Position, int], int] = {}
    words = np.zeros(B_SIZE, dtype=np.int64)
    same_key = other_key = differ = 0
    for pos in _small_trick_starts():
        for seat in range(pos.rules.players):
            hand = pos.hands[seat]
            cells = [0] + [_free_cells(pos, seat, v) for v in range(1, pos.rules.values + 1)]
            dead = [w for w in range(1, pos.rules.values + 1) if cells[w] == 0]
            for v in sorted(set(hand)):
                spare = hand.count(v) > cells[v]
                for w in dead:
                    if w == v:
                        continue
                    var = _with_copy_exchanged(pos, seat, v, w)
                    if var is None:
                        continue
                    for hero in (seat, (seat + 1) % pos.rules.players):
                        same = _key(pos, hero, words) == _key(var, hero, words)
                        assert same == spare, (repr(pos), seat, v, w, hero)
                        if spare:
                            value = _rest_value(pos, hero, memo)
                            got = _rest_value(var, hero, memo)
                            assert got == value, (repr(pos), seat, v, w, hero)
                            same_key += 1
                        else:
                            other_key += 1
                            value = _rest_value(pos, hero, memo)
                            differ += _rest_value(var, hero, memo) != value
                    break
    assert same_key > 15_000, same_key
    assert other_key > 15_000, other_key
    assert differ > 5_000, differ  # the exchanges that change the key often matter


def test_compiled_u_equals_python_u() -> None:
    """Zero disagreements between Search._u (compiled core) and Search._u_py, for every
    hero and every r in -tricks_left..tricks_left (in a shuffled order, each engine keeping
    its own table across the r of one position and hero)."""
    rng = random.Random(5)
    comparisons = negative = positive = 0
    positions = _small_positions()
    for pos in positions:
        tl = pos.tricks_left
        for hero in range(pos.rules.players):
            compiled = Search(pos, hero)
            python = Search(pos, hero, engine="python")
            rs = list(range(-tl, tl + 1))
            rng.shuffle(rs)
            answers = {}
            for r in rs:
                got = compiled._u(r)
                assert got == python._u_py(r), (repr(pos), hero, r)
                answers[r] = got
                comparisons += 1
            # u(r) is monotone in r: the value is the largest r answered True
            value = max(r for r, a in answers.items() if a)
            assert all(answers[r] == (r <= value) for r in rs)
            negative += value < 0
            positive += value > 0
    assert {p.rules.players for p in positions} == {2, 3, 4, 5}
    assert {p.tricks_left for p in positions} == {1, 2, 3}
    assert sum(1 for p in positions if p.trick) >= 150
    assert comparisons > 6000
    assert negative >= 200
    assert positive >= 200


def test_compiled_table_equals_python_table() -> None:
    """The cooperative question (can the players together finish with no paradox?) gives
    the same answer from the compiled core and the Python search, both ways, on seeded
    positions of every ruleset and on the starts of 4-player rounds up to 5 tricks left."""
    yes = no = 0
    for pos in _small_positions():
        a = Search(pos, 0, engine="python").table()
        assert Search(pos, 0).table() == a, repr(pos)
        yes += a
        no += not a
    rng = random.Random(31)
    for _ in range(3):
        for pos in _pf_line(Ruleset(players=4), rng):
            if 3 < pos.tricks_left <= 5 and not pos.trick:
                a = Search(pos, 0, engine="python").table()
                assert Search(pos, 0).table() == a, repr(pos)
                yes += a
                no += not a
    assert yes > 150 and no > 50, (yes, no)


def test_table_within_a_node_cap() -> None:
    """``table_within(cap)``, in both engines: None once the cap is used up, else the
    answer of ``table()``; a capped search stores nothing false, so the full search after
    it answers as a fresh one, and a cap at least the nodes a search needs answers."""
    capped = answered = 0
    rng = random.Random(41)
    positions = [p for p in _small_positions() if p.tricks_left == 3][:40]
    for _ in range(2):
        positions += [p for p in _pf_line(Ruleset(players=4), rng) if p.tricks_left == 5]
    for pos in positions:
        for engine in ("compiled", "python"):
            fresh = Search(pos, 0, engine=engine)
            want = fresh.table()
            for cap in (1, 10, 100):
                s = Search(pos, 0, engine=engine)
                got = s.table_within(cap)
                assert got is None or got == want, (repr(pos), engine, cap)
                capped += got is None
                answered += got is not None
                assert s.table() == want, (repr(pos), engine, cap)
            roomy = Search(pos, 0, engine=engine)
            assert roomy.table_within(fresh.nodes + 1) == want, (repr(pos), engine)
    assert capped >= 60 and answered >= 60, (capped, answered)


def test_the_table_line_tries_its_plays_side_by_side() -> None:
    """The cooperative line (``table``) finds each play by short searches of every
    candidate in rounds: a candidate without a paradox-free finish can cost far more to
    refute than another costs to prove. On this first lead, the line searched one play at
    a time ran past 1.28 billion nodes (300 s) at its tenth play; the value and every play's
    result are found in a fraction of a second."""
    pos = position_from_notation(
        "4p official | R:........ B:........ Y:........ G:........ | 122357888 122456667 "
        "123334788 134455667 | RBYG RBYG RBYG RBYG | lead 0 | won 0 0 0 0 | bid 1 1 1 1 "
        "| left 8"
    )
    ans = solve(pos, 0, "table", timeout=120)  # (a bound for a failing run, not a timing)
    assert ans.value is True and ans.pv_complete
    assert all(r.result is True for r in ans.plays)
    assert ans.nodes < 2_000_000, ans.nodes
    end = pos
    for play in ans.pv:
        end = end.play(play)
    assert end.tricks_left == 0 and end.paradox_by is None


def test_tiny_table_gives_the_same_answers() -> None:
    """A table of 8 entries (replaced all the time) answers u(r) as the default one, for
    every r, on positions with 3-4 tricks left of paradox-free 4-player lines; each Core
    keeps its table across the r of one position and hero."""
    comparisons = small_nodes = big_nodes = 0
    for k, name in enumerate(("official", "must-follow", "czech-color-loss")):
        pos0, plays = paradox_free_round(Ruleset.from_name(name, 4), 100 + 10 * k)
        for pos in replay(pos0, plays):
            if pos.tricks_left not in (3, 4):
                continue
            fs = FastState(pos)
            tl = fs.tricks_left
            for hero in range(4):
                small = _core(fs, hero, tt_bits=3)
                big = _core(fs, hero)
                for r in range(-tl, tl + 1):
                    a, na = small.u(r, None)
                    b, nb = big.u(r, None)
                    assert a is not None and a == b, (repr(pos), hero, r)
                    comparisons += 1
                    small_nodes += na
                    big_nodes += nb
    assert comparisons > 700
    # the tiny table really loses entries (more nodes to the same answers)
    assert small_nodes > big_nodes


def test_the_table_grows_fourfold_to_its_cap_and_keeps_its_entries() -> None:
    """_grown: the same table while the nodes searched are at most four times its size or
    it has 2**max_bits entries; else one four times larger in which every key stored
    before is found with its bounds. A Core's trick table starts at 2**TT_BITS entries at
    most and grows to that, except for a long search (session 18: a first position with
    7 or more tricks left, 4 players; 6 or more, 5 players), which has 2**TT_LONG_BITS
    from the start; a Core made with a table size of its own keeps it, the default one
    included."""
    rng = random.Random(18)
    table = np.zeros((16, T_SIZE), dtype=np.int64)
    stored: dict[tuple[int, ...], tuple[int, int]] = {}
    while len(stored) < 10:  # (some keys collide and replace each other: keep the last)
        words = tuple(rng.getrandbits(62) for _ in range(TT_WORDS))
        i = tt_slot(table, _row(words), 3)
        lo, hi = rng.randint(-3, 0), rng.randint(0, 3)
        table[i, T_LO], table[i, T_HI] = lo, hi
        stored = {k: v for k, v in stored.items() if tt_find(table, _row(k)) >= 0}
        stored[words] = (lo, hi)
    assert _grown(table, 64, 6) is table  # nodes <= 4 * 16
    bigger = _grown(table, 65, 6)
    assert bigger.shape == (64, T_SIZE)
    for words, (lo, hi) in stored.items():
        j = tt_find(bigger, _row(words))
        assert j >= 0 and (bigger[j, T_LO], bigger[j, T_HI]) == (lo, hi)
    assert _grown(bigger, 10**9, 6) is bigger  # at the cap: 2**6 entries
    assert (TT_BITS, TT_LONG_BITS) == (20, 22)
    caps = {}
    for n in (4, 5):
        start, line = paradox_free_round(Ruleset.from_name("official", n), 5)
        for pos in replay(start, line):
            if not pos.trick and pos.tricks_left not in caps.get(n, {}):
                core = _core(FastState(pos), 0)
                size = core.tt.shape[0].bit_length() - 1
                caps.setdefault(n, {})[pos.tricks_left] = (size, core.tt_cap)
                for bits in (3, TT_BITS):
                    own = _core(FastState(pos), 0, tt_bits=bits)
                    assert own.tt_cap == bits and own.tt.shape[0] <= 1 << bits
    assert caps[4][7] == (22, 22) and caps[4][6] == (20, 20) and caps[4][4] == (16, 20)
    assert caps[5][6] == (22, 22) and caps[5][5] == (20, 20)


def _row(words: tuple[int, ...]) -> np.ndarray:
    """A scratch row holding the key ``words``."""
    row = np.zeros(B_SIZE, dtype=np.int64)
    row[B_WORDS:B_WORDS + TT_WORDS] = words
    return row


def _both_orders_low(
    pos: Position, fs: FastState, hero: int, tricks_left: int | None = None
) -> tuple[list[Play], list[Play], Search]:
    """The cornered hero's move order (r < 0) at the turn of the seat to move, from the
    Python search and from the compiled core, and the Python search; with
    ``tricks_left`` both are asked as if that many tricks were left (the orders read the
    tricks left only to choose the learned step)."""
    search = Search(pos, hero, engine="python")
    core = _core(fs, hero)
    if tricks_left is not None:
        search.st.tricks_left = tricks_left
        core.s[S_TL] = tricks_left
    python = search._order_low(pos.legal_plays(), pos.to_move)
    row = np.zeros(B_SIZE, dtype=np.int64)
    k = gen_plays(core.s, row)
    _order_low(core.s, row, k, pos.to_move)
    compiled = [Play(int(row[j]) >> 2, int(row[j]) & 3) for j in range(k)]
    return python, compiled, search


def test_void_coalition_seat_ruffs_last_when_the_hero_is_cornered() -> None:
    """Move order at r < 0: above LEARNED_TL tricks left a coalition seat with no play in
    the led color tries its red plays after all its others (from LEARNED_TL down the
    learned order decides, see the next test), and the compiled order is the Python one,
    on the seeded test positions of the official 4- and 5-player rules (every hero). Few
    of them have a seat that cannot follow that early, so each is also asked as if more
    tricks were left."""
    checked = with_red = 0
    for pos in _test_positions(77, [Ruleset(players=4), Ruleset(players=5)], lines=8):
        plays = pos.legal_plays()
        if not pos.trick or len(plays) < 2:
            continue
        if any(pl.color == pos.trick[0].color for pl in plays):
            continue
        fs = FastState(pos)
        early = max(fs.tricks_left, LEARNED_TL + 1)
        for hero in range(pos.rules.players):
            if pos.to_move == hero:
                continue
            for tl in (fs.tricks_left, early):
                python, compiled, _ = _both_orders_low(pos, fs, hero, tl)
                assert compiled == python, (repr(pos), hero, tl)
                checked += 1
                if tl <= LEARNED_TL:
                    continue
                reds = [i for i, pl in enumerate(python) if pl.color == 0]
                others = [i for i, pl in enumerate(python) if pl.color != 0]
                if reds and others:
                    assert max(others) < min(reds), (repr(pos), hero, python)
                    with_red += 1
    assert checked > 500 and with_red > 120, (checked, with_red)


def test_coalition_order_when_cornered_is_the_same_in_both_engines() -> None:
    """Move order at r < 0 at the coalition's turns, the learned order (from LEARNED_TL
    tricks left down) included: the compiled order is the Python one on the seeded test
    positions of the official 4- and 5-player rules, every hero, leads and follows, with
    and without the learned step. The learned step must move plays on many of them."""
    checked = learned = moved = leads = 0
    for pos in _test_positions(78, [Ruleset(players=4), Ruleset(players=5)], lines=8):
        if len(pos.legal_plays()) < 2:
            continue
        fs = FastState(pos)
        for hero in range(pos.rules.players):
            if pos.to_move == hero:
                continue
            python, compiled, search = _both_orders_low(pos, fs, hero)
            assert compiled == python, (repr(pos), hero)
            checked += 1
            leads += not pos.trick
            if fs.tricks_left <= LEARNED_TL:
                learned += 1
                # the learned step is the last one: the order is a fixed point of it
                assert search._order_learned(python) == python, (repr(pos), hero)
                # the hand-made order (both engines), which the learned step changes
                hand, hand_compiled, _ = _both_orders_low(pos, fs, hero, LEARNED_TL + 1)
                assert hand_compiled == hand, (repr(pos), hero)
                moved += hand != python
    assert checked > 2000 and leads > 300, (checked, leads)
    assert learned > 1500 and moved > 500, (learned, moved)


def _probed_everywhere(
    positions: Sequence[Position],
) -> Iterator[tuple[Position, int, Core, Search]]:
    """For each position and hero: a Core with probes at every node and a budget of 2
    nodes (nearly every probe cut short), and the Python search to compare with."""
    for pos in positions:
        fs = FastState(pos)
        for hero in range(pos.rules.players):
            yield pos, hero, _core(fs, hero, probes=(1, 2, 1)), Search(pos, hero, engine="python")


def test_probes_change_no_answer() -> None:
    """Probes at every node with a budget of 2 nodes (so that nearly every probe is cut
    short and the plays are then searched in full) give the same u(r) as the Python
    search, for every hero and r, on the seeded positions with 1-3 tricks left. (Probes
    run in the searches with r = 0 only, and at r = 0 nodes below the others.)"""
    comparisons = 0
    cut = 0
    for pos, hero, core, python in _probed_everywhere(_small_positions()):
        tl = pos.tricks_left
        for r in range(-tl, tl + 1):
            got, _ = core.u(r, None)
            assert got == python._u_py(r), (repr(pos), hero, r)
            comparisons += 1
        cut += core.probes_cut
    assert comparisons > 6000
    assert cut > 8_000, cut


def test_a_capped_search_gives_up_or_answers_and_leaves_the_table_sound() -> None:
    """``u(r, None, cap)`` with caps of 1 to 60 nodes, and probes at every node with a
    budget of 2 (the probes must keep to the search's cap, not lift it): each capped call
    gives up (None, ``capped``) having searched the cap and one node more, or answers as
    the Python search within the cap; and after every capped call, an uncapped one on the same
    table answers as the Python search (a cut search stores nothing on its way out).
    Positions with 1-3 tricks left, every hero and r."""
    gave_up = answered = 0
    for pos, hero, core, python in _probed_everywhere(_small_positions()[::2]):
        tl = pos.tricks_left
        for r in range(-tl, tl + 1):
            expect = python._u_py(r)
            for cap in (1, 4, 15, 60):
                got, nodes = core.u(r, None, cap)
                if got is None:
                    assert core.capped and cap < nodes <= cap + 1, (repr(pos), hero, r)
                    gave_up += 1
                else:
                    assert not core.capped and got == expect, (repr(pos), hero, r, cap)
                    assert nodes <= cap, (repr(pos), hero, r, cap)
                    answered += 1
                full, _ = core.u(r, None)
                assert full == expect and not core.capped, (repr(pos), hero, r, cap)
    assert gave_up > 1500 and answered > 8000, (gave_up, answered)


@pytest.mark.parametrize(("seed", "hero", "expected"), [(300, 2, False), (333, 3, True),
                                                        (304, 0, False)])
def test_default_probes_at_five_tricks_left(seed: int, hero: int, expected: bool) -> None:
    """With the default probes (from 5 tricks left), the paradox verdict at the start of
    the fourth trick of a paradox-free 4-player round is the Python search's, and some
    probes were really cut short on the way."""
    pos0, plays = paradox_free_round(Ruleset(players=4), seed)
    pos = next(p for p in replay(pos0, plays) if p.tricks_left == 5 and not p.trick)
    fs = FastState(pos)
    core = _core(fs, hero)
    got, _ = core.u(0, None)
    assert got is expected
    assert Search(pos, hero, engine="python")._u_py(0) is expected
    assert core.probes_cut > 0


# ---- deadlines ---------------------------------------------------------------------------------
def test_a_passed_deadline_gives_unknown() -> None:
    """core.u with a deadline already passed: None after 4096 nodes (the clock is read
    every 4096 nodes) when the search needs more, the answer itself when it needs fewer;
    nothing false is stored on the way out. solve and value_only with timeout 0: None,
    and no search is started (Search._core_answer: its answer would be thrown away)."""
    pos = start_position(Ruleset(players=4), 0, distinct_discards=True)
    fs = FastState(pos)
    tl = fs.tricks_left
    assert tl == 8
    # from r = tl down the questions get harder: the first needing > 4096 nodes
    sizes = {r: _core(fs, 0).u(r, None) for r in range(tl, tl - 3, -1)}
    big = next(r for r in sorted(sizes, reverse=True) if sizes[r][1] > 4096)
    little = next(r for r in sorted(sizes, reverse=True) if 0 < sizes[r][1] < 4096)
    core = _core(fs, 0)
    assert core.u(big, time.perf_counter()) == (None, 4096)
    assert core.u(big, None)[0] == sizes[big][0]
    assert _core(fs, 0).u(little, time.perf_counter()) == sizes[little]

    ans = solve(pos, 0, "tricks", timeout=0.0)
    assert ans.value is None
    assert ans.pv == ()
    assert ans.plays and all(r.result is None for r in ans.plays)
    assert ans.nodes == 0
    assert value_only(pos, 0, "tricks", timeout=0.0) is None
    assert value_only(pos, 0, "paradox", timeout=0.0) is None


# ---- property ----------------------------------------------------------------------------------
@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(RULESETS))
def test_compiled_u_equals_python_u_on_random_positions(seed: int, rules: Ruleset) -> None:
    """Fresh Search objects for every r (no table carried over): the same answers."""
    rng = random.Random(seed)
    cands: list[Position] = []
    while not cands:
        line = random_line(start_position(rules, rng), rng)
        cands = [p for p in line if 0 < p.tricks_left <= 2 and p.legal_plays()]
    pos = rng.choice(cands)
    hero = rng.randrange(rules.players)
    tl = pos.tricks_left
    for r in range(-tl, tl + 1):
        got = Search(pos, hero)._u(r)
        assert got == Search(pos, hero, engine="python")._u_py(r), (repr(pos), hero, r)


def test_unknown_engine_is_a_clear_error() -> None:
    pos = start_position(Ruleset(players=3), 4)
    with pytest.raises(SearchError, match="unknown search engine 'gpu'"):
        solve(pos, 0, "paradox", engine="gpu")


def test_compiled_score_equals_python_score() -> None:
    """The score question (trick points plus bonus, every bonus reading) from the compiled
    core equals the Python search, for every hero with a known prediction."""
    compared = bonus = 0
    for pos in _small_positions():
        if pos.tricks_left > 2:
            continue
        for hero in range(pos.rules.players):
            try:
                a = Search(pos, hero, engine="python").score_exact()
            except SearchError:
                continue
            b = Search(pos, hero).score_exact()
            assert a == b, (repr(pos), hero)
            compared += 1
            bonus += a > Search(pos, hero, engine="python").tricks_exact()
    assert compared > 300 and bonus > 30, (compared, bonus)


_CACHED_SOLVE = """
import sys
from catbox_solver.model.deal import first_lead
from catbox_solver.model.rules import Ruleset
from catbox_solver.dd.solve import solve
import random
pos = first_lead(Ruleset(players=4), random.Random(3), start=0, distinct_discards=True)
for q in ("paradox", "tricks", "score", "table"):
    solve(pos, 0, q, timeout=0.5)
print("ok")
"""


def test_the_compiled_core_loads_from_its_cache() -> None:
    """A fresh process loads every compiled function from numba's disk cache and runs it
    (numba crashes on cached code that calls a recursive function with a cast argument:
    this catches that regression)."""
    import subprocess
    import sys

    solve(start_position(Ruleset(players=4), 3), 0, "score", timeout=0.5)  # fills the cache
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", _CACHED_SOLVE], capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stderr[-2000:]
        assert done.stdout.strip() == "ok"
