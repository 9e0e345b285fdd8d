"""``catbox solve`` and ``catbox ddtable``: JSON shape, --hero to-move, bad input (exit 2),
timeouts (unknown), batches."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from child import ctrl_c_command
from click.testing import CliRunner
from oracles.gen import random_line, start_position
from oracles.minimax_ref import minimax, terminal_value

from catbox_solver.cli import common, main
from catbox_solver.dd.answer import OutOfTime
from catbox_solver.dd.search import Search
from catbox_solver.dd.solve import solve
from catbox_solver.formats.jsonform import position_to_json
from catbox_solver.formats.notation import position_to_notation
from catbox_solver.model.position import Play, Position
from catbox_solver.model.rules import Ruleset


def _late(players: int, seed: int) -> Position:
    """A position with at most 3 tricks left in a seeded random round (the first seed from
    ``seed`` on whose round gets that far)."""
    while True:
        line = random_line(start_position(Ruleset(players=players), seed), seed)
        late = [p for p in line if p.tricks_left <= 3 and p.trick and p.legal_plays()]
        if late:
            return late[0]
        seed += 1


def _run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, list(args))
    return res.exit_code, res.stdout, res.stderr


def test_solve_json_shape_and_values() -> None:
    pos = _late(4, 3)
    code, out, _ = _run("solve", position_to_json(pos), "--hero", "to-move",
                        "--question", "tricks", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"question", "hero", "value", "plays", "pv", "nodes", "seconds"}
    assert data["question"] == "tricks"
    assert data["hero"] == pos.to_move
    assert data["value"] == minimax(pos, pos.to_move, "tricks")
    assert [(p["value"], p["color"]) for p in data["plays"]] == [
        (p.value, "RBYG"[p.color]) for p in pos.legal_plays()
    ]
    assert [p["result"] for p in data["plays"]] == [
        minimax(pos.after(p), pos.to_move, "tricks") for p in pos.legal_plays()
    ]
    assert all(set(p) >= {"value", "color"} for p in data["pv"])
    end = pos  # the line replays through the rules engine and ends with the value
    for p in data["pv"]:
        end = end.play(Play(p["value"], "RBYG".index(p["color"])))
    assert not end.legal_plays() and terminal_value(end, pos.to_move, "tricks") == data["value"]
    assert isinstance(data["nodes"], int) and isinstance(data["seconds"], float)


def test_solve_paradox_and_table_are_booleans() -> None:
    pos = _late(3, 5)
    for q in ("paradox", "table"):
        code, out, _ = _run("solve", position_to_json(pos), "--hero", "1", "--question", q,
                            "--json")
        assert code == 0
        data = json.loads(out)
        assert data["hero"] == 1
        assert data["value"] is minimax(pos, 1, q)
        assert all(isinstance(p["result"], bool) for p in data["plays"])


def test_solve_readable_output() -> None:
    pos = _late(4, 8)
    code, out, _ = _run("solve", position_to_json(pos), "--question", "paradox")
    assert code == 0
    value = minimax(pos, pos.to_move, "paradox")
    assert out.splitlines()[0] == (
        f"can seat {pos.to_move} be sure never to cause a paradox? {'yes' if value else 'no'}"
    )
    assert "after each play of the hero (to move), best first:" in out
    assert "nodes" in out.splitlines()[-1]
    # another seat to move plays against the hero: its plays come worst for the hero first
    other = (pos.to_move + 1) % 4
    code, out, _ = _run("solve", position_to_json(pos), "--question", "tricks",
                        "--hero", str(other))
    head = f"after each play of seat {pos.to_move} (to move), worst for the hero first:"
    assert out.splitlines()[1] == head
    values = [int(x.split()[1]) for x in out.splitlines()[2:] if x.startswith("  ")]
    assert len(values) > 1 and values == sorted(values)


def test_solve_bad_input_exits_2() -> None:
    pos = _late(4, 3)
    text = position_to_json(pos)
    for args, msg in (
        (["--hero", "9"], "--hero 9: seats are 0-3"),
        (["--hero", "north"], "--hero must be a seat number"),
    ):
        code, out, err = _run("solve", text, *args)
        assert code == 2
        assert msg in err
        assert "Traceback" not in err
    code, _, err = _run("solve", '{"format": "nope"}')
    assert code == 2 and err.startswith("error:")
    bad = pos.with_predictions([None, 1, 1, 1])
    code, _, err = _run("solve", position_to_json(bad), "--hero", "0", "--question", "score")
    assert code == 2
    assert "prediction of seat 0 is unknown" in err


def test_solve_timeout_is_unknown() -> None:
    """Out of time: unknown values (with the ranges proven) and exit code 3, as exists
    and prove (it was 0: a script could not tell)."""
    pos = start_position(Ruleset(players=4), 7, distinct_discards=True)
    code, out, _ = _run("solve", position_to_json(pos), "--timeout", "0.05", "--json")
    assert code == 3
    data = json.loads(out)
    assert data["value"] is None
    assert data["pv"] == []
    # what is proven stays: the value and every play within the range of any outcome
    # (8 tricks left, none won: a paradox after 7 more tricks at worst, 8 tricks at best)
    assert -7 <= data["bounds"][0] <= data["bounds"][1] <= 8
    assert len(data["plays"]) == len(pos.legal_plays())
    for r in data["plays"]:
        assert r["result"] is None
        assert -7 <= r["bounds"][0] <= r["bounds"][1] <= 8
    code, out, _ = _run("solve", position_to_json(pos), "--timeout", "0.05")
    assert out.splitlines()[0].startswith(
        "trick points seat 0 can be sure of unknown (out of time; proven "
    )
    assert code == 3
    code, out, _ = _run("ddtable", position_to_json(pos), "--timeout", "0.05", "--json")
    assert code == 3
    for r in json.loads(out)["table"]:
        assert r["tricks"] is None
        assert -7 <= r["tricks_bounds"][0] <= r["tricks_bounds"][1] <= 8
    code, out, _ = _run("ddtable", position_to_json(pos), "--timeout", "0.05")
    assert ".." in out.splitlines()[1].split()[2]
    assert code == 3


def test_undecided_answers_in_a_batch_are_counted(tmp_path: Path) -> None:
    """A batch with an answer the timeout left unknown: every answer, a count on stderr
    and exit code 3; decided within the timeout (a score unknown only for want of the
    prediction included): 0."""
    late, first = _late(3, 2), start_position(Ruleset(players=4), 7, distinct_discards=True)
    f = tmp_path / "two.jsonl"
    f.write_text(position_to_json(late) + "\n" + position_to_json(first) + "\n")
    for cmd in (["solve", "--question", "tricks"], ["ddtable"]):
        code, out, err = _run(*cmd[:1], f"@{f}", *cmd[1:], "--timeout", "0.05", "--json")
        assert (code, err) == (3, "1 of 2 lines undecided within the time limit\n")
        assert len(out.splitlines()) == 2
    # a line that cannot be read as well: exit code 2, and both counts on stderr (the
    # undecided one was lost behind the failed line's exit; review)
    f.write_text(position_to_json(late) + "\n{bad\n" + position_to_json(first) + "\n")
    for cmd in (["solve", "--question", "tricks"], ["ddtable"]):
        code, out, err = _run(*cmd[:1], f"@{f}", *cmd[1:], "--timeout", "0.05")
        assert code == 2
        assert err.splitlines()[1:] == ["1 of 3 lines undecided within the time limit",
                                        "error: 1 of 3 lines could not be read"]
    assert late.predictions is not None
    unknown = late.with_predictions([None, *late.predictions[1:]])
    for cmd in (["solve", "--question", "paradox"], ["ddtable"]):
        code, out, err = _run(*cmd[:1], position_to_json(unknown), *cmd[1:],
                              "--timeout", "60")
        assert (code, err) == (0, "")
    assert out.splitlines()[1].split()[-1] == "-"  # (seat 0's score: no prediction)


def test_jobs_give_the_same_answer_from_the_command_line() -> None:
    """--jobs N searches N plays (ddtable: seats) at once: the same JSON but for nodes and
    time; a negative count is a usage error (exit 2)."""
    text = position_to_json(_late(4, 3))

    def same(data: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in data.items() if k not in ("nodes", "seconds")}

    for cmd in (["solve", text, "--json"], ["solve", text, "--question", "score", "--json"],
                ["ddtable", text, "--json"]):
        code, one, _ = _run(*cmd)
        for jobs in ("2", "0"):
            code2, many, _ = _run(*cmd, "--jobs", jobs)
            assert code == code2 == 0
            assert same(json.loads(many)) == same(json.loads(one)), (cmd, jobs)
    for name in ("solve", "ddtable"):
        code, _, err = _run(name, text, "--jobs", "-1")
        assert code == 2 and "Invalid value for '--jobs'" in err and "Traceback" not in err


def test_solve_cut_short_in_the_line_keeps_the_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the time runs out while the best line is searched (the value and every play's
    result already proven), the answer keeps them and shows the start of the line found,
    said to be cut short ("pv_complete": false in the JSON)."""
    pos = _late(4, 3)
    exact = minimax(pos, pos.to_move, "tricks")
    whole = [p.text for p in solve(pos, pos.to_move, "tricks").pv]
    line = Search.principal_variation
    in_line = [False, 0]

    def start(s: Search, *args: Any) -> tuple[Play, ...]:
        in_line[0] = True
        return line(s, *args)

    u = Search._u

    def cut(s: Search, r: int) -> bool:
        if in_line[0]:
            in_line[1] += 1
            if in_line[1] > 2:  # the line's third search runs out of time (its first play
                # is taken from the plays' results, unsearched; this line has 3 searches)
                raise OutOfTime
        return u(s, r)

    monkeypatch.setattr(Search, "principal_variation", start)
    monkeypatch.setattr(Search, "_u", cut)
    code, out, _ = _run("solve", position_to_json(pos), "--json")
    data = json.loads(out)
    assert code == 0 and data["value"] == exact and data["pv_complete"] is False
    assert all(r["result"] is not None and "bounds" not in r for r in data["plays"])
    n = len(data["pv"])
    assert 1 <= n < len(whole) and [p["text"] for p in data["pv"]] == whole[:n]
    in_line[:] = [False, 0]
    code, out, _ = _run("solve", position_to_json(pos))
    assert code == 0 and out.splitlines()[0].endswith(f" {exact}")
    best = [ln for ln in out.splitlines() if ln.startswith("best line: ")]
    assert best and best[0].startswith(f"best line: out of time after {n} play")


