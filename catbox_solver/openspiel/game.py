"""Cat in the Box as an OpenSpiel Python game: ``python_cat_in_the_box``.

The state wraps :class:`~catbox_solver.model.position.Position`: chance nodes deal the
cards one at a time (and, with 2 players, the 3 leftover cards revealed for the neutral
tokens), then every seat discards (in turn from the round's start player; nobody sees
another's discard, so this is the rulebooks' simultaneous discard), predicts (3-5 players,
from the start player clockwise, each seeing the earlier ones) and plays. Every rule of
play, trick and score is the engine's: legal plays are ``Position.legal_plays()``, a play
is ``Position.play()``, the returns are ``Position.scores()``.

Action ids (the same for every player count, see docs/openspiel.md):
``0-35`` a play, ``4 * (value - 1) + color`` (the play's cell; color 0 red, 1 blue,
2 yellow, 3 green); ``36-44`` discard value ``action - 35``; ``45-48`` predict
``action - 44`` tricks. Chance outcomes are card values less one (``0-8``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import pyspiel

from catbox_solver.errors import CatboxError
from catbox_solver.games.game import hands_after_discards
from catbox_solver.model.deal import deck
from catbox_solver.model.position import Play, Position
from catbox_solver.model.rules import Ruleset

SHORT_NAME = "python_cat_in_the_box"
PLAY_ACTIONS = 36
DISCARD_BASE = 36
PREDICT_BASE = 45
NUM_ACTIONS = 49
MAX_VALUE = 9
DEFAULTS: dict[str, Any] = {"players": 4, "ruleset": "official", "rounds": 1}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Cat in the Box (catbox-solver)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)

DEAL, DISCARD, PREDICT, PLAY, OVER = "deal", "discard", "predict", "play", "over"
PHASES = (DEAL, DISCARD, PREDICT, PLAY, OVER)


def play_action(play: Play) -> int:
    """The action id of a play: its cell, ``4 * (value - 1) + color``."""
    return 4 * (play.value - 1) + play.color


def action_play(action: int) -> Play:
    """The play of a play action id (0-35)."""
    return Play(action // 4 + 1, action % 4)


def action_text(action: int) -> str:
    """A player action in words: ``2b``, ``discard 5``, ``predict 3``."""
    if 0 <= action < PLAY_ACTIONS:
        return action_play(action).text
    if DISCARD_BASE <= action < PREDICT_BASE:
        return f"discard {action - DISCARD_BASE + 1}"
    if PREDICT_BASE <= action < NUM_ACTIONS:
        return f"predict {action - PREDICT_BASE + 1}"
    raise pyspiel.SpielError(f"{SHORT_NAME}: no action {action!r} (ids 0-{NUM_ACTIONS - 1})")


def _spiel_error(where: str, exc: Exception) -> pyspiel.SpielError:
    return pyspiel.SpielError(f"{SHORT_NAME}: {where}: {exc}")


def ruleset_param(rules: Ruleset) -> str:
    """The ``ruleset`` parameter of ``rules`` as a game string can hold it: the CLI's
    ``preset,switch=value`` with ``+`` for the comma and ``:`` for the equals sign
    (``official+color_loss:declared``), since OpenSpiel's game strings split on both."""
    return rules.name.replace(",", "+").replace("=", ":")


def rules_from_params(params: dict[str, Any]) -> tuple[Ruleset, int]:
    """The Ruleset and round count of the game parameters; SpielError naming the bad one.
    ``ruleset`` is a preset name with overrides as the CLI takes them
    (``must-follow,color_loss=declared``), or as a game string holds them
    (``must-follow+color_loss:declared``)."""
    players = params.get("players", DEFAULTS["players"])
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
        raise pyspiel.SpielError(f"{SHORT_NAME}: parameter players={players!r}: 2 to 5 players")
    spec = params.get("ruleset", DEFAULTS["ruleset"])
    try:
        if not isinstance(spec, str):
            raise CatboxError(f"a ruleset is text like 'official', not {spec!r}")
        rules = Ruleset.from_name(spec.replace("+", ",").replace(":", "="), players)
    except CatboxError as exc:
        raise _spiel_error(f"parameter ruleset={spec!r}", exc) from None
    rounds = params.get("rounds", DEFAULTS["rounds"])
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= players:
        raise pyspiel.SpielError(f"{SHORT_NAME}: parameter rounds={rounds!r}: 1 to {players} "
                                 f"(a game of {players} players has {players} rounds)")
    return rules, rounds


