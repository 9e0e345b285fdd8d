"""The rule of thumb: a player that decides from its own hand and public facts alone.

It discards its most crowded value, predicts from its hand's weight, and plays to keep
options (no card left without a free color, colors not given up lightly), into rows
that still have room, at its prediction (takes tricks while short of it, ducks after).
It draws nothing at random. :class:`RuleOfThumbBot` plays it in :func:`play_game`; the
OpenSpiel bot of the same name (``catbox_solver.openspiel.bots``) plays the same
choices in OpenSpiel.
"""

from __future__ import annotations

from catbox_solver.games.bots import PlayerView
from catbox_solver.model.position import Play, Position, trick_winner_index
from catbox_solver.model.rules import COLOR_CHARS, RED, Ruleset


def thumb_discard(rules: Ruleset, hand: tuple[int, ...]) -> int:
    """The value to discard: one held most often (copies of a value need different
    colors: the most crowded value is the first to run out of them), the highest on a tie
    (high cards take tricks nobody planned)."""
    return max(set(hand), key=lambda v: (hand.count(v), v))


def thumb_prediction(rules: Ruleset, hand: tuple[int, ...], n_hand: int | None = None) -> int:
    """The prediction nearest to the tricks the hand's weight promises: the tricks of a
    round shared in proportion to the sum of squared values against an average hand."""
    choices = rules.prediction_choices
    deck_mean = sum(v * v for v in range(1, rules.values + 1)) / rules.values
    size = n_hand or len(hand)
    weight = sum(v * v for v in hand) / (size * deck_mean)
    guess = rules.tricks / rules.players * weight
    return min(choices, key=lambda k: (abs(k - guess), k))


def _winning(trick: tuple[Play, ...], play: Play) -> bool:
    """Whether ``play`` would lead the trick as it stands (a lead counts as winning when
    it is high)."""
    full = (*trick, play)
    return trick_winner_index(full) == len(trick)


def _options(pos: Position, seat: int, play: Play) -> tuple[int, int]:
    """After ``play``: how many of the seat's remaining values have no free cell in its
    colors (dead cards), and how many (value, color) options it keeps."""
    after = pos.after(play)
    cols = after.colors[seat]
    dead = options = 0
    for v in set(after.hands[seat]):
        free = ~(after.used >> (4 * v - 4)) & cols & 15
        k = bin(free).count("1")
        options += k
        dead += k == 0
    return dead, options


def _row_room(pos: Position, color: int) -> int:
    """Free cells left in a color's row."""
    row = sum(1 << (4 * (v - 1) + color) for v in range(1, pos.rules.values + 1))
    return pos.rules.values - bin(pos.used & row).count("1")


def _touching(pos: Position, seat: int, play: Play) -> int:
    """How many of the seat's own tokens the play's cell touches (bonus groups grow)."""
    mine = pos.owners[seat]
    v, c = play
    near: list[tuple[int, int]] = [(v - 1, c), (v + 1, c)]
    order = pos.rules.row_order
    row = order.index(COLOR_CHARS[c])
    for dr in (-1, 1):
        if 0 <= row + dr < 4:
            near.append((v, COLOR_CHARS.index(order[row + dr])))
    return sum(1 for w, k in near if 1 <= w <= pos.rules.values and mine >> (4 * w - 4 + k) & 1)


def thumb_play(pos: Position, seat: int) -> Play:
    """The rule of thumb's play (only the seat's own hand and public facts are read)."""
    legal = pos.legal_plays()
    pred = None if pos.predictions is None else pos.predictions[seat]
    target = pred if pred is not None else 4
    want = pos.tricks_won[seat] < target

    def score(play: Play) -> tuple[float, Play]:
        dead, options = _options(pos, seat, play)
        s = -10.0 * dead + 0.5 * options
        if pos.trick and play.color != pos.trick[0].color:
            s -= 2.0  # a color given up (or a declared color, as the switch says)
        s += 0.3 * _row_room(pos, play.color)
        if pos.trick:
            wins = _winning(pos.trick, play)
            last = len(pos.trick) == pos.players - 1
            weight = 4.0 if last else 2.0
            s += weight if wins == want else -weight
        else:
            high = play.value > pos.rules.values // 2
            s += (1.5 if high == want else -1.5) * (play.value / pos.rules.values)
            if play.color == RED:
                s -= 1.0
        s += 0.5 * _touching(pos, seat, play)
        return s, play

    return max(legal, key=score)


class RuleOfThumbBot:
    """The rule of thumb as a :class:`catbox_solver.games.bots.Bot` (a game's seat): the
    same choices as :func:`thumb_discard`, :func:`thumb_prediction` and
    :func:`thumb_play`, from the seat's view (its play is decided on
    ``view.partial_position()``, which holds only its own hand)."""

    def discard(self, view: PlayerView) -> int:
        return thumb_discard(view.rules, view.hand)

    def predict(self, view: PlayerView, choices: tuple[int, ...]) -> int:
        pick = thumb_prediction(view.rules, view.hand)
        # (the game offers the rules' choices; were it to offer fewer, the nearest)
        return min(choices, key=lambda k: (abs(k - pick), k))

    def play(self, view: PlayerView) -> Play:
        return thumb_play(view.partial_position(), view.seat)

    def __repr__(self) -> str:
        return "RuleOfThumbBot()"
