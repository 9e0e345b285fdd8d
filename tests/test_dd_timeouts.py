"""The double-dummy search out of time, stopped and in threads: proven ranges and never a
guess, progress, narrowing and races that change no answer, plays and seats searched at
once, Ctrl-C, and a clock that starts after the kernel is ready."""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from child import sigint_child
from oracles.dd_positions import questions_for, small_positions
from oracles.gen import paradox_free_round, random_line, start_position
from oracles.minimax_ref import minimax, terminal_value, tree_size

from catbox_solver.dd import search as search_mod
from catbox_solver.dd import solve as dd_mod
from catbox_solver.dd import threads as threads_mod
from catbox_solver.dd import warmup
from catbox_solver.dd.answer import Answer, OutOfTime, PlayResult, Value
from catbox_solver.dd.fast import FastState
from catbox_solver.dd.search import Search
from catbox_solver.dd.solve import _twins, dd_table, solve, value_only
from catbox_solver.dd.warmup import warm_up
from catbox_solver.errors import SearchError
from catbox_solver.formats.notation import position_from_notation
from catbox_solver.model.position import Play, Position
from catbox_solver.model.rules import PRESETS, Ruleset
from catbox_solver.questions import Question


def test_timeout_gives_unknown_never_a_guess() -> None:
    pos = start_position(Ruleset(players=4), 7, distinct_discards=True)
    ans = solve(pos, 0, "tricks", timeout=0.05)
    assert ans.value is None
    assert ans.pv == ()
    assert ans.plays and all(r.result is None for r in ans.plays)  # (no first-lead play
    # finishes its exact value in 0.05 s; only the last one was checked)
    assert value_only(pos, 0, "tricks", timeout=0.05) is None
    table = dd_table(pos, timeout=0.05)
    assert all(r.tricks is None for r in table.rows)


def test_no_core_search_starts_after_the_deadline() -> None:
    """A compiled search is not started once the deadline has passed: its answer would be
    thrown away, and from the first lead its first nodes alone fault in a 256 MB table
    (a 4-player DD table with a 1 s timeout took 2.3 s, each seat after the first
    starting late). Past the deadline a search raises the timeout having searched no
    node."""
    from catbox_solver.dd import answer, search

    pos = start_position(Ruleset(players=4), 7, distinct_discards=True)
    searcher = search.Search(pos, 0, time.perf_counter() - 1.0)
    with pytest.raises(answer.OutOfTime):
        searcher.exact("paradox")
    assert searcher.nodes == 0
    table = dd_table(pos, timeout=1e-9)  # (past before the first search)
    assert [row.paradox for row in table.rows] == [None] * 4
    assert table.nodes == 0  # (each seat searched 4096 nodes before)


def test_a_capped_search_past_the_deadline_is_out_of_time() -> None:
    """A search within a node cap answers None when the cap ends it, but once the
    deadline has passed it is out of time, even though the core's flag still tells of the
    capped search before (a race that doubles its cap on None went round for ever there,
    a worker of a survey with it)."""
    pos = start_position(Ruleset(players=4), 7, distinct_discards=True)
    searcher = Search(pos, 0, time.perf_counter() + 600.0)
    assert searcher._u_within(0, 10) is None  # noqa: SLF001 (the cap ended it)
    assert searcher.table_within(10) is None
    searcher.deadline = time.perf_counter() - 1.0
    with pytest.raises(OutOfTime):
        searcher._u_within(0, 10)  # noqa: SLF001
    with pytest.raises(OutOfTime):
        searcher.table_within(10)


def test_the_race_ends_when_the_deadline_passes_between_its_searches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The deadline passes just after the race's first capped search: the next one
    raises the timeout (not None, on which the race would double its cap for ever)."""
    within = Search._u_within
    calls = []

    def first_then_late(self: Search, r: int, cap: int) -> bool | None:
        calls.append(cap)
        assert len(calls) < 50, "the race goes on past the deadline"
        res = within(self, r, cap)
        self.deadline = time.perf_counter() - 1.0  # (passed during this search)
        return res

    monkeypatch.setattr(Search, "_u_within", first_then_late)
    monkeypatch.setattr(search_mod, "_RACE_NODES", 10)
    pos = start_position(Ruleset(players=4), 7, distinct_discards=True)
    searcher = Search(pos, 0, time.perf_counter() + 600.0)
    with pytest.raises(OutOfTime):
        searcher.exact("paradox")
    assert calls == [10, 20]  # the node itself, then the first play of the race


class _CutAt:
    """A deterministic timeout: the ``at``-th boolean search (``Search._u`` or ``_s``) of
    a solve raises the timeout, as a deadline passing there would; ``at=None`` only
    counts them."""

    def __init__(
        self, monkeypatch: pytest.MonkeyPatch, at: int | None,
        names: tuple[str, ...] = ("_u", "_s"),
    ) -> None:
        # the core ready first: its warm-up searches (once per process) are not the solve's
        warmup.warm_up()
        self.calls = 0
        for name in names:
            monkeypatch.setattr(Search, name, self._wrap(getattr(Search, name)))
        self.at = at

    def _wrap(self, search_fn: Callable[..., bool]) -> Callable[..., bool]:
        def cut(s: Search, *args: int) -> bool:
            if self.calls == self.at:
                raise OutOfTime
            self.calls += 1
            return search_fn(s, *args)

        return cut


class _LineStarts:
    """Records how many boolean searches (counted by ``count``) a solve has made when its
    principal variation starts: the searches from there on are the line's."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, count: _CutAt) -> None:
        self.calls = -1
        line = Search.principal_variation

        def start(s: Search, *args: Any) -> tuple[Play, ...]:
            self.calls = count.calls
            return line(s, *args)

        monkeypatch.setattr(Search, "principal_variation", start)


