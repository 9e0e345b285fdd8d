"""The plain minimax of minimax_ref for every seat and every question at once, with a
cache of the positions already valued: the same recursion over ``Position`` (no pruning,
no symmetry, no lean state), the same terminal values (``minimax_ref.terminal_value``).

Why: the cross-checks of the search value hundreds of positions with up to 4 tricks left
for every question and every seat; one walk of each game tree answers them all, and the
cache (keyed by the whole Position, so exact) is visited once per distinct position.
tests/test_search_exact.py checks it against ``minimax_ref.minimax`` itself.
"""

from __future__ import annotations

from catbox_solver.model.position import Position
from catbox_solver.questions import Question
from oracles.minimax_ref import terminal_value

QUESTIONS: tuple[Question, ...] = ("paradox", "tricks", "score", "table")
Values = dict[tuple[int, str], int | bool]


def asked(pos: Position) -> list[tuple[int, Question]]:
    """The (hero, question) pairs a position can be asked: every seat, every question, but
    ``score`` only for a seat whose prediction is known (or 2 players without predictions)."""
    n = pos.rules.players
    preds = pos.predictions
    out: list[tuple[int, Question]] = []
    for hero in range(n):
        for q in QUESTIONS:
            if q == "score" and preds is not None and preds[hero] is None:
                continue
            if q == "score" and preds is None and pos.rules.has_predictions:
                continue
            out.append((hero, q))
    return out


class AllValues:
    """``values(pos)``: the minimax value of every (hero, question) of :func:`asked` for
    ``pos``; ``play_values(pos)``: the same after each legal play, in legal order."""

    def __init__(self) -> None:
        self.cache: dict[Position, Values] = {}

    def values(self, pos: Position) -> Values:
        got = self.cache.get(pos)
        if got is not None:
            return got
        keys = asked(pos)
        plays = pos.legal_plays()
        if not plays:
            out: Values = {(h, q): terminal_value(pos, h, q) for h, q in keys}
        else:
            children = [self.values(pos.after(p)) for p in plays]
            out = {}
            for h, q in keys:
                vals = [child[h, q] for child in children]
                out[h, q] = max(vals) if q == "table" or pos.to_move == h else min(vals)
        self.cache[pos] = out
        return out

    def play_values(self, pos: Position, hero: int, question: str) -> list[tuple[str, int | bool]]:
        return [(p.text, self.values(pos.after(p))[hero, question]) for p in pos.legal_plays()]
