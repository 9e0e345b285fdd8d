"""Fuzzing every reader of outside input: whatever the text or object, nothing but a
CatboxError subclass may escape (no ValueError, TypeError, IndexError... tracebacks).

Inputs that once broke a reader (a character str.isdigit() accepts but int() rejects, an
integer literal past Python's 4300-digit limit) are pinned by the regression tests at the end.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catbox_solver.cli.batch import position_argument, position_arguments
from catbox_solver.errors import CatboxError
from catbox_solver.formats.jsonform import position_from_dict, position_from_json, position_to_dict
from catbox_solver.formats.notation import (
    parse_play,
    plays_from_text,
    position_from_notation,
    position_to_notation,
)
from catbox_solver.model.position import Play, Position
from catbox_solver.model.rules import PRESETS, SWITCHES, Ruleset

SEEDS = [
    "2p official | R:..... B:..0.. Y:...N0 G:N.1N. | 1223455 11124455 | RBYG RYG | "
    "lead 0: 5y | won 1 0 | left 7",
    "4p diagonal-bonus,row_order=GYBR | G:........ Y:...2.... B:........ R:...3.... | "
    "112345678 122345678 12335678 12345678 | RBYG RBYG RBYG RBG | lead 2: 4y 4r | "
    "won 0 0 0 0 | bid 1 ? 3 2 | left 8",
    "5p official | R:24..1.14. B:.331133.1 Y:234041034 G:..0022202 | 349 29 66 37 114 | "
    "G BY G BY RY | lead 1: 5b 6g 7b | won 0 2 1 0 2 | bid 1 3 ? 2 2 | left 2",
    "3p must-follow,row_order=GYBR | G:100211 Y:021120 B:200201 R:2.2201 | 3 15 4 | "
    "RBY RBYG RBY | lead 2: 1b 2b | won 1 4 2 | bid 1 3 ? | left 1",
]
SEED_POSITIONS = [position_from_notation(s) for s in SEEDS]
SEED_DICTS = [position_to_dict(p) for p in SEED_POSITIONS]

# characters that matter to the readers, plus look-alikes: non-ASCII digits (decimal and
# not), full-width letters, letters whose upper case is two letters, control characters
ALPHABET = (
    "0123456789 .|:#?-,=NnpRBYGrbyg{}[]\"'@\t\n"
    "²³¹٣۴०０１Ｒｒßﬀ\x00\x1b\u2028İı"
)


def only_catbox_errors(read: Callable[[Any], object], arg: Any) -> object:
    """Call ``read(arg)``; any exception other than a CatboxError fails the test."""
    try:
        return read(arg)
    except CatboxError:
        return None


# ---- notation --------------------------------------------------------------------------------
@st.composite
def mutated(draw: st.DrawFn, seeds: list[str] = SEEDS) -> str:
    """A valid notation string with a few random edits (replace, insert, delete, swap)."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["replace", "insert", "delete", "dup"]))
        ch = draw(st.sampled_from(ALPHABET))
        if op == "replace" and i < len(text):
            text = text[:i] + ch + text[i + 1 :]
        elif op == "insert":
            text = text[:i] + ch + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + 1 :]
        else:
            j = draw(st.integers(0, len(text)))
            text = text[:i] + text[i:j] + text[i:]
    return text


@given(st.text(alphabet=ALPHABET, max_size=200) | st.text(max_size=200))
def test_notation_random_text(text: str) -> None:
    only_catbox_errors(position_from_notation, text)
    if not text.startswith("@"):
        only_catbox_errors(position_argument, text)


@given(mutated())
def test_notation_mutated(text: str) -> None:
    pos = only_catbox_errors(position_from_notation, text)
    if isinstance(pos, Position):
        # whatever was accepted reads back to itself from its canonical form
        canonical = position_to_notation(pos)
        assert position_from_notation(canonical) == pos
    only_catbox_errors(position_argument, text.lstrip("@"))


@given(st.text(alphabet=ALPHABET, max_size=12) | st.text(max_size=12), st.integers(1, 9))
def test_plays_random_text(text: str, max_value: int) -> None:
    only_catbox_errors(lambda t: parse_play(t, max_value), text)
    only_catbox_errors(lambda t: plays_from_text(t, max_value), text)


@given(st.text(alphabet=ALPHABET, max_size=6) | st.text(max_size=6))
def test_engine_play_parse(text: str) -> None:
    only_catbox_errors(Play.parse, text)


# ---- rulesets --------------------------------------------------------------------------------
SPEC_PARTS = [*PRESETS, *SWITCHES, "row_order", "=", ",", " ", "-", "_", *(
    v for vals in SWITCHES.values() for v in vals
), "RBYG", "GYBR", "rbyg", "RRBY", "", "official,", "=x"]


