"""Puzzles from a played game: each blunder of an analysis becomes a puzzle file (the
position before it, the question the mover got wrong, the right plays as its stored
answer), checked by the puzzle solver as every puzzle is (docs/puzzles.md).

The question: ``safe`` for a paradox blunder (which plays keep the mover sure never to
cause a paradox?), ``best-tricks`` / ``best-score`` for a tricks / score blunder (with the
guaranteed value). Only blunders whose every play's value is known are turned into
puzzles: a puzzle's answer is exact.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from catbox_solver.annotate.analysis import Analysis, PlayNote
from catbox_solver.annotate.text import line_text, value_text
from catbox_solver.formats.notation import position_to_notation
from catbox_solver.puzzles import (
    Puzzle,
    PuzzleTimeout,
    Solution,
    puzzle_from_dict,
    solve_puzzle,
)

KIND = {"paradox": "safe", "tricks": "best-tricks", "score": "best-score"}


@dataclass(frozen=True)
class GamePuzzle:
    """A puzzle made from a blunder, with the solver's check: ``solution`` (its ``ok``
    says whether the stored answer is right), or ``unchecked`` saying why there is none
    (the check ran out of time)."""

    puzzle: Puzzle
    note: PlayNote
    solution: Solution | None
    unchecked: str | None = None

    @property
    def ok(self) -> bool:
        return self.solution is not None and self.solution.ok


def puzzle_of(note: PlayNote, question: str, prefix: str = "game") -> Puzzle | None:
    """The puzzle of a blunder, or None when it is not a blunder with every value known."""
    if note.mark != "blunder" or note.open or not note.best:
        return None
    pos = note.position
    kind = KIND[question]
    right = " ".join(p.text for p in note.best)
    best = value_text(question, note.value_best)
    played = value_text(question, note.value_played)
    after = line_text(pos, note.line) if note.line else note.play.text
    unique = len(note.best) == 1
    data: dict[str, object] = {
        "id": f"{prefix}-r{note.round}-t{note.trick}-s{note.seat}-{note.play.text}",
        "title": f"Round {note.round}, trick {note.trick}: seat {note.seat} to play",
        "players": pos.rules.players,
        "ruleset": pos.rules.name,
        "position": position_to_notation(pos),
        "question": kind,
        "answer": [p.text for p in note.best],
        "hint": f"In the game seat {note.seat} played {note.play.text}.",
        "explanation": (
            f"In the game seat {note.seat} played {note.play.text} ({played}): {after}. "
            f"{'The right play is' if unique else 'The right plays are'} {right} ({best})."
        ),
        "tags": ["from-game", kind, "unique" if unique else "several-answers"],
    }
    if kind != "safe":
        data["value"] = int(note.value_best or 0)
    return puzzle_from_dict(data, where=str(data["id"]))


def puzzles_from_game(
    analysis: Analysis, prefix: str = "game", timeout: float | None = None,
    unique_only: bool = False,
) -> list[GamePuzzle]:
    """A puzzle for each blunder of ``analysis`` whose values are all known, checked by
    :func:`catbox_solver.puzzles.solve_puzzle` (``timeout`` seconds each); the measured
    difficulty is stored. ``unique_only``: only blunders with one right play."""
    out: list[GamePuzzle] = []
    for note in analysis.notes:
        pz = puzzle_of(note, analysis.question, prefix)
        if pz is None or (unique_only and len(pz.plays) != 1):
            continue
        try:
            sol = solve_puzzle(pz, timeout)
        except PuzzleTimeout as exc:
            out.append(GamePuzzle(pz, note, None, exc.reason))
            continue
        out.append(GamePuzzle(replace(pz, difficulty=sol.difficulty), note, sol))
    return out
