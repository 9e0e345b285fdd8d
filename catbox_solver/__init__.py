"""catbox-solver: exact rules, double-dummy search and constraint solving for Cat in the Box."""

from catbox_solver.errors import (
    CatboxError,
    IllegalPlayError,
    NotationError,
    PositionError,
    RecordError,
    RulesetError,
)
from catbox_solver.model.position import Play, Position
from catbox_solver.model.rules import PRESETS, SWITCHES, Ruleset

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "SWITCHES",
    "CatboxError",
    "IllegalPlayError",
    "NotationError",
    "Play",
    "Position",
    "PositionError",
    "RecordError",
    "Ruleset",
    "RulesetError",
]
