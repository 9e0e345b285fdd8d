"""Ctrl-C in every long search: CP-SAT solves (catbox exists, catbox prove) and the
double-dummy search used on its own (puzzles) stop at once and keep what was proven; the
CLI ends with one line and exit code 130. Real SIGINTs go to child processes, which are
killed after 30 s so that a failure fails in time."""

from __future__ import annotations

import dataclasses
import json
import signal
import threading
import time
from typing import Any, cast

import pytest
from child import sigint_child
from click.testing import CliRunner
from oracles.gen import start_position

from catbox_solver.cli import main
from catbox_solver.cpsat import exists as exists_mod
from catbox_solver.cpsat import proofs
from catbox_solver.cpsat.exists import ExistsAnswer, Questions, no_paradox
from catbox_solver.cpsat.proofs import ProofResult
from catbox_solver.dd.answer import OutOfTime
from catbox_solver.dd.search import Search
from catbox_solver.dd.solve import solve
from catbox_solver.dd.threads import StopSignal
from catbox_solver.errors import SearchError
from catbox_solver.formats.jsonform import position_to_json
from catbox_solver.interrupt import Interrupted, can_guard, ctrl_c_stops, solve_cp
from catbox_solver.model.position import Play, Position
from catbox_solver.model.rules import Ruleset

# a CP-SAT model that runs for its whole time limit (an optimisation it cannot close)
_HARD_MODEL = (
    "from ortools.sat.python import cp_model\n"
    "m = cp_model.CpModel()\n"
    "n = 60\n"
    "xs = [m.new_int_var(0, n - 1, f'x{i}') for i in range(n)]\n"
    "m.add_all_different(xs)\n"
    "m.add_all_different([xs[i] + i for i in range(n)])\n"
    "m.add_all_different([xs[i] - i for i in range(n)])\n"
    "m.maximize(sum(xs[i] * ((i * 7) % 13) for i in range(n)))\n"
    "solver = cp_model.CpSolver()\n"
    "solver.parameters.num_workers = 1\n"
)


def test_ctrl_c_stops_a_cp_sat_solve() -> None:
    """A SIGINT during a CP-SAT solve with a 60 s limit stops it at once: solve_cp raises
    Interrupted (before, CP-SAT caught the signal and returned as if the time was up)."""
    code = (
        _HARD_MODEL + "import sys, time\n"
        "from catbox_solver.interrupt import Interrupted, solve_cp\n"
        "solver.parameters.max_time_in_seconds = 60\n"
        "print('go', file=sys.stderr, flush=True)\n"
        "t0 = time.perf_counter()\n"
        "try:\n"
        "    print('returned', solver.status_name(solve_cp(solver, m)))\n"
        "except Interrupted as e:\n"
        "    print('stopped', e.partial, round(time.perf_counter() - t0, 1))\n"
    )
    rc, out, err, _ = sigint_child(code)
    assert rc == 0, err
    word, partial, seconds = out.split()
    assert (word, partial) == ("stopped", "None") and float(seconds) < 10


def test_cp_sat_does_not_catch_sigint_itself() -> None:
    """Where no guard is put in (here SIGINT is ignored, as in a background job), CP-SAT's
    own SIGINT catching is off: the signal does not cut the solve short, which runs to its
    2 s limit and finds a solution."""
    code = (
        _HARD_MODEL + "import sys, time\n"
        "from catbox_solver.interrupt import can_guard, solve_cp\n"
        "solver.parameters.max_time_in_seconds = 2\n"
        "assert not can_guard()\n"
        "print('go', file=sys.stderr, flush=True)\n"
        "t0 = time.perf_counter()\n"
        "status = solver.status_name(solve_cp(solver, m))\n"
        "print(status, round(time.perf_counter() - t0, 1))\n"
    )
    rc, out, err, _ = sigint_child(code, ignore=True)
    assert rc == 0, err
    status, seconds = out.split()
    assert status == "FEASIBLE" and float(seconds) >= 1.9


