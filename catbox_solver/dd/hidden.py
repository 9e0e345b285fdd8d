"""Hidden hands: a seat's odds over the deals it cannot tell apart (single dummy).

At the table a player sees its own hand, the research board (the trick under way is on
it), every seat's colors, the tricks won and the predictions; the other hands are hidden.
As bridge players do with a double-dummy solver, the odds of each play are measured over
the deals consistent with what the seat sees: each such deal is solved double dummy
(:func:`catbox_solver.dd.solve.solve`, the seat as hero against the coalition of the
others) and the results are weighted by how likely the deal is.

The deals: the values the seat cannot see (five copies of each value, less its own hand
and the tokens on the board, less its own discard when given) are dealt at random to the
other seats, each keeping its hand size; the cards left over are the unseen discards and,
with 2 players, the two leftover cards not revealed. Every deal of the physical cards is
equally likely, so a deal of values counts with the number of ways its cards can be
dealt. Nothing is inferred from how the others played: a position does not hold the plays
that led to it, and most plays say nothing about the cards kept (a follower may declare
any color). A few do: a red lead before red was broken says that the leader had no other
lead, and under the must-follow reading leaving the led color says that the seat could
not follow; such hints are not used.

Two ways to weigh them: :func:`single_dummy` with ``exact=True`` enumerates every
consistent deal with its exact weight (small cases: late in a round), otherwise it draws
``samples`` deals at random (seeded). Each deal's answer is exact and comes from the
double-dummy search; what is estimated is only the share of deals.

Solving each deal double dummy assumes that, after this play, the seat sees every card
(and so do the others), as in bridge's double-dummy simulations: the odds are an
optimistic measure for the seat, best used to compare its plays.
"""

from __future__ import annotations

import functools
import math
import random
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

from catbox_solver.dd.answer import Progress
from catbox_solver.dd.checks import check_hero, check_jobs, check_prediction, deadline_after
from catbox_solver.dd.solve import solve
from catbox_solver.dd.threads import StopSignal, check_stop, run_in_threads
from catbox_solver.dd.warmup import search_clock
from catbox_solver.errors import PositionError, SearchError
from catbox_solver.interrupt import Interrupted, ctrl_c_stops
from catbox_solver.model.numbers import check_int
from catbox_solver.model.position import Play, Position
from catbox_solver.questions import Question

HIDDEN_QUESTIONS = ("paradox", "tricks", "score")
"""The questions a seat can ask about its own odds (``table`` is no one seat's)."""

MAX_EXACT_DEALS = 20_000
"""The most deals :func:`single_dummy` enumerates with ``exact=True`` by default."""


def unseen_values(pos: Position, seat: int, discard: Sequence[int] = ()) -> Counter[int]:
    """The values ``seat`` cannot see, with their number of copies: the other hands, the
    discards and, with 2 players, the two leftover cards not revealed. ``discard``: the
    seat's own discarded values, which it knows (SearchError if they cannot be its)."""
    check_hero(pos, seat)
    rules = pos.rules
    left: Counter[int] = Counter()
    for v in range(1, rules.values + 1):
        on_board = bin(pos.used >> (4 * v - 4) & 15).count("1")
        left[v] = rules.copies - on_board - pos.hands[seat].count(v)
    if not isinstance(discard, (tuple, list)):
        raise SearchError(f"the seat's discard is a list of values, not {discard!r}")
    if len(discard) > 1:
        raise SearchError(f"a seat discards one card, not {len(discard)}")
    for v in discard:
        check_int(v, "the discarded value", 1, rules.values, error=SearchError)
        if left[v] <= 0:
            raise SearchError(f"the discarded value {v} cannot be the seat's: all "
                              f"{rules.copies} copies are seen elsewhere")
        left[v] -= 1
    return +left


def _others(pos: Position, seat: int) -> list[int]:
    return [s for s in range(pos.players) if s != seat]


def _with_hands(pos: Position, hands: dict[int, tuple[int, ...]]) -> Position | None:
    """``pos`` with the given seats' hands replaced, or None when the rules rule that deal
    out: the position's own check replays the trick under way (its lead was legal: a red
    lead before red was broken needs a leader with no other lead; under must-follow a seat
    that left the led color could not follow) and, with one trick played, that trick."""
    try:
        return Position(
            pos.rules, pos.owners, pos.neutral,
            [hands.get(s, h) for s, h in enumerate(pos.hands)],
            pos.colors, pos.leader, pos.trick, pos.tricks_won, pos.predictions,
            pos.tricks_left,
        )
    except PositionError:
        return None


