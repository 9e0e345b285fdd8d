"""``catbox odds``: the text and JSON answers, the exit codes (3 cut short, 2 bad input) and
batches."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from child import ctrl_c_command
from click.testing import CliRunner
from oracles.gen import line_position, random_line, start_position

from catbox_solver.cli import common, main
from catbox_solver.dd import hidden
from catbox_solver.formats.notation import position_to_notation
from catbox_solver.model.rules import Ruleset

# a 2-player position where the plays' odds differ (tests/test_hidden.py): 3g safe in 2/3
# of the deals, 1y in 1/15
SPLIT = position_to_notation(line_position(2, 6, 13))


def _run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, list(args))
    return res.exit_code, res.stdout, res.stderr


def test_exact_odds_text() -> None:
    code, out, err = _run("odds", SPLIT, "--exact", "--quiet")
    assert code == 0 and err == ""
    assert SPLIT == ("2p official | R:100.0 B:111.1 Y:.0010 G:NN.N0 | 24 135 | RYG BYG "
                     "| lead 0: 5g | won 3 3 | left 2")
    assert out.splitlines()[:-1] == [
        "can seat 1 be sure never to cause a paradox? (each deal solved double dummy)",
        "7 deals seat 1 cannot tell apart, weighted by the 15 ways to deal the hidden cards",
        "seat 1's own discard is not given: it is dealt with the hidden cards (--discard V)",
        "play  safe in  exactly",
        "  3g   66.7 %  2/3",
        "  1y    6.7 %  1/15",
        "seeing every hand (the best play in each deal): 73.3 % (11/15)",
    ]
    assert out.splitlines()[-1].endswith(" s")


def test_sampled_odds_text_and_json_agree() -> None:
    code, out, _ = _run("odds", SPLIT, "--question", "tricks", "--samples", "20",
                        "--seed", "3", "--sampled")
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == "20 deals drawn at random (seed 3) from the 15 ways to deal the hidden cards"
    assert lines[3] == "play     mean   ± s.e.    worst     best  exactly"
    code, out, _ = _run("odds", SPLIT, "--question", "tricks", "--samples", "20",
                        "--seed", "3", "--sampled", "--json")
    data = json.loads(out)
    assert (data["method"], data["seed"], data["asked"], data["deals"], data["weight"]) == (
        "sampled", 3, 20, 20, 20)
    assert (data["ways"], data["undecided"], data["complete"]) == (15, 0, True)
    rows = [f"{p['text']:>4}  {p['share']:7.2f}  {p['error']:7.2f}  {p['worst']:>7}  "
            f"{p['best']:>7}  {p['fraction']}" for p in data["plays"]]
    assert lines[4:4 + len(rows)] == rows and len(rows) == 2
    assert (data["to_move"], data["discard"], data["ruled_out"]) == (True, [], None)


def test_odds_of_a_seat_not_to_move() -> None:
    code, out, _ = _run("odds", SPLIT, "--hero", "0", "--exact", "--question", "tricks")
    assert code == 0
    assert "trick points seat 0 can be sure of" in out
    assert "seat 0 is not to move; the position itself: " in out
    assert "play " not in out


def test_no_time_exits_3() -> None:
    code, out, _ = _run("odds", SPLIT, "--timeout", "0", "--samples", "5")
    assert code == 3
    assert out.splitlines()[1:] == [
        "0 of 5 deals drawn at random (seed 0) from the 15 ways to deal the hidden cards",
        "seat 1's own discard is not given: it is dealt with the hidden cards (--discard V)",
        "cut short (out of time): only the deals finished count",
        "no deal decided: no odds",
    ]


@pytest.mark.parametrize("args, message", [
    (["--discard", "x"], "error: Invalid value for '--discard': 'x' is not a whole number"),
    (["--discard", "7"], "error: the discarded value must be at least 1 and at most 5, not 7"),
    (["--hero", "5"], "error: --hero 5: seats are 0-1"),
    (["--samples", "0"], "error: Invalid value for '--samples'"),
    (["--question", "table"], "error: Invalid value for '--question'"),
    (["--exact", "--max-deals", "6"],
     "error: 7 deals are consistent with what seat 1 sees, more than 6 to search: "
     "sample them"),
])
def test_bad_input_is_one_line_exit_2(args: list[str], message: str) -> None:
    code, out, err = _run("odds", SPLIT, *args)
    assert code == 2 and out == ""
    assert err.startswith(message) and err.count("\n") == 1


def test_a_batch_answers_each_line(tmp_path: Path) -> None:
    batch = tmp_path / "two.jsonl"
    batch.write_text(f"{SPLIT}\nnot a position\n", encoding="utf-8")
    code, out, err = _run("odds", f"@{batch}", "--exact", "--json")
    assert code == 2
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["deals"] == 7 and first["double_dummy_fraction"] == "11/15"
    assert "error" in second
    assert "1 of 2 lines could not be read" in err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_prints_the_odds_over_the_deals_finished(jobs: str) -> None:
    """Ctrl-C (a real SIGINT) while many deals are weighed, one at a time or two at once
    in threads: the odds over the deals finished are printed, marked not complete (none
    counted as undecided), and the exit code is 130."""
    rng = random.Random(2)
    line = random_line(start_position(Ruleset(players=4), rng), rng)
    pos = next(p for p in line if p.tricks_left <= 4 and not p.is_over)
    out, _ = ctrl_c_command(
        ["odds", position_to_notation(pos), "--samples", "1000000", "--json", "--jobs", jobs],
        "from catbox_solver.dd.warmup import warm_up\nwarm_up()", 1.0)
    data = json.loads(out)
    assert data["complete"] is False and data["asked"] == 1_000_000
    assert 0 < data["deals"] == data["weight"] < 1_000_000 and data["undecided"] == 0


def test_progress_line_counts_the_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal (forced here) one progress line on stderr counts the deals, ended
    once; --quiet shows none."""
    monkeypatch.setattr(common, "show_progress", lambda quiet: not quiet)
    code, out, err = _run("odds", SPLIT, "--samples", "3")
    assert code == 0 and out.startswith("can seat 1 be sure")
    assert err.split("\r")[1:] == [
        "odds: 1/3 deals done", "odds: 2/3 deals done", "odds: 3/3 deals done\n"]
    code, _, err = _run("odds", SPLIT, "--samples", "3", "--quiet")
    assert code == 0 and err == ""