@dataclass(frozen=True, slots=True)
class Round:
    """One round as far as it has gone: the cards dealt to each seat in deal order, the
    2-player revealed leftovers, discards and predictions by seat (None: not yet), the
    plays as (seat, Play), and the engine's Position from the first lead on."""

    number: int
    start: int
    dealt: tuple[tuple[int, ...], ...]
    revealed: tuple[int, ...]
    discards: tuple[int | None, ...]
    predictions: tuple[int | None, ...] | None
    plays: tuple[tuple[int, Play], ...]
    position: Position | None

    def __deepcopy__(self, memo: dict[int, Any]) -> Round:
        """Itself: a Round is immutable (OpenSpiel clones a Python state by deep-copying
        its attributes)."""
        return self


def new_round(rules: Ruleset, number: int) -> Round:
    """An empty round ``number`` (from 0): seat ``number % players`` starts it."""
    n = rules.players
    return Round(number, number % n, ((),) * n, (), (None,) * n,
                 (None,) * n if rules.has_predictions else None, (), None)


def phase_of(rules: Ruleset, r: Round) -> str:
    """Where round ``r`` is: dealing, discarding, predicting, playing or over."""
    h = rules.hand_size
    if any(len(d) < h for d in r.dealt) or len(r.revealed) < rules.neutral_tokens:
        return DEAL
    if any(d is None for d in r.discards):
        return DISCARD
    if r.predictions is not None and any(p is None for p in r.predictions):
        return PREDICT
    assert r.position is not None
    return OVER if r.position.is_over else PLAY


def to_move(rules: Ruleset, r: Round, phase: str) -> int:
    """The seat deciding in a discard, predict or play phase."""
    n = rules.players
    if phase == DISCARD:
        return next(s for s in _clockwise(r.start, n) if r.discards[s] is None)
    if phase == PREDICT:
        assert r.predictions is not None
        return next(s for s in _clockwise(r.start, n) if r.predictions[s] is None)
    assert r.position is not None
    return r.position.to_move


def _clockwise(start: int, n: int) -> list[int]:
    return [(start + i) % n for i in range(n)]


def unseen_cards(rules: Ruleset, r: Round) -> list[int]:
    """The cards still in the deck while dealing (one entry per physical card)."""
    left = deck(rules)
    for hand in r.dealt:
        for v in hand:
            left.remove(v)
    for v in r.revealed:
        left.remove(v)
    return left


def deal_card(rules: Ruleset, r: Round, value: int) -> Round:
    """``r`` with the next card of the deal: to the first seat short of its hand, then
    (2 players) to the revealed leftovers."""
    h = rules.hand_size
    for seat, hand in enumerate(r.dealt):
        if len(hand) < h:
            dealt = list(r.dealt)
            dealt[seat] = (*hand, value)
            return replace(r, dealt=tuple(dealt))
    return replace(r, revealed=(*r.revealed, value))


def after_discard(rules: Ruleset, r: Round, seat: int, value: int) -> Round:
    """``r`` with ``seat``'s discard; after the last one the first lead's Position."""
    discards = list(r.discards)
    discards[seat] = value
    r = replace(r, discards=tuple(discards))
    if all(d is not None for d in discards):
        kept = hands_after_discards(r.dealt, [d for d in discards if d is not None])
        pos = Position.new_round(rules, kept, r.start, r.predictions, list(r.revealed))
        r = replace(r, position=pos)
    return r


def after_prediction(r: Round, seat: int, tricks: int) -> Round:
    """``r`` with ``seat``'s prediction (the Position holds the predictions so far)."""
    assert r.predictions is not None and r.position is not None
    preds = list(r.predictions)
    preds[seat] = tricks
    return replace(r, predictions=tuple(preds), position=r.position.with_predictions(preds))


