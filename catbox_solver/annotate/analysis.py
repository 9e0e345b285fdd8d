"""Engine analysis of a played game: every play of a game record judged by the exact search.

For each play the position before it is solved double dummy
(:func:`catbox_solver.dd.solve.solve`) with the player who made it as hero: the value of
each of its legal plays for
the question (``paradox``: can it be sure never to cause a paradox; ``tricks``: its
guaranteed trick points; ``score``: its guaranteed round score), the value of the play
made, the best value and the best plays, and a mark:

- ``only``: one legal play, or every legal play worth the same;
- ``best``: the play made is worth the best value;
- ``blunder`` / ``mistake`` / ``inaccuracy``: the play made loses (paradox: a play after
  which the mover can no longer be sure to avoid a paradox, from a position where it
  could, is a blunder; tricks and score: by the size of the loss, see :data:`THRESHOLDS`);
- ``unknown``: the time limit left the values open so that the mark is not proven (the
  proven ranges are kept; a mark is only ever given when every value it could be has it).

With ``quick`` (paradox only) each play asks one search, with one table, only what its
mark needs: first the position before it, as a whole; if the mover cannot be safe there,
every play loses (``only``, each value proven False by that search). Otherwise the play
made: safe, it is ``best`` (no play can be better) and the other plays are not searched;
lost, it is a blunder, with the first safe play of a best line. A quick analysis so
gives every mark that a full one gives, except that ``best`` stands for "best or all
equal" where the full one may say ``only``, and the values of the plays a mark did not
need stay unsearched (``None``).

With ``hidden`` each play with a choice is also judged by what the mover could know
(single dummy over the deals consistent with its view, :func:`catbox_solver.dd.hidden.
single_dummy`): a double-dummy blunder that was the best bet is no mistake of the player.

The game is replayed through the referee's rules (:func:`catbox_solver.games.referee.
verify`): a record that does not verify is analysed up to its first illegal event.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

from catbox_solver.dd.answer import Answer, OutOfTime, PlayResult
from catbox_solver.dd.checks import check_jobs, deadline_after
from catbox_solver.dd.hidden import single_dummy
from catbox_solver.dd.search import Search, searches_stop_on_ctrl_c
from catbox_solver.dd.solve import solve
from catbox_solver.dd.threads import StopSignal, run_in_threads, watched_by
from catbox_solver.dd.warmup import search_clock
from catbox_solver.errors import SearchError
from catbox_solver.formats.notation import position_to_notation
from catbox_solver.formats.record import GameRecord, RoundRecord
from catbox_solver.games.game import hands_after_discards
from catbox_solver.games.referee import Verdict, verify
from catbox_solver.interrupt import Interrupted, ctrl_c_stops
from catbox_solver.model.numbers import check_int, check_seconds
from catbox_solver.model.position import Play, Position
from catbox_solver.questions import Question

QUESTIONS = ("paradox", "tricks", "score")
MARKS = ("blunder", "mistake", "inaccuracy", "best", "only", "unknown")
LOSING = ("blunder", "mistake", "inaccuracy")

THRESHOLDS: dict[str, tuple[int, int, int]] = {
    # question: (inaccuracy from, mistake from, blunder from), losses in the question's unit
    "paradox": (1, 1, 1),  # a loss is 1: safe -> no longer safe, always a blunder
    "tricks": (1, 2, 3),  # trick points
    "score": (1, 3, 5),  # round points
}
"""Where a loss (best value minus the value of the play made) becomes an inaccuracy, a
mistake and a blunder, for each question."""

HIDDEN_THRESHOLDS: dict[str, tuple[Fraction, Fraction]] = {
    # question: (mistake from, blunder from); any smaller loss above 0 is an inaccuracy
    "paradox": (Fraction(1, 10), Fraction(1, 4)),  # share of the deals kept safe
    "tricks": (Fraction(1), Fraction(2)),  # mean trick points
    "score": (Fraction(2), Fraction(4)),  # mean round points
}
"""The marks of the single-dummy verdict (``hidden``): the loss is the best play's share
(paradox) or mean value minus the play made's, over the same deals."""

Progress = Callable[[int, int, str], None]  # progress(plays done, plays in all, now)


