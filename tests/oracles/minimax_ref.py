"""A plain minimax over Position, written separately from catbox_solver.dd.solve: no
pruning, no table, no symmetry, no lean state. It is the reference the double-dummy search
is compared with (tests/test_dd.py)."""

from __future__ import annotations

from catbox_solver.model.position import Position


def terminal_value(pos: Position, hero: int, question: str) -> int | bool:
    """The value of a finished round or a paradox position, straight from Position."""
    if question == "table":
        return not pos.is_paradox
    if question == "paradox":
        return pos.paradox_by != hero
    if question == "tricks":
        return pos.trick_points(hero)
    if question == "score":
        return pos.scores()[hero]
    raise ValueError(question)


def minimax(pos: Position, hero: int, question: str) -> int | bool:
    """The exact value of ``question`` for ``hero``: the hero maximises, every other seat
    minimises (paranoid); ``table`` is cooperative (everyone maximises)."""
    plays = pos.legal_plays()
    if not plays:
        return terminal_value(pos, hero, question)
    values = [minimax(pos.play(p), hero, question) for p in plays]
    if question == "table" or pos.to_move == hero:
        return max(values)
    return min(values)


def play_values(pos: Position, hero: int, question: str) -> list[tuple[str, int | bool]]:
    """The value after each legal play of the player to move, as (play text, value)."""
    return [(p.text, minimax(pos.play(p), hero, question)) for p in pos.legal_plays()]


def tree_size(pos: Position, limit: int) -> int:
    """Number of positions in the full game tree, counting stops at ``limit``."""
    count = 0
    stack = [pos]
    while stack and count < limit:
        q = stack.pop()
        count += 1
        stack.extend(q.after(p) for p in q.legal_plays())
    return count


def paradox_distance(pos: Position, hero: int) -> float:
    """Plays until the hero's paradox when the others hurry it and the hero puts it off
    (infinity when the hero can avoid it): the plain reference for
    catbox_solver.dd.forced, by full minimax with no table."""
    plays = pos.legal_plays()
    if not plays:
        return 0 if pos.paradox_by == hero else float("inf")
    values = [1 + paradox_distance(pos.play(p), hero) for p in plays]
    return max(values) if pos.to_move == hero else min(values)