MAX_DRAWS = 100_000
"""The most deals :func:`sample_deal` draws for one that the rules allow."""


def sample_deal(
    pos: Position, seat: int, rng: random.Random, discard: Sequence[int] = ()
) -> Position:
    """One deal consistent with what ``seat`` sees, drawn uniformly over the deals of the
    physical cards that the rules allow: the unseen cards shuffled and dealt to the other
    seats, each keeping its hand size, again until the position's check passes (see
    :func:`consistent_deals`). SearchError if none of :data:`MAX_DRAWS` draws does."""
    return next(_sampled_deals(pos, seat, rng, discard))


def _sampled_deals(
    pos: Position, seat: int, rng: random.Random, discard: Sequence[int] = ()
) -> Iterator[Position]:
    """:func:`sample_deal` again and again, the unseen cards found once."""
    unseen = sorted(unseen_values(pos, seat, discard).elements())
    others = _others(pos, seat)
    while True:
        pool = list(unseen)
        for _ in range(MAX_DRAWS):
            rng.shuffle(pool)
            hands: dict[int, tuple[int, ...]] = {}
            at = 0
            for s in others:
                size = len(pos.hands[s])
                hands[s] = tuple(pool[at:at + size])
                at += size
            deal = _with_hands(pos, hands)
            if deal is not None:
                yield deal
                break
        else:
            raise SearchError(f"none of {MAX_DRAWS:,} random deals passes the position's "
                              "check (the trick under way rules most out): weigh them all "
                              "with exact")


def consistent_deals(
    pos: Position, seat: int, discard: Sequence[int] = ()
) -> Iterator[tuple[Position, int]]:
    """Every deal consistent with what ``seat`` sees, once each, with its weight: the
    number of ways to deal the unseen physical cards that give it. A deal the rules rule
    out is left out: the position's own check replays the trick under way with the hands
    dealt (a red lead before red was broken, legal only for a leader with no other lead;
    under must-follow a seat that left the led color) and, with one trick played, that
    trick. So the weights add up to :func:`deal_ways` (``multinomial(unseen; each other
    hand's size, the rest)``) or less."""
    pool = unseen_values(pos, seat, discard)
    others = _others(pos, seat)
    values = sorted(pool)
    after = [sum(pool[w] for w in values[i:]) for i in range(len(values) + 1)]

    def deal(i: int, room: tuple[int, ...]) -> Iterator[tuple[tuple[tuple[int, ...], ...], int]]:
        """Each way to deal values[i:] into the room left in the hands: how many copies of
        each value each hand takes, and the ways to deal the cards so."""
        if i == len(values):
            yield (), 1
            return
        copies = pool[values[i]]
        for left in _shares(copies, room):
            if sum(left) > after[i + 1]:  # (the later values cannot fill the hands)
                continue
            takes = tuple(r - k for r, k in zip(room, left, strict=True))
            ways, free = 1, copies
            for take in takes:
                ways *= math.comb(free, take)
                free -= take
            for rest, more in deal(i + 1, left):
                yield (takes, *rest), ways * more

    for takes, weight in deal(0, tuple(len(pos.hands[s]) for s in others)):
        hands = {
            s: tuple(v for v, t in zip(values, takes, strict=True) for _ in range(t[k]))
            for k, s in enumerate(others)
        }
        made = _with_hands(pos, hands)
        if made is not None:
            yield made, weight


def deal_count(pos: Position, seat: int, discard: Sequence[int] = ()) -> int:
    """How many different deals of the unseen values there are, counted without making
    them (a dynamic program over the values and the room left in each hand): what
    :func:`consistent_deals` gives, and more when the trick under way rules some out."""
    pool = unseen_values(pos, seat, discard)
    values = sorted(pool)
    after = [sum(pool[w] for w in values[i:]) for i in range(len(values) + 1)]
    memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def count(i: int, room: tuple[int, ...]) -> int:
        if sum(room) > after[i]:
            return 0  # (the values left cannot fill the hands)
        if i == len(values):
            return 1
        # the count is the same for the hands' room in any order: memo on it sorted (5
        # players from the first lead: 2.9 s -> a few ms)
        key = (i, tuple(sorted(room)))
        if key not in memo:
            memo[key] = sum(count(i + 1, r) for r in _shares(pool[values[i]], room))
        return memo[key]

    return count(0, tuple(len(pos.hands[s]) for s in _others(pos, seat)))


