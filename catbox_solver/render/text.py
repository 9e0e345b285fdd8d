"""Plain-text rendering of a position for the terminal.

The research board is drawn as the grid players see: one row per color in the ruleset's row
order, one column per value, each token as the seat digit that owns it, ``N`` for a neutral
token and ``#`` for the covered column (6 with 2 players, 9 with 4). Below it: each seat's
hand, remaining colors, tricks won and prediction, the trick in progress, who is to move,
and at the end of a round the paradox (if any) and the scores. ANSI colors only on request.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from catbox_solver.errors import PositionError
from catbox_solver.model.position import Play, Position, cell_bit, need_position
from catbox_solver.model.rules import COLOR_CHARS, COLOR_NAMES, Ruleset

if TYPE_CHECKING:  # (the games' view, drawn here for the terminal game)
    from catbox_solver.games.bots import PlayerView

__all__ = ["board_lines", "render_text", "render_view"]

_ANSI = {"R": "\x1b[31m", "B": "\x1b[34m", "Y": "\x1b[33m", "G": "\x1b[32m"}
_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"


def _paint(text: str, code: str, ansi: bool) -> str:
    return f"{code}{text}{_RESET}" if ansi else text


def _colors_cell(mask: int) -> str:
    """Remaining colors aligned under RBYG, a lost color as '-': 'R-YG'."""
    return "".join(ch if mask >> i & 1 else "-" for i, ch in enumerate(COLOR_CHARS))


def board_lines(
    rules: Ruleset, owners: Sequence[int], neutral: int, ansi: bool = False
) -> list[str]:
    """The research board as text rows (ruleset's row order, covered column as '#'), from
    each seat's token mask and the neutral tokens: what any player at the table sees."""
    last = rules.covered_value or rules.values
    lines = ["     " + " ".join(str(v) for v in range(1, last + 1))]
    for ch in rules.row_order:
        color = COLOR_CHARS.index(ch)
        cells = []
        for v in range(1, rules.values + 1):
            bit = cell_bit(v, color)
            owner = next((s for s, m in enumerate(owners) if m & bit), None)
            cells.append("N" if neutral & bit else "." if owner is None else str(owner))
        if rules.covered_value is not None:
            cells.append("#")
        label = _paint(ch, _ANSI[ch], ansi)
        lines.append(f"  {label}  " + " ".join(cells))
    return lines


def _seat_lines(pos: Position, ansi: bool) -> list[str]:
    rules = pos.rules
    n = rules.players
    hands = [" ".join(map(str, h)) or "-" for h in pos.hands]
    width = max(4, *(len(h) for h in hands))
    show_bids = pos.predictions is not None
    header = f"  seat  {'hand'.ljust(width)}  colors  won"
    if show_bids:
        header += "  bid"
    lines = [header]
    over = pos.is_over
    for seat in range(n):
        line = f"  {seat:>4}  {hands[seat].ljust(width)}  {_colors_cell(pos.colors[seat])}    "
        line += f"{pos.tricks_won[seat]:>3}"
        if pos.predictions is not None:
            pred = pos.predictions[seat]
            line += f"  {'?' if pred is None else pred:>3}"
        if not over and seat == pos.to_move:
            line += "  " + _paint("<- to move", _BOLD, ansi)
        lines.append(line.rstrip())
    return lines


def _trick_line(pos: Position) -> str:
    rules = pos.rules
    n = rules.players
    number = rules.tricks - pos.tricks_left + 1
    parts = [
        f"seat {(pos.leader + i) % n} {play.text}" + (" (led)" if i == 0 else "")
        for i, play in enumerate(pos.trick)
    ]
    if not parts:
        return f"trick {number} of {rules.tricks}: seat {pos.leader} leads"
    return f"trick {number} of {rules.tricks}: " + ", ".join(parts)


def _score_lines(pos: Position) -> list[str]:
    # (trick points: -t for the seat that caused a paradox, while "won" above shows t)
    lines = ["  seat  points  bonus  score"]
    for seat in range(pos.rules.players):
        points = pos.trick_points(seat)
        try:
            bonus: int | None = pos.bonus(seat)
        except PositionError:  # unknown prediction: the bonus cannot be scored
            bonus = None
        score = "?" if bonus is None else str(points + bonus)
        lines.append(
            f"  {seat:>4}  {points:>6}  {'?' if bonus is None else bonus:>5}  {score:>5}"
        )
    return lines


def render_text(pos: Position, ansi: bool = False) -> str:
    """A readable multi-line picture of ``pos`` (no trailing newline); ``ansi`` colors the
    row labels and highlights the player to move."""
    need_position(pos)
    rules = pos.rules
    title = f"{rules.players} players, ruleset {rules.name}"
    row_names = ", ".join(COLOR_NAMES[COLOR_CHARS.index(ch)] for ch in rules.row_order)
    lines = [title, f"research board (rows {row_names}; columns are values)"]
    lines += board_lines(pos.rules, pos.owners, pos.neutral, ansi)
    lines.append("")
    lines += _seat_lines(pos, ansi)
    lines.append("")
    if pos.is_paradox:
        if pos.trick:
            lines.append(_trick_line(pos))
        lines.append(
            _paint(
                f"PARADOX: seat {pos.to_move} has no legal play; the round is over",
                _BOLD,
                ansi,
            )
        )
    elif pos.tricks_left == 0:
        lines.append(f"round over: all {rules.tricks} tricks played")
    else:
        lines.append(_trick_line(pos))
        lines.append(f"to move: seat {pos.to_move}")
    if pos.is_over:
        lines.append("")
        lines.append("scores")
        lines += _score_lines(pos)
    return "\n".join(lines)


def render_view(view: PlayerView) -> str:
    """What the player at ``view.seat`` sees: the board, own hand, everyone's colors, tricks,
    predictions and the trick in progress (other hands only as card counts)."""
    rules = view.rules
    n = rules.players
    lines = board_lines(rules, view.owners, view.neutral)
    lines.append("")
    cards = view.tricks_left + 1
    in_trick = {(view.leader + i) % n for i in range(len(view.trick))}
    for seat in range(n):
        mask = view.colors[seat]
        colors = "".join(ch if mask >> i & 1 else "-" for i, ch in enumerate(COLOR_CHARS))
        held = cards - (1 if seat in in_trick else 0)
        hand = " ".join(map(str, view.hand)) if seat == view.seat else f"{held} cards"
        line = f"  seat {seat}{' (you)' if seat == view.seat else '      '}  {colors}  "
        line += f"won {view.tricks_won[seat]}"
        if view.predictions is not None:
            bid = view.predictions[seat]
            line += f"  bid {'?' if bid is None else bid}"
        lines.append(f"{line}  {hand}")
    number = rules.tricks - view.tricks_left + 1
    plays = ", ".join(
        f"seat {(view.leader + i) % n} {p.text}" for i, p in enumerate(view.trick)
    )
    lines.append("")
    lines.append(f"trick {number} of {rules.tricks}: " + (plays or f"seat {view.leader} leads"))
    return "\n".join(lines)


def line_text(pos: Position, line: Sequence[Play]) -> str:
    """Plays in notation, tricks separated by ``|`` with their winner; a paradox at the end
    is named."""
    parts: list[str] = []
    cur: list[str] = []
    for play in line:
        cur.append(play.text)
        left = pos.tricks_left
        pos = pos.after(play)
        if pos.tricks_left < left:
            parts.append(" ".join(cur) + f" (seat {pos.leader} wins)")
            cur = []
    if cur:
        parts.append(" ".join(cur))
    text = " | ".join(parts)
    if pos.is_paradox:
        text += f" -- seat {pos.paradox_by} has no legal play: paradox"
    return text
