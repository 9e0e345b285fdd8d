"""The zero-window search of the trick and score games (``u >= r``, ``score >= k``)."""

from __future__ import annotations

from catbox_solver.dd.kernel.cutoffs import (
    _free_cells,
    _losers,
    bounds,
    capacity,
    capacity_holds,
    hero_ducks,
    hero_ducks_twice,
    red_holds,
    safe,
)
from catbox_solver.dd.kernel.layout import (
    B_KEYS,
    S_ABORT,
    S_AT_MOST_4,
    S_COLORS,
    S_HANDS,
    S_HERO,
    S_IN_PROBE,
    S_LEADER,
    S_LIMIT,
    S_LOSSLED,
    S_MUST,
    S_N,
    S_NODES,
    S_OWN,
    S_PRED,
    S_PROBE_FIRST,
    S_PROBE_NODES,
    S_PROBE_TL,
    S_PROBES_CUT,
    S_TL,
    S_TLEN,
    S_TRICK,
    S_USED,
    S_WON,
    T_HI,
    T_LO,
    Arr,
    _jit,
    _md,
    _pop,
    _push,
    _tick,
    _winner,
    gen_plays,
)
from catbox_solver.dd.kernel.order import _order, _order_low
from catbox_solver.dd.kernel.score import _bonus_possible, bonus_ceiling, final_score, score_key
from catbox_solver.dd.kernel.table import _store, make_key, tt_find, tt_slot


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
