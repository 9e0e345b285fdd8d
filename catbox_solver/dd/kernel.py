"""The double-dummy search's kernel (numba): the one production search, on plain int64
arrays; dd/solve.py's Search drives it (exact values, ranges, races, lines).

Why numba: a pure-Python search runs about 250,000 nodes per second, the limit of the
interpreter; numba compiles these functions to machine code at first use (cached on disk
afterwards), from a wheel on PyPI, with no compiler on the machine.

What is here (the readable references for correctness are ``Position`` for the rules and
the plain minimax of tests/oracles/minimax_ref.py for values; each cut-off's soundness
argument is in its docstring and in docs/search.md):

- the move generator of ``FastState.legal`` (itself ``Position.legal_plays``) for every
  rule reading, and the trick winner of ``trick_winner_index``;
- the zero-window search ``u(r)`` ("can the hero make sure the rest of the round is worth
  at least r?") with the counting bounds, the safe-seat test, the move ordering and a
  transposition table on the canonical key (blue, yellow, green interchangeable);
- the transposition table: open addressing, 4 probes, replace when full. Every stored
  bound is proven, so losing an entry costs time, never exactness;
- one addition of its own, *probes* (see ``game``): from 5 tricks left, in the searches
  with r = 0, each play first gets a small node budget, so that a costly wrong first
  choice does not hold up a cheap right one. They change the work, never an answer.

State layout (``s``, int64): see the ``S_*`` offsets. Plays are coded ``4 * value + color``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
from numba import int64, njit, objmode, types, uint64
from numba.extending import intrinsic
from numba.np.numpy_support import carray

# ---- the state array ------------------------------------------------------------------
S_N = 0  # players
S_NV = 1  # values in play
S_HERO = 2
S_REDROW = 3  # mask of the red cells
S_MUST = 4  # 1: must follow the led color
S_LOSSLED = 5  # 1: the led color is lost (official), 0: the declared color
S_REDLEAD = 6  # 0 exception, 1 never, 2 per-card
S_USED = 7  # used cells, bit 4(v-1)+c
S_LEADER = 8
S_TL = 9  # tricks left
S_TLEN = 10  # plays in the current trick
S_TRICK = 11  # 5 plays of the trick, coded 4v+c
S_HANDS = 16  # 5 packed hands (copies of v in bits 4(v-1)..)
S_COLORS = 21  # 5 color masks
S_NODES = 26
S_ABORT = 27  # 1: the deadline passed, the search unwinds without storing
S_HITS = 32  # 5 scratch counters of the safe-seat test (copies of a value for Hall)
S_MASKS = 40  # 5 scratch masks (cells of a value a holder can fill, for Hall)
# the score question
S_WON = 48  # tricks the hero has won
S_OWN = 49  # the hero's tokens (cells)
S_PRED = 50  # the hero's prediction, -1: unknown
S_AT_MOST_4 = 51  # 1: 2-player bonus reading "at most 4 tricks"
S_REMOVED = 52  # 1: an interrupted trick's tokens are removed
S_DIAG = 53  # 1: groups connect diagonally too
S_ROW_OF = 54  # 4: the board row of each color
# probes (see game)
S_LIMIT = 58  # the node count at which a probe or a capped search gives up (S_ABORT 2)
S_IN_PROBE = 59  # 1: inside a probe
S_PROBE_TL = 60  # probes at nodes with at least this many tricks left
S_PROBE_NODES = 61  # a probe's node budget
S_PROBE_FIRST = 62  # the first play in order gets 2**this times the budget
S_PROBES_CUT = 63  # probes cut short (a count, for the tests)
S_STOP = 64  # 1: stop (Core.stop, Ctrl-C): the search unwinds as on a timeout
S_WATCH = 65  # 1: read the clock through Python every 4096 nodes (Core.watch)
S_SIZE = 66

MAX_PLY = 48
MAX_PLAYS = 40
# one row of the per-ply buffer: plays, their sort keys, the saved trick, the key words
B_PLAYS = 0
B_KEYS = 40
B_SAVED = 80
B_WORDS = 88
B_OLD = 92  # color mask of the player to move before its play
B_SIZE = 96

NO_LIMIT = 1 << 62
# the probes by default (measured on bench/bench_search.py, see docs/search.md)
PROBE_TL = 5
PROBE_NODES = 500
PROBE_FIRST = 5

# The coalition's learned order when the hero is cornered (r < 0), from LEARNED_TL tricks
# left down (session 8, from 6; session 17, from 7: at 8 it lost on a first lead, at 7
# it lost nowhere measured; see _order_learned and docs/search.md). Rows: the context of the
# node (0: the coalition leads; 1: the hero has played and is not winning the trick; 2: the
# hero has played and is winning it; 3: the hero plays later in the trick). Columns: the
# play is in the led color, is red, takes the trick as it stands, fills a cell of the hero
# (a value it holds, a color it has), a tight one (no more free cells of that value in
# its colors than its copies), one of its highest value, is of a high value (above half
# of the values), leads a color the hero could still follow with a free cell.
LEARNED_TL = 7
LEARNED_WEIGHTS = np.array(
    [
        [0, -4, 0, 0, 0, 0, 0, -4],
        [1, -1, -1, 1, -2, 7, 1, 0],
        [1, -1, 0, 3, 3, -1, 0, 0],
        [0, -4, 0, 4, 0, 1, -4, 0],
    ],
    dtype=np.int64,
)

# The tables grow to at most 2**tt_bits entries of 64 bytes (Core; 2**TT_BITS, 64 MB, by
# default), except the trick table of a long search: one whose first position calls for
# 2**TT_LONG_BITS entries or more (7 or more tricks left with 4 players, 6 with 5) has
# 2**TT_LONG_BITS (256 MB) from the start. Session 18: 64 MB was too small for the
# searches from the first lead. One play's exact value, 2**20 entries -> 2**22: 4
# players, position 1's 1b 93.5 M nodes in 49.1 s -> 75.2 M in 39.3 s; 5 players,
# position 0's 1b 121.6 M in 60.5 s -> 106.0 M in 54.7 s, position 1's 1b 216.3 M in
# 143.5 s -> 184.6 M in 125.7 s (2**24 and 2**26 entries: no fewer nodes than 2**22,
# and 2**26 slower). A search of 20 M nodes pays for the larger table (4 players,
# position 3's whole answer 6.9 -> 7.5 s), and searches of 5-10 M nodes at 5 tricks left
# lost about 10 % with it (5 players), hence only the long ones; the table grows only
# between searches, so it starts at its full size. Replacing the entry with the fewest
# tricks left instead of the first probed saved 0.5 %: not kept.
TT_BITS = 20
TT_LONG_BITS = 22
TT_WORDS = 4
# one table entry (64 bytes, one cache line): the key words, then
T_FLAG = 4  # 1: the entry is in use
T_LO = 5  # proven lower bound of u
T_HI = 6  # proven upper bound of u
T_SIZE = 8

Arr = npt.NDArray[Any]

# How the core is compiled: cached on disk; division by zero (which cannot happen here)
# does not raise ("numpy"), so the functions have no exception paths for it; the small
# hot helpers are inlined into their callers (session 16: together with the views
# without reference counts, see game_held, nodes 1.58 times cheaper).
_jit = njit(cache=True, error_model="numpy")
_jit_inline = njit(cache=True, error_model="numpy", inline="always")
_jit_nogil = njit(cache=True, error_model="numpy", nogil=True)

_POP = np.array([bin(i).count("1") for i in range(16)], dtype=np.int64)


@_jit_inline
def _md(x: int, n: int) -> int:
    """``x % n`` for -2n <= x < 3n without a division (seat arithmetic in hot loops)."""
    if x < 0:
        x += n
        if x < 0:
            x += n
    elif x >= n:
        x -= n
        if x >= n:
            x -= n
    return x


@_jit_inline
def _winner(s: Arr, n: int) -> int:
    """Index of the play winning the first ``n`` plays of the trick (trick_winner_index):
    the highest red if any red, else the highest of the led color."""
    trump = s[S_TRICK] & 3
    for i in range(n):
        if (s[S_TRICK + i] & 3) == 0:
            trump = 0
            break
    best = -1
    bi = 0
    for i in range(n):
        pl = s[S_TRICK + i]
        if (pl & 3) == trump and pl >> 2 > best:
            best = pl >> 2
            bi = i
    return bi


@_jit
def _add(out: Arr, k: int, v: int, mask: int) -> int:
    """Append the plays of value ``v`` in the colors of ``mask`` to ``out[:k]``."""
    for c in range(4):
        if mask >> c & 1:
            out[k] = 4 * v + c
            k += 1
    return k


@_jit
def gen_plays(s: Arr, out: Arr) -> int:
    """The distinct legal plays of the player to move into ``out``; returns how many
    (FastState.legal, same order)."""
    if s[S_TL] == 0:
        return 0
    n = s[S_N]
    tlen = s[S_TLEN]
    p = _md(s[S_LEADER] + tlen, n)
    cols = s[S_COLORS + p]
    used = s[S_USED]
    h = s[S_HANDS + p]
    nv = s[S_NV]
    k = 0
    if tlen > 0:
        if s[S_MUST]:
            lc = s[S_TRICK] & 3
            for v in range(1, nv + 1):
                sh = 4 * v - 4
                if h >> sh & 15 and ~(used >> sh) & cols & (1 << lc):
                    out[k] = 4 * v + lc
                    k += 1
            if k:
                return k
        for v in range(1, nv + 1):
            sh = 4 * v - 4
            if h >> sh & 15:
                k = _add(out, k, v, ~(used >> sh) & cols & 15)
        return k
    if used & s[S_REDROW]:
        for v in range(1, nv + 1):
            sh = 4 * v - 4
            if h >> sh & 15:
                k = _add(out, k, v, ~(used >> sh) & cols & 15)
        return k
    mode = s[S_REDLEAD]
    if mode == 2:
        for v in range(1, nv + 1):
            sh = 4 * v - 4
            if h >> sh & 15:
                free = ~(used >> sh) & cols & 15
                m = free & 14
                if m == 0:
                    m = free & 1
                k = _add(out, k, v, m)
        return k
    for v in range(1, nv + 1):
        sh = 4 * v - 4
        if h >> sh & 15:
            k = _add(out, k, v, ~(used >> sh) & cols & 14)
    if k == 0 and mode == 0:
        for v in range(1, nv + 1):
            sh = 4 * v - 4
            if h >> sh & 15:
                k = _add(out, k, v, ~(used >> sh) & cols & 1)
    return k


# ---- counting facts --------------------------------------------------------------------
@_jit
def capacity(s: Arr, seat: int) -> int:
    """The most plays ``seat`` can still make: sum over values of min(copies it holds, empty
    cells of that value in its colors). Cells only fill and colors are only lost, so this
    never grows."""
    return _capacity_in(s, seat, s[S_COLORS + seat])


@_jit
def _capacity_in(s: Arr, seat: int, cols: int) -> int:
    """Sum over values of min(copies ``seat`` holds, empty cells of that value in the
    colors ``cols``)."""
    return _cap(s[S_HANDS + seat], s[S_USED], cols)


# Nibble arithmetic (session 17). Hands, cells and the research board keep one nibble per
# value (bit 4(v-1) + color), so the counting tests work on every value at once with a
# few operations on one integer instead of a loop over the values (and seats) with
# branches: _nib_count counts the bits of each nibble, _nib_sum adds the nibbles, and a
# comparison per nibble uses a guard bit: ((a | _N8) - b) has bit 3 of a nibble set
# exactly when a >= b there, as long as a <= 7 and b <= 8 in every nibble, which holds
# for what is compared: copies (a value has 5 copies in all) and cells (4 per value).
_N1 = 0x111111111111111  # the low bit of each of 15 nibbles (one per value)
_N8 = 0x888888888888888  # the high bit of each


@_jit_inline
def _nz(x: int) -> int:
    """1 in each nibble of ``x`` that is not zero."""
    return (x | x >> 1 | x >> 2 | x >> 3) & _N1


@_jit_inline
def _nib_count(x: int) -> int:
    """The number of set bits of each nibble of ``x``, in that nibble."""
    x = x - (x >> 1 & 0x5555555555555555)
    return (x & 0x3333333333333333) + (x >> 2 & 0x3333333333333333)


@_jit_inline
def _nib_sum(x: int) -> int:
    """The sum of the nibbles of ``x`` (at most 255)."""
    y = (x & 0x0F0F0F0F0F0F0F0F) + (x >> 4 & 0x0F0F0F0F0F0F0F0F)
    y += y >> 8
    y += y >> 16
    return (y + (y >> 32)) & 255


@_jit_inline
def _nib_ge(a: int, b: int) -> int:
    """1 in each nibble where ``a >= b`` (the guard bit: a <= 7, b <= 8 there)."""
    return ((a | _N8) - b) >> 3 & _N1


@_jit_inline
def _nib_min(a: int, b: int) -> int:
    """The smaller of ``a`` and ``b`` in each nibble (a <= 7, b <= 8)."""
    m = _nib_ge(a, b) * 15
    return b & m | a & ~m


@_jit_inline
def _nib_monus(a: int, b: int) -> int:
    """max(0, a - b) in each nibble (a <= 7, b <= 8)."""
    d = (a | _N8) - b
    return d & 7 * _N1 & (d >> 3 & _N1) * 15


@_jit_inline
def _losers(free: int, c: int, best: int, red: bool) -> int:
    """Of the free cells ``free`` (a nibble per value), those that do not win a trick led
    in color ``c`` whose winning card is ``best`` (red if ``red``): once red wins, every
    plain cell and a lower red; else the plain cells of other colors and a lower card of
    the led color (every value at once)."""
    led = (1 << c) * _N1
    lower = (1 << (4 * best - 4)) - 1 if best > 0 else 0  # the values below best
    if red:
        return free & (14 * _N1 | (_N1 & lower))
    return free & ((14 * _N1 & ~led) | (led & lower))


@_jit_inline
def _free_cells(h: int, used: int, cols: int) -> int:
    """The free cells of the values in the packed hand ``h``, in the colors ``cols``."""
    return ~used & (cols & 15) * _N1 & _nz(h) * 15


@_jit_inline
def _cap(h: int, used: int, cols: int) -> int:
    """Sum over values of min(copies in the packed hand ``h``, empty cells of that value
    in the colors ``cols``), all values at once, nibble by nibble (SWAR: no loop, no
    branch; copies are at most 5, free cells at most 4, so no nibble overflows)."""
    return _nib_sum(_nib_min(h, _nib_count(~used & (cols & 15) * _N1)))


@_jit
def safe(s: Arr, seat: int, plays_needed: int) -> bool:
    """Counting fact: ``seat`` can make each of its next ``plays_needed`` plays, whatever the
    others do.

    Its *capacity* cells: empty, of a value it holds, in a color it still has; capacity =
    sum over values of min(copies, capacity cells). Strategy: follow the led color with a
    capacity cell if there is one, else make any legal play. Then the led color is lost only
    when it holds no capacity cell, so each own play lowers the capacity by exactly one, and
    each play of another seat (one cell) by at most one. The others can ever fill at most
    min(cells of value v some other holder of v has the color of, copies of v those holders
    hold) of value v's capacity cells, and the first ``max(0, cells - copies)`` of these
    fills cost nothing: the *damage* D is the sum over values of what is left. Before the
    seat's k-th turn from now another seat i plays at most once per trick (in this trick if
    it has not played yet, and in each later trick up to that turn; the leader of a later
    trick is unknown), and at most once per copy it holds of the values it can hurt. So with
    capacity - (k - 1) - min(D, sum of those plays) >= 1 for k = ``plays_needed`` (the
    hardest turn) the seat always has a legal play. (Cells nobody else can fill make D = 0
    for their value: this contains the reserved-cell matching.) Needs the official color
    loss (the led color is lost). Red cells count unless red can never be led (quick-
    reference reading) while red is unbroken. The others fill only cells of the colors in
    ``fillable`` (all four here; see _safe_in)."""
    return _safe_in(s, seat, plays_needed, 15)


@_jit
def _safe_in(s: Arr, seat: int, plays_needed: int, fillable: int) -> bool:
    """safe, with the others filling only cells of the colors in ``fillable``."""
    if not s[S_LOSSLED]:
        return False
    n = s[S_N]
    used = s[S_USED]
    cols = s[S_COLORS + seat]
    if s[S_REDLEAD] == 1 and not used & s[S_REDROW]:
        cols &= 14
    hs = s[S_HANDS + seat]
    cap = _cap(hs, used, cols)
    if cap < plays_needed:
        return False  # quick refusal: the capacity alone falls short
    # every value at once, nibble by nibble (as in _loser_margin): the free cells of the
    # values the seat holds, in its colors
    free = _free_cells(hs, used, cols)
    threat = 0  # the free cells other seats could fill
    k = 0  # per value, the copies of those seats (at most 5: a value has 5 copies in all)
    for i in range(n):
        s[S_HITS + i] = 0
        if i == seat:
            continue
        hi = s[S_HANDS + i]
        y = free & (s[S_COLORS + i] & fillable & 15) * _N1 & _nz(hi) * 15
        if y:
            threat |= y
            on = _nz(y) * 15
            s[S_HITS + i] = _nib_sum(hi & on)
            k += hi & on
    # the damage of a value: min(threatened cells, copies), less the cells beyond the
    # seat's copies (those cost nothing), if positive
    spare = _nib_monus(_nib_count(free), hs & _nz(free) * 15)  # cells beyond the copies
    dmg = _nib_sum(_nib_monus(_nib_min(_nib_count(threat), k), spare))
    if cap - dmg >= plays_needed:
        return True
    leader = s[S_LEADER]
    done = s[S_TLEN]
    p0 = leader + done
    played = _md(seat - leader, n) < done
    gap = _md(seat - p0, n)
    later = plays_needed if played else plays_needed - 1
    others = 0
    for i in range(n):
        hh = s[S_HITS + i]
        if hh:
            if later:
                turns = later + (1 if _md(i - leader, n) >= done else 0)
            else:
                turns = 1 if _md(i - p0, n) < gap else 0
            others += hh if hh < turns else turns
    return cap - (dmg if dmg < others else others) >= plays_needed


@_jit
def bounds(s: Arr) -> tuple[int, int]:
    """Bounds on the outcome u at the start of a trick from counting facts alone.

    The hero's *capacity* -- the most plays it can still make, sum over values of min(copies
    it holds, empty cells of that value in its colors) -- can only shrink. It wins a trick
    only with a play, so u >= -1 - capacity. If some color keeps it safe (``safe``) for
    the ``tl`` plays it must make, u >= 0; so too if another seat's capacity c is below
    ``tl`` and the hero is safe for c + 1 turns. Another seat with capacity c is stuck at
    its (c + 1)-th turn at the latest, which ends the round within c + 1 tricks: the hero
    wins at most c tricks before any paradox of its own, so u >= -1 - c too. If its capacity
    is below ``tl`` it is stuck at its (capacity + 1)-th turn at the latest; when every
    other seat is safe for that many turns, the coalition can make sure that nobody else is
    stuck first, so u <= -1."""
    tl = s[S_TL]
    hero = s[S_HERO]
    n = s[S_N]
    cap = capacity(s, hero)
    if cap >= tl and safe(s, hero, tl):
        return 0, tl
    least = tl  # the smallest capacity of another seat
    for seat in range(n):
        if seat != hero:
            c = capacity(s, seat)
            if c < tl and safe(s, hero, c + 1):
                return 0, tl
            if c < least:
                least = c
    if cap >= tl:
        return -1 - least if least < tl else -tl, tl
    lo = -1 - (cap if cap < least else least)
    turns = cap + 1
    for seat in range(n):
        if seat != hero and not safe(s, seat, turns):
            return lo, tl
    return lo, -1


@_jit
def _stolen(by: int, hit: int) -> int:
    """Cells the seats in the mask ``by`` can take, one each, of ``hit`` they could."""
    seats = _POP[by & 15] + (by >> 4 & 1)
    return hit if hit < seats else seats


@_jit
def _takers(s: Arr, sh: int, c: int, first: int, m: int) -> int:
    """The seats, of the ``m`` from ``first`` on, that could fill the cell of color ``c``
    of the value at bit ``sh`` (they hold the value and have the color), as a mask."""
    n = s[S_N]
    by = 0
    for t in range(m):
        i = _md(first + t, n)
        if s[S_HANDS + i] >> sh & 15 and s[S_COLORS + i] >> c & 1:
            by |= 1 << i
    return by


@_jit
def _duck(s: Arr, c: int, best: int, red: bool, first: int, m: int) -> bool:
    """Does the hero, following a trick led in color ``c`` whose winning card so far is
    ``best`` (red if ``red``), keep a play that does not win it after the plays of the
    ``m`` seats from ``first`` on? Each of them fills at most one cell, and only a cell of
    a value it holds in a color it has. Losing plays: a lower card of the winning color,
    a plain card of another color, any plain card once red wins; with the official "no
    need to follow" all of them are legal, with "must follow" a follow if it has one,
    else any play. (Every value at once, nibble by nibble, as in _loser_margin.)"""
    hero = s[S_HERO]
    free = _free_cells(s[S_HANDS + hero], s[S_USED], s[S_COLORS + hero])
    lose = _losers(free, c, best, red)
    if s[S_MUST]:
        # the losing plays of the led color (one bit per value) come first
        if _kept_in(s, lose >> c & _N1, c, first, m):
            return True
        # no play of the led color even now: any play may be made
        if free >> c & _N1:
            return False
    # (must follow with no follow: no cell of the led color is counted)
    return _surely_free(s, lose, first, m)


@_jit
def _lead_loses(s: Arr) -> bool:
    """Has the hero, on lead, a lead that surely loses the trick? It does if a seat after
    it can only beat it or has no play at all (a paradox ends the round: the cornered hero
    is glad of it): with the official "no need to follow", when each play it has is a
    higher card of the led color or (plain lead) a red; with "must follow", when its
    plays of the led color are all higher and more than the seats between could fill.
    Cells only fill, so what holds now holds at its turn. Red leads count only once red
    is broken (the lead rules allow more: fewer is sound)."""
    n = s[S_N]
    hero = s[S_HERO]
    used = s[S_USED]
    cols = s[S_COLORS + hero]
    if not used & s[S_REDROW]:
        cols &= 14
    h = s[S_HANDS + hero]
    nv = s[S_NV]
    must = s[S_MUST]
    for v in range(1, nv + 1):
        sh = 4 * v - 4
        if not h >> sh & 15:
            continue
        free = ~(used >> sh) & cols & 15
        for c in range(4):
            if not free >> c & 1:
                continue
            after = used | 1 << (sh + c)
            for t in range(1, n):
                i = _md(hero + t, n)
                hi = s[S_HANDS + i]
                ci = s[S_COLORS + i]
                if not must:
                    beats = True
                    for w in range(1, nv + 1):
                        shw = 4 * w - 4
                        if hi >> shw & 15:
                            cells = ~(after >> shw) & ci & 15
                            if c != 0:
                                cells &= 14  # a red beats a plain lead
                            if w > v:
                                cells &= ~(1 << c)  # so does a higher card of its color
                            if cells:
                                beats = False
                                break
                    if beats:
                        return True
                    continue
                if not ci >> c & 1:
                    continue
                opts = 0
                above = True
                hit = 0
                by = 0
                for w in range(1, nv + 1):
                    shw = 4 * w - 4
                    if hi >> shw & 15 and not after >> (shw + c) & 1:
                        opts += 1
                        if w < v:
                            above = False
                            break
                        x = _takers(s, shw, c, _md(hero + 1, n), t - 1)
                        if x:
                            hit += 1
                            by |= x
                if not above or opts == 0:
                    continue
                if opts - _stolen(by, hit) >= 1:
                    return True
    return False


@_jit
def capacity_holds(s: Arr, row: Arr, k: int, r: int) -> bool:
    """(r < 0, a trick under way, ``plays`` those of the player to move) Do the capacities
    alone show u >= r? Another seat with capacity c is stuck at its (c + 1)-th turn at the
    latest, which ends the round: the hero wins at most c more tricks before that (c + 1 if
    the seat has played in this trick). Each trick the hero still wins takes one of its
    plays, and it makes at most its capacity more plays (each lowers it by one at least): so
    a paradox of the hero comes after at most capacity wins, plus this trick if its card is
    winning it (a card not winning at its turn never wins the trick). The cornered hero
    wants few wins: following in another color loses it the led color and can spend more
    capacity than the card; at its turn it takes the play that leaves the least."""
    n = s[S_N]
    hero = s[S_HERO]
    leader = s[S_LEADER]
    tlen = s[S_TLEN]
    for i in range(n):
        if i != hero and -1 - capacity(s, i) - (1 if _md(i - leader, n) < tlen else 0) >= r:
            return True
    if _md(hero - leader, n) < tlen:
        win = 1 if _md(leader + _winner(s, tlen), n) == hero else 0
        return -1 - capacity(s, hero) - win >= r
    if _md(leader + tlen, n) != hero:
        return -1 - capacity(s, hero) >= r
    for j in range(k):
        pl = row[j]
        w = _push(s, row, pl)
        if w >= 0:
            win = 1 if w == hero else 0
        else:
            win = 1 if _md(leader + _winner(s, tlen + 1), n) == hero else 0
        lo = -1 - capacity(s, hero) - win
        _pop(s, row, pl, w)
        if lo >= r:
            return True
    return False


@_jit
def red_holds(s: Arr) -> bool:
    """(r = 1 - tl: the coalition needs the hero to win every trick but the last and to be
    stuck in it) Is the hero safe (``safe``) to the end of the round with its red cells
    out of the others' reach, unless it loses a trick? When it plays red it plays its lowest
    *live* red (a value it holds whose red cell is empty). Another seat fills the red cell
    of a value the hero holds only with a red of that value: before the hero's card in this
    trick (each seat before it, once), or after it, where that red beats a plain card or a
    lower red and the hero loses the trick; a red below the hero's lowest live red takes
    none of them. So the safe-seat test holds with only blue, yellow and green cells filled
    by the others, and with one more turn to survive for each seat that plays before its
    next turn in this trick (after its card, if it has played: its red may not be its
    lowest). Official color loss, free following."""
    hero = s[S_HERO]
    if s[S_MUST] or not s[S_COLORS + hero] & 1:
        return False
    n = s[S_N]
    leader = s[S_LEADER]
    tlen = s[S_TLEN]
    tl = s[S_TL]
    if _md(hero - leader, n) < tlen:
        return _safe_in(s, hero, tl - 1 + n - tlen, 14)
    return _safe_in(s, hero, tl + _md(hero - leader - tlen, n), 14)


@_jit
def hero_ducks(s: Arr) -> bool:
    """Can the hero, not yet played in this trick, make sure not to win it, whatever the
    others play before its turn? (The cornered hero: see game.) A coalition leader leads
    its lowest card of the color to make the hero win; each seat between fills at most one
    cell, of a value it holds in a color it has; a card that does not win at its turn
    never wins the trick."""
    n = s[S_N]
    hero = s[S_HERO]
    leader = s[S_LEADER]
    tlen = s[S_TLEN]
    p = _md(leader + tlen, n)
    m = _md(hero - p, n)  # plays of others before the hero's turn
    if tlen:
        c = s[S_TRICK] & 3
        w = s[S_TRICK + _winner(s, tlen)]
        return _duck(s, c, w >> 2, (w & 3) == 0, p, m)
    if leader == hero:
        return _lead_loses(s)
    for c in range(4):
        low = _lowest(s, leader, c)  # the lowest lead of color c
        if low and not _duck(s, c, low, c == 0, _md(leader + 1, n), m - 1):
            return False
    return True


@_jit
def _loser_margin(
    s: Arr, cols: int, mult: int, c: int, best: int, nl: int, rows: int
) -> tuple[int, int, int]:
    """For a trick led in color ``c`` with ``best`` as its lowest possible winning card,
    the hero with colors ``cols``: how many of its losing plays are left after the fills of
    the other seats (``mult``: two bits per seat, how many cells it may fill; only a cell
    of a value it holds in a color it has), minus one (>= 0: it keeps one); the most of
    them one play of its own now can take (a single copy of a value takes all its cells,
    one of two copies one cell); and the cells of its plays now that would take more than
    that margin. Seat ``nl`` fills only in the colors ``rows``. Official reading only (no
    need to follow: every losing play is legal).

    Every value at once, nibble by nibble (see _cap; session 17: this test is asked
    about five times per node, and the loop over values and seats was a fifth of the
    search's time)."""
    n = s[S_N]
    h = s[S_HANDS + s[S_HERO]]
    lose = _losers(_free_cells(h, s[S_USED], cols), c, best, False)
    pc = _nib_count(lose)
    total = _nib_sum(pc)
    one = (h & _N1 & ~((h >> 1 | h >> 2 | h >> 3) & _N1)) * 15  # values held once
    single = lose & one
    multi = lose & ~one
    pcs = pc & one
    if pcs >> 2 & _N1:
        worst = 4
    elif (pcs & pcs >> 1) & _N1:
        worst = 3
    elif pcs >> 1 & _N1:
        worst = 2
    else:
        worst = 1 if lose else 0
    cells = 0
    most = 0  # per value, the fills of its holders (each at most its copies: at most 5)
    fills = 0
    for i in range(n):
        f = mult >> (2 * i) & 3
        if not f:
            continue
        hi = s[S_HANDS + i]
        cl = s[S_COLORS + i]
        if i == nl:
            cl &= rows
        y = lose & (cl & 15) * _N1 & _nz(hi) * 15
        if y:
            cells |= y
            most += _nib_min(hi, f * _N1) & _nz(y) * 15
            fills += f
    hit = _nib_sum(_nib_min(most, _nib_count(cells)))
    margin = total - (hit if hit < fills else fills) - 1
    # a single copy takes all its losing cells, one of two copies its own cell
    bad = multi if margin < 1 else 0
    if margin < 0:
        bad |= _nz(single) * 15
    elif margin < 4:
        bad |= _nib_ge(pcs, (margin + 1) * _N1) * 15
    return margin, worst, bad


@_jit
def _lowest(s: Arr, seat: int, c: int) -> int:
    """The lowest value ``seat`` can play in color ``c`` (0: none)."""
    if not s[S_COLORS + seat] >> c & 1:
        return 0
    x = _nz(s[S_HANDS + seat]) & ~(s[S_USED] >> c) & _N1
    if not x:
        return 0
    v = 1
    while not x & 1:
        x >>= 4
        v += 1
    return v


@_jit
def _losing_cells(s: Arr, c: int, best: int, red: bool, follows: bool) -> int:
    """The hero's plays (as cells) that do not win a trick led in color ``c`` whose winning
    card is ``best`` (red if ``red``): a plain card once red wins, a lower red; else a
    plain card of another color, a lower card of the led color (``follows``: only the
    plays of the led color)."""
    hero = s[S_HERO]
    free = _free_cells(s[S_HANDS + hero], s[S_USED], s[S_COLORS + hero])
    if follows:
        free &= (1 << c) * _N1
    return _losers(free, c, best, red)


@_jit
def _surely_free(s: Arr, cells: int, first: int, m: int) -> bool:
    """Is one of the hero's ``cells`` still free at its turn, whatever the ``m`` seats from
    ``first`` on play before it (one cell each, of a value it holds in a color it has)?"""
    n = s[S_N]
    taken = 0
    seats = 0  # per value, how many seats could fill one of its cells
    by = 0
    for t in range(m):
        i = _md(first + t, n)
        y = cells & (s[S_COLORS + i] & 15) * _N1 & _nz(s[S_HANDS + i]) * 15
        if y:
            taken |= y
            seats += _nz(y)
            by |= 1 << i
    hit = _nib_sum(_nib_min(seats, _nib_count(taken)))
    return _nib_sum(_nib_count(cells)) - _stolen(by, hit) >= 1


@_jit
def _low_follow(s: Arr, c: int, best: int, red: bool, first: int, m: int) -> bool:
    """Does the hero surely keep a follow of the led color ``c`` that does not win (the
    winning card so far ``best``, red if ``red``), whatever the ``m`` seats from ``first``
    fill before its turn? (Following keeps the color.)"""
    hero = s[S_HERO]
    if not s[S_COLORS + hero] >> c & 1:
        return False
    low = _nz(s[S_HANDS + hero]) & ~(s[S_USED] >> c) & _N1
    if not (red and c != 0):
        low &= (1 << (4 * best - 4)) - 1 if best > 0 else 0
    return _kept_in(s, low, c, first, m)


@_jit
def _kept_in(s: Arr, vals: int, c: int, first: int, m: int) -> bool:
    """Is the cell of color ``c`` of one of the values ``vals`` (one bit per value) still
    free at the hero's turn, whatever the ``m`` seats from ``first`` on play before it?
    A seat fills at most one such cell, of a value it holds, if it has the color."""
    n = s[S_N]
    hit = 0
    by = 0
    for t in range(m):
        i = _md(first + t, n)
        if s[S_COLORS + i] >> c & 1:
            x = vals & _nz(s[S_HANDS + i])
            if x:
                hit |= x
                by |= 1 << i
    return _nib_sum(vals) - _stolen(by, _nib_sum(hit)) >= 1


@_jit
def hero_ducks_twice(s: Arr, choose: bool) -> bool:
    """Does the hero surely lose this trick and the next? (The cornered hero, official
    reading: see game.) This trick as in hero_ducks (or the hero has played and does not
    lead it). Next trick: any seat that can still win this one leads, its lowest card of
    a color it has (a higher lead only widens the hero's losing plays); before the
    hero's turn each seat still to play in this trick fills one cell, and each seat
    between the next leader and the hero one more. The hero's own play now, when it does
    not lead, may cost it the led color (not if it surely keeps a losing follow); the card
    it plays takes its worst card, or (``choose``, when it does not lead) it plays one of
    the losing cards that hurt no next lead, if one of them surely stays free until its
    turn."""
    n = s[S_N]
    hero = s[S_HERO]
    leader = s[S_LEADER]
    tlen = s[S_TLEN]
    win = _winner(s, tlen) if tlen else 0  # index of the winning play so far
    played = _md(hero - leader, n) < tlen
    if played:
        if _md(leader + win, n) == hero:
            return False
    elif not hero_ducks(s):
        return False
    base = 0  # seats still to play in this trick, one cell each
    cand = 0  # seats that may lead the next trick
    for t in range(tlen, n):
        i = _md(leader + t, n)
        if i != hero:
            base += 1 << (2 * i)
            cand |= 1 << i
    if tlen:
        cand |= 1 << (_md(leader + win, n))
    cols = s[S_COLORS + hero]
    # the colors the hero may lose by its play now, one case each (bit 4, outside the four
    # colors: it loses none), with the losing cards it may play (the cells; the seats
    # before its turn: first, m); mine 0: the hero leads or has played
    lost = 0
    mine = 0
    lose0 = 0
    first = 0
    m = 0
    led = s[S_TRICK] & 3 if tlen else -1  # the led color (-1: the hero leads it, any)
    if played or leader == hero:
        lost = 16
    elif tlen:
        mine = 1
        c0 = s[S_TRICK] & 3
        wcard = s[S_TRICK + win]
        first = _md(leader + tlen, n)
        m = _md(hero - first, n)
        red = (wcard & 3) == 0
        if _low_follow(s, c0, wcard >> 2, red, first, m):
            lost = 16
            lose0 = _losing_cells(s, c0, wcard >> 2, red, True)
        else:
            lost = 1 << c0
            lose0 = _losing_cells(s, c0, wcard >> 2, red, False)
    else:
        # the color the leader leads (with its lowest card of it: a higher one only
        # widens the hero's losing plays, and its cell is none of them)
        mine = 2
        first = _md(leader + 1, n)
        m = _md(hero - leader, n) - 1
        for c in range(4):
            if _lowest(s, leader, c):
                lost |= 1 << c
    for x in range(5):
        if not lost >> x & 1:
            continue
        hc = cols & ~(1 << x)
        cands = lose0
        if mine == 2:
            led = x
            cands = _losing_cells(s, x, _lowest(s, leader, x), x == 0, False)
        bad = 0  # the cards the hero may not play now
        worst_ok = True
        for nl in range(n):
            if not cand >> nl & 1:
                continue
            mult = base
            j = _md(nl + 1, n)
            while j != hero:
                mult += 1 << (2 * j)
                j = _md(j + 1, n)
            for c in range(4):
                low = _lowest(s, nl, c)
                if not low:
                    continue
                # the next leader wins this trick: if it is still to play, its card is
                # of the led color or red
                rows = 15
                if base >> (2 * nl) & 3 and led >= 0:
                    rows = 1 << led | 1
                margin, worst, bad_lead = _loser_margin(s, hc, mult, c, low, nl, rows)
                if margin < 0:
                    return False
                if not played and margin < worst:
                    worst_ok = False
                    bad |= bad_lead
        if worst_ok:
            continue
        if not choose or not mine or not _surely_free(s, cands & ~bad, first, m):
            return False
    return True


# ---- the transposition table -------------------------------------------------------------
@_jit_inline
def _put(words: Arr, pos: int, x: int, width: int) -> int:
    """Append ``width`` bits of ``x`` at bit ``pos`` of the key ``words[B_WORDS:]``."""
    ux = uint64(x)
    i = B_WORDS + (pos >> 6)
    off = pos & 63
    words[i] = int64(uint64(words[i]) | (ux << uint64(off)))
    if off + width > 64:
        words[i + 1] = int64(uint64(words[i + 1]) | (ux >> uint64(64 - off)))
    return pos + width


@_jit
def make_key(s: Arr, words: Arr) -> None:
    """Canonical key at the start of a trick, coarse in exact ways (each
    merges only positions of equal value, for every question but score):

    - only *live* values count (values some seat can still play), renumbered 1, 2, ...
      in order: from a trick start on, a value matters only through which of its cells
      are free (for the copies still held) and through its order against other values
      (the trick winner), so the cells of values nobody can play and the gaps they leave
      change nothing (whether red is broken is kept as a bit of its own);
    - a seat's copies of a value count only up to its free cells of that value in its
      colors: cells only fill and colors are only lost, so it never plays more of them,
      and whenever it has such a cell it still has a copy (session 16);
    - a seat's color counts only while it has a free cell of that color for a value it
      holds: a color with no such cell never gives a play again, and losing it changes
      nothing; likewise a free cell that no holder of its value can fill counts as used.

    Then: red's (row, holders); blue, yellow and green as sorted (row,
    holders) since they are interchangeable; the leader; the hands."""
    n = s[S_N]
    nv = s[S_NV]
    used = s[S_USED]
    r0 = r1 = r2 = r3 = 0
    for i in range(n):
        s[S_MASKS + i] = 0  # the hand in live-value numbering
        s[S_HITS + i] = 0  # the colors that can still give this seat a play
    live = 0
    for v in range(nv):
        sh = 4 * v
        free = ~(used >> sh) & 15
        # live: some seat holds a copy and has a free cell of the value in its colors
        fill = 0
        for i in range(n):
            if s[S_HANDS + i] >> sh & 15 and free & s[S_COLORS + i]:
                fill |= s[S_COLORS + i]
        if fill == 0:
            continue
        # a cell no holder of the value can fill counts as used
        nib = ~(free & fill) & 15
        r0 |= (nib & 1) << live
        r1 |= (nib >> 1 & 1) << live
        r2 |= (nib >> 2 & 1) << live
        r3 |= (nib >> 3 & 1) << live
        for i in range(n):
            # a seat's copies count up to its free cells of the value in its colors
            cnt = s[S_HANDS + i] >> sh & 15
            m = _POP[free & s[S_COLORS + i]]
            if cnt > m:
                cnt = m
            if cnt:
                s[S_MASKS + i] |= cnt << (4 * live)
                s[S_HITS + i] |= ~nib & 15
        live += 1
    h0 = h1 = h2 = h3 = 0
    for i in range(n):
        cm = s[S_COLORS + i] & s[S_HITS + i]
        h0 |= (cm & 1) << i
        h1 |= (cm >> 1 & 1) << i
        h2 |= (cm >> 2 & 1) << i
        h3 |= (cm >> 3 & 1) << i
    f0 = r0 << 8 | h0
    a = r1 << 8 | h1
    b = r2 << 8 | h2
    c3 = r3 << 8 | h3
    if a > b:
        a, b = b, a
    if b > c3:
        b, c3 = c3, b
        if a > b:
            a, b = b, a
    for i in range(TT_WORDS):
        words[B_WORDS + i] = 0
    pos = _put(words, 0, f0, 17)
    pos = _put(words, pos, a, 17)
    pos = _put(words, pos, b, 17)
    pos = _put(words, pos, c3, 17)
    pos = _put(words, pos, s[S_LEADER], 3)
    pos = _put(words, pos, 1 if used & s[S_REDROW] else 0, 1)
    # the tricks left: with copies counted up to the free cells, the hands no longer
    # tell (256 bits in all with 5 players, 9 values and up to 8 tricks left)
    pos = _put(words, pos, s[S_TL], 4)
    for i in range(n):
        pos = _put(words, pos, s[S_MASKS + i], 4 * nv)


@_jit_inline
def _hash(words: Arr) -> int:
    h = uint64(0x9E3779B97F4A7C15)
    for i in range(TT_WORDS):
        h ^= uint64(words[B_WORDS + i])
        h *= uint64(0xBF58476D1CE4E5B9)
        h ^= h >> uint64(31)
    return int(h >> uint64(1))


@_jit_inline
def tt_find(tt: Arr, words: Arr) -> int:
    """Slot holding the key ``words[B_WORDS:]``, or -1."""
    mask: int = tt.shape[0] - 1
    i0: int = _hash(words) & mask
    for d in range(4):
        i = (i0 + d) & mask
        if tt[i, T_FLAG] == 0:
            return -1
        same = True
        for w in range(TT_WORDS):
            if tt[i, w] != words[B_WORDS + w]:
                same = False
                break
        if same:
            return i
    return -1


@_jit_inline
def tt_slot(tt: Arr, words: Arr, tl: int) -> int:
    """Slot for the key ``words[B_WORDS:]``: its own, else a new one (a free one, else the
    first probed, replaced) with the bounds (-tl, tl)."""
    mask: int = tt.shape[0] - 1
    i0: int = _hash(words) & mask
    for d in range(4):
        i = (i0 + d) & mask
        if tt[i, T_FLAG] == 0:
            return _claim(tt, i, words, tl)
        same = True
        for w in range(TT_WORDS):
            if tt[i, w] != words[B_WORDS + w]:
                same = False
                break
        if same:
            return i
    return _claim(tt, i0, words, tl)


@_jit_inline
def _claim(tt: Arr, i: int, words: Arr, tl: int) -> int:
    for w in range(TT_WORDS):
        tt[i, w] = words[B_WORDS + w]
    tt[i, T_FLAG] = 1
    tt[i, T_LO] = -tl
    tt[i, T_HI] = tl
    return i


# ---- move ordering -------------------------------------------------------------------------
@_jit
def _sort(row: Arr, k: int) -> None:
    """Stable insertion sort of the plays ``row[:k]`` by their keys ``row[B_KEYS:]``."""
    for i in range(1, k):
        pk = row[B_KEYS + i]
        pp = row[i]
        j = i - 1
        while j >= 0 and row[B_KEYS + j] > pk:
            row[B_KEYS + j + 1] = row[B_KEYS + j]
            row[j + 1] = row[j]
            j -= 1
        row[B_KEYS + j + 1] = pk
        row[j + 1] = pp


@_jit
def _hero_open_colors(s: Arr) -> int:
    """the colors (mask) in which the hero still has a free
    cell of a value it holds, so that it can follow a lead of them with a play."""
    hh = s[S_HANDS + s[S_HERO]]
    hc = s[S_COLORS + s[S_HERO]]
    used = s[S_USED]
    cols = 0
    for v in range(s[S_NV]):
        if hh >> (4 * v) & 15:
            cols |= ~(used >> (4 * v)) & hc & 15
    return cols


@_jit
def _order(s: Arr, plays: Arr, k: int, p: int, want: bool) -> None:
    """the hero keeps its colors (and wants tricks: red, high; else low,
    not red); the coalition takes the hero's cells, then follows the led color, or as
    leader leads a color the hero can still play in."""
    if k < 2:
        return
    hero = s[S_HERO]
    led = s[S_TRICK] & 3 if s[S_TLEN] else -1
    if p == hero:
        for i in range(k):
            v = plays[i] >> 2
            c = plays[i] & 3
            if want:
                plays[B_KEYS + i] = (c != led) * 256 + (c != 0) * 16 + (15 - v)
            else:
                plays[B_KEYS + i] = (c != led) * 256 + (c == 0) * 16 + v
    else:
        hh = s[S_HANDS + hero]
        hc = s[S_COLORS + hero]
        # a leader leads first the colors in which the hero can still play (it must
        # follow them, spending a cell, or lose the color)
        lead_cols = _hero_open_colors(s) if led < 0 else 0
        for i in range(k):
            v = plays[i] >> 2
            c = plays[i] & 3
            hit = 1 if (hh >> (4 * v - 4) & 15) and (hc >> c & 1) else 0
            plays[B_KEYS + i] = -(hit * 2 + (1 if c == led or (lead_cols >> c & 1) else 0))
    _sort(plays, k)


@_jit
def _order_learned(s: Arr, plays: Arr, k: int) -> None:
    """the coalition's plays at r < 0, stably sorted by their score
    in LEARNED_WEIGHTS (higher first; equal scores keep the hand-made order). Why: the
    hand-made order tried the refuting play late where it mattered most (session 7), and
    every hand-made change traded one position for another. The weights were fitted on
    about 10,000 coalition nodes of searches with 4 and 5 players, every play of each
    searched on its own, to the fewest nodes spent before the refuting play."""
    hero = s[S_HERO]
    n = s[S_N]
    tlen = s[S_TLEN]
    leader = s[S_LEADER]
    used = s[S_USED]
    hh = s[S_HANDS + hero]
    hc = s[S_COLORS + hero]
    nv = s[S_NV]
    top = 0
    for v in range(1, nv + 1):
        if hh >> (4 * v - 4) & 15:
            top = v
    lead_cols = 0 if tlen else _hero_open_colors(s)
    led = -1
    wv = 0
    wc = 0
    ctx = 0
    if tlen:
        led = s[S_TRICK] & 3
        w = _winner(s, tlen)
        wv = s[S_TRICK + w] >> 2
        wc = s[S_TRICK + w] & 3
        if _md(hero - leader, n) < tlen:
            ctx = 2 if _md(leader + w, n) == hero else 1
        else:
            ctx = 3
    for i in range(k):
        v = plays[i] >> 2
        c = plays[i] & 3
        cnt = hh >> (4 * v - 4) & 15
        hit = cnt > 0 and (hc >> c & 1) == 1
        sc = 0
        if c == led:
            sc += LEARNED_WEIGHTS[ctx, 0]
        if c == 0:
            sc += LEARNED_WEIGHTS[ctx, 1]
        if tlen and (v > wv if c == wc else c == 0):
            sc += LEARNED_WEIGHTS[ctx, 2]  # takes the trick as it stands
        if hit:
            sc += LEARNED_WEIGHTS[ctx, 3]
            if _POP[~(used >> (4 * v - 4)) & hc & 15] <= cnt:
                sc += LEARNED_WEIGHTS[ctx, 4]
            if v == top:
                sc += LEARNED_WEIGHTS[ctx, 5]
        if v > nv // 2:
            sc += LEARNED_WEIGHTS[ctx, 6]
        if lead_cols >> c & 1:
            sc += LEARNED_WEIGHTS[ctx, 7]
        plays[B_KEYS + i] = -sc
    _sort(plays, k)


@_jit
def _order_low(s: Arr, plays: Arr, k: int, p: int) -> None:
    """when the hero aims to win few tricks (r < 0)."""
    if k < 2:
        return
    hero = s[S_HERO]
    n = s[S_N]
    tlen = s[S_TLEN]
    if p != hero:
        _order(s, plays, k, p, False)
        if tlen:
            # a seat that cannot follow the led color discards in another color before it
            # ruffs
            led = s[S_TRICK] & 3
            void = True
            for i in range(k):
                if (plays[i] & 3) == led:
                    void = False
                    break
            if void:
                for i in range(k):
                    plays[B_KEYS + i] = 1 if (plays[i] & 3) == 0 else 0
                _sort(plays, k)
        leader = s[S_LEADER]
        if tlen and _md(hero - leader, n) < tlen:
            w = _winner(s, tlen)
            if _md(leader + w, n) == hero:
                hv = s[S_TRICK + w] >> 2
                hcol = s[S_TRICK + w] & 3
                led = s[S_TRICK] & 3
                for i in range(k):
                    v = plays[i] >> 2
                    c = plays[i] & 3
                    if hcol == 0:
                        plays[B_KEYS + i] = 1 if (v > hv and c == 0) else 0
                    else:
                        plays[B_KEYS + i] = 1 if (c == 0 or (c == led and v > hv)) else 0
                _sort(plays, k)
        if s[S_TL] <= LEARNED_TL:
            _order_learned(s, plays, k)
        return
    if not tlen:
        for i in range(k):
            plays[B_KEYS + i] = ((plays[i] & 3) == 0) * 16 + (plays[i] >> 2)
        _sort(plays, k)
        return
    led = s[S_TRICK] & 3
    top_red = 0
    top_led = 0
    for i in range(tlen):
        pl = s[S_TRICK + i]
        if (pl & 3) == 0 and pl >> 2 > top_red:
            top_red = pl >> 2
        if (pl & 3) == led and pl >> 2 > top_led:
            top_led = pl >> 2
    for i in range(k):
        v = plays[i] >> 2
        c = plays[i] & 3
        if c == 0:
            wins = v > top_red
        else:
            wins = top_red == 0 and c == led and v > top_led
        plays[B_KEYS + i] = wins * 4096 + (c != led) * 256 + (c == 0) * 16 + v
    _sort(plays, k)


@_jit
def order_plays(s: Arr, row: Arr, k: int, p: int, r: int) -> None:
    """Sort the plays ``row[:k]`` of seat ``p`` into the order the search ``u >= r``
    tries them (the cornered hero's order at r < 0, else the hero wanting tricks or not):
    the order that the line and the races of dd/solve.py follow."""
    if r < 0:
        _order_low(s, row, k, p)
    else:
        _order(s, row, k, p, r > 0)


# ---- the trick game ---------------------------------------------------------------------------
def _clock() -> float:
    """The clock, read by the compiled search every 4096 nodes when it has a deadline or
    is watched (Core.watch). A Python function on purpose: running Python code lets the
    interpreter run a pending signal handler, which compiled code never does; the handler
    of dd's Ctrl-C guard stops the search (S_STOP) and raises nothing (numba can lose an
    exception raised in object mode)."""
    return time.perf_counter()


@_jit
def _tick(s: Arr, deadline: float) -> None:
    s[S_NODES] += 1
    if s[S_NODES] > s[S_LIMIT]:
        s[S_ABORT] = 2  # a probe's budget is used up
    if (s[S_NODES] & 4095) == 0:
        if deadline > 0.0 or s[S_WATCH]:
            with objmode(now="float64"):
                now = _clock()  # (a Ctrl-C handler may run here and set S_STOP)
            if deadline > 0.0 and now > deadline:
                s[S_ABORT] = 1
        if s[S_STOP]:
            s[S_ABORT] = 1  # stopped (Ctrl-C, Core.stop): unwind as on a timeout


@_jit_inline
def _store(tt: Arr, words: Arr, tl: int, r: int, res: bool) -> None:
    """Tighten the stored bounds of the key ``words`` with the answer ``res`` to "value >=
    r" (a new entry starts from the bounds (-tl, tl))."""
    i = tt_slot(tt, words, tl)
    if res:
        if r > tt[i, T_LO]:
            tt[i, T_LO] = r
    elif r - 1 < tt[i, T_HI]:
        tt[i, T_HI] = r - 1


@_jit
def game(s: Arr, score: int, r: int, ply: int, buf: Arr, tt: Arr, tsc: Arr,
         deadline: float) -> bool:
    """The hero's zero-window game, one self-recursive function for both questions (numba
    cannot load from its cache a function that calls another recursive one):

    - ``score`` 0: can the hero make sure that the outcome u of the rest of the round
      is at least ``r``? u = g >= 0 if the hero causes no paradox and wins
      g more tricks, -1 - g if it causes a paradox after winning g more tricks.
    - ``score`` 1: can the hero make sure its round score is at least ``r``?
      (``tsc`` is its table, ``s[S_WON]`` and ``s[S_OWN]`` its tricks and
      tokens.)

    ``buf[ply]`` is this node's scratch row (plays, keys, saved trick, key words). With
    ``s[S_ABORT]`` set the result means nothing and nothing more is stored.

    The recursive calls pass only int64 variables, never literals: a recursive call whose
    arguments need a cast crashes numba's cached code (numba issues 6061, 6713)."""
    tl = s[S_TL]
    zero = tl - tl  # int64, as every argument of a recursive call must be
    if score:
        # ---- the score game ; r is the score asked for
        if tl == 0:
            return final_score(s, -1) >= r
        _tick(s, deadline)
        if s[S_ABORT]:
            return False
        row = buf[ply]
        kp = gen_plays(s, row)
        n = s[S_N]
        hero = s[S_HERO]
        tlen = s[S_TLEN]
        p = _md(s[S_LEADER] + tlen, n)
        if kp == 0:
            return final_score(s, p) >= r
        keyed = tlen == 0
        if keyed:
            score_key(s, row)
            slot = tt_find(tsc, row)
            if slot >= 0:
                if tsc[slot, T_LO] >= r:
                    return True
                if tsc[slot, T_HI] < r:
                    return False
            floor = 0 if s[S_AT_MOST_4] else s[S_PRED]
            if not _bonus_possible(s, tl) or r <= floor or r > bonus_ceiling(s, tl):
                # score >= r <=> trick points >= r: ask the trick
                # game for the smallest u whose final trick points reach r
                w = s[S_WON]
                res = False
                for u in range(-tl, tl + 1):
                    if (w + u if u >= 0 else u + 1 - w) >= r:
                        res = game(s, zero, u, ply + 1, buf, tt, tsc, deadline)
                        break
                if s[S_ABORT]:
                    return False
                _store(tsc, row, 1000, r, res)
                return res
            need = floor - s[S_WON]
            if need < 0:
                need = zero
            enough = game(s, zero, need, ply + 1, buf, tt, tsc, deadline)
            if s[S_ABORT]:
                return False
            if not enough or (r == floor + 1 and s[S_OWN] and not s[S_AT_MOST_4]):
                # a score above the prediction needs the hero to cause no paradox and to
                # win at least its prediction; with a token already it then scores at
                # least one more than the prediction _store(tsc, row, 1000, r, enough)
                return enough
        mine = p == hero
        res = not mine
        _order(s, row, kp, p, True)
        for j in range(kp):
            pl = row[j]
            own = s[S_OWN]
            if mine:
                s[S_OWN] = own | 1 << (4 * (pl >> 2) - 4 + (pl & 3))
            w = _push(s, row, pl)
            if w == hero:
                s[S_WON] += 1
            sub = game(s, score, r, ply + 1, buf, tt, tsc, deadline)
            if w == hero:
                s[S_WON] -= 1
            _pop(s, row, pl, w)
            s[S_OWN] = own
            if s[S_ABORT]:
                return False
            if sub == mine:
                res = mine
                break
        if keyed:
            _store(tsc, row, 1000, r, res)
        return res
    # ---- the trick game if tl == 0:
        return r <= 0
    if r > tl:
        return False
    if r <= -tl:
        return True
    tlen = s[S_TLEN]
    if r <= 1 - tl:
        # (r < 0) the hero does not win this trick -- it has played and does not lead
        # it, or it has not played and surely keeps a losing play: it has at most tl - 2
        # more tricks to win before a paradox, so u >= -(tl - 1)
        n = s[S_N]
        leader = s[S_LEADER]
        hero = s[S_HERO]
        if _md(hero - leader, n) < tlen:
            if _md(leader + _winner(s, tlen), n) != hero:
                return True
        elif hero_ducks(s):
            return True
        if red_holds(s):
            return True
    elif r <= 2 - tl and tl >= 3 and s[S_MUST] == 0 and s[S_LOSSLED]:
        # the hero surely loses this trick and the next: u >= -(tl - 2)
        if hero_ducks_twice(s, True):
            return True
    _tick(s, deadline)
    if s[S_ABORT]:
        return False
    row = buf[ply]
    keyed = tlen == 0
    slot = -1
    if keyed:
        # the table first: a hit needs no move generation
        make_key(s, row)
        slot = tt_find(tt, row)
        if slot >= 0:
            if tt[slot, T_LO] >= r:
                return True
            if tt[slot, T_HI] < r:
                return False
    k = gen_plays(s, row)
    hero = s[S_HERO]
    n = s[S_N]
    leader = s[S_LEADER]
    p = _md(leader + tlen, n)
    if k == 0:
        return (-1 if p == hero else 0) >= r
    if keyed and slot < 0:
        lo, hi = bounds(s)
        slot = tt_slot(tt, row, tl)
        tt[slot, T_LO] = lo
        tt[slot, T_HI] = hi
        if lo >= r:
            return True
        if hi < r:
            return False
    mine = p == hero
    if r < 0 and tlen and capacity_holds(s, row, k, r):
        # every trick the hero still wins takes one of its plays
        return True
    if r <= 0 and tlen:
        if mine:
            if safe(s, hero, tl):
                return True
        else:
            if safe(s, hero, tl - (1 if _md(hero - leader, n) < tlen else 0)):
                return True
    if r <= 0 and mine and k > 1 and capacity(s, hero) >= tl:
        # a play after which the hero is safe for the plays it still needs (the race:
        # a threatened value played first); the search order might try it late. (Its
        # own play lowers its capacity by one: below tl now, no play can make it safe.)
        for j in range(k):
            pl = row[j]
            w = _push(s, row, pl)
            ok = tl == 1 or safe(s, hero, tl - 1)
            _pop(s, row, pl, w)
            if ok:
                if keyed:
                    _store(tt, row, tl, zero, True)
                return True
    if r == 1:
        # the hero surely wins this trick and is then safe for the plays it still needs:
        # u >= 1 (at its turn, after one of its plays; later, as it stands)
        if mine:
            for j in range(k):
                pl = row[j]
                w = _push(s, row, pl)
                ok = wins_then_safe(s)
                _pop(s, row, pl, w)
                if ok:
                    if keyed:
                        _store(tt, row, tl, r, True)
                    return True
        elif _md(hero - leader, n) < tlen and wins_then_safe(s):
            return True
    res = not mine
    if r < 0:
        _order_low(s, row, k, p)
    else:
        _order(s, row, k, p, r > 0)
    if r >= 1:
        won_r = r - 1
    elif r <= -1:
        won_r = r + 1
    else:
        won_r = 0
    # probes first (from S_PROBE_TL tricks left, not inside another probe): a first
    # choice whose answer is the wrong one can cost millions of nodes (a coalition play
    # after which the hero escapes must be shown to let it escape against every reply),
    # while a later play decides the node in a few thousand; so each play first gets a
    # small node budget (the first in order a larger one), and only then are the plays
    # left searched in full, in order. A probe cut short stores nothing. Only at r = 0
    # (the paradox verdict): in the searches for trick counts they cost 12 % more nodes.
    rounds = 2 if tl >= s[S_PROBE_TL] and k > 1 and s[S_IN_PROBE] == 0 and r == 0 else 1
    outer = s[S_LIMIT]  # a capped search's own limit (Core.u), else NO_LIMIT
    for rnd in range(2 - rounds, 2):  # round 0: the probes; round 1: in full
        for j in range(k):
            if rnd == 0:
                row[B_KEYS + j] = 0  # 1: probed to the end, and not good for the mover
            elif rounds == 2 and row[B_KEYS + j]:
                continue
            pl = row[j]
            w = _push(s, row, pl)
            if rnd == 0:
                b = s[S_PROBE_NODES]
                lim = s[S_NODES] + (b << s[S_PROBE_FIRST] if j == 0 else b)
                s[S_LIMIT] = lim if lim < outer else outer
                s[S_IN_PROBE] = 1
            sub = game(s, zero, won_r if w == hero else r, ply + 1, buf, tt, tsc, deadline)
            if rnd == 0:
                s[S_IN_PROBE] = 0
                s[S_LIMIT] = outer
            _pop(s, row, pl, w)
            if s[S_ABORT]:
                if s[S_ABORT] == 2 and rnd == 0 and s[S_NODES] <= outer:
                    s[S_ABORT] = 0  # the probe's budget ran out: on to the next play
                    s[S_PROBES_CUT] += 1
                    continue
                return False
            if sub == mine:
                res = mine
                break
            if rnd == 0:
                row[B_KEYS + j] = 1
        if res == mine:
            break
    if keyed:
        _store(tt, row, tl, r, res)
    return res


@_jit
def wins_then_safe(s: Arr) -> bool:
    """The hero has played in this trick (or just completed it): its card surely wins the
    trick, and it is then safe for every play it still needs, so u >= 1. Surely: its card
    wins the trick as it stands, no seat still to play holds a card that could beat it on a
    free cell of a color that seat has (a higher card of the led color or any red on a plain
    card; a higher red on a red one), and each of them surely has a play (a seat that is
    stuck ends the round before the trick is won). Cells only fill and colors are only lost,
    so what cannot beat the card now never can."""
    hero = s[S_HERO]
    n = s[S_N]
    tlen = s[S_TLEN]
    tl = s[S_TL]
    leader = s[S_LEADER]
    if tlen == 0:
        # the hero's card completed the trick (the leader is its winner)
        return leader == hero and (tl == 0 or safe(s, hero, tl))
    if _md(leader + _winner(s, tlen), n) != hero:
        return False
    card = s[S_TRICK + _md(hero - leader, n)]
    for i in range(tlen, n):
        seat = _md(leader + i, n)
        if could_beat(s, seat, card) or not safe(s, seat, 1):
            return False
    return tl == 1 or safe(s, hero, tl - 1)


@_jit
def could_beat(s: Arr, seat: int, card: int) -> bool:
    """could ``seat`` ever play above ``card``, the best of the
    trick (a higher held value on a free cell of its color that the seat has; on a plain
    card, any held value on a free red cell of a red it has)?"""
    c = card & 3
    free = _free_cells(s[S_HANDS + seat], s[S_USED], s[S_COLORS + seat])
    return bool(free & ~_losers(free, c, card >> 2, c == 0))


# ---- cooperative: can the players together finish with no paradox? -------------------------
@_jit
def _fill(s: Arr, free: int, m: int) -> int:
    """The most empty cells of one value (mask ``free``) that its ``m`` holders can fill
    (copies in ``s[S_HITS:]``, cells in ``s[S_MASKS:]``): a bipartite matching, by Hall's
    theorem, |free| - max over cell sets S of (|S| - copies of holders touching S)."""
    short = 0
    sub = free
    while sub:
        cap = 0
        for i in range(m):
            if s[S_MASKS + i] & sub:
                cap += s[S_HITS + i]
        d = _POP[sub] - cap
        if d > short:
            short = d
        sub = (sub - 1) & free
    return int(_POP[free] - short)


@_jit
def cells_suffice(s: Arr) -> bool:
    """at a trick start every seat still makes ``tl`` plays, so each
    seat's capacity must reach it, and the plays need distinct empty cells (value v fills
    at most a largest matching of its holders' copies to its empty cells)."""
    tl = s[S_TL]
    n = s[S_N]
    for seat in range(n):
        if capacity(s, seat) < tl:
            return False
    used = s[S_USED]
    room = 0
    for v in range(s[S_NV]):
        sh = 4 * v
        free = ~(used >> sh) & 15
        if free:
            m = 0
            for i in range(n):
                c = s[S_HANDS + i] >> sh & 15
                if c:
                    cells = s[S_COLORS + i] & free
                    if cells:
                        s[S_HITS + m] = c
                        s[S_MASKS + m] = cells
                        m += 1
            if m:
                room += _fill(s, free, m)
    return bool(room >= n * tl)


@_jit_inline
def _push(s: Arr, row: Arr, pl: int) -> int:
    """Make the play ``pl`` of the player to move (FastState.push; the old color mask in
    ``row[B_OLD]``, a completed trick in ``row[B_SAVED:]``). Returns the trick's winner, or
    -1 if the trick goes on."""
    n = s[S_N]
    tlen = s[S_TLEN]
    leader = s[S_LEADER]
    p = _md(leader + tlen, n)
    v = pl >> 2
    c = pl & 3
    sh = 4 * v - 4
    s[S_USED] |= 1 << (sh + c)
    s[S_HANDS + p] -= 1 << sh
    old = s[S_COLORS + p]
    row[B_OLD] = old
    if tlen:
        led = s[S_TRICK] & 3
        if c != led:
            s[S_COLORS + p] = old & ~(1 << (led if s[S_LOSSLED] else c))
    s[S_TRICK + tlen] = pl
    if tlen == n - 1:
        w = _md(leader + _winner(s, n), n)
        for i in range(n):
            row[B_SAVED + i] = s[S_TRICK + i]
        row[B_SAVED + 5] = leader
        s[S_TLEN] = 0
        s[S_LEADER] = w
        s[S_TL] -= 1
        return int(w)
    s[S_TLEN] = tlen + 1
    return -1


@_jit_inline
def _pop(s: Arr, row: Arr, pl: int, w: int) -> None:
    """Take back ``pl`` (``w``: what _push returned)."""
    n = s[S_N]
    if w >= 0:
        s[S_TL] += 1
        s[S_LEADER] = row[B_SAVED + 5]
        for i in range(n):
            s[S_TRICK + i] = row[B_SAVED + i]
        s[S_TLEN] = n - 1
    else:
        s[S_TLEN] -= 1
    p = _md(s[S_LEADER] + s[S_TLEN], n)
    v = pl >> 2
    sh = 4 * v - 4
    s[S_USED] &= ~(1 << (sh + (pl & 3)))
    s[S_HANDS + p] += 1 << sh
    s[S_COLORS + p] = row[B_OLD]


@_jit
def _order_table(s: Arr, row: Arr, k: int, mode: int) -> None:
    """follow the led color first, then (0) the cells fewest other
    seats could fill, low values first; (1) high values first; (2) a random order."""
    n = s[S_N]
    tlen = s[S_TLEN]
    led = s[S_TRICK] & 3 if tlen else -1
    p = _md(s[S_LEADER] + tlen, n)
    if mode == 2:
        np.random.shuffle(row[:k])
    for j in range(k):
        pl = row[j]
        v = pl >> 2
        c = pl & 3
        key = (c != led) * 4096
        if mode == 0:
            rivals = 0
            for i in range(n):
                if i != p and s[S_HANDS + i] >> (4 * v - 4) & 15 and s[S_COLORS + i] >> c & 1:
                    rivals += 1
            key += rivals * 16 + v
        elif mode == 1:
            key += 15 - v
        row[B_KEYS + j] = key
    _sort(row, k)


@_jit
def t_search(s: Arr, ply: int, buf: Arr, tt: Arr, deadline: float, mode: int,
             limit: int) -> bool:
    """is there a continuation with no paradox? ``s[S_ABORT]``: 1 out of time, 2
    node budget ``limit`` used up (the caller restarts with another order). Only finished
    answers are stored (in ``tt``, T_LO: 1 yes, 0 no)."""
    if s[S_TL] == 0:
        return True
    _tick(s, deadline)
    if s[S_ABORT]:
        return False
    row = buf[ply]
    keyed = s[S_TLEN] == 0
    if keyed:
        make_key(s, row)
        slot = tt_find(tt, row)
        if slot >= 0:
            return bool(tt[slot, T_LO] == 1)
    k = gen_plays(s, row)
    if k == 0:
        return False
    if keyed and not cells_suffice(s):
        tt[tt_slot(tt, row, 0), T_LO] = 0
        return False
    if s[S_NODES] > limit:
        s[S_ABORT] = 2
        return False
    if k > 1:
        _order_table(s, row, k, mode)
    res = False
    for j in range(k):
        pl = row[j]
        w = _push(s, row, pl)
        sub = t_search(s, ply + 1, buf, tt, deadline, mode, limit)
        _pop(s, row, pl, w)
        if s[S_ABORT]:
            return False
        if sub:
            res = True
            break
    if keyed:
        tt[tt_slot(tt, row, 0), T_LO] = 1 if res else 0
    return res


@intrinsic
def _pointer(typingctx: Any, address: Any) -> Any:
    """The int64 pointer at ``address`` (an array's data, for _raw1 and _raw2)."""
    sig = types.CPointer(types.int64)(types.uintp)  # type: ignore[no-untyped-call]

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.inttoptr(args[0], context.get_value_type(signature.return_type))

    return sig, codegen


@_jit_inline
def _raw1(a: Arr) -> Arr:
    """A view of the 1-d array ``a`` that numba does not count references to (see
    game_held)."""
    return carray(_pointer(a.ctypes.data), a.shape[0])  # type: ignore[call-arg]


@_jit_inline
def _raw2(a: Arr) -> Arr:
    """A view of the 2-d array ``a`` that numba does not count references to."""
    return carray(_pointer(a.ctypes.data), (a.shape[0], a.shape[1]))  # type: ignore[call-arg]


@_jit
def game_held(s: Arr, score: int, r: int, ply: int, buf: Arr, tt: Arr, tsc: Arr,
              deadline: float) -> bool:
    """``game`` on views of its arrays that carry no reference count: every compiled
    function counts references to the arrays it is given, an atomic increment and
    decrement each, and on the search's arrays that was 37 % of its time (perf, session
    16). The arrays themselves stay alive in the caller for the whole call. The main
    thread calls this one, holding the GIL (see game_nogil)."""
    return game(_raw1(s), score, r, ply, _raw2(buf), _raw2(tt), _raw2(tsc), deadline)


@_jit_nogil
def game_nogil(s: Arr, score: int, r: int, ply: int, buf: Arr, tt: Arr, tsc: Arr,
               deadline: float) -> bool:
    """``game_held`` without the GIL, for worker threads (solve and dd_table with several
    jobs), so that they run on separate cores. The main thread calls ``game_held``,
    holding the GIL: under a function compiled nogil, numba loses an exception raised in
    object mode (Python's own Ctrl-C handler raising in _clock)."""
    return game_held(s, score, r, ply, buf, tt, tsc, deadline)


@_jit
def t_search_held(s: Arr, ply: int, buf: Arr, tt: Arr, deadline: float, mode: int,
                  limit: int) -> bool:
    """``t_search`` on views without reference counts (see game_held), with the GIL."""
    return t_search(_raw1(s), ply, _raw2(buf), _raw2(tt), deadline, mode, limit)


@_jit_nogil
def t_search_nogil(s: Arr, ply: int, buf: Arr, tt: Arr, deadline: float, mode: int,
                   limit: int) -> bool:
    """``t_search_held`` without the GIL, for worker threads (see game_nogil)."""
    return t_search_held(s, ply, buf, tt, deadline, mode, limit)


@_jit
def _seed(x: int) -> None:
    np.random.seed(x)


# ---- score: the hero's round score ------------------------------------------------------------
@_jit
def _bits(x: int) -> int:
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@_jit
def largest_group(s: Arr, mask: int) -> int:
    """Size of the largest group of the cells ``mask`` (bit 4(v-1)+c) connected
    orthogonally (or also diagonally), rows ordered as ``s[S_ROW_OF:]`` (largest_group of
    position.py), by growing bit masks of the four rows."""
    rem = np.zeros(4, dtype=np.int64)
    for v in range(s[S_NV]):
        nib = mask >> (4 * v)
        for c in range(4):
            if nib >> c & 1:
                rem[s[S_ROW_OF + c]] |= 1 << v
    comp = np.zeros(4, dtype=np.int64)
    grow = np.zeros(4, dtype=np.int64)
    diag = s[S_DIAG]
    best = 0
    for r0 in range(4):
        while rem[r0]:
            for r in range(4):
                comp[r] = 0
            comp[r0] = rem[r0] & -rem[r0]
            while True:
                for r in range(4):
                    g = comp[r] | comp[r] << 1 | comp[r] >> 1
                    for d in (-1, 1):
                        if 0 <= r + d < 4:
                            o = comp[r + d]
                            g |= o
                            if diag:
                                g |= o << 1 | o >> 1
                    grow[r] = g & rem[r]
                same = True
                for r in range(4):
                    if grow[r] != comp[r]:
                        same = False
                    comp[r] = grow[r]
                if same:
                    break
            size = 0
            for r in range(4):
                size += _bits(comp[r])
                rem[r] &= ~comp[r]
            if size > best:
                best = size
    return best


@_jit
def final_score(s: Arr, paradox_seat: int) -> int:
    """the hero's round score when the round ends here (after the
    last trick, or with a paradox by ``paradox_seat``)."""
    hero = s[S_HERO]
    w = s[S_WON]
    if paradox_seat == hero:
        return int(-w)
    met = w <= 4 if s[S_AT_MOST_4] else w == s[S_PRED]
    if not met:
        return int(w)
    mask = s[S_OWN]
    tlen = s[S_TLEN]
    if paradox_seat >= 0 and s[S_REMOVED] and tlen:
        n = s[S_N]
        for i in range(tlen):
            if _md(s[S_LEADER] + i, n) == hero:
                pl = s[S_TRICK + i]
                mask &= ~(1 << (4 * (pl >> 2) - 4 + (pl & 3)))
    return int(w + largest_group(s, mask))


@_jit
def score_key(s: Arr, words: Arr) -> None:
    """Key for the score question : used cells, the hero's tokens and
    tricks, the leader, colors, hands (3 bits a count); no symmetry, no renumbering (the
    bonus depends on where the hero's tokens lie)."""
    n = s[S_N]
    nv = s[S_NV]
    for i in range(TT_WORDS):
        words[B_WORDS + i] = 0
    pos = _put(words, 0, s[S_USED], 4 * nv)
    pos = _put(words, pos, s[S_OWN], 4 * nv)
    pos = _put(words, pos, s[S_WON], 4)
    pos = _put(words, pos, s[S_LEADER], 3)
    for i in range(n):
        pos = _put(words, pos, s[S_COLORS + i], 4)
    for i in range(n):
        h = s[S_HANDS + i]
        for v in range(nv):
            pos = _put(words, pos, h >> (4 * v) & 7, 3)


@_jit
def _bonus_possible(s: Arr, tl: int) -> bool:
    w = s[S_WON]
    if s[S_AT_MOST_4]:
        return bool(w <= 4)
    pred = s[S_PRED]
    return bool(pred >= 0 and w <= pred <= w + tl)


@_jit
def bonus_ceiling(s: Arr, tl: int) -> int:
    """No score with a bonus is above this, with ``tl`` tricks left and the bonus still
    possible: the trick count it needs (the prediction; 2 players: at most 4, and no more
    than can still be won) plus the largest group the hero's tokens could still form. Its
    tokens can grow only on free cells of values it holds, in colors it still has, and by
    no more cells than the plays it can still make."""
    hero = s[S_HERO]
    own = s[S_OWN]
    cols = s[S_COLORS + hero]
    used = s[S_USED]
    h = s[S_HANDS + hero]
    reach = own
    for v in range(s[S_NV]):
        sh = 4 * v
        if h >> sh & 15:
            reach |= (~(used >> sh) & cols & 15) << sh
    group = largest_group(s, reach)
    cap = capacity(s, hero)
    most = _bits(own) + (tl if tl < cap else cap)
    if most < group:
        group = most
    if s[S_AT_MOST_4]:
        w = s[S_WON] + tl
        return int((4 if w > 4 else w) + group)
    return int(s[S_PRED] + group)


@_jit_nogil
def _rehash(old: Arr, new: Arr) -> None:
    """Move every entry of the table ``old`` into the larger table ``new``."""
    tmp = np.zeros(B_SIZE, dtype=np.int64)
    for i in range(old.shape[0]):
        if old[i, T_FLAG]:
            for w in range(TT_WORDS):
                tmp[B_WORDS + w] = old[i, w]
            j = tt_slot(new, tmp, 0)
            for c in range(T_FLAG, T_SIZE):
                new[j, c] = old[i, c]


def _grown(table: npt.NDArray[np.int64], nodes: int, max_bits: int) -> npt.NDArray[np.int64]:
    """The table, four times larger (entries kept) once the nodes searched with it exceed
    four times its size, up to 2**max_bits entries. Tables start small: a fresh page of a
    large table costs its zeroing on first touch, which dominated small searches."""
    size = table.shape[0]
    if nodes <= 4 * size or size >= 1 << max_bits:
        return table
    new = np.zeros((size * 4, T_SIZE), dtype=np.int64)
    _rehash(table, new)
    return new


F = TypeVar("F")


def _entry(held: F, free: F) -> F:
    """The compiled entry point to call: holding the GIL in the main thread (where a
    signal handler may run inside it, see game_nogil), without it in any other (threads
    run on separate cores)."""
    return held if threading.current_thread() is threading.main_thread() else free


class Core:
    """The compiled trick game for one hero: its transposition table lives as long as this
    object, so repeated questions on one position (binary search, every play, the line)
    share work. ``u(r, deadline)`` answers on the state given to ``load``."""

    def __init__(
        self,
        hero: int,
        rules_fields: tuple[int, int, int, int, int, int],
        tt_bits: int | None = None,
        probes: tuple[int, int, int] = (PROBE_TL, PROBE_NODES, PROBE_FIRST),
    ) -> None:
        """``tt_bits``: the tables grow to at most 2**tt_bits entries (None: as the search
        calls for, see TT_LONG_BITS). ``probes``: (fewest tricks left, node budget, log2
        of the first play's extra budget) of the probes in ``game``; they change the work,
        never an answer (the tests run them with tiny budgets to show it)."""
        n, nv, redrow, must, loss_led, red_lead = rules_fields
        self.s = np.zeros(S_SIZE, dtype=np.int64)
        s = self.s
        s[S_N] = n
        s[S_NV] = nv
        s[S_HERO] = hero
        s[S_REDROW] = redrow
        s[S_MUST] = must
        s[S_LOSSLED] = loss_led
        s[S_REDLEAD] = red_lead
        s[S_PROBE_TL], s[S_PROBE_NODES], s[S_PROBE_FIRST] = probes
        s[S_LIMIT] = NO_LIMIT
        self.buf = np.zeros((MAX_PLY, B_SIZE), dtype=np.int64)
        # zero pages are given by the system on first touch: a large table costs only
        # what the search fills
        self.tt_bits = TT_BITS if tt_bits is None else tt_bits  # the tables' largest size
        self.tt_cap = self.tt_bits  # the trick table's (a long search's: TT_LONG_BITS)
        self._long_ok = tt_bits is None  # may a long search have the larger table?
        self.tt = np.zeros((0, T_SIZE), dtype=np.int64)  # sized at the first load
        self._tt_nodes = 0  # nodes searched since the trick table last grew
        self._ttable: npt.NDArray[np.int64] | None = None
        self._tscore: npt.NDArray[np.int64] | None = None
        self.capped = False  # the last table or trick search ran out of its node cap
        self._no_score = np.zeros((1, T_SIZE), dtype=np.int64)

    def _grow_tt(self) -> None:
        grown = _grown(self.tt, self._tt_nodes, self.tt_cap)
        if grown is not self.tt:
            self.tt = grown
            self._tt_nodes = 0

    def load(
        self,
        used: int,
        leader: int,
        tricks_left: int,
        trick: Sequence[tuple[int, int]],
        hands: Sequence[int],
        colors: Sequence[int],
    ) -> None:
        """Set the position: the used cells, the leader, tricks left, the current trick
        (value, color) pairs, packed hands and color masks (as in FastState)."""
        if not self.tt.shape[0]:
            # first size from the tricks left (the search grows about x60 a trick; a
            # 5-player trick has one more play: four times the start), then grown as the
            # nodes searched call for it
            extra = 2 if self.s[S_N] == 5 else 0
            need = max(12, 2 * tricks_left + 8 + extra)
            if need >= TT_LONG_BITS and self._long_ok:
                # a long search: at its full size at once, as it grows only between
                # searches, and one search can be most of the work
                self.tt_cap = TT_LONG_BITS
            bits = min(self.tt_cap, need)
            self.tt = np.zeros((1 << bits, T_SIZE), dtype=np.int64)
        s = self.s
        s[S_USED] = used
        s[S_LEADER] = leader
        s[S_TL] = tricks_left
        s[S_TLEN] = len(trick)
        for i, (v, c) in enumerate(trick):
            s[S_TRICK + i] = 4 * v + c
        for i, h in enumerate(hands):
            s[S_HANDS + i] = h
        for i, cm in enumerate(colors):
            s[S_COLORS + i] = cm

    def _fresh(self) -> None:
        """Start a search: no nodes, no abort, no probe (an earlier search ended by an
        exception, e.g. Python's own Ctrl-C handler in a search not guarded by dd, may
        have left one open)."""
        s = self.s
        s[S_NODES] = 0
        s[S_ABORT] = 0
        s[S_IN_PROBE] = 0
        s[S_LIMIT] = NO_LIMIT

    def stop(self) -> None:
        """Stop: a search under way ends within 4096 nodes as if its deadline had passed,
        and every later one at once."""
        self.s[S_STOP] = 1

    def watch(self) -> None:
        """Read the clock through Python every 4096 nodes, also without a deadline, so that
        a signal handler (Ctrl-C) can run during a long search in the main thread."""
        self.s[S_WATCH] = 1

    def score_ceiling(self, won: int, own: int) -> int:
        """No round score of the hero above this on the loaded state, having won ``won``
        tricks with its tokens on ``own``: every trick left won, or the most a score with
        a bonus can reach while the bonus is possible (bonus_ceiling)."""
        s = self.s
        s[S_WON] = won
        s[S_OWN] = own
        tl = int(s[S_TL])
        top = won + tl
        if _bonus_possible(s, tl):
            top = max(top, int(bonus_ceiling(s, tl)))
        return top

    def order(self, codes: Sequence[int], p: int, r: int) -> list[int]:
        """The plays ``codes`` (4 * value + color) of seat ``p`` on the loaded state, in
        the order the search ``u >= r`` tries them (see order_plays)."""
        k = len(codes)
        row = np.zeros(B_SIZE, dtype=np.int64)
        row[:k] = codes
        order_plays(self.s, row, k, p, r)
        return [int(c) for c in row[:k]]

    def capacity(self, seat: int) -> int:
        """The most plays ``seat`` can still make on the loaded state (see capacity)."""
        return int(capacity(self.s, seat))

    def safe(self, seat: int, plays_needed: int) -> bool:
        """On the loaded state: is ``seat`` sure to have a legal play at each of its next
        ``plays_needed`` turns, whatever the others do? (see safe)"""
        return bool(safe(self.s, seat, plays_needed))

    @property
    def probes_cut(self) -> int:
        """How many probes ran out of budget so far (all questions)."""
        return int(self.s[S_PROBES_CUT])

    def u(self, r: int, deadline: float | None, cap: int = -1) -> tuple[bool | None, int]:
        """The answer of the trick game on the loaded state (None: out of time, or with
        ``cap`` >= 0 the nodes used up: then ``capped`` is True) and the nodes searched.
        A search cut by its cap stores nothing on its way out; what it finished below
        stays stored, so a later search goes on from there."""
        s = self.s
        self._fresh()
        self.capped = False
        if s[S_STOP]:
            return None, 0
        if cap >= 0:
            s[S_LIMIT] = cap
        dl = -1.0 if deadline is None else deadline
        res = _entry(game_held, game_nogil)(s, 0, r, 0, self.buf, self.tt, self._no_score, dl)
        s[S_LIMIT] = NO_LIMIT
        nodes = int(s[S_NODES])
        self._tt_nodes += nodes
        self._grow_tt()
        if s[S_ABORT]:
            self.capped = s[S_ABORT] == 2
            return None, nodes
        return bool(res), nodes

    def table(self, deadline: float | None, cap: int = -1) -> tuple[bool | None, int]:
        """Can the players together finish the round with no paradox (None: out of time,
        or with ``cap`` >= 0 the nodes used up: then ``capped`` is True), and the nodes
        searched. Depth-first search with restarts : short searches under
        three play orders with a node budget growing fourfold each round, then one without
        a budget; finished sub-searches are kept, so restarts reuse them."""
        if self._ttable is None:
            self._ttable = np.zeros((1 << min(self.tt_bits, 14), T_SIZE), dtype=np.int64)
        s = self.s
        self._fresh()
        self.capped = False
        _seed(0)
        dl = -1.0 if deadline is None else deadline
        budget = 2000
        attempt = 0
        while True:
            mode = attempt % 3
            limit = int(s[S_NODES]) + budget if budget < 2_000_000 else 1 << 62
            if 0 <= cap <= limit:
                limit = cap
            s[S_ABORT] = 0
            res = _entry(t_search_held, t_search_nogil)(
                s, 0, self.buf, self._ttable, dl, mode, limit
            )
            self._ttable = _grown(self._ttable, int(s[S_NODES]), self.tt_bits - 2)
            if s[S_ABORT] == 1:
                return None, int(s[S_NODES])
            if s[S_ABORT] == 0:
                return bool(res), int(s[S_NODES])
            if limit == cap:
                self.capped = True
                return None, int(s[S_NODES])
            attempt += 1
            if mode == 2:
                budget *= 4

    def set_score_rules(
        self, prediction: int | None, at_most_4: bool, removed: bool, diagonal: bool,
        row_order: str,
    ) -> None:
        """What the score question needs besides the trick game: the hero's prediction,
        the 2-player "at most 4" reading, removed interrupted tricks, diagonal groups, the
        row order of the research board."""
        s = self.s
        s[S_PRED] = -1 if prediction is None else prediction
        s[S_AT_MOST_4] = int(at_most_4)
        s[S_REMOVED] = int(removed)
        s[S_DIAG] = int(diagonal)
        for r, ch in enumerate(row_order):
            s[S_ROW_OF + "RBYG".index(ch)] = r

    def score_at_least(self, k: int, won: int, own: int, deadline: float | None) -> tuple[
        bool | None, int
    ]:
        """Can the hero make sure of a round score of at least ``k`` from the loaded state,
        having won ``won`` tricks with its tokens on ``own``? None: out of time."""
        if self._tscore is None:
            self._tscore = np.zeros((1 << min(self.tt_bits, 14), T_SIZE), dtype=np.int64)
        s = self.s
        s[S_WON] = won
        s[S_OWN] = own
        self._fresh()
        res = _entry(game_held, game_nogil)(
            s, 1, k, 0, self.buf, self.tt, self._tscore, -1.0 if deadline is None else deadline
        )
        nodes = int(s[S_NODES])
        self._tscore = _grown(self._tscore, nodes, self.tt_bits - 2)
        self._tt_nodes += nodes
        self._grow_tt()
        if s[S_ABORT]:
            return None, nodes
        return bool(res), nodes