@pytest.mark.parametrize("cmd", [["solve", "--json"], ["solve"], ["ddtable", "--jobs", "2"]])
def test_ctrl_c_prints_what_was_proven(cmd: list[str]) -> None:
    """Ctrl-C (a real SIGINT) during a first-lead solve or DD table with no timeout: the
    answer as far as it was proven is printed (unknowns with their ranges, "stopped"),
    a line on stderr says so, and the exit code is 130. The child is killed after 30 s
    so that a failure fails in time."""
    pos = start_position(Ruleset(players=4), 7, distinct_discards=True)
    # the command line in a child that says "go" once the core is loaded (then minutes)
    out, _ = ctrl_c_command(
        [cmd[0], position_to_json(pos), *cmd[1:]],
        "from catbox_solver.dd.solve import solve\n"
        "from catbox_solver.formats.jsonform import position_from_json\n"
        f"pos = position_from_json({position_to_json(pos)!r})\n"
        "solve(pos.after(pos.legal_plays()[0]), pos.to_move, 'paradox')", 0.5)
    if "--json" in cmd:
        data = json.loads(out)
        assert data["value"] is None and -7 <= data["bounds"][0] <= data["bounds"][1] <= 8
    elif cmd[0] == "solve":
        assert out.startswith("trick points seat 0 can be sure of unknown (stopped; proven ")
    else:
        assert ".." in out and "'lo..hi': stopped, proven in that range" in out


