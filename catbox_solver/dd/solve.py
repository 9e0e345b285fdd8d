"""Double-dummy search: exact best play with all hands open.

Each player plays for themselves, so every question is "one hero against the coalition of
all other players" (paranoid search): the others choose their plays together to hurt the
hero. Questions (see docs/search.md):

- ``paradox``: can the hero be sure never to cause a paradox? (a paradox caused by someone
  else ends the round and counts as a success for the hero)
- ``tricks``: the hero's guaranteed trick points at the end of the round (+t, or -t if the
  hero causes the paradox; t counts the tricks already won)
- ``score``: the hero's guaranteed round score (trick points plus bonus)
- ``table``: can the players together finish the round without any paradox?

How (the techniques of bridge double-dummy solvers):

- Boolean zero-window searches on one integer game for the rest of the round: u = g if
  the hero causes no paradox and wins g more tricks, u = -1 - g if it causes a paradox
  after winning g more tricks (the final trick points are monotone in u). ``paradox`` is
  "u >= 0"; each search answers "u >= r?" and the exact value comes from a binary search
  on r.
- A transposition table at the start of each trick holding lower and upper bounds of the
  value of the *rest* of the round (tricks already won are not in the key). Its key is
  canonical: blue, yellow and green are interchangeable (no bonus is asked), so each of
  them is described by its row of the board and the seats that still hold it, and the
  three descriptions are sorted. Owners of tokens do not matter either, only which cells
  are used.
- Identical plays merged (two copies of a value are one play) and move ordering (plays
  that keep the hero's colors and win tricks for the hero first; for the coalition, plays
  that take the hero's cells and beat the hero's cards).
- Counting cut-off for ``table``: the plays still to come need distinct free cells, and
  value v can fill at most min(copies of v in hands, free cells of v) of them.

Every value is exact; a search that runs out of time raises internally and the answer is
``None`` ("unknown"), never a guess. The searches themselves run in the compiled core
(dd/kernel.py, numba); this module orchestrates them.
The reference for correctness is ``tests/oracles/minimax_ref.py``, a plain minimax written
separately.
"""

from __future__ import annotations

import functools
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from catbox_solver.dd.fast import FastState
from catbox_solver.dd.kernel import Core
from catbox_solver.errors import SearchError
from catbox_solver.formats.notation import position_from_notation
from catbox_solver.interrupt import Guard, can_guard, ctrl_c_stops, wait_awake
from catbox_solver.interrupt import Interrupted as Interrupted  # (re-exported)
from catbox_solver.model.numbers import check_int, check_seconds, is_deadline, is_whole
from catbox_solver.model.position import (
    Play,
    Position,
    largest_group,
    need_position,
)
from catbox_solver.model.rules import COLOR_CHARS

QUESTIONS = ("paradox", "tricks", "score", "table")

Value = bool | int | None
# progress(done, total, what): ``done`` of ``total`` steps are finished, ``what`` says what
# is being searched now (a play or a seat, the question, the range proven so far; "" at
# the end)
Progress = Callable[[int, int, str], None]


_BITS = tuple(bin(i).count("1") for i in range(16))


def _lose_mask(free: int, c: int, lower: bool) -> int:
    """Of the free cells ``free`` of one value, those that do not win a trick led in color
    ``c`` with a higher card of it (``lower``: the value is below that card): the plain
    cells of other colors, and the cell of the led color if lower."""
    return free & 14 & ~(1 << c) | (free & 1 << c if lower else 0)


def _value_loses(free: int, c: int, lower: bool, red: bool) -> int:
    """Of the free cells ``free`` of one value, those that do not win a trick led in color
    ``c`` whose winning card is higher (``lower``), red if ``red``: once red wins, every
    plain cell and a lower red; else as :func:`_lose_mask`."""
    if red:
        return free & 14 | (free & 1 if lower else 0)
    return _lose_mask(free, c, lower)


def _fill(free: int, holders: list[tuple[int, int]]) -> int:
    """The most empty cells of one value (mask ``free`` of its colors) that its holders can
    fill, each holder with (copies, mask of cells it can fill): a bipartite matching, by
    Hall's theorem: |free| - max over cell sets S of (|S| - copies of holders touching S)."""
    short = 0
    s = free
    while s:
        cap = 0
        for c, m in holders:
            if m & s:
                cap += c
        d = _BITS[s] - cap
        if d > short:
            short = d
        s = (s - 1) & free
    return _BITS[free] - short


# from this many tricks left a compiled search can take long (seconds to hours): a Search
# used on its own guards its core calls against Ctrl-C, and one job runs off the main
# thread (see _core_answer, _long)
_LONG_FROM = 5
# solve narrows each play's range from this many tricks left (the first lead of 4 and 5
# players), each short search within _NARROW_NODES nodes (see Search.narrow_u)
_NARROW_FROM = 7
_NARROW_NODES = 3_000_000
# a paradox verdict (u >= 0) from this many tricks left that is not found within
# _RACE_NODES nodes races the plays of the seat to move (see Search._u_raced)
_RACE_FROM = 7
_RACE_NODES = 1_000_000


class _Budget(Exception):
    """A table search used up its node budget (the search restarts with another order)."""


class OutOfTime(Exception):
    """The deadline passed: the answer is unknown. Raised by a :class:`Search` used on its
    own; solve, value_only and dd_table catch it and answer "unknown" with the range
    proven. (Not a CatboxError: the input was fine.)"""


