"""Bots: players that choose discards, predictions and plays from what a player may see.

A bot is handed a :class:`PlayerView` and nothing else: its own hand, the research board,
everyone's remaining colors, the trick in progress, tricks won, the predictions made so far
and the legal plays. Other hands, discards and hidden leftover cards are not in the view
(the dataclass has no field for them), so a bot cannot peek.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from catbox_solver.errors import CatboxError
from catbox_solver.model.numbers import check_int
from catbox_solver.model.position import Play, Position, neutral_mask
from catbox_solver.model.rules import ALL_COLORS, Ruleset

PHASES = ("discard", "predict", "play")


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What seat ``seat`` may see at a decision: ``phase`` is 'discard', 'predict' or 'play'.

    During the discard the hand is the dealt hand and the board is empty but for the
    2-player neutral tokens: the rulebooks reveal those leftovers right after the deal
    ("After that, reveal 3 cards"), before the discard. Later the hand is the hand after
    the discard.
    ``legal`` holds the legal plays in the 'play' phase and is empty otherwise.
    """

    rules: Ruleset
    seat: int
    phase: str
    hand: tuple[int, ...]
    owners: tuple[int, ...]
    neutral: int
    colors: tuple[int, ...]
    leader: int
    trick: tuple[Play, ...]
    tricks_won: tuple[int, ...]
    predictions: tuple[int | None, ...] | None
    tricks_left: int
    legal: tuple[Play, ...]

    @classmethod
    def for_discard(
        cls,
        rules: Ruleset,
        seat: int,
        dealt_hand: Sequence[int],
        start: int,
        revealed: Sequence[int] = (),
    ) -> PlayerView:
        """The view of a seat choosing its discard: its dealt hand and, with 2 players, the
        neutral tokens of the ``revealed`` leftover cards."""
        n = rules.players
        return cls(
            rules=rules,
            seat=seat,
            phase="discard",
            hand=tuple(sorted(dealt_hand)),
            owners=(0,) * n,
            neutral=neutral_mask(revealed),
            colors=(ALL_COLORS,) * n,
            leader=start,
            trick=(),
            tricks_won=(0,) * n,
            predictions=(None,) * n if rules.has_predictions else None,
            tricks_left=rules.tricks,
            legal=(),
        )

    @classmethod
    def of_position(cls, pos: Position, seat: int, phase: str = "play") -> PlayerView:
        """The view of ``seat`` in a position: everything public plus its own hand. The legal
        plays are filled in when it is the seat's turn to play."""
        if phase not in PHASES[1:]:
            raise CatboxError(f"a position view is for 'predict' or 'play', not {phase!r}")
        legal = pos.legal_plays() if phase == "play" and pos.to_move == seat else ()
        return cls(
            rules=pos.rules,
            seat=seat,
            phase=phase,
            hand=pos.hands[seat],
            owners=pos.owners,
            neutral=pos.neutral,
            colors=pos.colors,
            leader=pos.leader,
            trick=pos.trick,
            tricks_won=pos.tricks_won,
            predictions=pos.predictions,
            tricks_left=pos.tricks_left,
            legal=legal,
        )

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.rules.players

    def partial_position(self) -> Position:
        """A Position with only this seat's hand filled in (other hands empty, unchecked):
        enough for the engine to say why one of this seat's plays is illegal."""
        hands = tuple(self.hand if s == self.seat else () for s in range(self.rules.players))
        return Position(
            self.rules,
            self.owners,
            self.neutral,
            hands,
            self.colors,
            self.leader,
            self.trick,
            self.tricks_won,
            self.predictions,
            self.tricks_left,
            validate=False,
        )

    def why_illegal(self, play: Play) -> str | None:
        """None if ``play`` is legal for this seat now, else the rule it breaks (the engine's
        own answer, see Position.why_illegal)."""
        if play in self.legal:
            return None
        if self.phase != "play" or self.to_move != self.seat:
            return "wrong player"
        return self.partial_position().why_illegal(play) or "illegal"


@runtime_checkable
class Bot(Protocol):
    """A player: sees only a :class:`PlayerView` at each decision."""

    def discard(self, view: PlayerView) -> int:
        """The value to discard from ``view.hand``."""
        ...

    def predict(self, view: PlayerView, choices: tuple[int, ...]) -> int:
        """The number of tricks predicted, one of ``choices``."""
        ...

    def play(self, view: PlayerView) -> Play:
        """One of ``view.legal`` (never empty when asked)."""
        ...


# a paired bot ranks 40 cards per play: values 1-10 in four colors, room for every deck
# (values reach 9, with 5 players)
_CARDS = 40


class RandomBot:
    """Chooses uniformly at random among the legal options; reproducible from its seed.

    With ``play_seed`` its plays draw from a stream of their own, apart from its discards
    and predictions, and each play draws the same amount from it: a random rank for every
    card a play can be (40 of them), the legal play of highest rank being played. So under
    two rule readings the same seeded round goes alike until a rule forbids the play one
    reading would make (a rule reading that only adds or drops predictions changes no play
    at all), instead of every choice after the first difference in the legal plays being
    redrawn (common random numbers: what ``catbox simulate --compare`` needs)."""

    def __init__(
        self, seed: int | str | random.Random | None = None, play_seed: str | None = None
    ) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.play_rng = self.rng if play_seed is None else random.Random(play_seed)

    def discard(self, view: PlayerView) -> int:
        return self.rng.choice(view.hand)

    def predict(self, view: PlayerView, choices: tuple[int, ...]) -> int:
        return self.rng.choice(choices)

    def play(self, view: PlayerView) -> Play:
        if self.play_rng is self.rng:
            return self.rng.choice(view.legal)
        rank = [self.play_rng.random() for _ in range(_CARDS)]
        return max(view.legal, key=lambda p: rank[4 * (p.value - 1) + p.color])

    def __repr__(self) -> str:
        return "RandomBot()"


def random_bots(players: int, seed: int | None) -> list[Bot]:
    """One RandomBot per seat, each seeded from ``seed`` and its seat (None: unseeded)."""
    check_int(players, "players", 2, 5)  # (10**30 ran for ever, True gave one bot)
    return [RandomBot(None if seed is None else f"{seed}/bot{seat}") for seat in range(players)]


def round_bots(players: int, seed: int, round_no: int) -> list[Bot]:
    """RandomBots for round ``round_no`` (from 1) of the game seeded ``seed``, made anew
    each round from the seed, the round and the seat, with their plays on a stream of their
    own: every round of that seed starts with the same discards and predictions under any
    rule reading, however the rounds before it went, and a reading that only changes the
    predictions leaves the plays alone (``catbox simulate --compare`` compares like with
    like)."""
    check_int(players, "players", 2, 5)
    check_int(round_no, "round", 1)
    base = f"{seed}/round{round_no}"
    return [RandomBot(f"{base}/bot{seat}", f"{base}/bot{seat}/play") for seat in range(players)]

