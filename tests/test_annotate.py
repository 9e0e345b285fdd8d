"""catbox annotate: the marks of played games checked against a plain minimax
(tests/minimax_ref.py), the JSON shape, the exit codes, Ctrl-C, the annotated record, the
puzzles made from blunders, the single-dummy verdict and the HTML page in a real headless
browser (as tests/test_browser.py does for the puzzle sheet).

The games are seeded games of random bots; only the last tricks of each round are judged
(``tricks=``), where every search is instant."""

from __future__ import annotations

import functools
import json
import os
import signal
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import test_browser
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from oracles.minimax_ref import play_values
from script_loader import load_script

from catbox_solver.annotate import analysis as an
from catbox_solver.annotate.analysis import (
    LOSING,
    Analysis,
    analyse_game,
    hidden_mark,
    judge,
    replay,
)
from catbox_solver.annotate.html import write_analysis_html
from catbox_solver.annotate.puzzles import puzzles_from_game
from catbox_solver.annotate.text import annotated_record
from catbox_solver.cli import common, main
from catbox_solver.dd.answer import PlayResult
from catbox_solver.dd.hidden import single_dummy
from catbox_solver.dd.threads import StopSignal
from catbox_solver.errors import SearchError
from catbox_solver.formats.notation import position_to_notation
from catbox_solver.formats.record import GameRecord, read_record, write_record
from catbox_solver.games.game import play_game
from catbox_solver.games.referee import verify
from catbox_solver.model.position import Play
from catbox_solver.model.rules import Ruleset
from catbox_solver.puzzles import load_puzzles, solve_puzzle

# (players, seed) of games whose rounds reach their last tricks
GAMES = [(2, 3), (3, 2), (3, 10), (4, 4), (5, 2)]


@functools.cache
def record(players: int, seed: int) -> GameRecord:
    return read_record(write_record(play_game(Ruleset(players=players), seed=seed)))


def last(rec: GameRecord, k: int) -> tuple[int, int]:
    """The last ``k`` tricks of a round."""
    return rec.rules.tricks - k + 1, rec.rules.tricks


@functools.cache
def analysed(players: int, seed: int, question: str) -> Analysis:
    rec = record(players, seed)
    return analyse_game(rec, question, tricks=last(rec, 3 if players <= 3 else 2))


def reference_mark(question: str, values: dict[str, int | bool], played: str) -> str:
    """The marks of docs/annotate.md from exact values."""
    ints = [int(v) for v in values.values()]
    if len(set(ints)) == 1:
        return "only"
    loss = max(ints) - int(values[played])
    steps = {"paradox": [(1, "blunder")],
             "tricks": [(3, "blunder"), (2, "mistake"), (1, "inaccuracy")],
             "score": [(5, "blunder"), (3, "mistake"), (1, "inaccuracy")]}[question]
    return next((mark for at, mark in steps if loss >= at), "best")


@pytest.mark.parametrize("question", ["paradox", "tricks", "score"])
@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_values_and_marks_match_plain_minimax(players: int, seed: int, question: str) -> None:
    a = analysed(players, seed, question)
    rec = record(players, seed)
    first, _ = last(rec, 3 if players <= 3 else 2)
    want = [s for s in replay(rec) if s.trick >= first]
    assert a.total == len(a.notes) == len(want) > 0
    assert a.complete and a.unknown == 0 and a.verdict.valid
    for note, step in zip(a.notes, want, strict=True):
        assert (note.round, note.trick, note.seat, note.play) == (
            step.round, step.trick, step.seat, step.play)
        assert note.position == step.position
        exact = dict(play_values(step.position, step.seat, question))
        assert {r.play.text: r.result for r in note.values} == exact
        best = max(exact.values(), key=int)
        assert note.value_best == best
        assert note.value_played == exact[step.play.text]
        assert {p.text for p in note.best} == {t for t, v in exact.items() if v == best}
        assert note.mark == reference_mark(question, exact, step.play.text)
        loss = int(best) - int(exact[step.play.text])
        assert note.loss == (loss, loss) or (note.mark == "only" and note.loss == (0, 0))
        if note.mark in LOSING:  # the line after the play starts with it and replays
            assert note.line[0] == step.play
            pos = step.position
            for p in note.line:
                pos = pos.play(p)


