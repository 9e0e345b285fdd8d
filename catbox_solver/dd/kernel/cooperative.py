"""The cooperative search: can the players together finish with no paradox?"""

from __future__ import annotations

import numpy as np

from catbox_solver.dd.kernel.cutoffs import capacity
from catbox_solver.dd.kernel.layout import (
    _POP,
    B_KEYS,
    S_ABORT,
    S_COLORS,
    S_HANDS,
    S_HITS,
    S_LEADER,
    S_MASKS,
    S_N,
    S_NODES,
    S_NV,
    S_TL,
    S_TLEN,
    S_TRICK,
    S_USED,
    T_LO,
    Arr,
    _jit,
    _md,
    _pop,
    _push,
    _tick,
    gen_plays,
    seat_count,
)
from catbox_solver.dd.kernel.order import _sort
from catbox_solver.dd.kernel.table import make_key, tt_find, tt_slot


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


@_jit
def finals_fit(s: Arr) -> bool:
    """At a trick start: can each seat's last card be chosen so that no value has more
    copies left to play than empty cells? A finish with no paradox has every seat play
    all of its ``tl + 1`` cards but one, each into an empty cell of its value, so a value
    with ``h`` copies in the hands and ``f`` empty cells is the last card of at least
    ``h - f`` seats, and a seat's last card is one it holds: Hall's condition on these
    demands (a set of values needs no more seats than hold one of them). It decides at
    once the deals of 3 and 4 players, where the board fills exactly, whose hands already
    break it; the plain search must try every line to see that."""
    n = s[S_N]
    used = s[S_USED]
    total = 0
    nd = 0
    for v in range(s[S_NV]):
        sh = 4 * v
        need = -_POP[~(used >> sh) & 15]
        holders = 0
        for i in range(n):
            c = s[S_HANDS + i] >> sh & 15
            if c:
                need += c
                holders |= 1 << i
        if need > 0:
            total += need
            if total > n:
                return False
            s[S_HITS + nd] = need
            s[S_MASKS + nd] = holders
            nd += 1
    for sub in range(1, 1 << nd):
        need = 0
        who = 0
        for j in range(nd):
            if sub >> j & 1:
                need += s[S_HITS + j]
                who |= s[S_MASKS + j]
        if need > seat_count(who):
            return False
    return True


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
    if keyed and not (finals_fit(s) and cells_suffice(s)):
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


@_jit
def _seed(x: int) -> None:
    np.random.seed(x)
