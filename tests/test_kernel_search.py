"""The compiled search (dd/kernel.py, driven by Search in dd/solve.py) against the plain
minimax over ``Position``: the trick game u(r) for every r, the cooperative table
question, the score, with probes at every node and with node caps; its transposition
table (one value per key, a tiny table, growth, cache on disk) and deadlines."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kernel_cases import (
    RULESETS,
    Memo,
    core_for,
    pf_line,
    rest_value,
    round_positions,
    small_positions,
    value,
)
from oracles.gen import paradox_free_round, random_line, replay, start_position
from oracles.minimax_ref import tree_size

from catbox_solver.dd.fast import FastState
from catbox_solver.dd.kernel import (
    B_SIZE,
    B_WORDS,
    PROBE_FIRST,
    PROBE_NODES,
    T_HI,
    T_LO,
    T_SIZE,
    TABLE_BITS,
    TABLE_FIRST_BITS,
    TT_BITS,
    TT_LONG_BITS,
    TT_WORDS,
    Core,
    _at_least,
    _grown,
    make_key,
    tt_find,
    tt_slot,
)
from catbox_solver.dd.search import Search
from catbox_solver.dd.solve import solve, value_only
from catbox_solver.errors import PositionError, SearchError
from catbox_solver.formats.notation import position_from_notation
from catbox_solver.model.position import Position
from catbox_solver.model.rules import Ruleset
from catbox_solver.survey.deals import survey_deal
from catbox_solver.survey.spec import SurveySpec

# positions whose game tree has at most this many positions are checked by brute force
BRUTE = 20_000


@cache
def _brute_positions() -> tuple[Position, ...]:
    """The seeded small positions (1-3 tricks left, every ruleset) whose game trees are
    small enough for the plain minimax."""
    return tuple(p for p in small_positions() if tree_size(p, BRUTE) < BRUTE)


@cache
def _values() -> dict[tuple[Position, int], int]:
    """The trick game's value u of every brute-force position for every hero (plain
    minimax)."""
    out: dict[tuple[Position, int], int] = {}
    for pos in _brute_positions():
        memo: Memo = {}
        for hero in range(pos.rules.players):
            out[(pos, hero)] = rest_value(pos, hero, memo)
    return out


def test_u_equals_the_plain_minimax() -> None:
    """u(r) answers True exactly for r up to the value of the plain minimax, for every
    hero and every r in -tricks_left..tricks_left (in a shuffled order, one Search keeping
    its table across the r of one position and hero), on the seeded small positions of
    every ruleset."""
    rng = random.Random(5)
    comparisons = negative = positive = 0
    positions = _brute_positions()
    for pos in positions:
        tl = pos.tricks_left
        for hero in range(pos.rules.players):
            search = Search(pos, hero)
            want = _values()[(pos, hero)]
            rs = list(range(-tl, tl + 1))
            rng.shuffle(rs)
            for r in rs:
                assert search._u(r) == (r <= want), (repr(pos), hero, r, want)
                comparisons += 1
            negative += want < 0
            positive += want > 0
    assert {p.rules.players for p in positions} == {2, 3, 4, 5}
    assert {p.tricks_left for p in positions} == {1, 2, 3}
    counts = (len(positions), sum(1 for p in positions if p.trick), comparisons, negative,
              positive)
    assert counts == (310, 205, 5899, 234, 239), counts


def _coop(pos: Position, memo: dict[Position, bool]) -> bool:
    """Brute force: can the players together finish the round with no paradox?"""
    got = memo.get(pos)
    if got is None:
        plays = pos.legal_plays()
        got = any(_coop(pos.after(p), memo) for p in plays) if plays else not pos.is_paradox
        memo[pos] = got
    return got


@cache
def _table_cases() -> tuple[tuple[Position, bool], ...]:
    """The seeded small positions with the brute-force answer of the table question, and
    trick starts with 4-5 tricks left of paradox-free 4-player lines (the line itself
    shows the answer: yes)."""
    memo: dict[Position, bool] = {}
    out = [(pos, _coop(pos, memo)) for pos in small_positions()]
    rng = random.Random(31)
    for _ in range(3):
        for pos in pf_line(Ruleset(players=4), rng):
            if 3 < pos.tricks_left <= 5 and not pos.trick:
                out.append((pos, True))
    return tuple(out)


def test_table_equals_the_brute_force() -> None:
    """The cooperative question (can the players together finish with no paradox?) from
    the compiled core equals the brute force over Position, both ways."""
    yes = no = 0
    for pos, want in _table_cases():
        assert Search(pos, 0).table() == want, repr(pos)
        yes += want
        no += not want
    assert (yes, no) == (214, 115)


def test_table_within_a_node_cap() -> None:
    """``table_within(cap)``: None once the cap is used up, else the brute-force answer; a
    capped search stores nothing false, so the full search after it answers right, and a
    cap at least the nodes a search needs answers."""
    capped = answered = 0
    cases = _table_cases()
    positions = [c for c in cases if c[0].tricks_left == 3][:40]
    positions += [c for c in cases if c[0].tricks_left == 5]
    for pos, want in positions:
        fresh = Search(pos, 0)
        assert fresh.table() == want, repr(pos)
        for cap in (1, 10, 100):
            s = Search(pos, 0)
            got = s.table_within(cap)
            assert got is None or got == want, (repr(pos), cap)
            capped += got is None
            answered += got is not None
            assert s.table() == want, (repr(pos), cap)
        roomy = Search(pos, 0)
        assert roomy.table_within(fresh.nodes + 1) == want, repr(pos)
    assert (capped, answered) == (27, 102)


def test_the_table_line_tries_its_plays_side_by_side() -> None:
    """The cooperative line (``table``) finds each play by short searches of every
    candidate in rounds: a candidate without a paradox-free finish can cost far more to
    refute than another costs to prove. On this first lead, the line searched one play at
    a time ran past 1.28 billion nodes (300 s) at its tenth play; the value and every
    play's result are found in a fraction of a second, and the line is paradox-free."""
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


