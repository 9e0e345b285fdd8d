"""A position as an SVG picture: research board, trick in progress, hands, colors, tricks won.

The picture is built for printing as well as for screens, so nothing relies on color alone:

- the research board has one row per color in the ruleset's row order, each row labelled
  with its letter (R, B, Y, G) and lightly tinted; the columns are the values, and the
  covered column (6 with 2 players, 9 with 4) is hatched and marked "covered";
- a player's token is a disc in that seat's color *with the seat number on it*; the seat
  colors (purple, orange, magenta, brown, charcoal) are chosen apart from the four board
  colors so a token is never read as a declared color; a neutral token (2 players) is a grey
  square marked "N";
- the trick in progress is a row of cards, each with its seat, value and declared color
  (a band with the color letter), the led card and the card winning so far labelled;
- each seat's hand is a row of small cards; the four colors show as lettered squares, a lost
  color crossed out; then tricks won, the prediction, and who is to move, who caused the
  paradox, or the scores when the round is over.

The output is plain SVG 1.1 text with no external resources (generic font family only), no
ids and no style sheet (so many pictures can sit inline in one HTML page), and is
deterministic: the same position gives the same bytes.
"""

from __future__ import annotations

from html import escape

from catbox_solver.errors import PositionError
from catbox_solver.model.numbers import is_number, is_whole
from catbox_solver.model.position import Position, need_position, trick_winner_index
from catbox_solver.model.rules import COLOR_CHARS, COLOR_NAMES, RED

__all__ = ["NEUTRAL_COLOR", "ROW_COLORS", "SEAT_COLORS", "SEAT_COLOR_NAMES", "position_svg"]

#: Saturated board colors (row labels, card bands) by color index R, B, Y, G.
ROW_COLORS: tuple[str, ...] = ("#d62728", "#1f5fbf", "#f2c500", "#2e8b3a")
#: Pale tints of the board colors for the cells of each row.
ROW_TINTS: tuple[str, ...] = ("#fbe2e2", "#e0eafa", "#fdf5cf", "#e0f2e3")
#: Text color on each saturated board color (black on yellow, white elsewhere).
ROW_INK: tuple[str, ...] = ("#ffffff", "#ffffff", "#000000", "#ffffff")
#: Token colors of seats 0-4, none of them a board color.
SEAT_COLORS: tuple[str, ...] = ("#7b3294", "#e66101", "#c51b7d", "#8c510a", "#3a3a3a")
SEAT_COLOR_NAMES: tuple[str, ...] = ("purple", "orange", "magenta", "brown", "charcoal")
NEUTRAL_COLOR = "#b8b8b8"

WIDTH = 720
_MARGIN = 16
_CELL = 40
_BOARD_X = 60  # left edge of column 1
_BOARD_Y = 78  # top edge of the first row
_TRICK_X = 444  # left edge of the trick panel
_CARD_W = 46
_CARD_H = 64
_HAND_X = 60
_HAND_W = 22
_HAND_H = 30
_COLORS_X = 318
_WON_X = 442
_BID_X = 492
_SCORE_X = 528
_STATUS_X = 606
_SEAT_ROW_H = 40
_INK = "#1a1a1a"
_MUTED = "#6b6b6b"


def _attrs(**attrs: object) -> str:
    """Attributes in the given order, names with '_' written as '-', values escaped."""
    return "".join(
        f' {name.rstrip("_").replace("_", "-")}="{escape(str(value), quote=True)}"'
        for name, value in attrs.items()
        if value is not None
    )


def _text(x: int, y: int, content: str, size: int = 12, **attrs: object) -> str:
    return f"<text{_attrs(x=x, y=y, font_size=size, **attrs)}>{escape(content)}</text>"


def _rect(x: int, y: int, w: int, h: int, **attrs: object) -> str:
    return f"<rect{_attrs(x=x, y=y, width=w, height=h, **attrs)}/>"


def _line(x1: int, y1: int, x2: int, y2: int, **attrs: object) -> str:
    return f"<line{_attrs(x1=x1, y1=y1, x2=x2, y2=y2, **attrs)}/>"


