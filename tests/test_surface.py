"""The library as a Python user meets it: ``from catbox_solver import ...``, plays and
positions that print as what they are, files read only when asked, errors and results in
the library's own words, and types that a user's ``mypy --strict`` sees."""

from __future__ import annotations

import ast
import builtins
import json
import os
import shutil
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import catbox_solver
from catbox_solver import (
    ArgumentError,
    ArgumentTypeError,
    CatboxError,
    Color,
    NotationError,
    Play,
    Position,
    Ruleset,
    SearchError,
    load_positions,
)
from catbox_solver.cli import main
from catbox_solver.cpsat import exists as ex
from catbox_solver.cpsat import proofs
from catbox_solver.errors import SearchTypeError
from catbox_solver.formats import files
from catbox_solver.formats.jsonform import position_from_json
from catbox_solver.formats.notation import position_from_text
from catbox_solver.model.deal import first_lead
from catbox_solver.model.numbers import check_int, check_seconds
from catbox_solver.questions import QUESTIONS, Question
from catbox_solver.render.text import render_text

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "catbox_solver"
POS = first_lead(Ruleset(players=3), 1)


# ---- Play and Color --------------------------------------------------------------------------
def test_a_play_prints_as_its_text() -> None:
    play = Play.parse("2b")
    assert (str(play), repr(play)) == ("2b", "Play('2b')")
    assert Play(value=2, color=1) == play == Play(2, Color.BLUE)
    assert play.color is Color.BLUE and isinstance(play.color, Color)
    assert Play(value=7, color=0).color is Color.RED
    assert [c.name for c in Color] == ["RED", "BLUE", "YELLOW", "GREEN"]
    assert [int(c) for c in Color] == [0, 1, 2, 3]
    assert repr((Play.parse("2b"), Play.parse("3r"))) == "(Play('2b'), Play('3r'))"
    assert repr([Play.parse("9g")]) == "[Play('9g')]"
    # a Play that is no card still prints (its fields), and its text is refused
    assert repr(Play(12, 1)) == "Play(value=12, color=1)"
    with pytest.raises(NotationError):
        str(Play(12, 1))
    assert Play("2b") == play and Play("7R") == Play(7, 0)


def test_every_legal_play_has_a_color() -> None:
    plays = POS.legal_plays()
    assert plays and all(isinstance(p.color, Color) for p in plays)
    assert all(Play.parse(str(p)) == p and eval(repr(p)) == p for p in plays)


# ---- Position --------------------------------------------------------------------------------
def test_position_text_forms_round_trip() -> None:
    text = POS.notation()
    assert Position.from_notation(text) == POS
    assert repr(POS) == f"Position({text!r})"
    assert str(POS) == render_text(POS)
    obj = POS.to_json()
    assert obj["format"] == "catbox-position/1"
    assert Position.from_json(obj) == POS
    assert Position.from_json(json.dumps(obj)) == POS
    pos = POS.play(POS.legal_plays()[0])
    assert Position.from_notation(pos.notation()) == Position.from_json(pos.to_json()) == pos