@dataclass(frozen=True, slots=True)
class PlayResult:
    """The value of the question after one legal play of the player to move. ``bounds``:
    when the result is unknown (out of time) for ``tricks`` or ``score``, the range
    ``(lo, hi)`` the search had proven it to lie in; otherwise None."""

    play: Play
    result: Value
    bounds: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """The answer to a question about a position: ``value`` (None if the search ran out of
    time), the value after every legal play of the player to move, a principal variation
    (best play by everyone, from the position to the end of the round), the number of
    nodes searched and the time taken. Out of time, the value can still be known while
    some plays are open (their result None): when the plays found decide it (a ``tricks``
    or ``score`` range closed to one number, a play that settles ``paradox`` or
    ``table``); ``pv`` is then empty and ``pv_complete`` False."""

    question: str
    hero: int
    value: Value
    plays: tuple[PlayResult, ...]
    pv: tuple[Play, ...]
    nodes: int
    seconds: float
    to_move: int
    bounds: tuple[int, int] | None = None
    """When the value is unknown (out of time) for ``tricks`` or ``score``: the range
    ``(lo, hi)`` it is proven to lie in, from the plays' results and ranges."""
    pv_complete: bool = True
    """False when the value is known but the time ran out before the line was found:
    either while the line was searched, after every play's result was known (``pv`` is
    then the start of a best line, each of its plays keeping the value), or before some
    plays were known (``pv`` empty)."""

    def to_json(self) -> dict[str, Any]:
        """The fixed JSON shape of POSITION-JSON.md, plus ``bounds`` ([lo, hi]) beside a
        value or a play's result that is null for ``tricks`` or ``score``, and
        ``"pv_complete": false`` when the time ran out before the line was complete."""
        plays: list[dict[str, Any]] = []
        for r in self.plays:
            row: dict[str, Any] = {
                "value": r.play.value,
                "color": COLOR_CHARS[r.play.color],
                "text": r.play.text,
                "result": r.result,
            }
            if r.bounds is not None:
                row["bounds"] = list(r.bounds)
            plays.append(row)
        out: dict[str, Any] = {
            "question": self.question,
            "hero": self.hero,
            "value": self.value,
        }
        if self.bounds is not None:
            out["bounds"] = list(self.bounds)
        out["plays"] = plays
        out["pv"] = [
            {"value": p.value, "color": COLOR_CHARS[p.color], "text": p.text} for p in self.pv
        ]
        if not self.pv_complete:
            out["pv_complete"] = False
        out["nodes"] = self.nodes
        out["seconds"] = round(self.seconds, 6)
        return out

    def best_first(self) -> tuple[PlayResult, ...]:
        """The plays, best for the player to move first (hero: highest value first; any
        other player: lowest value for the hero first). A play out of time counts by its
        proven range (hero: by its low, then its high; any other player: by its high,
        then its low), so one proven to beat a known value comes before it; without a
        range it comes last."""
        mover_is_hero = self.to_move == self.hero or self.question == "table"

        def rank(r: PlayResult) -> tuple[int, int, int]:
            if r.result is not None:
                lo = hi = int(r.result)
            elif r.bounds is not None:
                lo, hi = r.bounds
            else:
                return (1, 0, 0)
            return (0, -lo, -hi) if mover_is_hero else (0, hi, lo)

        return tuple(sorted(self.plays, key=rank))


def check_hero(pos: Position, hero: int) -> None:
    need_position(pos, SearchError)
    if not is_whole(hero) or not 0 <= hero < pos.rules.players:
        raise SearchError(f"hero seat {hero!r} outside 0-{pos.rules.players - 1}")


def _check_question(question: str) -> None:
    if question not in QUESTIONS:
        raise SearchError(f"unknown question {question!r} (one of {', '.join(QUESTIONS)})")


def check_prediction(pos: Position, hero: int) -> None:
    """The score question needs the hero's prediction (3-5 players, or the 2-player
    prediction reading)."""
    rules = pos.rules
    if rules.players == 2 and rules.two_player_bonus == "at-most-4":
        return
    if pos.predictions is None or pos.predictions[hero] is None:
        raise SearchError(
            f"the prediction of seat {hero} is unknown: the score question needs it"
        )