def test_a_search_used_on_its_own_stops_on_ctrl_c() -> None:
    """The double-dummy Search used directly, as puzzles do (no solve around it), on a
    first lead that takes minutes: a SIGINT stops it within a second and Interrupted
    comes out; before, Python's handler waited for the zero-window search under way."""
    pos = start_position(Ruleset(players=4), 7, distinct_discards=True)
    code = (
        "import sys, time\n"
        "from catbox_solver.formats.jsonform import position_from_json\n"
        "from catbox_solver.dd.search import Search\nfrom catbox_solver.dd.solve import solve\n"
        "from catbox_solver.interrupt import Interrupted\n"
        f"pos = position_from_json({position_to_json(pos)!r})\n"
        "solve(pos.after(pos.legal_plays()[0]), pos.to_move, 'paradox')  # core loaded\n"
        "search = Search(pos, 0)\n"
        "print('go', file=sys.stderr, flush=True)\n"
        "t0 = time.perf_counter()\n"
        "try:\n"
        "    print('value', search.exact('tricks'))\n"
        "except Interrupted:\n"
        "    print('stopped', search.nodes > 0, round(time.perf_counter() - t0, 1))\n"
    )
    rc, out, err, _ = sigint_child(code, delay=1.0)
    assert rc == 0, err
    word, searched, seconds = out.split()
    assert (word, searched) == ("stopped", "True") and float(seconds) < 3


def test_guards_nest_and_leave_the_handler_as_it_was() -> None:
    """The outermost guard handles Ctrl-C; an inner one is a plain block; afterwards
    Python's own handler is back."""
    assert can_guard()
    with ctrl_c_stops(lambda: None) as outer:
        assert outer.active and not can_guard()
        with ctrl_c_stops(lambda: None) as inner:
            assert not inner.active
        assert signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler and not outer.hit


def _fake_solve_free(stop_at: int, calls: list[int]) -> Any:
    """A solve_free whose answers are all INFEASIBLE (no witness) until call ``stop_at``,
    which raises Interrupted as a Ctrl-C would."""

    def fake(rules: Ruleset, question: Any, workers: int, deadline: float) -> Any:
        calls[0] += 1
        if calls[0] == stop_at:
            raise Interrupted(None)
        return proofs.FreeDealSolve("INFEASIBLE", 0.01, None)

    return fake


def _cells(values: int) -> list[str]:
    return [f"{c}{v}" for v in range(1, values + 1) for c in "RBYG"]


