"""The quickest paradox a seat can be driven into: depth-to-paradox, like mate-in-N.

The ``paradox`` question of the double-dummy search only says whether the others can
drive the hero into a paradox. Its line is one refutation among many: which one depends
on the search's order, so it may be longer than need be (the others dawdle) or shorter
(the hero gives up early). A puzzle's reader wants the forced one: the others hurry the
hero's paradox and the hero puts it off as long as it can. Its length decides whether a
wrong play is refuted within the trick under way or only later (docs/puzzles.md).

The search is iterative deepening over "can the others force the hero's paradox within
``d`` plays?", on the double-dummy search's lean state (made and unmade in place), with a
table of what each state is proven to allow (forced within ``d``, or not within ``d``)
and the kernel's safe-seat test (``Search.safe``) as its cut-off. It is meant for puzzle positions,
a few tricks before the end of a round.
"""

from __future__ import annotations

from dataclasses import dataclass

from catbox_solver.dd.answer import OutOfTime
from catbox_solver.dd.search import Search
from catbox_solver.dd.warmup import search_clock
from catbox_solver.errors import SearchError
from catbox_solver.model.numbers import check_int
from catbox_solver.model.position import Play, Position

# how many nodes between two looks at the clock
_CLOCK_EVERY = 1024


@dataclass(frozen=True)
class ForcedParadox:
    """The hero's paradox under best play from both sides: it comes after ``plays`` plays
    (the position after the last of them has no legal play for the hero), along ``line``
    (the others' quickest, the hero's longest resistance). ``nodes``: positions searched."""

    plays: int
    line: tuple[Play, ...]
    nodes: int


class _Forcing:
    """One search of the quickest paradox of ``hero`` on the lean state of the double-dummy
    search (made and unmade in place); the table lives as long as it does."""

    def __init__(self, pos: Position, hero: int, deadline: float | None) -> None:
        # the search object: its lean state, and the kernel's safe-seat test (it also
        # checks the hero and the deadline: a NaN deadline was never reached)
        self.search = Search(pos, hero, deadline)
        self.st = self.search.st
        self.hero = hero
        self.deadline = deadline
        self.nodes = 0
        # per state: the smallest d known to force the paradox, the largest known not to
        self.within: dict[tuple[object, ...], int] = {}
        self.not_within: dict[tuple[object, ...], int] = {}

    def _key(self) -> tuple[object, ...]:
        """What the rest of the round's legal plays depend on (not who owns the cells, not
        the tricks won)."""
        st = self.st
        return (st.used, tuple(st.hands), tuple(st.colors), st.leader, tuple(st.trick),
                st.tricks_left)

    def _turns(self, d: int) -> int:
        """At most how many times the hero is to move within the next ``d`` plays (positions
        after 0..d plays): in this trick if it has not played yet, and once in each later
        trick that starts by then."""
        st = self.st
        n = st.n
        done = len(st.trick)
        turns = 1 if (self.hero - st.leader) % n >= done and (self.hero - st.leader
                                                              - done) % n <= d else 0
        r = n - done  # the next trick starts after r plays
        if d >= r and st.tricks_left > 1:
            turns += min(st.tricks_left - 1, (d - r) // n + 1)
        return turns

    def forced(self, d: int) -> bool:
        """Can the others force the hero's paradox within ``d`` plays from the state?"""
        if d < 0:
            return False
        self.nodes += 1
        if self.deadline is not None and self.nodes % _CLOCK_EVERY == 0:
            if search_clock() > self.deadline:
                raise OutOfTime
        st = self.st
        if st.tricks_left == 0:
            return False
        plays = st.legal()
        if not plays:
            return st.to_move == self.hero
        key = self._key()
        known = self.within.get(key)
        if known is not None and known <= d:
            return True
        if self.not_within.get(key, -1) >= d:
            return False
        # counting fact: the hero has a legal play at each of its turns within d plays
        turns = self._turns(d)
        if turns == 0 or self.search.safe(self.hero, turns):
            result = False
        elif st.to_move == self.hero:
            result = all(self._after(p, d - 1) for p in plays)
        else:
            result = any(self._after(p, d - 1) for p in plays)
        if result:
            self.within[key] = d if known is None else min(known, d)
        else:
            self.not_within[key] = max(self.not_within.get(key, -1), d)
        return result

    def _after(self, play: Play, d: int) -> bool:
        self.st.push(play)
        try:
            return self.forced(d)
        finally:
            self.st.pop()

    def distance(self, limit: int) -> int | None:
        """The fewest plays within which the others force the paradox (at most ``limit``),
        or None when they cannot within ``limit``."""
        for d in range(limit + 1):
            if self.forced(d):
                return d
        return None

    def line(self, d: int) -> list[Play]:
        """A line of ``d`` plays (forced in exactly ``d`` from the state) to the paradox."""
        st = self.st
        out: list[Play] = []
        while d > 0:
            plays = st.legal()
            if not plays:
                break
            if st.to_move == self.hero:
                # the longest resistance: a play whose own distance is d - 1
                choice = next(p for p in plays if not self._after(p, d - 2))
            else:
                choice = next(p for p in plays if self._after(p, d - 1))
            out.append(choice)
            st.push(choice)
            d -= 1
        for _ in out:
            st.pop()
        return out


def plays_left(pos: Position) -> int:
    """Plays still to come in the round from ``pos`` (each seat keeps one card)."""
    return sum(len(h) for h in pos.hands) - pos.rules.players


def quickest_paradox(
    pos: Position, hero: int, deadline: float | None = None
) -> ForcedParadox | None:
    """The hero's quickest forced paradox from ``pos`` (see the module), or None when the
    others cannot force it (the hero can avoid causing a paradox). ``deadline``: a
    ``search_clock()`` time after which the search stops (raises the search's timeout)."""
    search = _Forcing(pos, hero, deadline)  # (Search checks the hero and the deadline)
    d = search.distance(plays_left(pos))
    if d is None:
        return None
    line = tuple(search.line(d))
    return ForcedParadox(d, line, search.nodes)


def paradox_within(
    pos: Position, hero: int, plays: int, deadline: float | None = None
) -> bool:
    """Can the others force the hero's paradox within ``plays`` plays from ``pos``? (The
    hero's quickest forced paradox comes after more than ``plays`` plays, or never, when
    not.) Cheaper than :func:`quickest_paradox` for a small ``plays``."""
    search = _Forcing(pos, hero, deadline)  # (Search checks the hero and the deadline)
    return search.forced(check_int(plays, "plays", 0, error=SearchError))

