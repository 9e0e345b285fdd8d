"""The JSON interchange form of a position, ``catbox-position/1`` (shared/POSITION-JSON.md
beside the checkout).

Reading checks every field and names the one that is wrong; writing then reading gives back
an equal Position.
"""

from __future__ import annotations

import json
from typing import Any

from catbox_solver.errors import CatboxError, NotationError, PositionError, RulesetError
from catbox_solver.model.numbers import is_whole, shown_value
from catbox_solver.model.position import PLAYS, Play, Position, cell_bit, need_position
from catbox_solver.model.rules import COLOR_CHARS, Ruleset, colors_text

FORMAT = "catbox-position/1"
_FIELDS = {
    "format", "players", "ruleset", "board", "hands", "colors", "leader", "trick",
    "tricks_won", "predictions", "tricks_left",
}
# the keys of a play of the trick ("text", the play in notation, as the CLI writes plays)
_PLAY_FIELDS = {"seat", "value", "color", "text"}


def _cut(text: str, limit: int = 80) -> str:
    """``text`` (a list of names, say) cut at ``limit`` characters with "..."."""
    return text if len(text) <= limit else text[:limit] + "..."


def read_ruleset(spec: str, players: int) -> Ruleset:
    """The ruleset named ``spec`` (a preset, optionally with ``,switch=value`` overrides)
    for ``players``; the RulesetError of an unknown one quotes a long name cut short."""
    try:
        return Ruleset.from_name(spec, players)
    except RulesetError as exc:
        message = str(exc)
        if len(message) > 200:
            message = message.replace(repr(spec), shown_value(spec))
            message = _cut(message, 300)
        raise RulesetError(message) from None


def play_json(play: Play) -> dict[str, Any]:
    return {"value": play.value, "color": COLOR_CHARS[play.color], "text": play.text}


def position_to_dict(pos: Position) -> dict[str, Any]:
    """The catbox-position/1 object of a position."""
    need_position(pos)
    rules = pos.rules
    n = rules.players
    board: dict[str, str] = {}
    for c, ch in enumerate(COLOR_CHARS):
        row = []
        for v in range(1, rules.values + 1):
            owner = pos.owner_of(v, c)
            row.append("." if owner is None else "N" if owner == -1 else str(owner))
        board[ch] = "".join(row)
    return {
        "format": FORMAT,
        "players": n,
        "ruleset": rules.name,
        "board": board,
        "hands": [list(h) for h in pos.hands],
        "colors": [colors_text(m) for m in pos.colors],
        "leader": pos.leader,
        "trick": [
            {"seat": (pos.leader + i) % n, "value": p.value, "color": COLOR_CHARS[p.color]}
            for i, p in enumerate(pos.trick)
        ],
        "tricks_won": list(pos.tricks_won),
        "predictions": None if pos.predictions is None else list(pos.predictions),
        "tricks_left": pos.tricks_left,
    }


def position_to_json(pos: Position) -> str:
    return json.dumps(position_to_dict(pos), separators=(", ", ": "))


def _int(d: dict[str, Any], name: str, lo: int, hi: int) -> int:
    v = d.get(name)
    if not is_whole(v) or not lo <= v <= hi:
        raise NotationError(f"must be an integer {lo}-{hi}, not {shown_value(v)}", field=name)
    return v


def _list(v: Any, name: str, length: int) -> list[Any]:
    if not isinstance(v, list) or len(v) != length:
        raise NotationError(f"must be a list of {length} entries, not {shown_value(v)}",
                            field=name)
    return v


def _color_mask(text: Any, field: str) -> int:
    if not isinstance(text, str):
        raise NotationError(f"must be a string of colors RBYG, not {shown_value(text)}",
                            field=field)
    mask = 0
    for ch in text:
        i = COLOR_CHARS.find(ch.upper())
        if i < 0 or mask >> i & 1:
            raise NotationError(f"bad or repeated color {ch!r} in {shown_value(text)}",
                                field=field)
        mask |= 1 << i
    return mask


