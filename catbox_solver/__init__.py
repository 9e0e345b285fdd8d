"""catbox-solver: exact rules, double-dummy search and constraint solving for Cat in the Box.

The game (:class:`Position`, :class:`Play`, :class:`Color`, :class:`Ruleset`) and the
errors load at once; the solvers (``solve``, ``dd_table``, ``exists``, ``prove``, ...) load
when first used, so that ``import catbox_solver`` does not start numba or OR-Tools.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from catbox_solver.errors import (
    ArgumentError,
    ArgumentTypeError,
    CatboxError,
    IllegalPlayError,
    NotationError,
    PositionError,
    RecordError,
    RulesetError,
    SearchError,
)
from catbox_solver.model.position import Play, Position
from catbox_solver.model.rules import PRESETS, SWITCHES, Color, Ruleset
from catbox_solver.questions import Question
from catbox_solver.version import __version__ as __version__

if TYPE_CHECKING:  # (for type checkers; at run time they load on first use, below)
    from catbox_solver.cpsat.exists import ExistsAnswer as ExistsAnswer
    from catbox_solver.cpsat.exists import exists as exists
    from catbox_solver.cpsat.proofs import ProofResult as ProofResult
    from catbox_solver.cpsat.proofs import prove as prove
    from catbox_solver.dd.answer import Answer as Answer
    from catbox_solver.dd.answer import DDTable as DDTable
    from catbox_solver.dd.answer import PlayResult as PlayResult
    from catbox_solver.dd.hidden import single_dummy as single_dummy
    from catbox_solver.dd.solve import dd_table as dd_table
    from catbox_solver.dd.solve import solve as solve
    from catbox_solver.dd.solve import value_only as value_only
    from catbox_solver.dd.threads import StopSignal as StopSignal
    from catbox_solver.dd.warmup import warm_up as warm_up
    from catbox_solver.formats.files import load_positions as load_positions


_LAZY = {
    "Answer": "catbox_solver.dd.answer",
    "DDTable": "catbox_solver.dd.answer",
    "PlayResult": "catbox_solver.dd.answer",
    "StopSignal": "catbox_solver.dd.threads",
    "warm_up": "catbox_solver.dd.warmup",
    "dd_table": "catbox_solver.dd.solve",
    "solve": "catbox_solver.dd.solve",
    "value_only": "catbox_solver.dd.solve",
    "single_dummy": "catbox_solver.dd.hidden",
    "ExistsAnswer": "catbox_solver.cpsat.exists",
    "exists": "catbox_solver.cpsat.exists",
    "ProofResult": "catbox_solver.cpsat.proofs",
    "prove": "catbox_solver.cpsat.proofs",
    "load_positions": "catbox_solver.formats.files",
}


def __getattr__(name: str) -> Any:
    """The solvers' names, imported when first asked for (then kept in the module)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'catbox_solver' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "PRESETS",
    "SWITCHES",
    "Answer",
    "ArgumentError",
    "ArgumentTypeError",
    "CatboxError",
    "Color",
    "DDTable",
    "ExistsAnswer",
    "IllegalPlayError",
    "NotationError",
    "Play",
    "PlayResult",
    "Position",
    "PositionError",
    "ProofResult",
    "Question",
    "RecordError",
    "Ruleset",
    "RulesetError",
    "SearchError",
    "StopSignal",
    "dd_table",
    "exists",
    "load_positions",
    "prove",
    "single_dummy",
    "solve",
    "value_only",
    "warm_up",
]
