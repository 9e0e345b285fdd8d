"""A ladder of OpenSpiel bots for ``python_cat_in_the_box``.

- :class:`RandomBot`: a legal action uniformly at random.
- :class:`RuleOfThumbBot`: keeps options (no card left without a free color, colors not
  given up lightly), avoids thin colors (plays into rows that still have room for its
  other cards), aims at its prediction (takes tricks while short of it, ducks after).
- :func:`ismcts_bot`: OpenSpiel's information-set MCTS (random rollouts).
- :class:`SingleDummyBot`: deals the hands it cannot see at random, as ``catbox odds``
  does (:func:`catbox_solver.dd.hidden.single_dummy`), solves each deal double dummy
  for its round score, and plays the play with the best mean, within a time budget per
  move; when no deal is decided in time (early in a round with 4 or 5 players) it plays
  as the rule of thumb does. Its discards and predictions are the rule of thumb's.

Every bot decides from what its seat may know: its own cards and what is public (the
single-dummy bot hands the engine a Position whose other hands it deals again itself).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from catbox_solver.dd.hidden import single_dummy
from catbox_solver.errors import CatboxError
from catbox_solver.games.thumb import thumb_discard, thumb_play, thumb_prediction
from catbox_solver.openspiel.game import (
    DISCARD,
    DISCARD_BASE,
    PLAY,
    PREDICT,
    PREDICT_BASE,
    SHORT_NAME,
    CatInTheBoxState,
    action_play,
    play_action,
)
from catbox_solver.openspiel.observer import hand_of

BOT_NAMES = ("random", "rule", "ismcts", "single-dummy")


def need_state(state: Any, who: str) -> CatInTheBoxState:
    """``state`` if it is a ``python_cat_in_the_box`` state at a decision, else a
    SpielError saying what it is."""
    if not isinstance(state, CatInTheBoxState):
        name = (state.get_game().get_type().short_name if isinstance(state, pyspiel.State)
                else type(state).__name__)
        raise pyspiel.SpielError(f"{who} plays {SHORT_NAME}, not {name}")
    if state.current_player() < 0:
        raise pyspiel.SpielError(f"{who}: no player is to decide in this state "
                                 f"({'terminal' if state.is_terminal() else 'chance'})")
    return state


class RandomBot(pyspiel.Bot):  # type: ignore[misc]
    """A legal action uniformly at random (seeded)."""

    def __init__(self, seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        self.rng = random.Random(seed)

    def restart_at(self, state: Any) -> None:
        pass

    def step(self, state: Any) -> int:
        s = need_state(state, "RandomBot")
        return int(self.rng.choice(s.legal_actions()))


class RuleOfThumbBot(pyspiel.Bot):  # type: ignore[misc]
    """Discards its most crowded value, predicts from its hand's weight, and plays to keep
    options, into roomy rows, at its prediction (see :func:`thumb_play`). It draws
    nothing at random: ``seed`` is taken as every bot of the ladder takes one."""

    def __init__(self, seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)

    def restart_at(self, state: Any) -> None:
        pass

    def step(self, state: Any) -> int:
        return thumb_action(need_state(state, "RuleOfThumbBot"))


def thumb_action(s: CatInTheBoxState) -> int:
    """The rule of thumb's action in a decision state."""
    rules, r = s.rules, s.round
    seat = s.current_player()
    phase = s.phase
    if phase == DISCARD:
        return DISCARD_BASE + thumb_discard(rules, hand_of(rules, r, seat)) - 1
    if phase == PREDICT:
        return PREDICT_BASE + thumb_prediction(rules, hand_of(rules, r, seat)) - 1
    assert phase == PLAY and r.position is not None
    return play_action(thumb_play(r.position, seat))


# ---- information-set MCTS ------------------------------------------------------------------
class ISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTS (its Python implementation: the C++ one cannot resample a
    Python game's states), saying so when given a state of another game."""

    def step(self, state: Any) -> int:
        need_state(state, "ISMCTSBot")
        return int(super().step(state))


def ismcts_bot(game: Any, simulations: int = 200, seed: int = 0,
               uct_c: float = 2.0) -> ISMCTSBot:
    """OpenSpiel's ISMCTS with one random rollout per leaf, its worlds drawn by the
    state's ``resample_from_infostate``; ``simulations`` per move."""
    if not isinstance(game, pyspiel.Game) or game.get_type().short_name != SHORT_NAME:
        raise pyspiel.SpielError(f"ismcts_bot plays {SHORT_NAME}, not {game!r}")
    if isinstance(simulations, bool) or not isinstance(simulations, int) or simulations < 1:
        raise pyspiel.SpielError(f"ismcts_bot: simulations is a whole number from 1, not "
                                 f"{simulations!r}")
    rs = np.random.RandomState(seed)
    bot = ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), uct_c, simulations,
                    random_state=rs)
    # its worlds drawn from its own seeded stream (by default from an unseeded one)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rs.uniform))
    return bot


# ---- single dummy --------------------------------------------------------------------------
class SingleDummyBot(pyspiel.Bot):  # type: ignore[misc]
    """Plays the best double-dummy play over ``samples`` deals of the hands it cannot see
    (seeded), solved for its round score within ``budget`` seconds a move; the rule of
    thumb when no deal is decided in time, and for discards and predictions."""

    def __init__(self, samples: int = 12, budget: float = 0.5, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise pyspiel.SpielError(f"SingleDummyBot: samples is a whole number from 1, "
                                     f"not {samples!r}")
        if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not budget > 0:
            raise pyspiel.SpielError(f"SingleDummyBot: budget is seconds above 0, "
                                     f"not {budget!r}")
        self.samples = samples
        self.budget = float(budget)
        self.rng = random.Random(seed)
        self.searched = 0  # moves decided by the double-dummy search
        self.fallbacks = 0  # moves left to the rule of thumb (no deal decided in time)

    def restart_at(self, state: Any) -> None:
        pass

    def step(self, state: Any) -> int:
        s = need_state(state, "SingleDummyBot")
        if s.phase != PLAY:
            return thumb_action(s)
        legal = s.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        r = s.round
        pos = r.position
        seat = s.current_player()
        assert pos is not None
        own = r.discards[seat]
        try:
            sd = single_dummy(pos, seat, "score", samples=self.samples,
                              seed=self.rng.randrange(2**31), exact=False,
                              discard=() if own is None else (own,), timeout=self.budget)
        except CatboxError:
            sd = None
        if sd is None or not sd.plays or not sd.deals:
            self.fallbacks += 1
            return play_action(thumb_play(pos, seat))
        self.searched += 1
        return play_action(sd.plays[0].play)


def make_bot(name: str, game: Any, seed: int = 0, **options: Any) -> Any:
    """A bot of the ladder by name (:data:`BOT_NAMES`); ``options``: ``simulations`` for
    ismcts, ``samples`` and ``budget`` for single-dummy."""
    if name == "random":
        return RandomBot(seed)
    if name == "rule":
        return RuleOfThumbBot(seed)
    if name == "ismcts":
        return ismcts_bot(game, options.get("simulations", 200), seed)
    if name == "single-dummy":
        return SingleDummyBot(options.get("samples", 12), options.get("budget", 0.5), seed)
    raise pyspiel.SpielError(f"no bot {name!r} (bots: {', '.join(BOT_NAMES)})")


__all__ = [
    "BOT_NAMES",
    "ISMCTSBot",
    "RandomBot",
    "RuleOfThumbBot",
    "SingleDummyBot",
    "action_play",
    "ismcts_bot",
    "make_bot",
]