class Search:
    """Searches on one position for one hero; the transposition tables are kept between
    questions, so asking several questions of one position shares work."""

    def __init__(
        self,
        pos: Position,
        hero: int,
        deadline: float | None = None,
    ) -> None:
        check_hero(pos, hero)
        if deadline is not None and not is_deadline(deadline):
            # (a NaN deadline was never reached, and text failed inside the core)
            raise SearchError(f"deadline must be a time.perf_counter() value, not {deadline!r}")
        self.pos = pos
        self.st = FastState(pos)
        self.hero = hero
        self.deadline = deadline
        self.nodes = 0
        rules = pos.rules
        self._at_most_4 = rules.players == 2 and rules.two_player_bonus == "at-most-4"
        preds = pos.predictions
        self._pred = None if preds is None else preds[hero]
        self._row_order = rules.row_order
        self._diagonal = rules.adjacency == "diagonal"
        self._guess: int | None = None  # the outcome u of the last tricks_exact
        # the range proven so far for the value tricks_exact or score_exact is computing
        # (final trick points or score): what is known when the deadline passes;
        # on_partial is told each new range (the progress line shows it)
        self.on_partial: Callable[[tuple[int, int]], None] | None = None
        self._partial: tuple[int, int] | None = None
        # the same range as outcomes u of the rest of the round, while the value is
        # searched over u (_note_u): dd_table hands a seat's trick range to its score
        self.partial_u: tuple[int, int] | None = None
        self.races = 0  # races run (_u_raced past its first search): the tests check them
        st = self.st
        self._core = Core(
            hero, (st.n, st.nv, st.redrow, int(st.must_follow), int(st.loss_led), st.red_lead)
        )
        self._core.set_score_rules(
            self._pred, self._at_most_4, rules.interrupted_trick == "removed", self._diagonal,
            self._row_order,
        )

    @property
    def partial(self) -> tuple[int, int] | None:
        """The range (lo, hi) proven so far for the value being computed, or None."""
        return self._partial

    @partial.setter
    def partial(self, rng: tuple[int, int] | None) -> None:
        old, self._partial = self._partial, rng
        if rng is not None and rng != old and self.on_partial is not None:
            self.on_partial(rng)  # (a range only when it changes)

    # ---- bookkeeping ---------------------------------------------------------------------
    def stop(self) -> None:
        """Stop (from a signal handler or another thread): a search under way ends within
        4096 nodes as if the time had run out, and so does every later one."""
        self._core.stop()

    def watch(self) -> None:
        """Let a signal handler run during long compiled searches (see _ctrl_c_stops)."""
        self._core.watch()

    def _late(self) -> bool:
        """Has the deadline passed?"""
        return self.deadline is not None and time.perf_counter() > self.deadline

    # ---- the trick game: one integer for the rest of the round -----------------------
    def _u(self, r: int) -> bool:
        """Can the hero make sure that the outcome of the rest of the round is at least
        ``r``? Outcome u: g >= 0 if the hero causes no paradox and wins g more tricks;
        -1 - g if the hero causes a paradox after winning g more tricks. The hero's final
        trick points are monotone in u whatever it has won already, so u is a game of its
        own and its bounds can be stored without the tricks won (the kernel's ``game``)."""
        core = self._loaded_core()
        if r == 0 and self.st.tricks_left >= _RACE_FROM:
            return self._u_raced(r)
        return self._core_answer(core.u, r, self.deadline)

    def _u_raced(self, r: int) -> bool:
        """``_u(r)`` by a race of the plays of the seat to move, when a search of the node
        itself has not ended within _RACE_NODES nodes: each play still open gets a
        search within a node cap, the cap doubling each round; the first play that decides
        the node (a proof for the hero, a refutation for the others) ends it, and the node
        goes the other way when every play has gone that way. Why: at the first lead the
        search's order can put the one play that decides a node late, behind plays that
        each cost far more to search to the end (5-player position 10's 5b: 351.8 M nodes,
        its refuting answer 6y alone 2.7 M). What each capped search finishes stays in the
        table, so the next round goes on from it."""
        res = self._u_within(r, _RACE_NODES)
        if res is not None:
            return res
        st = self.st
        p = st.to_move
        hero_moves = p == self.hero
        plays = self._search_order(st.legal(), p, r)
        cap = _RACE_NODES
        self.races += 1
        while plays:
            cap *= 2
            still = []
            for play in plays:
                st.push(play)
                try:
                    res = self._u_within(r, cap)
                finally:
                    st.pop()
                if res is None:
                    still.append(play)
                elif res == hero_moves:
                    return res
            plays = still
        return not hero_moves

    def _loaded_core(self) -> Core:
        """The compiled core with the current state loaded."""
        core = self._core
        st = self.st
        core.load(st.used, st.leader, st.tricks_left, st.trick, st.hands, st.colors)
        return core

    def safe(self, seat: int, plays_needed: int) -> bool:
        """Is ``seat`` sure to have a legal play at each of its next ``plays_needed`` turns
        from the current state, whatever the others do? (The kernel's counting fact.)"""
        return self._loaded_core().safe(seat, plays_needed)

    def _search_order(self, plays: list[Play], p: int, r: int) -> list[Play]:
        """The plays of seat ``p`` in the order the kernel's search ``u >= r`` tries them
        (the cornered hero's order at r < 0, else the hero wanting tricks or not)."""
        if len(plays) < 2:
            return plays
        codes = self._loaded_core().order([4 * pl.value + pl.color for pl in plays], p, r)
        return [Play(c >> 2, c & 3) for c in codes]

    def _core_answer(self, call: Callable[..., tuple[bool | None, int]], *args: Any) -> bool:
        """Run ``call(*args)``, a core search, and count its nodes; out of time raises
        OutOfTime. The core reads the clock every 4096 nodes of one call; many short calls
        are checked here. Ctrl-C: a Search used on its own (puzzles, rule readings) has no
        guard around it, so one is put in around the call, and a search stopped by it
        raises Interrupted (the search stays stopped); inside solve, dd_table or
        value_only their guard handles Ctrl-C instead. Only from _LONG_FROM tricks left:
        a shorter search ends within milliseconds, and then Python's own handler raises
        (a guard on every tiny call of a puzzle's searches doubled their time)."""
        if self._late():
            # its answer would be thrown away (below), and a search started late still
            # cost time: a first-lead search's first 4096 nodes fault in its 256 MB table,
            # about 0.5 s (a 1 s DD table of 4 players took 2.3 s, the seats after the
            # first each starting past the deadline)
            raise OutOfTime
        if self.st.tricks_left >= _LONG_FROM and can_guard():
            with _ctrl_c_stops([self]) as guard:
                res, nodes = call(*args)
            if guard.hit:
                self.nodes += nodes
                raise Interrupted(None)
        else:
            res, nodes = call(*args)
        self.nodes += nodes
        if res is None or self._late():
            raise OutOfTime
        return res

    def _s(self, k: int) -> bool:
        """Can the hero make sure its round score is at least ``k``?"""
        core = self._loaded_core()
        h = self.hero
        won, own = self.st.won[h], self.st.owners[h]
        return self._core_answer(core.score_at_least, k, won, own, self.deadline)

    def _bonus_possible(self, tl: int) -> bool:
        """Can the hero's prediction still succeed? (3-5 players: the prediction lies
        between the tricks won and that plus the tricks left; 2 players: at most 4.)"""
        w = self.st.won[self.hero]
        if self._at_most_4:
            return w <= 4
        pred = self._pred
        return pred is not None and w <= pred <= w + tl

    def _bonus_ceiling(self, tl: int) -> int:
        """No score with a bonus is above this, with ``tl`` tricks left and the bonus
        still possible: the trick count it needs (the prediction; 2 players:
        at most 4, and no more than can still be won) plus the largest group the hero's
        tokens could still form. Its tokens can grow only on free cells of values it holds,
        in colors it still has, and by no more cells than the plays it can still make.
        Why: a score above it is the trick points, which the trick game answers far
        faster than the score game."""
        st = self.st
        h = self.hero
        own = st.owners[h]
        cols = st.colors[h]
        reach, x, sh = own, st.hands[h], 0
        while x:
            if x & 15:
                reach |= (~(st.used >> sh) & cols & 15) << sh
            x >>= 4
            sh += 4
        group = min(
            largest_group(reach, self._row_order, self._diagonal),
            bin(own).count("1") + min(tl, self._loaded_core().capacity(h)),
        )
        tricks = min(4, st.won[h] + tl) if self._at_most_4 else self._pred
        assert tricks is not None  # (the bonus is possible)
        return tricks + group

    def table(self) -> bool:
        """Can the players together finish the round with no paradox? Depth-first search
        with restarts: short searches with different play orders and a growing node
        budget, then one without a budget. Only finished sub-searches are stored in the
        table, so every stored answer is proven and restarts reuse them."""
        res = self._table(-1)
        assert res is not None
        return res

    def table_within(self, cap: int) -> bool | None:
        """``table()`` within about ``cap`` nodes: None when they are used up (what was
        finished stays stored, so a later call goes on from there)."""
        check_int(cap, "cap", 0)
        return self._table(cap)

    def _table(self, cap: int) -> bool | None:
        core = self._loaded_core()
        try:
            return self._core_answer(core.table, self.deadline, cap)
        except OutOfTime:
            if core.capped:
                return None
            raise

    # ---- exact values on the current state ------------------------------------------
    def _final(self, u: int) -> int:
        """The hero's final trick points for outcome ``u`` of the rest of the round."""
        w = self.st.won[self.hero]
        return w + u if u >= 0 else u + 1 - w

    def tricks_at_least(self, k: int) -> bool:
        """Are the hero's final trick points at least ``k``?"""
        check_int(k, "k")
        tl = self.st.tricks_left
        for u in range(-tl, tl + 1):
            if self._final(u) >= k:
                return self._u(u)
        return False

    def tricks_exact(self, sign: bool | None = None, known: tuple[int, int] | None = None) -> int:
        """The hero's guaranteed final trick points (``sign``: the answer of ``u >= 0``,
        when known; ``known``: a range of u proven already, see narrow_u)."""
        return self._final(self._exact_u(sign, None, known))

    def narrow_u(self, sign: bool, cap: int, ceiling: int | None = None) -> tuple[int, int]:
        """A range of the outcome u proven by short searches from both ends inward: u >=
        lo + 1? from below and u >= hi? from above, in turn, each within ``cap`` nodes,
        until one from each end has run out of them (what it finished stays stored).
        Why: from the first lead a play's exact value can take minutes, and the searches
        next to it are the costly ones, while those far from it take seconds; searched
        first, they leave a timeout with a narrower range than the sign's. ``sign``: the
        answer of ``u >= 0``; ``ceiling``: see _note_u."""
        if not isinstance(sign, bool):
            raise SearchError(f"sign is the answer of u >= 0 (True or False), not {sign!r}")
        check_int(cap, "cap", 1, 1 << 62)
        if ceiling is not None:
            check_int(ceiling, "ceiling")
        lo, hi = self._sign_u(sign)
        self._note_u(lo, hi, ceiling)
        up = down = True
        while lo < hi and (up or down):
            if up:
                res = self._u_within(lo + 1, cap)
                if res is None:
                    up = False
                elif res:
                    lo += 1
                else:
                    hi = lo
            if down and lo < hi:
                res = self._u_within(hi, cap)
                if res is None:
                    down = False
                elif res:
                    lo = hi
                else:
                    hi -= 1
            self._note_u(lo, hi, ceiling)
        return lo, hi

    def _u_within(self, r: int, cap: int) -> bool | None:
        """``_u(r)`` within about ``cap`` nodes: None when they are used up."""
        core = self._loaded_core()
        try:
            return self._core_answer(core.u, r, self.deadline, cap)
        except OutOfTime:
            if core.capped:
                return None
            raise

    def _check_known(self, sign: object, known: object) -> None:
        """What a caller says is proven already must at least be of the right form: a
        sign True, False or None, and a range (lo, hi) of whole numbers with lo <= hi
        within the outcomes of the tricks left (an int unpacked raised TypeError)."""
        if sign is not None and not isinstance(sign, bool):
            raise SearchError(f"sign is the answer of u >= 0 (True, False or None), not {sign!r}")
        if known is None:
            return
        tl = self.st.tricks_left
        if not (isinstance(known, (tuple, list)) and len(known) == 2
                and all(is_whole(x) for x in known) and -tl <= known[0] <= known[1] <= tl):
            raise SearchError(
                f"known is a proven range (lo, hi) of the outcome, -{tl} <= lo <= hi <= {tl}, "
                f"not {known!r}"
            )

    def _exact_u(
        self, sign: bool | None, ceiling: int | None = None,
        known: tuple[int, int] | None = None,
    ) -> int:
        """The exact outcome u of the rest of the round (``ceiling``: see _note_u;
        ``known``: a range of u proven already).

        A binary search over u, after the sign (``u >= 0``, the paradox verdict). The
        outcome of the previous call, when there is one in range, is tried first with
        its neighbour: the plays of one position mostly share a value or differ by one
        (``solve`` asks for each), and each search a guess saves can cost millions of
        nodes."""
        self._check_known(sign, known)
        if known is None:
            if sign is None:
                self._note_u(*self._sign_u(None), ceiling)
                sign = self._u(0)
            known = self._sign_u(sign)
        lo, hi = known
        self._note_u(lo, hi, ceiling)
        g = self._guess
        if g is not None and lo <= g <= hi:
            # u >= g (known when g = lo)? then u >= g + 1?; else u >= g - 1?
            if g > lo and not self._u(g):
                hi = g - 1
                self._note_u(lo, hi, ceiling)
                if lo < hi:
                    if self._u(hi):
                        lo = hi
                    else:
                        hi -= 1
            else:
                lo = g
                self._note_u(lo, hi, ceiling)
                if g < hi:
                    if self._u(g + 1):
                        lo = g + 1
                    else:
                        hi = g
            self._note_u(lo, hi, ceiling)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self._u(mid):
                lo = mid
            else:
                hi = mid - 1
            self._note_u(lo, hi, ceiling)
        self._guess = lo
        return lo

    def _note_u(self, lo: int, hi: int, ceiling: int | None) -> None:
        """Keep the range of u proven so far, as final trick points (monotone in u). With
        the score's ``ceiling`` (score_exact), a range of the score: at least the trick
        points, and up to the ceiling unless the hero surely causes a paradox (its score
        is then its trick points)."""
        top = self._final(hi) if ceiling is None or hi < 0 else ceiling
        self.partial_u = (lo, hi)
        self.partial = (self._final(lo), top)

    def _score_ceiling(self) -> int:
        """No score above this on the current state: every trick left won, or the most a
        score with a bonus can reach (``_bonus_ceiling``)."""
        st = self.st
        tl = st.tricks_left
        top = st.won[self.hero] + tl
        if self._bonus_possible(tl):
            top = max(top, self._bonus_ceiling(tl))
        return top

    def score_exact(self, sign: bool | None = None, known: tuple[int, int] | None = None) -> int:
        """The hero's guaranteed round score (``sign``: the answer of ``u >= 0``, when
        known; ``known``: a range of u proven already, see narrow_u)."""
        hi = self._score_ceiling()
        # the score is at least the trick points, and equal to them when the hero causes
        # a paradox (u < 0)
        u = self._exact_u(sign, hi, known)
        lo = self._final(u)
        if u < 0:
            return lo  # the hero causes a paradox: its score is its trick points
        self.partial = (lo, hi)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self._s(mid):
                lo = mid
            else:
                hi = mid - 1
            self.partial = (lo, hi)
        return lo

    def _check_asked(self, question: str) -> None:
        """A question of QUESTIONS, and for ``score`` a hero whose prediction is known (an
        unknown question was answered as ``table``, and a score without the prediction
        came out as a number)."""
        _check_question(question)
        if question == "score":
            check_prediction(self.pos, self.hero)

    def at_least(self, question: str, k: int) -> bool:
        """Is the value of ``question`` on the current state at least ``k`` (booleans as
        0 and 1)?"""
        self._check_asked(question)
        check_int(k, "k")
        if question == "tricks":
            return self.tricks_at_least(k)
        if question == "score":
            return self._s(k)
        if k <= 0:
            return True
        if k >= 2:
            return False
        return self._u(0) if question == "paradox" else self.table()

    def exact(
        self, question: str, sign: bool | None = None, known: tuple[int, int] | None = None
    ) -> Value:
        """The exact value of ``question`` on the current state; ``sign``, when known, is
        the answer of ``u >= 0`` (the paradox verdict) there, and ``known`` a range of the
        outcome u proven already (``tricks`` and ``score``; see narrow_u)."""
        self._check_asked(question)
        if question == "paradox":
            return self._u(0) if sign is None else sign
        if question == "tricks":
            return self.tricks_exact(sign, known)
        if question == "score":
            return self.score_exact(sign, known)
        return self.table()

    def _sign_u(self, sign: bool | None) -> tuple[int, int]:
        """The range of the outcome u on the current state known from the sign alone
        (``u >= 0`` or not; None: not known, any outcome of the round)."""
        tl = self.st.tricks_left
        return (-tl, tl) if sign is None else (0, tl) if sign else (-tl, -1)

    def sign_range(self, question: str, sign: bool | None) -> tuple[int, int]:
        """The range of ``tricks`` or ``score`` on the current state known from the sign
        alone (``u >= 0`` or not; None: not known, any outcome of the round)."""
        self._check_asked(question)
        lo_u, hi_u = self._sign_u(sign)
        lo, hi = self._final(lo_u), self._final(hi_u)
        if question == "score" and sign is not False:
            hi = self._score_ceiling()
        return (lo, hi)

    def principal_variation(
        self, question: str, value: Value, line: list[Play] | None = None
    ) -> tuple[Play, ...]:
        """A line of best play from the current state to the end of the round: at each
        step the first play (in search order) that keeps the value; for ``table``, the
        first found to keep it (see _table_step). Each play is appended to ``line`` (when
        given) as soon as it is found, so that a caller keeps the start of the line when
        the time runs out (the state is then left inside the line)."""
        self._check_asked(question)
        if value is None or (
            not isinstance(value, bool) if question in ("paradox", "table")
            else not is_whole(value)  # ("x", NaN or 3.9: a raw error in int(), or cut to 3)
        ):
            raise SearchError(f"a line follows a known value of {question}, not {value!r}")
        st = self.st
        if line is None:
            line = []
        given = len(line)  # plays already in the line (made by the caller)
        if question == "table" and not value:
            return ()
        while True:
            plays = st.legal()
            if not plays:
                break
            p = st.to_move
            ordered = self._search_order(plays, p, 1)
            if question == "table":
                chosen = self._table_step(ordered)
            else:
                chosen = self._value_step(question, int(value), ordered, p == self.hero)
            line.append(chosen)
        for _ in range(len(line) - given):
            st.pop()
        return tuple(line[given:])

    def _value_step(self, question: str, v: int, plays: list[Play], hero: bool) -> Play:
        """The first of ``plays`` after which the value is still ``v``; it is left made."""
        st = self.st
        for play in plays:
            st.push(play)
            if hero:
                ok = self.at_least(question, v)
            else:
                ok = not self.at_least(question, v + 1)
            if ok:
                return play
            st.pop()
        raise SearchError("principal variation lost the value")  # pragma: no cover

    def _table_step(self, plays: list[Play]) -> Play:
        """A play of ``plays`` after which the round can still end with no paradox; it is
        left made. Every play still open gets a short search, in rounds with a node budget
        growing fourfold, and the first shown to keep a paradox-free finish is taken: a
        play without one can cost far more to refute than another costs to prove (one
        4-player first lead: the value and every play's result in a fraction of a second,
        then the line stuck at its tenth play for over 300 s when the plays were tried one
        by one)."""
        st = self.st
        open_plays = list(plays)
        budget = 2000
        while open_plays:
            for play in list(open_plays):
                st.push(play)
                ok = self.table_within(budget)
                if ok:
                    return play
                st.pop()
                if ok is False:
                    open_plays.remove(play)
            budget *= 4
        raise SearchError("principal variation lost the value")  # pragma: no cover