def test_the_games_hold_every_kind_of_mark() -> None:
    """(so that the comparison above is not vacuous)"""
    marks = {q: {n.mark for p, s in GAMES for n in analysed(p, s, q).notes}
             for q in ("paradox", "tricks", "score")}
    assert marks["paradox"] == {"blunder", "best", "only"}
    assert {"mistake", "best", "only", "inaccuracy"} <= marks["tricks"] | marks["score"]


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_quick_gives_the_marks_of_the_full_analysis(players: int, seed: int) -> None:
    """A quick analysis marks every play as the full one does, except that it calls
    ``best`` what the full one may call ``only``; every value it gives is the full one's;
    a safe play skips the others' values, and a losing one names a safe play and its
    line when there is one, or proves every play lost."""
    rec = record(players, seed)
    full = analysed(players, seed, "paradox")
    quick = analyse_game(rec, "paradox", tricks=last(rec, 3 if players <= 3 else 2),
                         quick=True)
    assert quick.unknown == 0 and len(quick.notes) == len(full.notes)
    kinds = set()
    for q, f in zip(quick.notes, full.notes, strict=True):
        assert (q.round, q.trick, q.seat, q.play) == (f.round, f.trick, f.seat, f.play)
        assert q.mark == f.mark or (q.mark, f.mark) == ("best", "only"), q
        assert (q.value_played, q.value_best) == (f.value_played, f.value_best)
        exact = {r.play: r.result for r in f.values}
        assert [r.play for r in q.values] == list(exact)
        assert all(r.result in (None, exact[r.play]) for r in q.values)
        assert not q.open
        if q.mark in LOSING:
            assert q.line == f.line
            assert q.better[0] in q.best and exact[q.better[0]] is True
            pos = q.position
            for p in q.better:
                pos = pos.play(p)
        if q.every_value:
            assert (q.values, q.best) == (f.values, f.best)
            kinds.add("every value")
        elif q.mark == "best":
            assert q.value_played is True and q.best == (q.play,)
            kinds.add("safe")
        else:
            assert q.mark == "blunder" and len(q.best) == 1
            kinds.add("blunder")
    assert kinds >= {"every value", "safe"}, kinds


def test_quick_skips_values_and_is_for_paradox(game_file: Path) -> None:
    rec = record(3, 10)
    a = analyse_game(rec, "paradox", tricks=(6, 8), quick=True)
    assert sum(not n.every_value for n in a.notes) >= 5
    # a losing play proven a blunder by the one search of the position before it
    assert sum(n.mark == "blunder" and not n.every_value for n in a.notes) == 2
    with pytest.raises(SearchError, match="^a quick analysis is for the paradox question"):
        analyse_game(rec, "tricks", tricks=(6, 8), quick=True)
    code, out, err = run("annotate", str(game_file), "--tricks", "6-8", "--quick", "--json",
                         "-q")
    assert (code, err) == (0, "")
    rows = json.loads(out)["plays"]
    assert [r["every_value"] for r in rows] == [n.every_value for n in a.notes]
    assert [r["mark"] for r in rows] == [n.mark for n in a.notes]
    code, out, err = run("annotate", str(game_file), "--quick", "--question", "tricks")
    assert (code, out, err) == (2, "", "error: --quick is for --question paradox, not tricks\n")


def test_the_summary_counts_the_marks() -> None:
    a = analysed(3, 10, "paradox")
    seats = a.summary()
    for s in seats:
        mine = [n for n in a.notes if n.seat == s.seat]
        assert s.marks == {m: sum(n.mark == m for n in mine) for m in an.MARKS}
        caused = {r.number for r in a.verdict.rounds if r.paradox_by == s.seat}
        assert s.avoidable_paradoxes == len(
            {n.round for n in mine if n.mark == "blunder"} & caused)
        assert s.given_away is None
    t = analysed(3, 10, "tricks")
    for s in t.summary():
        assert s.given_away == sum(n.loss[0] for n in t.notes
                                   if n.seat == s.seat and n.loss is not None)
        assert s.avoidable_paradoxes is None


RANGE = st.tuples(st.integers(-4, 4), st.integers(0, 4)).map(lambda t: (t[0], t[0] + t[1]))


