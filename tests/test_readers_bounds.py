"""Every bounded field of every reader (the notation, the JSON form, game records) at its
boundary: the last valid value is read, the first invalid one is refused by the reader
itself, naming the field. A bound off by one (``lead N`` with N the number of players
was read, and failed later as something else) fails here."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catbox_solver.errors import NotationError, PositionError, RecordError
from catbox_solver.formats.jsonform import position_from_dict, position_to_dict
from catbox_solver.formats.notation import position_from_notation, position_to_notation
from catbox_solver.formats.record import RecordSyntaxError, read_record, write_record
from catbox_solver.games.bots import random_bots
from catbox_solver.games.game import play_game
from catbox_solver.model.deal import first_lead
from catbox_solver.model.position import Position
from catbox_solver.model.rules import Ruleset

PLAYERS = [2, 3, 4, 5]


def start(n: int, seed: int = 1, leader: int = 0) -> Position:
    return first_lead(Ruleset(players=n), seed, start=leader)


def after_one_trick(n: int, seed: int = 1) -> Position:
    """A position after a whole first trick (every seat has a token on the board)."""
    pos = start(n, seed)
    for _ in range(n):
        pos = pos.play(pos.legal_plays()[0])
    assert pos.tricks_played == 1 and not pos.trick
    return pos


def field(text: str, label: str, value: str) -> str:
    """``text`` with the labelled field ``label ...`` set to ``label value``."""
    new, count = re.subn(rf"\| {label} [^|]*", f"| {label} {value} ", text)
    assert count == 1
    return new


def fields_of(text: str) -> list[str]:
    return [f.strip() for f in text.split("|")]


def with_field(text: str, index: int, value: str) -> str:
    parts = fields_of(text)
    parts[index] = value
    return " | ".join(parts)


# ---- the notation ----------------------------------------------------------------------------
@pytest.mark.parametrize("n", PLAYERS)
def test_notation_lead_seat_bounds(n: int) -> None:
    """``lead n-1`` is read; ``lead n`` is the reader's own NotationError (field 'lead'),
    not a PositionError from further on (the bug: ``seat > n`` in place of ``>= n``)."""
    text = position_to_notation(start(n))
    assert position_from_notation(field(text, "lead", str(n - 1))).leader == n - 1
    with pytest.raises(NotationError) as info:
        position_from_notation(field(text, "lead", str(n)))
    assert info.value.field == "lead"
    assert str(info.value).startswith(f"seat {n} does not exist with {n} players")


@pytest.mark.parametrize(("count", "ok"), [(1, False), (2, True), (5, True), (6, False)])
def test_notation_player_count_bounds(count: int, ok: bool) -> None:
    text = position_to_notation(start(count if ok else 3))
    text = re.sub(r"^\d+p", f"{count}p", text)
    if ok:
        assert position_from_notation(text).players == count
    else:
        with pytest.raises(NotationError, match=f"player count must be 2 to 5, not {count}"):
            position_from_notation(text)


@pytest.mark.parametrize("n", PLAYERS)
def test_notation_board_seat_digit_bounds(n: int) -> None:
    """A cell of seat n-1 is read; the digit n on a cell is refused by the reader."""
    pos = after_one_trick(n)
    text = position_to_notation(pos)
    assert position_from_notation(text) == pos
    board = fields_of(text)[1]
    assert str(n - 1) in board  # (every seat has a token after a trick)
    with pytest.raises(NotationError) as info:
        position_from_notation(with_field(text, 1, board.replace(str(n - 1), str(n), 1)))
    assert info.value.field == "board"
    assert f"bad cell '{n}'" in str(info.value) and f"a seat 0-{n - 1}" in str(info.value)


def _seed_where(n: int, test: Any) -> Position:
    for seed in range(500):
        pos = start(n, seed)
        if test(pos):
            return pos
    raise AssertionError("no seed fits")  # pragma: no cover


@pytest.mark.parametrize("n", PLAYERS)
def test_notation_hand_value_bounds(n: int) -> None:
    """A card of the round's highest value is read; one above it is refused (field
    'hands'); a 0 too."""
    top = Ruleset(players=n).values
    pos = _seed_where(n, lambda p: any(top in h for h in p.hands))
    text = position_to_notation(pos)
    assert position_from_notation(text) == pos
    hands = fields_of(text)[2]
    for bad in ([str(top + 1)] if top < 9 else []) + ["0"]:
        with pytest.raises(NotationError) as info:
            position_from_notation(with_field(text, 2, hands.replace(str(top), bad, 1)))
        assert info.value.field == "hands"
        assert f"bad card '{bad}'" in str(info.value)


@pytest.mark.parametrize("n", PLAYERS)
def test_notation_trick_play_value_bounds(n: int) -> None:
    """A play of the highest value in the trick is read; a value above it is refused by
    the reader (field 'lead')."""
    top = Ruleset(players=n).values

    def leads_top(p: Position) -> bool:
        return any(pl.value == top for pl in p.legal_plays())

    pos = _seed_where(n, leads_top)
    pos = pos.play(next(pl for pl in pos.legal_plays() if pl.value == top))
    text = position_to_notation(pos)
    assert position_from_notation(text) == pos
    if top < 9:
        bad = text.replace(f"lead 0: {top}", f"lead 0: {top + 1}")
        with pytest.raises(NotationError) as info:
            position_from_notation(bad)
        assert info.value.field == "play" and f"value {top + 1} is not in play" in str(info.value)


@pytest.mark.parametrize("n", PLAYERS)
def test_notation_tricks_left_bounds(n: int) -> None:
    tricks = Ruleset(players=n).tricks
    text = position_to_notation(start(n))
    assert position_from_notation(field(text, "left", str(tricks))).tricks_left == tricks
    with pytest.raises(PositionError, match=f"tricks left {tricks + 1} outside 0..{tricks}"):
        position_from_notation(field(text, "left", str(tricks + 1)))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_notation_prediction_bounds(n: int) -> None:
    """The lowest and highest prediction choices are read; one below and one above are
    refused naming the seat."""
    choices = Ruleset(players=n).prediction_choices
    text = position_to_notation(start(n))
    for bid, ok in ((min(choices), True), (max(choices), True),
                    (min(choices) - 1, False), (max(choices) + 1, False)):
        bids = " ".join([str(bid)] + ["?"] * (n - 1))
        if ok:
            assert position_from_notation(field(text, "bid", bids)).predictions == (
                bid, *[None] * (n - 1))
        else:
            with pytest.raises(PositionError, match=f"seat 0 predicted {bid}; allowed"):
                position_from_notation(field(text, "bid", bids))


# ---- the JSON form ---------------------------------------------------------------------------
def _json(pos: Position) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(position_to_dict(pos)))
    return data


def _refused(data: dict[str, Any], name: str) -> NotationError:
    with pytest.raises(NotationError) as info:
        position_from_dict(data)
    assert info.value.field == name, str(info.value)
    return info.value


@pytest.mark.parametrize("n", PLAYERS)
def test_json_leader_bounds(n: int) -> None:
    data = _json(start(n))
    data["leader"] = n - 1
    assert position_from_dict(data).leader == n - 1
    data["leader"] = n
    assert str(_refused(data, "leader")).startswith(f"must be an integer 0-{n - 1}, not {n}")
    data["leader"] = -1
    _refused(data, "leader")


@pytest.mark.parametrize(("count", "ok"), [(1, False), (2, True), (5, True), (6, False)])
def test_json_player_count_bounds(count: int, ok: bool) -> None:
    data = _json(start(count if ok else 3))
    data["players"] = count
    if ok:
        assert position_from_dict(data).players == count
    else:
        assert str(_refused(data, "players")).startswith(f"must be an integer 2-5, not {count}")


@pytest.mark.parametrize("n", PLAYERS)
def test_json_board_seat_digit_bounds(n: int) -> None:
    pos = after_one_trick(n)
    data = _json(pos)
    assert position_from_dict(data) == pos
    row = next(ch for ch, cells in data["board"].items() if str(n - 1) in cells)
    data["board"][row] = data["board"][row].replace(str(n - 1), str(n), 1)
    assert f"bad cell '{n}'" in str(_refused(data, "board"))


@pytest.mark.parametrize("n", PLAYERS)
def test_json_hand_value_bounds(n: int) -> None:
    top = Ruleset(players=n).values
    pos = _seed_where(n, lambda p: any(top in h and 1 in h for h in p.hands))
    data = _json(pos)
    assert position_from_dict(data) == pos
    seat = next(s for s, h in enumerate(data["hands"]) if top in h and 1 in h)
    for good, bad in ((top, top + 1), (1, 0)):
        changed = json.loads(json.dumps(data))
        hand = changed["hands"][seat]
        hand[hand.index(good)] = bad
        assert f"value {bad} outside 1-{top}" in str(_refused(changed, "hands"))


@pytest.mark.parametrize("n", PLAYERS)
def test_json_tricks_left_and_won_bounds(n: int) -> None:
    tricks = Ruleset(players=n).tricks
    data = _json(start(n))
    assert position_from_dict(data).tricks_left == tricks
    data["tricks_left"] = tricks + 1
    assert str(_refused(data, "tricks_left")).startswith(
        f"must be an integer 0-{tricks}, not {tricks + 1}")
    data = _json(start(n))
    data["tricks_won"][0] = -1
    _refused(data, "tricks_won")


@pytest.mark.parametrize(("value", "ok"), [(0, False), (1, True), (9, True), (10, False)])
def test_json_trick_play_value_bounds(value: int, ok: bool) -> None:
    """The reader takes values 1-9 in a play (the round's own range is the position's
    check: a 9 with 5 players is a card); 0 and 10 are refused by the reader."""
    pos = start(5)
    play = next(p for p in pos.legal_plays() if p.value == 1) if value == 1 else None
    pos5 = _seed_where(5, lambda p: any(pl.value == 9 for pl in p.legal_plays()))
    base = pos.play(play) if play is not None else pos5.play(
        next(pl for pl in pos5.legal_plays() if pl.value == 9))
    data = _json(base)
    if ok:
        assert position_from_dict(data).trick[0].value == value
        return
    data["trick"][0]["value"] = value
    assert f"play 1: bad value {value}" in str(_refused(data, "trick"))


# ---- game records ----------------------------------------------------------------------------
def record_text(n: int) -> str:
    return write_record(play_game(Ruleset(players=n), seed=1, bots=random_bots(n, 1)))


def _line_set(text: str, start_with: str, new: str) -> str:
    """``text`` with the first line starting ``start_with`` replaced by ``new``."""
    lines = text.split("\n")
    i = next(k for k, line in enumerate(lines) if line.startswith(start_with))
    lines[i] = new
    return "\n".join(lines)


@pytest.mark.parametrize("n", PLAYERS)
def test_record_seat_bounds(n: int) -> None:
    """A record's seats (start, a trick's seat, the paradox claim) run 0..n-1: n-1 is
    read, n is refused with the line and field."""
    text = record_text(n)
    read_record(_line_set(text, "start ", f"start {n - 1}"))
    with pytest.raises(RecordSyntaxError, match=f"start: seat {n} outside 0..{n - 1}"):
        read_record(_line_set(text, "start ", f"start {n}"))
    first_trick = next(line for line in text.split("\n") if line.startswith("trick 1 "))
    seat = first_trick.split()[2].split(":")[0]
    read_record(text.replace(first_trick, first_trick.replace(f" {seat}:", f" {n - 1}:", 1)))
    with pytest.raises(RecordSyntaxError, match=f"trick 1: seat {n} outside 0..{n - 1}"):
        read_record(text.replace(first_trick, first_trick.replace(f" {seat}:", f" {n}:", 1)))
    if "\nparadox " in text:
        read_record(_line_set(text, "paradox ", f"paradox {n - 1}"))
        with pytest.raises(RecordSyntaxError, match=f"seat {n} outside 0..{n - 1}"):
            read_record(_line_set(text, "paradox ", f"paradox {n}"))


@pytest.mark.parametrize(("count", "ok"), [(1, False), (2, True), (5, True), (6, False)])
def test_record_player_count_bounds(count: int, ok: bool) -> None:
    text = record_text(count if ok else 3)
    text = _line_set(text, "players ", f"players {count}")
    if ok:
        assert read_record(text).rules.players == count
    else:
        with pytest.raises(RecordError, match=f"players: {count} is not 2 to 5"):
            read_record(text)


@pytest.mark.parametrize(("value", "ok"), [(0, False), (1, True), (9, True)])
def test_record_discard_bounds(value: int, ok: bool) -> None:
    text = record_text(5)
    line = next(x for x in text.split("\n") if x.startswith("discards "))
    new = "discards " + " ".join([str(value)] + line.split()[2:])
    if ok:
        read_record(text.replace(line, new, 1))
    else:
        with pytest.raises(RecordSyntaxError, match="discards"):
            read_record(text.replace(line, new, 1))


# ---- every seat, by hypothesis ---------------------------------------------------------------
@given(st.integers(2, 5), st.integers(0, 9))
def test_lead_is_read_exactly_for_the_seats_of_the_round(n: int, seat: int) -> None:
    """``lead S`` is read for S < n, and refused by the notation reader for S >= n."""
    text = field(position_to_notation(start(n)), "lead", str(seat))
    if seat < n:
        assert position_from_notation(text).leader == seat
    else:
        with pytest.raises(NotationError, match=f"seat {seat} does not exist"):
            position_from_notation(text)
