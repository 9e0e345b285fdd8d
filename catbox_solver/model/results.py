"""What a played round and a played game leave: the data a game record holds (the deal,
discards, predictions, every play, scores). Games produce them (games/game.py); records
write them (formats/record.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from catbox_solver.model.deal import Deal
from catbox_solver.model.position import Play, Position
from catbox_solver.model.rules import Ruleset


@dataclass(frozen=True)
class RoundResult:
    """A finished round: the deal, discards, 2-player revealed cards, predictions, every play
    as (seat, Play) in order, the paradox if any, tricks, scores, the final Position and the
    rule events counted."""

    rules: Ruleset
    number: int
    start: int
    deal: Deal
    discards: tuple[int, ...]
    revealed: tuple[int, ...]
    predictions: tuple[int, ...] | None
    plays: tuple[tuple[int, Play], ...]
    paradox_by: int | None
    paradox_trick: int | None
    tricks_won: tuple[int, ...]
    scores: tuple[int, ...]
    final: Position
    events: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class GameResult:
    """A finished game: its rounds, each seat's total and the winner(s)."""

    rules: Ruleset
    seed: int | None
    first_start: int
    rounds: tuple[RoundResult, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