def _seat_token(cx: int, cy: int, seat: int, r: int = 14) -> list[str]:
    """A player's token: a disc in the seat color with the seat number on it."""
    return [
        f"<circle{_attrs(cx=cx, cy=cy, r=r, fill=SEAT_COLORS[seat], stroke=_INK)}"
        ' stroke-width="1.5"/>',
        _text(
            cx,
            cy + r // 2 - (1 if r < 12 else 0),  # baseline that centres the digit
            str(seat),
            size=r + r // 3,
            fill="#ffffff",
            font_weight="bold",
            text_anchor="middle",
        ),
    ]


def _neutral_token(cx: int, cy: int, half: int = 13) -> list[str]:
    """A neutral token: a grey square marked N."""
    return [
        _rect(
            cx - half,
            cy - half,
            2 * half,
            2 * half,
            rx=3,
            fill=NEUTRAL_COLOR,
            stroke=_INK,
            stroke_width="1.5",
        ),
        _text(
            cx,
            cy + half // 2 + 1,
            "N",
            size=half + 3,
            fill=_INK,
            font_weight="bold",
            text_anchor="middle",
        ),
    ]


def _hatch(x: int, y: int, w: int, h: int) -> list[str]:
    """A covered cell: grey with diagonal lines (drawn one by one: no pattern ids)."""
    out = [_rect(x, y, w, h, fill="#d9d9d9", stroke=_MUTED)]
    for d in range(8, w + h, 8):
        x1, y1 = x + min(d, w), y + max(0, d - w)
        x2, y2 = x + max(0, d - h), y + min(d, h)
        out.append(_line(x1, y1, x2, y2, stroke="#8c8c8c", stroke_width="1"))
    return out


def _color_chip(x: int, y: int, color: int, kept: bool, size: int = 20) -> list[str]:
    """One of a seat's four colors: a lettered square, crossed out when lost."""
    letter = COLOR_CHARS[color]
    mid = x + size // 2
    if kept:
        return [
            _rect(x, y, size, size, rx=3, fill=ROW_COLORS[color], stroke=_INK),
            _text(
                mid,
                y + size - 5,
                letter,
                size=13,
                fill=ROW_INK[color],
                font_weight="bold",
                text_anchor="middle",
            ),
        ]
    return [
        _rect(x, y, size, size, rx=3, fill="#ffffff", stroke=_MUTED, stroke_dasharray="2 2"),
        _text(mid, y + size - 5, letter, size=13, fill=_MUTED, text_anchor="middle"),
        _line(x + 2, y + 2, x + size - 2, y + size - 2, stroke=_INK, stroke_width="2"),
        _line(x + size - 2, y + 2, x + 2, y + size - 2, stroke=_INK, stroke_width="2"),
    ]


def _header(pos: Position, status: str) -> list[str]:
    rules = pos.rules
    out = [_text(_MARGIN, 32, status, size=18, fill=_INK, font_weight="bold")]
    out.append(
        _text(
            WIDTH - _MARGIN,
            32,
            f"{rules.players} players · {rules.name}",
            size=12,
            fill=_MUTED,
            text_anchor="end",
        )
    )
    return out


