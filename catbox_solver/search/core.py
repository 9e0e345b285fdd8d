"""The compiled core of the double-dummy trick game (numba): the same search as
``Search._u_py`` in dd.py, on plain int64 arrays, for 30-100x the node rate.

Why numba: the pure-Python search runs about 250,000 nodes per second, the limit of the
interpreter; numba compiles these functions to machine code at first use (cached on disk
afterwards), from a wheel on PyPI, with no compiler on the machine.

What is here (each is a transcription of the Python search, which stays the readable
reference and is tested against it and against a plain minimax):

- the move generator of ``FastState.legal`` (itself ``Position.legal_plays``) for every
  rule reading, and the trick winner of ``trick_winner_index``;
- the zero-window search ``u(r)`` ("can the hero make sure the rest of the round is worth
  at least r?") with the counting bounds, the safe-seat test, the move ordering and a
  transposition table on the canonical key (blue, yellow, green interchangeable);
- the transposition table: open addressing, 4 probes, replace when full. Every stored
  bound is proven, so losing an entry costs time, never exactness.

State layout (``s``, int64): see the ``S_*`` offsets. Plays are coded ``4 * value + color``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, objmode, uint64

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
S_SIZE = 32

MAX_PLY = 48
MAX_PLAYS = 40

TT_WORDS = 4

Arr = npt.NDArray[Any]

_POP = np.array([bin(i).count("1") for i in range(16)], dtype=np.int64)


@njit(cache=True)
def _winner(s: Arr) -> int:
    """Index in the trick of the winning play (trick_winner_index)."""
    n = s[S_N]
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


@njit(cache=True)
def _add(out: Arr, k: int, v: int, mask: int) -> int:
    for c in range(4):
        if mask >> c & 1:
            out[k] = 4 * v + c
            k += 1
    return k


@njit(cache=True)
def gen_plays(s: Arr, out: Arr) -> int:
    """The distinct legal plays of the player to move into ``out``; returns how many
    (FastState.legal, same order)."""
    if s[S_TL] == 0:
        return 0
    n = s[S_N]
    tlen = s[S_TLEN]
    p = (s[S_LEADER] + tlen) % n
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
@njit(cache=True)
def capacity(s: Arr, seat: int) -> int:
    """The most plays ``seat`` can still make (Search._capacity)."""
    cols = s[S_COLORS + seat]
    used = s[S_USED]
    h = s[S_HANDS + seat]
    cap = 0
    for v in range(s[S_NV]):
        sh = 4 * v
        cnt = h >> sh & 15
        if cnt:
            free = _POP[~(used >> sh) & cols & 15]
            cap += cnt if cnt < free else free
    return cap


@njit(cache=True)
def safe(s: Arr, seat: int, plays_needed: int) -> bool:
    """Can ``seat`` make each of its next ``plays_needed`` plays whatever the others do?
    (Search._safe: capacity minus the damage the others can do in time.)"""
    if not s[S_LOSSLED]:
        return False
    n = s[S_N]
    used = s[S_USED]
    cols = s[S_COLORS + seat]
    if s[S_REDLEAD] == 1 and not used & s[S_REDROW]:
        cols &= 14
    cap = 0
    dmg = 0
    hits = np.zeros(5, dtype=np.int64)
    hs = s[S_HANDS + seat]
    for v in range(s[S_NV]):
        sh = 4 * v
        cnt = hs >> sh & 15
        if cnt:
            free = ~(used >> sh) & cols & 15
            if free:
                e = _POP[free]
                threat = 0
                k = 0
                for i in range(n):
                    if i != seat:
                        hc = s[S_HANDS + i] >> sh & 15
                        if hc:
                            m = free & s[S_COLORS + i]
                            if m:
                                threat |= m
                                k += hc
                                hits[i] += hc
                cap += cnt if e > cnt else e
                if threat:
                    a = _POP[threat]
                    if k < a:
                        a = k
                    if e > cnt:
                        a -= e - cnt
                    if a > 0:
                        dmg += a
    if cap - dmg >= plays_needed:
        return True
    leader = s[S_LEADER]
    done = s[S_TLEN]
    p0 = leader + done
    played = (seat - leader) % n < done
    gap = (seat - p0) % n
    later = plays_needed if played else plays_needed - 1
    others = 0
    for i in range(n):
        hh = hits[i]
        if hh:
            if later:
                turns = later + (1 if (i - leader) % n >= done else 0)
            else:
                turns = 1 if (i - p0) % n < gap else 0
            others += hh if hh < turns else turns
    return cap - (dmg if dmg < others else others) >= plays_needed


@njit(cache=True)
def bounds(s: Arr) -> tuple[int, int]:
    """Bounds on the outcome u at the start of a trick from counting facts
    (Search._bounds)."""
    tl = s[S_TL]
    hero = s[S_HERO]
    n = s[S_N]
    cap = capacity(s, hero)
    if cap >= tl and safe(s, hero, tl):
        return 0, tl
    for seat in range(n):
        if seat != hero:
            c = capacity(s, seat)
            if c < tl and safe(s, hero, c + 1):
                return 0, tl
    if cap >= tl:
        return -tl, tl
    lo = -1 - cap
    turns = cap + 1
    for seat in range(n):
        if seat != hero and not safe(s, seat, turns):
            return lo, tl
    return lo, -1


# ---- the transposition table -------------------------------------------------------------
@njit(cache=True)
def _put(words: Arr, pos: int, x: int, width: int) -> int:
    ux = uint64(x)
    i = pos >> 6
    off = pos & 63
    words[i] |= ux << uint64(off)
    if off + width > 64:
        words[i + 1] |= ux >> uint64(64 - off)
    return pos + width


@njit(cache=True)
def make_key(s: Arr, words: Arr) -> None:
    """Canonical key at the start of a trick (Search.key): red's row and holders; blue,
    yellow and green as sorted (row, holders); the leader; the hands."""
    n = s[S_N]
    nv = s[S_NV]
    used = s[S_USED]
    f = np.zeros(4, dtype=np.int64)
    for c in range(4):
        row = 0
        for v in range(nv):
            if used >> (4 * v + c) & 1:
                row |= 1 << v
        holders = 0
        for i in range(n):
            if s[S_COLORS + i] >> c & 1:
                holders |= 1 << i
        f[c] = row << 8 | holders
    a, b, c3 = f[1], f[2], f[3]
    if a > b:
        a, b = b, a
    if b > c3:
        b, c3 = c3, b
        if a > b:
            a, b = b, a
    for i in range(TT_WORDS):
        words[i] = 0
    pos = _put(words, 0, f[0], 17)
    pos = _put(words, pos, a, 17)
    pos = _put(words, pos, b, 17)
    pos = _put(words, pos, c3, 17)
    pos = _put(words, pos, s[S_LEADER], 3)
    for i in range(n):
        pos = _put(words, pos, s[S_HANDS + i], 4 * nv)


@njit(cache=True)
def _hash(words: Arr) -> int:
    h = uint64(0x9E3779B97F4A7C15)
    for i in range(TT_WORDS):
        h ^= words[i]
        h *= uint64(0xBF58476D1CE4E5B9)
        h ^= h >> uint64(31)
    return int(h >> uint64(1))


@njit(cache=True)
def tt_find(tkeys: Arr, tflag: Arr, words: Arr) -> int:
    """Slot holding ``words``, or -1."""
    mask: int = tflag.shape[0] - 1
    i0: int = _hash(words) & mask
    for d in range(4):
        i = (i0 + d) & mask
        if tflag[i] == 0:
            return -1
        same = True
        for w in range(TT_WORDS):
            if tkeys[i, w] != words[w]:
                same = False
                break
        if same:
            return i
    return -1


@njit(cache=True)
def tt_slot(tkeys: Arr, tflag: Arr, words: Arr) -> int:
    """Slot for ``words``: its own, else a free one, else the first probed (replaced)."""
    mask: int = tflag.shape[0] - 1
    i0: int = _hash(words) & mask
    for d in range(4):
        i = (i0 + d) & mask
        if tflag[i] == 0:
            tflag[i] = 1
            for w in range(TT_WORDS):
                tkeys[i, w] = words[w]
            return i
        same = True
        for w in range(TT_WORDS):
            if tkeys[i, w] != words[w]:
                same = False
                break
        if same:
            return i
    for w in range(TT_WORDS):
        tkeys[i0, w] = words[w]
    return i0


# ---- move ordering -------------------------------------------------------------------------
@njit(cache=True)
def _sort(plays: Arr, keys: Arr, k: int) -> None:
    """Stable insertion sort of ``plays[:k]`` by ``keys``."""
    for i in range(1, k):
        pk = keys[i]
        pp = plays[i]
        j = i - 1
        while j >= 0 and keys[j] > pk:
            keys[j + 1] = keys[j]
            plays[j + 1] = plays[j]
            j -= 1
        keys[j + 1] = pk
        plays[j + 1] = pp


@njit(cache=True)
def _order(s: Arr, plays: Arr, keys: Arr, k: int, p: int, want: bool) -> None:
    """Search._order: the hero keeps its colors (and wants tricks: red, high; else low,
    not red); the coalition takes the hero's cells, then follows the led color."""
    if k < 2:
        return
    hero = s[S_HERO]
    led = s[S_TRICK] & 3 if s[S_TLEN] else -1
    if p == hero:
        for i in range(k):
            v = plays[i] >> 2
            c = plays[i] & 3
            if want:
                keys[i] = (c != led) * 256 + (c != 0) * 16 + (15 - v)
            else:
                keys[i] = (c != led) * 256 + (c == 0) * 16 + v
    else:
        hh = s[S_HANDS + hero]
        hc = s[S_COLORS + hero]
        for i in range(k):
            v = plays[i] >> 2
            c = plays[i] & 3
            hit = 1 if (hh >> (4 * v - 4) & 15) and (hc >> c & 1) else 0
            keys[i] = -(hit * 2 + (1 if c == led else 0))
    _sort(plays, keys, k)