def _terminal_value(pos: Position, hero: int, question: str) -> Value:
    """The value of a finished round (or a paradox position), from the rules engine."""
    if question == "table":
        return pos.tricks_left == 0
    by = pos.paradox_by
    if question == "paradox":
        return by != hero
    if question == "tricks":
        return pos.trick_points(hero)
    return pos.trick_points(hero) + pos.bonus(hero)


MAX_JOBS = 64
"""The most searches run at once: each holds its own table (256 MB from the first lead),
and threads beyond the cores only share them (--jobs 100000 took 2.2 GB on 2 cores)."""


def check_jobs(jobs: int) -> int:
    """How many searches to run at once: ``jobs``, or one per core for 0."""
    if not is_whole(jobs) or not 0 <= jobs <= MAX_JOBS:
        raise SearchError(f"jobs must be 0 (one per core) or 1 to {MAX_JOBS}, not {jobs!r}")
    return min(jobs or os.cpu_count() or 1, MAX_JOBS)


def _long(pos: Position) -> bool:
    """Can a compiled search of ``pos`` take long (seconds or more)? Then one job runs in
    a worker thread, without the GIL (see run_in_threads); a small one stays here (a thread
    for each tiny solve cost more than the solve)."""
    return pos.tricks_left >= _LONG_FROM


