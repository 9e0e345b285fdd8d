"""Dealing a round from a seed: reproducible hands, leftovers and simple discard choices."""

from __future__ import annotations

import random
from dataclasses import dataclass

from catbox_solver.model.rules import Ruleset


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of a round before discards: each seat's dealt hand (sorted) and, with 2
    players, the 5 leftover cards (the first 3 are the ones revealed)."""

    rules: Ruleset
    hands: tuple[tuple[int, ...], ...]
    leftover: tuple[int, ...]

    @property
    def revealed(self) -> tuple[int, ...]:
        """The leftover cards turned face up for neutral tokens (2 players)."""
        return self.leftover[: self.rules.neutral_tokens]


def deck(rules: Ruleset) -> list[int]:
    return [v for v in range(1, rules.values + 1) for _ in range(rules.copies)]


def deal(rules: Ruleset, seed: int | random.Random) -> Deal:
    """Shuffle with ``seed`` (an int, or a Random to draw from) and deal the hand size to
    each seat; the same seed always gives the same deal."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    cards = deck(rules)
    rng.shuffle(cards)
    n, h = rules.players, rules.hand_size
    hands = tuple(tuple(sorted(cards[i * h : (i + 1) * h])) for i in range(n))
    return Deal(rules, hands, tuple(cards[n * h :]))
