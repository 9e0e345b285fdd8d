"""The research board as bit masks: cell (color c, value v) at bit ``(v - 1) * 4 + c``, so
the four cells of one value form one nibble. Helpers on such masks (the positions and the
solvers share them)."""

from __future__ import annotations

from collections.abc import Iterable

from catbox_solver.model.rules import COLOR_CHARS


def cell_bit(value: int, color: int) -> int:
    """The mask of cell (color, value)."""
    return 1 << ((value - 1) * 4 + color)


def red_row(values: int) -> int:
    """Mask of the red cells of values 1..values."""
    return sum(1 << (4 * i) for i in range(values))


def board_mask(values: int) -> int:
    return (1 << (4 * values)) - 1


def cells_of(mask: int) -> Iterable[tuple[int, int]]:
    """The (color, value) cells of a board mask."""
    while mask:
        low = mask & -mask
        i = low.bit_length() - 1
        yield i & 3, (i >> 2) + 1
        mask ^= low


def largest_group(mask: int, row_order: str = "RBYG", diagonal: bool = False) -> int:
    """Size of the largest group of cells in ``mask`` connected orthogonally (or also
    diagonally), on a board whose rows top to bottom are ``row_order``."""
    row_of = {COLOR_CHARS.index(ch): r for r, ch in enumerate(row_order)}
    cells = {(row_of[c], v) for c, v in cells_of(mask)}
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    if diagonal:
        steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    best = 0
    while cells:
        stack = [cells.pop()]
        size = 0
        while stack:
            r, v = stack.pop()
            size += 1
            for dr, dv in steps:
                nb = (r + dr, v + dv)
                if nb in cells:
                    cells.remove(nb)
                    stack.append(nb)
        best = max(best, size)
    return best


__all__ = ["board_mask", "cell_bit", "cells_of", "largest_group", "red_row"]
