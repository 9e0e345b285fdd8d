"""The ``catbox`` command line: a thin layer that parses arguments, calls the library, prints.

Each family of commands lives in its own module and registers on :data:`main` here.
"""

from __future__ import annotations

import importlib

from catbox_solver.cli.common import main

# command modules register their commands on ``main`` when imported; a module that fails to
# import is an error, never a command quietly missing from the CLI
for _name in (
    "position_cmds",
    "game_cmds",
    "solve_cmds",
    "odds_cmds",
    "cpsat_cmds",
    "rules_cmds",
    "puzzle_group",
    "puzzle_cmds",
    "render_cmds",
    "annotate_cmds",
    "tournament_cmds",
    "survey_cmds",
):
    importlib.import_module(f"catbox_solver.cli.{_name}")

__all__ = ["main"]
