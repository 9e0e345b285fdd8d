"""Answers of the double-dummy search for callers: ``solve`` (the value, every play's
result and a line), ``value_only`` and ``dd_table`` (every seat), with timeouts that
leave proven ranges, Ctrl-C, progress and several plays or seats searched at once."""

from __future__ import annotations

import functools
import queue
import time
from collections.abc import Collection, Sequence
from dataclasses import replace

from catbox_solver.dd.answer import (
    Answer,
    DDTable,
    OutOfTime,
    PlayResult,
    Progress,
    TableRow,
    Value,
)
from catbox_solver.dd.checks import (
    check_hero,
    check_jobs,
    check_prediction,
    check_question,
    deadline_after,
)
from catbox_solver.dd.fast import FastState
from catbox_solver.dd.search import (
    Search,
    searches_stop_on_ctrl_c,
    terminal_value,
)
from catbox_solver.dd.threads import StopSignal, _long, _Steps, check_stop, watched_by
from catbox_solver.dd.warmup import search_clock
from catbox_solver.errors import SearchError
from catbox_solver.interrupt import Interrupted
from catbox_solver.model.position import Play, Position, need_position
from catbox_solver.questions import Question

# solve narrows each play's range from this many tricks left (the first lead of 4 and 5
# players), each short search within _NARROW_NODES nodes (see Search.narrow_u)
_NARROW_FROM = 7
_NARROW_NODES = 3_000_000


def _narrows(pos: Position) -> bool:
    """Does a compiled solve of ``pos`` narrow each play's range before its exact value
    (see Search.narrow_u)? From _NARROW_FROM tricks left, where exact values take
    minutes; below, the narrowing would only add searches to answers of seconds."""
    return pos.tricks_left >= _NARROW_FROM


