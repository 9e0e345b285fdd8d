"""Lines of play that finish a round with no paradox.

Random play almost never finishes a round (nearly every random round ends in a paradox), so
tests, benchmarks, the puzzle generator and the rule-readings search reach realistic
positions by a randomised depth-first search for a paradox-free finish, pruned by counting.
"""

from __future__ import annotations

import random

from catbox_solver.model.position import Play, Position, need_position


def hopeless(pos: Position) -> bool:
    """Counting cut-off (sound): no paradox-free finish exists from ``pos``.

    Every seat keeps one card and plays the rest; each play needs an empty cell of its value;
    an empty cell that no seat can fill (nobody holds the value with that color still
    declarable) stays empty; at the end exactly ``empty cells - plays left`` cells stay empty
    (0 with 3 and 4 players, 1 with 2 and 5)."""
    need_position(pos)
    rules = pos.rules
    held = [0] * (rules.values + 1)
    can = [0] * (rules.values + 1)
    for h, cols in zip(pos.hands, pos.colors, strict=True):
        for v in h:
            held[v] += 1
            can[v] |= cols
    plays_left = sum(held) - rules.players
    slack = rules.cells - bin(pos.used).count("1") - plays_left
    excess = deficit = 0
    for v in range(1, rules.values + 1):
        empty = ~pos.used >> (4 * v - 4) & 15
        free = bin(empty).count("1")
        if held[v] > free:
            excess += held[v] - free
        else:
            deficit += free - held[v]
        deficit += bin(empty & ~can[v]).count("1")
    return excess > rules.players or deficit > slack


def paradox_free_line(
    pos: Position,
    rng: random.Random | None = None,
    max_nodes: int = 20_000,
    avoid_red: bool = False,
) -> list[Play] | None:
    """Plays that finish the round from ``pos`` with no paradox, found depth first, or None
    when there is none or ``max_nodes`` positions were visited first. Followers try the led
    color first (it keeps their colors); ``rng`` shuffles the order within that;
    ``avoid_red`` tries red last, so that red stays unbroken longer."""
    need_position(pos)
    budget = [max_nodes]
    line: list[Play] = []

    def dfs(p: Position) -> bool:
        if p.tricks_left == 0:
            return True
        budget[0] -= 1
        if budget[0] < 0 or hopeless(p):
            return False
        plays = list(p.legal_plays())
        if rng is not None:
            rng.shuffle(plays)
        if p.trick:
            led = p.trick[0].color
            plays.sort(key=lambda pl: (avoid_red and pl.color == 0, pl.color != led))
        elif avoid_red:
            plays.sort(key=lambda pl: pl.color == 0)
        for play in plays:
            line.append(play)
            if dfs(p.after(play)):
                return True
            line.pop()
        return False

    return list(line) if dfs(pos) else None


def positions_along(pos: Position, plays: list[Play]) -> list[Position]:
    """``pos`` and the position after each play of ``plays`` (unchecked: plays from the
    engine's own legal lists)."""
    out = [pos]
    for play in plays:
        pos = pos.after(play)
        out.append(pos)
    return out