class CatInTheBoxGame(pyspiel.Game):  # type: ignore[misc]
    """The game: parameters ``players`` (2-5), ``ruleset`` (a preset name with
    ``,switch=value`` overrides, as the CLI takes it) and ``rounds`` (1 to players)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULTS, **(params or {})}
        rules, rounds = rules_from_params(params)
        params["ruleset"] = ruleset_param(rules)
        n = rules.players
        decisions = n * (2 + rules.tricks) if rules.has_predictions else n * (1 + rules.tricks)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=rules.values,
            num_players=n,
            min_utility=float(-rules.tricks * rounds),
            max_utility=float(2 * rules.tricks * rounds),
            utility_sum=None,
            max_game_length=decisions * rounds,
        )
        super().__init__(GAME_TYPE, info, params)
        self.rules = rules
        self.rounds = rounds

    def new_initial_state(self) -> CatInTheBoxState:
        return CatInTheBoxState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Any:
        from catbox_solver.openspiel.observer import CatInTheBoxObserver

        return CatInTheBoxObserver(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class CatInTheBoxState(pyspiel.State):  # type: ignore[misc]
    """A state of the game: the rounds finished, the round under way."""

    def __init__(self, game: CatInTheBoxGame) -> None:
        super().__init__(game)
        self.rules: Ruleset = game.rules
        self.rounds: int = game.rounds
        self.finished: tuple[Round, ...] = ()
        self.round: Round = new_round(game.rules, 0)

    # ---- where the game is ----------------------------------------------------------------
    @property
    def phase(self) -> str:
        return phase_of(self.rules, self.round)

    def current_player(self) -> int:
        phase = self.phase
        if phase == DEAL:
            return int(pyspiel.PlayerId.CHANCE)
        if phase == OVER:
            return int(pyspiel.PlayerId.TERMINAL)
        return to_move(self.rules, self.round, phase)

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def _legal_actions(self, player: int) -> list[int]:
        phase = self.phase
        if phase in (DEAL, OVER) or player != to_move(self.rules, self.round, phase):
            return []
        r = self.round
        if phase == DISCARD:
            return [DISCARD_BASE + v - 1 for v in sorted(set(r.dealt[player]))]
        if phase == PREDICT:
            return [PREDICT_BASE + k - 1 for k in self.rules.prediction_choices]
        assert r.position is not None
        return sorted(play_action(p) for p in r.position.legal_plays())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = unseen_cards(self.rules, self.round)
        total = len(left)
        return [(v - 1, left.count(v) / total) for v in sorted(set(left))]

    # ---- moves ----------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        phase = self.phase
        rules, r = self.rules, self.round
        if phase == OVER:
            raise pyspiel.SpielError(f"{SHORT_NAME}: action {action} after the game is over")
        if phase == DEAL:
            if action + 1 not in unseen_cards(rules, r):
                raise pyspiel.SpielError(f"{SHORT_NAME}: chance outcome {action!r} is not a "
                                         f"card left to deal (values less one, 0-"
                                         f"{rules.values - 1})")
            self.round = deal_card(rules, r, action + 1)
            return
        seat = to_move(rules, r, phase)
        if action not in self._legal_actions(seat):
            raise pyspiel.SpielError(self._why_illegal(action, seat, phase))
        if phase == DISCARD:
            self.round = after_discard(rules, r, seat, action - DISCARD_BASE + 1)
        elif phase == PREDICT:
            self.round = after_prediction(r, seat, action - PREDICT_BASE + 1)
        else:
            assert r.position is not None
            play = action_play(action)
            self.round = replace(r, plays=(*r.plays, (seat, play)),
                                 position=r.position.after(play))
        if self.phase == OVER and len(self.finished) + 1 < self.rounds:
            self.finished = (*self.finished, self.round)
            self.round = new_round(rules, len(self.finished))

    def _why_illegal(self, action: int, seat: int, phase: str) -> str:
        """The message for an action that is not legal here: what and why."""
        head = f"{SHORT_NAME}: action {action!r}"
        if not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
            return f"{head} is not an action id (0-{NUM_ACTIONS - 1})"
        text = action_text(action)
        kind = ("a play" if action < PLAY_ACTIONS
                else "a discard" if action < PREDICT_BASE else "a prediction")
        if phase == DISCARD and not DISCARD_BASE <= action < PREDICT_BASE or (
            phase == PREDICT and action < PREDICT_BASE
        ) or phase == PLAY and action >= PLAY_ACTIONS:
            return f"{head} ({text}) is {kind}, but seat {seat} is to {phase}"
        if phase == DISCARD:
            return (f"{head} ({text}) is illegal for seat {seat}: value "
                    f"{action - DISCARD_BASE + 1} is not in its hand")
        if phase == PREDICT:
            return (f"{head} ({text}) is illegal for seat {seat}: predictions are "
                    f"{', '.join(map(str, self.rules.prediction_choices))}")
        pos = self.round.position
        assert pos is not None
        try:
            pos.play(action_play(action))
        except CatboxError as exc:
            return f"{head}: {exc}"
        return f"{head} ({text}) is illegal for seat {seat}"  # pragma: no cover

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"card {action + 1}"
        return action_text(action)

    # ---- results --------------------------------------------------------------------------
    def all_rounds(self) -> tuple[Round, ...]:
        """The finished rounds and the round under way."""
        return (*self.finished, self.round)

    def returns(self) -> list[float]:
        """Each seat's total over the rounds (0 until the game is over: terminal rewards)."""
        if not self.is_terminal():
            return [0.0] * self.rules.players
        totals = [0.0] * self.rules.players
        for r in self.all_rounds():
            assert r.position is not None
            for seat, score in enumerate(r.position.scores()):
                totals[seat] += score
        return totals

    def rewards(self) -> list[float]:
        """The returns, at the end (terminal rewards)."""
        return self.returns()

    def totals_so_far(self) -> list[int]:
        """Each seat's total over the finished rounds (public)."""
        totals = [0] * self.rules.players
        for r in self.finished:
            assert r.position is not None
            for seat, score in enumerate(r.position.scores()):
                totals[seat] += score
        return totals

    # ---- hidden information ---------------------------------------------------------------
    def resample_from_infostate(self, player: int, probability_sampler: Any) -> CatInTheBoxState:
        """A state ``player`` cannot tell from this one: the cards it has not seen this
        round (the others' hands and discards, the 2-player hidden leftovers) dealt again
        at random, each seat keeping the cards it has played, redrawn until the plays made
        are legal in it (a red lead before red was broken says the leader had no other).
        ``probability_sampler()`` gives a number in [0, 1) that seeds the draw."""
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        return resample(self, player, rng)

    def __str__(self) -> str:
        from catbox_solver.openspiel.observer import state_text

        return state_text(self)


