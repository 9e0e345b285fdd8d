"""The kernel's state: the int64 layout of a position and of a ply's scratch row, the
compile settings, and the play generator (``Position.legal_plays`` for every reading)."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, objmode

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


# The tables grow to at most 2**tt_bits entries of 64 bytes (Core; 2**TT_BITS, 64 MB, by
# default), except the trick table of a long search: one whose first position calls for
# 2**TT_LONG_BITS entries or more (7 or more tricks left with 4 players, 6 with 5) has
# 2**TT_LONG_BITS (256 MB) from the start: 64 MB was too small for the
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
# hot helpers are inlined into their callers (together with the views
# without reference counts, see game_held, nodes 1.58 times cheaper).
_jit = njit(cache=True, error_model="numpy")


_jit_inline = njit(cache=True, error_model="numpy", inline="always")


_jit_nogil = njit(cache=True, error_model="numpy", nogil=True)


_POP = np.array([bin(i).count("1") for i in range(16)], dtype=np.int64)


@_jit_inline
def seat_count(mask: int) -> int:
    """How many seats a mask of seats holds (5 bits at most: one per seat)."""
    return int(_POP[mask & 15] + (mask >> 4 & 1))


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