def mark_for_loss(question: str, loss: int) -> str:
    """The mark of a known loss (0: ``best``)."""
    if loss <= 0:
        return "best"
    inaccuracy, mistake, blunder = THRESHOLDS[question]
    return "blunder" if loss >= blunder else "mistake" if loss >= mistake else "inaccuracy"


def hidden_mark(question: str, loss: Fraction) -> str:
    """The single-dummy mark of a loss in share or mean value (0: ``best``)."""
    if loss <= 0:
        return "best"
    mistake, blunder = HIDDEN_THRESHOLDS[question]
    return "blunder" if loss >= blunder else "mistake" if loss >= mistake else "inaccuracy"


def _interval(question: str, r: PlayResult) -> tuple[int, int] | None:
    """What a play is proven to be worth, as a range (paradox: 0 lost, 1 safe)."""
    if r.result is not None:
        return int(r.result), int(r.result)
    if r.bounds is not None:
        return r.bounds
    return (0, 1) if question == "paradox" else None


def judge(
    question: str, results: Sequence[PlayResult], played: Play
) -> tuple[str, tuple[int, int] | None]:
    """The mark of ``played`` among the mover's ``results`` (every legal play), and the
    range its loss is proven to lie in (None when unbounded). The mark is ``unknown``
    unless every loss in that range has the same mark."""
    if question not in QUESTIONS:
        raise SearchError(f"unknown question {question!r} (one of {', '.join(QUESTIONS)})")
    known = [r.result for r in results]
    if len(results) == 1 or (None not in known and len(set(known)) == 1):
        return "only", (0, 0)
    ranges = [_interval(question, r) for r in results]
    mine = next(rng for r, rng in zip(results, ranges, strict=True) if r.play == played)
    if mine is None or any(rng is None for rng in ranges):
        return "unknown", None
    best_lo = max(rng[0] for rng in ranges if rng is not None)
    best_hi = max(rng[1] for rng in ranges if rng is not None)
    loss = (max(0, best_lo - mine[1]), best_hi - mine[0])
    low, high = mark_for_loss(question, loss[0]), mark_for_loss(question, loss[1])
    return (low if low == high else "unknown"), loss


@dataclass(frozen=True)
class HiddenNote:
    """The single-dummy verdict of a play: ``share_played`` and ``share_best`` (paradox:
    the share of the deals where the play keeps the mover safe; tricks, score: the mean
    value), the best bets, the mark of the loss, and how many deals were weighed
    (``exact``: every deal the mover could not tell apart; else drawn at random)."""

    share_played: Fraction | None
    share_best: Fraction | None
    best: tuple[Play, ...]
    mark: str
    deals: int
    exact: bool
    complete: bool

    def to_json(self) -> dict[str, Any]:
        def num(x: Fraction | None) -> float | None:
            return None if x is None else round(float(x), 6)

        return {
            "share_played": num(self.share_played),
            "share_best": num(self.share_best),
            "fraction_played": None if self.share_played is None else str(self.share_played),
            "fraction_best": None if self.share_best is None else str(self.share_best),
            "best": [p.text for p in self.best],
            "mark": self.mark,
            "deals": self.deals,
            "method": "exact" if self.exact else "sampled",
            "complete": self.complete,
        }


