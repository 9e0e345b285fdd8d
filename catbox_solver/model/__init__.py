"""The formal model of a round: rules, positions, plays, scoring, notation."""

from catbox_solver.model.position import Play, Position
from catbox_solver.model.rules import PRESETS, SWITCHES, Color, Ruleset

__all__ = ["PRESETS", "SWITCHES", "Color", "Play", "Position", "Ruleset"]
