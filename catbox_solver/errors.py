"""The library's own exceptions: every bad input ends in one of these, never a traceback.

One hierarchy under :class:`CatboxError`; each class is also the built-in error a Python
user expects (ValueError, and TypeError for an argument of the wrong type), so that
``except ValueError`` works too. Errors about text name the ``field`` and ``column``.
"""

from __future__ import annotations


class CatboxError(Exception):
    """Base of every error catbox-solver raises on purpose (bad input, illegal play, ...)."""


class RulesetError(CatboxError, ValueError):
    """An unknown ruleset preset, switch or switch value, or an unsupported player count."""


class NotationError(CatboxError, ValueError):
    """A position, play or record string that cannot be read.

    ``field`` names the part that is wrong and ``column`` the 1-based character position.
    """

    def __init__(self, message: str, field: str | None = None, column: int | None = None):
        where = []
        if field:
            where.append(f"field {field!r}")
        if column is not None:
            where.append(f"column {column}")
        text = f"{message} ({', '.join(where)})" if where else message
        super().__init__(text)
        self.field = field
        self.column = column


class PositionError(CatboxError, ValueError):
    """A position that cannot arise in a round (six copies of a value, wrong hand sizes...)."""


class IllegalPlayError(CatboxError, ValueError):
    """A play that the rules forbid in the given position; ``rule`` names the rule broken."""

    def __init__(self, message: str, rule: str = "illegal"):
        super().__init__(message)
        self.rule = rule


class RecordError(CatboxError, ValueError):
    """A game record that cannot be read (syntax), as opposed to one that replays illegally."""


class ArgumentError(CatboxError, ValueError):
    """An argument of a library function outside what it takes (a count of 0, a NaN
    number of seconds); ``argument`` names it."""

    def __init__(self, message: str, argument: str | None = None):
        super().__init__(message)
        self.argument = argument


class ArgumentTypeError(ArgumentError, TypeError):
    """An argument of the wrong type (the text ``"0"`` for a seat, a float for a count)."""


class SearchError(ArgumentError):
    """A solver question that cannot be asked of this position (e.g. unknown prediction),
    or a solver's argument outside what it takes."""


class SearchTypeError(SearchError, TypeError):
    """A solver's argument of the wrong type (the text ``"0"`` for a hero seat)."""