def test_score_equals_the_plain_minimax() -> None:
    """The score question (trick points plus bonus, every bonus reading) from the compiled
    core equals the plain minimax of the round score, for every hero with a known
    prediction, on the small positions with 1-2 tricks left."""
    compared = bonus = 0
    for pos in _brute_positions():
        if pos.tricks_left > 2:
            continue
        memo: Memo = {}
        for hero in range(pos.rules.players):
            try:
                got = Search(pos, hero).score_exact()
            except SearchError:
                continue
            assert got == value(pos, hero, "score", memo), (repr(pos), hero)
            compared += 1
            bonus += got > value(pos, hero, "tricks", memo)
    assert (compared, bonus) == (538, 160)


# ---- probes and node caps -----------------------------------------------------------------
def _probed_everywhere(positions: Sequence[Position]) -> Iterator[tuple[Position, int, Core]]:
    """For each position and hero: a Core with probes at every node and a budget of 2
    nodes (nearly every probe cut short)."""
    for pos in positions:
        fs = FastState(pos)
        for hero in range(pos.rules.players):
            yield pos, hero, core_for(fs, hero, probes=(1, 2, 1))


def test_probes_change_no_answer() -> None:
    """Probes at every node with a budget of 2 nodes (so that nearly every probe is cut
    short and the plays are then searched in full) give the value of the plain minimax,
    for every hero and r, on the small positions. (Probes run in the searches with r = 0
    only, and at r = 0 nodes below the others.)"""
    comparisons = cut = 0
    for pos, hero, core in _probed_everywhere(_brute_positions()):
        want = _values()[(pos, hero)]
        tl = pos.tricks_left
        for r in range(-tl, tl + 1):
            got, _ = core.u(r, None)
            assert got == (r <= want), (repr(pos), hero, r)
            comparisons += 1
        cut += core.probes_cut
    assert (comparisons, cut) == (5899, 4386)


def test_a_capped_search_gives_up_or_answers_and_leaves_the_table_sound() -> None:
    """``u(r, None, cap)`` with caps of 1 to 60 nodes, and probes at every node with a
    budget of 2 (the probes must keep to the search's cap, not lift it): each capped call
    gives up (None, ``capped``) having searched the cap and one node more, or answers as
    the plain minimax within the cap; and after every capped call, an uncapped one on the
    same table answers right (a cut search stores nothing on its way out). Small
    positions, every hero and r."""
    gave_up = answered = 0
    for pos, hero, core in _probed_everywhere(_brute_positions()[::2]):
        want = _values()[(pos, hero)]
        tl = pos.tricks_left
        for r in range(-tl, tl + 1):
            expect = r <= want
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
    assert (gave_up, answered) == (1462, 10646)