def solve(
    pos: Position,
    hero: int,
    question: Question,
    timeout: float | None = None,
    progress: Progress | None = None,
    *,
    jobs: int = 1,
    stop: StopSignal | None = None,
    only: Collection[Play] | None = None,
) -> Answer:
    """Answer ``question`` for ``hero`` on ``pos``: the value, the value after each legal
    play of the player to move, a principal variation. ``timeout`` in seconds: when it
    passes, the value is None (unknown), unless the plays found by then decide it (see
    Answer). ``progress(done, total, what)`` is called as the
    plays of the player to move are searched (``tricks`` and ``score``: each play's
    paradox verdict, from the first lead each play's range by short searches, then each
    play's exact value, with its proven range as it narrows).
    ``jobs``: how many plays to search at once, each in
    a thread with its own search and table (0: one per core); the answer is the same.
    ``stop``: a :class:`StopSignal` that ends the solve early, as a timeout would.
    ``only``: search only these legal plays (and any play worth the same by symmetry);
    the others are left unknown as a timeout leaves them, and the value is known only
    when the plays searched decide it (the hero's one safe play decides ``paradox``)."""
    check_question(question)
    check_hero(pos, hero)
    jobs = check_jobs(jobs)
    if question == "score":
        check_prediction(pos, hero)
    check_stop(stop)
    start = search_clock()
    deadline = deadline_after(timeout, start)
    search = Search(pos, hero, deadline)
    plays = pos.legal_plays()
    to_move = pos.to_move
    if not plays:
        value = terminal_value(pos, hero, question)
        return Answer(question, hero, value, (), (), 0, time.perf_counter() - start, to_move)
    twins = _twins(pos, plays) if question != "score" else [None] * len(plays)
    searched = [i for i, twin in enumerate(twins) if twin is None]  # a twin takes its value
    if only is not None:
        wanted = _wanted(plays, twins, only)
        searched = [i for i in searched if i in wanted]
    every = len(searched) == sum(twin is None for twin in twins)  # every play searched
    # tricks and score: first the sign of every play (u >= 0, the paradox verdict), then
    # each play's exact value from there. The same searches as one play after another,
    # but a timeout leaves every play reached with a proven range, not only the first.
    # From the first lead (_NARROW_FROM tricks left), short searches from both ends of
    # each play's range come between the two (see Search.narrow_u): a timeout then
    # leaves narrower ranges.
    phases: tuple[str, ...] = ("exact",)
    if question in ("tricks", "score"):
        phases = ("sign", "narrow", "exact") if _narrows(pos) else ("sign", "exact")
    signs: dict[int, bool] = {}
    ranges: dict[int, tuple[int, int]] = {}
    narrowed: dict[int, tuple[int, int]] = {}  # a play's range of u from narrow_u
    found: dict[int, Value] = {}
    under_way: dict[int, tuple[int, int] | None] = {}  # a play cut short: its range then
    solved_by: dict[int, Search] = {}  # the search (and table) that found a play's value
    searches = [search] + [
        Search(pos, hero, deadline) for _ in range(min(jobs, len(searched)) - 1)
    ]
    free: queue.SimpleQueue[Search] = queue.SimpleQueue()
    for s in searches:
        free.put(s)
    # paradox and table: first one search of the position, which may decide every play
    whole = every and question in ("paradox", "table") and len(searched) > 1
    steps = _Steps(len(phases) * len(searched) + whole, progress, jobs, _long(pos))
    every_play: list[Value] = [None]
    whole_by: list[Search] = [search]  # (the search that ran it, whose table has the line)

    def step(phase: str, i: int) -> None:
        """Search play i's sign or exact value on a free search (its state is the
        position: each step makes the play and takes it back); phase "whole": the
        position itself (see _every_play)."""
        if steps.stopped:
            return
        s = free.get()
        try:
            if phase == "whole":
                steps.start(s, "every play: " + (
                    "paradox verdict" if question == "paradox" else "can all finish?"))
                every_play[0] = _every_play(s, question, to_move == hero)
                whole_by[0] = s
                steps.end()
                return
            what = f"{plays[i].text}: " + (
                "paradox verdict" if phase == "sign" or question == "paradox" else
                "can all finish?" if question == "table" else
                f"{question} range" if phase == "narrow" else f"exact {question}"
            )
            steps.start(s, what)
            s.st.push(plays[i])
            if phase == "sign":
                signs[i] = s._u(0)
                ranges[i] = s.sign_range(question, signs[i])
            elif phase == "narrow":
                ceiling = s._score_ceiling() if question == "score" else None
                try:
                    narrowed[i] = s.narrow_u(signs[i], _NARROW_NODES, ceiling)
                except OutOfTime:
                    under_way[i] = s.partial
                    raise
                assert s.partial is not None
                ranges[i] = s.partial
            else:
                s.partial = ranges.get(i)
                try:
                    found[i] = s.exact(question, signs.get(i), narrowed.get(i))
                except OutOfTime:
                    under_way[i] = s.partial
                    raise
                solved_by[i] = s
            s.st.pop()  # (after a timeout the state is dropped, not restored)
            steps.end()
        except OutOfTime:
            steps.stopped = True
            raise
        finally:
            free.put(s)

    # (Ctrl-C: Interrupted with what was proven)
    with watched_by(stop, searches), searches_stop_on_ctrl_c(searches) as guard:
        try:
            if whole:
                steps.run([functools.partial(step, "whole", -1)])
            if every_play[0] is not None:  # every play's value, from that one search
                found.update((i, every_play[0]) for i in searched)
                solved_by.update((i, whole_by[0]) for i in searched)
                phases = ()
            for phase in phases:
                steps.run([functools.partial(step, phase, i) for i in searched])
            if progress is not None:
                progress(steps.total, steps.total, "")
        except OutOfTime:
            answer = _cut_short(search, question, plays, twins, found, under_way, ranges,
                                len(phases) > 1)
        else:
            answer = (_with_line(search, question, plays, twins, found, solved_by)
                      if every else _cut_short(search, question, plays, twins, found,
                                               under_way, ranges, len(phases) > 1))
    answer = replace(answer, nodes=sum(s.nodes for s in searches),
                     seconds=time.perf_counter() - start)
    if guard.hit:
        raise Interrupted(answer)
    return answer


