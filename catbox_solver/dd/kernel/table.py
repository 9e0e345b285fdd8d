"""The transposition table: the canonical key of a trick start, open addressing with
four probes, stored bounds that are always proven, and growing a table."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import int64, uint64

from catbox_solver.dd.kernel.layout import (
    _POP,
    B_SIZE,
    B_WORDS,
    S_COLORS,
    S_HANDS,
    S_HITS,
    S_LEADER,
    S_MASKS,
    S_N,
    S_NV,
    S_REDROW,
    S_TL,
    S_USED,
    T_FLAG,
    T_HI,
    T_LO,
    T_SIZE,
    TT_WORDS,
    Arr,
    _jit,
    _jit_inline,
    _jit_nogil,
)


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
      and whenever it has such a cell it still has a copy;
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


def _at_least(table: npt.NDArray[np.int64], bits: int) -> npt.NDArray[np.int64]:
    """The table with at least 2**bits entries (entries kept)."""
    if table.shape[0] >= 1 << bits:
        return table
    new = np.zeros((1 << bits, T_SIZE), dtype=np.int64)
    _rehash(table, new)
    return new


def _grown(table: npt.NDArray[np.int64], nodes: int, max_bits: int) -> npt.NDArray[np.int64]:
    """The table, four times larger (entries kept) once the nodes searched with it exceed
    four times its size, up to 2**max_bits entries. Tables start small: a fresh page of a
    large table costs its zeroing on first touch, which dominated small searches."""
    size = table.shape[0]
    if nodes <= 4 * size or size >= 1 << max_bits:
        return table
    return _at_least(table, size.bit_length() + 1)  # (size is a power of two: 4 * size)
