"""A survey's deals and the questions asked of each, as a worker runs them.

Deal ``i`` of seed ``s`` depends on ``(s, i)`` alone: its random source is seeded with a
number hashed from both (SHA-256, so neighbouring seeds and indices share nothing), never
from a shared stream. Any machine and any number of workers deal the same cards, the same
discards and the same predictions, in any order. The ruleset is not part of that number:
deal ``i`` of seed ``s`` is the same cards under every rule reading, so readings are
compared deal for deal.

From that source, in this order: the shuffle and the hands (:func:`model.deal.deal`),
each seat's discard in seat order (``distinct``: uniformly among the values no earlier
seat discarded, when the hand has one, as :func:`model.deal.first_lead` does; ``random``:
uniformly from the whole hand, as players who cannot see each other's discards might),
then each seat's prediction in seat order, uniformly from the allowed choices. Seat 0
leads the first trick. With 2 players the first 3 leftover cards place the neutral tokens.
"""

from __future__ import annotations

import hashlib
import random
import time
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from catbox_solver.dd.answer import OutOfTime
from catbox_solver.dd.search import Search
from catbox_solver.dd.warmup import warm_up
from catbox_solver.formats.notation import position_to_notation
from catbox_solver.model.deal import deal
from catbox_solver.model.position import Position
from catbox_solver.survey.spec import SURVEY_QUESTIONS, SurveyError, SurveySpec
from catbox_solver.survey.store import rows_table
from catbox_solver.version import __version__