def _every_play(search: Search, question: Question, hero_moves: bool) -> Value:
    """The value of every play of the player to move when one search of the position
    proves it, else None. A ``paradox`` or ``table`` value is the OR of its plays' values
    for a player who wants it true (the hero avoiding a paradox; anyone at the table) and
    the AND for a coalition seat: a false OR makes every play false, a true AND every
    play true. Otherwise the search stopped at one play that decides the position, and
    its table is kept for the plays' own searches."""
    wants = question == "table" or hero_moves
    value = search.exact(question)
    return value if value != wants else None


def _wanted(plays: Sequence[Play], twins: Sequence[int | None],
            only: Collection[Play]) -> set[int]:
    """The indices of the plays to search for ``only``: each play's own, or the earlier
    play whose value it takes by symmetry."""
    wanted = set()
    for pl in only:
        if not isinstance(pl, Play) or pl not in plays:
            raise SearchError(f"only: {pl!r} is not a legal play here "
                              f"(one of {' '.join(p.text for p in plays)})")
        i = plays.index(pl)
        twin = twins[i]
        wanted.add(i if twin is None else twin)
    return wanted


def _cut_short(
    search: Search,
    question: Question,
    plays: Sequence[Play],
    twins: Sequence[int | None],
    found: dict[int, Value],
    under_way: dict[int, tuple[int, int] | None],
    ranges: dict[int, tuple[int, int]],
    ranged: bool,
) -> Answer:
    """The answer of a solve that ran out of time (or was stopped) before every play was
    known: the plays found, and for ``tricks`` and ``score`` (``ranged``) what the others
    were proven to give; nodes and time are the caller's to fill in."""
    pos, hero = search.pos, search.hero
    search.st = FastState(pos)  # (the state the timeout left is dropped)
    done: list[PlayResult] = []
    for i, twin in enumerate(twins):
        src = i if twin is None else twin  # the play searched for this one
        if src in found:
            done.append(PlayResult(plays[i], found[src]))
        elif not ranged:
            done.append(PlayResult(plays[i], None))
        else:
            # what the search had proven: a play under way its range so far, the others
            # their range from the sign, or from any outcome of the round
            rng = under_way[src] if src in under_way else ranges.get(src)
            if rng is None:
                search.st.push(plays[i])
                rng = search.sign_range(question, None)
                search.st.pop()
            done.append(PlayResult(plays[i], None, rng))
    bounds = None
    hero_moves = pos.to_move == hero
    if ranged:
        known = [r.bounds or (int(r.result or 0), int(r.result or 0)) for r in done]
        pick = max if hero_moves else min
        bounds = (pick(lo for lo, _ in known), pick(hi for _, hi in known))
    # the plays known may decide the value: then it has no range, and no line was searched
    value = _decided(question, hero_moves, done, bounds)
    open_value = value is None
    return Answer(question, hero, value, tuple(done), (), 0, 0.0, pos.to_move,
                  bounds if open_value else None, pv_complete=open_value)


def _decided(
    question: str, hero_moves: bool, done: Sequence[PlayResult],
    bounds: tuple[int, int] | None,
) -> Value:
    """The value of a position whose plays are not all known, when those known (or the
    ranges proven) decide it already, else None: ``tricks`` and ``score`` when the range
    ``bounds`` has closed; ``paradox`` when the player to move has a play known to give
    what it wants (the hero: avoiding a paradox; a coalition seat: forcing one);
    ``table`` when some play is known to let everyone finish."""
    if bounds is not None:
        return bounds[0] if bounds[0] == bounds[1] else None
    wanted = question == "table" or hero_moves
    if any(r.result is wanted for r in done):
        return wanted
    return None


