"""The questions a double-dummy search answers, as one type the solvers and their users share."""

from __future__ import annotations

from typing import Final, Literal, get_args

Question = Literal["paradox", "tricks", "score", "table"]
"""``paradox``: can the hero be sure never to cause a paradox; ``tricks``: the trick points
it can be sure of; ``score``: the round score it can be sure of; ``table``: can the players
together finish the round with no paradox."""

QUESTIONS: Final[tuple[Question, ...]] = get_args(Question)

__all__ = ["QUESTIONS", "Question"]
