"""The survey stores kept in the repository (surveys/): each is whole and one survey, so
that a run goes on from it (every deal from 0 up once, with every seat's row, the rows
agreeing with the manifest), and docs/research.md prints exactly what each reports."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_docs import ROOT, fenced

from catbox_solver.survey.report import report, report_text
from catbox_solver.survey.store import read_manifest, read_rows

KEPT = sorted(p.parent for p in (ROOT / "surveys").glob("*/*/_survey.json"))


def test_there_is_a_kept_store() -> None:
    assert [p.name for p in KEPT] == [
        "czech-color-loss-4", "czech-color-loss-5", "quickref-red-lead-5"]


@pytest.mark.parametrize("out", KEPT, ids=[p.name for p in KEPT])
def test_a_kept_store_is_whole_and_one_survey(out: Path) -> None:
    spec = read_manifest(out)
    assert spec is not None
    rows = read_rows(out).to_pydict()
    deals = sorted(set(rows["deal"]))
    assert deals == list(range(len(deals))) and deals
    per_deal = spec.players if spec.question in ("paradox", "tricks") else 1
    assert len(rows["deal"]) == per_deal * len(deals)
    for column, want in (("players", spec.players), ("ruleset", spec.ruleset),
                         ("question", spec.question), ("seed", spec.seed),
                         ("discards", spec.discards), ("timeout", spec.timeout)):
        assert set(rows[column]) == {want}, column


@pytest.mark.parametrize("out", KEPT, ids=[p.name for p in KEPT])
def test_research_publishes_what_the_kept_store_reports(out: Path) -> None:
    """The block research.md opens with a kept store's report command holds that report."""
    command = f"catbox survey report {out.relative_to(ROOT).as_posix()}\n"
    blocks = [text for _, text in fenced(ROOT / "docs" / "research.md")
              if text.startswith(command)]
    assert len(blocks) == 1, command
    assert blocks[0].removeprefix(command).strip() == report_text(report([out])).strip()
