"""A second, independent encoding of the rest of a round with python-constraint, for small
positions: it exists only to cross-check the CP-SAT model and the rules engine.

Variables are the remaining steps, each a (value, color) pair or STOP (the round has ended
in a paradox at or before this step). One constraint per step says that, after the earlier
steps, this step is legal, or is STOP exactly when the player to move has no legal play (or
an earlier step stopped). Legality here is a fresh reading of RULES.md written apart from
:mod:`catbox_solver.model.position` (only the position's data is shared), on purpose: two
readings that agree on hundreds of positions are unlikely to share a mistake.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from constraint import Problem

from catbox_solver.errors import SearchError
from catbox_solver.model.position import Position
from catbox_solver.model.rules import Ruleset

STOP = (0, 0)
Pair = tuple[int, int]

MAX_STEPS = 16
"""Largest number of remaining plays this encoding accepts (it is a plain search)."""


@dataclass
class RoundState:
    """A round in progress as plain sets and lists (a separate reading of the rules)."""

    rules: Ruleset
    taken: set[Pair]
    hands: list[list[int]]
    colors: list[set[int]]
    leader: int
    trick: list[Pair] = field(default_factory=list)
    won: list[int] = field(default_factory=list)
    tricks_left: int = 0

    @classmethod
    def of(cls, pos: Position) -> RoundState:
        n = pos.rules.players
        taken = {
            (v, c)
            for v in range(1, pos.rules.values + 1)
            for c in range(4)
            if pos.owner_of(v, c) is not None
        }
        return cls(
            pos.rules,
            taken,
            [list(h) for h in pos.hands],
            [{c for c in range(4) if pos.colors[p] >> c & 1} for p in range(n)],
            pos.leader,
            [(pl.value, pl.color) for pl in pos.trick],
            list(pos.tricks_won),
            pos.tricks_left,
        )

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.rules.players

    def options(self) -> list[Pair]:
        """The legal (value, color) pairs of the player to move, per RULES.md."""
        p = self.to_move
        free = [
            (v, c) for v in set(self.hands[p]) for c in self.colors[p] if (v, c) not in self.taken
        ]
        if not self.trick:
            red_broken = any(c == 0 for _v, c in self.taken)
            if red_broken:
                return free
            non_red = [(v, c) for v, c in free if c != 0]
            mode = self.rules.red_lead
            if mode == "never":
                return non_red
            if mode == "exception":
                return non_red if non_red else free
            # per-card: a card may be led red only if it has no legal non-red color
            return [(v, c) for v, c in free if c != 0 or not any(w == v for w, _ in non_red)]
        if self.rules.following == "must-follow":
            led = self.trick[0][1]
            follow = [(v, c) for v, c in free if c == led]
            if follow:
                return follow
        return free

    def after(self, pair: Pair) -> RoundState:
        """A new state: this one with the play made (assumed legal)."""
        child = RoundState(self.rules, set(self.taken), [list(h) for h in self.hands],
                           [set(c) for c in self.colors], self.leader, list(self.trick),
                           list(self.won), self.tricks_left)
        child.play(pair)
        return child

    def play(self, pair: Pair) -> None:
        """Make the play (assumed legal) and finish the trick if it is complete."""
        n = self.rules.players
        p = self.to_move
        v, c = pair
        self.hands[p].remove(v)
        self.taken.add(pair)
        if self.trick and c != self.trick[0][1]:
            lost = self.trick[0][1] if self.rules.color_loss == "led" else c
            self.colors[p].discard(lost)
        self.trick.append(pair)
        if len(self.trick) == n:
            reds = [w for w, col in self.trick if col == 0]
            led = self.trick[0][1]
            if reds:
                best = max(reds)
                index = self.trick.index((best, 0))
            else:
                best = max(w for w, col in self.trick if col == led)
                index = self.trick.index((best, led))
            winner = (self.leader + index) % n
            self.won[winner] += 1
            self.leader = winner
            self.trick = []
            self.tricks_left -= 1


def run(pos: Position, steps: Sequence[Pair]) -> tuple[RoundState, bool]:
    """Replay steps until a STOP; returns the state and whether every step was consistent
    (each play legal, a STOP only when there is no legal play)."""
    st = RoundState.of(pos)
    for pair in steps:
        if pair == STOP:
            return st, not st.options() and st.tricks_left > 0
        if pair not in st.options():
            return st, False
        st.play(pair)
    return st, True


@dataclass(frozen=True)
class Outcome:
    """How a line ended: the seat that caused a paradox (None if none), the round trick
    number where it happened, and tricks won."""

    paradox_by: int | None
    paradox_trick: int | None
    tricks_won: tuple[int, ...]


def outcome(pos: Position, steps: Sequence[Pair]) -> Outcome:
    st, ok = run(pos, steps)
    assert ok
    if STOP in steps:
        return Outcome(st.to_move, st.rules.tricks - st.tricks_left + 1, tuple(st.won))
    return Outcome(None, None, tuple(st.won))


def problem(pos: Position, allow_paradox: bool = True) -> tuple[Problem, list[str]]:
    """The python-constraint problem of every continuation of ``pos``."""
    n = pos.rules.players
    steps = pos.tricks_left * n - len(pos.trick) if pos.tricks_left else 0
    if steps > MAX_STEPS:
        raise SearchError(f"the python-constraint encoding takes at most {MAX_STEPS} plays")
    held = sorted({v for h in pos.hands for v in h})
    domain = [(v, c) for v in held for c in range(4) if pos.owner_of(v, c) is None]
    if allow_paradox:
        domain.append(STOP)
    names = [f"s{i}" for i in range(steps)]
    prob = Problem()
    for name in names:
        prob.addVariable(name, list(domain))
    for i in range(steps):
        prob.addConstraint(_step_rule(pos, i), names[: i + 1])
    return prob, names


def _step_rule(pos: Position, i: int) -> Callable[..., bool]:
    def rule(*pairs: Pair) -> bool:
        if STOP in pairs[:i]:
            return pairs[i] == STOP
        st, ok = run(pos, pairs[:i])
        if not ok:
            return False
        legal = st.options()
        if pairs[i] == STOP:
            return not legal
        return pairs[i] in legal

    return rule


def exists_csp(
    pos: Position,
    no_paradox: bool = False,
    paradox_by: int | None = None,
    tricks_at_least: tuple[int, int] | None = None,
) -> bool:
    """Is there a continuation meeting the given conditions (all given ones at once)?"""
    prob, names = problem(pos, allow_paradox=not no_paradox)
    if paradox_by is not None or tricks_at_least is not None:

        def final(*pairs: Pair) -> bool:
            out = outcome(pos, pairs)
            if paradox_by is not None and out.paradox_by != paradox_by:
                return False
            if tricks_at_least is not None:
                seat, k = tricks_at_least
                return out.tricks_won[seat] >= k
            return True

        if not names:
            return final()
        prob.addConstraint(final, names)
    return prob.getSolution() is not None
