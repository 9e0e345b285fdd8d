"""The answer check of ``solve_puzzle``: a stored answer is right only when it is exactly
the solver's. For every answer kind of every question a stored answer with a right play
left out, a wrong play added, a wrong play instead, a wrong value or the wrong yes/no is
refused (a puzzle with a wrong answer would otherwise pass CI)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from catbox_solver.cli import main
from catbox_solver.formats.notation import position_from_notation
from catbox_solver.model.position import Play
from catbox_solver.puzzles import (
    Puzzle,
    load_puzzles,
    parse_condition,
    puzzle_to_toml,
    replay_line,
    solve_puzzle,
)

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
BY_ID = {p.id: p for p in load_puzzles(PUZZLES)}

# a 3-player position where two plays (5y, 6y) leave the next player without a legal play
# and one (6r) does not
TWO_FORCE = (
    "3p official | R:11.01. B:..2.0. Y:20.1.. G:.2.2.. | 256666 11155 33344 | RY R BYG | "
    "lead 1: 2r 4g | won 1 1 1 | bid 4 4 3 | left 5"
)


def P(*texts: str) -> tuple[Play, ...]:
    return tuple(Play.parse(t) for t in texts)


def asked(pid: str, question: str, value: int | None = None) -> Puzzle:
    """A curated puzzle's position asked another question (its answer set below)."""
    return replace(BY_ID[pid], question=question, value=value, answer=())


# (question, the puzzle, its right plays, its wrong plays, its value); each has two right
# plays and at least one wrong one, so that a stored answer can leave out one of two
CASES = {
    "safe": (asked("best-tricks-3p-a0464909", "safe"), P("3r", "6r")),
    "best-tricks": (asked("force-paradox-2p-54446a1a", "best-tricks", 4), P("1r", "3r")),
    "best-score": (asked("force-paradox-3p-66132362", "best-score", 5), P("3r", "6y")),
    "force-paradox": (
        Puzzle(id="two-force", title="t", players=3, ruleset="official",
               position=position_from_notation(TWO_FORCE), question="force-paradox",
               hero=None, answer=()),
        P("5y", "6y"),
    ),
}


def _names(plays: tuple[Play, ...]) -> str:
    return ", ".join(p.text for p in sorted(plays)) or "none"


@pytest.mark.parametrize("question", list(CASES))
def test_the_right_answer_is_accepted(question: str) -> None:
    pz, right = CASES[question]
    sol = solve_puzzle(replace(pz, answer=right))
    assert (sol.ok, sol.problems, sol.correct_plays) == (True, (), right)
    assert len(sol.verdicts) > len(right)  # (some play is wrong)


def _wrong_answers(question: str) -> list[tuple[str, tuple[Play, ...]]]:
    pz, right = CASES[question]
    wrong = sorted(p for p in pz.position.legal_plays() if p not in right)
    return [
        ("a right play left out", right[:1]),
        ("the other right play left out", right[1:]),
        ("every right play left out", ()),
        ("a wrong play added", (*right, wrong[0])),
        ("a wrong play instead of a right one", (right[0], wrong[0])),
        ("only wrong plays", tuple(wrong)),
    ]


@pytest.mark.parametrize(
    ("question", "what", "stored"),
    [(q, what, stored) for q in CASES for what, stored in _wrong_answers(q)],
    ids=[f"{q}: {what}" for q in CASES for what, _ in _wrong_answers(q)],
)
def test_a_wrong_set_of_plays_is_refused(
    question: str, what: str, stored: tuple[Play, ...]
) -> None:
    pz, right = CASES[question]
    sol = solve_puzzle(replace(pz, answer=tuple(sorted(stored))))
    assert not sol.ok, what
    assert sol.problems[0] == f"stored answer {_names(stored)}, solver says {_names(right)}"
    assert sol.correct_plays == right