@njit(cache=True)
def _order_low(s: Arr, plays: Arr, keys: Arr, k: int, p: int) -> None:
    """Search._order_low: when the hero aims to win few tricks (r < 0)."""
    if k < 2:
        return
    hero = s[S_HERO]
    n = s[S_N]
    tlen = s[S_TLEN]
    if p != hero:
        _order(s, plays, keys, k, p, False)
        leader = s[S_LEADER]
        if tlen and (hero - leader) % n < tlen:
            w = _winner_partial(s)
            if (leader + w) % n == hero:
                hv = s[S_TRICK + w] >> 2
                hcol = s[S_TRICK + w] & 3
                led = s[S_TRICK] & 3
                for i in range(k):
                    v = plays[i] >> 2
                    c = plays[i] & 3
                    if hcol == 0:
                        keys[i] = 1 if (v > hv and c == 0) else 0
                    else:
                        keys[i] = 1 if (c == 0 or (c == led and v > hv)) else 0
                _sort(plays, keys, k)
        return
    if not tlen:
        for i in range(k):
            keys[i] = ((plays[i] & 3) == 0) * 16 + (plays[i] >> 2)
        _sort(plays, keys, k)
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
        keys[i] = wins * 4096 + (c != led) * 256 + (c == 0) * 16 + v
    _sort(plays, keys, k)


