"""The Ruleset: player count, everything derived from it, and every interpretation switch.

The official reading of the rulebooks is the default of every switch; named presets give the
other readings found in the texts (see docs/rules.md and ../shared/RULES.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import IntEnum
from types import MappingProxyType
from typing import Any, Final

from catbox_solver.errors import RulesetError
from catbox_solver.model.numbers import is_whole

COLOR_CHARS: Final = "RBYG"
"""Colors by index: 0 red (trump), 1 blue, 2 yellow, 3 green."""


class Color(IntEnum):
    """A color of the research board: an int (a bit index, a row) with a name."""

    RED = 0
    BLUE = 1
    YELLOW = 2
    GREEN = 3


RED: Final = Color.RED
BLUE: Final = Color.BLUE
YELLOW: Final = Color.YELLOW
GREEN: Final = Color.GREEN
ALL_COLORS: Final = 0b1111
COLOR_NAMES: Final = ("red", "blue", "yellow", "green")


def colors_text(mask: int) -> str:
    """The colors of a 4-bit mask as letters, red first: ``RBG`` ('' for none)."""
    return "".join(ch for i, ch in enumerate(COLOR_CHARS) if mask >> i & 1)

# switch name -> allowed values, official first
SWITCHES: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType({
    # leader without broken red: "exception" = may lead red if no card has a legal non-red
    # play (EN/DE rulebooks; the CS rulebook and the DE quick reference allow it too);
    # "never" = no red lead at all (the EN and DE rulebooks' quick references); "per-card" =
    # a card may be led red if that card has no legal non-red color (the CS rulebook and the
    # DE quick reference allow it; the EN and DE rulebooks rule it out).
    "red_lead": ("exception", "never", "per-card"),
    # follower declaring a color other than the led color loses: "led" color (rulebooks) or
    # the "declared" color (Czech quick reference).
    "color_loss": ("led", "declared"),
    # "free": any legal color; "must-follow": must declare the led color if able.
    "following": ("free", "must-follow"),
    # tokens of a trick interrupted by a paradox: "stay" (rulebooks) or are "removed".
    "interrupted_trick": ("stay", "removed"),
    # bonus group adjacency: "orthogonal" (rulebooks) or with "diagonal" neighbours too.
    "adjacency": ("orthogonal", "diagonal"),
    # 2-player bonus: "at-most-4" tricks (rulebook) or "prediction": exact prediction as with
    # 3-5 players (prediction choices 1-4).
    "two_player_bonus": ("at-most-4", "prediction"),
})

SWITCH_SOURCES: Final[dict[str, str]] = {
    "red_lead": "EN/DE rulebooks: red may be led if no card of the hand can be declared "
    "another color; CS rulebook and DE quick reference (KSR): if the leader cannot declare "
    "another color, which allows the per-card reading too; the EN and DE rulebooks' quick "
    "references omit the exception",
    "color_loss": "EN/DE/CS rulebooks, EN rulebook quick reference and KSR: remove the token "
    "on the X of the led color; CS rulebook quick reference: 'of this color' (the declared "
    "one)",
    "following": "all rulebooks: followers may declare any color; some reviews: must follow",
    "interrupted_trick": "all rulebooks: leave the tokens of the interrupted trick on the board",
    "adjacency": "all rulebooks: vertically or horizontally, not diagonally",
    "two_player_bonus": "rulebooks: 2 players score the bonus with 4 or fewer tricks",
}

# read-only, as SWITCHES: an exported dict could be changed, and every later ruleset with it
PRESETS: Final[Mapping[str, Mapping[str, str]]] = MappingProxyType({
    "official": MappingProxyType({}),
    "quickref-red-lead": MappingProxyType({"red_lead": "never"}),
    "per-card-red-lead": MappingProxyType({"red_lead": "per-card"}),
    "czech-color-loss": MappingProxyType({"color_loss": "declared"}),
    "must-follow": MappingProxyType({"following": "must-follow"}),
    "interrupted-removed": MappingProxyType({"interrupted_trick": "removed"}),
    "diagonal-bonus": MappingProxyType({"adjacency": "diagonal"}),
    "two-player-prediction": MappingProxyType({"two_player_bonus": "prediction"}),
})

DEFAULT_ROW_ORDER: Final = "RBYG"

# The switches that change only the scoring at the end of the round (the bonus, and which
# tokens of a trick a paradox interrupted stay on the board): who may play what, who wins a
# trick and who causes a paradox never depend on them, nor on the row order (it shapes the
# bonus groups alone). test_rules_properties plays random rounds to check it.
SCORE_ONLY: Final = ("interrupted_trick", "adjacency", "two_player_bonus")


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Player count, interpretation switches and the board's row order (frozen, hashable)."""

    players: int = 4
    red_lead: str = "exception"
    color_loss: str = "led"
    following: str = "free"
    interrupted_trick: str = "stay"
    adjacency: str = "orthogonal"
    two_player_bonus: str = "at-most-4"
    row_order: str = DEFAULT_ROW_ORDER

    def __post_init__(self) -> None:
        if not is_whole(self.players) or not 2 <= self.players <= 5:
            raise RulesetError(f"player count must be 2 to 5, not {self.players!r}")
        for name, allowed in SWITCHES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise RulesetError(
                    f"switch {name} has no value {value!r} (allowed: {', '.join(allowed)})"
                )
        if not isinstance(self.row_order, str) or sorted(self.row_order) != sorted(COLOR_CHARS):
            raise RulesetError(
                f"row order must be a permutation of RBYG, not {self.row_order!r}"
            )

    # ---- derived from the player count -------------------------------------------------
    @property
    def values(self) -> int:
        """Highest card value in play (values are 1..values)."""
        return {2: 5, 3: 6, 4: 8, 5: 9}[self.players]

    @property
    def copies(self) -> int:
        """Copies of each value in the deck."""
        return 5

    @property
    def deck_size(self) -> int:
        return self.values * self.copies

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player."""
        return 9 if self.players == 5 else 10

    @property
    def discards(self) -> int:
        """Cards each player discards face down."""
        return 1

    @property
    def tricks(self) -> int:
        """Tricks in a round: until every player holds exactly one card."""
        return self.hand_size - self.discards - 1

    @property
    def leftover(self) -> int:
        """Cards left in the middle after the deal (2 players: 5, of which 3 revealed)."""
        return self.deck_size - self.players * self.hand_size

    @property
    def neutral_tokens(self) -> int:
        return 3 if self.players == 2 else 0

    @property
    def has_predictions(self) -> bool:
        return self.players >= 3 or self.two_player_bonus == "prediction"

    @property
    def prediction_choices(self) -> tuple[int, ...]:
        """The allowed predictions (empty for the official 2-player game)."""
        if self.players == 2:
            return (1, 2, 3, 4) if self.two_player_bonus == "prediction" else ()
        return (1, 3, 4) if self.players == 3 else (1, 2, 3)

    @property
    def covered_value(self) -> int | None:
        """The board column covered by observed tokens (2 players: 6, 4 players: 9)."""
        return {2: 6, 4: 9}.get(self.players)

    @property
    def cells(self) -> int:
        """Cells of the board in play (covered column excluded)."""
        return 4 * self.values

    # ---- names ---------------------------------------------------------------------------
    def switches(self) -> dict[str, str]:
        return {name: getattr(self, name) for name in SWITCHES}

    @property
    def name(self) -> str:
        """The preset name if the switches match one, else a spec 'official,switch=value'."""
        sw = {k: v for k, v in self.switches().items() if v != SWITCHES[k][0]}
        for preset, setting in PRESETS.items():
            if setting == sw:
                base = preset
                break
        else:
            base = "official," + ",".join(f"{k}={v}" for k, v in sorted(sw.items()))
        if self.row_order != DEFAULT_ROW_ORDER:
            base += f",row_order={self.row_order}"
        return base

    @classmethod
    def from_name(cls, spec: str, players: int) -> Ruleset:
        """Build from a preset name, optionally followed by ``,switch=value`` overrides.
        Names and values in any case (the row order is upper case: ``row_order=gybr``
        is GYBR), as the notation's header reads them; a switch given twice is an error
        (it was the last one silently)."""
        if not isinstance(spec, str):
            raise RulesetError(f"a ruleset name is text like 'official', not {spec!r}")
        if not spec.strip():
            raise RulesetError("empty ruleset name")
        head, *rest = [part.strip() for part in spec.split(",")]
        if head.lower() not in PRESETS:
            raise RulesetError(
                f"unknown ruleset {head!r} (presets: {', '.join(PRESETS)})"
            )
        setting: dict[str, str] = dict(PRESETS[head.lower()])
        given: set[str] = set()
        for part in rest:
            key, sep, value = part.partition("=")
            key = key.strip().lower().replace("-", "_")
            if not sep or (key not in SWITCHES and key != "row_order"):
                # (the switches are named: it said only "bad ruleset switch")
                raise RulesetError(
                    f"bad ruleset switch {part!r} in {spec!r}: a switch is NAME=VALUE, NAME "
                    f"one of {', '.join([*SWITCHES, 'row_order'])}"
                )
            if key in given:
                raise RulesetError(f"switch {key!r} given twice in {spec!r}")
            given.add(key)
            value = value.strip()
            setting[key] = value.upper() if key == "row_order" else value.lower()
        known = {f.name for f in fields(cls)}
        assert set(setting) <= known
        return cls(players=players, **setting)

    def with_switches(self, **changes: Any) -> Ruleset:
        """This ruleset with some switches changed (``red_lead="never"``...)."""
        unknown = set(changes) - set(SWITCHES) - {"players", "row_order"}
        if unknown:
            raise RulesetError(
                f"unknown switch(es) {', '.join(sorted(unknown))} (known: {', '.join(SWITCHES)})"
            )
        return replace(self, **changes)

    def in_effect(self) -> Ruleset:
        """This ruleset with every switch that does nothing at its player count at its
        official value (the 2-player bonus with 3-5 players): two rulesets equal here are
        one game."""
        if self.players == 2:
            return self
        return self.with_switches(two_player_bonus=SWITCHES["two_player_bonus"][0])

    def for_play(self) -> Ruleset:
        """This ruleset with the switches of :data:`SCORE_ONLY` and the row order at their
        official values: what legal plays, tricks and paradoxes depend on (two rulesets
        equal here differ only in the score)."""
        return self.with_switches(row_order=DEFAULT_ROW_ORDER,
                                  **{name: SWITCHES[name][0] for name in SCORE_ONLY})

    def __str__(self) -> str:
        return f"{self.players}p {self.name}"


# The texts quoted below: the EN/DE/CS rulebooks, their back-page quick references, and the
# separate German quick reference (KSR). A quote's source is one of these; any other source
# (a review, a house rule) comes with a description in its own words, not a quote.
TEXT_SOURCES: Final = (
    "EN rulebook", "EN rulebook quick reference", "DE rulebook", "DE rulebook quick reference",
    "CS rulebook", "CS rulebook quick reference", "DE quick reference (KSR)",
)

# What the texts say, per switch value: (source, wording). A text that can be read two
# ways is quoted under both readings. "..." marks words left out.
_CS_EXCEPTION = ("Začínající hráč může červenou barvu ohlásit i v případě, že nemůže "
                 "ohlásit žádnou jinou barvu.")
_CS_QR_EXCEPTION = ("Smíte ohlásit červenou, pokud je na červeném řádku ... alespoň jeden "
                    "žeton hráče nebo pokud nemůžete ohlásit žádnou jinou barvu.")
_KSR_EXCEPTION = ("darf der Startspieler nicht rot anspielen, außer er hätte keine andere "
                  "Möglichkeit.")
SWITCH_TEXTS: Final[dict[str, dict[str, tuple[tuple[str, str], ...]]]] = {
    "red_lead": {
        "exception": (
            ("EN rulebook", "You can also declare red if you cannot declare any other color "
             "with any cards from your hand."),
            ("DE rulebook", "Für den Fall, dass du für keine deiner verbliebenen Handkarten "
             "nach den Regeln 1 und 2 eine andere Farbe als Rot festlegen kannst, darfst du "
             "ebenfalls eine rote Karte anspielen (auch wenn in der roten Reihe noch kein "
             "Spielstein liegt)."),
            ("CS rulebook", _CS_EXCEPTION),
            ("CS rulebook quick reference", _CS_QR_EXCEPTION),
            ("DE quick reference (KSR)", _KSR_EXCEPTION),
        ),
        "never": (
            ("EN rulebook quick reference", "You may only declare blue, yellow, or green ... "
             "Exception: If any token(s) is placed on the red row of the research board, you "
             "may declare red."),
            ("DE rulebook quick reference", "Du darfst zunächst nur Blau, Gelb oder Grün "
             "anspielen. Liegt bereits 1 Spielstein in der roten Reihe, darfst du auch Rot "
             "anspielen."),
        ),
        "per-card": (
            ("CS rulebook", _CS_EXCEPTION),
            ("CS rulebook quick reference", _CS_QR_EXCEPTION),
            ("DE quick reference (KSR)", _KSR_EXCEPTION),
            ("the reading", "'no other color' read for the card being led: these texts allow "
             "it, while the EN and DE rulebooks rule it out ('with any cards from your "
             "hand', 'für keine deiner verbliebenen Handkarten')"),
        ),
    },
    "color_loss": {
        "led": (
            ("EN rulebook", "If you declare a color which differs from the led color, remove "
             "the player token on your player board placed on the X space of the led color, "
             "if it is still present."),
            ("EN rulebook quick reference", "If you declare a color other than the led "
             "color, remove your player token of the led color on your player board"),
            ("DE rulebook", "musst du den Spielstein auf dem X bei der angespielten Farbe auf "
             "deinem Spieltableau entfernen"),
            ("CS rulebook", "musíte ze své desky hráče odebrat žeton překrývající X na "
             "aktuální barvě štychu"),
            ("DE quick reference (KSR)", "Sollte es nicht die angespielte Farbe sein, müssen "
             "sie ihren Marker der angespielten Farbe an ihrem Spieler-Farbplan entfernen"),
        ),
        "declared": (
            ("CS rulebook quick reference", "Pokud ohlásíte jinou barvu, než je barva štýchu, "
             "odeberte z desky hráče žeton překrývající X u této barvy, nachází-li se tam."),
        ),
    },
    "following": {
        "free": (
            ("EN rulebook", "Players who play a card after the starting player may declare any "
             "color (red, blue, yellow, or green), as long as it satisfies rule 1 and 2."),
            ("DE quick reference (KSR)", "Sie dürfen jegliche Farbe benennen, soweit sie diese "
             "auf ihrem Farbplan markiert haben."),
        ),
        "must-follow": (
            ("reviews and table talk", "must follow the led color if able, as in most "
             "trick-taking games (no rulebook says so)"),
        ),
    },
    "interrupted_trick": {
        "stay": (
            ("EN rulebook", "No player wins the trick that caused the paradox, but leave the "
             "tokens placed on the research board during that trick on the research board."),
            ("DE rulebook", "Eventuell in diesem Stich bereits auf den Forschungsplan gelegte "
             "Spielsteine bleiben jedoch dort liegen."),
        ),
        "removed": (
            ("a misreading of 'put aside the cards played in this trick'", "the tokens of the "
             "interrupted trick are taken off with the cards"),
        ),
    },
    "adjacency": {
        "orthogonal": (
            ("EN rulebook", "connected vertically or horizontally. Diagonal connection is not "
             "considered as adjacent."),
            ("DE rulebook", "die waage- und senkrecht zueinander benachbart ... liegen"),
        ),
        "diagonal": (("house rule", "diagonal neighbours also join a group"),),
    },
    "two_player_bonus": {
        "at-most-4": (
            ("EN rulebook", "When the round ends, if a player wins 4 or fewer tricks, that "
             "player receives a bonus score (unless they caused a paradox)."),
        ),
        "prediction": (
            ("comparison", "2 players predict 1-4 tricks and score the bonus on an exact "
             "prediction, as with 3-5 players"),
        ),
    },
}
