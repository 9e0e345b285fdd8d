"""Dealing a round from a seed: reproducible hands, leftovers and simple discard choices."""

from __future__ import annotations

import random
from dataclasses import dataclass

from catbox_solver.errors import RulesetError
from catbox_solver.model.numbers import is_whole
from catbox_solver.model.position import Position
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
    """Every card of the round's deck, by value (``rules.copies`` of each value)."""
    if not isinstance(rules, Ruleset):
        raise RulesetError(f"a Ruleset is needed for a deck, not {rules!r}")
    return [v for v in range(1, rules.values + 1) for _ in range(rules.copies)]


def _rng(seed: object) -> random.Random:
    """The random source of a seed: a whole number, or a random.Random drawn from. (A list
    raised TypeError inside random; a float or a text was taken as a seed unnoticed.)"""
    if isinstance(seed, random.Random):
        return seed
    if not is_whole(seed):
        raise RulesetError(f"a deal's seed is a whole number or a random.Random, not {seed!r}")
    return random.Random(seed)


def deal(rules: Ruleset, seed: int | random.Random) -> Deal:
    """Shuffle with ``seed`` (an int, or a Random to draw from) and deal the hand size to
    each seat; the same seed always gives the same deal."""
    if not isinstance(rules, Ruleset):
        raise RulesetError(f"a Ruleset is needed to deal, not {rules!r}")
    rng = _rng(seed)
    cards = deck(rules)
    rng.shuffle(cards)
    n, h = rules.players, rules.hand_size
    hands = tuple(tuple(sorted(cards[i * h : (i + 1) * h])) for i in range(n))
    return Deal(rules, hands, tuple(cards[n * h :]))


def first_lead(
    rules: Ruleset,
    seed: int | random.Random,
    start: int | None = 0,
    distinct_discards: bool = True,
    predictions: bool = True,
) -> Position:
    """A seeded round at its first lead: the deal, then each seat discards a random card
    (with ``distinct_discards``, avoiding a value another seat discarded where it can: two
    equal discards make a paradox certain with 3 and 4 players), random predictions from
    the allowed choices (unless ``predictions`` is False), and with 2 players the revealed
    leftovers place the neutral tokens. ``start`` is the seat that leads; None draws it."""
    rng = _rng(seed)
    d = deal(rules, rng)
    hands: list[list[int]] = []
    discarded: set[int] = set()
    for hand in d.hands:
        h = list(hand)
        choices = [v for v in h if v not in discarded] if distinct_discards else h
        out = rng.choice(choices or h)
        discarded.add(out)
        h.remove(out)
        hands.append(h)
    preds: list[int | None] | None = None
    if predictions and rules.has_predictions:
        preds = [rng.choice(rules.prediction_choices) for _ in range(rules.players)]
    if start is None:
        start = rng.randrange(rules.players)
    return Position.new_round(rules, hands, start, preds, d.revealed)