def position_from_dict(d: Any) -> Position:
    """Read a catbox-position/1 object; raises NotationError (shape) or PositionError
    (an impossible position)."""
    if not isinstance(d, dict):
        raise NotationError("a position must be a JSON object")
    unknown = set(d) - _FIELDS
    if unknown:  # (a key that is no text, {1: 2}, failed in the sort with a TypeError)
        raise NotationError(f"unknown field(s) {_cut(', '.join(sorted(map(str, unknown))))}")
    if d.get("format") != FORMAT:
        raise NotationError(f"must be {FORMAT!r}, not {shown_value(d.get('format'))}",
                            field="format")
    n = _int(d, "players", 2, 5)
    spec = d.get("ruleset", "official")
    if not isinstance(spec, str):
        raise NotationError(f"must be a preset name, not {shown_value(spec)}", field="ruleset")
    rules = read_ruleset(spec, n)
    board = d.get("board")
    if not isinstance(board, dict) or set(board) != set(COLOR_CHARS):
        raise NotationError("must map each of R, B, Y, G to a row string", field="board")
    owners = [0] * n
    neutral = 0
    for c, ch in enumerate(COLOR_CHARS):
        row = board[ch]
        if not isinstance(row, str) or len(row) != rules.values:
            raise NotationError(
                f"row {ch} must have {rules.values} characters, not {shown_value(row)}",
                field="board",
            )
        for i, sym in enumerate(row):
            v = i + 1
            if sym == ".":
                continue
            if sym == "N":
                neutral |= cell_bit(v, c)
            elif sym in "01234"[:n]:
                owners[int(sym)] |= cell_bit(v, c)
            else:
                raise NotationError(
                    f"row {ch} value {v}: bad cell {sym!r} (., N or a seat 0-{n - 1})",
                    field="board",
                    column=i + 1,
                )
    hands = _list(d.get("hands"), "hands", n)
    for seat, h in enumerate(hands):
        if not isinstance(h, list) or not all(
            is_whole(v) for v in h
        ):
            raise NotationError(f"seat {seat}: a hand is a list of values", field="hands")
        for v in h:
            if not 1 <= v <= rules.values:
                raise NotationError(
                    f"seat {seat}: value {v} outside 1-{rules.values}", field="hands"
                )
    colors = [
        _color_mask(t, f"colors[{s}]") for s, t in enumerate(_list(d.get("colors"), "colors", n))
    ]
    leader = _int(d, "leader", 0, n - 1)
    trick_raw = d.get("trick")
    if not isinstance(trick_raw, list):
        raise NotationError("must be a list of plays", field="trick")
    trick: list[Play] = []
    for i, t in enumerate(trick_raw):
        if not isinstance(t, dict):
            raise NotationError(f"play {i + 1} must be an object", field="trick")
        extra = set(t) - _PLAY_FIELDS
        if extra:
            raise NotationError(
                f"play {i + 1}: unknown key(s) {_cut(', '.join(sorted(map(repr, extra))))}",
                field="trick",
            )
        if "seat" in t and not is_whole(t["seat"]):
            raise NotationError(f"play {i + 1}: seat {shown_value(t['seat'])} is not a seat",
                                field="trick")
        raw_value: Any = t.get("value")
        color: Any = t.get("color")
        play_seat = t.get("seat")
        if not is_whole(raw_value) or not 1 <= raw_value <= 9:
            raise NotationError(f"play {i + 1}: bad value {shown_value(raw_value)}", field="trick")
        value: int = raw_value
        if not isinstance(color, str) or len(color) != 1 or color.upper() not in COLOR_CHARS:
            raise NotationError(f"play {i + 1}: bad color {shown_value(color)}", field="trick")
        if play_seat is not None and play_seat != (leader + i) % n:
            raise NotationError(
                f"play {i + 1}: seat {shown_value(play_seat)} is not seat {(leader + i) % n}, "
                "next after the leader",
                field="trick",
            )
        play = PLAYS[value][COLOR_CHARS.index(color.upper())]
        if "text" in t and t["text"] != play.text:
            raise NotationError(
                f"play {i + 1}: text {shown_value(t['text'])} is not {play.text!r}", field="trick"
            )
        trick.append(play)
    won = _list(d.get("tricks_won"), "tricks_won", n)
    if not all(is_whole(w) and w >= 0 for w in won):
        raise NotationError("must be non-negative integers", field="tricks_won")
    preds = d.get("predictions")
    if preds is not None:
        preds = _list(preds, "predictions", n)
        if not all(p is None or is_whole(p) for p in preds):
            raise NotationError("must be integers or null", field="predictions")
        if not rules.has_predictions:
            raise NotationError(f"{n} players make no predictions", field="predictions")
    elif rules.has_predictions:
        preds = [None] * n
    left = _int(d, "tricks_left", 0, rules.tricks)
    return Position(rules, owners, neutral, hands, colors, leader, trick, won, preds, left)


class _HugeNumber(ValueError):
    """A number literal far longer than any field of a position holds."""


def _small_int(literal: str) -> int:
    """json's parse_int: a number of at most 30 digits (a longer one gave Python's own
    "use sys.set_int_max_str_digits()" hint as the message, or cost time to convert)."""
    digits = len(literal.lstrip("-"))
    if digits > 30:
        raise _HugeNumber(f"a number of {digits} digits")
    return int(literal)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """json's object_pairs_hook: an object that gives a key twice is refused by name (the
    last one won, silently)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise NotationError(f"key {shown_value(key)} given twice in one object",
                                field=key if len(key) <= 40 else None)
        out[key] = value
    return out


DECODER = json.JSONDecoder(parse_int=_small_int, object_pairs_hook=_no_duplicates)
"""The JSON reader of positions: numbers of at most 30 digits, no key given twice."""


def load_json(text: str) -> Any:
    """The JSON value of ``text`` read by :data:`DECODER`; NotationError (with the column)
    for text that is not JSON, or that gives a key twice."""
    try:
        return DECODER.decode(text)
    except CatboxError:
        raise
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, huge int literals
        col = getattr(exc, "colno", None)
        raise NotationError(f"not valid JSON: {getattr(exc, 'msg', exc)}", column=col) from None


def position_from_json(text: str) -> Position:
    """Read the JSON text of a position."""
    if not isinstance(text, str):  # (None or a dict failed inside json with a TypeError)
        raise NotationError(f"position JSON is text, not {type(text).__name__}")
    data = load_json(text)
    try:
        return position_from_dict(data)
    except CatboxError:
        raise
    except (TypeError, ValueError, KeyError) as exc:  # defensive: never a raw traceback
        raise PositionError(f"cannot read position: {shown_value(str(exc))}") from None
