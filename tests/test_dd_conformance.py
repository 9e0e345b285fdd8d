"""The shared conformance cases for double-dummy search (../shared/conformance/dd-*.jsonl):
hero = the player to move; the value and the value after every legal play must match."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from catbox_solver.dd.solve import solve
from catbox_solver.formats.jsonform import position_from_json
from catbox_solver.model.rules import COLOR_CHARS
from catbox_solver.questions import Question

CONFORMANCE = Path(__file__).resolve().parents[2] / "shared" / "conformance"
pytestmark = pytest.mark.skipif(
    not (CONFORMANCE / "dd-in.jsonl").exists(), reason="shared conformance files absent"
)


def _lines(name: str) -> list[str]:
    return (CONFORMANCE / name).read_text().splitlines()


def _plays(expect: dict[str, Any]) -> dict[tuple[int, str], Any]:
    return {(v, c): r for (v, c), r in expect["plays"]}


def _cases() -> list[tuple[int, str, dict[str, Any], dict[str, Any], dict[str, Any]]]:
    if not (CONFORMANCE / "dd-in.jsonl").exists():
        return []
    ins = _lines("dd-in.jsonl")
    par = [json.loads(x) for x in _lines("dd-paradox-expect.jsonl")]
    tri = [json.loads(x) for x in _lines("dd-tricks-expect.jsonl")]
    tab = [json.loads(x) for x in _lines("dd-table-expect.jsonl")]
    assert len(ins) == len(par) == len(tri) == len(tab) > 100
    return [(i, ins[i], par[i], tri[i], tab[i]) for i in range(len(ins))]


CASES = _cases()


def test_there_are_cases() -> None:
    assert len(CASES) > 100


@pytest.mark.parametrize("question", ["paradox", "tricks"])
def test_dd_conformance(question: Question) -> None:
    wrong = []
    for i, line, par, tri, _ in CASES:
        pos = position_from_json(line)
        expect = par if question == "paradox" else tri
        ans = solve(pos, pos.to_move, question)
        got = {(r.play.value, COLOR_CHARS[r.play.color]): r.result for r in ans.plays}
        if ans.value != expect["value"] or got != _plays(expect):
            wrong.append(i + 1)
    assert wrong == []


def test_table_conformance() -> None:
    wrong = []
    for i, line, _, _, tab in CASES:
        pos = position_from_json(line)
        if solve(pos, pos.to_move, "table").value != tab["exists"]:
            wrong.append(i + 1)
    assert wrong == []
