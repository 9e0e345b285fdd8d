"""Rule readings side by side: find a smallest position where two rulesets differ.

Two rulesets (same player count) are compared on the same positions. A *common* position is
one whose state is identical under both; from it, lines of plays legal under both readings are
walked in step under each ruleset. They differ

- in the legal plays, when at the end of such a line the two readings allow different plays
  (the line is empty for a lead rule; for the color-loss rule it runs from the off-color play
  to that player's next turn), or
- in a double-dummy question, when the answer at a common position differs for some hero.

Positions are searched systematically from the end of the round backwards: for each number of
tricks left t = 1, 2, ... the starting positions of trick t of many seeded deals are reached
by play legal under both readings, and every line from there, up to the next turn of every
player, is enumerated. Sizes are ordered by (cards left in hands, tricks left), so the first
level with a difference holds the smallest one found.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

from catbox_solver.errors import RulesetError
from catbox_solver.model.deal import first_lead
from catbox_solver.model.numbers import check_int, is_deadline
from catbox_solver.model.position import Play, Position
from catbox_solver.model.rules import SCORE_ONLY, Ruleset

QUESTIONS = ("legal", "paradox", "tricks", "score")

# a double-dummy oracle: (position, hero, question) -> value (bool or int), None if unknown
Oracle = Callable[[Position, int, str], object]


@dataclass(frozen=True)
class Difference:
    """Where readings A and B part: the common position, the line from it (plays legal under
    both), and each reading's answer at the end of the line."""

    question: str
    position: Position
    line: tuple[Play, ...]
    answer_a: object
    answer_b: object
    hero: int | None = None
    position_b: Position | None = None
    """The common position under reading B, where it is written differently (2-player
    predictions exist under one reading only); else None."""

    @property
    def size(self) -> tuple[int, int]:
        return position_size(self.position)


@dataclass(frozen=True)
class NoDifference:
    """No difference among the positions checked, all of size at most ``bound``;
    ``out_of_time``: the deadline came before every deal was tried, so the search did not
    cover what its bounds ask (it said "no difference" all the same)."""

    question: str
    bound: tuple[int, int]
    positions_checked: int
    stats: dict[str, int] = field(default_factory=dict)
    out_of_time: bool = False
    same: bool = False  # the two rulesets are one: no difference at any size, unsearched
    # the rulesets differ only in these switches, which change the score alone, and the
    # question is not the score: no difference at any size, unsearched
    score_only: tuple[str, ...] = ()


def position_size(pos: Position) -> tuple[int, int]:
    """(cards left in all hands, tricks left): what 'smallest' orders by."""
    return sum(len(h) for h in pos.hands), pos.tricks_left


def same_state(a: Position, b: Position) -> bool:
    """Identical positions apart from the ruleset (and the predictions, when one of the two
    rulesets makes none, as with the 2-player prediction switch)."""
    if a.predictions is None or b.predictions is None:
        return a.key()[1:8] == b.key()[1:8] and a.tricks_left == b.tricks_left
    return a.key()[1:] == b.key()[1:]


def _b_side(pa: Position, pb: Position) -> Position | None:
    return None if pa.predictions == pb.predictions else pb


def _start_b(start: Position, b: Ruleset, rng: random.Random) -> Position:
    """The same first lead under ruleset ``b`` (with predictions drawn if only b makes them)."""
    pos = start.with_rules(b)
    if b.has_predictions and start.predictions is None:
        pos = pos.with_predictions([rng.choice(b.prediction_choices) for _ in start.hands])
    elif not b.has_predictions and start.predictions is not None:
        pos = pos.with_predictions(None)
    return pos


def start_of(rules: Ruleset, seed: int) -> Position:
    """A seeded deal with random discards and predictions, at the first lead of a random
    seat."""
    return first_lead(rules, seed, start=None, distinct_discards=False)


# How the walk to a root prefers its plays (one policy per deal, in turn): uniformly at
# random; keeping red unbroken (where the red-lead readings part); declaring off the led
# color (where the color-loss readings part).
POLICIES = ("uniform", "avoid-red", "off-color")


def _preference(policy: str, pos: Position) -> Callable[[Play], int]:
    led = pos.led_color
    if policy == "avoid-red":
        return lambda p: 1 if p.color == 0 else 0
    if policy == "off-color" and led is not None:
        return lambda p: 0 if p.color != led else 1
    return lambda p: 0


def _common_line_to(
    start_a: Position,
    start_b: Position,
    tricks_left: int,
    rng: random.Random,
    budget: int,
    policy: str = "uniform",
) -> tuple[Position, Position] | None:
    """Walk from a common start by plays legal under both readings (randomised depth-first,
    backtracking out of dead ends, plays ordered by ``policy``) to the start of a trick with
    ``tricks_left`` left."""
    nodes = 0

    def walk(pa: Position, pb: Position) -> tuple[Position, Position] | None:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            return None
        if pa.tricks_left == tricks_left and not pa.trick:
            return pa, pb
        common = [p for p in pa.legal_plays() if p in set(pb.legal_plays())]
        rng.shuffle(common)
        common.sort(key=_preference(policy, pa))
        for p in common:
            na, nb = pa.after(p), pb.after(p)
            if not same_state(na, nb):
                continue  # the readings part here: the scan from the root will find it
            found = walk(na, nb)
            if found:
                return found
        return None

    return walk(start_a, start_b)


