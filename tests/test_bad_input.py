"""Bad input found by probing the command line: each case gives a one-line
error and exit code 2 (before: a traceback, click's "Aborted!", or a silently wrong
answer), and the readers take whole numbers only as ASCII digits."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from catbox_solver.cli import main
from catbox_solver.cli.batch import position_argument
from catbox_solver.cpsat import exists as ex
from catbox_solver.formats.files import MAX_BYTES, TooLarge, read_limited, write_whole
from catbox_solver.formats.jsonform import position_to_json
from catbox_solver.model.numbers import whole_number

P3 = (
    "3p official | R:...... B:210102 Y:211020 G:001122 | 146 233 245 | RBYG RBYG RBYG | "
    "lead 2 | won 2 1 3 | bid 1 3 3 | left 2"
)
P4_TRICK = (
    "4p official | R:01213.20 B:2300.332 Y:31220132 G:31210130 | 56 46 2 3 | RBYG RG RBYG "
    "RBYG | lead 2: 8b 7b | won 2 1 3 1 | bid 2 1 3 1 | left 1"
)


def _run(args: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, args, input=stdin, prog_name="catbox")
    return res.exit_code, res.stdout, res.stderr


def _one_line_error(args: list[str], message: str, stdin: str | None = None) -> None:
    code, _, err = _run(args, stdin)
    assert code == 2, err
    assert err.count("\n") == 1 and err == f"error: {message}\n"


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("--tricks=0=²", "--tricks takes SEAT=COUNT like 1=3, not '0=²'"),
        ("--tricks=²=1", "--tricks takes SEAT=COUNT like 1=3, not '²=1'"),
        ("--tricks=0=١", "--tricks takes SEAT=COUNT like 1=3, not '0=١'"),
        ("--score=0=-1_0", "--score takes SEAT=COUNT like 1=-2, not '0=-1_0'"),
        ("--tricks=0=" + "9" * 20, f"--tricks '0={'9' * 20}': the count has 20 digits, more "
         "than 18"),
        ("--empty=g²", "a cell is a color and a value like 'g4', not 'g²'"),
        # (as in the notation: a space after ':' does not end a row, so R's cells are "B:")
        ("--final-board=R: B: Y: G:", "--final-board: missing row(s) B, G (column 12)"),
        ("--final-board=R:.. B:...... Y:...... G:......",
         "--final-board R:.. B:...... Y:...... G:......: row R has 2 cells; 3 players use "
         "values 1-6, one cell each ('.' empty, a seat digit, N neutral)"),
        ("--final-board=R:...... B:...... Y:...... G:.....4",
         "--final-board R:...... B:...... Y:...... G:.....4: row G value 6: bad cell '4' "
         "('.', N or a seat 0-2)"),
        ("--final-board=R:...... B:...... Y:...... G:N.....",
         "--final-board R:...... B:...... Y:...... G:N.....: row G value 1: neutral tokens "
         "exist only with 2 players"),
        ("--final-board=R:...... R:...... B:...... Y:...... G:......",
         "--final-board: row R given twice (column 10)"),
        ('--final-board={"R": "......", "B": "......", "Y": "......", "G": "......", '
         '"r": "......"}', "--final-board: row R is given twice"),
        ('--final-board={"G": "......", "G": "......"}', "--final-board: row G is given twice"),
        ('--final-board={"R": ' + "1" * 5000 + "}", "--final-board: JSON that cannot be read"),
        ('--final-board={"R":' + "[" * 100_000, "--final-board: JSON that cannot be read"),
    ],
)
def test_exists_options(option: str, message: str) -> None:
    _one_line_error(["exists", P3, option], message)


def test_counts_beyond_a_round_decide_as_they_should() -> None:
    """Counts far beyond any round (once a TypeError inside OR-Tools) are clamped: the
    condition is decided as a count just beyond the round's reach would be."""
    pos = position_argument(P3)
    huge = 10**30
    asks = [
        (ex.tricks(0, huge), False),
        (ex.tricks_at_most(0, huge), True),
        (ex.tricks_at_least(0, -huge), True),
        (ex.score_at_least(0, -huge), True),
        (ex.score_at_most(0, -huge), False),
        (ex.bonus_at_most(0, -huge), False),
        (ex.bonus_at_least(0, huge), False),
    ]
    for cond, want in asks:
        assert ex.exists(pos, [cond], workers=1).exists is want, cond.name


