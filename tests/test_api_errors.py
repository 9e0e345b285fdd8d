"""Bad arguments to the library's entry points, found by probing its API:
each raises a CatboxError subclass naming what is wrong. Before, some answered silently
wrong (a NaN count "exists" without a search, a NaN timeout that never ends, 0 deals
"no difference"), and others failed deep inside."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from oracles.gen import paradox_free_line, start_position
from oracles.minimax_ref import minimax

from catbox_solver.cpsat import exists as ex
from catbox_solver.cpsat.exists import Questions, make_solver
from catbox_solver.cpsat.proofs import prove
from catbox_solver.dd import lines
from catbox_solver.dd.answer import OutOfTime
from catbox_solver.dd.search import Search
from catbox_solver.dd.solve import dd_table, solve, value_only
from catbox_solver.errors import CatboxError, IllegalPlayError, PositionError
from catbox_solver.formats.jsonform import position_from_dict, position_from_json, position_to_json
from catbox_solver.formats.notation import (
    parse_play,
    plays_from_text,
    position_from_text,
    position_to_notation,
)
from catbox_solver.formats.record import game_record, round_record, write_record
from catbox_solver.games.bots import random_bots
from catbox_solver.games.game import (
    game_winners,
    hands_after_discards,
    play_game,
    play_round,
    setup_round,
)
from catbox_solver.games.referee import verify
from catbox_solver.model.deal import deal, deck, first_lead
from catbox_solver.model.position import Play, Position
from catbox_solver.model.rules import Ruleset
from catbox_solver.puzzles import (
    condition_text,
    generate,
    load_puzzle,
    load_puzzles,
    parse_condition,
    puzzle_from_dict,
    puzzle_to_toml,
    rate_difficulty,
    replay_line,
    solve_puzzle,
    toml_string,
)
from catbox_solver.readings import diff_rulesets
from catbox_solver.render.sheet import puzzle_html, sheet_html, write_sheet
from catbox_solver.render.svg import position_svg
from catbox_solver.render.text import render_text


def _late() -> Position:
    """A 4-player position with 2 tricks left, on a paradox-free line."""
    pos = start_position(Ruleset(players=4), 7, distinct_discards=True)
    line = paradox_free_line(pos)
    assert line is not None
    for play in line:
        if pos.tricks_left == 2 and not pos.trick:
            return pos
        pos = pos.after(play)
    raise AssertionError("no position with 2 tricks left")


POS = _late()
NAN = math.nan
# the colors of this 4-player position fit the official reading only (seat 0 declared 7y
# on a green lead and keeps yellow; with the Czech reading it would have lost yellow)
CZECH_CLASH = (
    "4p official | R:....3... B:2...10.. Y:......0. G:.....3.. | 1134558 22333458 12246788 "
    "3446777 | RBY RBYG RBYG RYG | lead 3: 6g 7y | won 0 0 0 1 | bid 3 1 1 3 | left 7"
)


def _hands() -> list[list[int]]:
    return [list(h) for h in start_position(Ruleset(players=4), 1).hands]


CASES: list[tuple[str, Callable[[], Any], str]] = [
    # an int beyond any float (OverflowError), True taken for a card 1
    ("solve timeout 10**400", lambda: solve(POS, 0, "tricks", timeout=10**400),
     "timeout must be a number of seconds, 0 or more, not " + str(10**400)),
    ("dd_table timeout 10**400", lambda: dd_table(POS, timeout=10**400),
     "timeout must be a number of seconds, 0 or more, not " + str(10**400)),
    ("a card True", lambda: Position.new_round(
        Ruleset(players=4), [[True, *h[1:]] for h in _hands()]),
     "seat 0 holds value True outside 1-8"),
    # (these raised raw TypeErrors)
    ("position_from_json None", lambda: position_from_json(None),  # type: ignore[arg-type]
     "position JSON is text, not NoneType"),
    ("position_from_dict int key", lambda: position_from_dict({1: 2}),
     "unknown field(s) 1"),
    ("exists conditions None", lambda: ex.exists(POS, None),  # type: ignore[arg-type]
     "conditions are a list of conditions, not None"),
    ("exists one condition", lambda: ex.exists(POS, ex.no_paradox()),  # type: ignore[arg-type]
     "conditions are a list of conditions, not no_paradox()"),  # (a condition's repr)
    ("svg hero True", lambda: position_svg(POS, hero=True),
     "hero seat True is not a seat of a 4-player position"),
    # a Search used on its own checks what it is asked: an unknown question
    # was answered as table, a NaN deadline never came, a line of no value asserted
    ("Search question", lambda: Search(POS, 0).exact("bogus"),
     "unknown question 'bogus' (one of paradox, tricks, score, table)"),
    ("Search at_least question", lambda: Search(POS, 0).at_least("bogus", 1),
     "unknown question 'bogus' (one of paradox, tricks, score, table)"),
    ("Search at_least k", lambda: Search(POS, 0).at_least("tricks", None),  # type: ignore[arg-type]
     "k must be a whole number, not None"),
    ("Search deadline nan", lambda: Search(POS, 0, deadline=NAN),
     "deadline must be a time.perf_counter() value, not nan"),
    ("Search deadline text", lambda: Search(POS, 0, deadline="x"),  # type: ignore[arg-type]
     "deadline must be a time.perf_counter() value, not 'x'"),
    # (both deadline checks raised OverflowError from math.isfinite: one is_deadline now)
    ("Search deadline 10**400", lambda: Search(POS, 0, deadline=10**400),
     "deadline must be a time.perf_counter() value, not " + str(10**400)),
    ("diff deadline 10**400", lambda: diff_rulesets(
        Ruleset(), Ruleset(red_lead="never"), deadline=10**400),
     "deadline must be a time.monotonic() value, not " + str(10**400)),
    ("Search line of None", lambda: Search(POS, 0).principal_variation("tricks", None),
     "a line follows a known value of tricks, not None"),
    ("Search table_within", lambda: Search(POS, 0).table_within("x"),  # type: ignore[arg-type]
     "cap must be a whole number, not 'x'"),
    ("Search sign_range", lambda: Search(POS, 0).sign_range("bogus", None),
     "unknown question 'bogus' (one of paradox, tricks, score, table)"),
    ("Search score unknown", lambda: Search(POS.with_predictions(None), 0).exact("score"),
     "the prediction of seat 0 is unknown: the score question needs it"),
    # silent wrong answers and hangs before
    ("exists count nan", lambda: ex.exists(POS, [ex.no_paradox()], count=NAN),  # type: ignore[arg-type]
     "count must be a whole number, not nan"),
    ("exists count 0", lambda: Questions(POS).ask([ex.no_paradox()], count=0),
     "count must be at least 1, not 0"),
    ("solve timeout nan", lambda: solve(POS, 0, "tricks", timeout=NAN),
     "timeout must be a number of seconds, 0 or more, not nan"),
    ("value_only timeout -1", lambda: value_only(POS, 0, "paradox", timeout=-1),
     "timeout must be a number of seconds, 0 or more, not -1"),
    ("dd_table timeout str", lambda: dd_table(POS, timeout="5"),  # type: ignore[arg-type]
     "timeout must be a number of seconds, 0 or more, not '5'"),
    ("diff node_budget nan", lambda: diff_rulesets(
        Ruleset(), Ruleset(red_lead="never"), node_budget=NAN),  # type: ignore[arg-type]
     "node_budget must be a whole number, not nan"),
    ("diff deals 0", lambda: diff_rulesets(Ruleset(), Ruleset(red_lead="never"), deals=0),
     "deals must be at least 1, not 0"),
    ("diff max_tricks_left 0", lambda: diff_rulesets(
        Ruleset(), Ruleset(red_lead="never"), max_tricks_left=0),
     "max_tricks_left must be at least 1 and at most 8, not 0"),
    ("diff max_tricks_left 10**9", lambda: diff_rulesets(  # (ran for ever)
        Ruleset(), Ruleset(red_lead="never"), max_tricks_left=10**9),
     "max_tricks_left must be at least 1 and at most 8, not 1000000000"),
    ("with_rules impossible", lambda: position_from_text(CZECH_CLASH).with_rules(
        Ruleset(players=4, color_loss="declared")),
     "seat 0 declared Y on a G lead but still has color Y"),
    ("new_round start 1.5", lambda: Position.new_round(Ruleset(players=4), _hands(), 1.5),  # type: ignore[arg-type]
     "leader: 1.5 is not a whole number"),
    ("predictions 2.0", lambda: POS.with_predictions((2.0, 1, 1, 1)),  # type: ignore[arg-type]
     "prediction of seat 0: 2.0 is not a whole number"),
    ("predictions True", lambda: POS.with_predictions((True, 1, 1, 1)),
     "prediction of seat 0: True is not a whole number"),
    ("tricks left 2.0", lambda: replace_field(POS, tricks_left=2.0),
     "tricks left: 2.0 is not a whole number"),
    ("tricks won float", lambda: replace_field(POS, tricks_won=(2, 0, 2, 2.0)),
     "tricks won of seat 3: 2.0 is not a whole number"),
    ("play a tuple", lambda: POS.play((3, 0)),  # type: ignore[arg-type]
     "a play is a Play or text like '7r', not (3, 0)"),
    ("bonus seat -1", lambda: POS.trick_points(-1), "seat -1 outside 0-3"),
    ("largest_group seat 4", lambda: POS.largest_group(4), "seat 4 outside 0-3"),
    ("empty (3, -1)", lambda: ex.empty((3, -1)),
     "empty: the cell's color (0-3: R, B, Y, G) must be at least 0 and at most 3, not -1"),
    ("paradox_by None", lambda: ex.paradox_by(None),  # type: ignore[arg-type]
     "paradox-by: a seat is needed"),
    ("paradox trick 1.5", lambda: ex.paradox(trick=1.5),  # type: ignore[arg-type]
     "paradox: trick must be a whole number, not 1.5"),
    ("tricks count nan", lambda: ex.tricks(0, NAN),  # type: ignore[arg-type]
     "tricks: count must be a whole number, not nan"),
    ("paradox with a seat", lambda: ex.Condition("paradox", seat=1),
     "paradox: takes no seat"),
    ("empty with a seat", lambda: ex.Condition("empty", seat=0, cell=(3, 1)),
     "empty: takes no seat"),
    ("condition kind", lambda: ex.Condition("tricks-exactly", seat=0, count=1),
     "no condition 'tricks-exactly'; one of no-paradox, paradox, paradox-by, tricks, "
     "tricks-at-least, tricks-at-most, bonus, bonus-at-least, bonus-at-most, score, "
     "score-at-least, score-at-most, empty, final-board"),
    ("solver time limit nan", lambda: make_solver(2, NAN),
     "timeout must be a number of seconds, 0 or more, not nan"),
    ("solver workers -1", lambda: make_solver(-1, 5.0),
     "workers must be at least 1 and at most 64"),
    ("prove workers -1", lambda: prove("full-board", 4, workers=-1),
     "workers must be at least 1 and at most 64, not -1"),
    ("prove players '4'", lambda: prove("full-board", "4"),  # type: ignore[arg-type]
     "players must be a whole number, not '4'"),
    # deep crashes before
    ("svg size nan", lambda: position_svg(POS, size=NAN),  # type: ignore[arg-type]
     "picture size must be a number of pixels above 0, at most 100000, not nan"),
    ("svg size inf", lambda: position_svg(POS, size=math.inf),  # type: ignore[arg-type]
     "picture size must be a number of pixels above 0, at most 100000, not inf"),
    ("neutral value 0", lambda: Position.new_round(
        Ruleset(players=2), [[1, 1, 2, 2, 3, 3, 4, 4, 5]] * 2, 0, None, (0, 1, 2)),
     "neutral token value 0 outside 1-5"),
    ("empty (0, 0)", lambda: ex.empty((0, 0)),
     "empty: the cell's value must be at least 1, not 0"),
    ("empty (3, 4)", lambda: ex.empty((3, 4)),
     "empty: the cell's color (0-3: R, B, Y, G) must be at least 0 and at most 3, not 4"),
    ("play color 4", lambda: POS.play(Play(3, 4)), "Play(value=3, color=4) is not a card"),
    ("play value 3.0", lambda: POS.play(Play(3.0, 0)),  # type: ignore[arg-type]
     "Play(value=3.0, color=0) is not a card"),
    # helpers outside the modules' __all__ lists, which raised AttributeError,
    # TypeError or compared None with an int
    ("hopeless None", lambda: lines.hopeless(None),  # type: ignore[arg-type]
     "a position is needed, not NoneType"),
    ("replay None", lambda: ex.replay(None, [], []),  # type: ignore[arg-type]
     "a position is needed, not NoneType"),
    ("replay line None", lambda: ex.replay(POS, None, []),  # type: ignore[arg-type]
     "a line is a sequence of plays, not None"),
    ("replay line of text", lambda: ex.replay(POS, ["3b"], []),  # type: ignore[list-item]
     "a line is a sequence of plays, not ['3b']"),
    ("rate_difficulty nodes None", lambda: rate_difficulty(None, 1, 4, 0, 3),  # type: ignore[arg-type]
     "nodes must be a whole number, not None"),
    ("rate_difficulty players 7", lambda: rate_difficulty(10, 1, 7, 0, 3),
     "players must be at least 2 and at most 5, not 7"),
    ("owner_of -1", lambda: POS.owner_of(-1, 0), "no cell of value -1 and color 0"),
    ("dd_table jobs 1.5", lambda: dd_table(POS, jobs=1.5),  # type: ignore[arg-type]
     "jobs must be 0 (one per core) or 1 to 64, not 1.5"),
    ("solve hero True", lambda: solve(POS, True, "paradox"),
     "hero seat must be a whole number, not True"),
    ("solve hero text", lambda: solve(POS, "0", "paradox"),  # type: ignore[arg-type]
     "hero seat must be a whole number, not '0'"),
    ("solve hero 4", lambda: solve(POS, 4, "paradox"), "hero seat 4 outside 0-3"),
    ("solve no position", lambda: solve(None, 0, "paradox"),  # type: ignore[arg-type]
     "a position is needed, not NoneType"),
    ("progress not callable", lambda: solve(POS, 0, "paradox", progress=5),  # type: ignore[arg-type]
     "progress must be a function"),
    ("puzzle question", lambda: solve_puzzle(replace(
        load_puzzle(Path("puzzles/fig-3-4-lead-red.toml")), question="foo")),
     "unknown question 'foo'"),
    ("puzzle timeout nan", lambda: solve_puzzle(
        load_puzzle(Path("puzzles/fig-3-4-lead-red.toml")), timeout=NAN),
     "timeout must be a number of seconds, 0 or more, not nan"),
    ("unknown switch", lambda: Ruleset().with_switches(foo=1), "unknown switch(es) foo"),
    ("row order None", lambda: Ruleset(row_order=None),  # type: ignore[arg-type]
     "row order must be a permutation of RBYG, not None"),
    ("row order list", lambda: Ruleset(row_order=["R", "B", "Y", "G"]),  # type: ignore[arg-type]
     "row order must be a permutation of RBYG"),
    ("position without a ruleset", lambda: Position.new_round(None, _hands()),  # type: ignore[arg-type]
     "a position needs a Ruleset, not None"),
    ("position hands None", lambda: replace_field(POS, hands=None),
     "position fields of the wrong kind"),
    # the wrong type where a file, a table, a text or a ruleset is meant
    ("load_puzzle None", lambda: load_puzzle(None),  # type: ignore[arg-type]
     "a puzzle file is a path, not None"),
    ("load_puzzles None", lambda: load_puzzles(None),  # type: ignore[arg-type]
     "a puzzle file or directory is a path, not None"),
    ("puzzle_from_dict None", lambda: puzzle_from_dict(None),  # type: ignore[arg-type]
     "puzzle: a puzzle is a table of fields, not NoneType"),
    ("parse_condition None", lambda: parse_condition(None),  # type: ignore[arg-type]
     "a condition is text like 'no-paradox', not None"),
    ("first_lead 'official'", lambda: first_lead("official", 1),  # type: ignore[arg-type]
     "a Ruleset is needed to deal, not 'official'"),
    ("Play.parse max None", lambda: Play.parse("7r", None),  # type: ignore[arg-type]
     "the highest value must be 1-9, not None"),
    ("generate exclude 5", lambda: next(generate("avoid-paradox", 4, 1, exclude=5)),  # type: ignore[arg-type]
     "exclude is a set of position notations, not 5"),
    ("generate max_rounds '2'", lambda: next(generate("avoid-paradox", 4, 1, max_rounds="2")),  # type: ignore[arg-type]
     "max_rounds must be a whole number, not '2'"),
    ("sheet title None", lambda: sheet_html([load_puzzle(Path("puzzles/fig-3-4-lead-red.toml"))],
                                            title=None),  # type: ignore[arg-type]
     "the sheet's title is text, not None"),
    ("play_game start None", lambda: play_game(Ruleset(), first_start=None),  # type: ignore[arg-type]
     "start seat None outside 0..3"),
    ("play_game start 1.5", lambda: play_game(Ruleset(), first_start=1.5),  # type: ignore[arg-type]
     "start seat 1.5 outside 0..3"),
    ("ruleset name bytes", lambda: Ruleset.from_name(b"official", 4),  # type: ignore[arg-type]
     "a ruleset name is text like 'official', not b'official'"),
    ("solve_puzzle None", lambda: solve_puzzle(None),  # type: ignore[arg-type]
     "a puzzle is needed, not NoneType"),
    ("puzzle_to_toml None", lambda: puzzle_to_toml(None),  # type: ignore[arg-type]
     "a puzzle is needed, not NoneType"),
    ("position_svg None", lambda: position_svg(None),  # type: ignore[arg-type]
     "a position is needed, not NoneType"),
    ("render_text None", lambda: render_text(None),  # type: ignore[arg-type]
     "a position is needed, not NoneType"),
    # (these raised raw TypeErrors and AttributeErrors)
    ("with_predictions 5", lambda: POS.with_predictions(5),  # type: ignore[arg-type]
     "predictions are one per seat (a list or tuple, None for unknown), not 5"),
    ("with_predictions text", lambda: POS.with_predictions("1111"),  # type: ignore[arg-type]
     "predictions are one per seat (a list or tuple, None for unknown), not '1111'"),
    ("deal seed list", lambda: deal(Ruleset(players=4), [1]),  # type: ignore[arg-type]
     "a deal's seed is a whole number or a random.Random, not [1]"),
    ("first_lead seed 1.5", lambda: first_lead(Ruleset(players=4), 1.5),  # type: ignore[arg-type]
     "a deal's seed is a whole number or a random.Random, not 1.5"),
    ("verify None", lambda: verify(None),  # type: ignore[arg-type]
     "a GameRecord is needed, not NoneType"),
    ("write_record None", lambda: write_record(None),  # type: ignore[arg-type]
     "a GameRecord or GameResult is needed, not NoneType"),
    ("game_record None", lambda: game_record(None),  # type: ignore[arg-type]
     "a played game (GameResult) is needed, not NoneType"),
    ("diff oracle 5", lambda: diff_rulesets(  # (5 was never called: "no difference")
        Ruleset(), Ruleset(red_lead="never"), oracle=5),  # type: ignore[arg-type]
     "oracle must be a function (position, hero, question), not 5"),
    ("sheet_html None", lambda: sheet_html(None),  # type: ignore[arg-type]
     "the puzzles to export are a list of Puzzles, not None"),
    ("sheet_html [None]", lambda: sheet_html([None]),  # type: ignore[list-item]
     "puzzle 1 to export is not a Puzzle but NoneType"),
    ("puzzle_html None", lambda: puzzle_html(None, 1, "a"),  # type: ignore[arg-type]
     "a Puzzle is needed, not NoneType"),
    ("position_to_notation None", lambda: position_to_notation(None),  # type: ignore[arg-type]
     "a position is needed, not NoneType"),
    ("position_to_json text", lambda: position_to_json("4p"),  # type: ignore[arg-type]
     "a position is needed, not str"),
    ("paradox_free_line None", lambda: lines.paradox_free_line(None),  # type: ignore[arg-type]
     "a position is needed, not NoneType"),
    ("deck None", lambda: deck(None),  # type: ignore[arg-type]
     "a Ruleset is needed for a deck, not None"),
    ("play_round no deal", lambda: play_round(None, 0, random_bots(4, 1)),  # type: ignore[arg-type]
     "a Deal is needed (catbox_solver.model.deal.deal), not None"),
    ("setup_round start 4", lambda: setup_round(deal(Ruleset(players=4), 1), 4, random_bots(4, 1)),
     "start seat 4 outside 0..3"),
    ("round_record None", lambda: round_record(None),  # type: ignore[arg-type]
     "a played round (RoundResult) is needed, not NoneType"),
    ("puzzle_html anchor None", lambda: puzzle_html(
        load_puzzle(Path("puzzles/fig-3-4-lead-red.toml")), 1, None),  # type: ignore[arg-type]
     "a puzzle's number and anchor are a whole number and text, not 1 and None"),
    ("Search tricks_at_least None", lambda: Search(POS, 0).tricks_at_least(None),  # type: ignore[arg-type]
     "k must be a whole number, not None"),
    ("Search tricks_exact known 5", lambda: Search(POS, 0).tricks_exact(known=5),  # type: ignore[arg-type]
     "known is a proven range (lo, hi) of the outcome, -2 <= lo <= hi <= 2, not 5"),
    ("Search score_exact known reversed", lambda: Search(POS, 0).score_exact(known=(1, 0)),
     "known is a proven range (lo, hi) of the outcome, -2 <= lo <= hi <= 2, not (1, 0)"),
    ("Search tricks_exact sign 1", lambda: Search(POS, 0).tricks_exact(sign=1),  # type: ignore[arg-type]
     "sign is the answer of u >= 0 (True, False or None), not 1"),
    ("Search narrow_u cap None", lambda: Search(POS, 0).narrow_u(True, None),  # type: ignore[arg-type]
     "cap must be a whole number, not None"),
    ("Search narrow_u cap 10**30", lambda: Search(POS, 0).narrow_u(True, 10**30),
     "cap must be at least 1 and at most 4611686018427387904, not " + str(10**30)),
    ("Questions literal None", lambda: Questions(POS).literal(None),  # type: ignore[arg-type]
     "a condition is needed, not None"),
    ("game_winners empty", lambda: game_winners([], []),
     "totals are whole numbers, one per seat, not []"),
    ("game_winners lengths", lambda: game_winners([3, 4], [1]),
     "2 totals but 1 final-round scores"),
    ("hands_after_discards None", lambda: hands_after_discards([[1, 2]], None),  # type: ignore[arg-type]
     "one discard per dealt hand is needed, not None for [[1, 2]]"),
    ("hands_after_discards not held", lambda: hands_after_discards([[1, 2]], [3]),
     "seat 0 discards 3, which is not in its hand [1, 2]"),
    ("write_sheet path None", lambda: write_sheet(
        [load_puzzle(Path("puzzles/fig-3-4-lead-red.toml"))], None),  # type: ignore[arg-type]
     "the sheet's path is a file name, not None"),
    # found by an audit of the API: raw TypeErrors, AttributeErrors and a hang before,
    # and seeds a game took that its record could not hold (NaN: another game each call)
    ("play_game seed NaN", lambda: play_game(Ruleset(players=3), seed=NAN),  # type: ignore[arg-type]
     "a game's seed is None or a whole number of at most 18 digits, as a record holds it, "
     "not nan"),
    ("play_game seed 1.5", lambda: play_game(Ruleset(players=3), seed=1.5),  # type: ignore[arg-type]
     "not 1.5"),
    ("play_game seed 10**18", lambda: play_game(Ruleset(players=3), seed=10**18),
     "not 1000000000000000000"),
    ("play_game bots of objects", lambda: play_game(
        Ruleset(players=3), 1, bots=[object()] * 3),  # type: ignore[list-item]
     "the bot of seat 0 has no discard, predict and play"),
    ("random_bots 10**30", lambda: random_bots(10**30, 1),
     "players must be at least 2 and at most 5"),
    ("random_bots True", lambda: random_bots(True, 1), "players must be a whole number"),
    ("hands_after_discards an int hand", lambda: hands_after_discards((1,), [1]),  # type: ignore[arg-type]
     "seat 0's dealt hand is a list of values, not 1"),
    ("parse_play max_value None", lambda: parse_play("3r", None),  # type: ignore[arg-type]
     "max_value is the highest value in play, 1-9, not None"),
    ("parse_play max_value NaN", lambda: parse_play("9r", NAN),  # type: ignore[arg-type]
     "max_value is the highest value in play, 1-9, not nan"),
    ("plays_from_text max_value 10", lambda: plays_from_text("", 10),
     "max_value is the highest value in play, 1-9, not 10"),
    ("Position neutral None", lambda: replace_field(POS, neutral=None),
     "board owners and neutral tokens are whole numbers"),
    ("Position owners None", lambda: replace_field(POS, owners=[None, 0, 0, 0]),
     "board owners and neutral tokens are whole numbers"),
    ("Position predictions 5", lambda: replace_field(POS, predictions=5),
     "predictions are one per seat (a list or tuple, None for unknown), not 5"),
    ("new_round neutral None", lambda: Position.new_round(
        Ruleset(players=2), [[1, 1, 2, 2, 3, 3, 4, 4, 5]] * 2, 0, None, None),  # type: ignore[arg-type]
     "neutral token values are a list of values, not None"),
    ("new_round 2p predictions", lambda: Position.new_round(
        Ruleset(players=2), [[1, 1, 2, 2, 3, 3, 4, 4, 5]] * 2, 0, [1, 2], [1, 2, 3]),
     "2 players make no predictions, not [1, 2]"),
    ("principal_variation 3.9", lambda: Search(POS, 0).principal_variation("tricks", 3.9),  # type: ignore[arg-type]
     "a line follows a known value of tricks, not 3.9"),
    ("principal_variation NaN", lambda: Search(POS, 0).principal_variation("score", NAN),  # type: ignore[arg-type]
     "a line follows a known value of score, not nan"),
    ("prove a list", lambda: prove(["full-board"], 4),  # type: ignore[arg-type]
     "unknown statement ['full-board']"),
    ("diff_rulesets on_level 5", lambda: diff_rulesets(
        Ruleset(players=3), Ruleset(players=3), on_level=5),  # type: ignore[arg-type]
     "on_level must be a function (tricks left), not 5"),
    ("condition_text None", lambda: condition_text(None),  # type: ignore[arg-type]
     "a condition is text like 'no-paradox', not None"),
    ("toml_string None", lambda: toml_string(None),  # type: ignore[arg-type]
     "a TOML string is made of text, not None"),
    ("replay_line True", lambda: replay_line(True, []),  # type: ignore[arg-type]
     "a position is needed, not bool"),
    ("solve_puzzle position None", lambda: solve_puzzle(replace(
        load_puzzle(Path("puzzles/fig-3-4-lead-red.toml")), position=None)),  # type: ignore[arg-type]
     "a position is needed, not NoneType"),
    ("solve_puzzle conditions None", lambda: solve_puzzle(replace(
        load_puzzle(Path("puzzles/fig-3-7-peter-paradox.toml")), conditions=None)),  # type: ignore[arg-type]
     "fig-3-7-peter-paradox: conditions are a list of texts, not None"),
    ("solve_puzzle players 7", lambda: solve_puzzle(replace(
        load_puzzle(Path("puzzles/fig-3-4-lead-red.toml")), players=7)),
     "fig-3-4-lead-red: players 7, but the position is for 4"),
]


def replace_field(pos: Position, **changes: Any) -> Position:
    """A Position built from ``pos``'s fields with some changed (validated)."""
    fields = {
        name: getattr(pos, name)
        for name in ("rules", "owners", "neutral", "hands", "colors", "leader", "trick",
                     "tricks_won", "predictions", "tricks_left")
    }
    fields.update(changes)
    return Position(**fields)