def _check_open_answer(q: str, ans: Answer, value: int) -> bool:
    """A solve cut before every play was known (no line): its value is given exactly
    when the plays' results and ranges decide it (``tricks``, ``score``: the range over
    the plays closes to one number; ``paradox``: a play known to give the player to move
    what it wants; ``table``: a play known to let all finish), and is then the exact
    ``value``, without a range; otherwise it is unknown, with the plays' range (holding
    the value) for ``tricks`` and ``score``. True when the value is given."""
    assert ans.pv == ()
    hero_moves = ans.to_move == ans.hero
    span = None
    if q in ("tricks", "score"):
        spans: list[tuple[int, int]] = []
        for r in ans.plays:
            if r.bounds is not None:
                spans.append(r.bounds)
            elif r.result is not None:
                spans.append((int(r.result), int(r.result)))
        assert len(spans) == len(ans.plays)
        pick = max if hero_moves else min
        span = (pick(lo for lo, _ in spans), pick(hi for _, hi in spans))
        closed = span[0] == span[1]
    else:
        wanted = q == "table" or hero_moves
        closed = any(r.result is wanted for r in ans.plays)
    if closed:
        assert ans.value == value and ans.bounds is None and not ans.pv_complete
        assert any(r.result is None for r in ans.plays)
        assert ans.to_json()["pv_complete"] is False
        return True
    assert ans.value is None and ans.pv_complete and ans.bounds == span
    assert span is None or span[0] <= value <= span[1]
    return False


def _check_cut_line(
    pos: Position, hero: int, q: str, ans: Answer, value: int, exact: list[int]
) -> None:
    """A solve cut while its line was searched keeps the value and every play's exact
    result, and gives the start of a best line: each of its plays is legal and keeps the
    value (by the minimax), and it is shorter than a whole line."""
    assert ans.value == value and ans.bounds is None and not ans.pv_complete
    assert [r.result for r in ans.plays] == exact and all(r.bounds is None for r in ans.plays)
    at = pos
    for play in ans.pv:
        assert play in at.legal_plays(), (pos, hero, q, ans.pv)
        at = at.after(play)
        assert minimax(at, hero, q) == value, (pos, hero, q, ans.pv)
    assert at.legal_plays(), (pos, hero, q, ans.pv)  # the line stops before the end
    assert ans.to_json()["pv_complete"] is False


@cache
def _twin_positions() -> tuple[tuple[Position, int], ...]:
    """Seeded positions with 1-3 tricks left where the symmetry of blue, yellow and green
    makes some plays mirror images (rare this late: about one random round in 170)."""
    rng = random.Random(5)
    out: list[tuple[Position, int]] = []
    while len(out) < 12:
        n = rng.choice((2, 3, 4, 5))
        rules = Ruleset.from_name(rng.choice(list(PRESETS)), n)
        for p in random_line(start_position(rules, rng, distinct_discards=True), rng):
            if 0 < p.tricks_left <= 3 and p.legal_plays():
                twins = _twins(p, p.legal_plays())
                if twins.count(None) < len(twins) and tree_size(p, 20_000) < 20_000:
                    out.append((p, rng.randrange(n)))
                    break
    return tuple(out)


def _sign_range(pos: Position, hero: int, q: str) -> tuple[int, int]:
    """The range of ``tricks`` / ``score`` from the minimax's paradox verdict alone."""
    fs = FastState(pos)
    w, tl = fs.won[hero], fs.tricks_left
    if not minimax(pos, hero, "paradox"):
        return (1 - tl - w, -w)  # a paradox of the hero after 0 to tl - 1 more tricks
    if q == "tricks":
        return (w, w + tl)
    return (w, w + tl + bin(fs.owners[hero]).count("1") + tl)