@given(st.sampled_from(["tricks", "score"]), st.lists(RANGE, min_size=2, max_size=6),
       st.data())
def test_a_mark_is_given_only_when_every_value_in_the_ranges_has_it(
    question: str, ranges: list[tuple[int, int]], data: st.DataObject
) -> None:
    plays = [Play(v, 1) for v in range(1, len(ranges) + 1)]
    results = [PlayResult(p, lo) if lo == hi else PlayResult(p, None, (lo, hi))
               for p, (lo, hi) in zip(plays, ranges, strict=True)]
    played = data.draw(st.sampled_from(plays))
    mark, loss = judge(question, results, played)
    assert loss is not None
    # any values within the ranges give a mark the judge allows
    values = {p.text: data.draw(st.integers(lo, hi))
              for p, (lo, hi) in zip(plays, ranges, strict=True)}
    truth = reference_mark(question, values, played.text)
    if mark != "unknown":
        assert truth == mark or (mark == "best" and truth == "only")
    lost = max(values.values()) - values[played.text]
    assert loss[0] <= lost <= loss[1]


def test_jobs_give_the_same_analysis() -> None:
    rec = record(4, 4)
    one = analysed(4, 4, "tricks")
    two = analyse_game(rec, "tricks", jobs=2, tricks=last(rec, 2))
    strip = [{k: v for k, v in n.to_json().items() if k != "seconds"} for n in one.notes]
    assert strip == [{k: v for k, v in n.to_json().items() if k != "seconds"}
                     for n in two.notes]


# ---- the command line ---------------------------------------------------------------------
def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.txt"
    path.write_text(write_record(record(3, 10)), encoding="utf-8")
    return path


def test_json_shape(game_file: Path) -> None:
    code, out, err = run("annotate", str(game_file), "--tricks", "6-8", "--json", "-q")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert set(data) == {"question", "players", "ruleset", "hidden", "plays", "summary",
                         "verdict", "seconds"}
    assert (data["question"], data["players"], data["hidden"]) == ("paradox", 3, False)
    a = analysed(3, 10, "paradox")
    assert len(data["plays"]) == len(a.notes)
    for row, note in zip(data["plays"], a.notes, strict=True):
        assert set(row) >= {"round", "trick", "seat", "play", "position", "value_played",
                            "value_best", "best", "mark", "values", "line", "hidden"}
        assert (row["round"], row["trick"], row["seat"], row["play"], row["mark"]) == (
            note.round, note.trick, note.seat, note.play.text, note.mark)
        assert row["position"] == position_to_notation(note.position)
        assert row["best"] == [p.text for p in note.best]
        assert row["value_played"] is note.value_played
    summary = data["summary"]
    assert (summary["plays"], summary["analysed"], summary["unknown"]) == (
        len(a.notes), len(a.notes), 0)
    assert [s["marks"] for s in summary["seats"]] == [s.marks for s in a.summary()]
    assert data["verdict"] == {"valid": True, "message": None}


def test_text_lists_the_losing_plays_and_a_table(game_file: Path) -> None:
    code, out, _ = run("annotate", str(game_file), "--tricks", "6-8", "--brief", "-q")
    assert code == 0
    a = analysed(3, 10, "paradox")
    losing = [n for n in a.notes if n.mark in LOSING]
    assert losing
    for n in losing:
        assert f"round {n.round} trick {n.trick} seat {n.seat} {n.play.text:3} {n.mark}" in out
    assert out.count("  after it: ") == len(losing)
    assert "avoidable paradoxes" in out