@pytest.mark.parametrize(("seed", "hero", "expected"), [(300, 2, False), (333, 3, True),
                                                        (304, 0, False)])
def test_default_probes_at_five_tricks_left(seed: int, hero: int, expected: bool) -> None:
    """With the default probes (from 5 tricks left), the paradox verdict at the start of
    the fourth trick of a paradox-free 4-player round is that of the search without
    probes, and some probes were really cut short on the way."""
    pos0, plays = paradox_free_round(Ruleset(players=4), seed)
    pos = next(p for p in replay(pos0, plays) if p.tricks_left == 5 and not p.trick)
    fs = FastState(pos)
    core = core_for(fs, hero)
    got, _ = core.u(0, None)
    assert got is expected
    assert core.probes_cut > 0
    plain = core_for(fs, hero, probes=(99, PROBE_NODES, PROBE_FIRST))
    assert plain.u(0, None)[0] is expected and plain.probes_cut == 0


# ---- the transposition table ---------------------------------------------------------------
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
                small = core_for(fs, hero, tt_bits=3)
                big = core_for(fs, hero)
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


def _table_of_16(seed: int) -> tuple[np.ndarray, dict[tuple[int, ...], tuple[int, int]]]:
    """A table of 16 entries holding 10 random keys, and each key's (low, high) bounds."""
    rng = random.Random(seed)
    table = np.zeros((16, T_SIZE), dtype=np.int64)
    stored: dict[tuple[int, ...], tuple[int, int]] = {}
    while len(stored) < 10:  # (some keys collide and replace each other: keep the last)
        words = tuple(rng.getrandbits(62) for _ in range(TT_WORDS))
        i = tt_slot(table, _row(words), 3)
        lo, hi = rng.randint(-3, 0), rng.randint(0, 3)
        table[i, T_LO], table[i, T_HI] = lo, hi
        stored = {k: v for k, v in stored.items() if tt_find(table, _row(k)) >= 0}
        stored[words] = (lo, hi)
    return table, stored


def test_the_table_questions_table_starts_small_and_is_enlarged_once_outgrown() -> None:
    """_at_least: the same table when it has 2**bits entries or more, else one of 2**bits
    in which every key stored before is found with its bounds. The table question's
    table starts with 2**TABLE_FIRST_BITS entries and stays so while its search takes no
    more nodes than that (a planted start of 2**TABLE_BITS, or an enlargement that drops
    entries, fails here); a search that takes more goes on with 2**TABLE_BITS at least,
    to the same answer. The trick table is never made for the table question."""
    table, stored = _table_of_16(46)
    assert _at_least(table, 4) is table and _at_least(table, 3) is table
    bigger = _at_least(table, 7)
    assert bigger.shape == (128, T_SIZE)
    for words, (lo, hi) in stored.items():
        j = tt_find(bigger, _row(words))
        assert j >= 0 and (bigger[j, T_LO], bigger[j, T_HI]) == (lo, hi)
    assert (TABLE_FIRST_BITS, TABLE_BITS) == (10, 14)
    sizes = {}
    for index in (0, 68):  # (survey deals of seed 0: 32 and 2,043 nodes)
        pos = survey_deal(SurveySpec(4, "official", "table", 0), index).position
        core = core_for(FastState(pos), 0)
        answer, nodes = core.table(None)
        assert answer is True and core._ttable is not None
        sizes[index] = (nodes, core._ttable.shape[0])
        assert core.tt.shape[0] == 0  # (the trick table is made by a trick search only)
    assert sizes == {0: (32, 1 << TABLE_FIRST_BITS), 68: (2043, 1 << TABLE_BITS)}