def test_few_deals_are_each_searched_once() -> None:
    """With no more deals than --samples the odds are exact, and the text says why;
    --sampled draws them."""
    code, out, _ = _run("odds", SPLIT, "--quiet")
    assert code == 0
    exact = _run("odds", SPLIT, "--exact", "--quiet")[1]
    assert out.splitlines()[1] == (
        "7 deals seat 1 cannot tell apart (no more than the 100 samples asked: each searched "
        "once), weighted by the 15 ways to deal the hidden cards")
    assert out.splitlines()[2:-1] == exact.splitlines()[2:-1]
    data = json.loads(_run("odds", SPLIT, "--json", "--samples", "7")[1])
    assert (data["method"], data["samples"], data["seed"], data["deals"]) == ("exact", 7, None, 7)
    data = json.loads(_run("odds", SPLIT, "--json", "--sampled")[1])
    assert (data["method"], data["samples"], data["seed"], data["deals"]) == (
        "sampled", 100, 0, 100)


def test_jobs_give_the_same_odds() -> None:
    pos = line_position(3, 30, 18)
    one = json.loads(_run("odds", position_to_notation(pos), "--json", "--samples", "40")[1])
    two = json.loads(_run("odds", position_to_notation(pos), "--json", "--samples", "40",
                          "--jobs", "2")[1])
    assert one | {"seconds": 0} == two | {"seconds": 0} and one["deals"] == 40


def test_progress_line_shows_the_step_of_a_long_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal searched for longer than hidden.QUIET_FOR (0 here) shows its solve's step
    under way, with the deals done so far."""
    monkeypatch.setattr(common, "show_progress", lambda quiet: not quiet)
    monkeypatch.setattr(hidden, "QUIET_FOR", 0.0)
    code, _, err = _run("odds", SPLIT, "--samples", "2", "--sampled")
    assert code == 0
    # (deal 1: the position's one search gives both plays' verdicts; deal 2: it does not)
    assert [part.rstrip() for part in err.split("\r")[1:]] == [
        "odds: 0/2 deals done; now deal 1: every play: paradox verdict",
        "odds: 1/2 deals done",
        "odds: 1/2 deals done; now deal 2: every play: paradox verdict",
        "odds: 1/2 deals done; now deal 2: 1y: paradox verdict",
        "odds: 1/2 deals done; now deal 2: 3g: paradox verdict",
        "odds: 2/2 deals done",
    ] and err.endswith("\n")
