"""Whole numbers as catbox's text formats write them (records, options, prompts)."""

from __future__ import annotations

import re

_WHOLE = re.compile(r"-?[0-9]{1,18}", re.ASCII)


def whole_number(text: str, signed: bool = False) -> int | None:
    """``text`` as an int when it is written in ASCII digits (at most 18, so that a solver
    can hold it; a leading ``-`` only when ``signed``), else None. Why not ``int()``: it
    also reads digits of other scripts ('١٣'), '1_0' and ' +7 ', which no catbox format
    means; and ``str.isdigit()`` passes '²', which ``int()`` then fails on."""
    if not _WHOLE.fullmatch(text) or (text.startswith("-") and not signed):
        return None
    return int(text)


__all__ = ["whole_number"]