def test_one_empty_cell_cut_by_the_time_limit_says_what_is_proved(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The time limit on a cell after the statement is proved: UNKNOWN, and the first
    finding says the statement itself is proved (the verdict line shows the statement's
    INFEASIBLE status beside UNKNOWN); the CLI's text shows it under the verdict."""
    calls = [0]

    def fake(rules: Ruleset, question: Any, workers: int, deadline: float) -> Any:
        calls[0] += 1
        return proofs.FreeDealSolve("INFEASIBLE" if calls[0] < 3 else "UNKNOWN", 0.01, None)

    monkeypatch.setattr(proofs, "solve_free", fake)
    (res,) = proofs.prove("one-empty-cell", 5)
    cells = _cells(Ruleset(players=5).values)
    assert (res.verdict, res.status) == ("UNKNOWN", "INFEASIBLE")
    assert res.findings == [
        "proved: every paradox-free round leaves exactly one cell empty; only which cells "
        "can be that one is left undecided",
        "cells that can be the empty one (0): ",
        "cells that are never empty (1): R1",
        # (Y1 and G1 follow B1 by symmetry only when B1 is decided)
        f"undecided (time limit): {' '.join(cells[1:])}",
    ]
    calls[0] = 0
    code, out, _ = _run("prove", "one-empty-cell", "--players", "5")
    assert code == 3
    assert out.splitlines()[1] == (
        "  proved: every paradox-free round leaves exactly one cell empty; only which "
        "cells can be that one is left undecided"
    )


def test_prove_keeps_the_results_so_far_on_ctrl_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C during "which cells can be empty": the statement is UNKNOWN, the cells
    decided by then are kept and the rest named "undecided (stopped by Ctrl-C)"; with
    several player counts the finished ones come first."""
    calls = [0]
    # 5 players: the statement (call 1), then R1, B1 (Y1, G1 follow by symmetry), R2 ...
    monkeypatch.setattr(proofs, "solve_free", _fake_solve_free(4, calls))
    with pytest.raises(Interrupted) as caught:
        proofs.prove("one-empty-cell", 5)
    done = caught.value.partial
    assert isinstance(done, list) and len(done) == 1
    res = done[0]
    cells = _cells(Ruleset(players=5).values)
    assert res.verdict == "UNKNOWN" and not res.witnesses
    assert res.findings == [
        # (the verdict line's solver status, INFEASIBLE, is the proved first part's: it
        # read as a contradiction, "UNKNOWN (solver INFEASIBLE)"; user walkthrough)
        "proved: every paradox-free round leaves exactly one cell empty; only which cells "
        "can be that one is left undecided",
        "cells that can be the empty one (0): ",
        "cells that are never empty (4): R1 B1 Y1 G1",
        f"undecided (stopped by Ctrl-C): {' '.join(cells[4:])}",
    ]
    # both counts: 2 players first (the statement and each cell), then 5: statement, R1
    two = 1 + len(_cells(Ruleset(players=2).values))
    calls[0] = 0
    monkeypatch.setattr(proofs, "solve_free", _fake_solve_free(two + 3, calls))
    with pytest.raises(Interrupted) as caught:
        proofs.prove("one-empty-cell")
    first, second = cast(list[ProofResult], caught.value.partial)
    assert (first.players, first.verdict, second.players, second.verdict) == (
        2, "PROVED", 5, "UNKNOWN"
    )
    assert second.findings[-1] == f"undecided (stopped by Ctrl-C): {' '.join(cells[1:])}"
    # the earliest trick: the tricks before the one cut short are proven
    calls[0] = 0
    monkeypatch.setattr(proofs, "solve_free", _fake_solve_free(3, calls))
    with pytest.raises(Interrupted) as caught:
        proofs.prove("earliest-paradox", 4)
    (res,) = cast(list[ProofResult], caught.value.partial)
    assert (res.verdict, res.status) == ("UNKNOWN", "STOPPED")
    assert res.findings == [
        "a paradox: not before trick 3; undecided from trick 3 on (stopped by Ctrl-C)"
    ]
    # last color kept: the official reading is proven, the Czech one is not asked
    calls[0] = 0
    monkeypatch.setattr(proofs, "solve_free", _fake_solve_free(2, calls))
    with pytest.raises(Interrupted) as caught:
        proofs.prove("last-color-kept", 3)
    (res,) = cast(list[ProofResult], caught.value.partial)
    assert res.verdict == "PROVED"
    assert res.findings == ["with the Czech reading: undecided (stopped by Ctrl-C)"]
    # a statement of one call: nothing kept
    calls[0] = 0
    monkeypatch.setattr(proofs, "solve_free", _fake_solve_free(1, calls))
    with pytest.raises(Interrupted) as caught:
        proofs.prove("full-board", 4)
    assert caught.value.partial == []


def _ctrl_c_at_solve(monkeypatch: pytest.MonkeyPatch, k: int) -> list[int]:
    """From now on the k-th CP-SAT solve of ``exists`` is stopped by Ctrl-C, and the
    solver's own core is the whole set (so that every condition gets a trial solve)."""
    from ortools.sat.python import cp_model

    real = solve_cp
    calls = [0]

    def solve(solver: Any, model: Any) -> Any:
        calls[0] += 1
        if calls[0] == k:
            raise Interrupted(None)
        return real(solver, model)

    monkeypatch.setattr(exists_mod, "solve_cp", solve)
    monkeypatch.setattr(
        cp_model.CpSolver, "sufficient_assumptions_for_infeasibility", lambda self: []
    )
    return calls


def test_exists_keeps_the_lines_found_on_ctrl_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while more witness lines are looked for: Interrupted with an answer holding
    the lines found (each replays legally), none: partial None."""
    pos = start_position(Ruleset(players=3), 3, distinct_discards=True)
    calls = _ctrl_c_at_solve(monkeypatch, 3)
    with pytest.raises(Interrupted) as caught:
        Questions(pos).ask([no_paradox()], count=5)
    partial = caught.value.partial
    assert isinstance(partial, ExistsAnswer) and partial.exists is True
    assert len(partial.lines) == 2 and partial.lines[0] != partial.lines[1]
    # not called complete: 2 of the 5 asked for (it said "complete": true; review)
    reason = "Ctrl-C stopped the search for more lines after 2 of the 5 asked for: more may exist"
    assert (partial.complete, partial.reason) == (False, reason)
    assert (partial.to_json()["complete"], partial.to_json()["reason"]) == (False, reason)
    for line in partial.lines:
        end = pos
        for play in line:
            end = end.play(play)
        assert end.is_over and not end.is_paradox
    calls[0] = 2
    with pytest.raises(Interrupted) as caught:
        Questions(pos).ask([no_paradox()], count=5)
    assert caught.value.partial is None


def test_exists_keeps_the_clash_on_ctrl_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while a clash is narrowed down: Interrupted with the clash as narrowed down
    by then (it was lost), not called minimal."""
    from test_cpsat import P5, P5_CONDITIONS, P5_NAMES

    from catbox_solver.formats.notation import position_from_notation

    pos = position_from_notation(P5)
    reason = ("Ctrl-C stopped the narrowing down of the clash: fewer of these conditions "
              "may clash")
    # solve 1 is the question, 2-4 the trials (the second one drops tricks_at_most(3, 2))
    for k, clash in ((2, P5_NAMES), (3, P5_NAMES),
                     (4, ["tricks_at_least(3, 2)", "tricks(3, 1)"])):
        calls = _ctrl_c_at_solve(monkeypatch, k)
        with pytest.raises(Interrupted) as caught:
            exists_mod.exists(pos, P5_CONDITIONS, workers=1)
        partial = caught.value.partial
        assert calls[0] == k and isinstance(partial, ExistsAnswer)
        assert (partial.exists, partial.clash, partial.minimal, partial.reason) == (
            False, clash, False, reason
        )
        assert partial.to_json() == {
            "exists": False, "clash": clash, "minimal": False, "reason": reason
        }
    # Ctrl-C between two trials, outside any solve (a plain KeyboardInterrupt): kept too
    from ortools.sat.python import cp_model

    _ctrl_c_at_solve(monkeypatch, 99)
    real_add = cp_model.CpModel.add_assumptions
    adds = [0]

    def add(self: Any, lits: Any) -> None:
        adds[0] += 1
        if adds[0] == 3:  # (the question's, the first trial's, then the second trial's)
            raise KeyboardInterrupt
        real_add(self, lits)

    monkeypatch.setattr(cp_model.CpModel, "add_assumptions", add)
    with pytest.raises(Interrupted) as caught:
        exists_mod.exists(pos, P5_CONDITIONS, workers=1)
    partial = caught.value.partial
    assert isinstance(partial, ExistsAnswer)
    assert (partial.clash, partial.minimal, partial.reason) == (P5_NAMES, False, reason)
    monkeypatch.setattr(cp_model.CpModel, "add_assumptions", real_add)
    # (with no Ctrl-C: the same two conditions, minimal)
    _ctrl_c_at_solve(monkeypatch, 99)
    ans = exists_mod.exists(pos, P5_CONDITIONS, workers=1)
    assert (ans.clash, ans.minimal) == (["tricks_at_least(3, 2)", "tricks(3, 1)"], True)


def test_cli_exists_prints_the_clash_on_ctrl_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """catbox exists: Ctrl-C while the clash is narrowed down prints the clash as narrowed
    down by then, a note, then the line on stderr and 130."""
    from test_cpsat import P5

    _ctrl_c_at_solve(monkeypatch, 3)
    args = ["exists", P5, "--tricks-at-least", "3=2", "--tricks-at-most", "3=2",
            "--tricks", "3=1", "--workers", "1"]
    code, out, err = _run(*args)
    assert code == 130
    assert out == (
        "impossible: the conditions clash: --tricks 3=1, --tricks-at-least 3=2, "
        "--tricks-at-most 3=2\n"
        "note: Ctrl-C stopped the narrowing down of the clash: fewer of these conditions "
        "may clash\n"
    )
    assert err == "stopped by Ctrl-C: shown is the clash as narrowed down by then\n"
    _ctrl_c_at_solve(monkeypatch, 3)
    code, out, err = _run(*args, "--json")
    assert code == 130 and json.loads(out)["minimal"] is False


def _run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, list(args))
    return res.exit_code, res.stdout, res.stderr