@pytest.mark.parametrize(("call", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_arguments_raise_a_clear_error(call: Callable[[], Any], message: str) -> None:
    with pytest.raises(CatboxError) as caught:
        call()
    assert message in str(caught.value)


def test_good_arguments_still_work() -> None:
    """The checks let through what they should: strings and Plays, whole-number floats
    nowhere, a ruleset switch change, values past the round's (nobody holds them)."""
    assert POS.why_illegal(Play(9, 0)) == "card not in hand"  # 4 players: values 1-8
    with pytest.raises(IllegalPlayError) as caught:
        POS.play(Play(9, 0))
    assert caught.value.rule == "card not in hand"
    legal = POS.legal_plays()[0]
    assert POS.play(legal.text) == POS.play(legal) == POS.after(legal)
    assert Ruleset().with_switches(red_lead="never").red_lead == "never"
    assert solve(POS, 0, "paradox", timeout=30).value is minimax(POS, 0, "paradox")
    # (POS lies on a paradox-free line: some way to finish with no paradox exists)
    assert ex.exists(POS, [ex.no_paradox()], count=2, workers=1, timeout=30).exists is True
    with pytest.raises(PositionError, match="seat 0 declared Y on a G lead"):
        position_from_text(CZECH_CLASH.replace("4p official", "4p official,color_loss=declared"))


def test_is_legal_takes_text_as_play_does() -> None:
    """is_legal("1b") was False for every text, though play("1b") took it."""
    legal = POS.legal_plays()
    assert legal
    for p in legal:
        assert POS.is_legal(p.text) and POS.is_legal(p)
    assert not any(POS.is_legal(f"{v}{c}") and Play.parse(f"{v}{c}", 8) not in legal
                   for v in range(1, 9) for c in "rbyg")
    with pytest.raises(CatboxError, match="bad value '9' in play '9x'"):
        POS.is_legal("9x")


def test_a_hand_built_play_shows_only_a_real_card() -> None:
    """Play(12, 7).text was an IndexError, Play(12, 1) showed as "12b" and Play(3, -1)
    as "3g" (a Play is not checked when built)."""
    assert [Play(v, c).text for v, c in ((1, 0), (9, 3), (5, 2))] == ["1r", "9g", "5y"]
    assert str(Play(7, 1)) == "7b"
    for v, c in ((12, 7), (12, 1), (3, -1), (0, 1), (True, 1), (3.0, 1), (3, 4)):
        with pytest.raises(CatboxError, match=f"no play has value {v!r} and color {c!r}"):
            _ = Play(v, c).text  # type: ignore[arg-type]

def test_a_search_out_of_time_raises_its_public_exception() -> None:
    """A Search used on its own raises OutOfTime when its deadline passes (it let a
    private _Timeout out); solve and the others catch it and answer "unknown"."""
    with pytest.raises(OutOfTime):
        Search(POS, 0, deadline=0.0).exact("tricks")
    assert solve(POS, 0, "tricks", timeout=0.0).value is None


def test_a_hero_given_as_text_is_a_type_error() -> None:
    """``hero="0"`` is a wrong type, not a seat out of range: a TypeError (and a
    CatboxError, so the CLI's one-line errors still catch it)."""
    with pytest.raises(TypeError, match=r"^hero seat must be a whole number, not '0'$"):
        solve(POS, "0", "paradox")  # type: ignore[arg-type]