def test_the_table_grows_fourfold_to_its_cap_and_keeps_its_entries() -> None:
    """_grown: the same table while the nodes searched are at most four times its size or
    it has 2**max_bits entries; else one four times larger in which every key stored
    before is found with its bounds. A Core's trick table (made at its first trick
    search, at the size its first load set) starts at 2**TT_BITS entries at most and
    grows to that, except for a long search (a first position with 7 or more
    tricks left, 4 players; 6 or more, 5 players), which has 2**TT_LONG_BITS from the
    start; a Core made with a table size of its own keeps it, the default one
    included."""
    table, stored = _table_of_16(18)
    assert _grown(table, 64, 6) is table  # nodes <= 4 * 16
    bigger = _grown(table, 65, 6)
    assert bigger.shape == (64, T_SIZE)
    for words, (lo, hi) in stored.items():
        j = tt_find(bigger, _row(words))
        assert j >= 0 and (bigger[j, T_LO], bigger[j, T_HI]) == (lo, hi)
    assert _grown(bigger, 10**9, 6) is bigger  # at the cap: 2**6 entries
    assert (TT_BITS, TT_LONG_BITS) == (20, 22)
    caps: dict[int, dict[int, tuple[int, int]]] = {}
    for n in (4, 5):
        start, line = paradox_free_round(Ruleset.from_name("official", n), 5)
        for pos in replay(start, line):
            if not pos.trick and pos.tricks_left not in caps.get(n, {}):
                core = core_for(FastState(pos), 0)
                size = core._trick_table().shape[0].bit_length() - 1
                caps.setdefault(n, {})[pos.tricks_left] = (size, core.tt_cap)
                for bits in (3, TT_BITS):
                    own = core_for(FastState(pos), 0, tt_bits=bits)
                    assert own.tt_cap == bits and own._trick_table().shape[0] <= 1 << bits
    assert caps[4][7] == (22, 22) and caps[4][6] == (20, 20) and caps[4][4] == (16, 20)
    assert caps[5][6] == (22, 22) and caps[5][5] == (20, 20)


def _row(words: tuple[int, ...]) -> np.ndarray:
    """A scratch row holding the key ``words``."""
    row = np.zeros(B_SIZE, dtype=np.int64)
    row[B_WORDS:B_WORDS + TT_WORDS] = words
    return row


@cache
def _small_trick_starts() -> tuple[Position, ...]:
    """Every trick start with a legal play in the game trees of the small positions whose
    trees have fewer than 3000 positions."""
    out: list[Position] = []
    seen: set[Position] = set()
    for root in small_positions():
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
    core = core_for(FastState(pos), hero, tt_bits=12)
    make_key(core.s, words)
    return tuple(int(w) for w in words[B_WORDS : B_WORDS + TT_WORDS])


def test_one_key_one_value() -> None:
    """The compiled table's key (make_key) merges only trick starts of equal value: every
    trick start in the game trees of small positions, for every hero, grouped by ruleset,
    hero and key, has one value of the plain minimax. The key renumbers the live values,
    counts a seat's colors and a value's cells only while some play can still use them,
    and a seat's copies of a value only up to its free cells of it in its colors; many
    groups merge positions that differ in their hands, never in the tricks left."""
    memo: Memo = {}
    groups: dict[tuple[object, ...], tuple[Position, int]] = {}
    words = np.zeros(B_SIZE, dtype=np.int64)
    merged = spare = 0
    for pos in _small_trick_starts():
        for hero in range(pos.rules.players):
            got = rest_value(pos, hero, memo)
            first = groups.setdefault((pos.rules, hero, *_key(pos, hero, words)), (pos, got))
            if first[0] != pos:
                assert first[1] == got, (repr(first[0]), repr(pos), hero)
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
    memo: Memo = {}
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
                        before = rest_value(pos, hero, memo)
                        after = rest_value(var, hero, memo)
                        if spare:
                            assert after == before, (repr(pos), seat, v, w, hero)
                            same_key += 1
                        else:
                            other_key += 1
                            differ += after != before
                    break
    assert same_key > 15_000, same_key
    assert other_key > 15_000, other_key
    assert differ > 5_000, differ  # the exchanges that change the key often matter


def _dead(pos: Position, v: int, c: int) -> bool:
    """No seat holding value ``v`` has color ``c``: its cell can never be filled."""
    return not any(v in hand and pos.colors[i] >> c & 1 for i, hand in enumerate(pos.hands))