def test_impossible_color_states_are_errors() -> None:
    """Colors lost before any play, or a color played in this trick but gone (accepted
    before, with answers about a position that cannot arise)."""
    start = (
        "4p official | R:........ B:........ Y:........ G:........ | 122334667 133445677 "
        "223455568 112457888 | - RBYG RBYG RBYG | lead 0 | won 0 0 0 0 | bid 3 2 3 1 | left 8"
    )
    # no color at all is named as such (it was the count of lost colors; walkthrough)
    _one_line_error(
        ["legal", start],
        "seat 0 has no color left: a player always keeps the color it declares, so nobody "
        "loses all four (unless colors are lost the Czech way)",
    )
    _one_line_error(
        ["legal", start.replace("official", "czech-color-loss")],
        "seat 0 has lost 4 color(s) but followed in at most 0 trick(s): a color is lost only "
        "by not following the led color",
    )
    _one_line_error(
        ["legal", P4_TRICK.replace("RBYG RG RBYG RBYG", "RBYG RG RYG RYG")],
        "seat 2 declared B in this trick but has no color B: it had the color then and cannot "
        "have lost it since",
    )
    two = "2p official | R:..... B:..... Y:..... G:N.NN. | 122233345 112344555 | RBYG BYG | "
    _one_line_error(
        ["show", two + "lead 0 | won 0 0 | left 8"],
        "seat 1 has lost 1 color(s) but followed in at most 0 trick(s): a color is lost only "
        "by not following the led color",
    )
    # every color gone although the count allows it: impossible unless the declared color
    # is the one lost (the Czech reading), where the same position is accepted
    bare = (
        "4p official | R:.3....3. B:0.2013.. Y:2.0..202 G:..1..311 | 22568 45568 12334 12478 "
        "| - G BY RBG | lead 3 | won 0 0 0 4 | bid 2 3 1 1 | left 4"
    )
    _one_line_error(
        ["legal", bare],
        "seat 0 has no color left: a player always keeps the color it declares, so nobody "
        "loses all four (unless colors are lost the Czech way)",
    )
    czech = CliRunner().invoke(main, ["legal", bare.replace("official", "czech-color-loss")])
    assert czech.exit_code == 0, czech.output
    assert czech.output.startswith("seat 3 to move, 9 legal plays: ")


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("evil", [1], "play 1: unknown key(s) 'evil' (field 'trick')"),
        ("seat", None, "play 1: seat None is not a seat (field 'trick')"),
        ("seat", 2.0, "play 1: seat 2.0 is not a seat (field 'trick')"),
        ("seat", True, "play 1: seat True is not a seat (field 'trick')"),
        ("text", "8r", "play 1: text '8r' is not '8b' (field 'trick')"),
    ],
)
def test_json_trick_plays_are_checked(key: str, value: object, message: str) -> None:
    data = json.loads(position_to_json(position_argument(P4_TRICK)))
    data["trick"][0][key] = value
    _one_line_error(["legal", json.dumps(data)], message)
    data["trick"][0] = {"seat": 2, "value": 8, "color": "B", "text": "8b"}
    assert _run(["legal", json.dumps(data)])[0] == 0


@pytest.mark.parametrize("command", ["solve", "ddtable", "show", "legal", "exists"])
def test_an_empty_batch_is_an_error(command: str, tmp_path: Path) -> None:
    empty = tmp_path / "e.jsonl"
    empty.write_text("\n  \n")
    message = f"file {str(empty)!r} holds no positions (one per line)"
    _one_line_error([command, f"@{empty}"], message)