def history_of(rules: Ruleset, rounds: Sequence[Round]) -> list[int]:
    """The OpenSpiel action history that builds ``rounds`` (deal order, discards and
    predictions in turn from the start player, then the plays)."""
    n = rules.players
    actions: list[int] = []
    for r in rounds:
        for hand in r.dealt:
            actions += [v - 1 for v in hand]
        actions += [v - 1 for v in r.revealed]
        for s in _clockwise(r.start, n):
            d = r.discards[s]
            if d is None:
                return actions
            actions.append(DISCARD_BASE + d - 1)
        if r.predictions is not None:
            for s in _clockwise(r.start, n):
                k = r.predictions[s]
                if k is None:
                    return actions
                actions.append(PREDICT_BASE + k - 1)
        actions += [play_action(p) for _, p in r.plays]
    return actions


MAX_RESAMPLES = 10_000
"""The most deals :func:`resample` draws for one that the plays made allow."""


def resample(state: CatInTheBoxState, player: int, rng: random.Random) -> CatInTheBoxState:
    """See :meth:`CatInTheBoxState.resample_from_infostate`."""
    rules, r = state.rules, state.round
    n = rules.players
    if not isinstance(player, int) or not 0 <= player < n:
        raise pyspiel.SpielError(f"{SHORT_NAME}: no seat {player!r} to resample for (0-{n - 1})")
    if state.phase == DEAL:
        raise pyspiel.SpielError(f"{SHORT_NAME}: resample during the deal: nothing is hidden "
                                 "yet that a player has seen around")
    played: list[list[int]] = [[] for _ in range(n)]
    for seat, p in r.plays:
        played[seat].append(p.value)
    pool = deck(rules)
    for v in (*r.dealt[player], *r.revealed):
        pool.remove(v)
    for seat in range(n):
        if seat != player:
            for v in played[seat]:
                pool.remove(v)
    game = state.get_game()
    for _ in range(MAX_RESAMPLES):
        rng.shuffle(pool)
        at = 0
        dealt = list(r.dealt)
        discards = list(r.discards)
        for seat in range(n):
            if seat == player:
                continue
            k = rules.hand_size - len(played[seat])
            hidden = pool[at:at + k]
            at += k
            dealt[seat] = tuple(sorted((*played[seat], *hidden)))
            if discards[seat] is not None:
                discards[seat] = hidden[0]
        trial = replace(r, dealt=tuple(dealt), discards=tuple(discards))
        if _plays_allowed(rules, trial):
            new: CatInTheBoxState = game.new_initial_state()
            for a in history_of(rules, (*state.finished, trial)):
                new.apply_action(a)
            return new
    raise pyspiel.SpielError(f"{SHORT_NAME}: none of {MAX_RESAMPLES:,} deals allows the plays "
                             "made this round")


def _plays_allowed(rules: Ruleset, r: Round) -> bool:
    """Whether round ``r``'s plays are legal with its dealt cards and discards (checked by
    the engine, from the first lead)."""
    if any(d is None for d in r.discards):
        return True
    kept = hands_after_discards(r.dealt, [d for d in r.discards if d is not None])
    pos = Position.new_round(rules, kept, r.start, r.predictions, list(r.revealed))
    for _, p in r.plays:
        if p not in pos.legal_plays():
            return False
        pos = pos.after(p)
    return True