def test_cli_prove_prints_what_was_proven_on_ctrl_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """catbox prove: the results so far (text and JSON), then "stopped by Ctrl-C" on
    stderr and exit code 130; with nothing kept, just the line."""
    res = ProofResult("one-empty-cell", 5, "UNKNOWN", 1.5, "INFEASIBLE")
    res.findings.append("undecided (stopped by Ctrl-C): R3 B3")

    def stopped(*args: Any, **kwargs: Any) -> Any:
        raise Interrupted([res])

    monkeypatch.setattr(proofs, "prove", stopped)
    code, out, err = _run("prove", "one-empty-cell", "--players", "5")
    assert code == 130
    assert out == (
        "one-empty-cell, 5 players: UNKNOWN (solver INFEASIBLE, 1.50 s)\n"
        "  undecided (stopped by Ctrl-C): R3 B3\n"
    )
    assert err == "stopped by Ctrl-C: shown is what was proven by then\n"
    code, out, err = _run("prove", "one-empty-cell", "--players", "5", "--json")
    assert code == 130 and [r["verdict"] for r in json.loads(out)] == ["UNKNOWN"]

    def nothing(*args: Any, **kwargs: Any) -> Any:
        raise Interrupted([])

    monkeypatch.setattr(proofs, "prove", nothing)
    code, out, err = _run("prove", "full-board", "--players", "4")
    assert (code, out, err) == (130, "", "stopped by Ctrl-C\n")