@pytest.mark.parametrize(
    ("args", "bad"),
    [
        (["solve", P3, "--timeout", "nan"], "'nan' is not a number of seconds, 0 or more"),
        (["ddtable", P3, "--timeout", "-1"], "'-1' is not a number of seconds, 0 or more"),
        (["solve", P3, "--timeout", "inf"], "'inf' is not a number of seconds, 0 or more"),
        (["puzzle", "solve", "puzzles", "--timeout", "-0.5"],
         "'-0.5' is not a number of seconds, 0 or more"),
        (["rules", "diff", "official", "must-follow", "--timeout", "-1"],
         "'-1' is not a number of seconds, 0 or more"),
        (["exists", P3, "--timeout", "nan"], "'nan' is not a number of seconds, 0.01 or more"),
        (["prove", "full-board", "--timeout", "0.001"],
         "'0.001' is not a number of seconds, 0.01 or more"),
        (["solve", P3, "--timeout", "abc"], "'abc' is not a number of seconds"),
    ],
)
def test_times_must_be_finite_and_positive(args: list[str], bad: str) -> None:
    code, out, err = _run(args)
    option = "--timeout"  # (exists and prove too: --time-limit is their old spelling)
    command = " ".join(["catbox", *args[: 2 if args[0] in ("puzzle", "rules") else 1]])
    assert (code, out) == (2, "")
    assert err == f"error: Invalid value for '{option}': {bad} (see '{command} --help')\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["deal", "-p", "6"], "Invalid value for '--players' / '-p': 6 is not in the range "
         "2<=x<=5. (see 'catbox deal --help')"),
        # (an unbounded count of games ran for ever without a word)
        (["simulate", "-q", "-g", "99999999999999999999999999"],
         "Invalid value for '--games' / '-g': 99999999999999999999999999 is not in the range "
         "1<=x<=100000. (see 'catbox simulate --help')"),
        # an empty path is not the current directory (written into, or read, before)
        (["puzzle", "generate", "--theme", "avoid-paradox", "--out", ""],
         "Invalid value for '--out': an empty path names no file or directory "
         "(see 'catbox puzzle generate --help')"),
        (["play", "-p", "2", "--seed", "1", "--record", ""],
         "Invalid value for '--record': an empty path names no file or directory "
         "(see 'catbox play --help')"),
        (["puzzle", "solve", ""],
         "Invalid value for 'PATH': an empty path names no file or directory "
         "(see 'catbox puzzle solve --help')"),
        (["puzzle", "export", "puzzles", "-o", ""],
         "Invalid value for '-o' / '--output': an empty path names no file or directory "
         "(see 'catbox puzzle export --help')"),
        (["render", "4p", "-o", ""],
         "Invalid value for '-o' / '--output': an empty path names no file or directory "
         "(see 'catbox render --help')"),
        # a NUL character in a file name: a ValueError traceback before
        (["render", "4p", "-o", "a\x00b"],
         "Invalid value for '-o' / '--output': 'a\\x00b' holds a NUL character: no file can "
         "be named so (see 'catbox render --help')"),
        (["verify", "a\x00b"],
         "Invalid value for 'RECORD': 'a\\x00b' holds a NUL character: no file can be "
         "named so (see 'catbox verify --help')"),
        (["legal", "@a\x00b"],
         "cannot read file 'a\\x00b': a file name cannot hold a NUL character"),
        # (as show: one of the two was dropped without a word)
        (["deal", "-p", "4", "--seed", "1", "--json", "--notation"],
         "choose one of --json and --notation (see 'catbox deal --help')"),
        (["solve", "4p", "--jobs", "100000"],
         "Invalid value for '--jobs': 100000 is not in the range 0<=x<=64. "
         "(see 'catbox solve --help')"),
        # int options take what the files hold: a 19-digit seed was taken
        # and written into a record that verify refused; other scripts' digits were taken
        (["deal", "-p", "4", "--seed", "1000000000000000000"],
         "Invalid value for '--seed': 1000000000000000000 has 19 digits, more than 18 "
         "(see 'catbox deal --help')"),
        (["play", "-p", "3", "--seed", "1" * 50],
         "Invalid value for '--seed': '11111111111111111111'... has 50 digits, far too many "
         "(see 'catbox play --help')"),
        # digits counted without the sign, in one wording (40 and a sign read "far too many")
        (["deal", "-p", "4", "--seed=-" + "1" * 40],
         f"Invalid value for '--seed': -{'1' * 40} has 40 digits, more than 18 "
         "(see 'catbox deal --help')"),
        (["simulate", "--seed", "1_0"],
         "Invalid value for '--seed': '1_0' is not a whole number in ASCII digits "
         "(see 'catbox simulate --help')"),
        (["render", "4p", "--hero", "\u0663"],
         "Invalid value for '--hero': '\u0663' is not a whole number in ASCII digits "
         "(see 'catbox render --help')"),
        (["exists", "4p", "--paradox-by", "+1"],
         "Invalid value for '--paradox-by': '+1' is not a whole number in ASCII digits "
         "(see 'catbox exists --help')"),
        (["deal", "-p", "\u0664", "--seed", "1"],
         "Invalid value for '--players' / '-p': '\u0664' is not a whole number in ASCII "
         "digits (see 'catbox deal --help')"),
        (["foo"], "No such command 'foo'. (see 'catbox --help')"),
        (["--bogus"], "No such option '--bogus'. (see 'catbox --help')"),
        (["solve"], "Missing argument 'POSITION'. (see 'catbox solve --help')"),
        (["puzzle", "bogus"], "No such command 'bogus'. (see 'catbox puzzle --help')"),
        (["rules", "diff", "official"],
         "Missing argument 'RULESET_B'. (see 'catbox rules diff --help')"),
    ],
)
def test_usage_errors_are_one_line(args: list[str], message: str) -> None:
    """Click's usage errors (three lines: usage, hint, error) are one line too."""
    _one_line_error(args, message)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_a_failed_write_names_the_file() -> None:
    """Found by probing: a write that failed as it was flushed (a full
    disk) said only "error: No space left on device", without the file."""
    _one_line_error(["render", P3, "-o", "/dev/full"], "No space left on device: /dev/full")
    _one_line_error(["puzzle", "export", str(Path(__file__).parents[1] / "puzzles"),
                     "-o", "/dev/full"], "No space left on device: /dev/full")
    with pytest.raises(OSError) as err:
        write_whole("/dev/full", "x")
    assert err.value.filename == "/dev/full"


