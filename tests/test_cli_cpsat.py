"""``catbox exists`` and ``catbox prove``: answers checked against a plain search, JSON
shapes, clashing conditions, batches and one-line errors."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from ortools.sat.python import cp_model
from test_exists_crosscheck import outcomes

from catbox_solver.cli import main
from catbox_solver.cpsat import exists as exists_mod
from catbox_solver.cpsat import proofs
from catbox_solver.formats.jsonform import position_to_dict, position_to_json
from catbox_solver.formats.notation import position_from_notation
from catbox_solver.interrupt import solve_cp
from catbox_solver.model.position import Play, Position

TWO_P = (
    "2p official | R:..... B:..0.. Y:...N0 G:N.1N. | 1223455 11124455 | RBYG RYG | "
    "lead 0: 5y | won 1 0 | left 7"
)
THREE_P = (
    "3p official | R:.1.212 B:.11..2 Y:000.00 G:..212. | 1456 1356 1224 | YG RBG RBG | "
    "lead 2 | won 2 1 2 | bid 3 4 1 | left 3"
)

FOUR_P = (
    "4p official | R:.1....3. B:.....0.2 Y:........ G:......3. | "
    "11345578 23334558 11224678 3445667 | RBYG RYG RBYG RYG | lead 3: 7g | "
    "won 0 0 0 1 | bid 3 1 1 3 | left 7"
)


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def assert_one_line_error(result: Result, fragment: str) -> None:
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert fragment in result.stderr


def replay(pos: Position, plays: list[dict[str, object]]) -> Position:
    for p in plays:
        assert p["text"] == f"{p['value']}{str(p['color']).lower()}"
        pos = pos.play(Play.parse(str(p["text"])))
    return pos


def three_p() -> Position:
    pos = position_from_notation(THREE_P)
    assert pos.tricks_left == 3 and pos.to_move == 2
    return pos


def test_exists_json_agrees_with_plain_search() -> None:
    pos = three_p()
    outs = outcomes(pos)
    for seat in range(3):
        want = any(o[0] == seat for o in outs)
        result = run("exists", THREE_P, "--paradox-by", str(seat), "--json")
        assert result.exit_code == 0
        answer = json.loads(result.stdout)
        assert answer["exists"] is want
        if want:
            assert set(answer) == {"exists", "line", "complete"}
            assert answer["complete"] is True
            assert replay(pos, answer["line"]).paradox_by == seat
        else:
            assert answer == {
                "exists": False, "clash": [f"--paradox-by {seat}"], "minimal": True
            }
    result = run("exists", THREE_P, "--no-paradox", "--json")
    answer = json.loads(result.stdout)
    assert answer["exists"] is any(o[0] is None for o in outs)


def test_exists_text_names_the_end_of_the_witness() -> None:
    result = run("exists", THREE_P)
    assert result.exit_code == 0
    first, second = result.stdout.splitlines()
    assert first == "exists"
    assert second.startswith("witness: ") and "tricks won" in second


def test_clashing_conditions_are_named() -> None:
    pos = three_p()
    outs = outcomes(pos)
    # seat 0 can reach 3 tricks and seat 1 can reach 4, but not both
    both = [o for o in outs if o[2][0] >= 3 and o[2][1] >= 4]
    alone0 = [o for o in outs if o[2][0] >= 3]
    alone1 = [o for o in outs if o[2][1] >= 4]
    assert alone0 and alone1 and not both
    result = run(
        "exists", THREE_P, "--tricks-at-least", "0=3", "--tricks-at-least", "1=4", "--json"
    )
    assert json.loads(result.stdout) == {
        "exists": False,
        "clash": ["--tricks-at-least 0=3", "--tricks-at-least 1=4"],
        "minimal": True,
    }
    text = run("exists", THREE_P, "--tricks-at-least", "0=3", "--tricks-at-least", "1=4")
    assert text.stdout == (
        "impossible: the conditions clash: --tricks-at-least 0=3, --tricks-at-least 1=4\n"
    )


def test_a_clash_not_narrowed_down_says_so(
    monkeypatch: pytest.MonkeyPatch, cp_stops_after: Callable[[int], list[int]]
) -> None:
    """When the time limit stops the narrowing down of the clash, the text and the JSON
    say that the named conditions may not all take part (it was claimed all the same)."""
    calls = cp_stops_after(1)
    monkeypatch.setattr(
        cp_model.CpSolver, "sufficient_assumptions_for_infeasibility", lambda self: []
    )
    args = ["exists", THREE_P, "--tricks-at-least", "0=3", "--tricks-at-least", "1=4",
            "--no-paradox", "--timeout", "9"]
    text = run(*args)
    assert text.exit_code == 0
    assert text.stdout == (
        "impossible: the conditions clash: --no-paradox, --tricks-at-least 0=3, "
        "--tricks-at-least 1=4\n"
        "note: the time limit (9 s) stopped the narrowing down of the clash: fewer of these "
        "conditions may clash\n"
    )
    calls[0] = 0
    assert json.loads(run(*args, "--json").stdout) == {
        "exists": False,
        "clash": ["--no-paradox", "--tricks-at-least 0=3", "--tricks-at-least 1=4"],
        "minimal": False,
        "reason": "the time limit (9 s) stopped the narrowing down of the clash: fewer of "
        "these conditions may clash",
    }


def test_count_gives_distinct_lines() -> None:
    pos = three_p()
    result = run("exists", THREE_P, "--count", "3", "--json")
    answer = json.loads(result.stdout)
    assert answer["exists"] is True and len(answer["lines"]) == 3
    assert answer["line"] == answer["lines"][0]
    texts = {" ".join(str(p["text"]) for p in line) for line in answer["lines"]}
    assert len(texts) == 3
    for line in answer["lines"]:
        assert replay(pos, line).is_over


def test_count_cut_short_by_the_time_limit_says_so(
    monkeypatch: pytest.MonkeyPatch, cp_stops_after: Callable[[int], list[int]]
) -> None:
    """--count N stopped by the time limit before N lines (and before it ran out of
    lines) says the lines are not all there (it looked like a complete answer)."""
    real = solve_cp
    calls = cp_stops_after(2)
    reason = (
        "the time limit (5 s) stopped the search for more lines after 2 of the 10 asked "
        "for: more may exist"
    )
    answer = json.loads(run("exists", THREE_P, "--count", "10", "--timeout", "5",
                            "--json").stdout)
    assert len(answer["lines"]) == 2
    assert (answer["complete"], answer["reason"]) == (False, reason)
    calls[0] = 0
    text = run("exists", THREE_P, "--count", "10", "--timeout", "5")
    out = text.stdout.splitlines()
    assert out[0] == "exists" and len(out) == 4
    assert out[1].startswith("witness 1: ") and out[2].startswith("witness 2: ")
    assert out[3] == f"note: {reason}"
    # all the lines there are: complete (3 players, 3 tricks left: fewer than 10000)
    monkeypatch.setattr(exists_mod, "solve_cp", real)
    # (--timeout: the default 60 s, on a loaded core, stopped the enumeration at 609 lines)
    every = json.loads(run("exists", THREE_P, "--count", "10000", "--timeout", "600",
                           "--json").stdout)
    assert every["complete"] is True and "reason" not in every
    assert len(every["lines"]) == len(outcomes_lines(three_p()))


def outcomes_lines(pos: Position) -> set[tuple[str, ...]]:
    """Every distinct line of play from ``pos`` to the end of the round (a plain search)."""
    if pos.is_over:
        return {()}
    return {(p.text, *rest) for p in pos.legal_plays() for rest in outcomes_lines(pos.after(p))}


def test_empty_and_final_board() -> None:
    pos = three_p()
    result = run("exists", THREE_P, "--no-paradox", "--json")
    answer = json.loads(result.stdout)
    assert answer["exists"] is True
    end = replay(pos, answer["line"])
    board = position_to_dict(end)["board"]
    spec = " ".join(f"{k}:{v}" for k, v in board.items())
    again = json.loads(run("exists", THREE_P, "--final-board", spec, "--json").stdout)
    assert position_to_dict(replay(pos, again["line"]))["board"] == board
    as_json = json.loads(
        run("exists", THREE_P, "--final-board", json.dumps(board), "--json").stdout
    )
    assert as_json["exists"] is True
    # 3 players: a paradox-free round fills the board, so no cell can stay empty
    empty = [f"{k}{i + 1}" for k, row in board.items() for i, ch in enumerate(row) if ch == "."]
    assert empty == []
    free = [
        f"{k}{i + 1}"
        for k, row in position_to_dict(pos)["board"].items()
        for i, ch in enumerate(row)
        if ch == "."
    ]
    cell = free[0]
    clash = json.loads(run("exists", THREE_P, "--no-paradox", "--empty", cell, "--json").stdout)
    assert clash == {
        "exists": False, "clash": ["--no-paradox", f"--empty {cell.upper()}"], "minimal": True
    }


def test_a_cell_asked_empty_that_holds_a_token_is_named() -> None:
    """--empty of a cell that holds a token already: the answer says so (it read as a
    plain clash); one condition alone reads "no continuation meets" (not "the conditions
    clash"; a clash with no such cell has no note: test_clashing_conditions_are_named)."""
    pos = position_from_notation(TWO_P)
    taken = [f"{k}{i + 1}" for k, row in position_to_dict(pos)["board"].items()
             for i, ch in enumerate(row) if ch != "."]
    assert taken
    out = run("exists", TWO_P, "--empty", taken[0]).stdout
    assert out == (
        f"impossible: no continuation meets --empty {taken[0].upper()}\n"
        f"note: --empty {taken[0].upper()}: that cell holds a token already\n"
    )
    data = json.loads(run("exists", TWO_P, "--empty", taken[0], "--json").stdout)
    assert data == {"exists": False, "clash": [f"--empty {taken[0].upper()}"], "minimal": True}


def test_final_board_reads_rows_as_the_notation_does() -> None:
    """--final-board reads its rows with the notation's reader: lower-case 'n' and spaces
    around ':' (both refused before, though `catbox show` takes them), a last '#' for the
    covered column; the JSON form too; the errors are the notation's."""
    pos = position_from_notation(TWO_P)
    answer = json.loads(run("exists", TWO_P, "--json").stdout)
    board = position_to_dict(replay(pos, answer["line"]))["board"]
    assert "N" in board["G"]
    loose = "  ".join(f"{k.lower()} : {row.lower()}#" for k, row in board.items())
    for spec in (loose, json.dumps({k.lower(): row.lower() for k, row in board.items()})):
        again = run("exists", TWO_P, "--final-board", spec, "--json")
        assert again.exit_code == 0, again.stderr
        got = json.loads(again.stdout)
        assert got["exists"] is True
        assert position_to_dict(replay(pos, got["line"]))["board"] == board
    empty = "B:..... Y:..... G:....."
    cases = [
        (f"R:...... {empty}", f"--final-board R:...... {empty}: column 6 is covered with 2 "
         "players: write it '#' or leave it out"),
        (f"R:.....1 {empty}", f"--final-board R:.....1 {empty}: cell R6 is covered with 2 "
         "players: the board has values 1-5 only"),
        (f"R:.... {empty}", f"--final-board R:.... {empty}: row R has 4 cells; 2 players use "
         "values 1-5, one cell each ('.' empty, a seat digit, N neutral)"),
        (f"R:2.... {empty}", f"--final-board R:2.... {empty}: row R value 1: bad cell '2' "
         "('.', N or a seat 0-1)"),
        (f"R:..... {empty.replace('B:', 'R:')}", "--final-board: row R given twice (column 9)"),
        ("R:..... B .....", "--final-board: expected ':' after the row label B (column 11)"),
        ("R:.....", "--final-board: missing row(s) B, Y, G (column 8)"),
    ]
    for spec, message in cases:
        result = run("exists", TWO_P, "--final-board", spec)
        assert (result.exit_code, result.stderr) == (2, f"error: {message}\n")


def test_batch_answers_each_line(tmp_path: Path) -> None:
    pos = three_p()
    f = tmp_path / "b.jsonl"
    f.write_text(position_to_json(pos) + "\n" + "{bad\n" + position_to_json(pos) + "\n")
    result = run("exists", f"@{f}", "--json")
    assert result.exit_code == 2
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    assert len(lines) == 3
    assert lines[0]["exists"] is True and lines[2]["exists"] is True
    assert set(lines[1]) == {"error"}
    # the summary line of the other batch commands (exists printed nothing on stderr)
    assert result.stderr == "error: 1 of 3 lines could not be read\n"


def test_text_batch_answers_name_their_line(tmp_path: Path) -> None:
    """In a text batch each line of an answer starts with its input line, so that the
    answers can be matched to the input when a line fails (they carried no number)."""
    pos = three_p()
    f = tmp_path / "b.jsonl"
    f.write_text(position_to_json(pos) + "\n" + "{bad\n" + position_to_json(pos) + "\n")
    result = run("exists", f"@{f}", "--tricks-at-least", "0=3", "--tricks-at-least", "1=4")
    clash = "impossible: the conditions clash: --tricks-at-least 0=3, --tricks-at-least 1=4"
    assert result.stdout == f"line 1: {clash}\nline 3: {clash}\n"
    assert result.exit_code == 2 and result.stderr.startswith(f"error: {f} line 2: ")
    # (answers of several lines a blank line apart, as in the other commands' batches)
    two = run("exists", f"@{f}", "--count", "2").stdout.splitlines()
    assert [x.split(": ")[0] for x in two] == ["line 1"] * 3 + [""] + ["line 3"] * 3
    assert two[0] == "line 1: exists" and two[1].startswith("line 1: witness 1: ")
    # one position: no line number
    assert run("exists", THREE_P, "--tricks-at-least", "0=3", "--tricks-at-least",
               "1=4").stdout == f"{clash}\n"


def test_batch_names_the_line_it_cannot_answer(tmp_path: Path) -> None:
    """A line whose conditions do not fit its round (--paradox-by 3 in a 3-player round)
    is reported with its file and line, and the summary says it could not be answered
    (it said "could not be read", and the error named no line)."""
    four = position_from_notation(FOUR_P)
    f = tmp_path / "b.jsonl"
    f.write_text(position_to_json(three_p()) + "\n" + position_to_json(four) + "\n")
    result = run("exists", f"@{f}", "--paradox-by", "3", "--json")
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    assert lines[0] == {"error": f"{f} line 1: --paradox-by 3: seat 3 outside 0-2"}
    alone = run("exists", position_to_json(four), "--paradox-by", "3", "--json")
    assert lines[1]["exists"] is json.loads(alone.stdout)["exists"] is True
    assert result.stderr == "error: 1 of 2 lines could not be answered\n"
    assert result.exit_code == 2


def test_an_undecided_answer_exits_3(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Unknown (the time limit stopped the solver) or --count cut short: exit code 3 (it
    was 0, as for an answer); in a batch 3 if no line failed, with the count on stderr."""
    pos = three_p()
    line = exists_mod.exists(pos, []).lines[0]
    answers = {
        "found": exists_mod.ExistsAnswer(True, lines=[line]),
        "unknown": exists_mod.ExistsAnswer(None, reason="solver stopped (UNKNOWN) after 1 s"),
        "cut": exists_mod.ExistsAnswer(True, lines=[line], complete=False, reason="cut"),
        "impossible": exists_mod.ExistsAnswer(False, clash=["no_paradox()"]),
    }
    queue: list[str] = []
    monkeypatch.setattr(exists_mod, "exists", lambda *a, **k: answers[queue.pop(0)])

    def ask(*names: str, arg: str = THREE_P, json_out: bool = False) -> Result:
        queue[:] = names
        return run("exists", arg, *(["--json"] if json_out else []))

    assert ask("found").exit_code == 0
    assert ask("impossible").exit_code == 0
    unknown = ask("unknown")
    assert (unknown.exit_code, unknown.stdout) == (3, "unknown: solver stopped (UNKNOWN) "
                                                      "after 1 s\n")
    assert unknown.stderr == ""
    assert ask("cut", json_out=True).exit_code == 3
    f = tmp_path / "b.jsonl"
    f.write_text((position_to_json(pos) + "\n") * 3)
    batch = ask("found", "unknown", "cut", arg=f"@{f}", json_out=True)
    assert batch.exit_code == 3
    assert [json.loads(x)["exists"] for x in batch.stdout.splitlines()] == [True, None, True]
    assert batch.stderr == "2 of 3 lines undecided within the time limit\n"
    assert ask("found", "impossible", "found", arg=f"@{f}").exit_code == 0
    # a line that cannot be read: 2 before 3
    f.write_text(position_to_json(pos) + "\n{bad\n")
    both = ask("unknown", arg=f"@{f}", json_out=True)
    assert both.exit_code == 2
    assert both.stderr == (
        "1 of 2 lines undecided within the time limit\n"
        "error: 1 of 2 lines could not be read\n"
    )


def _prove_gives(monkeypatch: pytest.MonkeyPatch, *verdicts: str) -> Result:
    """catbox prove with proofs.prove answering these verdicts, one per player count."""
    results = [
        proofs.ProofResult("full-board", 3 + i, v, 0.5, "INFEASIBLE" if v == "PROVED" else
                           "UNKNOWN")
        for i, v in enumerate(verdicts)
    ]
    monkeypatch.setattr(proofs, "prove", lambda *a, **k: results)
    return run("prove", "full-board")


def test_prove_exit_codes(monkeypatch: pytest.MonkeyPatch) -> None:
    """PROVED 0, a COUNTEREXAMPLE 1 (before UNKNOWN), UNKNOWN 3 (all were 0)."""
    assert _prove_gives(monkeypatch, "PROVED", "PROVED").exit_code == 0
    assert _prove_gives(monkeypatch, "PROVED", "UNKNOWN").exit_code == 3
    assert _prove_gives(monkeypatch, "UNKNOWN", "COUNTEREXAMPLE").exit_code == 1
    assert _prove_gives(monkeypatch, "COUNTEREXAMPLE", "PROVED").exit_code == 1
    monkeypatch.undo()
    # a real one: no solver call can finish in 0.01 s from the first lead of 5 players
    # (--time-limit: the old spelling of --timeout, still taken)
    real = run("prove", "earliest-paradox", "--players", "5", "--time-limit", "0.01",
               "--workers", "1")
    assert real.exit_code == 3 and ": UNKNOWN (solver UNKNOWN, " in real.stdout


def test_bad_input_is_one_line() -> None:
    assert_one_line_error(run("exists", THREE_P, "--tricks", "0=x"), "SEAT=COUNT")
    assert_one_line_error(run("exists", THREE_P, "--empty", "z9"), "cell")
    assert_one_line_error(run("exists", THREE_P, "--empty", "g7"), "value 7")
    assert_one_line_error(run("exists", THREE_P, "--paradox-by", "3"), "seat 3")
    assert_one_line_error(run("exists", THREE_P, "--final-board", "R:.."), "missing row(s) B, Y, G")
    assert_one_line_error(run("exists", "3p nonsense"), "")
    assert_one_line_error(run("prove", "no-such"), "unknown statement")
    assert_one_line_error(run("prove", "full-board", "--players", "2"), "not 2")
    # listing it for a count it is not about says the same (it listed nothing, exit 0)
    for args in (["--list", "full-board", "--players", "2"],
                 ["--list", "full-board", "--players", "2", "--json"],
                 ["full-board", "--players", "2"]):
        result = run("prove", *args)
        assert (result.exit_code, result.stdout, result.stderr) == (
            2, "", "error: statement 'full-board' is about 3, 4 players, not 2\n"
        )
    assert_one_line_error(run("prove"), "--list")


BIG = "9" * 3000


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["exists", THREE_P, "--empty", "g" + BIG],
         "a cell is a color and a value like 'g4', not 'g9999999999999999999'..."),
        (["exists", THREE_P, "--tricks", "0=" + BIG],
         "--tricks '0=999999999999999999'...: the count has 3000 digits, far too many"),
        (["exists", THREE_P, "--score", "0=-" + BIG],
         "--score '0=-99999999999999999'...: the count has 3000 digits, far too many"),
        (["exists", THREE_P, "--tricks-at-most", BIG + "=1"],
         "--tricks-at-most '99999999999999999999'...: the seat has 3000 digits, far too many"),
        (["exists", THREE_P, "--tricks", "0=" + "9" * 23],
         f"--tricks '0={'9' * 23}': the count has 23 digits, more than 18"),
        (["exists", THREE_P, "--score-at-least", "0=-" + "9" * 19],
         f"--score-at-least '0=-{'9' * 19}': the count has 19 digits, more than 18"),
        (["exists", THREE_P, "--timeout", BIG],
         "Invalid value for '--timeout': '99999999999999999999'... is not a number of "
         "seconds, 0.01 or more (see 'catbox exists --help')"),
        (["prove", BIG],
         "unknown statement '99999999999999999999'... (known: one-empty-cell, full-board, "
         "equal-discards, last-color-kept, earliest-paradox, red-lead-exception)"),
        (["prove", "--list", BIG],
         "no statement '99999999999999999999'... (catbox prove --list shows them)"),
    ],
)
def test_long_arguments_are_shortened(args: list[str], message: str) -> None:
    """A long argument is quoted by its first 20 characters in the error (each was echoed
    whole, a 3000-character line); a count of 19 or more digits says so (it said
    "--tricks takes SEAT=COUNT like 1=3")."""
    result = CliRunner().invoke(main, args, prog_name="catbox")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"error: {message}\n")


def test_prove_list_and_a_fast_proof() -> None:
    listed = run("prove", "--list")
    assert listed.exit_code == 0
    names = [line.split()[0] for line in listed.stdout.splitlines()]
    assert names == [
        "one-empty-cell",
        "full-board",
        "equal-discards",
        "last-color-kept",
        "earliest-paradox",
        "red-lead-exception",
    ]
    as_json = json.loads(run("prove", "--list", "--json").stdout)
    assert [s["name"] for s in as_json] == names
    # --list NAME lists that statement, --players the statements proved for that count
    one = run("prove", "--list", "full-board")
    assert one.exit_code == 0 and [ln.split()[0] for ln in one.stdout.splitlines()] == [
        "full-board"
    ]
    five = json.loads(run("prove", "--list", "--players", "5", "--json").stdout)
    assert [s["name"] for s in five] == [
        "one-empty-cell", "last-color-kept", "earliest-paradox", "red-lead-exception"
    ]
    unknown = run("prove", "--list", "nope")
    assert unknown.exit_code == 2
    result = run("prove", "full-board", "--players", "3")
    assert result.exit_code == 0
    assert result.stdout.startswith("full-board, 3 players: PROVED (solver INFEASIBLE, ")
    (proof,) = json.loads(run("prove", "full-board", "--players", "4", "--json").stdout)
    assert proof["verdict"] == "PROVED" and proof["status"] == "INFEASIBLE"
    assert proof["counterexample"] is None


def test_prove_json_is_one_document() -> None:
    """With several player counts --json prints one array (it printed an object per
    line, which json.load refused: "Extra data")."""
    result = run("prove", "full-board", "--json")
    assert result.exit_code == 0 and result.stdout.count("\n") == 1
    proofs_ = json.loads(result.stdout)
    assert [(p["name"], p["players"], p["verdict"], p["status"]) for p in proofs_] == [
        ("full-board", 3, "PROVED", "INFEASIBLE"),
        ("full-board", 4, "PROVED", "INFEASIBLE"),
    ]


def test_cell_values_and_trick_numbers_name_their_range() -> None:
    """A cell's value outside the board names the range, before the round is known (all
    player counts) and after (it said "value 0 outside 1-9" and "no cell of value 9 with
    4 players"); --at-trick's help no longer says 1-8 (5 players have 7 tricks)."""
    result = run("exists", THREE_P, "--empty", "g0")
    assert (result.exit_code, result.stderr) == (
        2, "error: cell 'g0': no cell of value 0; the values are 1-5 with 2 players, 1-6 "
        "with 3, 1-8 with 4, 1-9 with 5\n"
    )
    result = run("exists", FOUR_P, "--empty", "g9")
    assert (result.exit_code, result.stderr) == (
        2, "error: --empty G9: no cell of value 9; with 4 players the values are 1-8\n"
    )
    help_text = " ".join(run("exists", "--help").stdout.split())
    assert "--at-trick T The paradox happens in trick T (1 to the number of tricks: 8, " \
        "with 5 players 7)." in help_text


def test_help_has_examples() -> None:
    for cmd in ("exists", "prove"):
        result = run(cmd, "--help")
        assert result.exit_code == 0 and "Example" in result.stdout