def test_cli_exists_prints_the_lines_found_on_ctrl_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """catbox exists: the witness lines found by then, then the line on stderr and 130."""
    pos = start_position(Ruleset(players=3), 3, distinct_discards=True)
    line = Questions(pos).ask([no_paradox()]).lines[0]

    def stopped(*args: Any, **kwargs: Any) -> Any:
        raise Interrupted(ExistsAnswer(True, lines=[line]))

    monkeypatch.setattr(exists_mod, "exists", stopped)
    code, out, err = _run("exists", position_to_json(pos), "--no-paradox", "--count", "3")
    assert code == 130 and out.startswith("exists\nwitness: ")
    assert out.split("witness: ")[1].split("  [")[0] == " ".join(p.text for p in line)
    assert err == "stopped by Ctrl-C: shown are the lines found by then\n"

    def nothing(*args: Any, **kwargs: Any) -> Any:
        raise Interrupted(None)

    monkeypatch.setattr(exists_mod, "exists", nothing)
    code, out, err = _run("exists", position_to_json(pos), "--no-paradox", "--json")
    assert (code, out, err) == (130, "", "stopped by Ctrl-C\n")


def test_cli_ctrl_c_anywhere_ends_with_130(monkeypatch: pytest.MonkeyPatch) -> None:
    """A KeyboardInterrupt in any command (here: listing legal plays) ends it with one
    line and exit code 130, not click's "Aborted!" and 1."""

    def interrupted(self: Any) -> tuple[Play, ...]:
        raise KeyboardInterrupt

    pos = start_position(Ruleset(players=3), 3, distinct_discards=True)
    text = position_to_json(pos)
    monkeypatch.setattr(Position, "legal_plays", interrupted)
    code, out, err = _run("legal", text)
    assert (code, err) == (130, "stopped by Ctrl-C\n")


