"""The CP-SAT model of a round: exact answers on hand-checked positions, every reading of
the Ruleset, counting distinct witnesses, clashing conditions, free deals."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.gen import random_line, start_position
from ortools.sat.python import cp_model

from catbox_solver.cpsat import exists as ex
from catbox_solver.cpsat.exists import make_solver
from catbox_solver.cpsat.model import build_free_round, build_round, no_paradox_lit
from catbox_solver.cpsat.proofs import extract_deal
from catbox_solver.errors import SearchError
from catbox_solver.formats.notation import position_from_notation
from catbox_solver.interrupt import solve_cp
from catbox_solver.model.position import Play, Position
from catbox_solver.model.rules import GREEN, YELLOW, Ruleset

# A 4-player round found by the solver (docs/theorems.md, red-lead-exception): after these
# 8 plays seat 2 leads trick 3 holding 2224446 with blue lost, yellow and green 2, 4 and 6
# taken, and red not broken: only red can be led.
RED_LEAD_HANDS = [
    [1, 2, 5, 5, 5, 8, 8, 8, 8],
    [1, 1, 1, 4, 5, 6, 6, 6, 8],
    [2, 2, 2, 2, 4, 4, 4, 6, 6],
    [1, 3, 3, 3, 3, 4, 5, 7, 7],
]
RED_LEAD_LINE = "1b 4y 2y 7b 4g 2g 6y 6g".split()


def red_lead_position(rules: Ruleset) -> Position:
    pos = Position.new_round(rules, RED_LEAD_HANDS)
    for text in RED_LEAD_LINE:
        pos = pos.play(text)
    return pos


def all_lines(pos: Position) -> set[tuple[Play, ...]]:
    """Every distinct line from ``pos`` to the end of the round (a plain search)."""
    if pos.tricks_left == 0 or not pos.legal_plays():
        return {()}
    out: set[tuple[Play, ...]] = set()
    for pl in pos.legal_plays():
        for rest in all_lines(pos.after(pl)):
            out.add((pl, *rest))
    return out


def test_red_lead_position_is_as_described() -> None:
    pos = red_lead_position(Ruleset(4))
    assert pos.to_move == 2 and not pos.trick and pos.tricks_played == 2
    assert pos.hands[2] == (2, 2, 2, 4, 4, 4, 6)
    assert not pos.red_broken
    assert [p.text for p in pos.legal_plays()] == ["2r", "4r", "6r"]
    # as docs/theorems.md says: blue lost, yellow and green 2, 4 and 6 taken
    assert pos.colors[2] == 0b1101
    assert all(pos.owner_of(v, c) is not None for v in (2, 4, 6) for c in (YELLOW, GREEN))


def test_red_lead_readings_decide_the_paradox() -> None:
    official = red_lead_position(Ruleset(4))
    never = official.with_rules(Ruleset(4, red_lead="never"))
    per_card = official.with_rules(Ruleset(4, red_lead="per-card"))
    ans = ex.exists(never, [ex.paradox_by(2, trick=3)], workers=1)
    assert ans.exists is True and ans.line == ()
    assert ex.exists(never, [ex.no_paradox()], workers=1).exists is False
    for pos in (official, per_card):
        assert ex.exists(pos, [ex.paradox_by(2, trick=3)], workers=1).exists is False
        first = ex.exists(pos, [], workers=1).line
        assert first is not None and first[0].color == 0


def test_counting_matches_every_line_of_a_small_position() -> None:
    rng = random.Random(11)
    checked = 0
    while checked < 5:
        rules = Ruleset(rng.choice([2, 3, 4]))
        line = random_line(start_position(rules, rng), rng)
        cands = [
            p
            for p in line
            if 0 < p.tricks_left and p.tricks_left * rules.players - len(p.trick) <= 5
        ]
        if not cands:
            continue
        pos = cands[0]
        lines = all_lines(pos)
        got = ex.exists(pos, [], count=1000, workers=1)
        assert got.exists is True
        assert set(got.lines) == lines and len(got.lines) == len(lines)
        checked += 1


def test_count_gives_distinct_replayed_lines() -> None:
    pos = random_line(start_position(Ruleset(4), 5), 5)[13]
    ans = ex.exists(pos, [], count=4, workers=2)
    assert ans.exists is True and len(ans.lines) == 4 and len(set(ans.lines)) == 4
    for line in ans.lines:
        end = ex.replay(pos, line, [])
        assert end.is_over


def test_finished_round_has_one_empty_continuation() -> None:
    for seed in range(4):
        end = random_line(start_position(Ruleset(2), seed), seed)[-1]
        ans = ex.exists(end, [], workers=1)
        assert ans.exists is True and ans.line == ()
        if end.is_paradox:
            assert ex.exists(end, [ex.paradox_by(end.to_move)], workers=1).line == ()
            assert ex.exists(end, [ex.no_paradox()], workers=1).exists is False
        else:
            assert ex.exists(end, [ex.paradox()], workers=1).exists is False


def test_clashing_conditions_are_named() -> None:
    pos = start_position(Ruleset(4), 5, distinct_discards=True)
    ans = ex.exists(
        pos,
        [ex.tricks_at_least(0, 5), ex.empty("g4"), ex.tricks_at_least(1, 4)],
        workers=1,
    )
    assert ans.exists is False
    assert sorted(ans.clash) == ["tricks_at_least(0, 5)", "tricks_at_least(1, 4)"]
    assert ans.to_json() == {"exists": False, "clash": ans.clash, "minimal": True}


def test_a_condition_impossible_alone_is_named_alone() -> None:
    pos = start_position(Ruleset(3), 8)
    ans = ex.exists(pos, [ex.no_paradox(), ex.tricks(2, 9)], workers=1)
    assert ans.exists is False and ans.clash == ["tricks(2, 9)"]


def test_empty_cell_and_final_board_conditions() -> None:
    pos = start_position(Ruleset(2), 21)
    ans = ex.exists(pos, [ex.no_paradox(), ex.empty("R3")], workers=2)
    assert ans.exists is True and ans.line is not None
    end = ex.replay(pos, ans.line, [ex.no_paradox(), ex.empty((3, 0))])
    assert end.owner_of(3, 0) is None
    # the final board of that line, asked for again, gives a line that ends on it
    from catbox_solver.formats.jsonform import position_to_dict

    board = position_to_dict(end)["board"]
    again = ex.exists(pos, [ex.final_board(board)], workers=2)
    assert again.exists is True and again.line is not None
    assert position_to_dict(ex.replay(pos, again.line, []))["board"] == board
    # the covered column may be written '#', as in the notation (2 players: column 6); the
    # condition still holds on the line's end (it was refused as a bad character)
    marked = {row: cells + "#" for row, cells in board.items()}
    marked["Y"] = board["Y"]  # (or left out, row by row)
    cond = ex.final_board(marked)
    third = ex.exists(pos, [cond], workers=2)
    assert third.exists is True and third.line is not None
    assert position_to_dict(ex.replay(pos, third.line, [cond]))["board"] == board
    with pytest.raises(SearchError, match=r"row R value 5: '#' marks the covered column, "
                       r"column 6 with 2 players$"):
        short = {ch: row[:-1] + "#" for ch, row in board.items()}  # '#' after 4 cells
        ex.exists(pos, [ex.final_board(short)], workers=1)
    three = start_position(Ruleset(3), 1)
    with pytest.raises(SearchError, match=r"and no column is covered with 3 players$"):
        ex.exists(three, [ex.final_board({ch: "......#" for ch in "RBYG"})], workers=1)


# earliest-paradox witness (docs/theorems.md): seat 2 has no legal play in trick 3
PARADOX_HANDS = [
    [1, 2, 2, 2, 2, 2, 5, 5, 5],
    [4, 4, 4, 5, 6, 6, 7, 7, 8],
    [1, 1, 1, 1, 7, 7, 7, 8, 8],
    [3, 3, 3, 3, 3, 6, 6, 8, 8],
]
PARADOX_LINE = "2b 8g 1r 8r 3y 1g 7r 7g".split()


def test_removed_reading_takes_tokens_of_an_interrupted_trick_off() -> None:
    pos = Position.new_round(Ruleset(4), PARADOX_HANDS)
    for text in PARADOX_LINE:
        pos = pos.play(text)
    removed = pos.with_rules(Ruleset(4, interrupted_trick="removed"))
    leads = [ex.empty(c) for c in ("r4", "r5", "r6", "g4", "g5", "g6")]
    stay = ex.exists(pos, [ex.paradox_by(2, 3), *leads], workers=1)
    assert stay.exists is False
    gone = ex.exists(removed, [ex.paradox_by(2, 3), *leads], workers=1)
    assert gone.exists is True and gone.line is not None and len(gone.line) == 1
    after = pos.play("5r")
    assert ex.exists(after, [ex.empty("r5")], workers=1).exists is False
    after_removed = after.with_rules(removed.rules)
    assert ex.exists(after_removed, [ex.empty("r5")], workers=1).line == ()
    assert ex.exists(after_removed, [ex.empty("g7")], workers=1).exists is False


def test_bad_conditions_are_typed_errors() -> None:
    pos = start_position(Ruleset(3), 1)
    with pytest.raises(SearchError):
        ex.empty("x4")
    with pytest.raises(SearchError):
        ex.exists(pos, [ex.paradox_by(3)])
    with pytest.raises(SearchError):
        ex.exists(pos, [ex.empty("g8")])
    with pytest.raises(SearchError):
        ex.final_board({"R": "..", "B": "..", "Y": ".."})


def test_time_limit_gives_unknown() -> None:
    rules = Ruleset(5)
    pos = start_position(rules, 2)
    ans = ex.exists(pos, [ex.paradox_by(4, 7), ex.tricks(4, 0)], timeout=0.01, workers=1)
    assert ans.exists is None and "solver stopped" in ans.reason
    assert ans.to_json() == {"exists": None, "reason": ans.reason}


def test_model_sizes_are_as_designed() -> None:
    pos = start_position(Ruleset(4), 5)
    rm = build_round(pos)
    assert rm.steps == 32 and rm.tricks == 8 and len(rm.leader) == 9
    assert no_paradox_lit(rm) is rm.played[31]
    mid = random_line(pos, 1)[6]
    rm2 = build_round(mid)
    assert rm2.first_ply == 2 and rm2.steps == mid.tricks_left * 4 - 2


def test_free_deal_witness_is_a_real_round() -> None:
    rules = Ruleset(3)
    rm = build_free_round(rules)
    rm.model.add_bool_or([no_paradox_lit(rm)])
    solver = make_solver(2, 30)
    assert solver.solve(rm.model) in (2, 4)  # FEASIBLE or OPTIMAL
    dl = extract_deal(rm, solver)
    assert dl.final.tricks_left == 0 and len(dl.line) == 24
    assert sum(len(h) for h in dl.hands) == 27 and sum(len(d) for d in dl.discards) == 3


def test_one_model_answers_many_questions_without_leaking() -> None:
    rng = random.Random(3)
    while True:
        line = random_line(start_position(Ruleset(3), rng), rng)
        small = [p for p in line if 0 < p.tricks_left and p.tricks_left * 3 - len(p.trick) <= 4]
        if small:
            break
    pos = small[0]
    every = all_lines(pos)
    asker = ex.Questions(pos)
    first = asker.ask([], count=1000, workers=1)
    second = asker.ask([], count=1000, workers=1)  # the first question's blocks are gone
    assert set(first.lines) == set(second.lines) == every
    free = asker.ask([ex.no_paradox()], workers=1).exists
    assert free is any(not ex.replay(pos, ln, []).is_paradox for ln in every)


@settings(max_examples=16, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([2, 3, 4, 5]), st.integers(0, 40))
def test_some_continuation_always_exists_and_replays(seed: int, players: int, k: int) -> None:
    line = random_line(start_position(Ruleset(players), seed), seed)
    # any position of the line, its end (mostly a paradox) one time in len(line): k was
    # capped at the end, which two draws in three reached (a trivially empty answer)
    pos = line[k % len(line)]
    ans = ex.exists(pos, [], workers=1)
    assert ans.exists is True and ans.line is not None
    end = ex.replay(pos, ans.line, [])
    assert end.is_over
    if pos.is_paradox:
        assert ans.line == () and end.paradox_by == pos.to_move


def test_trick_number_outside_the_round_is_bad_input() -> None:
    pos = start_position(Ruleset(5), 1)
    with pytest.raises(SearchError, match="trick 8 outside 1-7"):
        ex.exists(pos, [ex.paradox_by(0, 8)])


def test_partly_known_deal() -> None:
    rules = Ruleset(4)
    known = [1, 1, 2, 3, 4, 5, 6, 7, 8]
    rm = build_free_round(rules, hands=[known, None, None, None], discards=[[8], None, None, None])
    rm.model.add_bool_or([no_paradox_lit(rm)])
    solver = make_solver(2, 30)
    assert solver.solve(rm.model) in (2, 4)
    dl = extract_deal(rm, solver)
    assert dl.hands[0] == tuple(known) and dl.discards[0] == (8,)
    assert dl.final.tricks_left == 0
    # two known equal discards: no paradox-free round (equal-discards)
    stuck = build_free_round(rules, discards=[[5], [5], None, None])
    stuck.model.add_bool_or([no_paradox_lit(stuck)])
    assert make_solver(2, 30).solve(stuck.model) == 3  # INFEASIBLE
    with pytest.raises(SearchError, match="seat 1's hand"):
        build_free_round(rules, hands=[None, [1, 2], None, None])


# a 5-player round with 4 tricks left where seat 3 (1 trick won) can end with 1 or 2
P5 = (
    "5p official | R:31....443 B:..4.2...1 Y:32...102. G:...00.... | 22349 13458 13557 "
    "44678 36699 | YG RY BY RY RBY | lead 3 | won 0 0 0 1 2 | bid 3 2 2 3 1 | left 4"
)
P5_CONDITIONS = [ex.tricks_at_least(3, 2), ex.tricks_at_most(3, 2), ex.tricks(3, 1)]
P5_NAMES = ["tricks_at_least(3, 2)", "tricks_at_most(3, 2)", "tricks(3, 1)"]


def _logged_solvers(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, float]]:
    """Record the (workers, time limit) of every solver the question builds."""
    log: list[tuple[int, float]] = []
    real = ex.make_solver

    def logged(workers: int, timeout: float) -> object:
        log.append((workers, timeout))
        return real(workers, timeout)

    monkeypatch.setattr(ex, "make_solver", logged)
    return log


def test_narrowing_the_clash_keeps_the_workers_and_the_time_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each trial solve of the narrowing has the caller's workers and only the time left
    (it had 2 workers and the whole limit again: (conditions + 1) x the limit)."""
    pos = position_from_notation(P5)
    log = _logged_solvers(monkeypatch)
    # the solver's own core is the whole set: every condition gets a trial solve
    monkeypatch.setattr(
        cp_model.CpSolver, "sufficient_assumptions_for_infeasibility", lambda self: []
    )
    ans = ex.exists(pos, P5_CONDITIONS, timeout=7, workers=1)
    assert ans.exists is False and ans.minimal is True and ans.reason == ""
    assert ans.clash == ["tricks_at_least(3, 2)", "tricks(3, 1)"]
    assert ans.to_json() == {"exists": False, "clash": ans.clash, "minimal": True}
    assert [w for w, _ in log] == [1, 1, 1, 1]  # the question, then one trial each
    limits = [t for _, t in log]
    assert limits[0] <= 7 and all(b < a for a, b in zip(limits, limits[1:], strict=False))


