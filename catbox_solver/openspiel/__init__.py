"""Cat in the Box in OpenSpiel: importing this package registers the Python game
``python_cat_in_the_box`` (load it with ``pyspiel.load_game("python_cat_in_the_box",
{"players": 4})``); :func:`position_of` gives the engine's Position of a state.

Needs the ``openspiel`` extra (``pip install catbox-solver[openspiel]``).
"""

from __future__ import annotations

from typing import Any

import pyspiel

from catbox_solver.model.position import Position
from catbox_solver.openspiel.game import (
    GAME_TYPE,
    SHORT_NAME,
    CatInTheBoxGame,
    CatInTheBoxState,
    action_play,
    action_text,
    play_action,
)


def position_of(state: Any) -> Position | None:
    """The engine's Position of a ``python_cat_in_the_box`` state in the play phase, and of
    the terminal state (the last round's final position); None before the first lead (and
    between two rounds of a game). SpielError for a state of another game."""
    if not isinstance(state, CatInTheBoxState):
        name = state.get_game().get_type().short_name if isinstance(state, pyspiel.State) \
            else type(state).__name__
        raise pyspiel.SpielError(f"position_of needs a {SHORT_NAME} state, not one of {name}")
    r = state.round
    if r.position is None or r.predictions is not None and None in r.predictions:
        return None
    return r.position


if SHORT_NAME not in pyspiel.registered_names():
    pyspiel.register_game(GAME_TYPE, CatInTheBoxGame)

__all__ = [
    "SHORT_NAME",
    "CatInTheBoxGame",
    "CatInTheBoxState",
    "action_play",
    "action_text",
    "play_action",
    "position_of",
]
