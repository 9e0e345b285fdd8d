"""The bench scripts check their arguments before any work: a bad one is a one-line error
saying which argument and why, with exit code 2 (argparse's ``error``), never a traceback
after minutes of work and never rows of meaningless figures (``--depths 9`` with 4 players
once "solved" the final position and printed zeros). The scripts are loaded from bench/
of this checkout; their argument parsing runs in this process (no positions are built and
the compiled core is not loaded), and one case per script runs as a real command."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from script_loader import load_script

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"


def load(name: str) -> ModuleType:
    """bench/``name``.py as a module."""
    return load_script(f"bench/{name}.py")


def error_of(func: object, argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one error line ``func(argv)`` ends with (exit code 2)."""
    with pytest.raises(SystemExit) as exc:
        func(argv)  # type: ignore[operator]
    assert exc.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert lines[0].startswith("usage:") and "Traceback" not in err, err
    assert [": error: " in line for line in lines].count(True) == 1
    return lines[-1].split(": error: ", 1)[1]


def run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, str(BENCH / script), *args], env=env,
                          capture_output=True, text=True, timeout=60)


# ---- bench_search.py ---------------------------------------------------------------------

SEARCH_ERRORS = [
    (["--players", "x"], "argument --players: 'x' is not a player count (2 to 5)"),
    (["--players", "4,"], "argument --players: '' is not a player count (2 to 5)"),
    (["--players", "7"], "argument --players: '7' is not a player count (2 to 5)"),
    (["--players", "1"], "argument --players: '1' is not a player count (2 to 5)"),
    (["--depths", "abc"],
     "argument --depths: 'abc' is not a number of tricks left (1 or more) or 'first'"),
    (["--depths", "0"],
     "argument --depths: '0' is not a number of tricks left (1 or more) or 'first'"),
    (["--depths", ""],  # (it fell back on the default ladder without a word)
     "argument --depths: '' is not a number of tricks left (1 or more) or 'first'"),
    (["--depths", "9", "--players", "4"],
     "argument --depths: 9 tricks left is more than the 8 tricks of a 4-player round"),
    (["--depths", "4,8", "--players", "4,5"],
     "argument --depths: 8 tricks left is more than the 7 tricks of a 5-player round"),
    (["--questions", "foo"], "argument --questions: unknown question 'foo' "
     "(one of paradox, tricks, score, table)"),
    (["--count", "0"], "argument --count: must be at least 1, not 0"),
    (["--count", "-3"], "argument --count: must be at least 1, not -3"),
    (["--max-seconds", "-1"],
     "argument --max-seconds: must be a number of seconds, 0 or more, not -1"),
    (["--max-seconds", "nan"],
     "argument --max-seconds: must be a number of seconds, 0 or more, not nan"),
    (["--baseline-seconds", "inf"],
     "argument --baseline-seconds: must be a number of seconds, 0 or more, not inf"),
    (["--jobs", "-1"], "argument --jobs: must be 0 (one per core) or 1 to 64, not -1"),
    (["--repeat", "0"], "argument --repeat: must be at least 1, not 0"),
]


@pytest.mark.parametrize(("argv", "message"), SEARCH_ERRORS,
                         ids=[" ".join(a) for a, _ in SEARCH_ERRORS])
