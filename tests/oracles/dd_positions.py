"""Seeded positions for the double-dummy tests: small ones the plain minimax can check
(1-3 tricks left, every player count, many rulesets) and the questions each can be asked."""

from __future__ import annotations

import random
from functools import cache

from catbox_solver.model.position import Position
from catbox_solver.model.rules import PRESETS, Ruleset
from catbox_solver.questions import QUESTIONS, Question
from oracles.gen import paradox_free_line, random_line, start_position
from oracles.minimax_ref import tree_size


@cache
def small_positions() -> tuple[tuple[Position, int], ...]:
    """Seeded positions with 1-3 tricks left, every player count, many rulesets; half on
    paradox-free lines (the hard ones), half on random lines; trees small enough for the
    plain minimax."""
    rng = random.Random(2024)
    out: list[tuple[Position, int]] = []
    per_count = {2: 0, 3: 0, 4: 0, 5: 0}
    while len(out) < 320:
        n = rng.choice((2, 3, 4, 5))
        if per_count[n] >= 80:
            continue
        rules = Ruleset.from_name(rng.choice(list(PRESETS)), n)
        pos = start_position(rules, rng, distinct_discards=True)
        if rng.random() < 0.5:
            plays = paradox_free_line(pos, 5000, seed=rng.randrange(10**6))
            if plays is None:
                continue
            line = [pos]
            for play in plays:
                line.append(line[-1].after(play))
        else:
            line = random_line(pos, rng)
        cands = [p for p in line if 0 < p.tricks_left <= 3 and p.legal_plays()]
        if not cands:
            continue
        p = rng.choice(cands)
        if tree_size(p, 20_000) >= 20_000:
            continue
        out.append((p, rng.randrange(n)))
        per_count[n] += 1
    return tuple(out)


def questions_for(pos: Position, hero: int) -> list[Question]:
    qs = list(QUESTIONS)
    if pos.predictions is not None and pos.predictions[hero] is None:
        qs.remove("score")
    return qs
