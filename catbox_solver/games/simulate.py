"""Random-bot games in bulk and their statistics (``catbox simulate``): the games of a seed,
the statistics over them, and how often the same seeded rounds end differently under two
rulesets."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

from catbox_solver.games.game import EVENTS, GameResult, play_game
from catbox_solver.model.numbers import check_int
from catbox_solver.model.rules import Ruleset

__all__ = ["compare_stats", "game_seeds", "play_games", "simulate_stats"]


def game_seeds(seed: int, games: int) -> list[int]:
    """The seeds of ``games`` games from ``seed``: game k is seeded with the k-th 48-bit
    number drawn from ``random.Random(seed)``."""
    check_int(seed, "seed")
    check_int(games, "games", 0)
    rng = random.Random(seed)
    return [rng.getrandbits(48) for _ in range(games)]


def play_games(rules: Ruleset, seeds: Iterable[int]) -> list[GameResult]:
    """One random-bot game per seed, seat 0 starting; every round's bots are seeded anew
    from the game seed and the round (``per_round_bots``), so that a round starts alike
    under two readings whatever happened before it."""
    return [play_game(rules, s, first_start=0, per_round_bots=True) for s in seeds]


def simulate_stats(rules: Ruleset, games: list[GameResult], seed: int) -> dict[str, Any]:
    """Statistics over random-bot games (the `catbox simulate --json` object)."""
    n = rules.players
    rounds = [r for g in games for r in g.rounds]
    paradoxes = [r for r in rounds if r.paradox_by is not None]
    events: Counter[str] = Counter()
    for r in rounds:
        events.update(r.events)
    by_trick: Counter[int] = Counter(r.paradox_trick for r in paradoxes if r.paradox_trick)
    by_seat: Counter[int] = Counter(r.paradox_by for r in paradoxes if r.paradox_by is not None)
    wins: Counter[int] = Counter(s for g in games for s in g.winners)
    count = max(1, len(games))
    rcount = max(1, len(rounds))
    return {
        "players": n,
        "ruleset": rules.name,
        "seed": seed,
        "games": len(games),
        "rounds": len(rounds),
        "paradox_rounds": len(paradoxes),
        "paradox_rate": round(len(paradoxes) / rcount, 6),
        "paradox_by_trick": {str(t): by_trick[t] for t in sorted(by_trick)},
        "paradox_by_seat": [by_seat[s] for s in range(n)],
        "average_totals": [round(sum(g.totals[s] for g in games) / count, 4) for s in range(n)],
        "average_round_scores": [
            round(sum(r.scores[s] for r in rounds) / rcount, 4) for s in range(n)
        ],
        "average_tricks": [
            round(sum(r.tricks_won[s] for r in rounds) / rcount, 4) for s in range(n)
        ],
        "wins": [wins[s] for s in range(n)],
        "events": {k: events[k] for k in EVENTS},
        "events_per_round": {k: round(events[k] / rcount, 4) for k in EVENTS},
    }


def compare_stats(a: list[GameResult], b: list[GameResult]) -> dict[str, Any]:
    """How often the same seeded round (same deal, same seeded bots) ends differently under
    two rulesets: paradox or not, who caused it and when, tricks won, scores."""
    pairs = [(ra, rb) for ga, gb in zip(a, b, strict=True)
             for ra, rb in zip(ga.rounds, gb.rounds, strict=True)]
    count = max(1, len(pairs))

    def rate(k: int) -> float:
        return round(k / count, 6)

    paradox = sum((ra.paradox_by is None) != (rb.paradox_by is None) for ra, rb in pairs)
    causer = sum(
        (ra.paradox_by, ra.paradox_trick) != (rb.paradox_by, rb.paradox_trick) for ra, rb in pairs
    )
    tricks = sum(ra.tricks_won != rb.tricks_won for ra, rb in pairs)
    scores = sum(ra.scores != rb.scores for ra, rb in pairs)
    plays = sum(ra.plays != rb.plays for ra, rb in pairs)
    return {
        "rounds": len(pairs),
        "plays_differ": plays,
        "paradox_occurrence_differs": paradox,
        "paradox_differs": causer,
        "tricks_differ": tricks,
        "scores_differ": scores,
        "rates": {
            "plays_differ": rate(plays),
            "paradox_occurrence_differs": rate(paradox),
            "paradox_differs": rate(causer),
            "tricks_differ": rate(tricks),
            "scores_differ": rate(scores),
        },
    }
