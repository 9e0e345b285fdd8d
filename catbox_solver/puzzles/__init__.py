"""Puzzles: TOML files (:mod:`.schema`), checking their answers with the solver
(:mod:`.check`), hints and explanations (:mod:`.explain`), making new ones
(:mod:`.generate`) and picking some (:mod:`.select`). The names below are the package's
surface."""

from catbox_solver.puzzles.check import (
    NODE_STEPS,
    PlayVerdict,
    PuzzleTimeout,
    Solution,
    rate_difficulty,
    replay_line,
    solve_puzzle,
)
from catbox_solver.puzzles.generate import THEME_QUESTION, THEMES, generate, random_line
from catbox_solver.puzzles.schema import (
    KINDS,
    PLAY_KINDS,
    Puzzle,
    PuzzleError,
    condition_text,
    load_puzzle,
    load_puzzles,
    parse_condition,
    puzzle_from_dict,
    puzzle_to_toml,
    toml_string,
)
from catbox_solver.puzzles.select import PuzzleFilter, parse_filter, select_puzzles

__all__ = [
    "KINDS",
    "NODE_STEPS",
    "PLAY_KINDS",
    "THEMES",
    "THEME_QUESTION",
    "PlayVerdict",
    "Puzzle",
    "PuzzleError",
    "PuzzleFilter",
    "PuzzleTimeout",
    "Solution",
    "condition_text",
    "generate",
    "load_puzzle",
    "load_puzzles",
    "parse_condition",
    "parse_filter",
    "puzzle_from_dict",
    "puzzle_to_toml",
    "random_line",
    "rate_difficulty",
    "replay_line",
    "select_puzzles",
    "solve_puzzle",
    "toml_string",
]
