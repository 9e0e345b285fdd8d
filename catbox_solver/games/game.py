"""Rounds and games played by bots: deal, discards, neutral tokens, predictions, tricks,
scores; a game of as many rounds as players with the start player passing clockwise.

Everything is reproducible from a seed. The flow hands each bot only a PlayerView. While
playing, it counts *rule events* (red led after red was broken, red led by the exception,
colors lost, tricks won by trump, paradoxes...) so that simulations can say how often each
rule fires.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from catbox_solver.errors import CatboxError, IllegalPlayError
from catbox_solver.games.bots import Bot, PlayerView, random_bots, round_bots
from catbox_solver.model.deal import Deal, deal
from catbox_solver.model.numbers import is_stored_whole, is_whole, shown
from catbox_solver.model.position import Play, Position, trick_winner_index
from catbox_solver.model.results import GameResult as GameResult  # (re-exported)
from catbox_solver.model.results import RoundResult as RoundResult  # (re-exported)
from catbox_solver.model.rules import RED, Ruleset

EVENTS: dict[str, str] = {
    "red_lead_broken": "red led after red was broken",
    "red_lead_exception": "red led before red was broken (red-lead exception)",
    "off_color": "a follower declared a color other than the led color",
    "color_lost": "a follower lost a color (its token came off the X)",
    "trump_win": "a trick led in another color won by red (trump)",
    "paradox": "a round ended in a paradox",
    "bonus": "a player scored the prediction bonus",
}
"""Rule events counted while playing, with what each one means."""

Observer = Callable[[str, Mapping[str, object]], None]
"""Told about public events while a round is played: ('begin', {...}) before the discards
(with the 2-player revealed leftovers, public from then on),
('start', {...}) at the first lead, ('play', {...}),
('trick', {...}), ('paradox', {...}), and at the end ('round', {'result': RoundResult}),
the only report holding hidden cards (the round is over then)."""


def game_winners(totals: Sequence[int], final_round: Sequence[int]) -> tuple[int, ...]:
    """The winner(s): highest total; on a tie the tied player with the higher score in the
    final round; if still tied, they share the win (all are returned)."""
    for what, seq in (("totals", totals), ("final-round scores", final_round)):
        if not isinstance(seq, Sequence) or not seq or not all(is_whole(x) for x in seq):
            raise CatboxError(f"{what} are whole numbers, one per seat, not {seq!r}")
    if len(totals) != len(final_round):
        raise CatboxError(f"{len(totals)} totals but {len(final_round)} final-round scores")
    best = max(totals)
    tied = [s for s, t in enumerate(totals) if t == best]
    top_final = max(final_round[s] for s in tied)
    return tuple(s for s in tied if final_round[s] == top_final)


def hands_after_discards(
    dealt: Sequence[Sequence[int]], discards: Sequence[int]
) -> tuple[tuple[int, ...], ...]:
    """Each dealt hand without its discarded card."""
    if (not isinstance(dealt, Sequence) or not isinstance(discards, Sequence)
            or len(dealt) != len(discards)):
        raise CatboxError(f"one discard per dealt hand is needed, not {discards!r} for {dealt!r}")
    out = []
    for seat, (hand, d) in enumerate(zip(dealt, discards, strict=True)):
        if not isinstance(hand, Sequence):  # (an int: a TypeError in list())
            raise CatboxError(f"seat {seat}'s dealt hand is a list of values, not {hand!r}")
        rest = list(hand)
        if d not in rest:
            raise CatboxError(f"seat {seat} discards {d!r}, which is not in its hand {hand!r}")
        rest.remove(d)
        out.append(tuple(rest))
    return tuple(out)


@dataclass(frozen=True)
class RoundSetup:
    """A round at its first lead: the deal, discards, revealed cards, predictions, Position."""

    deal: Deal
    start: int
    discards: tuple[int, ...]
    revealed: tuple[int, ...]
    predictions: tuple[int, ...] | None
    position: Position


def _need_deal(the_deal: object) -> None:
    """A CatboxError unless ``the_deal`` is a Deal (None failed deep inside)."""
    if not isinstance(the_deal, Deal):
        raise CatboxError(f"a Deal is needed (catbox_solver.model.deal.deal), not {the_deal!r}")


def _need_start(start: object, n: int) -> None:
    """A CatboxError unless ``start`` is a seat of ``n`` players."""
    if not is_whole(start) or not 0 <= start < n:
        raise CatboxError(f"start seat {start!r} outside 0..{n - 1}")


def setup_round(the_deal: Deal, start: int, bots: Sequence[Bot]) -> RoundSetup:
    """The 2-player neutral tokens from the first 3 leftover cards (revealed right after the
    deal, as the rulebooks say), discards (simultaneous: every bot sees its dealt hand and
    those tokens), then predictions from the start player clockwise, each bot seeing the
    earlier ones."""
    _need_deal(the_deal)
    _need_start(start, the_deal.rules.players)
    if not isinstance(bots, Sequence):
        raise CatboxError(f"bots are a list of one bot per seat, not {bots!r}")
    rules = the_deal.rules
    n = rules.players
    if len(bots) != n:
        raise CatboxError(f"{len(bots)} bots for {n} players")
    for seat, bot in enumerate(bots):  # (an object without them: an AttributeError later)
        if not all(callable(getattr(bot, name, None)) for name in ("discard", "predict", "play")):
            raise CatboxError(f"the bot of seat {seat} has no discard, predict and play: {bot!r}")
    discards = []
    for seat in range(n):
        view = PlayerView.for_discard(
            rules, seat, the_deal.hands[seat], start, the_deal.revealed
        )
        d = bots[seat].discard(view)
        if d not in the_deal.hands[seat]:
            raise IllegalPlayError(
                f"seat {seat} discarded {d!r}, not in its hand", "card not in hand"
            )
        discards.append(d)
    revealed = the_deal.revealed
    pos = Position.new_round(
        rules, hands_after_discards(the_deal.hands, discards), start, neutral_values=revealed
    )
    predictions: tuple[int, ...] | None = None
    if rules.has_predictions:
        choices = rules.prediction_choices
        made: list[int | None] = [None] * n
        for i in range(n):
            seat = (start + i) % n
            view = PlayerView.of_position(pos.with_predictions(made), seat, "predict")
            guess = bots[seat].predict(view, choices)
            if guess not in choices:
                raise CatboxError(
                    f"seat {seat} predicted {guess!r}; allowed: {', '.join(map(str, choices))}"
                )
            made[seat] = guess
        predictions = tuple(int(p) for p in made if p is not None)
        pos = pos.with_predictions(predictions)
    return RoundSetup(the_deal, start, tuple(discards), revealed, predictions, pos)


def count_play_events(pos: Position, play: Play, events: Counter[str]) -> None:
    """Add the rule events of ``play`` made in ``pos`` (which must be legal there)."""
    if not pos.trick:
        if play.color == RED:
            events["red_lead_broken" if pos.red_broken else "red_lead_exception"] += 1
        return
    seat = pos.to_move
    led = pos.trick[0].color
    if play.color != led:
        events["off_color"] += 1
        if pos.after(play).colors[seat] != pos.colors[seat]:
            events["color_lost"] += 1
    if len(pos.trick) == pos.rules.players - 1 and led != RED:
        trick = (*pos.trick, play)
        if trick[trick_winner_index(trick)].color == RED:
            events["trump_win"] += 1


def play_round(
    the_deal: Deal,
    start: int,
    bots: Sequence[Bot],
    number: int = 1,
    observer: Observer | None = None,
) -> RoundResult:
    """Play one round of a deal with the given bots (one per seat)."""
    _need_deal(the_deal)
    if observer:
        observer("begin", {"round": number, "start": start, "revealed": the_deal.revealed})
    setup = setup_round(the_deal, start, bots)
    rules = the_deal.rules
    n = rules.players
    pos = setup.position
    events: Counter[str] = Counter()
    plays: list[tuple[int, Play]] = []
    if observer:
        observer(
            "start",
            {"round": number, "start": start, "revealed": setup.revealed,
             "predictions": setup.predictions},
        )
    while not pos.is_over:
        seat = pos.to_move
        view = PlayerView.of_position(pos, seat, "play")
        choice = bots[seat].play(view)
        trick = pos.trick
        leader = pos.leader
        after = pos.play(choice)  # checked: a bot breaking the rules raises IllegalPlayError
        count_play_events(pos, choice, events)
        pos = after
        plays.append((seat, choice))
        if observer:
            observer("play", {"seat": seat, "play": choice})
            if len(trick) == n - 1:
                full = (*trick, choice)
                winner = (leader + trick_winner_index(full)) % n
                observer(
                    "trick", {"winner": winner, "trick": full, "tricks_won": pos.tricks_won}
                )
    paradox_by = pos.paradox_by
    paradox_trick = pos.tricks_played + 1 if paradox_by is not None else None
    if paradox_by is not None:
        events["paradox"] += 1
        if observer:
            observer("paradox", {"seat": paradox_by, "trick": paradox_trick})
    scores = pos.scores()
    events["bonus"] += sum(1 for s in range(n) if pos.bonus(s) > 0)
    result = RoundResult(
        rules=rules,
        number=number,
        start=start,
        deal=the_deal,
        discards=setup.discards,
        revealed=setup.revealed,
        predictions=setup.predictions,
        plays=tuple(plays),
        paradox_by=paradox_by,
        paradox_trick=paradox_trick,
        tricks_won=pos.tricks_won,
        scores=scores,
        final=pos,
        events={k: events[k] for k in EVENTS},
    )
    if observer:
        observer("round", {"result": result})
    return result


def play_game(
    rules: Ruleset,
    seed: int | None = None,
    bots: Sequence[Bot] | None = None,
    first_start: int = 0,
    observer: Observer | None = None,
    on_round: Callable[[tuple[RoundResult, ...]], None] | None = None,
    *,
    per_round_bots: bool = False,
) -> GameResult:
    """A game of ``rules.players`` rounds; round i (from 0) starts with seat
    ``(first_start + i) % players``. Deals come from ``random.Random(seed)`` in turn (so
    round 1 is ``deal(rules, seed)``); bots default to seeded RandomBots. ``on_round``
    gets the rounds played so far after each one (catbox play writes its record then, so
    that a game stopped early keeps its finished rounds). ``per_round_bots`` (with a seed
    and no ``bots``): each round gets fresh bots, ``round_bots(players, seed, round)``, so
    that the same seed's rounds start alike under any rule reading (catbox simulate)."""
    if not isinstance(rules, Ruleset):
        raise CatboxError(f"a Ruleset is needed to play, not {rules!r}")
    n = rules.players
    _need_start(first_start, n)
    if seed is not None and not is_stored_whole(seed):
        # (1.5 or "abc" played a game whose record could not be written, and NaN a
        # different game at every call)
        raise CatboxError(f"a game's seed is None or a whole number of at most 18 digits, "
                          f"as a record holds it, not {shown(seed)}")
    if per_round_bots and (seed is None or bots is not None):
        raise CatboxError("per_round_bots needs a seed and no bots of the caller's")
    if bots is None:
        bots = random_bots(n, seed)
    rng = random.Random(seed)
    rounds = []
    for i in range(n):
        these = round_bots(n, seed, i + 1) if per_round_bots and seed is not None else bots
        rounds.append(play_round(deal(rules, rng), (first_start + i) % n, these, i + 1, observer))
        if on_round is not None:
            on_round(tuple(rounds))
    totals = tuple(sum(r.scores[s] for r in rounds) for s in range(n))
    return GameResult(
        rules, seed, first_start, tuple(rounds), totals, game_winners(totals, rounds[-1].scores)
    )
