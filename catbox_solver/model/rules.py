"""The Ruleset: player count, everything derived from it, and every interpretation switch.

The official reading of the rulebooks is the default of every switch; named presets give the
other readings found in the texts (see docs/rules.md and ../shared/RULES.md).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Final

from catbox_solver.errors import RulesetError

COLOR_CHARS: Final = "RBYG"
"""Colors by index: 0 red (trump), 1 blue, 2 yellow, 3 green."""
RED: Final = 0
BLUE: Final = 1
YELLOW: Final = 2
GREEN: Final = 3
ALL_COLORS: Final = 0b1111
COLOR_NAMES: Final = ("red", "blue", "yellow", "green")

# switch name -> allowed values, official first
SWITCHES: Final[dict[str, tuple[str, ...]]] = {
    # leader without broken red: "exception" = may lead red if no card has a legal non-red
    # play (rulebooks EN/DE/CS, DE quick reference); "never" = no red lead at all (EN quick
    # reference); "per-card" = a card may be led red if that card has no legal non-red color.
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
}

SWITCH_SOURCES: Final[dict[str, str]] = {
    "red_lead": "EN/DE/CS rulebooks and DE quick reference: red may be led if the leader "
    "cannot declare any other color; EN quick reference omits the exception",
    "color_loss": "EN/DE/CS rulebooks: remove the token on the X of the led color; "
    "CS quick reference: 'of this color' (the declared one)",
    "following": "all rulebooks: followers may declare any color; some reviews: must follow",
    "interrupted_trick": "all rulebooks: leave the tokens of the interrupted trick on the board",
    "adjacency": "all rulebooks: vertically or horizontally, not diagonally",
    "two_player_bonus": "rulebooks: 2 players score the bonus with 4 or fewer tricks",
}

PRESETS: Final[dict[str, dict[str, str]]] = {
    "official": {},
    "quickref-red-lead": {"red_lead": "never"},
    "per-card-red-lead": {"red_lead": "per-card"},
    "czech-color-loss": {"color_loss": "declared"},
    "must-follow": {"following": "must-follow"},
    "interrupted-removed": {"interrupted_trick": "removed"},
    "diagonal-bonus": {"adjacency": "diagonal"},
    "two-player-prediction": {"two_player_bonus": "prediction"},
}

DEFAULT_ROW_ORDER: Final = "RBYG"


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
        if not isinstance(self.players, int) or not 2 <= self.players <= 5:
            raise RulesetError(f"player count must be 2 to 5, not {self.players!r}")
        for name, allowed in SWITCHES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise RulesetError(
                    f"switch {name} has no value {value!r} (allowed: {', '.join(allowed)})"
                )
        if sorted(self.row_order) != sorted(COLOR_CHARS):
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
        """Build from a preset name, optionally followed by ``,switch=value`` overrides."""
        if not isinstance(spec, str) or not spec.strip():
            raise RulesetError("empty ruleset name")
        head, *rest = [part.strip() for part in spec.split(",")]
        if head not in PRESETS:
            raise RulesetError(
                f"unknown ruleset {head!r} (presets: {', '.join(PRESETS)})"
            )
        setting: dict[str, str] = dict(PRESETS[head])
        for part in rest:
            key, sep, value = part.partition("=")
            key = key.strip().replace("-", "_")
            if not sep or (key not in SWITCHES and key != "row_order"):
                raise RulesetError(f"bad ruleset switch {part!r} in {spec!r}")
            setting[key] = value.strip()
        known = {f.name for f in fields(cls)}
        assert set(setting) <= known
        return cls(players=players, **setting)

    def with_switches(self, **changes: Any) -> Ruleset:
        return replace(self, **changes)

    def __str__(self) -> str:
        return f"{self.players}p {self.name}"