def _narrows(pos: Position) -> bool:
    """Does a compiled solve of ``pos`` narrow each play's range before its exact value
    (see Search.narrow_u)? From _NARROW_FROM tricks left, where exact values take
    minutes; below, the narrowing would only add searches to answers of seconds."""
    return pos.tricks_left >= _NARROW_FROM


def deadline_after(timeout: float | None, start: float) -> float | None:
    """The deadline of a search that may take ``timeout`` seconds (None: no limit)."""
    return None if timeout is None else start + check_seconds(timeout)


class _Steps:
    """The searches of one solve or DD table, as steps: each announced on the progress
    line when it starts (with the range proven as it narrows) and counted when it ends.
    ``run`` takes them one after the other or several at once, in worker threads, which
    call the compiled core without the GIL: each with its own Search runs on a core of
    its own."""

    def __init__(
        self, total: int, progress: Progress | None, jobs: int, off_main: bool = False
    ) -> None:
        if progress is not None and not callable(progress):
            raise SearchError(f"progress must be a function (done, total, what), not {progress!r}")
        self.total = total
        self.progress = progress
        self.jobs = jobs
        self.off_main = off_main  # one job: run it in a worker thread (see run_in_threads)
        self.done = 0
        self.stopped = False  # (solve) out of time or stopped: start no more steps
        self._lock = threading.Lock()

    def _report(self, what: str) -> None:
        if self.progress is not None:
            with self._lock:
                self.progress(self.done, self.total, what)

    def start(self, search: Search, what: str) -> None:
        """Announce a step on ``search``; its ranges go to the progress line as they narrow."""
        if self.progress is not None:
            self._report(what)
            search.on_partial = lambda rng: self._report(f"{what}, proven {rng[0]} to {rng[1]}")

    def end(self) -> None:
        with self._lock:
            self.done += 1

    def run(self, steps: Sequence[Callable[[], None]]) -> None:
        """Run the steps, ``jobs`` at a time (see run_in_threads). An OutOfTime of a step is
        raised again once the steps under way have ended (the steps still waiting see
        ``stopped``)."""
        errors = run_in_threads(steps, self.jobs, self.off_main)
        for e in errors:  # anything but a timeout first: it is a bug, not the clock
            if not isinstance(e, OutOfTime):
                raise e
        if errors:
            raise OutOfTime


class StopSignal:
    """Stops solves from another thread or a signal handler (a Ctrl-C caught by the
    caller while they run in worker threads, a button in an application): each search of
    a :func:`solve` given it ends within 4096 nodes as on a timeout, and so does every
    solve given it after :meth:`stop`. Why not a shorter timeout: the moment to stop is
    not known in advance. No lock, so :meth:`stop` is safe in a signal handler: a search
    is added before ``stopped`` is read, and ``stopped`` set before the searches are."""

    def __init__(self) -> None:
        self.stopped = False
        self._searches: set[Search] = set()

    def stop(self) -> None:
        """Stop every search under way and every later one."""
        self.stopped = True
        for search in list(self._searches):
            search.stop()

    def _add(self, searches: Sequence[Search]) -> None:
        self._searches.update(searches)
        if self.stopped:
            for search in searches:
                search.stop()

    def _drop(self, searches: Sequence[Search]) -> None:
        """Forget a solve's searches once it ends (each holds a table)."""
        self._searches.difference_update(searches)