def test_cli_ctrl_c_while_reading_the_command_line_ends_with_130(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A KeyboardInterrupt while click reads the arguments, before any command runs (a
    Ctrl-C right at the start), also ends with one line and exit code 130."""
    import click

    def interrupted(*args: Any, **kwargs: Any) -> list[str]:
        raise KeyboardInterrupt

    monkeypatch.setattr(click.Command, "parse_args", interrupted)
    assert _run("legal", "x") == (130, "", "stopped by Ctrl-C\n")


def test_cli_prove_real_ctrl_c() -> None:
    """A real SIGINT to catbox prove while it asks which cells can be empty (5 players):
    exit 130 at once, and every cell is either decided or named undecided, in order."""
    code = (
        "import sys\n"
        "from catbox_solver.cli import main\n"
        "from catbox_solver.cpsat import proofs\n"
        "real, calls = proofs.solve_free, [0]\n"
        "def counted(*args, **kwargs):\n"
        "    calls[0] += 1\n"
        "    if calls[0] == 3:\n"
        "        print('go', file=sys.stderr, flush=True)\n"
        "    return real(*args, **kwargs)\n"
        "proofs.solve_free = counted\n"
        "main(['prove', 'one-empty-cell', '--players', '5', '--json'])\n"
    )
    rc, out, err, _ = sigint_child(code, delay=0.0)
    assert rc == 130, err
    assert err.endswith("stopped by Ctrl-C: shown is what was proven by then\n")
    (data,) = json.loads(out)
    assert data["verdict"] == "UNKNOWN"
    undecided = data["findings"][-1]
    assert undecided.startswith("undecided (stopped by Ctrl-C): ")
    cells = _cells(Ruleset(players=5).values)
    rest = undecided.split(": ")[1].split()
    assert rest == cells[len(cells) - len(rest):] and len(rest) >= 1
    decided = " ".join(data["findings"][:2])
    assert all(c in decided for c in cells[: len(cells) - len(rest)])


def test_a_child_that_hangs_after_ctrl_c_fails_with_its_stacks() -> None:
    """The Ctrl-C tests' helper: a child still running after SIGINT (here one that ignores
    it, in a function named so that its stack can be recognised) fails the test within the
    limit, and the failure shows where each of its threads was."""
    code = (
        "import signal, sys, time\n"
        "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
        "def waiting_for_ever():\n"
        "    print('go', file=sys.stderr, flush=True)\n"
        "    time.sleep(60)\n"
        "waiting_for_ever()\n"
    )
    start = time.perf_counter()
    with pytest.raises(pytest.fail.Exception) as failed:
        sigint_child(code, 0.1, limit=1.0)
    assert time.perf_counter() - start < 20
    message = str(failed.value)
    assert "still ran 1 s after SIGINT" in message
    assert "Current thread" in message and "in waiting_for_ever" in message


def test_cli_ctrl_c_in_a_batch_with_a_failed_line_ends_with_130(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """Ctrl-C in a batch after a line that could not be read: the failed line and the
    summary of the lines read are said, and the exit code is 130, since the batch was not
    finished (it was 2, the failed line's, which hid the Ctrl-C from a script; and in the
    middle of a batch the summary was left out). No line after the Ctrl-C is read."""
    from catbox_solver.cli import solve_cmds
    from catbox_solver.dd.solve import dd_table, solve

    pos = start_position(Ruleset(players=3), 3, distinct_discards=True)
    plays = list(Questions(pos).ask([no_paradox()]).lines[0])
    while pos.tricks_left > 2:  # (along a paradox-free line: the rest of it is a witness)
        pos = pos.after(plays.pop(0))
    f = tmp_path / "b.jsonl"
    f.write_text("{bad\n" + position_to_json(pos) + "\n")
    whole = solve(pos, pos.to_move, "paradox")

    def cut(*args: Any, **kwargs: Any) -> Any:
        raise Interrupted(whole)

    monkeypatch.setattr(solve_cmds, "solve", cut)
    for cmd in (["solve", f"@{f}", "--question", "paradox"],
                ["solve", f"@{f}", "--question", "paradox", "--json"]):
        code, out, err = _run(*cmd)
        assert code == 130, (cmd, code, err)
        assert err.splitlines()[-2:] == ["error: 1 of 2 lines could not be read",
                                         "stopped by Ctrl-C: shown is what was proven by then"]
    assert json.loads(out.splitlines()[1])["value"] == whole.value
    # Ctrl-C on line 2 of 4: lines 3 and 4 (a bad one) are not read, the summary is said
    f.write_text(f.read_text() + position_to_json(pos) + "\n{bad2\n")
    code, out, err = _run("solve", f"@{f}", "--question", "paradox", "--json")
    assert code == 130 and len(out.splitlines()) == 2  # (line 1's error, line 2's answer)
    assert err.splitlines()[-2:] == ["error: 1 of 2 lines could not be read",
                                     "stopped by Ctrl-C: shown is what was proven by then"]
    table = dd_table(pos)

    def cut_table(*args: Any, **kwargs: Any) -> Any:
        raise Interrupted(table)

    monkeypatch.setattr(solve_cmds, "dd_table", cut_table)
    code, out, err = _run("ddtable", f"@{f}")
    assert code == 130 and err.splitlines()[-2:] == [
        "error: 1 of 2 lines could not be read",
        "stopped by Ctrl-C: shown is what was proven by then"], err
    # an answer Ctrl-C cut short is not one the time limit left undecided (it said "1 of 2
    # lines undecided within the time limit" with no --timeout given)
    cut_short = dataclasses.replace(whole, value=None)

    def cut_more(*args: Any, **kwargs: Any) -> Any:
        raise Interrupted(cut_short)

    monkeypatch.setattr(solve_cmds, "solve", cut_more)
    code, out, err = _run("solve", f"@{f}", "--question", "paradox")
    assert code == 130 and "undecided" not in err, err
    # a Ctrl-C outside the searches (here while an answer is written): the summaries too
    monkeypatch.setattr(solve_cmds, "solve", lambda *a, **k: whole)

    def ctrl_c(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(solve_cmds, "answer_text", ctrl_c)
    code, out, err = _run("solve", f"@{f}", "--question", "paradox")
    assert (code, out) == (130, "")
    assert err.splitlines()[-2:] == ["error: 1 of 2 lines could not be read",
                                     "stopped by Ctrl-C"]
    f.write_text("{bad\n" + position_to_json(pos) + "\n")

    def found(*args: Any, **kwargs: Any) -> Any:
        raise Interrupted(ExistsAnswer(True, lines=[tuple(plays)]))

    monkeypatch.setattr(exists_mod, "exists", found)
    code, out, err = _run("exists", f"@{f}", "--no-paradox")
    assert code == 130 and "line 2: exists" in out
    assert err.splitlines()[-2:] == ["error: 1 of 2 lines could not be read",
                                     "stopped by Ctrl-C: shown are the lines found by then"]

    def nothing(*args: Any, **kwargs: Any) -> Any:  # (Ctrl-C before a line was found)
        raise Interrupted(None)

    monkeypatch.setattr(exists_mod, "exists", nothing)
    code, out, err = _run("exists", f"@{f}", "--no-paradox")
    assert (code, out) == (130, "")
    assert err.splitlines()[-2:] == ["error: 1 of 2 lines could not be read",
                                     "stopped by Ctrl-C"]


# ---- StopSignal: stopping a solve from another thread --------------------------------
def test_a_stop_signal_given_stopped_ends_the_solve_as_no_time_would() -> None:
    """A solve given a StopSignal already stopped answers as with timeout=0 (every play
    open, its range the sign's bounds), and forgets its searches."""
    pos = start_position(Ruleset(players=4), 3)
    signal_ = StopSignal()
    signal_.stop()
    stopped = solve(pos, pos.to_move, "tricks", stop=signal_)
    no_time = solve(pos, pos.to_move, "tricks", timeout=0)
    assert dataclasses.replace(stopped, seconds=0) == dataclasses.replace(no_time, seconds=0)
    assert stopped.value is None and stopped.plays[0].bounds == (-7, 8)
    assert signal_._searches == set()


def test_a_stop_signal_ends_a_long_solve_from_another_thread() -> None:
    """A first-lead 4-player `tricks` solve (over a minute) stopped from a timer thread
    after 0.3 s returns soon with what was proven: the value unknown, each play's range
    narrowed to its paradox verdict where that was found."""
    pos = start_position(Ruleset(players=4), 3)
    signal_ = StopSignal()
    timer = threading.Timer(0.3, signal_.stop)
    timer.start()
    start = time.perf_counter()
    answer = solve(pos, pos.to_move, "tricks", timeout=120, stop=signal_)
    timer.join()
    assert time.perf_counter() - start < 60  # (not the 120 s: the signal stopped it)
    assert answer.value is None and signal_.stopped and signal_._searches == set()
    assert all(r.result is None and r.bounds is not None for r in answer.plays)


def test_a_stop_signal_is_checked() -> None:
    pos = start_position(Ruleset(players=3), 1)
    with pytest.raises(SearchError, match="^stop must be a StopSignal, not 1$"):
        solve(pos, pos.to_move, "paradox", stop=1)  # type: ignore[arg-type]


def test_a_stop_signal_watches_searches_only_within_its_block() -> None:
    """``StopSignal.watching``: a search watched when the signal stops ends as on a
    timeout, one added after it stopped ends at once, and one whose block has closed is
    forgotten (a later stop leaves it alone)."""
    pos = start_position(Ruleset(players=3), 4)
    while pos.tricks_left > 3:
        pos = pos.after(pos.legal_plays()[0])
    assert not pos.is_over
    free, during, after = (Search(pos, pos.to_move) for _ in range(3))
    signal_ = StopSignal()
    with signal_.watching([free]):
        pass
    with signal_.watching([during]):
        signal_.stop()
    with signal_.watching([after]):
        assert signal_._searches == {after}
    assert signal_._searches == set()
    with pytest.raises(RuntimeError), signal_.watching([Search(pos, pos.to_move)]):
        raise RuntimeError("a block left by an exception forgets its searches too")
    assert signal_._searches == set()
    assert free.exact("paradox") in (True, False)
    for search in (during, after):
        with pytest.raises(OutOfTime):
            search.exact("paradox")