def test_a_malformed_record_or_question_is_one_line_exit_2(tmp_path: Path,
                                                            game_file: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(write_record(record(3, 5)).replace("trick 2 ", "trick 9 "), "utf-8")
    code, out, err = run("annotate", str(bad))
    assert (code, out) == (2, "")
    assert err == f"error: {bad}: line 12: trick 9 where trick 2 was expected\n"
    code, out, err = run("annotate", str(game_file), "--question", "table")
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and "table" in err
    code, _, err = run("annotate", str(game_file), "--tricks", "8-6")
    assert code == 2 and err.startswith("error: --tricks '8-6'")


def test_an_illegal_record_is_judged_up_to_its_first_illegal_event(tmp_path: Path) -> None:
    text = write_record(record(3, 5))
    # round 3's trick 4 has seat 0 declare 3g: make it declare a cell already taken
    assert "trick 4 2:3b 0:3g 1:5g" in text
    bad = text.replace("trick 4 2:3b 0:3g 1:5g", "trick 4 2:3b 0:4g 1:5g")
    rec = read_record(bad)
    verdict = verify(rec)
    assert not verdict.valid and verdict.round == 3
    path = tmp_path / "illegal.txt"
    path.write_text(bad, "utf-8")
    code, out, _ = run("annotate", str(path), "--tricks", "4-8", "--json", "-q")
    assert code == 1
    data = json.loads(out)
    assert data["verdict"] == {"valid": False, "message": str(verdict)}
    judged = [(p["round"], p["trick"], p["seat"]) for p in data["plays"]]
    assert judged[-1] == (3, 4, 2)  # the play before the illegal one is the last judged
    assert len([j for j in judged if j[0] < 3]) == len(
        [s for s in replay(record(3, 5)) if s.round < 3 and s.trick >= 4])
    code, out, _ = run("annotate", str(path), "--tricks", "4-8", "-q")
    assert code == 1 and out.splitlines()[-1] == str(verdict)


def test_a_value_left_open_is_unknown_and_exit_3(tmp_path: Path) -> None:
    path = tmp_path / "game4.txt"
    path.write_text(write_record(record(4, 4)), "utf-8")
    code, out, _ = run("annotate", str(path), "--round", "1", "--tricks", "1",
                       "--timeout-per-play", "0", "--json", "-q")
    assert code == 3
    data = json.loads(out)
    assert data["summary"]["unknown"] > 0
    first = data["plays"][0]
    assert first["mark"] == "unknown" and first["value_best"] is None
    assert any(v["value"] is None for v in first["values"])


def test_ctrl_c_prints_what_was_analysed(game_file: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    real = an.judge_step
    calls = [0]

    def judge_then_stop(*args: Any, **kw: Any) -> Any:
        calls[0] += 1
        if calls[0] == 4:
            raise KeyboardInterrupt
        return real(*args, **kw)

    monkeypatch.setattr(an, "judge_step", judge_then_stop)
    code, out, err = run("annotate", str(game_file), "--tricks", "6-8", "--json", "-q")
    assert code == 130
    assert err == "stopped by Ctrl-C: shown is what was analysed by then\n"
    data = json.loads(out)
    assert len(data["plays"]) == 3 and data["summary"]["complete"] is False
    assert data["plays"] == [n.to_json() | {"seconds": p["seconds"]} for n, p in zip(
        analysed(3, 10, "paradox").notes[:3], data["plays"], strict=True)]


def test_progress_on_a_terminal_counts_the_plays(game_file: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:

    monkeypatch.setattr(common, "show_progress", lambda quiet: not quiet)
    code, out, err = run("annotate", str(game_file), "--tricks", "6-8", "--json")
    assert code == 0
    total = len(analysed(3, 10, "paradox").notes)
    steps = [s.strip() for s in err.split("\r") if s.strip()]
    assert [s.split(" plays done")[0] for s in steps] == [
        f"annotating: {i}/{total}" for i in range(1, total + 1)]
    assert "left; last round " in steps[0] and err.endswith("\n")
    assert json.loads(out)["summary"]["analysed"] == total
    code, _, err = run("annotate", str(game_file), "--tricks", "6-8", "--json", "--quiet")
    assert (code, err) == (0, "")


def test_the_annotated_record_is_a_valid_record_with_the_marks(tmp_path: Path,
                                                               game_file: Path) -> None:
    target = tmp_path / "annotated.txt"
    code, _, _ = run("annotate", str(game_file), "--tricks", "6-8", "-q",
                     "--annotated", str(target))
    assert code == 0
    text = target.read_text("utf-8")
    rec = read_record(text)
    assert verify(rec) == verify(record(3, 10))
    assert write_record(rec) == text == write_record(annotated_record(analysed(3, 10, "paradox")))
    losing = [n for n in analysed(3, 10, "paradox").notes if n.mark in LOSING]
    notes = [t for r in rec.rounds for texts in r.comments.values() for t in texts]
    assert len(notes) == len(losing)
    for n, t in zip(losing, notes, strict=True):
        assert t.startswith(f" {n.seat}:{n.play.text} {n.mark}: played ")
    assert rec.comments["catbox-record"] == (" annotated: catbox annotate --question paradox",)


# ---- puzzles from a game ------------------------------------------------------------------
def test_blunders_become_puzzles_that_the_solver_checks(tmp_path: Path) -> None:
    rows = []
    for players, seed in GAMES:
        a = analysed(players, seed, "paradox")
        for gp in puzzles_from_game(a):
            assert gp.ok and gp.solution is not None
            assert set(gp.puzzle.plays) == set(gp.note.best)
            assert gp.puzzle.question == "safe"
            rows.append(gp)
    blunders = sum(n.mark == "blunder" for p, s in GAMES
                   for n in analysed(p, s, "paradox").notes)
    assert len(rows) == blunders > 0
    tricks = puzzles_from_game(analysed(4, 4, "tricks"))
    for gp in tricks:
        assert gp.ok and gp.puzzle.question == "best-tricks"
        assert gp.puzzle.value == gp.note.value_best


def test_puzzle_from_game_writes_files_that_puzzle_solve_accepts(tmp_path: Path,
                                                                  game_file: Path) -> None:
    out = tmp_path / "from-game"
    code, stdout, _ = run("puzzle", "from-game", str(game_file), "--tricks", "6-8",
                          "--out", str(out), "--json", "-q")
    assert code == 0
    data = json.loads(stdout)
    blunders = [n for n in analysed(3, 10, "paradox").notes if n.mark == "blunder"]
    assert [p["status"] for p in data["puzzles"]] == ["written"] * len(blunders)
    puzzles = load_puzzles(out)
    assert len(puzzles) == len(blunders)
    for pz in puzzles:
        assert solve_puzzle(pz).ok
    code, stdout, _ = run("puzzle", "solve", str(out), "--no-board")
    assert code == 0, stdout
    # a second run keeps the files
    code, stdout, _ = run("puzzle", "from-game", str(game_file), "--tricks", "6-8",
                          "--out", str(out), "-q")
    assert code == 0 and stdout.count("kept ") == len(blunders)


# ---- the single-dummy verdict -------------------------------------------------------------
def test_hidden_verdict_is_the_single_dummy_odds() -> None:
    rec = record(3, 10)
    a = analyse_game(rec, "paradox", hidden=True, samples=30, tricks=(6, 8))
    steps = [s for s in replay(rec) if s.trick >= 6]
    checked = 0
    for note, step in zip(a.notes, steps, strict=True):
        if len(note.values) == 1:
            assert note.hidden is None
            continue
        assert note.hidden is not None
        sd = single_dummy(step.position, step.seat, "paradox", samples=30,
                          discard=(step.discard,))
        shares = {p.play: p.share for p in sd.plays}
        top = max(shares.values())
        assert note.hidden.share_played == shares[step.play]
        assert note.hidden.share_best == top
        assert note.hidden.mark == hidden_mark("paradox", top - shares[step.play])
        checked += 1
    assert checked > 0
    assert hidden_mark("paradox", Fraction(0)) == "best"
    assert hidden_mark("paradox", Fraction(1, 20)) == "inaccuracy"
    assert hidden_mark("paradox", Fraction(1, 10)) == "mistake"
    assert hidden_mark("paradox", Fraction(1, 4)) == "blunder"
    excused = sum(s.excused or 0 for s in a.summary())
    assert excused == sum(n.mark in LOSING and n.hidden is not None and n.hidden.mark == "best"
                          for n in a.notes)



def test_a_stop_signal_ends_the_hidden_verdict_too() -> None:
    """The single-dummy verdict of a play runs under the analysis's StopSignal (with
    ``jobs``, Ctrl-C stops that signal): stopped, it searches no deal and says it is not
    complete, rather than running on for its whole time limit."""
    rec = record(3, 10)
    step = next(s for s in replay(rec) if s.trick >= 6 and len(s.position.legal_plays()) > 1)
    note = an.judge_step(step, "paradox", None, hidden=True, samples=30)
    assert note.hidden is not None and note.hidden.complete and note.hidden.deals == 30
    signal_ = StopSignal()
    signal_.stop()
    note = an.judge_step(step, "paradox", None, hidden=True, samples=30, stop=signal_)
    assert note.mark == "unknown"
    assert note.hidden is not None and not note.hidden.complete and note.hidden.deals == 0



def test_ctrl_c_with_jobs_keeps_no_half_judged_hidden_verdict(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With jobs, Ctrl-C (a real SIGINT, caught by the analysis) stops the StopSignal that
    a play's single-dummy verdict runs under: that play is dropped from what is printed,
    not kept with odds over part of its deals."""
    real = single_dummy
    calls = [0]

    def interrupted_odds(*args: Any, stop: StopSignal | None = None, **kw: Any) -> Any:
        calls[0] += 1
        if calls[0] == 2 and stop is not None:
            os.kill(os.getpid(), signal.SIGINT)
            waited = time.monotonic() + 10
            while not stop.stopped and time.monotonic() < waited:
                time.sleep(0.01)  # (the handler runs in the main thread)
        return real(*args, stop=stop, **kw)

    monkeypatch.setattr(an, "single_dummy", interrupted_odds)
    with pytest.raises(an.AnalysisInterrupted) as caught:
        analyse_game(record(3, 10), "paradox", hidden=True, samples=30, tricks=(6, 8),
                     jobs=2)
    partial = caught.value.partial
    assert isinstance(partial, Analysis) and not partial.complete and calls[0] >= 2
    assert all(n.hidden is None or n.hidden.complete for n in partial.notes)


# ---- the page in a real browser -----------------------------------------------------------
driver = test_browser.driver
by_css = test_browser.by_css


@pytest.mark.skipif(not test_browser.CHROMIUM.exists(), reason="needs Debian's chromium")
def test_the_page_in_a_headless_browser(driver: Any, tmp_path: Path) -> None:  # noqa: F811
    a = analysed(3, 10, "paradox")
    path = tmp_path / "analysis.html"
    write_analysis_html(a, path, title='Game <b>"3p"</b>')
    driver.get(path.as_uri())
    assert driver.title == 'Game <b>"3p"</b>'
    assert driver.execute_script("return window.sheetReady") is True
    assert driver.execute_script("return window.sheetErrors") == []
    assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []
    losing = [n for n in a.notes if n.mark in LOSING]
    sections = by_css(driver, "section.mistake")
    assert len(sections) == len(by_css(driver, "figure svg")) == len(losing) > 0
    for sec, n in zip(sections, losing, strict=True):
        assert sec.find_element("css selector", "h3").text == (
            f"Round {n.round}, trick {n.trick}: seat {n.seat} played {n.play.text}?? "
            f"— {n.mark}")
        assert "Better: " + " ".join(p.text for p in n.best) in sec.text
    spans = by_css(driver, "span.play")
    assert [s.text for s in spans] == [
        f"{n.seat}:{n.play.text}{'??' if n.mark == 'blunder' else ''}" for n in a.notes]
    rows = by_css(driver, "table.summary tr")
    assert len(rows) == 1 + 3
    # a losing play's link leads to its board
    link = by_css(driver, "span.play.blunder a")[0]
    link.click()
    assert driver.execute_script("return location.hash") == "#" + sections[0].get_attribute(
        "id")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert not by_css(driver, "nav")[0].is_displayed()
        assert all(f.is_displayed() for f in by_css(driver, "figure"))
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


# ---- the bench script's arguments ---------------------------------------------------------
@pytest.mark.parametrize(("argv", "message"), [
    (["--players", "6"], "--players: 6 is not 2 to 5"),
    (["--seeds", "a,b"], "--seeds 'a,b': numbers separated by commas"),
    (["--questions", "table"], "--questions: 'table' is not one of paradox, tricks, score"),
    (["--timeout-per-play", "0"], "--timeout-per-play 0.0: more than 0, at most 3600"),
])
def test_bench_annotate_checks_its_arguments_first(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    module = load_script("bench/bench_annotate.py")
    with pytest.raises(SystemExit) as exc:
        module.parse_args(argv)
    assert exc.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].endswith(f"error: {message}")
    good = module.parse_args(["--players", "3,4", "--seeds", "0", "--questions", "tricks"])
    assert (good.player_counts, good.seed_list, good.question_list) == ([3, 4], [0], ["tricks"])
