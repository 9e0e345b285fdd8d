"""``catbox show`` and ``catbox legal``: outputs, JSON shapes, batches, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from catbox_solver.cli import main
from catbox_solver.formats.jsonform import position_to_dict, position_to_json
from catbox_solver.formats.notation import position_from_notation, position_to_notation

CONFORMANCE = Path(__file__).resolve().parents[2] / "shared" / "conformance"

TWO_P = (
    "2p official | R:..... B:..0.. Y:...N0 G:N.1N. | 1223455 11124455 | RBYG RYG | "
    "lead 0: 5y | won 1 0 | left 7"
)
FOUR_P_START = (
    "4p official | R:........ B:........ Y:........ G:........ | "
    "113455678 223334558 112246788 344566777 | RBYG RBYG RBYG RBYG | lead 0 | "
    "won 0 0 0 0 | bid 3 1 1 3 | left 8"
)
PARADOX = (
    "3p must-follow,row_order=GYBR | G:100211 Y:021120 B:200201 R:2.2201 | 3 15 4 | "
    "RBY RBYG RBY | lead 2: 1b 2b | won 1 4 2 | bid 1 3 1 | left 1"
)
FINISHED = (
    "2p official | R:10110 B:.1010 Y:N1100 G:NN010 | 5 3 | RBYG RBY | lead 0 | won 6 2 | left 0"
)


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def assert_one_line_error(result: Result, fragment: str) -> None:
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    assert fragment in result.stderr
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.output


# ---- show ------------------------------------------------------------------------------------
def test_show_readable() -> None:
    result = run("show", TWO_P)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[:7] == [
        "2 players, ruleset official",
        "research board (rows red, blue, yellow, green; columns are values)",
        "     1 2 3 4 5 6",
        "  R  . . . . . #",
        "  B  . . 0 . . #",
        "  Y  . . . N 0 #",
        "  G  N . 1 N . #",
    ]
    assert lines[-2:] == ["trick 2 of 8: seat 0 5y (led)", "to move: seat 1"]


def test_show_json_and_notation_round_trip() -> None:
    result = run("show", TWO_P, "--json")
    assert result.exit_code == 0
    obj = json.loads(result.stdout)
    assert obj == {
        "format": "catbox-position/1",
        "players": 2,
        "ruleset": "official",
        "board": {"R": ".....", "B": "..0..", "Y": "...N0", "G": "N.1N."},
        "hands": [[1, 2, 2, 3, 4, 5, 5], [1, 1, 1, 2, 4, 4, 5, 5]],
        "colors": ["RBYG", "RYG"],
        "leader": 0,
        "trick": [{"seat": 0, "value": 5, "color": "Y"}],
        "tricks_won": [1, 0],
        "predictions": None,
        "tricks_left": 7,
    }
    back = run("show", result.stdout.strip(), "--notation")
    assert back.exit_code == 0
    assert back.stdout == TWO_P + "\n"


def test_show_lenient_input_prints_canonical_notation() -> None:
    sloppy = TWO_P.replace("RBYG RYG", "gyrb ygr").replace("lead 0: 5y", "LEAD 0 : 5Y")
    result = run("show", "  " + sloppy + "  ", "--notation")
    assert result.exit_code == 0
    assert result.stdout == TWO_P + "\n"


def test_show_file_and_ansi(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(position_to_json(position_from_notation(FOUR_P_START)))
    result = run("show", f"@{path}", "--notation")
    assert result.stdout == FOUR_P_START + "\n"
    colored = run("show", FOUR_P_START, "--ansi")
    assert colored.exit_code == 0
    assert "\x1b[31mR\x1b[0m" in colored.stdout


def test_show_paradox_and_finished() -> None:
    paradox = run("show", PARADOX).stdout
    assert "PARADOX: seat 1 has no legal play; the round is over" in paradox
    assert "     1      -4      0     -4" in paradox
    finished = run("show", FINISHED).stdout
    assert "round over: all 8 tricks played" in finished
    assert finished.endswith("     0       6      0      6\n     1       2      3      5\n")


def test_show_json_and_notation_together_is_a_usage_error() -> None:
    result = run("show", TWO_P, "--json", "--notation")
    assert result.exit_code == 2
    assert "choose one of --json and --notation" in result.stderr


# ---- legal -----------------------------------------------------------------------------------
def test_legal_json_shape() -> None:
    result = run("legal", TWO_P, "--json")
    assert result.exit_code == 0
    # seat 1 (hand 1 1 1 2 4 4 5 5, blue lost) follows a yellow lead: any free cell of a
    # value in hand in red, yellow or green; G1, Y4, G4 are neutral, Y5 is seat 0's
    assert json.loads(result.stdout) == {
        "to_move": 1,
        "paradox": False,
        "plays": [
            {"value": 1, "color": "R", "text": "1r"},
            {"value": 1, "color": "Y", "text": "1y"},
            {"value": 2, "color": "R", "text": "2r"},
            {"value": 2, "color": "Y", "text": "2y"},
            {"value": 2, "color": "G", "text": "2g"},
            {"value": 4, "color": "R", "text": "4r"},
            {"value": 5, "color": "R", "text": "5r"},
            {"value": 5, "color": "G", "text": "5g"},
        ],
    }


def test_legal_readable() -> None:
    result = run("legal", TWO_P)
    assert result.stdout == "seat 1 to move, 8 legal plays: 1r 1y 2r 2y 2g 4r 5r 5g\n"
    # first lead, red not broken: no red play
    lead = run("legal", FOUR_P_START).stdout
    assert lead.startswith("seat 0 to move, 21 legal plays: 1b 1y 1g 3b 3y 3g 4b")
    assert " 1r" not in lead
    assert run("legal", PARADOX).stdout == (
        "seat 1 to move has no legal play: paradox, the round is over\n"
    )
    assert run("legal", FINISHED).stdout == "the round is over: no plays\n"


def test_legal_json_paradox_and_finished() -> None:
    assert json.loads(run("legal", PARADOX, "--json").stdout) == {
        "to_move": 1,
        "paradox": True,
        "plays": [],
    }
    assert json.loads(run("legal", FINISHED, "--json").stdout) == {
        "to_move": 0,
        "paradox": False,
        "plays": [],
    }


def test_legal_conformance_batch() -> None:
    """The whole legal-play conformance file as one batch: every answer as expected."""
    if not CONFORMANCE.is_dir():
        pytest.skip("conformance data not present beside the checkout")
    result = run("legal", f"@{CONFORMANCE / 'legal-in.jsonl'}", "--json")
    assert result.exit_code == 0
    got = [json.loads(line) for line in result.stdout.splitlines()]
    expected = [json.loads(line) for line in (CONFORMANCE / "legal-expect.jsonl").open()]
    assert len(got) == len(expected) == 275
    for i, (g, e) in enumerate(zip(got, expected, strict=True)):
        assert g["to_move"] == e["to_move"], i
        assert g["paradox"] == e["paradox"], i
        plays = [[p["value"], p["color"]] for p in g["plays"]]
        assert sorted(plays) == sorted(e["plays"]), i
        assert len(plays) == len({tuple(p) for p in plays}), i  # each play once
        assert all(p["text"] == f"{p['value']}{p['color'].lower()}" for p in g["plays"])


# ---- batches ---------------------------------------------------------------------------------
def test_batch_with_a_bad_line_goes_on(tmp_path: Path) -> None:
    batch = tmp_path / "b.jsonl"
    batch.write_text(
        "\n".join([TWO_P, "4p official", position_to_json(position_from_notation(PARADOX))]) + "\n"
    )
    result = run("legal", f"@{batch}", "--json")
    assert result.exit_code == 2
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 3
    assert lines[0]["to_move"] == 1 and len(lines[0]["plays"]) == 8
    assert lines[1] == {
        "error": f"{batch} line 2: missing field board: expected 'NP RULESET | BOARD | "
        "HANDS | COLORS | lead ... | won ... | left ...' separated by '|' (field 'board', "
        "column 12)"
    }
    assert lines[2] == {"to_move": 1, "paradox": True, "plays": []}
    assert result.stderr == "error: 1 of 3 lines could not be read\n"

    shown = run("show", f"@{batch}", "--json")
    objs = [json.loads(line) for line in shown.stdout.splitlines()]
    assert objs[0] == position_to_dict(position_from_notation(TWO_P))
    assert set(objs[1]) == {"error"}
    assert objs[2] == position_to_dict(position_from_notation(PARADOX))

    notation = run("show", f"@{batch}", "--notation")
    assert notation.stdout == TWO_P + "\n" + PARADOX + "\n"
    assert notation.stderr.startswith(f"error: {batch} line 2: missing field board")
    assert notation.exit_code == 2


def test_batch_all_good_exits_zero(tmp_path: Path) -> None:
    batch = tmp_path / "ok.jsonl"
    batch.write_text(TWO_P + "\n" + FOUR_P_START + "\n")
    result = run("show", f"@{batch}", "--notation")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [TWO_P, FOUR_P_START]
    readable = run("show", f"@{batch}")
    assert readable.exit_code == 0
    # each text line starts "line N: " (its input line), the two answers a blank line apart
    one, two = run("show", TWO_P).stdout, run("show", FOUR_P_START).stdout
    assert readable.stdout == "\n".join(
        [*(f"line 1: {x}" if x else "line 1:" for x in one.splitlines()), "",
         *(f"line 2: {x}" if x else "line 2:" for x in two.splitlines())]
    ) + "\n"
    assert "\n\nline 2: 4 players, ruleset official\n" in readable.stdout


def test_text_batch_answers_name_their_input_line(tmp_path: Path) -> None:
    """In a batch's text output each answer line starts "line N: ", so the answers can be
    matched to their input lines when a line fails (its error goes to stderr and left no
    gap: the third answer stood second); --notation stays plain, to be read back."""
    batch = tmp_path / "mixed.jsonl"
    batch.write_text(TWO_P + "\n4p official\n" + PARADOX + "\n")
    result = run("legal", f"@{batch}")
    assert result.exit_code == 2
    assert result.stdout == (
        "line 1: " + run("legal", TWO_P).stdout + "line 3: " + run("legal", PARADOX).stdout
    )
    assert result.stdout.splitlines()[1] == (
        "line 3: seat 1 to move has no legal play: paradox, the round is over"
    )
    assert result.stderr.startswith(f"error: {batch} line 2: missing field board")
    notation = run("show", f"@{batch}", "--notation")
    assert notation.stdout == TWO_P + "\n" + PARADOX + "\n"


# ---- bad input: exit code 2, one line, no traceback ------------------------------------------
@pytest.mark.parametrize("command", ["show", "legal"])
@pytest.mark.parametrize(
    ("arg", "fragment"),
    [
        ("4p official | R:..", "row R has 2 cells; 4 players use values 1-8"),
        (TWO_P.replace("lead 0", "lead 7"), "seat 7 does not exist with 2 players (field 'lead'"),
        (TWO_P.replace("official", "nonsense"), "unknown ruleset 'nonsense'"),
        (TWO_P.replace("won 1 0", "won 1 1"), "tricks won add up to 2, but 1 tricks"),
        ("{oops", "not valid JSON"),
        ('{"format": "catbox-position/1"}', "field 'players'"),
        ("@/no/such/file.json", "cannot read file '/no/such/file.json'"),
        ("@/no/such/file.jsonl", "cannot read file '/no/such/file.jsonl'"),
        ("", "empty position"),
    ],
)
def test_malformed_input_is_one_line(command: str, arg: str, fragment: str) -> None:
    assert_one_line_error(run(command, arg), fragment)
    assert_one_line_error(run(command, arg, "--json"), fragment)


def test_token_on_covered_cell_from_cli() -> None:
    bad = FOUR_P_START.replace("R:........", "R:........3")
    assert_one_line_error(run("show", bad), "cell R9 is covered with 4 players")


@pytest.mark.parametrize("command", ["show", "legal"])
def test_help_has_examples(command: str) -> None:
    result = run(command, "--help")
    assert result.exit_code == 0
    assert "Examples:" in result.stdout
    assert f"catbox {command} " in result.stdout
    assert "@FILE.jsonl" in result.stdout


def test_help_examples_run() -> None:
    """The notation examples in the help texts are valid positions."""
    for command in ("show", "legal"):
        text = run(command, "--help").stdout
        example = text.split(f'catbox {command} "', 1)[1].split('"', 1)[0]
        result = run(command, example)
        assert result.exit_code == 0, result.stderr
        assert run("show", example, "--notation").stdout == example + "\n"
        assert position_to_notation(position_from_notation(example)) == example


def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path: Path) -> None:
    """`catbox show --json @big.jsonl | head -1`: when the output's reader closes the pipe
    the command stops without a word and with 141 (128 + SIGPIPE), as other tools do;
    it printed "error: Broken pipe" with exit code 2."""
    batch = tmp_path / "big.jsonl"
    line = position_to_json(position_from_notation(PARADOX))
    batch.write_text((line + "\n") * 3000)  # output far beyond a pipe's buffer
    proc = subprocess.Popen(
        [sys.executable, "-m", "catbox_solver", "show", "--json", f"@{batch}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = json.loads(proc.stdout.readline())
    assert first == json.loads(line)
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 141
    assert err == b""