def _board(pos: Position) -> list[str]:
    """The research board: row labels, column numbers, tinted cells, tokens, covered column."""
    rules = pos.rules
    covered = rules.covered_value
    columns = covered or rules.values
    out = [_text(_BOARD_X, 58, "Research board", size=13, fill=_INK, font_weight="bold")]
    for v in range(1, columns + 1):
        cx = _BOARD_X + (v - 1) * _CELL + _CELL // 2
        out.append(_text(cx, _BOARD_Y - 5, str(v), size=12, fill=_INK, text_anchor="middle"))
    for row, ch in enumerate(rules.row_order):
        color = COLOR_CHARS.index(ch)
        y = _BOARD_Y + row * _CELL
        out.append(_rect(_MARGIN, y + 4, 32, _CELL - 8, rx=4, fill=ROW_COLORS[color], stroke=_INK))
        out.append(
            _text(
                _MARGIN + 16,
                y + 26,
                ch,
                size=16,
                fill=ROW_INK[color],
                font_weight="bold",
                text_anchor="middle",
            )
        )
        for v in range(1, rules.values + 1):
            x = _BOARD_X + (v - 1) * _CELL
            out.append(_rect(x, y, _CELL, _CELL, fill=ROW_TINTS[color], stroke=_MUTED))
            owner = pos.owner_of(v, color)
            if owner is None:
                continue
            cx, cy = x + _CELL // 2, y + _CELL // 2
            out += _neutral_token(cx, cy) if owner == -1 else _seat_token(cx, cy, owner)
        if covered is not None:
            out += _hatch(_BOARD_X + (covered - 1) * _CELL, y, _CELL, _CELL)
    bottom = _BOARD_Y + 4 * _CELL
    right = _BOARD_X + columns * _CELL
    out.append(
        _rect(
            _BOARD_X,
            _BOARD_Y,
            right - _BOARD_X,
            bottom - _BOARD_Y,
            fill="none",
            stroke=_INK,
            stroke_width="1.5",
        )
    )
    if covered is not None:
        out.append(
            _text(
                _BOARD_X + (covered - 1) * _CELL + _CELL // 2,
                bottom + 14,
                "covered",
                size=10,
                fill=_MUTED,
                text_anchor="middle",
            )
        )
    return out


def _legend(pos: Position, y: int) -> list[str]:
    """What the shapes mean, so a printed sheet explains itself."""
    out = [*_seat_token(_MARGIN + 10, y, 0, r=9)]
    out.append(_text(_MARGIN + 24, y + 4, "token of seat 0", size=11, fill=_INK))
    x = _MARGIN + 130
    if pos.rules.players == 2:
        out += _neutral_token(x + 9, y, half=9)
        out.append(_text(x + 23, y + 4, "neutral token", size=11, fill=_INK))
        x += 112
    out += _color_chip(x, y - 9, RED, False, size=18)
    out.append(_text(x + 24, y + 4, "color lost", size=11, fill=_INK))
    return out


def _card(x: int, y: int, value: int, color: int) -> list[str]:
    """A played card: value large, declared color as a lettered band on top."""
    return [
        _rect(x, y, _CARD_W, _CARD_H, rx=5, fill="#ffffff", stroke=_INK, stroke_width="1.5"),
        _rect(x + 1, y + 1, _CARD_W - 2, 17, rx=4, fill=ROW_COLORS[color]),
        _text(
            x + _CARD_W // 2,
            y + 14,
            COLOR_NAMES[color],
            size=11,
            fill=ROW_INK[color],
            font_weight="bold",
            text_anchor="middle",
        ),
        _text(
            x + _CARD_W // 2,
            y + 50,
            str(value),
            size=26,
            fill=_INK,
            font_weight="bold",
            text_anchor="middle",
        ),
    ]


def _trick(pos: Position) -> list[str]:
    """The trick in progress: seat, card and role (led, winning) of every play so far."""
    rules = pos.rules
    n = rules.players
    number = pos.tricks_played + 1
    out: list[str] = []
    if pos.tricks_left == 0:
        out.append(
            _text(
                _TRICK_X,
                58,
                f"All {rules.tricks} tricks played",
                size=13,
                fill=_INK,
                font_weight="bold",
            )
        )
        return out
    out.append(
        _text(
            _TRICK_X,
            58,
            f"Trick {number} of {rules.tricks}",
            size=13,
            fill=_INK,
            font_weight="bold",
        )
    )
    if not pos.trick:
        out.append(_text(_TRICK_X, 100, f"seat {pos.leader} leads", size=14, fill=_INK))
    else:
        winner = trick_winner_index(pos.trick)
        for i, play in enumerate(pos.trick):
            x = _TRICK_X + i * (_CARD_W + 6)
            seat = (pos.leader + i) % n
            out.append(
                _text(
                    x + _CARD_W // 2, 92, f"seat {seat}", size=11, fill=_INK, text_anchor="middle"
                )
            )
            out += _card(x, 98, play.value, play.color)
            if i == 0:
                out.append(
                    _text(
                        x + _CARD_W // 2,
                        178,
                        "led",
                        size=11,
                        fill=_INK,
                        font_weight="bold",
                        text_anchor="middle",
                    )
                )
            if i == winner and not pos.is_paradox:
                out.append(
                    _text(
                        x + _CARD_W // 2,
                        192,
                        "winning",
                        size=11,
                        fill=_INK,
                        font_style="italic",
                        text_anchor="middle",
                    )
                )
        led = COLOR_NAMES[pos.trick[0].color]
        out.append(_text(_TRICK_X, 214, f"led color: {led}", size=12, fill=_INK))
    broken = "red is broken" if pos.red_broken else "red not broken yet"
    out.append(_text(_TRICK_X, 232, broken, size=12, fill=_MUTED))
    if pos.is_paradox and pos.trick:
        out.append(_text(_TRICK_X, 250, "interrupted: nobody wins this trick", size=12, fill=_INK))
    return out