def deal_seed(seed: int, index: int) -> int:
    """The random seed of deal ``index`` of survey seed ``seed``: 64 bits of the SHA-256 of
    both, so that it depends on them alone."""
    digest = hashlib.sha256(f"catbox-survey/{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True, slots=True)
class SurveyDeal:
    """Deal ``index`` at its first lead, with the cheap facts of its deal: the values
    discarded by seat, and with 2 players the revealed leftover values (neutral tokens)."""

    index: int
    position: Position
    discarded: tuple[int, ...]
    revealed: tuple[int, ...]

    @property
    def equal_discards(self) -> bool:
        """Two seats discarded the same value (3 and 4 players: a paradox is then certain)."""
        return len(set(self.discarded)) < len(self.discarded)


def survey_deal(spec: SurveySpec, index: int) -> SurveyDeal:
    """Deal ``index`` of the survey, at its first lead (see the module's docstring)."""
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        raise SurveyError(f"a deal index is a whole number 0 or more, not {index!r}")
    rules = spec.rules
    rng = random.Random(deal_seed(spec.seed, index))
    cards = deal(rules, rng)
    hands: list[list[int]] = []
    discarded: list[int] = []
    for hand in cards.hands:
        h = list(hand)
        fresh = [v for v in h if v not in discarded] if spec.discards == "distinct" else []
        out = rng.choice(fresh or h)
        discarded.append(out)
        h.remove(out)
        hands.append(h)
    preds: list[int | None] | None = None
    if rules.has_predictions:
        preds = [rng.choice(rules.prediction_choices) for _ in range(rules.players)]
    pos = Position.new_round(rules, hands, 0, preds, cards.revealed)
    return SurveyDeal(index, pos, tuple(discarded), tuple(cards.revealed))


@dataclass(frozen=True, slots=True)
class Answer:
    """One row's answer: ``value`` None when the time ran out (``low``..``high`` is then
    the range proven: 0..1 for a yes/no question)."""

    seat: int | None
    value: bool | int | None
    low: int
    high: int
    nodes: int
    seconds: float

    @property
    def status(self) -> str:
        return "unknown" if self.value is None else "exact"


def _yes_no(seat: int | None, value: bool | None, nodes: int, seconds: float) -> Answer:
    if value is None:
        return Answer(seat, None, 0, 1, nodes, seconds)
    return Answer(seat, value, int(value), int(value), nodes, seconds)


def answer(pos: Position, question: str, timeout: float | None) -> list[Answer]:
    """The rows of ``question`` for one position, within ``timeout`` seconds in all.

    Each seat's search is a :class:`catbox_solver.dd.search.Search` used on its own, with
    the deal's deadline: ``dd_table`` would also search every seat's score after the trick points
    (the rest of the time limit on every deal), and ``solve`` every legal play of the
    leader. ``tricks`` first asks every seat's paradox verdict (the sign of its trick
    points), then each seat's exact trick points, so that a timeout leaves each seat at
    least the range its sign proves, as ``dd_table`` does.

    The time is shared fairly between the seats, searched one after another: seat k of
    n must be done ``(k + 1) / n`` of the way through the time (for ``tricks``: through
    the first half for the verdicts, then through the rest for the trick points), so the
    time a seat leaves unused goes to the next ones, and no seat takes all of it."""
    if question not in SURVEY_QUESTIONS:
        raise SurveyError(
            f"unknown question {question!r} (questions: {', '.join(SURVEY_QUESTIONS)})"
        )
    warm_up()
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout
    if question == "table":
        search = Search(pos, 0, deadline)
        try:
            value: bool | None = bool(search.exact("table"))
        except OutOfTime:
            value = None
        return [_yes_no(None, value, search.nodes, time.perf_counter() - start)]
    n = pos.rules.players

    def by(k: int, begin: float, length: float) -> float | None:
        """Seat k's deadline when the seats share ``length`` seconds from ``begin``."""
        return None if timeout is None else begin + (k + 1) * length / n

    signs_time = None if timeout is None else timeout / (1 if question == "paradox" else 2)
    rows: list[Answer] = []
    signs: list[bool | None] = []
    searches: list[Search] = []  # (tricks: each seat's search goes on from its sign)
    nodes: list[int] = []
    times: list[float] = []
    for seat in range(n):
        t0 = time.perf_counter()
        search = Search(pos, seat, by(seat, start, signs_time or 0.0))
        try:
            sign: bool | None = bool(search.exact("paradox"))
        except OutOfTime:
            sign = None
        signs.append(sign)
        nodes.append(search.nodes)
        times.append(time.perf_counter() - t0)
        if question == "tricks":
            searches.append(search)
        # (paradox: its table, up to 256 MiB from the first lead, goes now)
    if question == "paradox":
        return [_yes_no(seat, sign, nodes[seat], times[seat])
                for seat, sign in enumerate(signs)]
    begin = time.perf_counter()
    rest = 0.0 if deadline is None else max(0.0, deadline - begin)
    for seat, search in enumerate(searches):
        t0 = time.perf_counter()
        search.deadline = by(seat, begin, rest)
        sign = signs[seat]
        low, high = search.sign_range("tricks", sign)
        tricks: int | None = None
        if sign is not None:
            try:
                found = search.exact("tricks", sign)
                assert found is not None  # (out of time raises)
                tricks = int(found)
                low = high = tricks
            except OutOfTime:
                low, high = search.partial or (low, high)
        rows.append(Answer(seat, tricks, low, high, search.nodes,
                           times[seat] + time.perf_counter() - t0))
    return rows


def chunk_table(spec: SurveySpec, indices: list[int]) -> pa.Table:
    """Every row of the given deals as a table of the store's schema: a worker's task,
    and what it sends back (see :func:`survey.store.rows_table`)."""
    return rows_table(run_deals(spec, indices), spec.question)


def run_deals(spec: SurveySpec, indices: list[int]) -> list[dict[str, Any]]:
    """Every row of the given deals, as plain dicts: the columns of
    :func:`survey.store.schema`."""
    out: list[dict[str, Any]] = []
    for index in indices:
        d = survey_deal(spec, index)
        notation = position_to_notation(d.position)
        neutral = " ".join(map(str, d.revealed)) if d.revealed else None
        for a in answer(d.position, spec.question, spec.timeout):
            out.append({
                "deal": index, "seat": a.seat, "question": spec.question,
                "value": a.value, "low": a.low, "high": a.high, "status": a.status,
                "nodes": a.nodes, "seconds": a.seconds, "position": notation,
                "players": spec.players, "ruleset": spec.ruleset, "seed": spec.seed,
                "discards": spec.discards, "timeout": spec.timeout,
                "discarded": " ".join(map(str, d.discarded)),
                "equal_discards": d.equal_discards, "neutral": neutral,
                "version": __version__,
            })
    return out