def test_progress_line_names_the_search_and_ends_its_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a terminal (forced here), solve and ddtable show one progress line on stderr:
    the searches done, the search under way and the range proven for it; the line is
    ended once, also when the time runs out before the last search; --quiet shows none."""
    monkeypatch.setattr(common, "show_progress", lambda quiet: not quiet)
    pos = _late(4, 3)
    code, out, err = _run("solve", position_to_json(pos), "--question", "tricks")
    assert code == 0 and out.startswith("trick points seat ")
    shown = err.split("\r")[1:]
    assert shown[0].startswith("solving: 0/") and "searches done; now " in shown[0]
    assert ": paradox verdict" in shown[0]
    assert any("exact tricks, proven " in s for s in shown)
    assert err.endswith("\n") and err.count("\n") == 1
    total = shown[-1].split("/")[1].split()[0]
    assert shown[-1].rstrip() == f"solving: {total}/{total} searches done"
    # out of time: the open line is ended, once
    first = start_position(Ruleset(players=4), 7, distinct_discards=True)
    code, out, err = _run("solve", position_to_json(first), "--timeout", "0.3")
    assert code == 3 and "out of time" in out
    assert err.endswith("\n") and err.count("\n") == 1
    assert "; now " in err.split("\r")[-1]  # cut short while a search was under way
    code, out, err = _run("ddtable", position_to_json(pos))
    assert code == 0 and err.count("\n") == 1
    assert "seats: 0/12 searches done; now seat 0: paradox verdict" in err
    assert "seat 0: trick points" in err
    code, out, err = _run("solve", position_to_json(pos), "--question", "tricks", "--quiet")
    assert code == 0 and err == ""


def test_ddtable_json_and_text() -> None:
    pos = _late(3, 2)
    code, out, _ = _run("ddtable", position_to_json(pos), "--json")
    assert code == 0
    data = json.loads(out)
    assert [r["seat"] for r in data["table"]] == [0, 1, 2]
    for r in data["table"]:
        assert r["paradox"] is minimax(pos, r["seat"], "paradox")
        assert r["tricks"] == minimax(pos, r["seat"], "tricks")
        assert r["score"] == minimax(pos, r["seat"], "score")
    code, out, _ = _run("ddtable", position_to_json(pos))
    assert code == 0
    assert out.splitlines()[0].split() == ["seat", "no", "paradox", "tricks", "score"]


def test_solve_batch(tmp_path: Path) -> None:
    a, b = _late(2, 1), _late(5, 2)
    f = tmp_path / "many.jsonl"
    f.write_text(position_to_json(a) + "\n{bad\n" + position_to_json(b) + "\n")
    code, out, _ = _run("solve", f"@{f}", "--question", "table", "--json")
    lines = [json.loads(x) for x in out.splitlines()]
    assert len(lines) == 3
    assert lines[0]["value"] is minimax(a, 0, "table")
    assert "error" in lines[1]
    assert lines[2]["value"] is minimax(b, 0, "table")
    assert code == 2


def test_solve_batch_goes_on_past_a_line_it_cannot_answer(tmp_path: Path) -> None:
    """A line the command cannot answer (its --hero is not a seat of that line's round;
    the score question without the hero's prediction) is reported with its file and line
    where its answer would have stood, and the batch goes on (it stopped the whole batch
    there, without saying which line)."""
    three, five = _late(3, 1), _late(5, 2)
    f = tmp_path / "mixed.jsonl"
    f.write_text(position_to_json(five) + "\n" + position_to_json(three) + "\n"
                 + position_to_json(five) + "\n")
    code, out, err = _run("solve", f"@{f}", "--hero", "4", "--question", "paradox", "--json")
    lines = [json.loads(x) for x in out.splitlines()]
    assert [x.get("value") for x in lines] == [minimax(five, 4, "paradox"), None,
                                               minimax(five, 4, "paradox")]
    assert lines[1] == {"error": f"{f} line 2: --hero 4: seats are 0-2"}
    assert (code, err) == (2, "error: 1 of 3 lines could not be answered\n")
    # text output: the error on stderr, the answers on stdout, and the same summary
    code, out, err = _run("solve", f"@{f}", "--hero", "4", "--question", "paradox")
    assert out.count("can seat 4 be sure never to cause a paradox?") == 2
    # each answer line names its input line: the second answer is line 3's
    blocks = [b.splitlines() for b in out.split("\n\n")]
    assert [len(b) > 1 for b in blocks] == [True, True]
    assert all(x.startswith("line 1:") for x in blocks[0])
    assert all(x.startswith("line 3:") for x in blocks[1])
    alone = _run("solve", position_to_json(five), "--hero", "4", "--question", "paradox")[1]
    # (all but the last line, which gives the nodes and the time)
    assert [x.removeprefix("line 3: ") for x in blocks[1][:-1]] == alone.splitlines()[:-1]
    assert blocks[1][-1].endswith(" s") and "nodes" in blocks[1][-1]
    assert err == (f"error: {f} line 2: --hero 4: seats are 0-2\n"
                   "error: 1 of 3 lines could not be answered\n")
    assert code == 2
    # the score question on a line whose hero's prediction is unknown
    data = json.loads(position_to_json(three))
    data["predictions"][2] = None
    f.write_text(position_to_json(three) + "\n" + json.dumps(data) + "\n")
    code, out, err = _run("solve", f"@{f}", "--hero", "2", "--question", "score", "--json")
    lines = [json.loads(x) for x in out.splitlines()]
    assert lines[0]["value"] == minimax(three, 2, "score")
    assert lines[1] == {"error": f"{f} line 2: the prediction of seat 2 is unknown: the "
                                 "score question needs it"}
    assert (code, err) == (2, "error: 1 of 2 lines could not be answered\n")
    # one line alone (it said "1 of 1 lines")
    f.write_text(json.dumps(data) + "\n")
    code, out, err = _run("solve", f"@{f}", "--hero", "2", "--question", "score", "--json")
    assert (code, err) == (2, "error: 1 of 1 line could not be answered\n")
    f.write_text(position_to_json(three) + "\n" + json.dumps(data) + "\n")
    # with a line that cannot be read as well, one summary (it said "1 lines")
    f.write_text(f.read_text() + "{bad\n")
    code, out, err = _run("solve", f"@{f}", "--hero", "2", "--question", "score", "--json")
    assert (code, err.splitlines()[-1]) == (
        2, "error: 1 of 3 lines could not be read, 1 line could not be answered")


def test_solve_and_ddtable_agree_with_the_plain_minimax_from_the_command_line() -> None:
    """solve's value and every play's result, and ddtable's trick column, equal the plain
    minimax; the one search has no --engine option (a usage error, exit 2)."""
    pos = _late(4, 11)
    code, out, _ = _run("solve", position_to_json(pos), "--question", "tricks", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["value"] == minimax(pos, pos.to_move, "tricks")
    assert [p["result"] for p in data["plays"]] == [
        minimax(pos.after(Play(p["value"], "RBYG".index(p["color"]))), pos.to_move, "tricks")
        for p in data["plays"]
    ]
    code, out, _ = _run("ddtable", position_to_json(pos), "--json")
    assert code == 0
    rows = json.loads(out)["table"]
    assert [r["tricks"] for r in rows] == [minimax(pos, s, "tricks") for s in range(4)]
    code, _, err = _run("solve", position_to_json(pos), "--engine", "python")
    assert code == 2 and "--engine" in err


def test_a_slow_first_search_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """At its first use after an install numba compiles the search core (40 s to 2 minutes of
    silence before): a command that searches makes the core ready before its searches and
    progress lines, and names a wait of more than a second on stderr, also when stderr is not
    a terminal (a script's user would see a hang), not with --quiet and not when the core is
    ready at once."""
    from catbox_solver.dd import warmup as dd

    note = "compiling the search kernel (first use after an install, once; "
    text = position_to_notation(_late(3, 1))
    calls: list[int] = []

    def slow_warm_up() -> None:
        calls.append(1)
        time.sleep(1.5)

    monkeypatch.setattr(dd, "warm_up", slow_warm_up)
    for cmd in (["solve", text], ["ddtable", text], ["rules", "diff", "official",
                "must-follow", "--players", "2", "--deals", "1", "--max-tricks-left", "1"]):
        code, out, err = _run(*cmd)
        assert code in (0, 1) and err.startswith(note), (cmd, err)
    code, out, err = _run("solve", text, "--quiet")
    assert code == 0 and note not in err
    assert len(calls) == 4
    monkeypatch.setattr(dd, "warm_up", lambda: None)
    code, out, err = _run("solve", text)
    assert code == 0 and note not in err


def test_warm_up_makes_the_kernel_ready_and_says_how_long(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``catbox warm-up`` runs the kernel's warm-up once and reports its seconds: JSON
    for programs, a sentence otherwise, the wait named on stderr unless --quiet."""
    from catbox_solver.dd import warmup

    calls: list[int] = []

    def slow_warm_up() -> None:
        calls.append(1)
        time.sleep(0.2)

    monkeypatch.setattr(warmup, "warm_up", slow_warm_up)
    code, out, err = _run("warm-up", "--json")
    data = json.loads(out)
    assert code == 0 and list(data) == ["seconds"] and 0.2 <= data["seconds"] < 60
    assert err == ""
    code, out, err = _run("warm-up")
    assert code == 0 and out.startswith("search kernel ready in ") and out.endswith(" s\n")
    assert err == "making the search kernel ready (compiled once after an install)...\n"
    code, out, err = _run("warm-up", "--quiet")
    assert code == 0 and err == ""
    assert len(calls) == 3