def test_verify_names_an_empty_path() -> None:
    """``verify ''`` said "error: No such file or directory", naming nothing."""
    _one_line_error(["verify", ""], "Invalid value for 'RECORD': an empty path names no file "
                    "or directory (see 'catbox verify --help')")


def test_solve_hero_takes_ascii_digits_only() -> None:
    """``--hero`` of solve was read with int(): '٣' (an Arabic-Indic three) and '+1' were
    taken as seats 3 and 1, where every other seat read refuses them."""
    for text in ("\u0663", "+1", "1_0"):
        _one_line_error(["solve", P3, "--hero", text],
                        f"--hero must be a seat number or 'to-move', not {text!r}")
    code, out, _ = _run(["solve", P3, "--hero", " 1 ", "--question", "paradox", "--json"])
    assert code == 0 and json.loads(out)["hero"] == 1


def test_record_and_prompts_take_ascii_digits_only(tmp_path: Path) -> None:
    rec = tmp_path / "d.rec"
    rec.write_text("players 3\nround 1\nstart 0\ndeal ² 1 1\n")
    _one_line_error(["verify", str(rec)], "line 4: deal: '²' is not a row of card values 1-9")
    rec.write_text("players 3\nseed 1_0\n")
    _one_line_error(["verify", str(rec)], "line 2: seed: '1_0' is not a whole number")
    rec.write_text("players 3\nseed " + "1" * 5000 + "\n")  # (echoed whole before)
    _one_line_error(
        ["verify", str(rec)],
        "line 2: seed: '11111111111111111111'... has 5000 digits, far too many",
    )
    # 19 digits: the limit said (it read "is not a whole number"), as the options say it
    rec.write_text("players 3\nseed " + "1" * 19 + "\n")
    _one_line_error(["verify", str(rec)], f"line 2: seed: '{'1' * 19}' has 19 digits, more than 18")
    rec.write_text("players 3\nseed " + "x" * 50 + "\n")
    _one_line_error(["verify", str(rec)],
                    "line 2: seed: 'xxxxxxxxxxxxxxxxxxxx'... (50 characters) is not a whole number")
    # the prompts ask again, then the input ends: one line, exit 2 (was "Aborted!", 1)
    code, out, err = _run(["play", "-p", "3", "--seed", "1"], stdin="²\n")
    assert "'²' is not a card in your hand" in out
    assert (code, err) == (2, "error: the input ended before the game did\n")
    code, out, err = _run(["play", "-p", "3", "--seed", "1"], stdin="6\n٣\n")
    assert "'٣' is not one of 1, 3, 4" in out and code == 2


