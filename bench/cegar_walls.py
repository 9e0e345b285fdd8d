"""Counterexample-guided refinement (issue 46's first route) measured on the walls.

A wall is one zero-window question "u >= r?" whose answer is False: the coalition has a
strategy keeping the hero below r, and the plain search spends nearly all its nodes on
coalition tries that turn out wrong, each refuted by a whole hero proof. This script
measures, in nodes, whether guessing the coalition's strategy and checking it does better:

- the *abstraction*: the game with the hero restricted, at each node, to the plays it has
  used so far to escape (a hero with one legal play always has it), the coalition free.
  Solved by the same zero-window search. A True here is a real proof (a weaker hero
  still reaches r); a False gives a candidate coalition policy (the refuting play found
  at each coalition node).
- the *check*: the hero free, the coalition fixed to the policy (at nodes the abstraction
  never reached: its first play in the search order). False is a real proof of u < r
  (the policy, with proven table bounds and cut-offs as leaves, is a coalition strategy);
  True gives the hero's escape line, whose plays join the abstraction.

Both use the production kernel's cut-offs and its table for what they prove (every bound
stored there is a real proof); what holds only in the abstraction lives in maps of its
own, keyed by the exact state (not the canonical key) and the threshold. Each round adds
at least one new play or one proven bound, so the loop ends. The figures are the rounds,
the nodes of each part, and the answer, against the wall's nodes in the plain search.

    python bench/cegar_walls.py --walls p0-2b-4b,p0-1b-2y --cap 20e6
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np
from numba import uint64

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_walls import WALLS, wall_position  # noqa: E402

from catbox_solver.dd.kernel import __file__ as kernel_file  # noqa: E402
from catbox_solver.dd.kernel.cutoffs import (  # noqa: E402
    bounds,
    capacity,
    capacity_holds,
    hero_ducks,
    hero_ducks_twice,
    red_holds,
    safe,
)
from catbox_solver.dd.kernel.game import wins_then_safe  # noqa: E402
from catbox_solver.dd.kernel.layout import (  # noqa: E402
    S_ABORT,
    S_COLORS,
    S_HANDS,
    S_HERO,
    S_LEADER,
    S_LIMIT,
    S_LOSSLED,
    S_MUST,
    S_N,
    S_NODES,
    S_TL,
    S_TLEN,
    S_TRICK,
    S_USED,
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
from catbox_solver.dd.kernel.order import _order, _order_low  # noqa: E402
from catbox_solver.dd.kernel.stale import cache_dir, drop_stale  # noqa: E402
from catbox_solver.dd.kernel.table import _store, make_key, tt_find, tt_slot  # noqa: E402
from catbox_solver.dd.search import Search  # noqa: E402
from catbox_solver.dd.warmup import warm_up  # noqa: E402

# this script's compiled functions carry the kernel's code: its cache goes with the
# kernel's sources too (see catbox_solver/dd/kernel/stale.py)
_HERE = Path(__file__).resolve()
drop_stale([_HERE, *Path(kernel_file).resolve().parent.glob("*.py")], cache_dir(_HERE.parent))

MAP_BITS = 22
# the variants measured (``flags`` of refine, bits):
SEED_FIRST = 1  # the abstraction's hero always has its first play in the search order
ALL_ESCAPES = 2  # the check collects every escaping hero play (else: the first, and stops)
POLICY_FIRST = 4  # the abstraction tries the last round's refuting play first


@_jit
def raw_hash(s: Arr, r: int) -> int:
    """A hash of the exact state and the threshold: odd, so never 0 (an empty slot)."""
    h = uint64(0x9E3779B97F4A7C15)
    n = s[S_N]
    tlen = s[S_TLEN]
    for x in (s[S_USED], s[S_LEADER], s[S_TL], tlen, r + 64):
        h = (h ^ uint64(x)) * uint64(0xBF58476D1CE4E5B9)
        h ^= h >> uint64(29)
    for i in range(tlen):
        h = (h ^ uint64(s[S_TRICK + i])) * uint64(0x94D049BB133111EB)
        h ^= h >> uint64(31)
    for i in range(n):
        h = (h ^ uint64(s[S_HANDS + i])) * uint64(0xBF58476D1CE4E5B9)
        h ^= h >> uint64(27)
        h = (h ^ uint64(s[S_COLORS + i])) * uint64(0x94D049BB133111EB)
        h ^= h >> uint64(31)
    return int(h >> uint64(1)) | 1


@_jit
def map_get(keys: Arr, vals: Arr, h: int) -> int:
    mask = keys.shape[0] - 1
    i = h & mask
    while keys[i] != 0:
        if keys[i] == h:
            return int(vals[i])
        i = (i + 1) & mask
    return 0


@_jit
def map_or(keys: Arr, vals: Arr, h: int, bits: int) -> None:
    mask = keys.shape[0] - 1
    i = h & mask
    while keys[i] != 0 and keys[i] != h:
        i = (i + 1) & mask
    keys[i] = h
    vals[i] |= bits


@_jit
def map_set(keys: Arr, vals: Arr, h: int, val: int) -> None:
    mask = keys.shape[0] - 1
    i = h & mask
    while keys[i] != 0 and keys[i] != h:
        i = (i + 1) & mask
    keys[i] = h
    vals[i] = val


@_jit
def refine(s: Arr, mode: int, r: int, ply: int, buf: Arr, tt: Arr, hk: Arr, hv: Arr,
           pk: Arr, pv: Arr, ak: Arr, av: Arr, flags: int) -> bool:
    """``u >= r`` in the abstraction (``mode`` 0: the hero restricted to hv's plays, the
    coalition free; its False answers kept in ak, the refuting plays written to pv as the
    policy) or the check (``mode`` 1: the hero free, the coalition on pv's policy; the
    hero's escaping plays added to hv). Both store real proofs only, in ``tt``. The
    prelude (cut-offs, table, bounds) is the kernel's ``game``'s."""
    tl = s[S_TL]
    zero = tl - tl
    if tl == 0:
        return r <= 0
    if r > tl:
        return False
    if r <= -tl:
        return True
    tlen = s[S_TLEN]
    if r <= 1 - tl:
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
        if hero_ducks_twice(s, True):
            return True
    _tick(s, -1.0)
    if s[S_ABORT]:
        return False
    row = buf[ply]
    keyed = tlen == 0
    slot = -1
    if keyed:
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
        return True
    if r <= 0 and tlen:
        if mine:
            if safe(s, hero, tl):
                return True
        else:
            if safe(s, hero, tl - (1 if _md(hero - leader, n) < tlen else 0)):
                return True
    if r <= 0 and mine and k > 1 and capacity(s, hero) >= tl:
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
    h = raw_hash(s, r)
    if mode == 0 and map_get(ak, av, h):
        return False  # the abstraction's False, found earlier in this round
    if r < 0:
        _order_low(s, row, k, p)
    else:
        _order(s, row, k, p, r > 0)
    if r >= 1:
        won_r = r - 1
    elif r <= -1:
        won_r = r + 1
    else:
        won_r = zero
    res = False
    if mode == 0:
        if mine:
            allowed = map_get(hk, hv, h)
            if flags & SEED_FIRST:
                allowed |= 1 << row[0]  # the hero's first play in order, always
            for j in range(k):
                pl = row[j]
                if k > 1 and not (allowed >> pl) & 1:
                    continue
                w = _push(s, row, pl)
                sub = refine(s, mode, won_r if w == hero else r, ply + 1, buf, tt, hk, hv,
                             pk, pv, ak, av, flags)
                _pop(s, row, pl, w)
                if s[S_ABORT]:
                    return False
                if sub:
                    res = True
                    break
        else:
            res = True
            pol = map_get(pk, pv, h)
            if pol and flags & POLICY_FIRST:
                for j in range(1, k):  # last round's refuting play first
                    if row[j] == pol - 1:
                        row[j] = row[0]
                        row[0] = pol - 1
                        break
            for j in range(k):
                pl = row[j]
                w = _push(s, row, pl)
                sub = refine(s, mode, won_r if w == hero else r, ply + 1, buf, tt, hk, hv,
                             pk, pv, ak, av, flags)
                _pop(s, row, pl, w)
                if s[S_ABORT]:
                    return False
                if not sub:
                    map_set(pk, pv, h, pl + 1)
                    res = False
                    break
        if res:
            if keyed:
                _store(tt, row, tl, r, True)
        else:
            map_set(ak, av, h, 1)
        return res
    if mine:
        for j in range(k):
            pl = row[j]
            w = _push(s, row, pl)
            sub = refine(s, mode, won_r if w == hero else r, ply + 1, buf, tt, hk, hv,
                         pk, pv, ak, av, flags)
            _pop(s, row, pl, w)
            if s[S_ABORT]:
                return False
            if sub:
                map_or(hk, hv, h, 1 << pl)
                res = True
                if not flags & ALL_ESCAPES:
                    break
    else:
        pol = map_get(pk, pv, h)
        pl = pol - 1 if pol else row[0]
        w = _push(s, row, pl)
        sub = refine(s, mode, won_r if w == hero else r, ply + 1, buf, tt, hk, hv,
                     pk, pv, ak, av, flags)
        _pop(s, row, pl, w)
        if s[S_ABORT]:
            return False
        res = sub
    if not res and keyed:
        _store(tt, row, tl, r, False)
    return res


def cegar(search: Search, r: int, cap: int, flags: int) -> tuple[bool | None, int, int, int, int]:
    """The loop: (answer or None when the cap ran out, rounds, abstraction nodes, check
    nodes, hero plays in the abstraction)."""
    core = search._loaded_core()  # noqa: SLF001
    s, buf, tt = core.s, core.buf, core.tt
    size = 1 << MAP_BITS
    hk = np.zeros(size, dtype=np.int64)
    hv = np.zeros(size, dtype=np.int64)
    pk = np.zeros(size, dtype=np.int64)
    pv = np.zeros(size, dtype=np.int64)
    ak = np.zeros(size, dtype=np.int64)
    av = np.zeros(size, dtype=np.int64)
    nodes = [0, 0]
    rounds = 0
    while True:
        for mode in (0, 1):
            if mode == 0:
                ak[:] = 0
            core._fresh()  # noqa: SLF001
            s[S_LIMIT] = cap - nodes[0] - nodes[1]
            res = refine(s, mode, r, 0, buf, tt, hk, hv, pk, pv, ak, av, flags)
            nodes[mode] += int(s[S_NODES])
            if s[S_ABORT]:
                return None, rounds, nodes[0], nodes[1], int(np.count_nonzero(hk))
            if mode == 0 and res:
                return True, rounds, nodes[0], nodes[1], int(np.count_nonzero(hk))
            if mode == 1 and not res:
                return False, rounds, nodes[0], nodes[1], int(np.count_nonzero(hk))
        rounds += 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cap", type=float, default=20e6,
                    help="node cap per wall, 1 or more (default: 20e6)")
    ap.add_argument("--walls", default="", help="names, comma-separated (default: all)")
    ap.add_argument("--all-escapes", action="store_true",
                    help="the check collects every escaping hero play, not the first")
    ap.add_argument("--seed-first", action="store_true",
                    help="the abstraction's hero always has its first play in order")
    ap.add_argument("--policy-first", action="store_true",
                    help="the abstraction tries the last round's refuting play first")
    args = ap.parse_args(argv)
    if not math.isfinite(args.cap) or args.cap < 1:
        ap.error(f"argument --cap: must be a number of nodes, 1 or more, not {args.cap:g}")
    chosen = WALLS
    if args.walls:
        names = args.walls.split(",")
        unknown = [x for x in names if x not in {w.name for w in WALLS}]
        if unknown:
            ap.error(f"unknown wall(s): {', '.join(unknown)}")
        chosen = tuple(w for w in WALLS if w.name in names)
    flags = ((SEED_FIRST if args.seed_first else 0) | (ALL_ESCAPES if args.all_escapes else 0)
             | (POLICY_FIRST if args.policy_first else 0))
    warm_up()
    wrong = 0
    print(f"{'wall':10s} {'r':>3s} {'answer':6s} {'rounds':>7s} {'abstract':>12s} "
          f"{'check':>12s} {'hero plays':>10s} {'s':>6s}  plain search")
    for w in chosen:
        pos, hero = wall_position(w)
        t = time.perf_counter()
        res, rounds, na, nc, hp = cegar(Search(pos, hero), w.r, int(args.cap), flags)
        dt = time.perf_counter() - t
        shown = "open" if res is None else str(res)
        flag = ""
        if res is not None and w.known is not None and res != w.known:
            flag = f"  WRONG (known: {w.known})"
            wrong += 1
        print(f"{w.name:10s} {w.r:3d} {shown:6s} {rounds:7d} {na:12,d} {nc:12,d} {hp:10,d} "
              f"{dt:6.1f}  {w.note}{flag}", flush=True)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
