"""Whole numbers as catbox's text formats write them (records, options, prompts)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import TypeGuard

from catbox_solver.errors import ArgumentError, ArgumentTypeError, SearchError, SearchTypeError

_WHOLE = re.compile(r"-?[0-9]{1,18}", re.ASCII)
# a whole number in ASCII digits, of any length (too_many_digits says what is wrong)
DIGITS = re.compile(r"-?[0-9]+", re.ASCII)


def whole_number(text: str, signed: bool = False) -> int | None:
    """``text`` as an int when it is written in ASCII digits (at most 18, so that a solver
    can hold it; a leading ``-`` only when ``signed``), else None. Why not ``int()``: it
    also reads digits of other scripts ('١٣'), '1_0' and ' +7 ', which no catbox format
    means; and ``str.isdigit()`` passes '²', which ``int()`` then fails on."""
    if not _WHOLE.fullmatch(text) or (text.startswith("-") and not signed):
        return None
    return int(text)


def too_many_digits(number: str, signed: bool) -> str | None:
    """What is wrong with a whole number written with more digits than an option takes
    (18, as :func:`whole_number`), in the words of the int options ("has 3000 digits, far
    too many"); None for any other text (``signed``: a minus sign is allowed). For a number
    read inside a text of its own (``SEAT=COUNT``, a record's field)."""
    if not DIGITS.fullmatch(number) or (number.startswith("-") and not signed):
        return None
    digits = len(number.lstrip("-"))
    if digits <= 18:
        return None
    return f"has {digits} digits, " + ("far too many" if digits > 40 else "more than 18")


def shown(value: object) -> str:
    """``value`` as an error message quotes it (repr), its first 20 characters and "..."
    when it is longer than 40: a 5000-digit seed was echoed whole."""
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else f"{value[:20]!r}..."
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:20]}..."


def is_stored_whole(value: object) -> TypeGuard[int]:
    """An int (not a bool) that catbox's files can hold: at most 18 digits, the rule of
    :func:`whole_number` (a seed of 19 digits was written into a record that could not be
    read back)."""
    return is_whole(value) and -(10**18) < value < 10**18


def counted(k: int, word: str) -> str:
    """``k`` and ``word``, plural unless k is 1 or -1: "1 puzzle", "3 puzzles"."""
    return f"{k} {word}" if abs(k) == 1 else f"{k} {word}s"


def listed(items: Sequence[object], last: str = "and") -> str:
    """Items in words: "2", "2 and 5", "1, 2 and 5" (``last``: the word before the last
    item, "or" for alternatives)."""
    words = [str(x) for x in items]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def is_whole(value: object) -> TypeGuard[int]:
    """An int and not a bool (True is an int to Python, not a seat or a count)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: object) -> TypeGuard[int | float]:
    """An int or a float and not a bool (NaN and infinities included: callers check)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_deadline(value: object) -> bool:
    """A clock reading a search can stop at: a finite number (a NaN is never reached, and
    an int beyond any float raised OverflowError in math.isfinite)."""
    if not is_number(value):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def check_int(
    value: object, what: str, low: int | None = None, high: int | None = None,
    error: type[ArgumentError] = ArgumentError,
) -> int:
    """``value`` if it is an int (not a bool) within [low, high]. Else an ArgumentError
    naming ``what``, an ArgumentTypeError (also a TypeError) for a value that is no int
    at all: a float, NaN or a huge number passed to a solver was read as something else (a
    loop never run, a deadline never reached). ``error``: the class to raise (a solver
    passes SearchError; its type error is then SearchTypeError)."""
    if not is_whole(value):
        kind = _type_error(error) if not is_number(value) else error
        raise kind(f"{what} must be a whole number, not {shown_value(value)}", what)
    if (low is not None and value < low) or (high is not None and value > high):
        lo = "" if low is None else f" at least {low}"
        hi = "" if high is None else f" at most {high}"
        raise error(f"{what} must be{lo}{' and' if lo and hi else ''}{hi}, not {value}", what)
    return value


def check_seconds(
    value: object, what: str = "timeout", error: type[ArgumentError] = ArgumentError
) -> float:
    """``value`` as a number of seconds, finite and not negative (0: give up at once),
    else an ArgumentError (``error``; ArgumentTypeError for no number at all): a NaN
    deadline is never reached (the search ran on for ever)."""
    message = f"{what} must be a number of seconds, 0 or more, not {shown_value(value)}"
    if not is_number(value):
        raise _type_error(error)(message, what)
    try:
        seconds = float(value)
    except OverflowError:  # an int beyond any float (10**400): OverflowError escaped
        raise error(message, what) from None
    if not math.isfinite(seconds) or seconds < 0:
        raise error(message, what)
    return seconds


def _type_error(error: type[ArgumentError]) -> type[ArgumentError]:
    """The TypeError twin of ``error``."""
    return SearchTypeError if issubclass(error, SearchError) else ArgumentTypeError


def shown_value(value: object, limit: int = 80) -> str:
    """``value``'s repr for an error message, cut at ``limit`` characters with "..." (a
    5000-character text was echoed whole); a whole number is never cut (its digits are
    the message: "not 10**400" is counted, not quoted, by the callers that need it)."""
    text = repr(value)
    if is_whole(value) or len(text) <= limit:
        return text
    return text[:limit] + "..."


__all__ = [
    "check_int", "check_seconds", "counted", "is_deadline", "is_number", "is_whole",
    "shown_value", "whole_number",
]
