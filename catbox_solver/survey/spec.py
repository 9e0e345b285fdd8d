"""What identifies a survey, and its errors (light: the CLI imports it at start)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from catbox_solver.errors import CatboxError
from catbox_solver.model.rules import Ruleset

SURVEY_QUESTIONS: Final = ("table", "paradox", "tricks")
"""table: can the players together finish without a paradox (one row per deal);
paradox: can each seat be sure never to cause one; tricks: each seat's guaranteed trick
points (both one row per seat)."""
DISCARDS: Final = ("distinct", "random")


class SurveyError(CatboxError, ValueError):
    """Bad survey input: an unknown question, a ruleset, an --out of another survey..."""


@dataclass(frozen=True, slots=True)
class SurveySpec:
    """What identifies a survey: two runs with equal specs add to one dataset."""

    players: int
    ruleset: str
    question: str
    seed: int
    discards: str = "distinct"
    timeout: float | None = 60.0

    def __post_init__(self) -> None:
        if self.question not in SURVEY_QUESTIONS:
            raise SurveyError(
                f"unknown question {self.question!r} (questions: {', '.join(SURVEY_QUESTIONS)})"
            )
        if self.discards not in DISCARDS:
            raise SurveyError(
                f"unknown discards {self.discards!r} (choices: {', '.join(DISCARDS)})"
            )
        if not isinstance(self.seed, int) or isinstance(self.seed, bool) or self.seed < 0:
            raise SurveyError(f"a survey's seed is a whole number 0 or more, not {self.seed!r}")
        if self.timeout is not None and not self.timeout > 0:
            raise SurveyError(f"a deal's timeout is a number of seconds above 0, not "
                              f"{self.timeout!r}")
        # the ruleset's canonical name ('Official' and 'official' are one survey)
        object.__setattr__(self, "ruleset", self.rules.name)

    @property
    def rules(self) -> Ruleset:
        return Ruleset.from_name(self.ruleset, self.players)

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "ruleset": self.ruleset, "question": self.question,
                "seed": self.seed, "discards": self.discards, "timeout": self.timeout}
