"""The questions a double-dummy search answers, as one type the solvers and their users share."""

from __future__ import annotations

from typing import Final, Literal, get_args

Question = Literal["paradox", "tricks", "score", "table"]
"""``paradox``: can the hero avoid causing a paradox; ``tricks``: the most tricks it can
make sure of; ``score``: its best round score; ``table``: its trick count in the table."""

QUESTIONS: Final[tuple[Question, ...]] = get_args(Question)

__all__ = ["QUESTIONS", "Question"]
