"""The ``catbox`` command line: a thin layer that parses arguments, calls the library, prints.

Each family of commands lives in its own module and registers on :data:`main` here.
"""

from __future__ import annotations

import importlib

from catbox_solver.cli.common import main

# command modules register their commands on ``main`` when imported; a module not written
# yet is skipped so the CLI keeps working while the project grows
for _name in (
    "position_cmds",
    "game_cmds",
    "solve_cmds",
    "cpsat_cmds",
    "rules_cmds",
    "puzzle_group",
    "puzzle_cmds",
    "render_cmds",
):
    try:
        importlib.import_module(f"catbox_solver.cli.{_name}")
    except ModuleNotFoundError as _exc:
        if _exc.name != f"catbox_solver.cli.{_name}":
            raise

__all__ = ["main"]