def test_bench_search_bad_arguments(argv: list[str], message: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert error_of(load("bench_search").parse_args, argv, capsys) == message


def test_bench_search_good_arguments() -> None:
    args = load("bench_search").parse_args(
        ["--players", "4,5", "--depths", "3,7,first", "--questions", "tricks,table",
         "--max-seconds", "0", "--jobs", "0"])
    assert args.players == [4, 5]
    assert args.depths == {4: [3, 7, 0], 5: [3, 7, 0]}  # given: for every player count
    assert args.questions == ["tricks", "table"]


def test_bench_search_default_depths_follow_the_ladder() -> None:
    """The issue's ladder: 4, 5, 6 tricks left and the first lead; with 5 players, "the
    same ladder, one trick shorter"."""
    args = load("bench_search").parse_args([])
    assert args.players == [2, 3, 4, 5]
    assert args.depths == {2: [4, 5, 6, 0], 3: [4, 5, 6, 0], 4: [4, 5, 6, 0],
                           5: [3, 4, 5, 0]}
    assert args.questions == ["paradox", "tricks", "score", "table"]


def test_bench_search_command_line_error() -> None:
    """As a command: the one line on stderr, exit 2, before any position is built."""
    done = run("bench_search.py", "--players", "4", "--depths", "9")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines()[-1] == (
        "bench_search.py: error: argument --depths: 9 tricks left is more than the 8 "
        "tricks of a 4-player round")
    assert "Traceback" not in done.stderr


MEDIANS = [
    # times, ran out of time?, (median, only a lower bound?, worst, only a lower bound?)
    ([1.0, 2.0, 3.0], [False] * 3, (2.0, False, 3.0, False)),
    ([1.0, 2.0, 5.0], [False, False, True], (2.0, False, 5.0, True)),  # above the middle
    ([1.0, 5.0, 2.0], [False, True, False], (2.0, False, 5.0, True)),
    ([1.0, 2.0, 5.0], [False, True, False], (2.0, True, 5.0, True)),  # the middle one
    ([0.001, 0.5, 0.6], [True, False, False], (0.5, True, 0.6, True)),  # could pass both
    ([1.0, 2.0, 3.0, 10.0], [False, False, False, True], (2.5, False, 10.0, True)),
    ([1.0, 2.0, 3.0, 10.0], [False, False, True, False], (2.5, True, 10.0, True)),
    ([1.0, 2.0, 2.0], [False, False, True], (2.0, False, 2.0, True)),  # a tie sorts it last
    ([0.0, 0.0, 0.0], [True] * 3, (0.0, True, 0.0, True)),
]


@pytest.mark.parametrize(("xs", "cut", "expected"), MEDIANS)
def test_bench_search_median_of_timeouts(xs: list[float], cut: list[bool],
                                         expected: tuple[float, bool, float, bool]) -> None:
    """A timed-out search's time is a lower bound; it stays in the median, and the median
    or the worst is printed as ``>x`` when a longer run of that search could change it."""
    bench_search = load("bench_search")
    assert bench_search.median_worst(xs, cut) == expected
    med, med_cut, worst, worst_cut = expected
    shown = bench_search._fmt(xs, cut, ".3f", (9, 9))
    assert shown.split() == [f"{'>' if med_cut else ''}{med:.3f}",
                             f"{'>' if worst_cut else ''}{worst:.3f}"]


def test_bench_search_speed_up_line() -> None:
    """The ratio's median and least over the positions where both finished, said so; a
    lower bound over every position where the search finished; search timeouts left out."""
    speed_up = load("bench_search").speed_up
    assert speed_up([1.0, 1.0, 2.0], [False] * 3, [10.0, 30.0, 100.0], [False] * 3, 60) == (
        "x30 at the median (least x10) over the 3 of 3 positions where the baseline "
        "finished within 60 s")
    assert speed_up([1.0, 1.0, 2.0, 0.5], [False] * 4, [10.0, 30.0, 60.0, 60.0],
                    [False, False, True, True], 60) == (
        "x20 at the median (least x10) over the 2 of 4 positions where the baseline "
        "finished within 60 s; over all 4, at least x30 at the median (an unfinished "
        "baseline counted as the time it ran)")
    assert speed_up([1.0, 60.0], [False, True], [10.0, 60.0], [False, True], 60) == (
        "x10 at the median (least x10) over the 1 of 2 positions where the baseline "
        "finished within 60 s; over all 1, at least x10 at the median (an unfinished "
        "baseline counted as the time it ran); 1 where the search ran out of time left out")
    assert speed_up([1.0], [False], [60.0], [True], 60) == (
        "the baseline finished on none of the 1 positions within 60 s; over all 1, at "
        "least x60 at the median (an unfinished baseline counted as the time it ran)")


def test_bench_search_exits_1_on_a_disagreement(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An answer of the baseline that differs from the search's fails the run (it only
    printed a line and exited 0): one tiny position, the baseline made to answer wrong."""
    bench_search = load("bench_search")
    argv = ["--players", "2", "--depths", "1", "--count", "1", "--questions", "table"]
    assert bench_search.main(argv) == 0
    assert "DISAGREEMENT" not in capsys.readouterr().out
    monkeypatch.setattr(bench_search, "baseline_solve", lambda *a, **k: [None])
    assert bench_search.main(argv) == 1
    out, err = capsys.readouterr()
    assert "  DISAGREEMENT with the baseline on " in out
    assert err == "1 answer(s) disagree (DISAGREEMENT / DIFFERENT ANSWERS above)\n"


# ---- bench_walls.py ----------------------------------------------------------------------

NODE = "bad --node {!r} (PLAYERS:NUMBER:PLAYS:R, e.g. '4:0:1b 2r:-4'): "
WALLS_ERRORS = [
    (["--cap", "-5"], "argument --cap: must be a number of nodes, 1 or more, not -5"),
    (["--cap", "0"], "argument --cap: must be a number of nodes, 1 or more, not 0"),
    (["--cap", "nan"], "argument --cap: must be a number of nodes, 1 or more, not nan"),
    (["--node", "4:0:1b:-4", "--walls", "p0-1b"],
     "argument --node: not with --walls (--node searches instead of the walls)"),
    (["--walls", "p9"], "unknown wall(s): p9"),
    (["--node", "4:30:1b:-4"],
     NODE.format("4:30:1b:-4") + "the position number must be 0 to 19, not '30'"),
    (["--node", "4:-1:1b:-4"],
     NODE.format("4:-1:1b:-4") + "the position number must be 0 to 19, not '-1'"),
    (["--node", "4:0:1b"], NODE.format("4:0:1b") + "3 parts, not 4"),
    (["--node", "6:0:1b:-4"],
     NODE.format("6:0:1b:-4") + "the player count must be 2 to 5, not '6'"),
    (["--node", "4:0:5b:-4"],
     NODE.format("4:0:5b:-4") + "play '5b': 5b is illegal for seat 0: card not in hand"),
    (["--node", "4:0:1b:-9"], NODE.format("4:0:1b:-9")
     + "the threshold r must be -8 to 8 (the tricks left after the plays), not '-9'"),
]


@pytest.mark.parametrize(("argv", "message"), WALLS_ERRORS,
                         ids=[" ".join(a) for a, _ in WALLS_ERRORS])
def test_bench_walls_bad_arguments(argv: list[str], message: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert error_of(load("bench_walls").main, argv, capsys) == message


def test_bench_walls_node(capsys: pytest.CaptureFixture[str]) -> None:
    """A node of one's own: the example of --help, listed (no search)."""
    assert load("bench_walls").main(["--node", "4:0:1b 2r:-4", "--list"]) == 0
    assert capsys.readouterr().out == "node       4p #0 1b 2r    u >= -4: \n"


def test_bench_walls_warms_up_before_timing(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The core is loaded, and a short capped search run, before the first wall is timed
    (the first wall's seconds included the loading)."""
    bench_walls = load("bench_walls")
    calls: list[object] = []
    monkeypatch.setattr(bench_walls, "warm_up", lambda: calls.append("warm_up"))

    def search(pos: object, hero: int, r: int, cap: int) -> tuple[bool, int, float]:
        calls.append(cap)
        return False, 7, 1.0

    monkeypatch.setattr(bench_walls, "_search", search)
    assert bench_walls.main(["--walls", "p0-1b", "--cap", "5e6"]) == 0
    assert calls == ["warm_up", 100_000, 5_000_000]
    assert capsys.readouterr().out.splitlines()[1:] == [
        "p0-1b      1b        -4 False              7     1.0  0.00"]


def test_bench_walls_help_is_whole() -> None:
    """--help prints the whole description (it stopped mid-sentence, at the first line's
    end), examples included."""
    done = run("bench_walls.py", "--help")
    assert done.returncode == 0
    assert "first lead over its 60 s goal" in done.stdout.replace("\n", " ")
    assert 'python bench/bench_walls.py --split --node "4:0:1b 2r:-4" --cap 10e6' in done.stdout


# ---- every script ------------------------------------------------------------------------

SCRIPTS = sorted(BENCH.glob("*.py"))
ROOT_FIRST = "sys.path.insert(0, str(Path(__file__).resolve().parents[1]))"


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_bench_scripts_measure_their_checkout(script: Path) -> None:
    """Each script puts its checkout first on sys.path before it imports the package, so
    that run from a clone it measures the clone's code, not an installed copy (three did
    not)."""
    lines = script.read_text(encoding="utf-8").splitlines()
    first_import = next(i for i, line in enumerate(lines)
                        if line.startswith(("from catbox_solver", "import catbox_solver")))
    assert ROOT_FIRST in lines[:first_import]


def test_bench_script_imports_its_checkout() -> None:
    """As run (no PYTHONPATH, from elsewhere): the package comes from this checkout."""
    code = ("import runpy, sys; runpy.run_path(sys.argv[1], run_name='probe'); "
            "print(sys.modules['catbox_solver'].__file__)")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", code, str(BENCH / "bench_rules.py")],
                          env=env, cwd="/", capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(ROOT / "catbox_solver" / "__init__.py")


# ---- bench_rules.py, bench_puzzles.py ----------------------------------------------------

OTHER_ERRORS = [
    ("bench_rules", ["--seconds", "0"],
     "argument --seconds: must be a number of seconds more than 0, not 0"),
    ("bench_rules", ["--seconds", "-1"],
     "argument --seconds: must be a number of seconds more than 0, not -1"),
    ("bench_puzzles", ["--count", "-2"], "argument --count: must be at least 1, not -2"),
    ("bench_puzzles", ["--count", "0"], "argument --count: must be at least 1, not 0"),
    ("bench_puzzles", ["--budget", "-1"],
     "argument --budget: must be a number of seconds more than 0, not -1"),
    ("bench_puzzles", ["--budget", "nan"],
     "argument --budget: must be a number of seconds more than 0, not nan"),
    ("bench_puzzles", ["--themes", "red"], "unknown theme 'red'; one of avoid-paradox, "
     "force-paradox, red-lead, red-lead-exception, exact-bid, empty-square"),
]


@pytest.mark.parametrize(("script", "argv", "message"), OTHER_ERRORS,
                         ids=[f"{s} {' '.join(a)}" for s, a, _ in OTHER_ERRORS])
def test_bench_rules_and_puzzles_bad_arguments(
    script: str, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert error_of(load(script).main, argv, capsys) == message


def test_bench_puzzles_warms_up_before_timing(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """The compiled core is loaded before the first row is timed (it counted in it)."""
    bench_puzzles = load("bench_puzzles")
    calls: list[str] = []
    monkeypatch.setattr(bench_puzzles, "warm_up", lambda: calls.append("warm_up"))

    def rate(*args: object) -> tuple[int, float]:
        calls.append("rate")
        return (1, 1.0)

    monkeypatch.setattr(bench_puzzles, "rate", rate)
    assert bench_puzzles.main(["--quick", "--themes", "exact-bid"]) == 0
    assert calls == ["warm_up", "rate"]
    assert "exact-bid          slowest player count:     60.0 puzzles/min (ok, goal 10)" in (
        capsys.readouterr().out)


def test_baseline_alphabeta_run_directly_says_what_it_is() -> None:
    """The baseline is a module; run as a script it printed nothing and exited 0."""
    done = run("baseline_alphabeta.py", "--help")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (
        "baseline_alphabeta.py: the plain memoised alpha-beta that bench/bench_search.py "
        "imports (baseline_solve) for its speed-up; not a benchmark itself: run python "
        "bench/bench_search.py\n")
    done = run("baseline_alphabeta.py", "--count", "3")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("baseline_alphabeta.py: error: unrecognized arguments: --count 3 "
                           "(the baseline imported by bench/bench_search.py takes none)\n")


# ---- bench_odds.py -----------------------------------------------------------------------

ODDS_ERRORS = [
    (["--players", "6"], "argument --players: '6' is not a player count (2 to 5)"),
    (["--depths", "9", "--players", "4"],
     "argument --depths: 9 tricks left is more than the 8 tricks of a 4-player round"),
    (["--questions", "table"], "argument --questions: 'table' is not one of paradox, tricks"),
    (["--count", "0"], "argument --count: must be at least 1, not 0"),
    (["--samples", "-3"], "argument --samples: must be at least 1, not -3"),
    (["--max-seconds", "nan"],
     "argument --max-seconds: must be a number of seconds, 0 or more, not nan"),
    (["--jobs", "-1"], "argument --jobs: must be 0 to 64, not -1"),
    (["--jobs", "65"], "argument --jobs: must be 0 to 64, not 65"),
]


@pytest.mark.parametrize(("argv", "message"), ODDS_ERRORS)
def test_bench_odds_bad_arguments(argv: list[str], message: str,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert error_of(load("bench_odds").parse_args, argv, capsys) == message


def test_bench_odds_good_arguments() -> None:
    args = load("bench_odds").parse_args(["--players", "4,5", "--depths", "4,first",
                                          "--questions", "tricks"])
    first = load("bench_search").FIRST_LEAD
    assert (args.player_counts, args.depth_list, args.question_list) == (
        [4, 5], {4: [4, first], 5: [4, first]}, ["tricks"])
    assert load("bench_odds").parse_args([]).questions is None  # (no tricks at first lead)
    assert (load("bench_odds").parse_args([]).jobs,
            load("bench_odds").parse_args(["--jobs", "0"]).jobs) == (1, 0)


# ---- the command lines shown in the docs -------------------------------------------------

def shown_commands() -> list[tuple[str, str, list[str]]]:
    """(where, script, arguments) of every bench_search.py and bench_walls.py command line
    in the README, docs/ and the two scripts' own docstrings, and of the docs' arguments
    of bench_search.py shown alone (from --players on)."""
    out = []
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for path in docs:
        for m in re.finditer(r"`([^`]*)`", path.read_text(encoding="utf-8")):
            found = re.match(r"(?:python )?(?:bench/)?(bench_search|bench_walls)\.py(.*)",
                             m.group(1), re.S)
            if found:
                out.append((path.name, found.group(1), shlex.split(found.group(2))))
            elif m.group(1).startswith("--players ") and "|" not in m.group(1):
                # the docs' shorter forms of bench_search.py's commands ("4|5": either)
                out.append((path.name, "bench_search", shlex.split(m.group(1))))
    for script in ("bench_search", "bench_walls"):
        doc = (BENCH / f"{script}.py").read_text(encoding="utf-8")
        for line in doc.splitlines():
            found = re.match(rf"\s+python bench/{script}\.py(.*?)(#.*)?$", line)
            if found:
                out.append((f"{script}.py", script, shlex.split(found.group(1))))
    return out


SHOWN_COMMANDS = shown_commands()


def test_the_shown_commands_are_found() -> None:
    assert len(SHOWN_COMMANDS) >= 40


@pytest.mark.parametrize(("where", "script", "argv"), SHOWN_COMMANDS,
                         ids=[f"{w}: {s} {' '.join(a)}" for w, s, a in SHOWN_COMMANDS])
def test_the_shown_commands_parse(where: str, script: str, argv: list[str],
                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Every command line shown takes arguments the script accepts today (parsed and
    checked only: bench_walls lists instead of searching)."""
    if script == "bench_search":
        load(script).parse_args(argv)
    else:
        assert load(script).main([*argv, "--list"]) == 0