def test_a_timeout_leaves_every_play_a_proven_range(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cut a solve of ``tricks`` and ``score`` at every one of its searches in turn: every
    play's result is either exact or unknown with a range holding the exact value, the
    value's range holds the exact value, once every play's sign is searched (they come
    first) every range lies within its sign's, and mirror plays (blue, yellow, green)
    share their result and range. A cut while the line is searched (every play's result
    known) keeps the value, the results and the start of the line found so far."""
    cuts = narrowed = twinned = lines_cut = prefixes = decided = 0
    cases: list[tuple[Position, int, Question]] = [
        (p, h, q) for p, h in small_positions()[:48] for q in ("tricks", "score")
    ]
    cases += [(p, h, "tricks") for p, h in _twin_positions()]  # (score has no twins)
    for pos, hero, q in cases:
        if q in questions_for(pos, hero):
            plays = pos.legal_plays()
            exact = [minimax(pos.after(p), hero, q) for p in plays]
            by_sign = [_sign_range(pos.after(p), hero, q) for p in plays]
            value = max(exact) if pos.to_move == hero else min(exact)
            # the searches of the first phase: one sign per play not merged with a twin
            signs = len(plays) if q == "score" else _twins(pos, plays).count(None)
            with monkeypatch.context() as m:
                count = _CutAt(m, None)
                line_from = _LineStarts(m, count)
                assert solve(pos, hero, q).value == value
            total = count.calls
            for at in range(total):
                with monkeypatch.context() as m:
                    _CutAt(m, at)
                    ans = solve(pos, hero, q)
                cuts += 1
                if at >= line_from.calls:  # cut while the line is searched
                    _check_cut_line(pos, hero, q, ans, value, exact)
                    lines_cut += 1
                    prefixes += ans.pv != ()
                else:
                    decided += _check_open_answer(q, ans, value)
                for r, x, p, sign in zip(ans.plays, exact, plays, by_sign, strict=True):
                    if r.result is not None:
                        assert r.result == x and r.bounds is None
                        continue
                    assert r.bounds is not None
                    lo, hi = r.bounds
                    assert lo <= x <= hi, (pos, hero, q, at, p)
                    within = sign[0] <= lo and hi <= sign[1]
                    assert within or at < signs, (pos, hero, q, at, p)
                    narrowed += within and (lo, hi) != sign
                # mirror plays by the symmetry of blue, yellow and green share everything
                for i, j in enumerate(_twins(pos, plays) if q == "tricks" else ()):
                    if j is not None:
                        assert ans.plays[i].result == ans.plays[j].result, (pos, hero, at)
                        assert ans.plays[i].bounds == ans.plays[j].bounds, (pos, hero, at)
                        twinned += 1
    assert cuts >= 800
    assert narrowed >= 150
    assert twinned >= 60
    assert lines_cut >= 300
    assert prefixes >= 150
    assert decided >= 100, decided


def test_a_timeout_keeps_a_yes_or_no_the_plays_found_decide(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cut solves of ``paradox`` and ``table`` at every search before the line, in turn:
    once a play is known to give the player to move what it wants (the hero: no
    paradox; another seat: the hero's paradox; ``table``: all can finish), the value is
    given, the minimax's, with the plays not searched yet open and no line; before that
    it is unknown. Every play's result given is exact."""
    decided = undecided = 0
    names = {"paradox": ("_u",), "table": ("table",)}
    for pos, hero in small_positions()[:80]:
        plays = pos.legal_plays()
        if len(plays) < 2:
            continue
        for q in ("paradox", "table"):
            exact = [minimax(pos.after(p), hero, q) for p in plays]
            value = minimax(pos, hero, q)
            with monkeypatch.context() as m:
                count = _CutAt(m, None, names[q])
                line_from = _LineStarts(m, count)
                assert solve(pos, hero, q).value == value
            for at in range(line_from.calls):
                with monkeypatch.context() as m:
                    _CutAt(m, at, names[q])
                    ans = solve(pos, hero, q)
                if _check_open_answer(q, ans, value):
                    decided += 1
                else:
                    undecided += 1
                for r, x in zip(ans.plays, exact, strict=True):
                    assert r.result is None or r.result == x, (repr(pos), hero, q, at)
    assert decided >= 40 and undecided >= 40, (decided, undecided)


def test_best_first_ranks_a_play_out_of_time_by_its_range() -> None:
    """Hero to move: by the low end of the range (a play proven to give at least 0 before
    one known to give -1), then the high; another seat: by the high end, then the low;
    a play out of time without a range comes last."""
    a, b, c, d = (Play(v, 1) for v in (1, 2, 3, 4))
    plays = (
        PlayResult(a, -4),
        PlayResult(b, None, (0, 3)),
        PlayResult(c, None, (-7, 0)),
        PlayResult(d, -1),
    )
    ans = Answer("tricks", 0, None, plays, (), 0, 0.0, 0, (0, 3))
    assert [r.play for r in ans.best_first()] == [b, d, a, c]
    assert [r.play for r in replace(ans, to_move=1).best_first()] == [a, d, c, b]
    unknown = replace(ans, plays=(PlayResult(a, None), *plays[1:]))
    assert unknown.best_first()[-1].play == a


@pytest.mark.parametrize("narrowing", [False, True])
def test_a_timeout_in_the_dd_table_leaves_proven_ranges(
    monkeypatch: pytest.MonkeyPatch, narrowing: bool
) -> None:
    """Cut a DD table at every one of its searches in turn: each entry is exact or
    unknown, an unknown trick count or score has a range holding the exact value, and
    every seat's paradox verdict comes before any trick count. ``narrowing``: the
    first-lead narrowing on from 1 trick left, each of its searches within 3-40 nodes
    and cut as well."""
    names: tuple[str, ...] = ("_u", "_s")
    if narrowing:
        monkeypatch.setattr(dd_mod, "_NARROW_FROM", 1)
        names += ("_u_within",)
    cuts = 0
    for k, (pos, _) in enumerate(small_positions()[:28]):
        monkeypatch.setattr(dd_mod, "_NARROW_NODES", (3, 10, 40)[k % 3])
        n = pos.rules.players
        scored = [pos.predictions is None or pos.predictions[s] is not None for s in range(n)]
        exact = [
            (minimax(pos, s, "paradox"), minimax(pos, s, "tricks"),
             minimax(pos, s, "score") if scored[s] else None)
            for s in range(n)
        ]
        with monkeypatch.context() as m:
            count = _CutAt(m, None, names)
            dd_table(pos)
        for at in range(count.calls):
            with monkeypatch.context() as m:
                _CutAt(m, at, names)
                table = dd_table(pos)
            for row, (par, tricks, score) in zip(table.rows, exact, strict=True):
                assert row.paradox in (None, par)
                assert (row.paradox is not None) == (row.seat < at)
                for got, rng, want in (
                    (row.tricks, row.tricks_bounds, tricks),
                    (row.score, row.score_bounds, score),
                ):
                    if got is not None or want is None:
                        assert got == want and rng is None
                    else:
                        assert rng is not None and rng[0] <= want <= rng[1], (pos, at, row)
                if row.score is None and score is not None:
                    # a score is at least the trick points: its range starts where the
                    # trick points' (exact, or as proven when cut) does
                    assert row.score_bounds is not None
                    low = row.tricks if row.tricks_bounds is None else row.tricks_bounds[0]
                    assert low is not None and row.score_bounds[0] >= low, (pos, at, row)
            cuts += 1
    assert cuts >= (500 if narrowing else 300), cuts


def test_the_dd_table_narrowing_changes_no_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the narrowing on from 1 trick left (searches of 3-40 nodes, so that most stop
    early), every DD table equals the one without it, and each seat's narrowing is
    announced between the paradox verdicts and the trick points."""
    tables = 0
    for k, (pos, _) in enumerate(small_positions()[:60]):
        plain = dd_table(pos)
        calls, record = _recorder()
        with monkeypatch.context() as m:
            m.setattr(dd_mod, "_NARROW_FROM", 1)
            m.setattr(dd_mod, "_NARROW_NODES", (3, 10, 40)[k % 3])
            got = dd_table(pos, progress=record)
        assert got.rows == plain.rows, repr(pos)
        n = pos.rules.players
        if pos.legal_plays():
            steps: list[str] = []
            for _, _, w in calls:
                found = _PROVEN.match(w)
                name = found.group(1) if found else w
                if name and (not steps or steps[-1] != name):
                    steps.append(name)  # (a range proven is announced on its step)
            first = [f"seat {s}: paradox verdict" for s in range(n)]
            narrow = [f"seat {s}: trick points range" for s in range(n)]
            assert steps[: 2 * n] == first + narrow, steps
            assert calls[-1] == (4 * n, 4 * n, "")
            tables += 1
    assert tables >= 55


def test_the_race_of_plays_changes_no_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the race of Search._u_raced on from 1 trick left, after a first search of 1-10
    nodes (so that most nodes race), every paradox verdict and every play's trick value
    equal the plain minimax's, and so does the DD table; races run at the hero's turn and
    at another seat's, and end both ways at each."""
    seen: set[tuple[bool, bool]] = set()
    race = Search._u_raced

    def spy(self: Search, r: int) -> bool:
        before = self.races
        res = race(self, r)
        if self.races > before:
            seen.add((self.st.to_move == self.hero, res))
        return res

    monkeypatch.setattr(Search, "_u_raced", spy)
    monkeypatch.setattr(search_mod, "_RACE_FROM", 1)
    cases = 0
    for k, (pos, hero) in enumerate(small_positions()[:120]):
        monkeypatch.setattr(search_mod, "_RACE_NODES", (1, 3, 10)[k % 3])
        for q in ("paradox", "tricks"):
            ans = solve(pos, hero, q)
            expect = [minimax(pos.after(p), hero, q) for p in pos.legal_plays()]
            assert [r.result for r in ans.plays] == expect, (pos, hero, q)
            cases += 1
        if k % 4 == 0:
            monkeypatch.setattr(search_mod, "_RACE_FROM", 99)
            plain = dd_table(pos)
            monkeypatch.setattr(search_mod, "_RACE_FROM", 1)
            assert dd_table(pos).rows == plain.rows, repr(pos)
    assert cases == 240
    assert seen == {(True, True), (True, False), (False, True), (False, False)}


def _recorder() -> tuple[list[tuple[int, int, str]], Callable[[int, int, str], None]]:
    """A progress callback and the list of its calls."""
    calls: list[tuple[int, int, str]] = []
    return calls, lambda d, t, w: calls.append((d, t, w))


_PROVEN = re.compile(r"^(.*), proven (-?\d+) to (-?\d+)$")


def _check_progress(
    calls: list[tuple[int, int, str]], steps: list[str], exact: list[Value]
) -> int:
    """``calls`` of progress(done, total, what) for the searches named ``steps`` in order,
    whose values are ``exact`` (None: a step that shows no range): each step is announced
    by its name when it starts, a range shown during a step is named after it, narrows
    and holds the step's value; the last call is (total, total, ""). Returns how many
    ranges were shown."""
    total = len(steps)
    assert calls[-1] == (total, total, "")
    assert all(t == total for _, t, _ in calls)
    assert [d for d, _, _ in calls] == sorted(d for d, _, _ in calls)
    assert [(d, w) for d, _, w in calls[:-1] if not _PROVEN.match(w)] == list(
        enumerate(steps)
    )
    shown = 0
    last: dict[int, tuple[int, int]] = {}
    for d, _, w in calls[:-1]:
        m = _PROVEN.match(w)
        if m:
            lo, hi = int(m.group(2)), int(m.group(3))
            assert m.group(1) == steps[d]
            want = exact[d]
            assert want is not None and lo <= want <= hi, (w, want)
            prev = last.get(d, (lo, hi))
            assert prev[0] <= lo <= hi <= prev[1], (w, prev)
            last[d] = (lo, hi)
            shown += 1
    return shown


def test_solve_reports_each_search_and_the_range_proven() -> None:
    """progress(done, total, what) of a solve: one step per search, in order (tricks and
    score: every play's paradox verdict, then every play's exact value; paradox and
    table: the position as a whole, then each play unless that decided them all; mirror
    plays searched once), named by its play and its question; while an exact value is
    searched the range proven so far is shown, narrowing, and it holds the play's value."""
    shown = whole = 0
    for pos, hero in small_positions()[:80]:
        for q in questions_for(pos, hero):
            calls, record = _recorder()
            ans = solve(pos, hero, q, progress=record)
            plays = pos.legal_plays()
            twins = _twins(pos, plays) if q != "score" else [None] * len(plays)
            searched = [i for i, tw in enumerate(twins) if tw is None]
            label = {"paradox": "paradox verdict", "table": "can all finish?"}
            exact: list[Value]
            if q in label:
                steps = [f"{plays[i].text}: {label[q]}" for i in searched]
                if len(searched) > 1:
                    values = {r.result for r in ans.plays}
                    wants = q == "table" or pos.to_move == hero
                    steps = [f"every play: {label[q]}"] + steps
                    if values == {not wants}:  # the position's one search decided them:
                        total = len(steps)     # the bar ends there
                        assert calls == [(0, total, steps[0]), (total, total, "")]
                        whole += 1
                        continue
                exact = [None] * len(steps)
            else:
                steps = [f"{plays[i].text}: paradox verdict" for i in searched]
                steps += [f"{plays[i].text}: exact {q}" for i in searched]
                exact = [*([None] * len(searched)), *[ans.plays[i].result for i in searched]]
            shown += _check_progress(calls, steps, exact)
    assert shown >= 500 and whole >= 20, (shown, whole)


def test_dd_table_reports_each_search_and_the_range_proven() -> None:
    """progress of a DD table: every seat's paradox verdict, then every seat's trick
    points, then every seat's score, each named by its seat, with the ranges proven while
    trick points and scores are searched (narrowing, holding the table's value)."""
    shown = 0
    for pos, _ in small_positions()[:40]:
        calls, record = _recorder()
        table = dd_table(pos, progress=record)
        seats = range(pos.rules.players)
        names = (("paradox verdict", "paradox"), ("trick points", "tricks"), ("score", "score"))
        steps = [f"seat {s}: {name}" for name, _ in names for s in seats]
        exact: list[Value] = [
            None if f == "paradox" else getattr(table.rows[s], f) for _, f in names for s in seats
        ]
        shown += _check_progress(calls, steps, exact)
    assert shown >= 200


def test_one_long_search_runs_off_the_main_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """With one job, the searches of a position with 5 or more tricks left run in a worker
    thread (the compiled core without the GIL: an application's other threads keep
    running), smaller ones here; the answers and nodes are those
    of the same searches run here."""
    warm_up()  # (its own tiny searches run here, on the first use in a process: the test
    # failed when it ran alone)
    where: list[bool] = []
    u = Search._u

    def spy(s: Search, r: int) -> bool:
        where.append(threading.current_thread() is threading.main_thread())
        return u(s, r)

    monkeypatch.setattr(Search, "_u", spy)
    for pos, hero in _mid_positions():
        where.clear()
        ans = solve(pos, hero, "tricks")
        if pos.tricks_left >= 5:  # the plays' searches off the main thread (the line here)
            assert where and not any(where[:2]), where
        else:
            assert where and all(where), where
        monkeypatch.setattr(threads_mod, "_LONG_FROM", 99)  # everything here: the same answer
        where.clear()
        here = solve(pos, hero, "tricks")
        monkeypatch.setattr(threads_mod, "_LONG_FROM", 5)
        assert all(where)
        assert (here.value, here.plays, here.pv, here.nodes) == (
            ans.value, ans.plays, ans.pv, ans.nodes
        )
    pos, hero = _mid_positions()[0]
    where.clear()
    table = dd_table(pos)
    assert table.rows and not where[0]


@cache
def _mid_positions() -> tuple[tuple[Position, int], ...]:
    """Positions at the first play of a trick with 4 or 5 tricks left on paradox-free
    lines (4 and 5 players), the hero to move: searches long enough (thousands to a
    million nodes) that plays searched at once really overlap."""
    out: list[tuple[Position, int]] = []
    for n, tl, seed in ((4, 5, 1), (4, 5, 2), (4, 4, 3), (5, 4, 4), (5, 4, 5), (3, 5, 6)):
        start, line = paradox_free_round(Ruleset(players=n), seed)
        pos = start
        for p in line:
            if pos.tricks_left == tl and not pos.trick:
                break
            pos = pos.after(p)
        out.append((pos, pos.to_move))
    return tuple(out)


def _same_answer(a: Answer, b: Answer) -> None:
    assert (a.value, a.plays, a.pv, a.bounds, a.pv_complete) == (
        b.value, b.plays, b.pv, b.bounds, b.pv_complete
    )


@pytest.mark.parametrize("jobs", [2, 3])
def test_plays_searched_at_once_give_the_same_answer(jobs: int) -> None:
    """``jobs`` plays searched at once, each thread with its own search: the value, every
    play's result and the line are the ones searched one after the other (the line's
    first play is chosen as principal_variation would, the rest from the search that
    solved it); so is every DD table."""
    for pos, hero in small_positions()[:60]:
        for q in questions_for(pos, hero):
            _same_answer(solve(pos, hero, q, jobs=jobs), solve(pos, hero, q))
        a, b = dd_table(pos, jobs=jobs), dd_table(pos)
        assert a.rows == b.rows
    for pos, hero in _mid_positions():
        for q in ("paradox", "tricks", "table"):
            one, many = solve(pos, hero, q), solve(pos, hero, q, jobs=jobs)
            _same_answer(many, one)
            end = pos
            for p in many.pv:  # a line to the end of the round (or a paradox), replayed
                end = end.play(p)  # through the rules engine: each play legal
            assert not end.legal_plays() and (q != "table" or end.tricks_left == 0)
            # best play on both sides: the line ends with the value (it was replayed with
            # the unchecked after() and its end never compared: an API audit found it)
            assert terminal_value(end, hero, q) == many.value, (q, many.value)


def _searches_under_way(
    monkeypatch: pytest.MonkeyPatch, pos: Position, hero: int, jobs: int
) -> tuple[int, list[list[int]]]:
    """Solve ``tricks`` with ``jobs`` and return how many exact searches started, and at
    each start the searches (by identity) then under way. The first exact search of each
    of the first ``jobs`` threads waits at a barrier for the others': they are then
    surely under way together, with no timing (a minute's timeout only if never)."""
    exact = Search.exact
    lock = threading.Lock()
    barrier = threading.Barrier(jobs, timeout=60)
    under_way: dict[int, int] = {}  # thread -> search
    together: list[list[int]] = []
    started: list[int] = []

    def counted(s: Search, *args: Any) -> Value:
        me = threading.get_ident()
        with lock:
            wait = me not in started and len(set(started)) < jobs
            started.append(me)
            under_way[me] = id(s)
            together.append(list(under_way.values()))
        if wait:
            barrier.wait()
        try:
            return exact(s, *args)
        finally:
            with lock:
                del under_way[me]

    monkeypatch.setattr(Search, "exact", counted)
    solve(pos, hero, "tricks", jobs=jobs)
    monkeypatch.setattr(Search, "exact", exact)
    return len(started), together


def test_plays_searched_at_once_overlap(monkeypatch: pytest.MonkeyPatch) -> None:
    """With 2 jobs the exact searches of two plays run at the same time, on two searches
    (in two threads: a thread runs one search at a time); with 1 job never. (The
    compiled core is readied first: run alone, the first solve would ready it with a
    search of its own, counted as a third.)"""
    warm_up()
    pos, hero = _mid_positions()[0]
    for jobs in (1, 2):
        count, together = _searches_under_way(monkeypatch, pos, hero, jobs)
        assert count >= 2
        assert max(len(t) for t in together) == jobs
        assert all(len(set(t)) == len(t) for t in together)
        assert len({sid for t in together for sid in t}) == jobs


def test_narrowing_first_changes_no_answer_and_its_ranges_hold_the_value(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the narrowing phase on from 1 trick left and searches of at most 3-40 nodes
    (so that most stop early), ``tricks`` and ``score`` answers (value, every play's
    value, the line) equal those without it, every step is announced, and the ranges
    narrow_u proves hold the plain minimax's value."""
    narrowed = cut = 0
    for k, (pos, hero) in enumerate(small_positions()[:120]):
        for q in ("tricks", "score"):
            if q not in questions_for(pos, hero):
                continue
            plain = solve(pos, hero, q)
            seen, record = _recorder()
            with monkeypatch.context() as m:
                m.setattr(dd_mod, "_NARROW_FROM", 1)
                m.setattr(dd_mod, "_NARROW_NODES", (3, 10, 40)[k % 3])
                got = solve(pos, hero, q, progress=record)
            assert got.value == plain.value, (repr(pos), hero, q)
            assert [r.result for r in got.plays] == [r.result for r in plain.plays]
            assert got.pv == plain.pv
            assert any(f": {q} range" in w for _, _, w in seen)
            assert seen[-1][0] == seen[-1][1]
        if pos.tricks_left < 2:
            continue
        for play in pos.legal_plays()[:3]:
            after = pos.after(play)
            exact = minimax(after, hero, "tricks")
            search = Search(after, hero)
            sign = search._u(0)
            lo, hi = search.narrow_u(sign, 5)
            assert search.partial is not None
            assert search.partial[0] <= exact <= search.partial[1], (repr(after), hero)
            assert search._final(lo) <= exact <= search._final(hi)
            narrowed += 1
            cut += lo < hi
    assert narrowed > 150 and cut > 20, (narrowed, cut)


class _CutAfter:
    """A deterministic timeout for searches in threads: every boolean search from the
    ``at``-th on (counted over all threads) raises the timeout, as a deadline passing
    there would."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, at: int) -> None:
        warmup.warm_up()  # (its searches, once per process, are not the solve's)
        self.calls = 0
        self.at = at
        self.lock = threading.Lock()
        for name in ("_u", "_s"):
            monkeypatch.setattr(Search, name, self._wrap(getattr(Search, name)))

    def _wrap(self, search_fn: Callable[[Search, int], bool]) -> Callable[[Search, int], bool]:
        def cut(s: Search, r: int) -> bool:
            with self.lock:
                self.calls += 1
                late = self.calls > self.at
            if late:
                raise OutOfTime
            return search_fn(s, r)

        return cut


def test_a_timeout_with_plays_searched_at_once_leaves_proven_ranges(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cut solves with 3 plays searched at once after 0, 1, 2, ... searches: each play is
    exact or has a range holding its exact value, the value is unknown with a range
    holding it, or (cut in the line) exact with the start of a best line. (How many
    searches a solve makes depends on which thread takes which play: cuts go a little
    beyond the count of a solve with one search at a time.)"""
    cuts = ranged = lines = 0
    for pos, hero in small_positions()[:30]:
        for q in ("tricks", "score"):
            if q not in questions_for(pos, hero):
                continue
            plays = pos.legal_plays()
            exact = [minimax(pos.after(p), hero, q) for p in plays]
            value = max(exact) if pos.to_move == hero else min(exact)
            total = 0
            with monkeypatch.context() as m:
                count = _CutAfter(m, 10**9)
                solve(pos, hero, q)
                total = count.calls
            for at in range(total + 3):
                with monkeypatch.context() as m:
                    _CutAfter(m, at)
                    ans = solve(pos, hero, q, jobs=3)
                cuts += 1
                if ans.value is not None and ans.pv_complete:
                    # the cut came after the last search: the threads' guesses differ,
                    # so the number of searches does too
                    assert ans.value == value and [r.result for r in ans.plays] == exact
                    continue
                if ans.value is not None and None not in [r.result for r in ans.plays]:
                    _check_cut_line(pos, hero, q, ans, value, exact)
                    lines += 1
                    continue
                _check_open_answer(q, ans, value)
                for r, x in zip(ans.plays, exact, strict=True):
                    if r.result is not None:
                        assert r.result == x and r.bounds is None
                    else:
                        assert r.bounds is not None and r.bounds[0] <= x <= r.bounds[1]
                        ranged += 1
    assert cuts >= 300 and ranged >= 500 and lines >= 50


def test_progress_with_plays_searched_at_once() -> None:
    """With 3 plays at once: every search is announced, the count of searches done never
    goes back, and the last call says all are done."""
    pos, hero = _mid_positions()[0]
    calls: list[tuple[int, int, str]] = []
    ans = solve(pos, hero, "tricks", progress=lambda d, t, w: calls.append((d, t, w)), jobs=3)
    total = 2 * len(ans.plays)  # (no mirror plays here: every play searched)
    assert _twins(pos, pos.legal_plays()).count(None) == len(ans.plays)
    assert calls[-1] == (total, total, "")
    done = [d for d, _, _ in calls]
    assert done == sorted(done) and all(t == total for _, t, _ in calls)
    for p in pos.legal_plays():
        assert f"{p.text}: paradox verdict" in {w for _, _, w in calls}
        assert f"{p.text}: exact tricks" in {w for _, _, w in calls}


def test_jobs_must_not_be_negative() -> None:
    pos, hero = small_positions()[0]
    with pytest.raises(SearchError, match="jobs must be 0"):
        solve(pos, hero, "paradox", jobs=-1)
    with pytest.raises(SearchError, match="jobs must be 0"):
        dd_table(pos, jobs=-2)
    # at most 64 at once: each search holds its own table (--jobs 100000 took 2.2 GB)
    with pytest.raises(SearchError, match=r"^jobs must be 0 \(one per core\) or 1 to 64, not 65$"):
        solve(pos, hero, "paradox", jobs=65)
    assert solve(pos, hero, "paradox", jobs=64).value == solve(pos, hero, "paradox").value
    assert solve(pos, hero, "paradox", jobs=0).value == solve(pos, hero, "paradox").value


_CTRL_C_CHILD = """
import sys
sys.path.insert(0, {tests!r})
from oracles.gen import start_position
from catbox_solver.model.rules import Ruleset
import json
from catbox_solver.dd.solve import solve
from catbox_solver.interrupt import Interrupted
pos = start_position(Ruleset(players=4), 7, distinct_discards=True)
solve(pos.after(pos.legal_plays()[0]), pos.to_move, "paradox")  # (the core loaded)
print("go", flush=True)
try:
    solve(pos, pos.to_move, "tricks", jobs={jobs})  # minutes
    print("finished", flush=True)
except Interrupted as e:
    print(json.dumps(e.partial.to_json()), flush=True)
    raise
"""


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_stops_a_long_solve(jobs: int) -> None:
    """Ctrl-C (SIGINT) during a solve of minutes with no timeout (a first lead, in a child
    process) stops it at once, and Interrupted (a KeyboardInterrupt) comes out of solve
    with what was proven by then: with one job the
    compiled core lets the handler run (it reads the clock through Python), with more the
    main thread's handler stops the workers' searches. Before, the process ran on until
    the search under way ended (over 120 s, measured). The bound is loose on purpose (not
    a timing test); the child is killed after 30 s so that a failure fails in time."""
    code = _CTRL_C_CHILD.format(tests=str(Path(__file__).parent), jobs=jobs)
    _, out, err, seconds = sigint_child(code, 0.5, go_on="stdout")
    assert seconds < 10 and "finished" not in out
    assert err.rstrip().endswith("Interrupted: stopped by Ctrl-C") and "SystemError" not in err
    # what was proven by then: the value unknown with a range, every play exact or ranged
    # (8 tricks left, none won: a paradox after 7 more tricks at worst, 8 tricks at best)
    partial = json.loads(out.splitlines()[-1])
    assert partial["value"] is None and -7 <= partial["bounds"][0] <= partial["bounds"][1] <= 8
    assert all(r["result"] is not None or "bounds" in r for r in partial["plays"])


def test_the_timeout_counts_from_a_ready_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """solve, value_only and dd_table make the compiled core ready before their clock
    starts: its first compile after an install (40 s to 2 minutes) would otherwise use up a
    timeout and turn the first answer into "unknown". Here making it ready takes 1.5 s
    and the timeout is 1 s."""
    from catbox_solver.dd import solve as dd

    calls: list[int] = []

    def make_ready() -> None:
        calls.append(1)
        time.sleep(1.5)

    monkeypatch.setattr(warmup, "_make_ready", make_ready)
    pos = position_from_notation(
        "3p official | R:...112 B:.22222 Y:.11011 G:0000.0 | 126 115 134 | G RY B | lead 1 "
        "| won 1 4 1 | bid 4 4 1 | left 2"
    )
    hero = pos.to_move
    answer = dd.solve(pos, hero, "tricks", timeout=1.0)
    assert answer.value == minimax(pos, hero, "tricks") and answer.seconds < 1.0
    assert dd.value_only(pos, hero, "paradox", timeout=1.0) == minimax(pos, hero, "paradox")
    table = dd.dd_table(pos, timeout=1.0)
    assert table.seconds < 1.0 and all(row.tricks is not None for row in table.rows)
    assert len(calls) == 3


def test_a_zero_timeout_answers_unknown() -> None:
    """With timeout 0 no search starts after the deadline and none keeps an answer found
    past it: the value and every play are unknown."""
    pos, hero = small_positions()[0]
    ans = solve(pos, hero, "tricks", timeout=0)
    assert ans.value is None and all(r.result is None for r in ans.plays)