def _status(pos: Position) -> str:
    """The one-line headline: who is to move, the paradox, or the end of the round."""
    if pos.is_paradox:
        return f"PARADOX: seat {pos.to_move} has no legal play"
    if pos.tricks_left == 0:
        return f"Round over: all {pos.rules.tricks} tricks played"
    return f"Seat {pos.to_move} to move"


def _score_text(pos: Position, seat: int) -> str:
    """'5 = 3 + 2': round score = trick points + bonus ('?' for an unknown prediction)."""
    points = pos.trick_points(seat)
    try:
        bonus = pos.bonus(seat)
    except PositionError:  # unknown prediction: no bonus can be scored
        return f"? = {points} + ?"
    return f"{points + bonus} = {points} + {bonus}"


def _seats(pos: Position, top: int, hero: int | None) -> list[str]:
    """One row per seat: token, hand as cards, colors, tricks won, prediction, status."""
    rules = pos.rules
    n = rules.players
    over = pos.is_over
    out = [
        _text(_MARGIN, top, "seat", size=11, fill=_MUTED),
        _text(_HAND_X, top, "hand", size=11, fill=_MUTED),
        _text(_COLORS_X, top, "colors", size=11, fill=_MUTED),
        _text(_WON_X, top, "won", size=11, fill=_MUTED, text_anchor="middle"),
    ]
    if over:
        out.append(_text(_SCORE_X, top, "score = tricks + bonus", size=11, fill=_MUTED))
    if pos.predictions is not None:
        out.append(_text(_BID_X, top, "bid", size=11, fill=_MUTED, text_anchor="middle"))
    elif n == 2 and rules.two_player_bonus == "at-most-4":
        out.append(_text(_BID_X, top, "bonus if", size=11, fill=_MUTED, text_anchor="middle"))
    for seat in range(n):
        y = top + 8 + seat * _SEAT_ROW_H
        mid = y + _SEAT_ROW_H // 2
        moving = not over and seat == pos.to_move
        # a frame around the seat to move (filled) or the paradox causer (dashed)
        frame: dict[str, str] | None = None
        if moving:
            frame = {"fill": "#fff3c4", "stroke": _INK, "stroke_width": "1.5"}
        elif seat == pos.paradox_by:
            frame = {
                "fill": "#ffffff",
                "stroke": _INK,
                "stroke_width": "2.5",
                "stroke_dasharray": "6 3",
            }
        if frame is not None:
            out.append(
                _rect(
                    _MARGIN - 6,
                    y + 2,
                    WIDTH - 2 * _MARGIN + 12,
                    _SEAT_ROW_H - 4,
                    rx=6,
                    **frame,
                )
            )
        out += _seat_token(_MARGIN + 16, mid, seat)
        hand = pos.hands[seat]
        if not hand:
            out.append(_text(_HAND_X, mid + 5, "no cards", size=12, fill=_MUTED))
        for i, value in enumerate(hand):
            x = _HAND_X + i * (_HAND_W + 3)
            out.append(
                _rect(x, mid - _HAND_H // 2, _HAND_W, _HAND_H, rx=3, fill="#ffffff", stroke=_INK)
            )
            out.append(
                _text(
                    x + _HAND_W // 2,
                    mid + 6,
                    str(value),
                    size=15,
                    fill=_INK,
                    font_weight="bold",
                    text_anchor="middle",
                )
            )
        for color in range(4):
            kept = bool(pos.colors[seat] >> color & 1)
            out += _color_chip(_COLORS_X + color * 24, mid - 10, color, kept)
        out.append(
            _text(
                _WON_X,
                mid + 6,
                str(pos.tricks_won[seat]),
                size=16,
                fill=_INK,
                font_weight="bold",
                text_anchor="middle",
            )
        )
        if pos.predictions is not None:
            bid = pos.predictions[seat]
            out.append(
                _text(
                    _BID_X,
                    mid + 6,
                    "?" if bid is None else str(bid),
                    size=16,
                    fill=_INK,
                    text_anchor="middle",
                )
            )
        elif n == 2 and rules.two_player_bonus == "at-most-4":
            out.append(
                _text(_BID_X, mid + 5, "≤ 4 won", size=12, fill=_MUTED, text_anchor="middle")
            )
        notes: list[str] = []
        if moving:
            notes.append("◀ to move")
        if seat == pos.paradox_by:
            notes.append("PARADOX")
        if seat == hero:
            notes.append("hero")
        if notes:
            out.append(
                _text(_STATUS_X, mid + 5, ", ".join(notes), size=12, fill=_INK, font_weight="bold")
            )
        if over:
            out.append(_text(_SCORE_X, mid + 5, _score_text(pos, seat), size=13, fill=_INK))
    return out


def _summary(pos: Position) -> str:
    """A plain-text description for screen readers (the SVG's title)."""
    rules = pos.rules
    parts = [f"Cat in the Box, {rules.players} players, ruleset {rules.name}.", _status(pos) + "."]
    if pos.trick:
        plays = ", ".join(
            f"seat {(pos.leader + i) % rules.players} {p.text}" for i, p in enumerate(pos.trick)
        )
        parts.append(f"Trick so far: {plays}.")
    hands = "; ".join(
        f"seat {s}: {' '.join(map(str, h)) or 'none'}" for s, h in enumerate(pos.hands)
    )
    parts.append(f"Hands: {hands}.")
    return " ".join(parts)


MAX_SIZE = 100_000
"""The widest picture drawn, in pixels."""


def position_svg(pos: Position, size: int | None = None, *, hero: int | None = None) -> str:
    """The picture of ``pos`` as SVG text.

    ``size`` is the rendered width in pixels (the height follows the picture's proportions);
    None leaves the natural size of 720 units wide. ``hero`` marks one seat as the player a
    puzzle asks about.
    """
    need_position(pos)
    if size is not None and (not is_number(size) or not 0 < size <= MAX_SIZE):  # (NaN too)
        raise PositionError(
            f"picture size must be a number of pixels above 0, at most {MAX_SIZE}, not {size!r}"
        )
    n = pos.rules.players
    if hero is not None and (not is_whole(hero) or not 0 <= hero < n):  # (True was seat 1)
        raise PositionError(f"hero seat {hero} is not a seat of a {n}-player position")
    board_bottom = _BOARD_Y + 4 * _CELL
    legend_y = board_bottom + 30
    seats_top = legend_y + 34
    height = seats_top + 8 + n * _SEAT_ROW_H + _MARGIN
    if size is None:
        width_px, height_px = WIDTH, height
    else:
        width_px, height_px = size, round(size * height / WIDTH)
    body: list[str] = [
        _rect(0, 0, WIDTH, height, fill="#ffffff"),
        *_header(pos, _status(pos)),
        *_board(pos),
        *_legend(pos, legend_y),
        *_trick(pos),
        _line(_MARGIN, seats_top - 18, WIDTH - _MARGIN, seats_top - 18, stroke=_MUTED),
        *_seats(pos, seats_top, hero),
    ]
    summary = _summary(pos)
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1"'
        f"{_attrs(width=width_px, height=height_px, viewBox=f'0 0 {WIDTH} {height}')}"
        f' role="img"{_attrs(aria_label=summary)}'
        ' font-family="sans-serif">'
    )
    return "\n".join([head, f"<title>{escape(summary)}</title>", *body, "</svg>"]) + "\n"