def _with_line(
    search: Search,
    question: Question,
    plays: Sequence[Play],
    twins: Sequence[int | None],
    found: dict[int, Value],
    solved_by: dict[int, Search],
) -> Answer:
    """The answer of a solve whose every play is known: the value, and a best line. The
    line's first play is the first in the search order whose result is the value (what
    principal_variation would choose, without searching again) and the rest comes from the
    search that solved that play (with several searches, its table holds what the line
    needs). A timeout during the line keeps the value and the start of the line found so
    far (each of its plays keeps the value). Nodes and time are the caller's to fill in."""
    pos, hero = search.pos, search.hero
    results = [found[i if twin is None else twin] for i, twin in enumerate(twins)]
    value = _combine(question, pos.to_move == hero, results)
    pv: list[Play] = []
    try:
        if question != "table" or value:
            first = next(pl for pl in search._search_order(list(plays), pos.to_move, 1)
                         if results[plays.index(pl)] == value)
            i = plays.index(first)
            twin = twins[i]
            s = solved_by.get(i if twin is None else twin, search)
            s.st.push(first)
            pv.append(first)
            s.principal_variation(question, value, pv)
            s.st.pop()
        pv_complete = True
    except OutOfTime:
        pv_complete = False
    return Answer(
        question,
        hero,
        value,
        tuple(PlayResult(p, r) for p, r in zip(plays, results, strict=True)),
        tuple(pv),
        0,
        0.0,
        pos.to_move,
        pv_complete=pv_complete,
    )


def _twins(pos: Position, plays: Sequence[Play]) -> list[int | None]:
    """For each play, the index of an earlier play with the same value by the symmetry of
    blue, yellow and green, else None. Swapping two of these colors maps the position to
    itself when their rows of the research board have the same used cells, every seat
    holds both or neither, and the trick has neither; then the same card declared in the
    one or the other leads to mirror positions, worth the same for every question but
    ``score`` (whose bonus sees the owners and the order of the rows)."""
    used = pos.used
    swaps = set()
    for a in (1, 2, 3):
        for b in range(a + 1, 4):
            if any((used >> (4 * v + a) & 1) != (used >> (4 * v + b) & 1) for v in range(9)):
                continue
            if any((cm >> a & 1) != (cm >> b & 1) for cm in pos.colors):
                continue
            if any(pl.color in (a, b) for pl in pos.trick):
                continue
            swaps.add((a, b))
    first: dict[tuple[int, int], int] = {}
    out: list[int | None] = []
    for i, pl in enumerate(plays):
        twin = None
        for a, b in swaps:
            if pl.color == b and (pl.value, a) in first:
                twin = first[pl.value, a]
                break
            if pl.color == a and (pl.value, b) in first:
                twin = first[pl.value, b]
                break
        out.append(twin)
        first.setdefault((pl.value, pl.color), i if twin is None else twin)
    return out


def _combine(question: str, hero_moves: bool, results: list[Value]) -> Value:
    """The value of a position from the values after each play of the player to move."""
    if question == "table":
        return any(results)
    if question == "paradox":
        return any(results) if hero_moves else all(results)
    ints = [int(r) for r in results if r is not None]
    return max(ints) if hero_moves else min(ints)


def value_only(
    pos: Position,
    hero: int,
    question: Question,
    timeout: float | None = None,
) -> Value:
    """Just the value (no per-play values, no line): cheaper than :func:`solve`. Out of
    time: None, and nothing more; :func:`solve` keeps the range proven (``Answer.bounds``)."""
    check_question(question)
    check_hero(pos, hero)
    if question == "score":
        check_prediction(pos, hero)
    deadline = deadline_after(timeout, search_clock())
    search = Search(pos, hero, deadline)
    if not pos.legal_plays():
        return terminal_value(pos, hero, question)
    with searches_stop_on_ctrl_c([search]) as guard:
        try:
            value = search.exact(question)
        except OutOfTime:
            value = None
    if guard.hit:
        raise Interrupted(None)
    return value