def diff_rulesets(
    a: Ruleset,
    b: Ruleset,
    question: str = "legal",
    deals: int = 30,
    max_tricks_left: int = 2,
    seed: int = 0,
    oracle: Oracle | None = None,
    node_budget: int = 20_000,
    deadline: float | None = None,
    on_level: Callable[[int], None] | None = None,
) -> Difference | NoDifference:
    """Find a smallest position where rulesets ``a`` and ``b`` differ on ``question``
    ('legal', or a double-dummy question answered by ``oracle``)."""
    for rules in (a, b):
        if not isinstance(rules, Ruleset):
            raise RulesetError(f"a ruleset is needed, not {rules!r}")
    check_int(deals, "deals", 1)  # (0 deals, or a NaN budget, reported "no difference"
    # having checked nothing, or hung; more tricks left than a round has were a loop over
    # levels that hold no position: 10**9 ran for ever)
    check_int(max_tricks_left, "max_tricks_left", 1, 8)  # (the most tricks of any round)
    check_int(node_budget, "node_budget", 1)
    check_int(seed, "seed")
    if deadline is not None and not is_deadline(deadline):
        raise RulesetError(f"deadline must be a time.monotonic() value, not {deadline!r}")
    if a.players != b.players:
        raise RulesetError(f"rulesets for {a.players} and {b.players} players cannot be compared")
    if question not in QUESTIONS:
        raise RulesetError(f"unknown question {question!r} (one of {', '.join(QUESTIONS)})")
    if on_level is not None and not callable(on_level):
        raise RulesetError(f"on_level must be a function (tricks left), not {on_level!r}")
    if oracle is not None and not callable(oracle):
        raise RulesetError(f"oracle must be a function (position, hero, question), not {oracle!r}")
    if question != "legal" and oracle is None:
        from catbox_solver.dd.solve import value_only

        oracle = cast(Oracle, value_only)
    n = a.players
    whole_round = (n * (a.tricks + 1), a.tricks)  # (the bound of an answer for any size)
    if a.in_effect() == b.in_effect():
        # (it searched for seconds to say "no difference" up to a bound; the 2-player bonus
        # with 3-5 players as well, a switch that does nothing there)
        return NoDifference(question, whole_round, 0, same=True)
    if question != "score" and a.for_play() == b.for_play():
        # (diagonal-bonus against official on tricks searched 14 s for "no difference up to"
        # a bound, where no position at all can differ)
        a, b = a.in_effect(), b.in_effect()
        apart = tuple(k for k in (*SCORE_ONLY, "row_order") if getattr(a, k) != getattr(b, k))
        return NoDifference(question, whole_round, 0, score_only=apart)
    checked = 0
    bound = (0, 0)
    late = False  # the deadline came before every deal was tried
    for t in range(1, max_tricks_left + 1):
        if late:
            break
        if on_level:
            on_level(t)
        best: Difference | None = None
        for k in range(deals):
            if deadline is not None and time.monotonic() > deadline:
                late = True
                break
            start = start_of(a, seed * 100_003 + k)
            roots = _common_line_to(
                start,
                _start_b(start, b, random.Random(k)),
                t,
                random.Random(seed + k),
                node_budget,
                POLICIES[k % len(POLICIES)],
            )
            if roots is None:
                continue
            ra, rb = roots
            bound = max(bound, position_size(ra))
            found, count = _scan(ra, rb, question, oracle, depth=2 * n, budget=node_budget)
            checked += count
            if found and (best is None or found.size < best.size):
                best = found
        if best is not None:
            return best
    return NoDifference(question, bound, checked, out_of_time=late)


def _scan(
    ra: Position,
    rb: Position,
    question: str,
    oracle: Oracle | None,
    depth: int,
    budget: int,
) -> tuple[Difference | None, int]:
    """Every line of up to ``depth`` plays from a common root, walked under both readings;
    the difference with the smallest common position, and how many nodes were looked at."""
    best: Difference | None = None
    count = 0
    seen: set[tuple[object, ...]] = set()

    def visit(
        pa: Position,
        pb: Position,
        anchor: tuple[Position, Position],
        line: tuple[Play, ...],
        d: int,
    ) -> None:
        nonlocal best, count
        if count >= budget:
            return
        key = (pa.key(), pb.key(), anchor[0].key())
        if key in seen:
            return
        seen.add(key)
        count += 1
        if same_state(pa, pb):
            anchor, line = (pa, pb), ()
            if question != "legal" and oracle is not None and not pa.is_over:
                for hero in range(pa.players):
                    va, vb = oracle(pa, hero, question), oracle(pb, hero, question)
                    if va is not None and vb is not None and va != vb:
                        diff = Difference(question, pa, (), va, vb, hero, _b_side(pa, pb))
                        if best is None or diff.size < best.size:
                            best = diff
                        break
        la, lb = pa.legal_plays(), pb.legal_plays()
        if question == "legal" and set(la) != set(lb):
            diff = Difference(question, anchor[0], line, la, lb, None, _b_side(*anchor))
            if best is None or diff.size < best.size:
                best = diff
            return
        if d == 0:
            return
        in_b = set(lb)
        for p in la:
            if p in in_b:
                visit(pa.after(p), pb.after(p), anchor, line + (p,), d - 1)

    visit(ra, rb, (ra, rb), (), depth)
    return best, count