_POOL: ThreadPoolExecutor | None = None  # the worker threads, made once and kept
_POOL_LOCK = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    """The worker threads of every solve and DD table (made at the first use and kept:
    starting threads for each small solve cost more than the solve)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(
                max_workers=max(32, os.cpu_count() or 1), thread_name_prefix="catbox-search"
            )
        return _POOL


def run_in_threads(
    calls: Sequence[Callable[[], None]], jobs: int, off_main: bool = False
) -> list[BaseException]:
    """Run the calls in order, ``jobs`` at a time, and return what they raised. One job:
    one call after the other up to the first that raises, here or (``off_main``) in a
    worker thread while this one waits; more: in worker threads, while this thread
    waits, every call (those after a timeout see it and return). Why off_main: in a
    worker the compiled core runs without the GIL, so an application's other Python
    threads keep running during a long search (in this thread they got a slice every
    4096 nodes, about a seventh of their speed)."""
    errors: list[BaseException] = []
    if jobs == 1 or len(calls) <= 1:

        def one_by_one() -> None:
            for call in calls:
                try:
                    call()
                except Exception as e:  # noqa: BLE001 - handed to the caller
                    errors.append(e)
                    break

        if off_main and threading.current_thread() is threading.main_thread():
            wait_awake([_pool().submit(one_by_one)])
        else:
            one_by_one()
        return errors
    todo = iter(calls)
    lock = threading.Lock()

    def runner() -> None:
        while True:
            with lock:
                call = next(todo, None)
            if call is None:
                return
            try:
                call()
            except Exception as e:  # noqa: BLE001 - handed to the caller
                errors.append(e)

    pool = _pool()
    wait_awake([pool.submit(runner) for _ in range(min(jobs, len(calls)))])
    return errors


@contextmanager
def _ctrl_c_stops(searches: Sequence[Search]) -> Iterator[Guard]:
    """Ctrl-C during the block stops the searches: they unwind as on a timeout, and the
    guard yielded says so (the caller then raises Interrupted with what was proven); see
    :mod:`catbox_solver.interrupt`. The compiled core lets the handler run by
    reading the clock through Python every 4096 nodes (Core.watch)."""

    def stop() -> None:
        for search in searches:
            search.stop()

    with ctrl_c_stops(stop) as guard:
        if guard.active:
            for search in searches:
                search.watch()
        yield guard


def solve(
    pos: Position,
    hero: int,
    question: str,
    timeout: float | None = None,
    progress: Progress | None = None,
    *,
    jobs: int = 1,
    stop: StopSignal | None = None,
) -> Answer:
    """Answer ``question`` for ``hero`` on ``pos``: the value, the value after each legal
    play of the player to move, a principal variation. ``timeout`` in seconds: when it
    passes, the value is None (unknown), unless the plays found by then decide it (see
    Answer). ``progress(done, total, what)`` is called as the
    plays of the player to move are searched (``tricks`` and ``score``: each play's
    paradox verdict, from the first lead each play's range by short searches, then each
    play's exact value, with its proven range as it narrows).
    ``jobs``: how many plays to search at once, each in
    a thread with its own search and table (0: one per core); the answer is the same.
    ``stop``: a :class:`StopSignal` that ends the solve early, as a timeout would."""
    _check_question(question)
    check_hero(pos, hero)
    jobs = check_jobs(jobs)
    if question == "score":
        check_prediction(pos, hero)
    if stop is not None and not isinstance(stop, StopSignal):
        raise SearchError(f"stop must be a StopSignal, not {stop!r}")
    start = search_clock()
    deadline = deadline_after(timeout, start)
    search = Search(pos, hero, deadline)
    plays = pos.legal_plays()
    to_move = pos.to_move
    if not plays:
        value = _terminal_value(pos, hero, question)
        return Answer(question, hero, value, (), (), 0, time.perf_counter() - start, to_move)
    twins = _twins(pos, plays) if question != "score" else [None] * len(plays)
    searched = [i for i, twin in enumerate(twins) if twin is None]  # a twin takes its value
    # tricks and score: first the sign of every play (u >= 0, the paradox verdict), then
    # each play's exact value from there. The same searches as one play after another,
    # but a timeout leaves every play reached with a proven range, not only the first.
    # From the first lead (_NARROW_FROM tricks left), short searches from both ends of
    # each play's range come between the two (see Search.narrow_u): a timeout then
    # leaves narrower ranges.
    phases: tuple[str, ...] = ("exact",)
    if question in ("tricks", "score"):
        phases = ("sign", "narrow", "exact") if _narrows(pos) else ("sign", "exact")
    signs: dict[int, bool] = {}
    ranges: dict[int, tuple[int, int]] = {}
    narrowed: dict[int, tuple[int, int]] = {}  # a play's range of u from narrow_u
    found: dict[int, Value] = {}
    under_way: dict[int, tuple[int, int] | None] = {}  # a play cut short: its range then
    solved_by: dict[int, Search] = {}  # the search (and table) that found a play's value
    searches = [search] + [
        Search(pos, hero, deadline) for _ in range(min(jobs, len(searched)) - 1)
    ]
    free: queue.SimpleQueue[Search] = queue.SimpleQueue()
    for s in searches:
        free.put(s)
    steps = _Steps(len(phases) * len(searched), progress, jobs, _long(pos))

    def step(phase: str, i: int) -> None:
        """Search play i's sign or exact value on a free search (its state is the
        position: each step makes the play and takes it back)."""
        if steps.stopped:
            return
        s = free.get()
        try:
            what = f"{plays[i].text}: " + (
                "paradox verdict" if phase == "sign" or question == "paradox" else
                "can all finish?" if question == "table" else
                f"{question} range" if phase == "narrow" else f"exact {question}"
            )
            steps.start(s, what)
            s.st.push(plays[i])
            if phase == "sign":
                signs[i] = s._u(0)
                ranges[i] = s.sign_range(question, signs[i])
            elif phase == "narrow":
                ceiling = s._score_ceiling() if question == "score" else None
                try:
                    narrowed[i] = s.narrow_u(signs[i], _NARROW_NODES, ceiling)
                except OutOfTime:
                    under_way[i] = s.partial
                    raise
                assert s.partial is not None
                ranges[i] = s.partial
            else:
                s.partial = ranges.get(i)
                try:
                    found[i] = s.exact(question, signs.get(i), narrowed.get(i))
                except OutOfTime:
                    under_way[i] = s.partial
                    raise
                solved_by[i] = s
            s.st.pop()  # (after a timeout the state is dropped, not restored)
            steps.end()
        except OutOfTime:
            steps.stopped = True
            raise
        finally:
            free.put(s)

    if stop is not None:
        stop._add(searches)
    try:
        with _ctrl_c_stops(searches) as guard:  # (Ctrl-C: Interrupted with what was proven)
            try:
                for phase in phases:
                    steps.run([functools.partial(step, phase, i) for i in searched])
                if progress is not None:
                    progress(steps.total, steps.total, "")
            except OutOfTime:
                answer = _cut_short(search, question, plays, twins, found, under_way, ranges,
                                    len(phases) > 1)
            else:
                answer = _with_line(search, question, plays, twins, found, solved_by)
    finally:
        if stop is not None:
            stop._drop(searches)
    answer = replace(answer, nodes=sum(s.nodes for s in searches),
                     seconds=time.perf_counter() - start)
    if guard.hit:
        raise Interrupted(answer)
    return answer


def _cut_short(
    search: Search,
    question: str,
    plays: Sequence[Play],
    twins: Sequence[int | None],
    found: dict[int, Value],
    under_way: dict[int, tuple[int, int] | None],
    ranges: dict[int, tuple[int, int]],
    ranged: bool,
) -> Answer:
    """The answer of a solve that ran out of time (or was stopped) before every play was
    known: the plays found, and for ``tricks`` and ``score`` (``ranged``) what the others
    were proven to give; nodes and time are the caller's to fill in."""
    pos, hero = search.pos, search.hero
    search.st = FastState(pos)  # (the state the timeout left is dropped)
    done: list[PlayResult] = []
    for i, twin in enumerate(twins):
        src = i if twin is None else twin  # the play searched for this one
        if src in found:
            done.append(PlayResult(plays[i], found[src]))
        elif not ranged:
            done.append(PlayResult(plays[i], None))
        else:
            # what the search had proven: a play under way its range so far, the others
            # their range from the sign, or from any outcome of the round
            rng = under_way[src] if src in under_way else ranges.get(src)
            if rng is None:
                search.st.push(plays[i])
                rng = search.sign_range(question, None)
                search.st.pop()
            done.append(PlayResult(plays[i], None, rng))
    bounds = None
    hero_moves = pos.to_move == hero
    if ranged:
        known = [r.bounds or (int(r.result or 0), int(r.result or 0)) for r in done]
        pick = max if hero_moves else min
        bounds = (pick(lo for lo, _ in known), pick(hi for _, hi in known))
    # the plays known may decide the value: then it has no range, and no line was searched
    value = _decided(question, hero_moves, done, bounds)
    open_value = value is None
    return Answer(question, hero, value, tuple(done), (), 0, 0.0, pos.to_move,
                  bounds if open_value else None, pv_complete=open_value)


