"""Picking puzzles by their fields: the filters of ``catbox puzzle export --filter``.

A filter is ``FIELD OP VALUE[,VALUE...]``: ``players=4``, ``difficulty<=2``,
``tag=red-lead,exception`` (any of the values), ``question!=exists`` (none of them),
``id=fig-*`` (a shell pattern). Fields: ``players`` and ``difficulty`` (numbers, also with
``<``, ``<=``, ``>``, ``>=``), ``question``, ``tag`` (any of the puzzle's tags), ``id``.
Several filters must all hold.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase

from catbox_solver.puzzles.schema import Puzzle, PuzzleError

__all__ = ["FILTER_FIELDS", "PuzzleFilter", "parse_filter", "select_puzzles"]

FILTER_FIELDS = ("players", "difficulty", "question", "tag", "id")
_NUMBERS = ("players", "difficulty")
_FILTER = re.compile(r"\s*([a-z]+)\s*(<=|>=|!=|=|<|>)\s*(.*?)\s*")


@dataclass(frozen=True)
class PuzzleFilter:
    """One filter: ``field``, its comparison ``op`` and the ``values`` (text)."""

    field: str
    op: str
    values: tuple[str, ...]

    def __call__(self, pz: Puzzle) -> bool:
        """Does the puzzle pass?"""
        if self.field in _NUMBERS:
            have = pz.players if self.field == "players" else pz.difficulty
            want = [int(v) for v in self.values]
            return {
                "=": have in want, "!=": have not in want, "<": have < want[0],
                "<=": have <= want[0], ">": have > want[0], ">=": have >= want[0],
            }[self.op]
        if self.field == "tag":
            hit = any(fnmatchcase(t, v) for t in pz.tags for v in self.values)
        else:
            text = pz.question if self.field == "question" else pz.id
            hit = any(fnmatchcase(text, v) for v in self.values)
        return hit if self.op == "=" else not hit


def parse_filter(text: str) -> PuzzleFilter:
    """Read a filter like ``difficulty<=2`` (see the module's docstring)."""
    if not isinstance(text, str):
        raise PuzzleError(f"a filter is text like 'players=4', not {text!r}")
    match = _FILTER.fullmatch(text)
    if match is None:
        raise PuzzleError(f"filter {text!r}: not FIELD=VALUE (like 'players=4', "
                          "'difficulty<=2', 'tag=red-lead')")
    field, op, rest = match.groups()
    if field not in FILTER_FIELDS:
        raise PuzzleError(f"filter {text!r}: unknown field {field!r} (one of "
                          f"{', '.join(FILTER_FIELDS)})")
    values = tuple(v.strip() for v in rest.split(","))
    if not all(values):
        raise PuzzleError(f"filter {text!r}: a value is missing")
    if field in _NUMBERS:
        if not all(v.isdigit() and v.isascii() and len(v) < 4 for v in values):
            raise PuzzleError(f"filter {text!r}: {field} is a whole number")
        if op not in ("=", "!=") and len(values) > 1:
            raise PuzzleError(f"filter {text!r}: {op} takes one number")
    elif op not in ("=", "!="):
        raise PuzzleError(f"filter {text!r}: {field} is compared with = or != only")
    return PuzzleFilter(field, op, values)


def select_puzzles(
    puzzles: Sequence[Puzzle], filters: Sequence[str | PuzzleFilter]
) -> list[Puzzle]:
    """The puzzles that pass every filter, in their order."""
    if isinstance(filters, str):  # (one filter given as text: its letters were filters)
        raise PuzzleError(f"filters are a list, not the text {filters!r}")
    checks = [f if isinstance(f, PuzzleFilter) else parse_filter(f) for f in filters]
    for pz in puzzles:
        if not isinstance(pz, Puzzle):
            raise PuzzleError(f"a puzzle is needed, not {type(pz).__name__}")
    return [pz for pz in puzzles if all(check(pz) for check in checks)]