def test_puzzle_files_nested_too_deep_or_with_a_bad_id(tmp_path: Path) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    _one_line_error(["puzzle", "solve", str(deep)], f"{deep}: not valid TOML: nested too deeply")
    good = Path("puzzles/fig-3-7-peter-paradox.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(good.replace('id = "fig-3-7-peter-paradox"', 'id = "fig\\n"'))
    code, _, err = _run(["puzzle", "solve", str(bad)])
    assert code == 2 and "field 'id' 'fig\\n' must be lower-case letters, digits and '-'" in err


def test_endless_input_is_an_error(tmp_path: Path) -> None:
    """/dev/zero (or a file over MAX_BYTES) is read only up to the limit: an error, not a
    MemoryError traceback."""
    _one_line_error(["show", "@/dev/zero"], f"/dev/zero: larger than {MAX_BYTES >> 20} MiB, "
                    "too large to read")
    _one_line_error(["verify", "/dev/zero"], f"/dev/zero: larger than {MAX_BYTES >> 20} MiB, "
                    "too large to read")
    small = tmp_path / "s.txt"
    small.write_bytes(b"x" * 1000)
    assert read_limited(small) == b"x" * 1000
    with pytest.raises(TooLarge):
        read_limited("/dev/zero")


@given(st.text(max_size=25) | st.from_regex(r"-?[0-9]{1,20}", fullmatch=True))
def test_whole_number_is_ascii_digits(text: str) -> None:
    """whole_number reads exactly '-'? followed by 1-18 ASCII digits; int() agrees there."""
    plain = text.lstrip("-") if text.count("-") <= 1 and text.startswith("-") else text
    is_whole = 1 <= len(plain) <= 18 and all(c in "0123456789" for c in plain)
    want = int(text) if is_whole else None
    assert whole_number(text, signed=True) == want
    assert whole_number(text) == (want if not text.startswith("-") else None)


class _CtrlCAfter(io.RawIOBase):
    """Standard input that gives ``text`` and then meets Ctrl-C (KeyboardInterrupt)."""

    def __init__(self, text: str) -> None:
        self.left = text.encode()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if not self.left:
            raise KeyboardInterrupt
        n = min(len(buffer), len(self.left))
        buffer[:n] = self.left[:n]
        self.left = self.left[n:]
        return n


@pytest.mark.parametrize("typed", ["", "3\n"])
def test_ctrl_c_at_a_prompt_ends_with_130(typed: str) -> None:
    """Ctrl-C at the play prompt (the first one, or the second after a discard read):
    "stopped by Ctrl-C" and 130 (click said "Aborted!")."""
    res = CliRunner().invoke(main, ["play", "-p", "3", "--seed", "1"],
                             input=io.BufferedReader(_CtrlCAfter(typed)))
    code, out, err = res.exit_code, res.stdout, res.stderr
    prompt = "predict your tricks (1, 3, 4): " if typed else "discard which card: "
    assert out.endswith(f"{prompt}\n")  # (the prompt's line ended)
    assert ("discard which card: 3\n" in out) == bool(typed)
    assert (code, err) == (130, "stopped by Ctrl-C\n")


def test_a_byte_order_mark_is_not_part_of_the_text(tmp_path: Path) -> None:
    """Files saved with a UTF-8 byte order mark (as some editors do) read as without it;
    before, the mark was taken for the first character ("player count must look like
    '4p', not '\\ufeff4p'")."""
    bom = b"\xef\xbb\xbf"
    pos = tmp_path / "pos.txt"
    pos.write_bytes(bom + P4_TRICK.encode())
    assert position_argument(f"@{pos}") == position_argument(P4_TRICK)
    as_json = tmp_path / "pos.json"
    as_json.write_bytes(bom + position_to_json(position_argument(P4_TRICK)).encode())
    assert position_argument(f"@{as_json}") == position_argument(P4_TRICK)
    puzzle = Path(__file__).resolve().parents[1] / "puzzles" / "avoid-paradox-2p-536f710e.toml"
    marked = tmp_path / "p.toml"
    marked.write_bytes(bom + puzzle.read_bytes())
    code, out, err = _run(["puzzle", "solve", str(marked)])
    assert (code, err) == (0, "") and "every stored answer is right" in out
    from catbox_solver.formats.record import game_record, write_record
    from catbox_solver.games.game import play_game
    from catbox_solver.model.rules import Ruleset

    record = tmp_path / "g.rec"
    record.write_bytes(bom + write_record(game_record(play_game(Ruleset(3), 5))).encode())
    code, out, err = _run(["verify", str(record)])
    assert (code, err) == (0, "") and out.startswith("valid: 3 rounds")
    # the mark only at the very start: inside the text it is still an error
    pos.write_bytes(P4_TRICK.encode() + bom)
    code, _, err = _run(["legal", f"@{pos}"])
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1


def test_a_huge_number_in_position_json_is_named() -> None:
    """A number literal of thousands of digits: one line naming it (it gave Python's own
    'use sys.set_int_max_str_digits() to increase the limit' as the message)."""
    huge = '{"format": "catbox-position/1", "players": ' + "9" * 5000 + "}"
    _one_line_error(["show", huge], "not valid JSON: a number of 5000 digits")
    # thirty digits still read as a number (and then fail as a player count)
    code, _, err = _run(["show", '{"format": "catbox-position/1", "players": ' + "9" * 30 + "}"])
    assert code == 2 and "digits" not in err


def _with_closed(fd: int, *args: str) -> tuple[int, str]:
    """Run ``catbox args`` in a child whose file descriptor ``fd`` (0: standard input, 1:
    standard output) is closed, as ``<&-`` or ``>&-`` in a shell; its exit code and
    standard error."""

    def close() -> None:
        os.close(fd)

    child = subprocess.run(
        [sys.executable, "-m", "catbox_solver", *args],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, preexec_fn=close,
        timeout=120,
    )
    return child.returncode, child.stderr


def test_closed_standard_streams_are_named() -> None:
    """Found by probing: with standard input closed `verify -` ended in an
    AttributeError traceback and `play` in a RuntimeError one; with standard output
    closed every command printed nothing and ended with code 0."""
    assert _with_closed(0, "verify", "-") == (
        2, "error: standard input is closed: nothing to read\n"
    )
    assert _with_closed(0, "play", "--players", "3", "--seed", "5") == (
        2, "error: standard input is closed: the game reads your choices from it\n"
    )
    for args in (["deal", "--players", "4", "--seed", "7", "--json"], ["legal", P3]):
        assert _with_closed(1, *args) == (
            2, "error: standard output is closed: nowhere to print the answer\n"
        )
    # standard error closed: the message is lost, the exit code is kept
    assert _with_closed(2, "show", "garbage") == (2, "")
    assert _with_closed(2, "legal", P3)[0] == 0


def test_standard_error_not_writable_keeps_the_exit_code() -> None:
    """Run through a wrapper script (pyenv's shims are bash scripts) with ``2>&-``, a
    command finds descriptor 2 taken by a file open for reading: its error message raised
    OSError from the error handler itself, and the exit code became 1. The
    wrapper here opens /dev/null for reading on descriptor 2, as such a shim does."""
    for args, code in (("show garbage", 2), (f"solve '{P3}' --hero 9", 2),
                       (f"legal '{P3}'", 0)):
        child = subprocess.run(
            ["sh", "-c", f'exec 2</dev/null; exec "$0" -m catbox_solver {args}',
             sys.executable],
            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
        )
        assert child.returncode == code, (args, child.returncode)
    with pytest.raises(OSError, match="standard input is closed"):
        saved = sys.stdin
        try:
            sys.stdin = None
            read_limited(None)
        finally:
            sys.stdin = saved


def test_python_dash_m_names_the_catbox_command() -> None:
    """``python -m catbox_solver`` is the catbox command, and its usage and hints say so
    (they said "see 'python -m catbox_solver deal --help'", a command name no user types
    after installing)."""
    child = subprocess.run(
        [sys.executable, "-m", "catbox_solver", "deal", "--players", "9"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
    )
    assert child.returncode == 2
    assert child.stderr.endswith("(see 'catbox deal --help')\n"), child.stderr
    child = subprocess.run([sys.executable, "-m", "catbox_solver", "deal", "--help"],
                           capture_output=True, text=True, timeout=120)
    assert child.stdout.startswith("Usage: catbox deal [OPTIONS]"), child.stdout