def _decided(
    question: str, hero_moves: bool, done: Sequence[PlayResult],
    bounds: tuple[int, int] | None,
) -> Value:
    """The value of a position whose plays are not all known, when those known (or the
    ranges proven) decide it already, else None: ``tricks`` and ``score`` when the range
    ``bounds`` has closed; ``paradox`` when the player to move has a play known to give
    what it wants (the hero: avoiding a paradox; a coalition seat: forcing one);
    ``table`` when some play is known to let everyone finish."""
    if bounds is not None:
        return bounds[0] if bounds[0] == bounds[1] else None
    wanted = question == "table" or hero_moves
    if any(r.result is wanted for r in done):
        return wanted
    return None


def _with_line(
    search: Search,
    question: str,
    plays: Sequence[Play],
    twins: Sequence[int | None],
    found: dict[int, Value],
    solved_by: dict[int, Search],
) -> Answer:
    """The answer of a solve whose every play is known: the value, and a best line. The
    line's first play is the first in the search order whose result is the value (what
    principal_variation would choose, without searching again) and the rest comes from the
    search that solved that play (with several searches, its table holds what the line
    needs). A timeout during the line keeps the value and the start of the line found so
    far (each of its plays keeps the value). Nodes and time are the caller's to fill in."""
    pos, hero = search.pos, search.hero
    results = [found[i if twin is None else twin] for i, twin in enumerate(twins)]
    value = _combine(question, pos.to_move == hero, results)
    pv: list[Play] = []
    try:
        if question != "table" or value:
            first = next(pl for pl in search._search_order(list(plays), pos.to_move, 1)
                         if results[plays.index(pl)] == value)
            i = plays.index(first)
            twin = twins[i]
            s = solved_by.get(i if twin is None else twin, search)
            s.st.push(first)
            pv.append(first)
            s.principal_variation(question, value, pv)
            s.st.pop()
        pv_complete = True
    except OutOfTime:
        pv_complete = False
    return Answer(
        question,
        hero,
        value,
        tuple(PlayResult(p, r) for p, r in zip(plays, results, strict=True)),
        tuple(pv),
        0,
        0.0,
        pos.to_move,
        pv_complete=pv_complete,
    )


def _twins(pos: Position, plays: Sequence[Play]) -> list[int | None]:
    """For each play, the index of an earlier play with the same value by the symmetry of
    blue, yellow and green, else None. Swapping two of these colors maps the position to
    itself when their rows of the research board have the same used cells, every seat
    holds both or neither, and the trick has neither; then the same card declared in the
    one or the other leads to mirror positions, worth the same for every question but
    ``score`` (whose bonus sees the owners and the order of the rows)."""
    used = pos.used
    swaps = set()
    for a in (1, 2, 3):
        for b in range(a + 1, 4):
            if any((used >> (4 * v + a) & 1) != (used >> (4 * v + b) & 1) for v in range(9)):
                continue
            if any((cm >> a & 1) != (cm >> b & 1) for cm in pos.colors):
                continue
            if any(pl.color in (a, b) for pl in pos.trick):
                continue
            swaps.add((a, b))
    first: dict[tuple[int, int], int] = {}
    out: list[int | None] = []
    for i, pl in enumerate(plays):
        twin = None
        for a, b in swaps:
            if pl.color == b and (pl.value, a) in first:
                twin = first[pl.value, a]
                break
            if pl.color == a and (pl.value, b) in first:
                twin = first[pl.value, b]
                break
        out.append(twin)
        first.setdefault((pl.value, pl.color), i if twin is None else twin)
    return out


def _combine(question: str, hero_moves: bool, results: list[Value]) -> Value:
    """The value of a position from the values after each play of the player to move."""
    if question == "table":
        return any(results)
    if question == "paradox":
        return any(results) if hero_moves else all(results)
    ints = [int(r) for r in results if r is not None]
    return max(ints) if hero_moves else min(ints)


def value_only(
    pos: Position,
    hero: int,
    question: str,
    timeout: float | None = None,
) -> Value:
    """Just the value (no per-play values, no line): cheaper than :func:`solve`. Out of
    time: None, and nothing more; :func:`solve` keeps the range proven (``Answer.bounds``)."""
    _check_question(question)
    check_hero(pos, hero)
    if question == "score":
        check_prediction(pos, hero)
    deadline = deadline_after(timeout, search_clock())
    search = Search(pos, hero, deadline)
    if not pos.legal_plays():
        return _terminal_value(pos, hero, question)
    with _ctrl_c_stops([search]) as guard:
        try:
            value = search.exact(question)
        except OutOfTime:
            value = None
    if guard.hit:
        raise Interrupted(None)
    return value