@pytest.mark.parametrize("question", ["best-tricks", "best-score"])
@pytest.mark.parametrize("off", [-1, 1])
def test_a_wrong_value_is_refused(question: str, off: int) -> None:
    pz, right = CASES[question]
    assert pz.value is not None
    sol = solve_puzzle(replace(pz, answer=right, value=pz.value + off))
    assert (sol.ok, sol.problems) == (
        False, (f"stored value {pz.value + off}, solver says {pz.value}",),
    )
    # a wrong value beside wrong plays: both said
    sol = solve_puzzle(replace(pz, answer=right[:1], value=pz.value + off))
    assert sol.problems == (
        f"stored answer {right[0].text}, solver says {_names(right)}",
        f"stored value {pz.value + off}, solver says {pz.value}",
    )


@pytest.mark.parametrize(
    ("pid", "truth"), [("empty-square-yellow-2", True), ("empty-square-green-5", False)]
)
def test_a_wrong_yes_or_no_is_refused(pid: str, truth: bool) -> None:
    pz = BY_ID[pid]
    assert pz.answer is truth and solve_puzzle(pz).ok
    sol = solve_puzzle(replace(pz, answer=not truth))
    said = {True: "yes", False: "no"}
    assert (sol.ok, sol.problems) == (
        False, (f"stored answer {said[not truth]}, solver says {said[truth]}",),
    )


@pytest.mark.parametrize("pz", [p for p in BY_ID.values() if p.question != "exists"],
                         ids=lambda p: p.id)
def test_no_curated_answer_passes_with_its_right_play_left_out(pz: Puzzle) -> None:
    """Every curated play puzzle with its one right play left out (the stored answer
    that CI would have passed) is refused."""
    sol = solve_puzzle(replace(pz, answer=()))
    assert not sol.ok
    assert sol.problems[0] == f"stored answer none, solver says {_names(pz.plays)}"


def test_puzzle_solve_exits_1_on_a_left_out_play(tmp_path: Path) -> None:
    pz, right = CASES["safe"]
    f = tmp_path / "short.toml"
    f.write_text(puzzle_to_toml(replace(pz, answer=right[:1])), encoding="utf-8")
    res = CliRunner().invoke(main, ["puzzle", "solve", str(f), "--no-board"])
    assert res.exit_code == 1
    assert (f"Stored answer: WRONG: stored answer {right[0].text}, solver says "
            f"{_names(right)} (") in res.stdout


_SOLVED = {pz.id: solve_puzzle(pz) for pz in BY_ID.values()}


@pytest.mark.parametrize("pid", sorted(BY_ID), ids=str)
def test_every_line_of_every_answer_replays_and_shows_its_verdict(pid: str) -> None:
    """The lines a solution shows (the right plays' lines of best play, the wrong plays'
    refutations, an exists witness) replay through the rules from the puzzle's position
    to the end they claim: a wrong line would teach a wrong answer."""
    from catbox_solver.cpsat.exists import replay as replay_witness

    pz, sol = BY_ID[pid], _SOLVED[pid]
    pos = pz.position
    if pz.question == "exists":
        conds = [parse_condition(c, pz.players, pos.rules.values) for c in pz.conditions]
        if sol.answer:
            assert sol.witness is not None
            replay_witness(pos, sol.witness, conds)  # (raises unless it meets them all)
        else:
            assert sol.witness is None and sol.clash
        return
    assert {v.play for v in sol.verdicts} == set(pos.legal_plays())
    for v in sol.verdicts:
        assert v.line[0] == v.play
        final = replay_line(pos, v.line)
        after = pos.after(v.play)
        if pz.question == "force-paradox":
            assert (after.is_paradox and after.to_move != pos.to_move) == v.correct
            if v.correct:
                assert v.line == (v.play,) and final.is_paradox
        elif pz.question == "safe":
            assert final.is_over and (final.paradox_by == pz.seat) != v.correct
        else:
            assert final.is_over
            what = "tricks" if pz.question == "best-tricks" else "score"
            got = final.trick_points(pz.seat) if what == "tricks" else final.scores()[pz.seat]
            assert got == v.result, (v.play.text, got, v.result)
