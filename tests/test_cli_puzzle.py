"""``catbox puzzle solve`` and ``catbox puzzle generate``: readable solutions, exit codes
(1 for a wrong stored answer, 2 for a broken file), JSON, reproducible generation."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from catbox_solver.cli import main
from catbox_solver.puzzles import PuzzleTimeout, load_puzzle, solve_puzzle

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
FIG34 = PUZZLES / "fig-3-4-lead-red.toml"


def _run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, list(args))
    return res.exit_code, res.stdout, res.stderr


def test_solve_the_collection() -> None:
    code, out, err = _run("puzzle", "solve", str(PUZZLES), "--no-board", "--quiet")
    n = len(list(PUZZLES.glob("*.toml")))
    assert code == 0, err
    assert out.rstrip().splitlines()[-1] == f"{n} puzzles: every stored answer is right"
    assert out.count("Stored answer: correct") == n
    assert "WRONG" not in out
    # the stored ratings are what the solver measures today (they count search nodes, so
    # a faster search can lower them: then the files and docs/examples.md are updated)
    ratings = re.findall(r"difficulty stored (\d), measured (\d)\)", out)
    assert len(ratings) == n and all(a == b for a, b in ratings), ratings


def test_solve_one_file_readable() -> None:
    code, out, _ = _run("puzzle", "solve", str(FIG34))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"== fig-3-4-lead-red: Red is broken, lead it  ({FIG34})"
    assert "4 players, ruleset official" in lines  # the board from render_text
    assert "to move: seat 1" in lines
    assert (
        "Question: Seat 1 to play: which plays keep seat 1 safe from causing a paradox, "
        "whatever the others do?"
    ) in lines
    assert "Solution: 4r" in lines
    assert "  4r   right  seat 2 causes the paradox, not you" in lines
    refutations = [ln for ln in lines if ln.strip().startswith("refutation:")]
    assert len(refutations) == 3  # 7r, 8r, 8y
    assert all(r.endswith("seat 1 has no legal play: paradox") for r in refutations)
    assert any(ln.startswith("  7r   wrong, tempting: you (seat 1) hold 4") for ln in lines)
    assert lines[-1] == "1 puzzle: every stored answer is right"
    assert "\x1b[" not in out
    # --ansi colors the board also when piped (click stripped the codes before)
    code, colored, _ = _run("puzzle", "solve", str(FIG34), "--ansi")
    assert code == 0 and "\x1b[" in colored
    def untimed(text: str) -> str:
        return re.sub(r"[0-9.]+ s;", "_ s;", text)

    assert untimed(click.unstyle(colored)) == untimed(out)



def test_solve_exists_puzzle() -> None:
    code, out, _ = _run("puzzle", "solve", str(PUZZLES / "empty-square-green-5.toml"),
                        "--no-board")
    assert code == 0
    assert "Solution: no" in out.splitlines()
    assert "  no way to finish the round with no paradox, the green 5 cell left empty" in out
    code, out, _ = _run("puzzle", "solve", str(PUZZLES / "empty-square-yellow-2.toml"),
                        "--no-board")
    assert code == 0
    assert "Solution: yes" in out.splitlines()
    assert "  for example: " in out


def test_wrong_stored_answer_exit_1(tmp_path: Path) -> None:
    text = FIG34.read_text(encoding="utf-8").replace('answer = ["4r"]', 'answer = ["7r"]')
    f = tmp_path / "wrong.toml"
    f.write_text(text, encoding="utf-8")
    code, out, _ = _run("puzzle", "solve", str(f), "--no-board")
    assert code == 1
    assert "Stored answer: WRONG: stored answer 7r, solver says 4r (" in out
    assert out.rstrip().splitlines()[-1] == "1 of 1 stored answers wrong: fig-3-4-lead-red"


def test_a_puzzle_out_of_time_is_not_checked_and_the_rest_go_on(tmp_path: Path) -> None:
    """--timeout 0: a puzzle that needs a search runs out of time at once and is marked
    not checked (exit code 3), while a force-paradox puzzle (no search) is still checked;
    a wrong stored answer beside it still gives exit code 1. (The first puzzle out of
    time ended the whole run with exit code 2 and printed nothing.)"""
    slow = "avoid-paradox-4p-a612a77a"
    quick = "force-paradox-4p-18fcf1f1"
    for name in (slow, quick):
        (tmp_path / f"{name}.toml").write_bytes((PUZZLES / f"{name}.toml").read_bytes())
    code, out, err = _run("puzzle", "solve", str(tmp_path), "--timeout", "0", "--json")
    data = json.loads(out)
    assert [p["id"] for p in data["puzzles"]] == [quick] and data["wrong"] == []
    assert data["unchecked"] == [{
        "id": slow, "file": str(tmp_path / f"{slow}.toml"),
        "reason": "the search ran out of time (--timeout)",  # (the file: its own field)
    }]
    assert (code, err) == (3, "")
    code, out, _ = _run("puzzle", "solve", str(tmp_path), "--timeout", "0", "--no-board")
    assert code == 3
    # the file is named once, in the heading (the reason named it again)
    assert f"== {slow}: Only one way out (4 players)  ({tmp_path / slow}.toml)\nStored answer: " \
           "not checked: the search ran out of time (--timeout)\n" in out
    assert out.rstrip().splitlines()[-2:] == [
        "2 puzzles: the 1 stored answer checked is right",
        f"1 of 2 not checked (out of time): {slow}",
    ]
    # the library names the puzzle in the message, and keeps the reason apart
    with pytest.raises(PuzzleTimeout) as late:
        solve_puzzle(load_puzzle(tmp_path / f"{slow}.toml"), timeout=0)
    assert str(late.value) == (f"{tmp_path / slow}.toml: the search ran out of time "
                               "(--timeout)")
    assert late.value.reason == "the search ran out of time (--timeout)"
    code, out, _ = _run("puzzle", "solve", str(tmp_path / f"{slow}.toml"), "--timeout", "0")
    assert code == 3  # (none checked: this said "every stored answer checked is right")
    assert out.rstrip().splitlines()[-2:] == [
        "1 puzzle: none checked", f"1 of 1 not checked (out of time): {slow}",
    ]
    text = FIG34.read_text(encoding="utf-8").replace('answer = ["4r"]', 'answer = ["7r"]')
    (tmp_path / "wrong.toml").write_text(text, encoding="utf-8")
    code, out, _ = _run("puzzle", "solve", str(tmp_path), "--timeout", "30", "--no-board")
    assert code == 1  # (with 30 s every search ends in time)
    assert out.rstrip().splitlines()[-1] == "1 of 3 stored answers wrong: fig-3-4-lead-red"
    code, out, _ = _run("puzzle", "solve", str(tmp_path), "--timeout", "0", "--no-board")
    assert code == 3  # (fig-3-4 needs a search: out of time too, so nothing is wrong)
    assert out.rstrip().splitlines()[-1] == (
        f"2 of 3 not checked (out of time): {slow}, fig-3-4-lead-red"
    )


def test_broken_file_is_one_line_exit_2(tmp_path: Path) -> None:
    f = tmp_path / "broken.toml"
    f.write_text(FIG34.read_text(encoding="utf-8").replace("players = 4", "players = 9"),
                 encoding="utf-8")
    code, out, err = _run("puzzle", "solve", str(f))
    assert code == 2
    assert out == ""
    assert err == f"error: {f}: field 'players' must be 2-5, not 9\n"
    code, _, err = _run("puzzle", "solve", str(tmp_path / "missing"))
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1


def test_solve_json() -> None:
    code, out, _ = _run("puzzle", "solve", str(FIG34), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["wrong"] == [] and data["unchecked"] == []
    (p,) = data["puzzles"]
    assert p["id"] == "fig-3-4-lead-red"
    assert p["ok"] is True and p["answer"] == ["4r"] and p["hero"] == 1
    assert [x["play"] for x in p["plays"]] == ["4r", "7r", "8r", "8y"]
    assert [x["correct"] for x in p["plays"]] == [True, False, False, False]
    assert all(x["line"][0] == x["play"] for x in p["plays"])
    assert set(p) == {"id", "file", "question", "hero", "ok", "problems", "answer", "value",
                      "plays", "witness", "clash", "nodes", "seconds", "depth", "tempting",
                      "difficulty"}


def test_generate_writes_solvable_files_reproducibly(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    args = ["puzzle", "generate", "--theme", "avoid-paradox", "--players", "3",
            "--count", "3", "--seed", "5", "--quiet"]
    code, out, err = _run(*args, "--out", str(a))
    assert code == 0, err
    assert out.rstrip().splitlines()[-1] == f"wrote 3 avoid-paradox puzzles to {a}"
    code, _, _ = _run(*args, "--out", str(b))
    assert code == 0
    names = sorted(f.name for f in a.glob("*.toml"))
    assert len(names) == 3
    assert names == sorted(f.name for f in b.glob("*.toml"))
    for n in names:
        assert (a / n).read_text(encoding="utf-8") == (b / n).read_text(encoding="utf-8")
    code, out, _ = _run("puzzle", "solve", str(a), "--no-board")
    assert code == 0
    assert out.rstrip().splitlines()[-1] == "3 puzzles: every stored answer is right"
    # the same seed again into the same directory: the same puzzles, reported as there
    # and not written again (it made 3 other puzzles, though its help said "same seed,
    # same puzzles")
    before = {n: (a / n).read_bytes() for n in names}
    code, out, _ = _run(*args, "--out", str(a), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["files"] == [] and data["kept"] == []
    assert sorted(Path(f).name for f in data["present"]) == names
    assert {f.name: f.read_bytes() for f in a.glob("*.toml")} == before
    code, out, _ = _run(*args, "--out", str(a))
    assert out.rstrip().splitlines()[-1] == (
        f"wrote 0 avoid-paradox puzzles to {a} (3 already there)"
    )
    # more of the same seed: the first 3 are there, the next 2 are new
    code, out, _ = _run(*args[:-5], "--count", "5", "--seed", "5", "--quiet",
                        "--out", str(a), "--json")
    data = json.loads(out)
    assert sorted(Path(f).name for f in data["present"]) == names
    assert len(data["files"]) == 2 and len(list(a.glob("*.toml"))) == 5
    code, _, _ = _run(*args[:-5], "--count", "5", "--seed", "5", "--quiet",
                      "--out", str(b))
    assert sorted(f.name for f in a.glob("*.toml")) == sorted(f.name for f in b.glob("*.toml"))


def test_generate_never_overwrites_and_checks_before_making_out(tmp_path: Path) -> None:
    """A file of a new puzzle's name already in --out (its position edited since) is
    kept, and said so (it was replaced without a word); a theme that cannot work makes
    no directory (empty ones were left behind)."""
    args = ["puzzle", "generate", "--theme", "avoid-paradox", "--players", "3",
            "--count", "1", "--seed", "5", "--quiet"]
    code, out, _ = _run(*args, "--out", str(tmp_path / "a"), "--json")
    assert code == 0
    (first,) = json.loads(out)["files"]
    edited = Path(first).read_text(encoding="utf-8").replace(
        'title = "', 'title = "Edited: ', 1
    )
    text = edited.splitlines()
    pos_line = next(i for i, ln in enumerate(text) if ln.startswith("position = "))
    other = (PUZZLES / "avoid-paradox-3p-0106eb9c.toml").read_text(encoding="utf-8")
    text[pos_line] = next(ln for ln in other.splitlines() if ln.startswith("position = "))
    Path(first).write_text("\n".join(text) + "\n", encoding="utf-8")
    code, out, err = _run(*args, "--out", str(tmp_path / "a"), "--json")
    assert code == 0, err
    data = json.loads(out)
    # (the seed's first puzzle is this one: kept, and no other puzzle written in its place,
    # so that the same seed stays the same puzzles)
    assert data["kept"] == [first] and data["files"] == [] and data["present"] == []
    assert err == f"kept {first}: a file of that name is there (not overwritten)\n"
    assert Path(first).read_text(encoding="utf-8") == "\n".join(text) + "\n"
    code, out, err = _run(*args, "--out", str(tmp_path / "a"))
    assert out.rstrip().splitlines()[-1] == f"wrote 0 avoid-paradox puzzles to {tmp_path / 'a'}"
    code, _, err = _run("puzzle", "generate", "--theme", "exact-bid", "--players", "2",
                        "--out", str(tmp_path / "z" / "deep"))
    assert code == 2 and err == (
        "error: the exact-bid theme is for 3-5 players (--players 3, 4 or 5)\n"
    )
    assert not (tmp_path / "z").exists()


def test_export_to_standard_output_with_dash(tmp_path: Path) -> None:
    code, out, err = _run("puzzle", "export", str(FIG34), "-o", "-")
    assert code == 0 and out.startswith("<!DOCTYPE html>") and err == ""
    assert not Path("-").exists()
    code, _, err = _run("puzzle", "export", str(FIG34), "-o", str(tmp_path / "s.html"))
    assert code == 0 and err.startswith(f"wrote {tmp_path / 's.html'}: 1 puzzle, ")


def test_generate_bad_input_exit_2(tmp_path: Path) -> None:
    code, _, err = _run("puzzle", "generate", "--theme", "empty-square", "--players", "4",
                        "--out", str(tmp_path))
    assert code == 2
    assert err == "error: the empty-square theme is a 2-player theme (--players 2)\n"
    code, _, err = _run("puzzle", "generate", "--theme", "chess", "--out", str(tmp_path))
    assert code == 2
    assert "Invalid value for '--theme'" in err


def test_help_has_examples() -> None:
    for cmd in ("solve", "generate"):
        code, out, _ = _run("puzzle", cmd, "--help")
        assert code == 0
        assert "Example:" in out
        assert f"catbox puzzle {cmd}" in out