@dataclass(frozen=True)
class PlayNote:
    """One play of the game judged: where it was made (``round``, ``trick`` from 1,
    ``seat``), the position before it, every legal play's value (``values``, as
    :class:`~catbox_solver.dd.solve.PlayResult`: a result, or None with the proven
    range), the value of the play made and the best value (None when unknown, with
    ``bounds_played`` / ``bounds_best``), the best plays (those known to reach the best
    value), the ``mark``, the ``loss`` range, ``line``: the best line of play after the
    play made (for a losing play, what refutes it), ``better``: a best line from the
    position, the single-dummy verdict when asked, and ``every_value``: were all the
    legal plays' values asked for (False when a quick analysis did not need them)."""

    round: int
    trick: int
    seat: int
    play: Play
    position: Position
    values: tuple[PlayResult, ...]
    value_played: bool | int | None
    value_best: bool | int | None
    bounds_played: tuple[int, int] | None
    bounds_best: tuple[int, int] | None
    best: tuple[Play, ...]
    mark: str
    loss: tuple[int, int] | None
    line: tuple[Play, ...]
    better: tuple[Play, ...]
    seconds: float
    hidden: HiddenNote | None = None
    every_value: bool = True

    @property
    def open(self) -> bool:
        """Is anything asked of this play left unknown by the time limit? Every legal
        play's value when ``every_value``; else (a quick analysis) the play's mark."""
        if not self.every_value:
            return self.mark == "unknown"
        return self.value_best is None or any(r.result is None for r in self.values)

    def to_json(self) -> dict[str, Any]:
        row: dict[str, Any] = {
            "round": self.round,
            "trick": self.trick,
            "seat": self.seat,
            "play": self.play.text,
            "position": position_to_notation(self.position),
            "value_played": self.value_played,
            "value_best": self.value_best,
            "best": [p.text for p in self.best],
            "mark": self.mark,
            "loss": None if self.loss is None or self.loss[0] != self.loss[1] else self.loss[0],
        }
        if self.value_played is None and self.bounds_played is not None:
            row["bounds_played"] = list(self.bounds_played)
        if self.value_best is None and self.bounds_best is not None:
            row["bounds_best"] = list(self.bounds_best)
        if self.loss is not None and self.loss[0] != self.loss[1]:
            row["loss_bounds"] = list(self.loss)
        values = []
        for r in self.values:
            v: dict[str, Any] = {"play": r.play.text, "value": r.result}
            if r.bounds is not None:
                v["bounds"] = list(r.bounds)
            values.append(v)
        row["values"] = values
        row["line"] = [p.text for p in self.line]
        row["better"] = [p.text for p in self.better]
        row["hidden"] = None if self.hidden is None else self.hidden.to_json()
        row["every_value"] = self.every_value
        row["seconds"] = round(self.seconds, 6)
        return row


@dataclass(frozen=True)
class SeatSummary:
    """One seat's analysis: how many plays got each mark (``hidden_marks``: by the
    single-dummy verdict), ``avoidable_paradoxes`` (paradox question: rounds where the
    seat caused the paradox after a blunder of its own that round; else None),
    ``given_away`` (tricks, score: the trick points or points lost by its plays whose loss
    is known; paradox: None) and ``excused``: its double-dummy losing plays that were the
    best bet over what it could see."""

    seat: int
    name: str | None
    marks: dict[str, int]
    hidden_marks: dict[str, int] | None
    avoidable_paradoxes: int | None
    given_away: int | None
    excused: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "marks": self.marks,
            "hidden_marks": self.hidden_marks,
            "avoidable_paradoxes": self.avoidable_paradoxes,
            "given_away": self.given_away,
            "excused": self.excused,
        }


@dataclass(frozen=True)
class Analysis:
    """A game analysed: the ``notes`` of the plays judged, in order; ``total``: the plays
    that were to be judged (all the legal ones of the record); ``verdict``: the referee's
    (when not valid, the plays after its first illegal event are not judged);
    ``complete``: every play to be judged was (False after Ctrl-C)."""

    record: GameRecord
    question: str
    hidden: bool
    notes: tuple[PlayNote, ...]
    total: int
    verdict: Verdict
    complete: bool
    seconds: float

    @property
    def unknown(self) -> int:
        """Plays with a value the time limit left unknown."""
        return sum(n.open for n in self.notes) + sum(
            n.hidden is not None and (not n.hidden.complete or n.hidden.mark == "unknown")
            for n in self.notes
        )

    def summary(self) -> tuple[SeatSummary, ...]:
        players = self.record.rules.players
        names = self.record.names
        caused = {r.number: r.paradox_by for r in self.verdict.rounds}
        out = []
        for seat in range(players):
            mine = [n for n in self.notes if n.seat == seat]
            marks = {m: sum(n.mark == m for n in mine) for m in MARKS}
            hidden_marks = excused = None
            if self.hidden:
                hidden_marks = {m: sum(n.hidden is not None and n.hidden.mark == m
                                       for n in mine) for m in MARKS}
                excused = sum(n.mark in LOSING and n.hidden is not None
                              and n.hidden.mark == "best" for n in mine)
            avoidable = given = None
            if self.question == "paradox":
                blundered = {n.round for n in mine if n.mark == "blunder"}
                avoidable = sum(caused.get(r) == seat for r in blundered)
            else:
                given = sum(n.loss[0] for n in mine
                            if n.loss is not None and n.loss[0] == n.loss[1])
            out.append(SeatSummary(seat, None if names is None else names[seat], marks,
                                   hidden_marks, avoidable, given, excused))
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        v = self.verdict
        return {
            "question": self.question,
            "players": self.record.rules.players,
            "ruleset": self.record.rules.name,
            "hidden": self.hidden,
            "plays": [n.to_json() for n in self.notes],
            "summary": {
                "plays": self.total,
                "analysed": len(self.notes),
                "unknown": self.unknown,
                "complete": self.complete,
                "seats": [s.to_json() for s in self.summary()],
            },
            "verdict": {"valid": v.valid, "message": None if v.valid else str(v)},
            "seconds": round(self.seconds, 6),
        }


