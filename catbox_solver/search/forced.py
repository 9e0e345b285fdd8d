"""The quickest paradox a seat can be driven into: depth-to-paradox, like mate-in-N.

The ``paradox`` question of the double-dummy search only says whether the others can
drive the hero into a paradox. Its line is one refutation among many: which one depends
on the search's order, so it may be longer than need be (the others dawdle) or shorter
(the hero gives up early). A puzzle's reader wants the forced one: the others hurry the
hero's paradox and the hero puts it off as long as it can. Its length decides whether a
wrong play is refuted within the trick under way or only later (docs/puzzles.md).

The search is iterative deepening over "can the others force the hero's paradox within
``d`` plays?", on the rules engine's positions, with a table of what each position is
proven to allow (forced within ``d``, or not within ``d``). It is meant for puzzle
positions, a few tricks before the end of a round.
"""

from __future__ import annotations

from dataclasses import dataclass

from catbox_solver.model.position import Play, Position
from catbox_solver.search.dd import _check_hero, _Timeout, search_clock

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
    """One search of the quickest paradox of ``hero``; the table lives as long as it does."""

    def __init__(self, hero: int, deadline: float | None) -> None:
        self.hero = hero
        self.deadline = deadline
        self.nodes = 0
        # per position: the smallest d known to force the paradox, the largest known not to
        self.within: dict[Position, int] = {}
        self.not_within: dict[Position, int] = {}

    def forced(self, pos: Position, d: int) -> bool:
        """Can the others force the hero's paradox within ``d`` plays from ``pos``?"""
        if d < 0:
            return False
        self.nodes += 1
        if self.deadline is not None and self.nodes % _CLOCK_EVERY == 0:
            if search_clock() > self.deadline:
                raise _Timeout
        if pos.is_paradox:
            return pos.paradox_by == self.hero
        if d <= 0 or pos.tricks_left == 0:
            return False
        known = self.within.get(pos)
        if known is not None and known <= d:
            return True
        if self.not_within.get(pos, -1) >= d:
            return False
        plays = pos.legal_plays()
        if pos.to_move == self.hero:
            result = all(self.forced(pos.after(p), d - 1) for p in plays)
        else:
            result = any(self.forced(pos.after(p), d - 1) for p in plays)
        if result:
            self.within[pos] = d if known is None else min(known, d)
        else:
            self.not_within[pos] = max(self.not_within.get(pos, -1), d)
        return result

    def distance(self, pos: Position, limit: int) -> int | None:
        """The fewest plays within which the others force the paradox (at most ``limit``),
        or None when they cannot within ``limit``."""
        for d in range(limit + 1):
            if self.forced(pos, d):
                return d
        return None

    def line(self, pos: Position, d: int) -> list[Play]:
        """A line of ``d`` plays from ``pos`` (forced in exactly ``d``) to the paradox."""
        out: list[Play] = []
        while d > 0 and not pos.is_paradox:
            plays = pos.legal_plays()
            if pos.to_move == self.hero:
                # the longest resistance: a play whose own distance is d - 1
                choice = next(p for p in plays if not self.forced(pos.after(p), d - 2))
            else:
                choice = next(p for p in plays if self.forced(pos.after(p), d - 1))
            out.append(choice)
            pos = pos.after(choice)
            d -= 1
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
    _check_hero(pos, hero)
    search = _Forcing(hero, deadline)
    d = search.distance(pos, plays_left(pos))
    if d is None:
        return None
    line = tuple(search.line(pos, d))
    return ForcedParadox(d, line, search.nodes)
