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

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from catbox_solver.dd.answer import OutOfTime, Value
from catbox_solver.dd.checks import check_hero, check_prediction, check_question
from catbox_solver.dd.fast import FastState
from catbox_solver.dd.kernel import Core
from catbox_solver.errors import SearchError
from catbox_solver.interrupt import Guard, Interrupted, can_guard, ctrl_c_stops
from catbox_solver.model.numbers import check_int, is_deadline, is_whole
from catbox_solver.model.position import Play, Position

if TYPE_CHECKING:
    pass


# from this many tricks left a compiled search can take long (seconds to hours): a Search
# used on its own guards its core calls against Ctrl-C, and one job runs off the main
# thread (see _core_answer, _long)
_LONG_FROM = 5
# a paradox verdict (u >= 0) from this many tricks left that is not found within
# _RACE_NODES nodes races the plays of the seat to move (see Search._u_raced)
_RACE_FROM = 7
_RACE_NODES = 1_000_000


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
        rules = pos.rules
        preds = pos.predictions
        self._core.set_score_rules(
            None if preds is None else preds[hero],
            rules.players == 2 and rules.two_player_bonus == "at-most-4",
            rules.interrupted_trick == "removed",
            rules.adjacency == "diagonal",
            rules.row_order,
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
            with searches_stop_on_ctrl_c([self]) as guard:
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
            if self._capped(core):
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
            if self._capped(core):
                return None
            raise

    def _capped(self, core: Core) -> bool:
        """Did the last search end by its node cap, with time left? Past the deadline
        every capped search is out of time: ``_core_answer`` then raises before it calls
        the core, whose ``capped`` still tells of the call before, so a caller that
        doubles its cap on None (the race of ``_u_raced``) would go round for ever."""
        return core.capped and not self._late()

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
        score with a bonus can reach (the kernel's ``bonus_ceiling``). Why: a score above
        it is the trick points, which the trick game answers far faster."""
        st = self.st
        h = self.hero
        return self._loaded_core().score_ceiling(st.won[h], st.owners[h])

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
        check_question(question)
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


def terminal_value(pos: Position, hero: int, question: str) -> Value:
    """The value of a finished round (or a paradox position), from the rules engine."""
    if question == "table":
        return pos.tricks_left == 0
    by = pos.paradox_by
    if question == "paradox":
        return by != hero
    if question == "tricks":
        return pos.trick_points(hero)
    return pos.trick_points(hero) + pos.bonus(hero)


@contextmanager
def searches_stop_on_ctrl_c(searches: Sequence[Search]) -> Iterator[Guard]:
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