@dataclass(frozen=True, slots=True)
class TableRow:
    """One line of a double-dummy table: the seat as hero, whether it can avoid causing a
    paradox, its guaranteed trick points and its guaranteed score (None if its prediction
    is unknown or the time ran out). When the time ran out on the trick points or the
    score, ``tricks_bounds`` / ``score_bounds`` give the range ``(lo, hi)`` proven."""

    seat: int
    paradox: bool | None
    tricks: int | None
    score: int | None
    tricks_bounds: tuple[int, int] | None = None
    score_bounds: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class DDTable:
    rows: tuple[TableRow, ...]
    nodes: int
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """Every seat's row; ``tricks_bounds`` / ``score_bounds`` ([lo, hi]) only beside
        a value left unknown."""
        table: list[dict[str, Any]] = []
        for r in self.rows:
            row: dict[str, Any] = {
                "seat": r.seat, "paradox": r.paradox, "tricks": r.tricks, "score": r.score
            }
            if r.tricks_bounds is not None:
                row["tricks_bounds"] = list(r.tricks_bounds)
            if r.score_bounds is not None:
                row["score_bounds"] = list(r.score_bounds)
            table.append(row)
        return {"table": table, "nodes": self.nodes, "seconds": round(self.seconds, 6)}


def dd_table(
    pos: Position,
    timeout: float | None = None,
    progress: Progress | None = None,
    *,
    jobs: int = 1,
) -> DDTable:
    """For every seat as hero: the paradox verdict, the guaranteed trick points and the
    guaranteed score (None where the prediction is unknown). ``timeout`` covers the whole
    table; values not reached in time are None, and unknown trick points and scores come
    with the range proven. Question by question (every seat's paradox verdict first, then
    the trick points, then the scores), so that a timeout leaves each seat its answers
    to the easier questions; from the first lead (as in solve) every seat's trick points
    are first narrowed by short searches (Search.narrow_u) before any is searched
    exactly. Each seat keeps its own search (and table) throughout.
    ``jobs``: how many seats to search at once, in threads (0: one per core)."""
    need_position(pos, SearchError)
    jobs = check_jobs(jobs)
    start = search_clock()
    deadline = deadline_after(timeout, start)
    n = pos.rules.players
    terminal = not pos.legal_plays()
    searches = [Search(pos, seat, deadline) for seat in range(n)]
    vals: dict[tuple[int, str], Value] = {}
    ranges: dict[tuple[int, str], tuple[int, int]] = {}
    questions = ("paradox", "tricks", "score")
    # from the first lead every seat's trick points are narrowed by short searches
    # before any is searched exactly (as solve does for each play): a timeout then
    # leaves every seat a narrower range than its sign's
    phases: tuple[str, ...] = ("paradox", "narrow", "tricks", "score")
    if terminal or not _narrows(pos):
        phases = questions
    names = {"paradox": "paradox verdict", "narrow": "trick points range",
             "tricks": "trick points", "score": "score"}
    steps = _Steps(len(phases) * n, progress, jobs, _long(pos))

    def out_of_time(seat: int, q: str) -> None:
        """Seat ``seat``'s search ran out of time on ``q``: keep the range proven."""
        search = searches[seat]
        search.st = FastState(pos)
        if q != "paradox":
            # (tricks_exact and narrow_u note a range before their first search)
            ranges[seat, q] = search.partial or search.sign_range(q, None)
            search.partial = None

    def narrow(seat: int) -> None:
        """Narrow seat ``seat``'s trick points from both ends (Search.narrow_u)."""
        search = searches[seat]
        steps.start(search, f"seat {seat}: {names['narrow']}")
        try:
            sign = vals[seat, "paradox"]
            if sign is not None:
                search.narrow_u(bool(sign), _NARROW_NODES)
        except OutOfTime:
            out_of_time(seat, "tricks")
        finally:
            steps.end()

    def step(seat: int, q: str) -> None:
        """Seat ``seat``'s answer to ``q`` on its own search; out of time, the range."""
        search = searches[seat]
        steps.start(search, f"seat {seat}: {names[q]}")
        try:
            vals[seat, q] = None
            if q == "score":
                try:
                    check_prediction(pos, seat)
                except SearchError:
                    return
            if terminal:
                vals[seat, q] = _terminal_value(pos, seat, q)
                return
            if (seat, q) in ranges:
                return  # out of time while narrowing: that range stands
            sign = vals[seat, "paradox"]
            # the range of u this seat's search proved last (narrowed; for the score, its
            # trick points' exact u or the range they reached when cut), where it goes on
            known = search.partial_u
            try:
                vals[seat, q] = search.exact(q, None if sign is None else bool(sign), known)
            except OutOfTime:
                out_of_time(seat, q)
        finally:
            steps.end()

    with _ctrl_c_stops(searches) as guard:
        for phase in phases:
            steps.run([
                functools.partial(narrow, seat) if phase == "narrow" else
                functools.partial(step, seat, phase) for seat in range(n)
            ])
    rows: list[TableRow] = []
    for seat in range(n):
        p, t, s = (vals[seat, q] for q in questions)
        rows.append(
            TableRow(
                seat,
                None if p is None else bool(p),
                None if t is None else int(t),
                None if s is None else int(s),
                ranges.get((seat, "tricks")),
                ranges.get((seat, "score")),
            )
        )
    nodes = sum(search.nodes for search in searches)
    if progress is not None:
        progress(steps.total, steps.total, "")
    table = DDTable(tuple(rows), nodes, time.perf_counter() - start)
    if guard.hit:
        raise Interrupted(table)
    return table


def warm_up() -> None:
    """Make the compiled core ready: numba compiles it at its first use after an install
    (40 s to 2 minutes on one core of the development machine) and then loads it from its disk
    cache (a fraction of a second). A tiny position is searched for the trick and score
    game and the cooperative search, in this thread and in a worker of the search pool,
    whose entry points differ (see core._entry). Commands call it before their searches
    start, so that the wait comes first and can be named, not inside a progress line.
    Once done, a call returns at once."""
    _make_ready()


def search_clock() -> float:
    """The moment a search's timeout and its reported seconds count from: after the
    kernel is ready, since its first compile after an install is not the search's time
    and would otherwise turn a first answer with a timeout into "unknown"."""
    _make_ready()
    return time.perf_counter()


def _make_ready() -> None:
    """warm_up's work (solve and the others call this, not the public name)."""
    global _warm
    if _warm:
        return
    pos = position_from_notation(
        "3p official | R:...112 B:.22222 Y:.11011 G:0000.0 | 126 115 134 | G RY B | lead 1 "
        "| won 1 4 1 | bid 4 4 1 | left 2"
    )

    def run() -> None:
        for question in ("score", "table"):
            Search(pos, pos.to_move).exact(question)

    run()
    _pool().submit(run).result()  # (a worker of the searches' own pool)
    _warm = True


_warm = False  # warm_up has run in this process
