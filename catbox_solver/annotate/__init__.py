"""Engine analysis of a played game (``catbox annotate``): every play of a game record
judged by the exact search, as text, JSON, an annotated record, an HTML page, and
puzzles made from the blunders. See docs/annotate.md."""

from catbox_solver.annotate.analysis import (
    MARKS,
    QUESTIONS,
    THRESHOLDS,
    Analysis,
    AnalysisInterrupted,
    PlayNote,
    analyse_game,
    judge,
    replay,
)

__all__ = [
    "MARKS",
    "QUESTIONS",
    "THRESHOLDS",
    "Analysis",
    "AnalysisInterrupted",
    "PlayNote",
    "analyse_game",
    "judge",
    "replay",
]
