"""Rule readings side by side (catbox rules list / diff, simulate --compare) and the
distinguishing positions documented in docs/interpretations.md."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import cast

import pytest
from click.testing import CliRunner

from catbox_solver.cli import main
from catbox_solver.dd.solve import value_only
from catbox_solver.errors import RulesetError
from catbox_solver.formats.notation import position_from_notation
from catbox_solver.model.position import Play
from catbox_solver.model.rules import PRESETS, SWITCHES, Ruleset
from catbox_solver.questions import Question
from catbox_solver.readings import (
    Difference,
    NoDifference,
    diff_rulesets,
    same_state,
    start_of,
)
from catbox_solver.render.svg import position_svg

DOC = Path(__file__).resolve().parents[1] / "docs" / "interpretations.md"


def doc_cases() -> list[dict[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    cases = []
    for block in re.findall(r"<!-- case\n(.*?)\n-->", text, re.S):
        cases.append(dict(line.split(": ", 1) for line in block.splitlines()))
    return cases


def plays_text(plays: tuple[Play, ...]) -> str:
    return " ".join(p.text for p in plays) or "none (paradox)"


def answer_text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def test_doc_has_a_case_for_every_switch() -> None:
    switches = set()
    for case in doc_cases():
        (switch, _), = PRESETS[case["b"]].items()
        switches.add(switch)
    assert switches == set(SWITCHES)


@pytest.mark.parametrize("case", doc_cases(), ids=lambda c: c["b"])
def test_documented_position_still_distinguishes(case: dict[str, str]) -> None:
    pos_a = position_from_notation(case["position"])
    assert pos_a.rules.name == case["a"]
    b = Ruleset.from_name(case["b"], pos_a.players)
    if "position_b" in case:  # the readings differ in whether 2 players predict
        pos_b = position_from_notation(case["position_b"])
        assert pos_b.rules == b and same_state(pos_a, pos_b)
    else:
        pos_b = pos_a.with_rules(b)
    line = [] if case["line"] == "-" else case["line"].split()
    for text in line:
        pos_a, pos_b = pos_a.play(text), pos_b.play(text)
    if case["question"] == "legal":
        got_a, got_b = plays_text(pos_a.legal_plays()), plays_text(pos_b.legal_plays())
    else:
        hero = int(case["hero"])
        question = cast(Question, case["question"])  # the doc's case names a search question
        got_a = answer_text(value_only(pos_a, hero, question))
        got_b = answer_text(value_only(pos_b, hero, question))
    assert (got_a, got_b) == (case["answer_a"], case["answer_b"])
    assert got_a != got_b


@pytest.mark.parametrize("case", doc_cases(), ids=lambda c: c["b"])
def test_documented_picture_is_current(case: dict[str, str]) -> None:
    pos = position_from_notation(case["position"])
    hero = None if case["hero"] == "-" else int(case["hero"])
    picture = DOC.parent / "img" / f"interpretation-{case['b']}.svg"
    assert picture.read_text(encoding="utf-8") == position_svg(pos, hero=hero)
    assert f"](img/interpretation-{case['b']}.svg)" in DOC.read_text(encoding="utf-8")


def check_difference(diff: Difference, a: Ruleset, b: Ruleset) -> None:
    """A reported legal difference replays: identical start, line legal under both, and the
    legal plays at its end differ exactly as reported."""
    pa = diff.position
    pa.validate()
    pb = pa.with_rules(b)
    assert pa.rules == a and same_state(pa, pb)
    for p in diff.line:
        pa, pb = pa.play(p), pb.play(p)
    assert pa.legal_plays() == diff.answer_a and pb.legal_plays() == diff.answer_b
    assert set(diff.answer_a) != set(diff.answer_b)


def test_must_follow_difference_is_the_last_trick_follower() -> None:
    a, b = Ruleset(players=4), Ruleset(players=4, following="must-follow")
    diff = diff_rulesets(a, b, "legal", deals=5)
    assert isinstance(diff, Difference)
    check_difference(diff, a, b)
    # the smallest possible: the last trick, a follower with two cards, one of the led color
    assert diff.size[1] == 1 and diff.line == ()
    led = diff.position.led_color
    assert isinstance(diff.answer_b, tuple)  # the legal plays
    assert {p.color for p in diff.answer_b} == {led}


def test_color_loss_difference_needs_a_line() -> None:
    a, b = Ruleset(players=2), Ruleset(players=2, color_loss="declared")
    diff = diff_rulesets(a, b, "legal", deals=30)
    assert isinstance(diff, Difference)
    check_difference(diff, a, b)
    # the readings part only after an off-color follow, on that player's next turn
    assert len(diff.line) >= 1
    start = diff.position
    assert start.trick and diff.line[0].color != start.led_color


def test_a_play_switch_with_no_difference_here_still_searches() -> None:
    """The per-card red lead differs from the exception only where a leader holds a card
    that has a non-red cell and one that has none: not among these small positions, which
    the search checks all the same (only score-only switches are answered unsearched)."""
    a, b = Ruleset(players=3), Ruleset(players=3, red_lead="per-card")
    result = diff_rulesets(a, b, "legal", deals=3, max_tricks_left=2)
    assert result == NoDifference("legal", (9, 2), 14)


def test_a_diff_out_of_time_is_not_a_no() -> None:
    """A search whose deadline came before every deal was tried said "no difference"
    (exit code 0, "differ": false) as if it had covered its bounds."""
    a, b = Ruleset(players=3), Ruleset(players=3, color_loss="declared")
    late = diff_rulesets(a, b, "legal", deals=3, deadline=time.monotonic() - 1.0)
    assert late == NoDifference("legal", (0, 0), 0, out_of_time=True)
    done = diff_rulesets(a, b, "legal", deals=3, max_tricks_left=1)
    assert isinstance(done, NoDifference) and done.out_of_time is False
    runner = CliRunner()
    args = ["rules", "diff", "official", "czech-color-loss", "-n", "3", "--timeout", "0"]
    result = runner.invoke(main, [*args, "--json"])
    assert result.exit_code == 3  # (unknown: as exists, prove and solve; it was 0)
    assert json.loads(result.stdout) == {
        "differ": None, "question": "legal", "bound": {"cards": 0, "tricks_left": 0},
        "positions_checked": 0, "reason": "out of time (--timeout)",
    }
    result = runner.invoke(main, [*args, "--quiet"])
    assert result.exit_code == 3
    assert result.stdout == (
        "unknown: out of time (--timeout) with no difference found up to size 0 cards / 0 "
        "trick(s) left (0 positions checked, not every one of the 30 deals per level up to "
        "2 tricks left)\n"
    )


def test_one_ruleset_under_two_names_is_answered_at_once() -> None:
    """Two names for one ruleset: no difference at any size, without a search (it
    searched for seconds, then said "no difference up to" a bound)."""
    a = Ruleset(players=3)
    same = diff_rulesets(a, Ruleset.from_name("official,red_lead=exception", 3), "paradox")
    assert same == NoDifference("paradox", (27, 8), 0, same=True)
    runner = CliRunner()
    args = ["rules", "diff", "official", "Official,Red-Lead=exception", "-p", "3"]
    result = runner.invoke(main, args)
    assert (result.exit_code, result.stdout) == (0, (
        "no difference: official and official are the same ruleset for 3 players (nothing "
        "to search)\n"
    ))
    assert json.loads(runner.invoke(main, [*args, "--json"]).stdout) == {
        "differ": False, "question": "legal", "bound": {"cards": 27, "tricks_left": 8},
        "positions_checked": 0, "same": True,
    }


def test_readings_apart_only_in_the_score_are_answered_at_once() -> None:
    """Two readings that differ only in switches of SCORE_ONLY (and the row order) cannot
    differ on legal plays, tricks or paradoxes (test_rules_properties replays
    rounds to check it): answered at once, naming those switches (diagonal-bonus against
    official on tricks searched for 14 s to say "no difference up to" a bound). The score
    question still searches, and finds the difference; a play switch as well still
    searches."""
    a = Ruleset(players=3)
    b = Ruleset(players=3, adjacency="diagonal", row_order="GYBR")
    for question in ("legal", "paradox", "tricks"):
        assert diff_rulesets(a, b, question) == NoDifference(
            question, (27, 8), 0, score_only=("adjacency", "row_order"))
    found = diff_rulesets(Ruleset(players=2), Ruleset(players=2, adjacency="diagonal"),
                          "score", deals=10, max_tricks_left=2)
    assert isinstance(found, Difference) and found.answer_a != found.answer_b
    both = b.with_switches(following="must-follow")
    other = diff_rulesets(a, both, "legal", deals=2, max_tricks_left=1)
    assert isinstance(other, Difference) or (
        not other.score_only and not other.same and other.positions_checked)
    runner = CliRunner()
    args = ["rules", "diff", "official", "diagonal-bonus,interrupted_trick=removed", "-p", "4",
            "--question", "tricks"]
    result = runner.invoke(main, args)
    assert (result.exit_code, result.stdout) == (0, (
        "no difference: official and official,adjacency=diagonal,interrupted_trick=removed "
        "differ only in interrupted_trick and adjacency, which never change a legal play, "
        "a trick or a paradox, only the scoring at the end of the round (nothing to search; "
        "ask --question score)\n"
    ))
    assert json.loads(runner.invoke(main, [*args, "--json"]).stdout) == {
        "differ": False, "question": "tricks", "bound": {"cards": 36, "tricks_left": 8},
        "positions_checked": 0, "score_only": ["interrupted_trick", "adjacency"],
    }


def test_a_switch_that_does_nothing_at_this_player_count_is_the_same_ruleset() -> None:
    """The 2-player bonus with 3-5 players does nothing: two readings apart only there are
    one game, on every question (it was answered as a score-only difference, with "ask
    --question score", which then searched; review). With 2 players it is a difference of
    the score alone, named in the singular."""
    for n in (3, 4, 5):
        a, b = Ruleset(players=n), Ruleset(players=n, two_player_bonus="prediction")
        assert a.in_effect() == b.in_effect() == a != b
        for question in ("legal", "score"):
            diff = diff_rulesets(a, b, question)
            assert isinstance(diff, NoDifference) and diff.same, (n, question)
    two = Ruleset(players=2, two_player_bonus="prediction")
    assert two.in_effect() == two != Ruleset(players=2).in_effect()
    runner = CliRunner()
    result = runner.invoke(main, ["rules", "diff", "official", "two-player-prediction", "-p",
                                  "2", "--question", "paradox"])
    assert (result.exit_code, result.stdout) == (0, (
        "no difference: official and two-player-prediction differ only in two_player_bonus, "
        "which never changes a legal play, a trick or a paradox, only the scoring at the end "
        "of the round (nothing to search; ask --question score)\n"))


def test_diff_needs_same_player_count_and_known_question() -> None:
    with pytest.raises(RulesetError, match="3 and 4 players"):
        diff_rulesets(Ruleset(players=3), Ruleset(players=4))
    with pytest.raises(RulesetError, match="unknown question"):
        diff_rulesets(Ruleset(players=3), Ruleset(players=3), "bogus")


def test_rules_list_json_shape() -> None:
    result = CliRunner().invoke(main, ["rules", "list", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    names = [s["name"] for s in data["switches"]]
    assert names == [*SWITCHES, "row_order"]
    for sw in data["switches"][:-1]:
        assert sw["values"] == list(SWITCHES[sw["name"]]) and sw["default"] == sw["values"][0]
        assert set(sw["texts"]) == set(sw["values"])
    assert [p["name"] for p in data["presets"]] == list(PRESETS)
    must = next(p for p in data["presets"] if p["name"] == "must-follow")
    assert must["switches"]["following"] == "must-follow"
    assert must["switches"]["red_lead"] == "exception"


def test_rules_list_readable_names_sources() -> None:
    result = CliRunner().invoke(main, ["rules", "list"])
    assert result.exit_code == 0
    assert "CS rulebook quick reference" in result.output
    lines = result.output.splitlines()
    # the per-card red lead is credited to the texts that allow it, not the EN rulebook
    per_card = [ln.split(":")[0].strip() for ln in lines if ln.strip().startswith("per-card ")]
    assert per_card == ["per-card    CS rulebook", "per-card    CS rulebook quick reference",
                        "per-card    DE quick reference (KSR)", "per-card    the reading"]
    # a quote is in quotation marks, a description of a reading no text gives is not
    assert ('      must-follow reviews and table talk: must follow the led color if able, as '
            'in most trick-taking games (no rulebook says so)') in lines
    assert ('      exception   CS rulebook: "Začínající hráč může červenou barvu ohlásit i v '
            'případě, že nemůže ohlásit žádnou jinou barvu."') in lines
    data = json.loads(CliRunner().invoke(main, ["rules", "list", "--json"]).output)
    (red,) = [sw for sw in data["switches"] if sw["name"] == "red_lead"]
    assert [q["quote"] for q in red["texts"]["per-card"]] == [True, True, True, False]
    assert "czech-color-loss: color_loss=declared" in result.output


def test_rules_diff_shows_the_position_under_b_when_it_differs() -> None:
    """With two-player-prediction, reading B's position has the predictions it was asked
    with (A's notation has none): shown in the text and the JSON, and it gives B's answer
    (before, the answer could not be reproduced from what was printed)."""
    args = ["rules", "diff", "official", "two-player-prediction", "-n", "2", "--question",
            "score"]
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    under_b = position_from_notation(data["b"]["notation"])
    assert under_b.predictions is not None and None not in under_b.predictions
    assert value_only(under_b, data["hero"], "score") == data["b"]["answer"]
    assert "position" not in data["a"]
    text = CliRunner().invoke(main, args).output
    assert f"under two-player-prediction the position is: {data['b']['notation']}" in text


def test_rules_diff_cli_json_and_errors() -> None:
    runner = CliRunner()
    result = runner.invoke(
        main, ["rules", "diff", "official", "must-follow", "-n", "4", "--deals", "5", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["differ"] is True and data["question"] == "legal"
    pos = position_from_notation(data["notation"])
    assert {(p["value"], p["color"]) for p in data["a"]["answer"]} == {
        (p.value, "RBYG"[p.color]) for p in pos.legal_plays()
    }
    bad = runner.invoke(main, ["rules", "diff", "official", "nonsense"])
    assert bad.exit_code == 2
    assert bad.output.strip().splitlines() == [
        "error: unknown ruleset 'nonsense' (presets: " + ", ".join(PRESETS) + ")"
    ]
    none = runner.invoke(
        main,
        ["rules", "diff", "official", "per-card-red-lead", "-n", "3", "--deals", "2", "--json"],
    )
    assert none.exit_code == 0
    assert json.loads(none.output) == {
        "differ": False,
        "question": "legal",
        "bound": {"cards": 9, "tricks_left": 2},
        "positions_checked": 14,  # (the seeded search is the same at every run)
    }


def test_simulate_compare_same_ruleset_has_no_difference() -> None:
    result = CliRunner().invoke(
        main, ["simulate", "-p", "3", "-g", "5", "--compare", "official", "--json", "--quiet"]
    )
    assert result.exit_code == 0, result.output
    diff = json.loads(result.output)["differences"]
    assert diff["rounds"] == 15
    assert [diff[k] for k in ("plays_differ", "paradox_differs", "scores_differ")] == [0, 0, 0]


def test_simulate_compare_must_follow_differs_somewhere() -> None:
    result = CliRunner().invoke(
        main, ["simulate", "-p", "4", "-g", "5", "--compare", "must-follow", "--json", "-q"]
    )
    data = json.loads(result.output)
    assert data["a"]["ruleset"] == "official" and data["b"]["ruleset"] == "must-follow"
    diff = data["differences"]
    assert diff["rounds"] == 20
    # the same seeded bots play differently as soon as one reading forbids an off-color
    # play (the counts are the seeded games', the same at every run, with every round's
    # bots seeded anew)
    assert [diff[k] for k in ("plays_differ", "paradox_occurrence_differs", "paradox_differs",
                              "tricks_differ", "scores_differ")] == [20, 4, 20, 20, 20]


def test_same_state_ignores_only_the_ruleset() -> None:
    pos = start_of(Ruleset(players=3), 11)
    other = pos.with_rules(Ruleset(players=3, following="must-follow"))
    assert same_state(pos, other)
    assert not same_state(pos, pos.after(pos.legal_plays()[0]).with_rules(other.rules))


def test_rules_diff_says_what_each_answer_means() -> None:
    """The paradox answer read "paradox for seat 1: True" (as if seat 1 would cause one):
    it says whether the seat can avoid one; and the legal plays after a line are said to
    be those after it, not those of the board drawn (which is before the line)."""
    result = CliRunner().invoke(main, ["rules", "diff", "official", "quickref-red-lead",
                                       "-p", "2", "--question", "paradox", "--quiet"])
    assert result.exit_code == 0
    assert result.output.endswith(
        "to move: seat 1\n"
        "official: seat 1 can avoid a paradox: yes\n"
        "quickref-red-lead: seat 1 can avoid a paradox: no\n"
    )
    result = CliRunner().invoke(main, ["rules", "diff", "official", "czech-color-loss",
                                       "-p", "3", "--quiet"])
    assert result.exit_code == 0
    assert result.output.endswith(
        "to move: seat 0\n"
        "line (legal under both): 2r 1r\n"
        "the legal plays below are those after this line (seat 0 to move), not those of "
        "the board drawn above\n"
        "official: legal plays of seat 0: 3r\n"
        "czech-color-loss: legal plays of seat 0: none (paradox)\n"
    )


def test_rules_diff_words_for_tricks_and_score() -> None:
    from catbox_solver.cli.rules_cmds import _answer_text

    assert _answer_text("tricks", 3, 2) == "seat 2 can make sure of 3 trick points"
    assert _answer_text("tricks", -1, 0) == "seat 0 can make sure of -1 trick point"
    assert _answer_text("score", 5, 1) == "seat 1 can make sure of a round score of 5"
    assert _answer_text("paradox", False, 1) == "seat 1 can avoid a paradox: no"
    assert _answer_text("legal", (), 3) == "legal plays of seat 3: none (paradox)"