def dd_table(
    pos: Position,
    timeout: float | None = None,
    progress: Progress | None = None,
    *,
    jobs: int = 1,
) -> DDTable:
    """For every seat as hero: the paradox verdict, the guaranteed trick points and the
    guaranteed score (None where the prediction is unknown). ``timeout`` covers the whole
    table; values not reached in time are None, and unknown trick points and scores come
    with the range proven. Question by question (every seat's paradox verdict first, then
    the trick points, then the scores), so that a timeout leaves each seat its answers
    to the easier questions; from the first lead (as in solve) every seat's trick points
    are first narrowed by short searches (Search.narrow_u) before any is searched
    exactly. Each seat keeps its own search (and table) throughout.
    ``jobs``: how many seats to search at once, in threads (0: one per core)."""
    need_position(pos, SearchError)
    jobs = check_jobs(jobs)
    start = search_clock()
    deadline = deadline_after(timeout, start)
    n = pos.rules.players
    terminal = not pos.legal_plays()
    searches = [Search(pos, seat, deadline) for seat in range(n)]
    vals: dict[tuple[int, str], Value] = {}
    ranges: dict[tuple[int, str], tuple[int, int]] = {}
    questions = ("paradox", "tricks", "score")
    # from the first lead every seat's trick points are narrowed by short searches
    # before any is searched exactly (as solve does for each play): a timeout then
    # leaves every seat a narrower range than its sign's
    phases: tuple[str, ...] = ("paradox", "narrow", "tricks", "score")
    if terminal or not _narrows(pos):
        phases = questions
    names = {"paradox": "paradox verdict", "narrow": "trick points range",
             "tricks": "trick points", "score": "score"}
    steps = _Steps(len(phases) * n, progress, jobs, _long(pos))

    def out_of_time(seat: int, q: str) -> None:
        """Seat ``seat``'s search ran out of time on ``q``: keep the range proven."""
        search = searches[seat]
        search.st = FastState(pos)
        if q != "paradox":
            # (tricks_exact and narrow_u note a range before their first search)
            ranges[seat, q] = search.partial or search.sign_range(q, None)
            search.partial = None

    def narrow(seat: int) -> None:
        """Narrow seat ``seat``'s trick points from both ends (Search.narrow_u)."""
        search = searches[seat]
        steps.start(search, f"seat {seat}: {names['narrow']}")
        try:
            sign = vals[seat, "paradox"]
            if sign is not None:
                search.narrow_u(bool(sign), _NARROW_NODES)
        except OutOfTime:
            out_of_time(seat, "tricks")
        finally:
            steps.end()

    def step(seat: int, q: str) -> None:
        """Seat ``seat``'s answer to ``q`` on its own search; out of time, the range."""
        search = searches[seat]
        steps.start(search, f"seat {seat}: {names[q]}")
        try:
            vals[seat, q] = None
            if q == "score":
                try:
                    check_prediction(pos, seat)
                except SearchError:
                    return
            if terminal:
                vals[seat, q] = terminal_value(pos, seat, q)
                return
            if (seat, q) in ranges:
                return  # out of time while narrowing: that range stands
            sign = vals[seat, "paradox"]
            # the range of u this seat's search proved last (narrowed; for the score, its
            # trick points' exact u or the range they reached when cut), where it goes on
            known = search.partial_u
            try:
                vals[seat, q] = search.exact(q, None if sign is None else bool(sign), known)
            except OutOfTime:
                out_of_time(seat, q)
        finally:
            steps.end()

    with searches_stop_on_ctrl_c(searches) as guard:
        for phase in phases:
            steps.run([
                functools.partial(narrow, seat) if phase == "narrow" else
                functools.partial(step, seat, phase) for seat in range(n)
            ])
    rows: list[TableRow] = []
    for seat in range(n):
        p, t, s = (vals[seat, q] for q in questions)
        rows.append(
            TableRow(
                seat,
                None if p is None else bool(p),
                None if t is None else int(t),
                None if s is None else int(s),
                ranges.get((seat, "tricks")),
                ranges.get((seat, "score")),
            )
        )
    nodes = sum(search.nodes for search in searches)
    if progress is not None:
        progress(steps.total, steps.total, "")
    table = DDTable(tuple(rows), nodes, time.perf_counter() - start)
    if guard.hit:
        raise Interrupted(table)
    return table
