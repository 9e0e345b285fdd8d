"""The one-line notation of a position, and reading positions from the command line.

A position in notation (grammar and examples in ``docs/notation.md``)::

    4p official | R:0.1..... B:2....... Y:........ G:3....... | 12257 33468 14568 23677 |
    RBYG RBG RBYG BYG | lead 2: 4b | won 1 0 1 1 | bid 1 2 3 1 | left 5

(one line). Writing then reading gives back an equal Position, and reading then writing a
canonical string gives back the same string. Input may use lower-case colors, extra spaces and
rows in any order; output is always the canonical form. Errors name the field and the 1-based
column: :class:`NotationError` for text that cannot be read, :class:`PositionError` (from the
Position constructor) for a readable position that cannot arise in a round, and
:class:`RulesetError` for an unknown ruleset.

:func:`position_from_text` reads notation or JSON text (starting with ``{``). Reading
never opens a file: :func:`catbox_solver.formats.files.load_positions` reads files and
batches. An error that quotes the input cuts it short.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from catbox_solver.errors import NotationError, PositionError, RulesetError
from catbox_solver.formats.jsonform import position_from_json, read_ruleset
from catbox_solver.model.numbers import is_whole, shown_value
from catbox_solver.model.position import PLAYS, Play, Position, cell_bit, need_position
from catbox_solver.model.rules import COLOR_CHARS, Ruleset, colors_text

__all__ = [
    "board_rows",
    "board_tokens",
    "parse_play",
    "plays_from_text",
    "position_from_notation",
    "position_from_text",
    "position_to_notation",
]

FIELD_SEP = "|"
EMPTY = "-"
UNKNOWN = "?"
COVERED = "#"
LABELS = ("lead", "won", "bid", "left")

_PLAY_RE = re.compile(r"([1-9])([rbyg])", re.IGNORECASE | re.ASCII)
_PLAYERS_RE = re.compile(r"([0-9]{1,3})p", re.IGNORECASE | re.ASCII)
_NUMBER_RE = re.compile(r"[0-9]{1,3}", re.ASCII)
_TOKEN_RE = re.compile(r"\S+")


# ---- writing ---------------------------------------------------------------------------------
def _colors_text(mask: int) -> str:
    return colors_text(mask) or EMPTY


def _board_row(pos: Position, color: int) -> str:
    cells = []
    for v in range(1, pos.rules.values + 1):
        owner = pos.owner_of(v, color)
        cells.append("." if owner is None else "N" if owner == -1 else str(owner))
    return "".join(cells)


def position_to_notation(pos: Position) -> str:
    """The canonical one-line notation of ``pos``."""
    need_position(pos)
    rules = pos.rules
    board = " ".join(
        f"{ch}:{_board_row(pos, COLOR_CHARS.index(ch))}" for ch in rules.row_order
    )
    hands = " ".join("".join(map(str, h)) or EMPTY for h in pos.hands)
    colors = " ".join(_colors_text(m) for m in pos.colors)
    lead = f"lead {pos.leader}"
    if pos.trick:
        lead += ": " + " ".join(p.text for p in pos.trick)
    fields = [
        f"{rules.players}p {rules.name}",
        board,
        hands,
        colors,
        lead,
        "won " + " ".join(map(str, pos.tricks_won)),
    ]
    if pos.predictions is not None:
        fields.append(
            "bid " + " ".join(UNKNOWN if p is None else str(p) for p in pos.predictions)
        )
    fields.append(f"left {pos.tricks_left}")
    return f" {FIELD_SEP} ".join(fields)


# ---- reading: small scanning helpers ---------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Token:
    """A run of non-space characters and its 1-based column in the whole text."""

    text: str
    column: int


@dataclass(frozen=True, slots=True)
class _Field:
    """The text between two ``|`` and the 1-based column of its first character."""

    text: str
    column: int

    def tokens(self) -> list[_Token]:
        return [_Token(m.group(), self.column + m.start()) for m in _TOKEN_RE.finditer(self.text)]

    @property
    def end_column(self) -> int:
        return self.column + len(self.text)


def _split_fields(text: str) -> list[_Field]:
    fields = []
    start = 0
    for part in text.split(FIELD_SEP):
        fields.append(_Field(part, start + 1))
        start += len(part) + 1
    return fields


def _number(tok: _Token, field: str, what: str) -> int:
    if not _NUMBER_RE.fullmatch(tok.text):
        raise NotationError(
            f"{what} must be a number, not {shown_value(tok.text)}", field, tok.column
        )
    return int(tok.text)


def _per_seat(tokens: list[_Token], n: int, field: str, what: str, end: int) -> None:
    if len(tokens) != n:
        column = tokens[n].column if len(tokens) > n else end
        raise NotationError(
            f"{len(tokens)} {what} for {n} players (one per seat, separated by spaces)",
            field,
            column,
        )


def _check_max_value(max_value: object) -> None:
    """The highest value in play is a whole number 1-9 (None raised TypeError, NaN let
    every value through)."""
    if not is_whole(max_value) or not 1 <= max_value <= 9:
        raise NotationError(
            f"max_value is the highest value in play, 1-9, not {shown_value(max_value)}"
        )


def parse_play(text: str, max_value: int = 9, column: int | None = None) -> Play:
    """Read one play like ``7r`` (value then color r, b, y, g; case-insensitive).

    Unlike the engine's ``Play.parse`` this reads ASCII digits only, and ``column`` (the
    play's place in a longer text) goes into the error.
    """
    _check_max_value(max_value)
    if not isinstance(text, str):
        raise NotationError(f"a play is text like '7r', not {type(text).__name__}")
    m = _PLAY_RE.fullmatch(text.strip())
    if not m:
        raise NotationError(
            f"a play is a value 1-{max_value} and a color r, b, y or g like '7r', not "
            f"{shown_value(text)}",
            "play",
            column,
        )
    value = int(m.group(1))
    if value > max_value:
        raise NotationError(f"value {value} is not in play (1-{max_value})", "play", column)
    return PLAYS[value]["rbyg".index(m.group(2).lower())]


def plays_from_text(text: str, max_value: int = 9) -> tuple[Play, ...]:
    """Read a list of plays like ``"7r 3b, 5y"`` (spaces and/or commas between plays)."""
    _check_max_value(max_value)
    if not isinstance(text, str):
        raise NotationError(f"plays are text like '7r 3b', not {type(text).__name__}")
    out = []
    for m in re.finditer(r"[^\s,]+", text):
        out.append(parse_play(m.group(), max_value, m.start() + 1))
    return tuple(out)


# ---- reading: the fields ---------------------------------------------------------------------
def _parse_header(field: _Field) -> Ruleset:
    tokens = field.tokens()
    if not tokens:
        raise NotationError(
            "the position must start with the player count like '4p'", "players", field.column
        )
    m = _PLAYERS_RE.fullmatch(tokens[0].text)
    if not m:
        raise NotationError(
            f"player count must look like '4p', not {shown_value(tokens[0].text)}",
            "players",
            tokens[0].column,
        )
    players = int(m.group(1))
    if not 2 <= players <= 5:
        raise NotationError(
            f"player count must be 2 to 5, not {players}", "players", tokens[0].column
        )
    spec = "".join(t.text for t in tokens[1:]) or "official"
    try:
        return read_ruleset(spec, players)  # (any case)
    except RulesetError as exc:
        column = tokens[1].column if len(tokens) > 1 else tokens[0].column
        raise RulesetError(f"{exc} (field 'ruleset', column {column})") from None


def _board_rows(field: _Field, name: str | None) -> Iterator[tuple[int, str, int]]:
    """The rows of a board field, one at a time as (color, cells, column of the cells):
    labels in any case and order, spaces around ':' allowed; a row given twice, or missing
    at the end, is a NotationError (``name``: the field named in it)."""
    seen: set[int] = set()
    s = field.text
    i = 0
    while True:
        while i < len(s) and s[i].isspace():
            i += 1
        if i == len(s):
            break
        label_col = field.column + i
        ch = s[i]
        if ch not in "RBYGrbyg":
            raise NotationError(
                f"expected a row label R, B, Y or G like 'R:0.1.....', not {ch!r}",
                name,
                label_col,
            )
        color = COLOR_CHARS.index(ch.upper())
        if color in seen:
            raise NotationError(f"row {ch.upper()} given twice", name, label_col)
        seen.add(color)
        i += 1
        while i < len(s) and s[i].isspace():
            i += 1
        if i == len(s) or s[i] != ":":
            raise NotationError(
                f"expected ':' after the row label {ch.upper()}", name, field.column + i
            )
        i += 1
        while i < len(s) and s[i].isspace():
            i += 1
        start = i
        while i < len(s) and not s[i].isspace():
            i += 1
        yield color, s[start:i], field.column + start
    if len(seen) != 4:
        missing = ", ".join(ch for i, ch in enumerate(COLOR_CHARS) if i not in seen)
        raise NotationError(f"missing row(s) {missing}", name, field.end_column)


def _read_row(
    color: int, cells: str, rules: Ruleset, name: str | None, cells_col: int | None
) -> tuple[list[int], int]:
    """One row's tokens as (owner masks per seat, neutral mask): one cell per value, a last
    '#' for the covered column, '.' empty, a seat digit, N neutral (any case). Errors name
    the field ``name`` and the column when ``cells_col`` is known."""
    n = rules.players
    nv = rules.values
    covered = rules.covered_value
    row = COLOR_CHARS[color]

    def at(k: int) -> int | None:
        return None if cells_col is None else cells_col + k

    if covered is not None and len(cells) == nv + 1:
        last = cells[-1]
        if last != COVERED:
            if last in "Nn" or "0" <= last <= "9":
                place = "" if cells_col is None else f" (field '{name}', column {at(nv)})"
                raise PositionError(
                    f"cell {row}{covered} is covered with {n} players: the board has "
                    f"values 1-{nv} only{place}"
                )
            raise NotationError(
                f"column {covered} is covered with {n} players: write it '{COVERED}' or "
                "leave it out",
                name,
                at(nv),
            )
        cells = cells[:-1]
    elif covered is None and len(cells) == nv + 1 and cells.endswith(COVERED):
        raise NotationError(
            f"row {row}: '{COVERED}' marks the covered column, and no column is covered "
            f"with {n} players",
            name,
            at(nv),
        )
    elif len(cells) != nv:
        raise NotationError(
            f"row {row} has {len(cells)} cells; {n} players use values 1-{nv}, one cell "
            "each ('.' empty, a seat digit, N neutral)",
            name,
            at(0),
        )
    owners = [0] * n
    neutral = 0
    for k, sym in enumerate(cells):
        bit = cell_bit(k + 1, color)
        if sym == ".":
            continue
        if sym in "Nn":
            neutral |= bit
        elif "0" <= sym <= "9" and int(sym) < n:
            owners[int(sym)] |= bit
        elif sym == COVERED:  # (before the last cell: a row a cell short)
            where = f"column {covered} with {n} players" if covered else (
                f"and no column is covered with {n} players")
            raise NotationError(
                f"row {row} value {k + 1}: '{COVERED}' marks the covered column, {where}",
                name,
                at(k),
            )
        else:
            raise NotationError(
                f"row {row} value {k + 1}: bad cell {sym!r} ('.', N or a seat 0-{n - 1})",
                name,
                at(k),
            )
    return owners, neutral


def _tokens(
    rows: Iterable[tuple[int, str, int | None]], rules: Ruleset, name: str | None
) -> tuple[list[int], int]:
    """The tokens of board rows (color, cells, column of the cells or None), each read by
    :func:`_read_row`: owner masks per seat and the neutral mask."""
    owners = [0] * rules.players
    neutral = 0
    for color, cells, cells_col in rows:
        row_owners, row_neutral = _read_row(color, cells, rules, name, cells_col)
        owners = [a | b for a, b in zip(owners, row_owners, strict=True)]
        neutral |= row_neutral
    return owners, neutral


def _parse_board(field: _Field, rules: Ruleset) -> tuple[list[int], int]:
    return _tokens(_board_rows(field, "board"), rules, "board")


def board_rows(text: str) -> dict[str, str]:
    """The rows of a board written as the notation's board field (``R:0.1.. B:.....``:
    labels in any case and order, spaces around ':') as ``{"R": cells, ...}``; a
    NotationError names the column in ``text``. The cells are checked by
    :func:`board_tokens`, which needs the round."""
    if not isinstance(text, str):
        raise NotationError(f"a board is text like 'R:0.1.. B:..', not {shown_value(text)}")
    return {
        COLOR_CHARS[color]: cells for color, cells, _ in _board_rows(_Field(text, 1), None)
    }


def board_tokens(rows: dict[str, str], rules: Ruleset) -> tuple[list[int], int]:
    """The tokens of board rows ``{"R": cells, ...}`` (all four) as the notation reads
    them: owner masks per seat and the neutral mask (:func:`cell_bit`); a row that does
    not fit ``rules`` is a NotationError or PositionError naming it."""
    return _tokens(((c, rows[ch], None) for c, ch in enumerate(COLOR_CHARS)), rules, None)


def _parse_hands(field: _Field, rules: Ruleset) -> list[list[int]]:
    tokens = field.tokens()
    _per_seat(tokens, rules.players, "hands", "hands", field.end_column)
    hands: list[list[int]] = []
    for tok in tokens:
        if tok.text == EMPTY:
            hands.append([])
            continue
        hand = []
        for k, ch in enumerate(tok.text):
            if not ("1" <= ch <= "9" and int(ch) <= rules.values):
                raise NotationError(
                    f"bad card {ch!r} in hand {shown_value(tok.text)} (values 1-{rules.values}, or "
                    f"'{EMPTY}' for an empty hand)",
                    "hands",
                    tok.column + k,
                )
            hand.append(int(ch))
        hands.append(hand)
    return hands


def _parse_colors(field: _Field, rules: Ruleset) -> list[int]:
    tokens = field.tokens()
    _per_seat(tokens, rules.players, "colors", "color sets", field.end_column)
    masks = []
    for tok in tokens:
        mask = 0
        if tok.text != EMPTY:
            for k, ch in enumerate(tok.text):
                if ch not in "RBYGrbyg" or mask >> COLOR_CHARS.index(ch.upper()) & 1:
                    raise NotationError(
                        f"bad or repeated color {ch!r} in {shown_value(tok.text)} (R, B, Y, G, or "
                        f"'{EMPTY}' for none)",
                        "colors",
                        tok.column + k,
                    )
                mask |= 1 << COLOR_CHARS.index(ch.upper())
        masks.append(mask)
    return masks


def _parse_lead(field: _Field, rules: Ruleset) -> tuple[int, tuple[Play, ...]]:
    """``lead S`` or ``lead S: PLAYS``; the label token is already checked."""
    body_start = field.text.lower().index("lead") + len("lead")
    before, colon, after = field.text[body_start:].partition(":")
    seat_field = _Field(before, field.column + body_start)
    seat_tokens = seat_field.tokens()
    if len(seat_tokens) != 1:
        column = seat_tokens[1].column if len(seat_tokens) > 1 else seat_field.end_column
        raise NotationError(
            "expected 'lead SEAT' or 'lead SEAT: PLAYS' like 'lead 2: 4b 7r'", "lead", column
        )
    seat = _number(seat_tokens[0], "lead", "the leading seat")
    if seat >= rules.players:
        raise NotationError(
            f"seat {seat} does not exist with {rules.players} players",
            "lead",
            seat_tokens[0].column,
        )
    plays: list[Play] = []
    if colon:
        after_field = _Field(after, seat_field.end_column + 1)
        for tok in after_field.tokens():
            m = _PLAY_RE.fullmatch(tok.text)
            if not m:
                raise NotationError(
                    f"a play is a value and a color like '7r', not {shown_value(tok.text)}",
                    "lead",
                    tok.column,
                )
            plays.append(parse_play(tok.text, rules.values, tok.column))
    return seat, tuple(plays)


def _parse_numbers(field: _Field, rules: Ruleset, label: str, what: str) -> list[int]:
    tokens = field.tokens()[1:]
    _per_seat(tokens, rules.players, label, what, field.end_column)
    return [_number(t, label, what) for t in tokens]


def _parse_bids(field: _Field, rules: Ruleset) -> list[int | None] | None:
    tokens = field.tokens()[1:]
    if len(tokens) == 1 and tokens[0].text == EMPTY:
        return None
    if not rules.has_predictions:
        raise NotationError(
            f"{rules.players} players make no predictions under this ruleset (leave out the "
            f"field or write 'bid {EMPTY}')",
            "bid",
            tokens[0].column if tokens else field.end_column,
        )
    _per_seat(tokens, rules.players, "bid", "predictions", field.end_column)
    bids: list[int | None] = []
    for tok in tokens:
        bids.append(None if tok.text == UNKNOWN else _number(tok, "bid", "a prediction"))
    return bids


def _parse_left(field: _Field) -> int:
    tokens = field.tokens()[1:]
    if len(tokens) != 1:
        column = tokens[1].column if len(tokens) > 1 else field.end_column
        raise NotationError("expected one number like 'left 5'", "left", column)
    return _number(tokens[0], "left", "tricks left")


def position_from_notation(text: str) -> Position:
    """Read a position from its one-line notation.

    Raises NotationError (naming field and column) for text that cannot be read,
    RulesetError for an unknown ruleset, PositionError for an impossible position.
    """
    if not isinstance(text, str):
        raise NotationError(f"a position is text, not {type(text).__name__}")
    if not text.strip():
        raise NotationError("empty position", "players", 1)
    fields = _split_fields(text)
    rules = _parse_header(fields[0])

    def field(i: int, name: str) -> _Field:
        if len(fields) <= i:
            raise NotationError(
                f"missing field {name}: expected 'NP RULESET | BOARD | HANDS | COLORS | "
                f"lead ... | won ... | left ...' separated by '{FIELD_SEP}'",
                name,
                len(text) + 1,
            )
        return fields[i]

    owners, neutral = _parse_board(field(1, "board"), rules)
    hands = _parse_hands(field(2, "hands"), rules)
    colors = _parse_colors(field(3, "colors"), rules)
    labelled: dict[str, _Field] = {}
    for extra in fields[4:]:
        tokens = extra.tokens()
        if not tokens:
            raise NotationError(
                f"empty field (expected one of: {', '.join(LABELS)})", None, extra.column
            )
        head = tokens[0].text.lower()
        label = head.split(":", 1)[0] if head.startswith("lead") else head
        if label not in LABELS:
            raise NotationError(
                f"unknown field {shown_value(tokens[0].text)} (expected one of: "
                f"{', '.join(LABELS)})",
                None,
                tokens[0].column,
            )
        if label in labelled:
            raise NotationError(f"field {label!r} given twice", label, tokens[0].column)
        labelled[label] = extra
    for label in ("lead", "won", "left"):
        if label not in labelled:
            raise NotationError(
                f"missing field '{label} ...'", label, len(text) + 1
            )
    leader, trick = _parse_lead(labelled["lead"], rules)
    won = _parse_numbers(labelled["won"], rules, "won", "trick counts")
    bids = _parse_bids(labelled["bid"], rules) if "bid" in labelled else None
    left = _parse_left(labelled["left"])
    return Position(rules, owners, neutral, hands, colors, leader, trick, won, bids, left)


# ---- reading whatever the user typed ---------------------------------------------------------
def position_from_text(text: str) -> Position:
    """Read a position given as JSON text (starting with ``{``) or as notation."""
    if not isinstance(text, str):
        raise NotationError(f"a position is text, not {type(text).__name__}")
    stripped = text.strip()
    if stripped.startswith("{"):
        return position_from_json(stripped)
    return position_from_notation(text)  # unstripped: columns match what was typed
