"""Play and Position: an exact, immutable snapshot of a round of Cat in the Box.

Encoding (chosen for search speed): the research board is a set of bit masks, one per seat
plus one for neutral tokens, with cell (color c, value v) at bit ``(v - 1) * 4 + c``; so the
four cells of one value form one nibble and ``(used >> 4 * (v - 1)) & 15`` are the colors
already declared for v. A player's remaining colors are a 4-bit mask (bit 0 red). Hands are
sorted tuples of values. The rules live here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from catbox_solver.errors import (
    ArgumentTypeError,
    CatboxError,
    IllegalPlayError,
    NotationError,
    PositionError,
)
from catbox_solver.model.board import board_mask as board_mask
from catbox_solver.model.board import cell_bit as cell_bit
from catbox_solver.model.board import cells_of as cells_of
from catbox_solver.model.board import largest_group as largest_group
from catbox_solver.model.board import red_row as red_row
from catbox_solver.model.numbers import is_whole
from catbox_solver.model.rules import ALL_COLORS, RED, Color, Ruleset

PLAY_COLOR_CHARS = "rbyg"
_set = object.__setattr__


class _PlayFields(NamedTuple):
    value: int
    color: Color


class Play(_PlayFields):
    """Declaring value ``value`` from the hand as color ``color`` (a :class:`Color`: 0 red,
    1 blue, 2 yellow, 3 green). Text form: ``7r``, ``3b``, ``5y``, ``2g``; ``str(play)`` is
    that text and ``repr(play)`` is ``Play('7r')``, which builds it, as :meth:`parse` does;
    ``Play(value=7, color=0)`` too (a color 0-3 becomes a Color)."""

    __slots__ = ()

    def __new__(cls, value: int | str, color: int | None = None) -> Play:
        if color is None:  # Play('7r'), as repr shows it
            if not isinstance(value, str):
                raise NotationError(f"a play is Play('7r') or Play(7, 0), not Play({value!r})")
            return Play.parse(value)
        if is_whole(color) and 0 <= color <= 3:
            color = _COLORS[color]
        # (any other color is kept as given, to be refused where it is used: .text)
        return super().__new__(cls, value, color)  # type: ignore[arg-type]

    @property
    def text(self) -> str:
        """``7r``; a Play built by hand with no such value or color (it is not checked when
        built: the search makes millions) raises NotationError instead of showing a wrong
        play (``Play(12, 1)`` as "12b", ``Play(3, -1)`` as "3g")."""
        v, c = self.value, self.color
        if not (is_whole(v) and is_whole(c) and 1 <= v <= 9 and 0 <= c <= 3):
            raise NotationError(f"no play has value {v!r} and color {_plain(c)!r} (1-9, 0-3)")
        return f"{v}{PLAY_COLOR_CHARS[c]}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        """``Play('7r')``; a Play that is no card shows its fields."""
        try:
            return f"Play({self.text!r})"
        except NotationError:
            return f"Play(value={self.value!r}, color={_plain(self.color)!r})"

    @property
    def cell(self) -> int:
        """Bit index of the play's cell on the research board."""
        return (self.value - 1) * 4 + self.color

    @classmethod
    def parse(cls, text: str, max_value: int = 9) -> Play:
        """Read ``7r`` (case-insensitive; ``7R`` too). Raises NotationError."""
        if not isinstance(text, str):
            raise NotationError(f"a play is text like '7r', not {type(text).__name__}")
        if not isinstance(max_value, int) or not 1 <= max_value <= 9:
            raise NotationError(f"the highest value must be 1-9, not {max_value!r}")
        s = text.strip()
        if len(s) != 2:
            raise NotationError(f"a play is a value and a color like '7r', not {_cut(text)}")
        if s[0] not in "123456789" or int(s[0]) > max_value:
            raise NotationError(f"bad value {s[0]!r} in play {_cut(text)} (1-{max_value})",
                                column=1)
        color = PLAY_COLOR_CHARS.find(s[1].lower())
        if color < 0:
            raise NotationError(f"bad color {s[1]!r} in play {_cut(text)} (r, b, y, g)",
                                column=2)
        return PLAYS[int(s[0])][color]


_COLORS: tuple[Color, ...] = tuple(Color)


def _plain(color: object) -> object:
    """A color as an error message shows it: a Color as its number."""
    return int(color) if isinstance(color, Color) else color