# ---- the replay ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """A legal play of the record and the position before it; ``discard``: the mover's
    own discarded value (which it knows, for the single-dummy verdict)."""

    round: int
    trick: int
    seat: int
    play: Play
    position: Position
    discard: int


def _first_position(record: GameRecord, r: RoundRecord) -> Position:
    rules = record.rules
    hands = hands_after_discards(r.deal, r.discards)
    return Position.new_round(rules, hands, r.start, r.predictions,
                              neutral_values=r.leftover[: rules.neutral_tokens])


def replay(record: GameRecord, verdict: Verdict | None = None) -> list[Step]:
    """The plays of ``record`` with the position before each, up to the referee's first
    illegal event (``verdict``: verify's, computed when not given): the rounds before its
    round whole, and in its round the plays before it (none when the round's setup is
    at fault)."""
    if verdict is None:
        verdict = verify(record)
    steps: list[Step] = []
    for r in record.rounds:
        bad_round = not verdict.valid and r.number == verdict.round
        if bad_round and (verdict.line is None or any(
            verdict.line == r.line(f) for f in ("round", "start", "deal", "discards",
                                                 "leftover", "neutral", "predictions"))):
            break  # (the setup is at fault: no position to judge)
        if not verdict.valid and verdict.round is not None and r.number > verdict.round:
            break
        pos = _first_position(record, r)
        for t, trick in enumerate(r.tricks, 1):
            for seat, play in trick:
                if (pos.tricks_left == 0 or seat != pos.to_move
                        or pos.why_illegal(play) is not None):
                    return steps
                steps.append(Step(r.number, t, seat, play, pos, r.discards[seat]))
                pos = pos.after(play)
        if bad_round:
            break
    return steps


# ---- judging one play ---------------------------------------------------------------------
def _line_after(
    pos: Position, play: Play, hero: int, question: str, value: bool | int,
    timeout: float | None, stop: StopSignal | None,
) -> tuple[Play, ...]:
    """``play`` and a best line of play after it, the value after it being ``value``
    (what refutes a losing play): one step at a time, each the first play in search
    order that keeps the value (Search.principal_variation), far cheaper than solving
    every reply. Out of time: the line as far as it was found."""
    line = [play]
    if pos.after(play).is_over:
        return (play,)
    search = Search(pos, hero, deadline_after(timeout, search_clock()))
    search.st.push(play)
    with _watched(search, stop):
        try:
            search.principal_variation(question, value, line)
        except OutOfTime:
            pass
    return tuple(line)


@contextlib.contextmanager
def _watched(search: Search, stop: StopSignal | None) -> Iterator[None]:
    """Run a search that ``stop`` and Ctrl-C (in the main thread: :class:`Interrupted`
    after it) both end, as a timeout would."""
    with watched_by(stop, [search]), searches_stop_on_ctrl_c([search]) as guard:
        yield
    if guard.hit:
        raise Interrupted(None)


def judge_step(
    step: Step,
    question: str,
    timeout: float | None = None,
    hidden: bool = False,
    samples: int = 100,
    seed: int = 0,
    stop: StopSignal | None = None,
    quick: bool = False,
) -> PlayNote:
    """Judge one play: solve the position before it for the mover (``timeout`` seconds
    for each search), mark the play, find the line after it (for a losing play) and,
    with ``hidden``, the single-dummy verdict. ``quick`` (paradox): the play made is
    searched as far as its mark needs, the position before it first (see the module's
    docstring). Ctrl-C in the main thread raises :class:`Interrupted`."""
    started = time.perf_counter()
    pos, hero = step.position, step.seat
    _check_quick(quick, question)
    if quick:
        answer = _quick_answer(step, timeout, stop)
    else:
        answer = solve(pos, hero, cast(Question, question), timeout, stop=stop)
    every_value = not quick or all(r.result is not None for r in answer.plays)
    played = next(r for r in answer.plays if r.play == step.play)
    mark, loss = judge(question, answer.plays, step.play)
    best: tuple[Play, ...] = ()
    if answer.value is not None:
        best = tuple(r.play for r in answer.plays if r.result == answer.value)
    line: tuple[Play, ...] = ()
    if mark in LOSING and played.result is not None:
        line = _line_after(pos, step.play, hero, question, played.result, timeout, stop)
    hidden_note = None
    if hidden and len(answer.plays) > 1:
        hidden_note = _hidden(step, question, samples, seed, timeout, stop)
    return PlayNote(
        round=step.round, trick=step.trick, seat=hero, play=step.play, position=pos,
        values=answer.plays, value_played=played.result, value_best=answer.value,
        bounds_played=played.bounds, bounds_best=answer.bounds, best=best, mark=mark,
        loss=loss, line=line, better=answer.pv, seconds=time.perf_counter() - started,
        hidden=hidden_note, every_value=every_value,
    )


def _check_quick(quick: bool, question: str) -> None:
    """A quick analysis answers the paradox question only."""
    if quick and question != "paradox":
        raise SearchError(f"a quick analysis is for the paradox question, not {question!r}")


def _quick_answer(step: Step, timeout: float | None, stop: StopSignal | None) -> Answer:
    """The paradox answer a quick analysis needs for ``step``, from one search with one
    table and ``timeout``: first the position before the play; not safe there means every
    play loses (each value False, proven by that search): ``only``. Safe, then the play
    made: safe too, ``best``; lost, a blunder, with the first safe play of a best line.
    The plays not searched stay unknown."""
    pos, hero, played = step.position, step.seat, step.play
    begun = search_clock()
    search = Search(pos, hero, deadline_after(timeout, begun))
    value: bool | None = None
    mine: bool | None = None
    line: list[Play] = []
    line_done = True  # (False: the time ran out inside the line)
    with _watched(search, stop):
        try:
            value = bool(search.exact("paradox"))
            if value:
                search.st.push(played)
                mine = bool(search.exact("paradox"))
                search.st.pop()
                if not mine:
                    line_done = False
                    search.principal_variation("paradox", True, line)
                    line_done = True
        except OutOfTime:
            pass
    plays = pos.legal_plays()
    if value is False:
        results = [PlayResult(p, False) for p in plays]
    else:
        safe = line[0] if line else None  # (a safe play other than the one made)
        results = [PlayResult(p, mine if p == played else True if p == safe else None)
                   for p in plays]
    return Answer("paradox", hero, value, tuple(results), tuple(line), search.nodes,
                  time.perf_counter() - begun, pos.to_move, pv_complete=line_done)


def _hidden(step: Step, question: str, samples: int, seed: int,
            timeout: float | None, stop: StopSignal | None) -> HiddenNote:
    sd = single_dummy(step.position, step.seat, question, samples=samples, seed=seed,
                      discard=(step.discard,), timeout=timeout, stop=stop)
    if not sd.weight:
        return HiddenNote(None, None, (), "unknown", 0, sd.exact, sd.complete)
    shares = {p.play: p.share for p in sd.plays}
    top = max(shares.values())
    mine = shares[step.play]
    best = tuple(sorted(p for p, s in shares.items() if s == top))
    return HiddenNote(mine, top, best, hidden_mark(question, top - mine), sd.deals,
                      sd.exact, sd.complete and not sd.undecided)


# ---- the whole game -----------------------------------------------------------------------
class AnalysisInterrupted(Interrupted):
    """Ctrl-C stopped the analysis: ``partial`` is the :class:`Analysis` of the plays
    judged by then."""


def analyse_game(
    record: GameRecord,
    question: str = "paradox",
    timeout_per_play: float | None = None,
    hidden: bool = False,
    samples: int = 100,
    seed: int = 0,
    jobs: int = 1,
    progress: Progress | None = None,
    *,
    rounds: Sequence[int] | None = None,
    tricks: tuple[int, int] | None = None,
    quick: bool = False,
) -> Analysis:
    """Judge every play of ``record`` for ``question`` (see the module's docstring).

    ``timeout_per_play``: seconds for each search of a play (the solve of the position,
    the line after the play, the single-dummy odds); a value left open is unknown, with
    its proven range. ``hidden``: add the single-dummy verdict (``samples`` deals drawn
    from ``seed`` when there are more deals than that, else each once, exactly).
    ``jobs``: how many plays to judge at once, each in a thread (0: one per core); the
    analysis is the same. ``progress(done, total, what)`` after each play. ``rounds``:
    judge only the plays of these rounds (numbered from 1); ``tricks`` (first, last):
    only those of these tricks of each round (the end of a round is quick to judge, its
    first lead the slowest). ``quick`` (paradox): search only what each mark needs (see
    the module's docstring). Ctrl-C raises :class:`AnalysisInterrupted` with the plays
    judged by then."""
    if not isinstance(record, GameRecord):
        raise SearchError(f"a GameRecord is needed, not {type(record).__name__}")
    if question not in QUESTIONS:
        raise SearchError(f"unknown question {question!r} (one of {', '.join(QUESTIONS)})")
    _check_quick(quick, question)
    if timeout_per_play is not None:
        check_seconds(timeout_per_play)
    check_int(samples, "samples", 1, 10**7)
    check_int(seed, "seed")
    jobs = check_jobs(jobs)
    started = time.perf_counter()
    verdict = verify(record)
    if rounds is not None:
        for r in rounds:
            check_int(r, "round", 1)
    if tricks is not None:
        if not (isinstance(tricks, tuple) and len(tricks) == 2):
            raise SearchError(f"tricks is a (first, last) pair, not {tricks!r}")
        for t in tricks:
            check_int(t, "trick", 1)
    steps = [s for s in replay(record, verdict)
             if (rounds is None or s.round in rounds)
             and (tricks is None or tricks[0] <= s.trick <= tricks[1])]
    notes: dict[int, PlayNote] = {}
    lock = threading.Lock()

    def result(complete: bool) -> Analysis:
        done = tuple(notes[i] for i in sorted(notes))
        return Analysis(record, question, hidden, done, len(steps), verdict, complete,
                        time.perf_counter() - started)

    def report(i: int) -> None:
        if progress is not None:
            with lock:
                s = steps[i]
                progress(len(notes), len(steps), f"round {s.round} trick {s.trick} "
                         f"{s.seat}:{s.play.text}")

    if jobs == 1:
        try:
            for i, step in enumerate(steps):
                notes[i] = judge_step(step, question, timeout_per_play, hidden, samples, seed,
                                      quick=quick)
                report(i)
        except KeyboardInterrupt:  # (in a search: Interrupted; between two: plain)
            raise AnalysisInterrupted(result(False)) from None
        return result(True)

    signal = StopSignal()

    def one(i: int) -> None:
        if signal.stopped:
            return
        note = judge_step(steps[i], question, timeout_per_play, hidden, samples, seed, signal,
                          quick)
        cut = note.open or note.mark == "unknown" or (
            note.hidden is not None and not note.hidden.complete)
        if signal.stopped and cut:
            return  # cut short by Ctrl-C, not by the time limit: not kept
        with lock:
            notes[i] = note
        report(i)

    with ctrl_c_stops(signal.stop) as guard:
        try:
            errors = run_in_threads([functools.partial(one, i) for i in range(len(steps))],
                                    jobs)
        except KeyboardInterrupt:
            signal.stop()
            raise AnalysisInterrupted(result(False)) from None
    if errors:
        raise errors[0]
    if guard.hit:
        raise AnalysisInterrupted(result(False))
    return result(True)
