"""The shared conformance cases for legal plays (computed by an independent implementation of
RULES.md): player to move, paradox and the exact set of legal plays; and the JSON form of
every conformance position round-trips."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from catbox_solver.formats.jsonform import position_from_json, position_to_dict, position_to_json
from catbox_solver.model.rules import COLOR_CHARS

CONFORMANCE = Path(__file__).resolve().parents[2] / "shared" / "conformance"

pytestmark = pytest.mark.skipif(
    not (CONFORMANCE / "legal-in.jsonl").exists(), reason="shared conformance folder absent"
)


def _lines(name: str) -> list[str]:
    path = CONFORMANCE / name
    if not path.exists():
        return []
    return [line for line in path.read_text().splitlines() if line.strip()]


LEGAL_IN = _lines("legal-in.jsonl")
LEGAL_EXPECT = _lines("legal-expect.jsonl")
DD_IN = _lines("dd-in.jsonl")


def test_files_pair_up() -> None:
    assert len(LEGAL_IN) == len(LEGAL_EXPECT) > 0


@pytest.mark.parametrize("i", range(len(LEGAL_IN)))
def test_legal_plays(i: int) -> None:
    pos = position_from_json(LEGAL_IN[i])
    expect: dict[str, Any] = json.loads(LEGAL_EXPECT[i])
    legal = pos.legal_plays()
    got = {(p.value, COLOR_CHARS[p.color]) for p in legal}
    want = {(v, c) for v, c in expect["plays"]}
    assert len(legal) == len(got), "legal_plays lists a play twice"
    assert pos.to_move == expect["to_move"]
    assert pos.is_paradox == expect["paradox"]
    assert got == want
    if expect["paradox"]:
        assert pos.paradox_by == expect["to_move"] and pos.is_over


@pytest.mark.parametrize(
    ("name", "i"),
    [("legal", i) for i in range(len(LEGAL_IN))] + [("dd", i) for i in range(len(DD_IN))],
)
def test_json_round_trip(name: str, i: int) -> None:
    text = (LEGAL_IN if name == "legal" else DD_IN)[i]
    pos = position_from_json(text)
    again = position_from_json(position_to_json(pos))
    assert again == pos
    assert hash(again) == hash(pos)
    # the dict written equals the dict read (the conformance files use the same fields)
    original = json.loads(text)
    written = position_to_dict(pos)
    for key, value in original.items():
        if key == "trick":
            assert [(t["value"], t["color"]) for t in written[key]] == [
                (t["value"], t["color"]) for t in value
            ]
        else:
            assert written[key] == value, key