@njit(cache=True)
def _winner_partial(s: Arr) -> int:
    """Index of the play winning the trick so far (trick_winner_index on a partial
    trick)."""
    tlen = s[S_TLEN]
    trump = s[S_TRICK] & 3
    for i in range(tlen):
        if (s[S_TRICK + i] & 3) == 0:
            trump = 0
            break
    best = -1
    bi = 0
    for i in range(tlen):
        pl = s[S_TRICK + i]
        if (pl & 3) == trump and pl >> 2 > best:
            best = pl >> 2
            bi = i
    return bi


# ---- the trick game ---------------------------------------------------------------------------
@njit(cache=True)
def _tick(s: Arr, deadline: float) -> None:
    s[S_NODES] += 1
    if (s[S_NODES] & 4095) == 0 and deadline > 0.0:
        with objmode(now="float64"):
            now = time.perf_counter()
        if now > deadline:
            s[S_ABORT] = 1


@njit(cache=True)
def _store(tkeys: Arr, tflag: Arr, tlo: Arr, thi: Arr, words: Arr, tl: int, r: int,
           res: bool) -> None:
    i = tt_find(tkeys, tflag, words)
    if i < 0:
        i = tt_slot(tkeys, tflag, words)
        lo = -tl
        hi = tl
    else:
        lo = tlo[i]
        hi = thi[i]
    if res:
        if r > lo:
            lo = r
    elif r - 1 < hi:
        hi = r - 1
    tlo[i] = lo
    thi[i] = hi