def test_a_clash_not_narrowed_down_in_time_is_not_called_minimal(
    monkeypatch: pytest.MonkeyPatch, cp_stops_after: Callable[[int], list[int]]
) -> None:
    """A trial the time limit stops keeps its condition, and one never run for lack of
    time too: the clash is still a clash, but the answer says it may not be minimal."""
    pos = position_from_notation(P5)
    monkeypatch.setattr(
        cp_model.CpSolver, "sufficient_assumptions_for_infeasibility", lambda self: []
    )
    real = solve_cp
    calls = cp_stops_after(1)
    ans = ex.exists(pos, P5_CONDITIONS, timeout=7, workers=1)
    reason = (
        "the time limit (7 s) stopped the narrowing down of the clash: fewer of these "
        "conditions may clash"
    )
    assert (ans.exists, ans.clash, ans.minimal, ans.reason) == (False, P5_NAMES, False, reason)
    assert ans.to_json() == {
        "exists": False, "clash": P5_NAMES, "minimal": False, "reason": reason
    }
    assert calls[0] == 4
    # the question itself used up the time: no trial at all
    log = _logged_solvers(monkeypatch)

    def slow(solver: cp_model.CpSolver, model: cp_model.CpModel) -> object:
        status = real(solver, model)
        time.sleep(0.6)
        return status

    monkeypatch.setattr(ex, "solve_cp", slow)
    ans = ex.exists(pos, P5_CONDITIONS, timeout=0.5, workers=1)
    assert (ans.exists, ans.clash, ans.minimal) == (False, P5_NAMES, False)
    assert ans.reason == reason.replace("(7 s)", "(0.5 s)")
    assert len(log) == 1


def test_count_cut_short_by_the_time_limit_is_not_complete(
    monkeypatch: pytest.MonkeyPatch, cp_stops_after: Callable[[int], list[int]]
) -> None:
    """The lines found before the time limit are kept, and the answer says the
    enumeration is not complete; found all, or as many as asked: complete."""
    pos = position_from_notation(P5)
    real = solve_cp
    cp_stops_after(3)
    ans = ex.exists(pos, [ex.tricks(3, 2)], count=100, timeout=6, workers=1)
    reason = (
        "the time limit (6 s) stopped the search for more lines after 3 of the 100 asked "
        "for: more may exist"
    )
    assert (ans.exists, len(ans.lines), ans.complete, ans.reason) == (True, 3, False, reason)
    got = ans.to_json()
    assert (got["complete"], got["reason"], len(got["lines"])) == (False, reason, 3)
    monkeypatch.setattr(ex, "solve_cp", real)
    three = ex.exists(pos, [ex.tricks(3, 2)], count=3, workers=1)
    assert (len(three.lines), three.complete, three.reason) == (3, True, "")
    assert three.to_json()["complete"] is True and "reason" not in three.to_json()