def _module_imports(path: Path) -> list[str]:
    """The modules a file imports at its top level (not inside functions, nor under
    ``if TYPE_CHECKING``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            out.append(node.module)
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names]
    return out


# the layers, lowest first: a module imports (at its top level) only from its own layer or
# those below it; an upward use is a lazy import inside a function (a display hook). (A
# game record is written from a played game: records and games share a layer.)
LAYERS = [
    ("catbox_solver.errors", "catbox_solver.questions"),
    ("catbox_solver.model",),
    ("catbox_solver.formats", "catbox_solver.games"),
    ("catbox_solver.render",),
]
UPPER = ("catbox_solver.dd", "catbox_solver.cpsat", "catbox_solver.cli",
         "catbox_solver.puzzles", "catbox_solver.readings")


def _layer(module: str) -> int:
    for i, prefixes in enumerate(LAYERS):
        if module.startswith(prefixes):
            return i
    return len(LAYERS) if module.startswith(UPPER) else -1


@pytest.mark.parametrize("folder", ["model", "formats"])
def test_module_level_imports_point_down(folder: str) -> None:
    """model imports nothing of formats, render, dd or cpsat at its top level; formats
    nothing of render and above: the circle position <-> notation <-> jsonform <-> svg is
    gone (Position's text forms are lazy hooks)."""
    for path in sorted((PACKAGE / folder).glob("*.py")):
        here = _layer(f"catbox_solver.{folder}.{path.stem}")
        for module in _module_imports(path):
            if module.startswith("catbox_solver"):
                assert _layer(module) <= here, f"{path.name} imports {module}"


def test_importing_the_package_loads_no_solver() -> None:
    code = ("import sys, catbox_solver\n"
            "print(sorted(m for m in ('numba', 'ortools', 'catbox_solver.dd.solve', "
            "'catbox_solver.formats.notation', 'catbox_solver.render.text') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout
    assert out == "[]\n"


# ---- parsing never opens a file --------------------------------------------------------------
def test_parsing_never_opens_a_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """Text that looks like a file name is text: ``@/etc/passwd`` is no notation, and no
    file is opened to find out (it was read, and its first line quoted in the error)."""

    def no_open(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"a file was opened: {args[:1]}")

    monkeypatch.setattr(builtins, "open", no_open)
    monkeypatch.setattr(files, "read_limited", no_open)
    for text in ("@/etc/passwd", "@position.txt", "@x.jsonl"):
        with pytest.raises(NotationError) as info:
            position_from_text(text)
        assert "player count must look like '4p'" in str(info.value)
        assert "root" not in str(info.value)
    with pytest.raises(NotationError):
        Position.from_notation("@/etc/passwd")


def test_load_positions_reads_files_and_batches(tmp_path: Path) -> None:
    one = tmp_path / "one.txt"
    one.write_text(POS.notation() + "\n")
    pretty = tmp_path / "pretty.json"
    pretty.write_text(json.dumps(POS.to_json(), indent=2))
    batch = tmp_path / "b.jsonl"
    later = POS.play(POS.legal_plays()[0])
    batch.write_text(f"{POS.notation()}\n{json.dumps(later.to_json())}\n\n")  # (a blank end)
    assert load_positions(one) == [POS]
    assert load_positions(str(pretty)) == [POS]
    assert load_positions(batch) == [POS, later]


def test_two_positions_in_a_plain_file_point_to_jsonl(tmp_path: Path) -> None:
    for name, text in (("two.txt", f"{POS.notation()}\n{POS.notation()}\n"),
                       ("two.json", json.dumps(POS.to_json()) * 2)):
        path = tmp_path / name
        path.write_text(text)
        with pytest.raises(NotationError) as info:
            load_positions(path)
        assert str(info.value) == f"{path}: one position per file; use .jsonl for a batch"


def test_a_batch_error_names_file_and_line(tmp_path: Path) -> None:
    batch = tmp_path / "b.jsonl"
    batch.write_text(f"{POS.notation()}\n\n{POS.notation()}\n")
    with pytest.raises(NotationError, match=f"^{batch} line 2: empty line$"):
        load_positions(batch)
    (tmp_path / "none.jsonl").write_text("\n\n")
    with pytest.raises(NotationError, match="holds no positions"):
        load_positions(tmp_path / "none.jsonl")


def test_a_key_given_twice_is_refused_by_name() -> None:
    text = json.dumps(POS.to_json())
    doubled = text.replace('"leader": 0', '"leader": 0, "leader": 1')
    assert doubled != text
    with pytest.raises(NotationError, match="key 'leader' given twice in one object"):
        position_from_json(doubled)
    with pytest.raises(NotationError, match="key 'R' given twice"):
        position_from_json(text.replace('"R": "', '"R": "......", "R": "', 1))


HUGE = "x" * 200_000


@pytest.mark.parametrize("text", [
    HUGE,
    f"3p {HUGE}",
    f"3p official | R:{HUGE}",
    POS.notation().replace("lead 0", f"lead {HUGE}"),
    POS.notation().replace("left 8", f"left {HUGE}"),
    POS.notation().replace("bid ", f"{HUGE} "),
    "{" + f'"format": "{HUGE}"' + "}",
    json.dumps({**POS.to_json(), "hands": [[1] * 100_000]}),
    json.dumps({**POS.to_json(), "ruleset": HUGE}),
    json.dumps({**POS.to_json(), HUGE: 1}),
    json.dumps({**POS.to_json(), "colors": [HUGE, "R", "R"]}),
], ids=["word", "ruleset", "board", "lead", "left", "label", "json-format", "json-hand",
        "json-ruleset", "json-key", "json-colors"])
def test_an_error_quotes_input_cut_short(text: str) -> None:
    """An error that quotes the input quotes at most 80 characters of it, then "..."
    (a 200,000-character error line before)."""
    with pytest.raises(CatboxError) as info:
        position_from_text(text)
    assert len(str(info.value)) < 400, str(info.value)[:500]


def test_the_cli_reads_at_file_through_load_positions(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_text(POS.notation())
    res = CliRunner().invoke(main, ["show", f"@{path}", "--notation"])
    assert (res.exit_code, res.stdout) == (0, POS.notation() + "\n")
    path.write_text(f"{POS.notation()}\n{POS.notation()}\n")
    res = CliRunner().invoke(main, ["legal", f"@{path}"])
    assert (res.exit_code, res.stderr) == (
        2, f"error: {path}: one position per file; use .jsonl for a batch\n")


# ---- library words, not CLI flags ------------------------------------------------------------
def test_conditions_are_named_as_the_library_builds_them() -> None:
    from catbox_solver.cli.cpsat_cmds import condition_flag

    cases = [
        (ex.no_paradox(), "no_paradox()", "--no-paradox"),
        (ex.paradox(), "paradox()", "--paradox"),
        (ex.paradox(3), "paradox(trick=3)", "--paradox --at-trick 3"),
        (ex.paradox_by(1, 6), "paradox_by(1, trick=6)", "--paradox-by 1 --at-trick 6"),
        (ex.tricks(2, 3), "tricks(2, 3)", "--tricks 2=3"),
        (ex.tricks_at_least(0, 3), "tricks_at_least(0, 3)", "--tricks-at-least 0=3"),
        (ex.score_at_most(1, -2), "score_at_most(1, -2)", "--score-at-most 1=-2"),
        (ex.bonus(0, 4), "bonus(0, 4)", "--bonus 0=4"),
        (ex.empty("g4"), "empty('G4')", "--empty G4"),
    ]
    for cond, name, flag in cases:
        assert (cond.name, repr(cond), condition_flag(cond)) == (name, name, flag)
        assert "--" not in cond.name
    assert eval(repr(ex.tricks_at_least(0, 3)), vars(ex)) == ex.tricks_at_least(0, 3)


def test_a_clash_is_named_in_library_words() -> None:
    ans = ex.exists(POS, [ex.tricks_at_least(0, 8), ex.tricks_at_least(1, 8)],
                    timeout=60, workers=1)
    assert ans.exists is False
    assert ans.clash == ["tricks_at_least(0, 8)", "tricks_at_least(1, 8)"]
    assert ans.to_json()["clash"] == ans.clash
    # the CLI names them by its options, as before
    res = CliRunner().invoke(main, ["exists", POS.notation(), "--tricks-at-least", "0=8",
                                    "--tricks-at-least", "1=8", "--json"])
    assert json.loads(res.stdout)["clash"] == ["--tricks-at-least 0=8", "--tricks-at-least 1=8"]


def test_an_argument_of_the_wrong_type_is_a_type_error() -> None:
    """The text "0" for a seat is a TypeError that names what and what it got (not a
    range error); a value out of range is a ValueError; both are CatboxErrors."""
    with pytest.raises(ArgumentTypeError) as info:
        check_int("0", "hero seat", 0, 3)
    assert isinstance(info.value, TypeError) and isinstance(info.value, CatboxError)
    assert str(info.value) == "hero seat must be a whole number, not '0'"
    assert info.value.argument == "hero seat"
    with pytest.raises(ArgumentError) as err:
        check_int(4, "hero seat", 0, 3)
    assert not isinstance(err.value, TypeError) and isinstance(err.value, ValueError)
    with pytest.raises(SearchTypeError):
        check_int("0", "hero seat", 0, 3, SearchError)
    with pytest.raises(ArgumentTypeError, match="timeout must be a number of seconds"):
        check_seconds("5")
    # (the model's checks raise no solver error unless a solver asks for one)
    with pytest.raises(ArgumentError) as plain:
        check_int(-1, "count", 0)
    assert not isinstance(plain.value, SearchError)


def test_a_seat_given_as_text_is_a_type_error() -> None:
    with pytest.raises(ArgumentTypeError, match=r"^a seat is a whole number, not '0'$"):
        POS.largest_group("0")  # type: ignore[arg-type]
    with pytest.raises(CatboxError, match="seat 3 outside 0-2"):
        POS.trick_points(3)


def test_question_is_a_literal_type() -> None:
    assert typing.get_origin(Question) is typing.Literal
    assert typing.get_args(Question) == QUESTIONS == ("paradox", "tricks", "score", "table")


# ---- one name for one option, one name for one thing ----------------------------------------
@pytest.mark.parametrize("command", ["exists", "prove"])
def test_exists_and_prove_take_timeout(command: str) -> None:
    help_text = CliRunner().invoke(main, [command, "--help"]).stdout
    assert "--timeout" in help_text and "--time-limit" not in help_text


def test_the_old_time_limit_spelling_still_works() -> None:
    for option in ("--timeout", "--time-limit"):
        res = CliRunner().invoke(main, ["exists", POS.notation(), "--no-paradox", option, "30",
                                        "--json"])
        assert (res.exit_code, json.loads(res.stdout)["exists"]) == (0, True)


def test_one_name_for_one_thing() -> None:
    assert not hasattr(proofs, "Search") and hasattr(proofs, "FreeDealSolve")
    assert not hasattr(ex, "_cut_short")
    numbers = (PACKAGE / "model" / "numbers.py").read_text(encoding="utf-8")
    assert "SearchError(" not in numbers  # (the model raises model errors)


# ---- the package's names ---------------------------------------------------------------------
def test_every_exported_name_resolves() -> None:
    for name in catbox_solver.__all__:
        assert getattr(catbox_solver, name) is not None, name
    assert set(catbox_solver.__all__) >= {
        "Position", "Play", "Color", "Ruleset", "CatboxError", "NotationError",
        "PositionError", "IllegalPlayError", "SearchError", "solve", "dd_table",
        "value_only", "single_dummy", "exists", "prove", "load_positions", "Answer",
        "DDTable", "Question",
    }
    from catbox_solver.dd import answer as dd_answer
    from catbox_solver.dd import solve as dd_solve

    assert catbox_solver.solve is dd_solve.solve and catbox_solver.Answer is dd_answer.Answer
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        catbox_solver.nothing  # noqa: B018


USER_FILE = '''\
from catbox_solver import Color, Play, Position, Ruleset, load_positions, solve

def first(text: str) -> Play:
    pos: Position = Position.from_notation(text)
    play = pos.legal_plays()[0]
    color: Color = play.color
    assert color in Color
    return play

def loaded(path: str) -> list[Position]:
    return load_positions(path)

players: int = Ruleset(players=3).players
ask = solve
'''


def _site_packages(python: Path) -> Path:
    out = subprocess.run([str(python), "-c", "import site; print(site.getsitepackages()[0])"],
                         capture_output=True, text=True, check=True).stdout
    return Path(out.strip())


@pytest.mark.skipif(shutil.which("mypy") is None and not (Path(sys.executable).parent /
                    "mypy").exists(), reason="mypy is not installed")
def test_a_users_mypy_sees_the_types(tmp_path: Path) -> None:
    """A user's file, outside the checkout, type-checks with ``mypy --strict`` against
    this checkout as the editable install exposes it: a ``.pth`` naming the checkout (as
    hatchling's editable install writes, in a fresh environment here) and the package's
    ``py.typed``. A wrong type in the user's file is found (so the types are seen, not
    taken as Any)."""
    installed = [p for p in _site_packages(Path(sys.executable)).glob("*catbox_solver*.pth")]
    assert installed, "the editable install is a .pth file naming the checkout"
    assert (PACKAGE / "py.typed").exists()
    venv = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    (_site_packages(python) / "_editable_impl_catbox_solver.pth").write_text(f"{ROOT}\n")
    user = tmp_path / "user" / "user.py"
    user.parent.mkdir()
    user.write_text(USER_FILE)
    env = {k: v for k, v in os.environ.items() if k not in ("MYPYPATH", "PYTHONPATH")}

    def mypy(source: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "mypy", "--strict", "--no-incremental",
             "--python-executable", str(python), source.name],
            capture_output=True, text=True, cwd=source.parent, env=env,
        )

    ok = mypy(user)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "Success: no issues found in 1 source file" in ok.stdout
    wrong = user.with_name("wrong.py")
    wrong.write_text(USER_FILE.replace("players: int", "players: str"))
    bad = mypy(wrong)
    assert bad.returncode == 1 and 'Incompatible types in assignment (expression has type "int"' \
        in bad.stdout, bad.stdout
