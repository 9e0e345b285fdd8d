"""The score question's pieces: largest groups, the final score, its key and the
ceiling above which a score is only trick points."""

from __future__ import annotations

import numpy as np

from catbox_solver.dd.kernel.cutoffs import capacity
from catbox_solver.dd.kernel.layout import (
    B_WORDS,
    S_AT_MOST_4,
    S_COLORS,
    S_DIAG,
    S_HANDS,
    S_HERO,
    S_LEADER,
    S_N,
    S_NV,
    S_OWN,
    S_PRED,
    S_REMOVED,
    S_ROW_OF,
    S_TLEN,
    S_TRICK,
    S_USED,
    S_WON,
    TT_WORDS,
    Arr,
    _jit,
    _md,
)
from catbox_solver.dd.kernel.table import _put


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