def _cut(text: str, limit: int = 80) -> str:
    """``text`` quoted for an error message, cut at ``limit`` characters with "...": an
    error never echoes a huge input whole."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."


# interned plays: PLAYS[v][c]; PLAYS_BY_MASK[v][mask] = the plays of value v in the colors
# of a 4-bit mask, red first (saves allocating in the hot path)
PLAYS: tuple[tuple[Play, ...], ...] = tuple(
    tuple(Play(v, c) for c in range(4)) for v in range(10)
)
PLAYS_BY_MASK: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    tuple(tuple(PLAYS[v][c] for c in range(4) if mask >> c & 1) for mask in range(16))
    for v in range(10)
)


def trick_winner_index(trick: Sequence[Play]) -> int:
    """Index in ``trick`` of the winning play: highest red if any red, else highest of the
    led color."""
    trump = RED if any(p.color == RED for p in trick) else trick[0].color
    best = -1
    best_i = 0
    for i, p in enumerate(trick):
        if p.color == trump and p.value > best:
            best = p.value
            best_i = i
    return best_i


class Position:
    """An immutable, hashable snapshot of a round in progress, all hands open.

    Build one with :meth:`Position.new_round` (start of the tricks) or the constructor
    (any position; checked unless ``validate=False``). ``play`` returns a new Position.
    """

    __slots__ = (
        "rules",
        "owners",
        "neutral",
        "hands",
        "colors",
        "leader",
        "trick",
        "tricks_won",
        "predictions",
        "tricks_left",
        "used",
        "_hash",
    )

    rules: Ruleset
    owners: tuple[int, ...]
    neutral: int
    hands: tuple[tuple[int, ...], ...]
    colors: tuple[int, ...]
    leader: int
    trick: tuple[Play, ...]
    tricks_won: tuple[int, ...]
    predictions: tuple[int | None, ...] | None
    tricks_left: int
    used: int
    _hash: int | None

    def __init__(
        self,
        rules: Ruleset,
        owners: Sequence[int],
        neutral: int,
        hands: Sequence[Iterable[int]],
        colors: Sequence[int],
        leader: int,
        trick: Sequence[Play],
        tricks_won: Sequence[int],
        predictions: Sequence[int | None] | None,
        tricks_left: int,
        validate: bool = True,
    ) -> None:
        if not isinstance(rules, Ruleset):
            raise PositionError(f"a position needs a Ruleset, not {rules!r}")
        _set(self, "rules", rules)
        try:
            _set(self, "owners", tuple(owners))
            _set(self, "hands", tuple(tuple(sorted(h)) for h in hands))
            _set(self, "colors", tuple(colors))
            _set(self, "trick", tuple(_as_play(p) for p in trick))
            _set(self, "tricks_won", tuple(tricks_won))
        except (TypeError, IndexError, ValueError) as exc:  # None, an unsortable hand...
            raise PositionError(f"position fields of the wrong kind: {exc}") from None
        if not is_whole(neutral) or not all(is_whole(m) for m in self.owners):
            # (None or a float raised TypeError below, where the cells are counted)
            raise PositionError(f"board owners and neutral tokens are whole numbers (masks "
                                f"of cells), not {self.owners!r} and {neutral!r}")
        _set(self, "neutral", neutral)
        _set(self, "leader", leader)
        if predictions is None and rules.has_predictions:
            predictions = (None,) * rules.players
        _check_predictions_form(predictions)
        _set(self, "predictions", None if predictions is None else tuple(predictions))
        _set(self, "tricks_left", tricks_left)
        used = neutral
        for m in self.owners:
            used |= m
        _set(self, "used", used)
        _set(self, "_hash", None)
        if validate:
            self.validate()

    # ---- construction --------------------------------------------------------------------
    @classmethod
    def new_round(
        cls,
        rules: Ruleset,
        hands: Sequence[Iterable[int]],
        start: int = 0,
        predictions: Sequence[int | None] | None = None,
        neutral_values: Sequence[int] = (),
    ) -> Position:
        """The position at the first lead: hands after discards, the start player, the
        predictions (3-5 players) and, with 2 players, the revealed leftover values that
        place the neutral tokens."""
        if not isinstance(rules, Ruleset):
            raise PositionError(f"a position needs a Ruleset, not {rules!r}")
        n = rules.players
        if not isinstance(neutral_values, (tuple, list)):  # (None or 5: a TypeError)
            raise PositionError(f"neutral token values are a list of values, not "
                                f"{neutral_values!r}")
        for v in neutral_values:
            if not is_whole(v) or not 1 <= v <= rules.values:
                raise PositionError(f"neutral token value {v!r} outside 1-{rules.values}")
        if predictions is None and rules.has_predictions:
            predictions = (None,) * n
        _check_predictions_form(predictions)
        if not rules.has_predictions and any(x is not None for x in predictions or ()):
            # (they were dropped without a word; with_predictions refuses them too)
            raise PositionError(f"{n} players make no predictions, not {predictions!r}")
        return cls(
            rules,
            (0,) * n,
            neutral_mask(neutral_values),
            hands,
            (ALL_COLORS,) * n,
            start,
            (),
            (0,) * n,
            predictions if rules.has_predictions else None,
            rules.tricks,
        )

    def _replace(self, **changes: object) -> Position:
        new = Position.__new__(Position)
        for name in Position.__slots__[:-2]:
            _set(new, name, changes.get(name, getattr(self, name)))
        used = new.neutral
        for m in new.owners:
            used |= m
        _set(new, "used", used)
        _set(new, "_hash", None)
        return new

    def with_predictions(self, predictions: Sequence[int | None] | None) -> Position:
        if predictions is None and self.rules.has_predictions:
            predictions = (None,) * self.rules.players
        _check_predictions_form(predictions)
        pos = self._replace(predictions=None if predictions is None else tuple(predictions))
        pos.validate()
        return pos

    def with_rules(self, rules: Ruleset) -> Position:
        """The same position under other interpretation switches (same player count)."""
        if not isinstance(rules, Ruleset):
            raise PositionError(f"a Ruleset is needed, not {rules!r}")
        if rules.players != self.rules.players:
            raise PositionError(
                f"ruleset is for {rules.players} players, position for {self.rules.players}"
            )
        pos = self._replace(rules=rules)
        pos.validate()  # (a switch can make it impossible: the color lost in this trick)
        return pos

    # ---- basic facts ---------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def to_move(self) -> int:
        """The seat whose turn it is (meaningful while the round is not finished)."""
        return (self.leader + len(self.trick)) % self.rules.players

    @property
    def led_color(self) -> int | None:
        return self.trick[0].color if self.trick else None

    @property
    def red_broken(self) -> bool:
        """Some token lies on the red row: the leader may lead red."""
        return bool(self.used & red_row(self.rules.values))

    def owner_of(self, value: int, color: int) -> int | None:
        """The seat whose token is on cell (color, value), -1 for a neutral token, None if
        the cell is empty."""
        self._check_cell(value, color)
        bit = cell_bit(value, color)
        if self.neutral & bit:
            return -1
        for seat, m in enumerate(self.owners):
            if m & bit:
                return seat
        return None

    @property
    def tricks_played(self) -> int:
        return self.rules.tricks - self.tricks_left

    # ---- the rules -----------------------------------------------------------------------
    def legal_plays(self) -> tuple[Play, ...]:
        """Every distinct legal play of the player to move (two copies of a value are one
        play), by value then color red, blue, yellow, green. Empty if the round is over or
        the player to move causes a paradox."""
        if self.tricks_left == 0:
            return ()
        trick = self.trick
        p = (self.leader + len(trick)) % self.rules.players
        cols = self.colors[p]
        used = self.used
        table = PLAYS_BY_MASK
        out: list[Play] = []
        prev = 0
        if trick:
            if self.rules.following == "must-follow":
                led = 1 << trick[0].color
                for v in self.hands[p]:
                    if v != prev:
                        prev = v
                        if ~(used >> (4 * v - 4)) & cols & led:
                            out.append(PLAYS[v][trick[0].color])
                if out:
                    return tuple(out)
                prev = 0
            for v in self.hands[p]:
                if v != prev:
                    prev = v
                    out.extend(table[v][~(used >> (4 * v - 4)) & cols])
            return tuple(out)
        if used & red_row(self.rules.values):
            for v in self.hands[p]:
                if v != prev:
                    prev = v
                    out.extend(table[v][~(used >> (4 * v - 4)) & cols])
            return tuple(out)
        mode = self.rules.red_lead
        if mode == "per-card":
            for v in self.hands[p]:
                if v != prev:
                    prev = v
                    free = ~(used >> (4 * v - 4)) & cols
                    out.extend(table[v][free & 14 or free & 1])
            return tuple(out)
        for v in self.hands[p]:
            if v != prev:
                prev = v
                out.extend(table[v][~(used >> (4 * v - 4)) & cols & 14])
        if not out and mode == "exception":
            prev = 0
            for v in self.hands[p]:
                if v != prev:
                    prev = v
                    out.extend(table[v][~(used >> (4 * v - 4)) & cols & 1])
        return tuple(out)

    def _card(self, play: Play | str) -> Play:
        """``play`` (or its text) as a card of this game, else IllegalPlayError: a tuple,
        value 0 or color 4 was taken for a play and failed later, or named another cell."""
        if isinstance(play, str):
            return Play.parse(play, self.rules.values)
        if not isinstance(play, Play):
            raise IllegalPlayError(
                f"a play is a Play or text like '7r', not {play!r}", "not a card"
            )
        # (a value past this round's, like 9 with 4 players, is a card nobody holds)
        if not (is_whole(play.value) and is_whole(play.color)) or not (
            1 <= play.value <= 9 and 0 <= play.color <= 3
        ):
            raise IllegalPlayError(f"{play!r} is not a card (values 1-9, colors 0-3)", "not a card")
        return play

    def _check_cell(self, value: int, color: int) -> None:
        """A cell of this board, else PositionError (value -1 was a shift error)."""
        if not (is_whole(value) and is_whole(color)) or not (
            1 <= value <= self.rules.values and 0 <= color <= 3
        ):
            raise PositionError(f"no cell of value {value!r} and color {color!r} on this board")

    def _check_seat(self, seat: int) -> None:
        """A seat of this round, else PositionError (-1 answered for the last seat), or an
        ArgumentTypeError for no whole number at all (the text "0" read as out of range)."""
        if not is_whole(seat):
            raise ArgumentTypeError(f"a seat is a whole number, not {seat!r}", "seat")
        if not 0 <= seat < self.rules.players:
            raise PositionError(f"seat {seat!r} outside 0-{self.rules.players - 1}")

    def is_legal(self, play: Play | str) -> bool:
        """Is ``play`` (a Play or its text, as :meth:`play` takes) a legal play of the
        player to move? (Text was always False.)"""
        return self._card(play) in self.legal_plays()

    def why_illegal(self, play: Play) -> str | None:
        """None if ``play`` is legal, else the name of the rule it breaks: 'round over',
        'card not in hand', 'rule 1', 'rule 2', 'red lead', 'must follow' (also when the
        player to move has no legal play at all: the specific rule each play breaks)."""
        play = self._card(play)
        if self.tricks_left == 0:
            return "round over"
        if play in self.legal_plays():
            return None
        p = self.to_move
        if play.value not in self.hands[p]:
            return "card not in hand"
        if self.used & cell_bit(play.value, play.color):
            return "rule 1"
        if not self.colors[p] >> play.color & 1:
            return "rule 2"
        if not self.trick:
            return "red lead"
        return "must follow"

    def play(self, play: Play | str) -> Position:
        """The position after the player to move makes ``play`` (a Play or text like '7r').
        Raises IllegalPlayError naming the rule broken."""
        play = self._card(play)
        reason = self.why_illegal(play)
        if reason is not None:
            extra = "" if reason == "round over" or self.legal_plays() else " (and no play is "
            extra = extra and extra + "legal: the player to move causes a paradox)"
            raise IllegalPlayError(
                f"{play.text} is illegal for seat {self.to_move}: {RULE_TEXT[reason]}{extra}",
                reason,
            )
        return self.after(play)

    def after(self, play: Play) -> Position:
        """The position after ``play``, which must be legal: not checked, for speed in
        searches (an illegal play may raise or give a position that cannot arise); use
        :meth:`play` for a checked step."""
        n = self.rules.players
        trick = self.trick
        p = (self.leader + len(trick)) % n
        v, c = play
        owners = list(self.owners)
        owners[p] |= 1 << (4 * v - 4 + c)
        hands = list(self.hands)
        hand = hands[p]
        i = hand.index(v)
        hands[p] = hand[:i] + hand[i + 1 :]
        colors = self.colors
        if trick:
            led = trick[0].color
            if c != led:
                lost = led if self.rules.color_loss == "led" else c
                if colors[p] >> lost & 1:
                    cl = list(colors)
                    cl[p] &= ~(1 << lost)
                    colors = tuple(cl)
        new = Position.__new__(Position)
        _set(new, "rules", self.rules)
        _set(new, "owners", tuple(owners))
        _set(new, "neutral", self.neutral)
        _set(new, "hands", tuple(hands))
        _set(new, "colors", colors)
        _set(new, "predictions", self.predictions)
        _set(new, "used", self.used | (1 << (4 * v - 4 + c)))
        _set(new, "_hash", None)
        trick = trick + (play,)
        if len(trick) == n:
            w = (self.leader + trick_winner_index(trick)) % n
            won = list(self.tricks_won)
            won[w] += 1
            _set(new, "tricks_won", tuple(won))
            _set(new, "leader", w)
            _set(new, "trick", ())
            _set(new, "tricks_left", self.tricks_left - 1)
        else:
            _set(new, "tricks_won", self.tricks_won)
            _set(new, "leader", self.leader)
            _set(new, "trick", trick)
            _set(new, "tricks_left", self.tricks_left)
        return new

    # ---- end of round --------------------------------------------------------------------
    @property
    def is_paradox(self) -> bool:
        """The player to move has no legal play: the round ended in a paradox."""
        return self.tricks_left > 0 and not self.legal_plays()

    @property
    def paradox_by(self) -> int | None:
        """The seat that caused the paradox, or None."""
        return self.to_move if self.is_paradox else None

    @property
    def is_over(self) -> bool:
        return self.tricks_left == 0 or not self.legal_plays()

    def final_owners(self) -> tuple[int, ...]:
        """Each seat's tokens as scored: with the 'removed' reading of an interrupted trick,
        the tokens of the trick a paradox interrupted are taken off."""
        if self.rules.interrupted_trick == "removed" and self.is_paradox and self.trick:
            owners = list(self.owners)
            for i, pl in enumerate(self.trick):
                owners[(self.leader + i) % self.rules.players] &= ~(1 << pl.cell)
            return tuple(owners)
        return self.owners

    def largest_group(self, seat: int) -> int:
        """Size of the seat's largest connected group of tokens (as the bonus counts it)."""
        self._check_seat(seat)
        return largest_group(
            self.final_owners()[seat],
            self.rules.row_order,
            self.rules.adjacency == "diagonal",
        )

    def prediction_met(self, seat: int) -> bool:
        """Whether the seat's trick count meets its prediction (2 players: at most 4)."""
        self._check_seat(seat)
        won = self.tricks_won[seat]
        if self.rules.players == 2 and self.rules.two_player_bonus == "at-most-4":
            return won <= 4
        pred = None if self.predictions is None else self.predictions[seat]
        if pred is None:
            raise PositionError(f"the prediction of seat {seat} is unknown: no bonus can be scored")
        return won == pred

    def trick_points(self, seat: int) -> int:
        """+tricks won, or -tricks won for the seat that caused the paradox."""
        self._check_seat(seat)
        won = self.tricks_won[seat]
        return -won if self.paradox_by == seat else won

    def bonus(self, seat: int) -> int:
        """The prediction bonus: largest group if the prediction succeeded and the seat did
        not cause a paradox."""
        self._check_seat(seat)
        if self.paradox_by == seat or not self.prediction_met(seat):
            return 0
        return self.largest_group(seat)

    def scores(self) -> tuple[int, ...]:
        """Round scores (trick points plus bonus) of every seat; the round must be over."""
        if not self.is_over:
            raise PositionError("the round is not over: no scores yet")
        return tuple(self.trick_points(s) + self.bonus(s) for s in range(self.rules.players))

    # ---- identity ------------------------------------------------------------------------
    def key(self) -> tuple[object, ...]:
        return (
            self.rules,
            self.owners,
            self.neutral,
            self.hands,
            self.colors,
            self.leader,
            self.trick,
            self.tricks_won,
            self.predictions,
            self.tricks_left,
        )

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = hash(self.key())
            _set(self, "_hash", h)
        return h

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.key() == other.key()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Position is immutable: cannot set {name}")

    def __reduce__(self) -> tuple[type[Position], tuple[object, ...]]:
        """Pickled as its constructor's arguments, so unpickling checks it again (the
        fields cannot be set one by one: a Position is immutable)."""
        return (Position, (self.rules, self.owners, self.neutral, self.hands, self.colors,
                           self.leader, self.trick, self.tricks_won, self.predictions,
                           self.tricks_left))

    def __copy__(self) -> Position:
        """Itself: a Position is immutable."""
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Position:
        """Itself: a Position is immutable."""
        return self

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Position is immutable: cannot delete {name}")

    # ---- text forms (display hooks: the formats and render modules load when first used) ----
    @classmethod
    def from_notation(cls, text: str) -> Position:
        """Read the one-line notation (docs/notation.md). Raises NotationError naming the
        field and column, RulesetError or PositionError."""
        from catbox_solver.formats.notation import position_from_notation

        return position_from_notation(text)

    def notation(self) -> str:
        """The canonical one-line notation: ``Position.from_notation(pos.notation()) == pos``."""
        from catbox_solver.formats.notation import position_to_notation

        return position_to_notation(self)

    @classmethod
    def from_json(cls, obj: dict[str, Any] | str) -> Position:
        """Read the catbox-position/1 JSON form: the object (a dict, as :meth:`to_json`
        gives it) or its JSON text."""
        from catbox_solver.formats.jsonform import position_from_dict, position_from_json

        return position_from_json(obj) if isinstance(obj, str) else position_from_dict(obj)

    def to_json(self) -> dict[str, Any]:
        """The catbox-position/1 object (``json.dumps`` writes it):
        ``Position.from_json(pos.to_json()) == pos``."""
        from catbox_solver.formats.jsonform import position_to_dict

        return position_to_dict(self)

    def _repr_svg_(self) -> str:
        """The research board, hands and trick as SVG (Jupyter shows it, as python-chess
        does for boards)."""
        from catbox_solver.render.svg import position_svg

        return position_svg(self)

    def __repr__(self) -> str:
        """``Position('4p official | ...')``: the notation, which reads back (a position
        built unchecked that the notation cannot write shows its fields)."""
        try:
            return f"Position({self.notation()!r})"
        except CatboxError:
            return f"Position({self.key()!r})"

    def __str__(self) -> str:
        """The board, hands, colors and trick as text (as ``catbox show`` prints them)."""
        from catbox_solver.render.text import render_text

        return render_text(self)

    # ---- validation ----------------------------------------------------------------------
    def validate(self) -> None:
        """Raise PositionError unless this position can arise in a round (the checks are
        in :mod:`catbox_solver.model.validation`)."""
        from catbox_solver.model.validation import check_position

        check_position(self)


