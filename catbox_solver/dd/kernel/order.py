"""Move ordering: which plays the search tries first (hand-made and learned orders)."""

from __future__ import annotations

import numpy as np

from catbox_solver.dd.kernel.layout import (
    _POP,
    B_KEYS,
    S_COLORS,
    S_HANDS,
    S_HERO,
    S_LEADER,
    S_N,
    S_NV,
    S_TL,
    S_TLEN,
    S_TRICK,
    S_USED,
    Arr,
    _jit,
    _md,
    _winner,
)

# The coalition's learned order when the hero is cornered (r < 0), from LEARNED_TL tricks
# left down (from 7: from 8 it lost on a first lead, from 7
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
    hand-made order tried the refuting play late where it mattered most, and
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