def _shares(copies: int, room: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every way to give some of ``copies`` to hands with ``room`` left (the rest unseen):
    the room left after it."""
    if not room:
        yield ()
        return
    for take in range(min(copies, room[0]) + 1):
        for rest in _shares(copies - take, room[1:]):
            yield (room[0] - take, *rest)


def deal_ways(pos: Position, seat: int, discard: Sequence[int] = ()) -> int:
    """How many ways the unseen physical cards can be dealt to the other hands:
    ``unseen! / (each hand's size! * the rest!)`` (the sum of :func:`consistent_deals`'
    weights, when the trick under way rules no deal out)."""
    unseen = sum(unseen_values(pos, seat, discard).values())
    ways = 1
    for s in _others(pos, seat):
        size = len(pos.hands[s])
        ways *= math.comb(unseen, size)
        unseen -= size
    return ways


@dataclass(frozen=True, slots=True)
class PlayOdds:
    """One play of the seat over the deals searched: ``share`` (``paradox``: the weight of
    the deals where it keeps the seat safe; ``tricks``, ``score``: the weighted mean of its
    value), exactly as a fraction of the weight of the deals decided; ``worst`` and
    ``best``: its lowest and highest value over them (``paradox``: 0 or 1); ``error``:
    for sampled deals, the standard error of ``share`` as an estimate of the share over
    every deal (the deals' standard deviation over the square root of their number; None
    when exact, or with fewer than two deals)."""

    play: Play
    share: Fraction
    worst: int
    best: int
    error: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.play.text,
            "share": round(float(self.share), 6),
            "fraction": str(self.share),
            "worst": self.worst,
            "best": self.best,
            "error": None if self.error is None else round(self.error, 6),
        }


@dataclass(frozen=True, slots=True)
class SingleDummy:
    """A seat's odds over hidden hands. ``plays``: each legal play of the seat, best first
    (empty when another seat is to move); ``double_dummy``: the same measure for the value
    of the position itself, the best play chosen in each deal knowing it (what seeing the
    hidden hands would be worth; when another seat is to move, the value of the position
    itself). ``asked``: the deals to search (the samples, or every consistent deal);
    ``deals``: how many were searched and decided; ``weight``: their summed weight;
    ``ways``: the ways to deal the hidden cards (``exact``: those the rules allow, the
    weight of every consistent deal); ``ruled_out`` (``exact``): the deals of the hidden
    values that the trick under way rules out (see :func:`consistent_deals`);
    ``undecided``: deals the time limit left open, left out of the shares; ``complete``:
    every deal asked for was searched (not cut short by the time limit or Ctrl-C);
    ``discard``: the seat's own discard as given (not dealt to the others); ``samples``:
    the samples asked for (None when ``exact`` was asked); ``exact`` with ``samples``:
    there were no more deals than samples, so each was searched once, weighted exactly
    (see :func:`single_dummy`)."""

    seat: int
    to_move: bool
    question: str
    exact: bool
    plays: tuple[PlayOdds, ...]
    double_dummy: Fraction | None
    asked: int
    deals: int
    weight: int
    ways: int
    ruled_out: int | None
    undecided: int
    complete: bool
    seed: int | None
    discard: tuple[int, ...]
    seconds: float
    samples: int | None = None

    def to_json(self) -> dict[str, Any]:
        dd = self.double_dummy
        return {
            "seat": self.seat,
            "to_move": self.to_move,
            "question": self.question,
            "method": "exact" if self.exact else "sampled",
            "seed": self.seed,
            "samples": self.samples,
            "discard": list(self.discard),
            "asked": self.asked,
            "deals": self.deals,
            "weight": self.weight,
            "ways": self.ways,
            "ruled_out": self.ruled_out,
            "undecided": self.undecided,
            "complete": self.complete,
            "double_dummy": None if dd is None else round(float(dd), 6),
            "double_dummy_fraction": None if dd is None else str(dd),
            "plays": [p.to_json() for p in self.plays],
            "seconds": round(self.seconds, 6),
        }


QUIET_FOR = 0.5
"""Seconds a deal is searched before its own steps show on the progress line (late in a
round hundreds of deals a second would flood the terminal with them)."""


def _values(
    deal: Position, seat: int, question: str, plays: Sequence[Play], timeout: float | None,
    stop: StopSignal | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[bool | int | None]:
    """The value after each of ``plays`` in ``deal`` (none: the deal's own value), by one
    :func:`solve` of the deal: its searches share a table and settle the plays together
    (at a 4-player first lead 1-5 times faster than a search of each play on its own, and
    no slower than the deal's value alone). ``progress(what)``: the solve's step under
    way, once the deal has taken :data:`QUIET_FOR` seconds."""
    report: Progress | None = None
    if progress is not None:
        tell, begun = progress, time.perf_counter()

        def report(done: int, total: int, what: str) -> None:
            if what and time.perf_counter() - begun >= QUIET_FOR:
                tell(what)

    answer = solve(deal, seat, cast(Question, question), timeout, report, stop=stop)
    if not plays:
        return [answer.value]
    found = {r.play: r.result for r in answer.plays}
    return [found[p] for p in plays]


def single_dummy(
    pos: Position,
    seat: int | None = None,
    question: str = "paradox",
    samples: int = 100,
    seed: int | None = 0,
    exact: bool | None = None,
    discard: Sequence[int] = (),
    timeout: float | None = None,
    max_deals: int = MAX_EXACT_DEALS,
    progress: Progress | None = None,
    jobs: int = 1,
    *,
    stop: StopSignal | None = None,
) -> SingleDummy:
    """The odds of ``seat`` (default: the player to move) over the deals it cannot tell
    apart: each deal solved double dummy for ``question`` (``paradox``, ``tricks`` or
    ``score``), for each of its legal plays when it is to move.

    ``exact`` True: every consistent deal with its exact weight (SearchError when there
    are more than ``max_deals``); False: ``samples`` deals drawn at random from ``seed``
    (the same seed, the same deals); None (the default): drawn, unless there are no more
    deals than ``samples`` (nor ``max_deals``), then each once with its exact weight.
    ``discard``: the seat's own discarded value, which it knows. ``timeout``: seconds for
    the whole; deals not reached are left out (``complete`` False) and a deal whose
    search ran out of time is counted in ``undecided``. ``progress(done, total, what)``
    after each deal. ``jobs``: how many deals to search at once, each in a thread of its
    own (0: one per core); the odds are the same, except which deals a time limit leaves
    out. Ctrl-C raises :class:`Interrupted` with the odds over the deals finished.
    ``stop``: a :class:`StopSignal` that ends the odds early, as the time limit would
    (deals not finished are left out; ``complete`` False); with several jobs, a Ctrl-C in
    the main thread stops it too."""
    if seat is None:
        seat = pos.to_move
    check_hero(pos, seat)
    if question not in HIDDEN_QUESTIONS:
        raise SearchError(f"question {question!r}: one of {', '.join(HIDDEN_QUESTIONS)}")
    if question == "score":
        check_prediction(pos, seat)
    if exact is not None and not isinstance(exact, bool):
        raise SearchError(f"exact is True, False or None, not {exact!r}")
    check_int(samples, "samples", 1, 10**7, error=SearchError)
    check_int(max_deals, "max_deals", 1, error=SearchError)
    if seed is not None:
        check_int(seed, "seed", error=SearchError)
    jobs = check_jobs(jobs)
    check_stop(stop)
    if pos.is_over:
        raise SearchError("the round is over: no play is left to weigh")
    start = search_clock()
    deadline = deadline_after(timeout, start)
    deals: Iterator[tuple[Position, int]]
    ruled_out: int | None = None
    asked_samples = None if exact else samples
    count = deal_count(pos, seat, discard)
    if exact is None:  # (each deal once, weighted exactly: no more work, and no error)
        exact = count <= min(samples, max_deals)
    if exact:
        if asked_samples is None and count > max_deals:
            raise SearchError(f"{count:,} deals are consistent with what seat {seat} sees, "
                              f"more than {max_deals:,} to search: sample them")
        allowed = list(consistent_deals(pos, seat, discard))
        total, ways, ruled_out = len(allowed), sum(w for _, w in allowed), count - len(allowed)
        deals = iter(allowed)
    else:
        total, ways = samples, deal_ways(pos, seat, discard)
        rng = random.Random(f"{seed}/single-dummy" if seed is not None else None)
        drawn = _sampled_deals(pos, seat, rng, discard)
        deals = ((next(drawn), 1) for _ in range(samples))
    plays = pos.legal_plays() if pos.to_move == seat else ()
    # each deal searched: its number, its values (paradox: safe 1, lost 0; one per play,
    # or the position's own) and weight, or None if the time ran out in it. One append
    # per deal, so a Ctrl-C between two bytecodes never leaves a deal half counted.
    searched: list[tuple[int, list[int] | None, int]] = []
    complete = True

    def result() -> SingleDummy:
        decided = [(got, w) for _, got, w in sorted(searched, key=lambda e: e[0])
                   if got is not None]
        weight = sum(w for _, w in decided)
        odds: list[PlayOdds] = []
        if weight:
            for i, play in enumerate(plays):
                xs = [got[i] for got, _ in decided]
                share = Fraction(sum(got[i] * w for got, w in decided), weight)
                error = (None if exact or len(xs) < 2
                         else statistics.stdev(xs) / math.sqrt(len(xs)))
                odds.append(PlayOdds(play, share, min(xs), max(xs), error))
        odds.sort(key=lambda o: (-o.share, -o.worst, o.play))
        dd = Fraction(sum(max(got) * w for got, w in decided), weight) if weight else None
        return SingleDummy(
            seat, pos.to_move == seat, question, exact, tuple(odds), dd,
            total, len(decided), weight, ways, ruled_out, len(searched) - len(decided),
            complete, None if exact else seed, tuple(discard), time.perf_counter() - start,
            asked_samples,
        )

    def left() -> float | None:
        """Seconds left for the next deal (None: no limit); 0 when none are."""
        return None if deadline is None else max(deadline - search_clock(), 0.0)

    def decided(values: Sequence[bool | int | None]) -> list[int] | None:
        ints = [int(v) for v in values if v is not None]
        return ints if len(ints) == len(values) else None

    lock = threading.Lock()  # (several deals at once: one report at a time)

    def under_way(n: int, what: str) -> None:
        """Deal n's step under way, on the progress line (the deals done so far)."""
        assert progress is not None
        with lock:
            progress(len(searched), total, f"deal {n + 1}: {what}")

    # the caller's signal, or one of our own (stopped by Ctrl-C with several jobs)
    signal = StopSignal() if stop is None else stop
    if jobs == 1:
        try:
            for n, (deal, w) in enumerate(deals):
                if left() == 0.0 or signal.stopped:
                    complete = False
                    break
                step = None if progress is None else functools.partial(under_way, n)
                got = decided(_values(deal, seat, question, plays, left(), signal, step))
                if got is None and signal.stopped:
                    complete = False  # (cut short by the stop signal: not counted)
                    break
                searched.append((n, got, w))
                if progress is not None:
                    progress(n + 1, total, "")
        except KeyboardInterrupt:  # (in a deal's search: Interrupted; between two: plain)
            complete = False
            raise Interrupted(result()) from None
        return result()

    # several deals at once, each solve in a worker thread (the compiled core runs
    # without the GIL); Ctrl-C stops them all through the signal
    numbered = enumerate(deals)

    def runner() -> None:
        nonlocal complete
        while True:
            with lock:  # (the deals may be a generator: one thread at a time)
                item = next(numbered, None)
            if item is None:
                return
            if signal.stopped:
                complete = False  # (a deal left unsearched)
                return
            if left() == 0.0:
                complete = False
                return
            n, (deal, w) = item
            step = None if progress is None else functools.partial(under_way, n)
            got = decided(_values(deal, seat, question, plays, left(), signal, step))
            if got is None and signal.stopped:
                complete = False
                return  # cut short by Ctrl-C or ``stop``, not by the time limit: not counted
            with lock:
                searched.append((n, got, w))
                if progress is not None:
                    progress(len(searched), total, "")

    with ctrl_c_stops(signal.stop) as guard:
        try:
            errors = run_in_threads([runner] * min(jobs, total), jobs)
        except KeyboardInterrupt:  # (no guard here: an application's own handler)
            signal.stop()
            complete = False
            raise Interrupted(result()) from None
    if errors:
        raise errors[0]
    if guard.hit:
        raise Interrupted(result())
    return result()