RULE_TEXT = {
    "round over": "the round is over",
    "paradox": "the player to move has no legal play (paradox)",
    "card not in hand": "card not in hand",
    "rule 1": "rule 1: that cell of the research board is taken",
    "rule 2": "rule 2: that color is lost (its X is uncovered)",
    "red lead": "red lead: red may not be led before red is broken",
    "must follow": "must follow: the led color can be declared",
    "wrong player": "wrong player: it is another seat's turn",
}


def _check_predictions_form(predictions: object) -> None:
    """Predictions are one per seat in a list or tuple (None for unknown), or None: an int
    raised TypeError from tuple(), and a string was read digit by digit."""
    if predictions is not None and not isinstance(predictions, (tuple, list)):
        raise PositionError(
            f"predictions are one per seat (a list or tuple, None for unknown), "
            f"not {predictions!r}"
        )


def neutral_mask(values: Sequence[int]) -> int:
    """Neutral tokens for the revealed leftover values: the first card of a value on green,
    a second on yellow, a third on blue."""
    order = (3, 2, 1)
    mask = 0
    seen: dict[int, int] = {}
    for v in values:
        k = seen.get(v, 0)
        if k >= 3:
            raise PositionError(f"more than three neutral tokens for value {v}")
        mask |= cell_bit(v, order[k])
        seen[v] = k + 1
    return mask


def _as_play(p: object) -> Play:
    """A play of a trick given as a Play or a (value, color) pair of ints."""
    if not isinstance(p, Play):
        if not isinstance(p, (tuple, list)) or len(p) != 2:
            raise TypeError(f"a play is a Play or (value, color), not {p!r}")
        p = Play(*p)
    if not is_whole(p.value) or not is_whole(p.color) or not 0 <= p.value <= 9:
        raise TypeError(f"{p!r} is not a card")
    if not 0 <= p.color <= 3:
        raise TypeError(f"{p!r} has no color 0-3")
    return PLAYS[p.value][p.color]


def need_position(pos: object, error: type[CatboxError] = PositionError) -> None:
    """A PositionError (or ``error``: the solvers raise SearchError for their arguments)
    unless ``pos`` is a Position: None or a notation string passed where a Position is
    meant failed with an AttributeError deep inside."""
    if not isinstance(pos, Position):
        raise error(f"a position is needed, not {type(pos).__name__}")
