"""``Core``: one hero's compiled search with its tables, and the entry points that run
it with or without the GIL."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Final, TypeVar

import numpy as np
import numpy.typing as npt
from numba import types
from numba.extending import intrinsic
from numba.np.numpy_support import carray

from catbox_solver.dd.kernel.cooperative import _seed, t_search
from catbox_solver.dd.kernel.cutoffs import capacity, safe
from catbox_solver.dd.kernel.game import game
from catbox_solver.dd.kernel.layout import (
    B_SIZE,
    MAX_PLY,
    NO_LIMIT,
    PROBE_FIRST,
    PROBE_NODES,
    PROBE_TL,
    S_ABORT,
    S_AT_MOST_4,
    S_COLORS,
    S_DIAG,
    S_HANDS,
    S_HERO,
    S_IN_PROBE,
    S_LEADER,
    S_LIMIT,
    S_LOSSLED,
    S_MUST,
    S_N,
    S_NODES,
    S_NV,
    S_OWN,
    S_PRED,
    S_PROBE_FIRST,
    S_PROBE_NODES,
    S_PROBE_TL,
    S_PROBES_CUT,
    S_REDLEAD,
    S_REDROW,
    S_REMOVED,
    S_ROW_OF,
    S_SIZE,
    S_STOP,
    S_TL,
    S_TLEN,
    S_TRICK,
    S_USED,
    S_WATCH,
    S_WON,
    T_SIZE,
    TT_BITS,
    TT_LONG_BITS,
    Arr,
    _jit,
    _jit_inline,
    _jit_nogil,
)
from catbox_solver.dd.kernel.order import order_plays
from catbox_solver.dd.kernel.score import _bonus_possible, bonus_ceiling
from catbox_solver.dd.kernel.table import _at_least, _grown

TABLE_FIRST_BITS: Final = 10
"""The table question's table starts with 2**10 entries (64 KiB): most deals at the first
lead are decided in tens of nodes, and zeroing a larger table cost more than their search
(a 1 MiB table: 17 us a deal of about 170, with 3 players)."""

TABLE_BITS: Final = 14
"""The score question's table starts with 2**14 entries, and so does the table question's
once its first search outgrows its first table."""


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
    decrement each, and on the search's arrays that was 37 % of its time (measured with
    perf). The arrays themselves stay alive in the caller for the whole call. The main
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
        # the trick table: its first size is set at the first load, and it is made at the
        # first trick or score search (_trick_table): the table question never uses it,
        # and mapping its 64 MiB afresh cost 6 % of a `table` deal at the first lead
        self.tt = np.zeros((0, T_SIZE), dtype=np.int64)
        self._tt_first_bits = 0
        self._tt_nodes = 0  # nodes searched since the trick table last grew
        self._ttable: npt.NDArray[np.int64] | None = None
        self._tscore: npt.NDArray[np.int64] | None = None
        self.capped = False  # the last table or trick search ran out of its node cap
        self._no_score = np.zeros((1, T_SIZE), dtype=np.int64)

    def _trick_table(self) -> npt.NDArray[np.int64]:
        """The trick table, made at its first size if no search has used it yet."""
        if not self.tt.shape[0]:
            self.tt = np.zeros((1 << self._tt_first_bits, T_SIZE), dtype=np.int64)
        return self.tt

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
        if not self._tt_first_bits:
            # first size from the tricks left (the search grows about x60 a trick; a
            # 5-player trick has one more play: four times the start), then grown as the
            # nodes searched call for it
            extra = 2 if self.s[S_N] == 5 else 0
            need = max(12, 2 * tricks_left + 8 + extra)
            if need >= TT_LONG_BITS and self._long_ok:
                # a long search: at its full size at once, as it grows only between
                # searches, and one search can be most of the work
                self.tt_cap = TT_LONG_BITS
            self._tt_first_bits = min(self.tt_cap, need)
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
        res = _entry(game_held, game_nogil)(
            s, 0, r, 0, self.buf, self._trick_table(), self._no_score, dl
        )
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
            self._ttable = np.zeros((1 << min(self.tt_bits, TABLE_FIRST_BITS), T_SIZE),
                                    dtype=np.int64)
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
            nodes = int(s[S_NODES])
            if nodes > self._ttable.shape[0]:
                self._ttable = _at_least(self._ttable, min(self.tt_bits, TABLE_BITS))
            self._ttable = _grown(self._ttable, nodes, self.tt_bits - 2)
            if s[S_ABORT] == 1:
                return None, nodes
            if s[S_ABORT] == 0:
                return bool(res), nodes
            if limit == cap:
                self.capped = True
                return None, nodes
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
            self._tscore = np.zeros((1 << min(self.tt_bits, TABLE_BITS), T_SIZE), dtype=np.int64)
        s = self.s
        s[S_WON] = won
        s[S_OWN] = own
        self._fresh()
        res = _entry(game_held, game_nogil)(
            s, 1, k, 0, self.buf, self._trick_table(), self._tscore,
            -1.0 if deadline is None else deadline,
        )
        nodes = int(s[S_NODES])
        self._tscore = _grown(self._tscore, nodes, self.tt_bits - 2)
        self._tt_nodes += nodes
        self._grow_tt()
        if s[S_ABORT]:
            return None, nodes
        return bool(res), nodes