def _one_field_changed(pos: Position, leader: bool) -> Iterator[tuple[str, Position]]:
    """Valid trick starts that differ from ``pos`` in one field of the search's state:
    another leader (one that has won a trick); red broken or not (a seat's token moved
    between a plain cell and a red one, both cells where nobody can play: every red
    token off the red row, or one onto it while red is unbroken)."""
    n = pos.rules.players
    for seat in range(n if leader else 0):
        if seat != pos.leader and (pos.tricks_won[seat] or not pos.tricks_played):
            yield "leader", pos._replace(leader=seat)
    nv = pos.rules.values
    cells = [(v, c) for v in range(1, nv + 1) for c in range(4) if _dead(pos, v, c)]
    free = [x for x in cells if not pos.used >> (4 * x[0] - 4 + x[1]) & 1]
    taken = [x for x in cells if x not in free]
    red_used = [(v, 0) for v in range(1, nv + 1) if pos.used >> (4 * v - 4) & 1]
    moves: list[tuple[tuple[int, int], tuple[int, int]]] = []
    if not red_used:  # a token from a plain cell to a red one
        moves = [(x, y) for x in taken if x[1] for y in free if not y[1]][:1]
    elif all(x in taken for x in red_used):  # every red token to a plain cell
        moves = list(zip(red_used, [y for y in free if y[1]], strict=False))
        if len(moves) < len(red_used):
            return
    owners = list(pos.owners)
    for (v, c), (w, d) in moves:
        bit = 1 << (4 * v - 4 + c)
        for seat, mask in enumerate(owners):
            if mask & bit:
                owners[seat] = mask & ~bit | 1 << (4 * w - 4 + d)
                break
        else:
            return  # (a neutral token)
    if moves:
        yield "red broken", pos._replace(owners=tuple(owners))


def test_the_key_tells_the_leader_and_red_broken() -> None:
    """Pairs of trick starts that differ only in the leader, or only in whether red is
    broken, and whose values (plain minimax) differ: one Core searches the first for
    every r, then the second on the same table, and answers both right (a key that forgot
    the field would read the first one's bounds for the second). Trick starts of the
    small positions' game trees, and for red broken also of random rounds (up to 4
    tricks left, small trees), every hero."""
    memo: Memo = {}
    pairs = dict.fromkeys(("leader", "red broken"), 0)
    starts = [p for p in round_positions() if 0 < p.tricks_left <= 4 and not p.trick
              and p.legal_plays() and tree_size(p, 3000) < 3000]
    cases = [(p, True) for p in _small_trick_starts()] + [(p, False) for p in starts]
    for pos, leader in cases:
        for field, var in _one_field_changed(pos, leader):
            if not var.legal_plays() or tree_size(var, 3000) >= 3000:
                continue
            for hero in range(pos.rules.players):
                a, b = rest_value(pos, hero, memo), rest_value(var, hero, memo)
                if a == b:
                    continue
                pairs[field] += 1
                fs_a, fs_b = FastState(pos), FastState(var)
                core = core_for(fs_a, hero)
                tl = pos.tricks_left
                for first, fs, want in ((True, fs_a, a), (False, fs_b, b)):
                    if not first:
                        core.load(fs.used, fs.leader, fs.tricks_left, fs.trick, fs.hands,
                                  fs.colors)
                    for r in range(-tl, tl + 1):
                        assert core.u(r, None)[0] == (r <= want), (field, repr(var), hero, r)
    assert pairs == {"leader": 4424, "red broken": 3}


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
    sizes = {r: core_for(fs, 0).u(r, None) for r in range(tl, tl - 3, -1)}
    big = next(r for r in sorted(sizes, reverse=True) if sizes[r][1] > 4096)
    little = next(r for r in sorted(sizes, reverse=True) if 0 < sizes[r][1] < 4096)
    core = core_for(fs, 0)
    assert core.u(big, time.perf_counter()) == (None, 4096)
    assert core.u(big, None)[0] == sizes[big][0]
    assert core_for(fs, 0).u(little, time.perf_counter()) == sizes[little]

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
def test_u_equals_the_plain_minimax_on_random_positions(seed: int, rules: Ruleset) -> None:
    """A fresh Search for every r (no table carried over) answers u(r) as the plain
    minimax, on a random position with 1-2 tricks left."""
    rng = random.Random(seed)
    cands: list[Position] = []
    while not cands:
        line = random_line(start_position(rules, rng), rng)
        cands = [p for p in line if 0 < p.tricks_left <= 2 and p.legal_plays()]
    pos = rng.choice(cands)
    hero = rng.randrange(rules.players)
    want = rest_value(pos, hero, {})
    tl = pos.tricks_left
    for r in range(-tl, tl + 1):
        assert Search(pos, hero)._u(r) == (r <= want), (repr(pos), hero, r)


def test_there_is_one_search_engine() -> None:
    """The search has one engine: an ``engine`` argument is not accepted."""
    pos = start_position(Ruleset(players=3), 4)
    with pytest.raises(TypeError):
        solve(pos, 0, "paradox", engine="gpu")  # type: ignore[call-arg]


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