@njit(cache=True)
def u_search(s: Arr, r: int, ply: int, mv: Arr, mk: Arr, mt: Arr, kw: Arr, tkeys: Arr, tflag: Arr,
             tlo: Arr, thi: Arr, deadline: float) -> bool:
    """Can the hero make sure that the outcome of the rest of the round is at least ``r``?
    (Search._u_py.) Outcome u: g >= 0 if the hero causes no paradox and wins g more tricks,
    -1 - g if it causes a paradox after winning g more tricks. With ``s[S_ABORT]`` set the
    result means nothing and nothing more is stored."""
    tl = s[S_TL]
    if tl == 0:
        return r <= 0
    if r > tl:
        return False
    if r <= -tl:
        return True
    _tick(s, deadline)
    if s[S_ABORT]:
        return False
    plays = mv[ply]
    keys = mk[ply]
    k = gen_plays(s, plays)
    hero = s[S_HERO]
    n = s[S_N]
    tlen = s[S_TLEN]
    leader = s[S_LEADER]
    p = (leader + tlen) % n
    if k == 0:
        return (-1 if p == hero else 0) >= r
    words = kw[ply]
    keyed = tlen == 0
    if keyed:
        make_key(s, words)
        i = tt_find(tkeys, tflag, words)
        if i >= 0:
            if tlo[i] >= r:
                return True
            if thi[i] < r:
                return False
        else:
            lo, hi = bounds(s)
            i = tt_slot(tkeys, tflag, words)
            tlo[i] = lo
            thi[i] = hi
            if lo >= r:
                return True
            if hi < r:
                return False
    mine = p == hero
    if r <= 0 and tlen:
        if mine:
            if safe(s, hero, tl):
                return True
        else:
            if safe(s, hero, tl - (1 if (hero - leader) % n < tlen else 0)):
                return True
    res = not mine
    if r < 0:
        _order_low(s, plays, keys, k, p)
    else:
        _order(s, plays, keys, k, p, r > 0)
    used = s[S_USED]
    old = s[S_COLORS + p]
    led = s[S_TRICK] & 3 if tlen else -1
    loss_led = s[S_LOSSLED]
    last = tlen == n - 1
    if r >= 1:
        won_r = r - 1
    elif r <= -1:
        won_r = r + 1
    else:
        won_r = 0
    for j in range(k):
        pl = plays[j]
        v = pl >> 2
        c = pl & 3
        sh = 4 * v - 4
        s[S_USED] = used | (1 << (sh + c))
        s[S_HANDS + p] -= 1 << sh
        if led >= 0 and c != led:
            s[S_COLORS + p] = old & ~(1 << (led if loss_led else c))
        s[S_TRICK + tlen] = pl
        s[S_TLEN] = tlen + 1
        if last:
            w = (leader + _winner(s)) % n
            saved = mt[ply]
            for i in range(n):
                saved[i] = s[S_TRICK + i]
            s[S_TLEN] = 0
            s[S_LEADER] = w
            s[S_TL] = tl - 1
            sub = u_search(s, won_r if w == hero else r, ply + 1, mv, mk, mt, kw, tkeys, tflag,
                           tlo, thi, deadline)
            s[S_LEADER] = leader
            s[S_TL] = tl
            for i in range(n):
                s[S_TRICK + i] = saved[i]
        else:
            sub = u_search(s, r, ply + 1, mv, mk, mt, kw, tkeys, tflag, tlo, thi, deadline)
        s[S_TLEN] = tlen
        s[S_COLORS + p] = old
        s[S_HANDS + p] += 1 << sh
        s[S_USED] = used
        if s[S_ABORT]:
            return False
        if sub == mine:
            res = mine
            break
    if keyed:
        _store(tkeys, tflag, tlo, thi, words, tl, r, res)
    return res


class Core:
    """The compiled trick game for one hero: its transposition table lives as long as this
    object, so repeated questions on one position (binary search, every play, the line)
    share work. ``u(state, r)`` answers from a FastState; None when the deadline passed."""

    def __init__(self, hero: int, rules_fields: tuple[int, int, int, int, int, int],
                 tt_bits: int = 20) -> None:
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
        self.mv = np.zeros((MAX_PLY, MAX_PLAYS), dtype=np.int64)
        self.mk = np.zeros((MAX_PLY, MAX_PLAYS), dtype=np.int64)
        self.mt = np.zeros((MAX_PLY, 5), dtype=np.int64)
        self.kw = np.zeros((MAX_PLY, TT_WORDS), dtype=np.uint64)
        size = 1 << tt_bits
        self.tkeys = np.zeros((size, TT_WORDS), dtype=np.uint64)
        self.tflag = np.zeros(size, dtype=np.uint8)
        self.tlo = np.zeros(size, dtype=np.int8)
        self.thi = np.zeros(size, dtype=np.int8)

    def load(self, used: int, leader: int, tricks_left: int, trick: Sequence[tuple[int, int]],
             hands: list[int], colors: list[int]) -> None:
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

    def u(self, r: int, deadline: float | None) -> tuple[bool | None, int]:
        """The answer of ``u_search`` on the loaded state (None: out of time) and the nodes
        it searched."""
        s = self.s
        s[S_NODES] = 0
        s[S_ABORT] = 0
        res = u_search(
            s, r, 0, self.mv, self.mk, self.mt, self.kw, self.tkeys, self.tflag, self.tlo,
            self.thi, -1.0 if deadline is None else deadline,
        )
        nodes = int(s[S_NODES])
        if s[S_ABORT]:
            return None, nodes
        return bool(res), nodes
