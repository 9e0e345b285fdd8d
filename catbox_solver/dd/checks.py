"""Checks of what a caller hands the double-dummy search: the hero, the question, the
prediction the score needs, the number of jobs, a timeout."""

from __future__ import annotations

import os

from catbox_solver.errors import SearchError, SearchTypeError
from catbox_solver.model.numbers import check_seconds, is_whole
from catbox_solver.model.position import Position, need_position
from catbox_solver.questions import QUESTIONS


def check_hero(pos: Position, hero: int) -> None:
    need_position(pos, SearchError)
    if not is_whole(hero):
        raise SearchTypeError(f"hero seat must be a whole number, not {hero!r}")
    if not 0 <= hero < pos.rules.players:
        raise SearchError(f"hero seat {hero!r} outside 0-{pos.rules.players - 1}")


def check_question(question: str) -> None:
    if question not in QUESTIONS:
        raise SearchError(f"unknown question {question!r} (one of {', '.join(QUESTIONS)})")


def check_prediction(pos: Position, hero: int) -> None:
    """The score question needs the hero's prediction (3-5 players, or the 2-player
    prediction reading)."""
    rules = pos.rules
    if rules.players == 2 and rules.two_player_bonus == "at-most-4":
        return
    if pos.predictions is None or pos.predictions[hero] is None:
        raise SearchError(
            f"the prediction of seat {hero} is unknown: the score question needs it"
        )


MAX_JOBS = 64
"""The most searches run at once: each holds its own table (256 MB from the first lead),
and threads beyond the cores only share them (--jobs 100000 took 2.2 GB on 2 cores)."""


def check_jobs(jobs: int) -> int:
    """How many searches to run at once: ``jobs``, or one per core for 0."""
    if not is_whole(jobs) or not 0 <= jobs <= MAX_JOBS:
        raise SearchError(f"jobs must be 0 (one per core) or 1 to {MAX_JOBS}, not {jobs!r}")
    return min(jobs or os.cpu_count() or 1, MAX_JOBS)


def deadline_after(timeout: float | None, start: float) -> float | None:
    """The deadline of a search that may take ``timeout`` seconds (None: no limit)."""
    return None if timeout is None else start + check_seconds(timeout)