@given(
    st.lists(st.sampled_from(SPEC_PARTS), max_size=6).map("".join) | st.text(max_size=30),
    st.integers(-3, 9),
)
def test_ruleset_from_name(spec: str, players: int) -> None:
    rules = only_catbox_errors(lambda s: Ruleset.from_name(s, players), spec)
    if isinstance(rules, Ruleset):
        assert Ruleset.from_name(rules.name, players) == rules


# ---- JSON ------------------------------------------------------------------------------------
json_like = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-10, 12)
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(alphabet=ALPHABET, max_size=10),
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.text(alphabet=ALPHABET, max_size=6), inner, max_size=5),
    max_leaves=20,
)

FIELD_NAMES = list(SEED_DICTS[0])


@st.composite
def mutated_dict(draw: st.DrawFn) -> dict[str, Any]:
    """A valid position object with a few fields (or a board row, hand, trick entry)
    replaced by random JSON-like values, or deleted."""
    d: dict[str, Any] = json.loads(json.dumps(draw(st.sampled_from(SEED_DICTS))))
    for _ in range(draw(st.integers(1, 3))):
        name = draw(st.sampled_from(FIELD_NAMES))
        where = draw(st.sampled_from(["field", "inside", "delete"]))
        if where == "delete":
            d.pop(name, None)
        elif where == "inside" and isinstance(d.get(name), dict) and d[name]:
            key = draw(st.sampled_from(sorted(d[name])))
            d[name][key] = draw(json_like | st.text(alphabet=ALPHABET, max_size=10))
        elif where == "inside" and isinstance(d.get(name), list) and d[name]:
            k = draw(st.integers(0, len(d[name]) - 1))
            d[name][k] = draw(json_like)
        else:
            d[name] = draw(json_like)
    return d


@given(json_like)
def test_position_from_dict_random_objects(obj: Any) -> None:
    only_catbox_errors(position_from_dict, obj)


@given(mutated_dict())
def test_position_from_dict_mutated(d: dict[str, Any]) -> None:
    pos = only_catbox_errors(position_from_dict, d)
    if isinstance(pos, Position):
        assert position_from_dict(position_to_dict(pos)) == pos
    text = json.dumps(d)
    only_catbox_errors(position_from_json, text)
    only_catbox_errors(position_argument, text)


JSON_SEEDS = [json.dumps(d) for d in SEED_DICTS]


@given(mutated(JSON_SEEDS))
def test_position_from_json_mutated_text(text: str) -> None:
    pos = only_catbox_errors(position_from_json, text)
    if isinstance(pos, Position):
        assert position_from_notation(position_to_notation(pos)) == pos
    only_catbox_errors(position_argument, text.lstrip("@"))


@given(st.text(alphabet=ALPHABET, max_size=120) | st.text(max_size=60))
def test_position_from_json_random_text(text: str) -> None:
    only_catbox_errors(position_from_json, text)
    only_catbox_errors(position_argument, "{" + text)


def test_read_position_files_fuzz(tmp_path: Path) -> None:
    """Odd file contents and names through @FILE and batches: only typed errors."""
    contents: list[bytes] = [
        b"",
        b"\n\n",
        b"\xff\xfe",
        b"{",
        b"[1, 2]",
        b"{}\n{}",
        b'{"players": ' + b"9" * 5000 + b"}",
        SEEDS[0].encode() + b"\n" + SEEDS[1].encode(),
        b"\x00" * 10,
        "R:²²".encode(),
    ]
    for i, data in enumerate(contents):
        for suffix in (".txt", ".jsonl"):
            path = tmp_path / f"f{i}{suffix}"
            path.write_bytes(data)
            only_catbox_errors(position_argument, f"@{path}")
            try:
                items = list(position_arguments(f"@{path}"))
            except CatboxError:
                continue
            assert all(isinstance(item, (Position, CatboxError)) for item in items)
    for name in ("", "/", str(tmp_path), str(tmp_path / "missing"), "\x00", "a" * 5000):
        only_catbox_errors(position_argument, "@" + name)
        only_catbox_errors(lambda a: list(position_arguments(a)), "@" + name + ".jsonl")


# ---- regression tests for inputs that once escaped as ValueError -----------------------------
def test_play_parse_superscript_digit() -> None:
    with pytest.raises(CatboxError):
        Play.parse("²r")


def test_board_superscript_digit() -> None:
    d = json.loads(json.dumps(SEED_DICTS[0]))
    d["board"]["R"] = "²" + d["board"]["R"][1:]
    with pytest.raises(CatboxError):
        position_from_dict(d)


def test_json_huge_integer() -> None:
    with pytest.raises(CatboxError):
        position_from_json('{"players": ' + "1" * 5000 + "}")
