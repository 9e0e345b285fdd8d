"""A lean, mutable copy of a Position for search: make and unmake a play in place.

Why: the double-dummy search visits millions of positions; building an immutable Position
per play costs more than the search itself. This state keeps the same facts as plain ints
and lists and changes them in place (``push`` / ``pop``).

The rules stay in position.py: the move generator below is a transcription of
``Position.legal_plays`` (same branches, same tables ``PLAYS_BY_MASK``), the trick winner is
``trick_winner_index`` itself, and ``tests/test_dd.py`` checks on thousands of random
positions of every ruleset that ``legal()`` equals ``Position.legal_plays()`` and that
``push`` reaches exactly ``Position.after`` (``to_position``) and ``pop`` undoes it.

Hands are packed counts: the number of copies of value v sits in bits ``4(v-1)..4v-1``,
the same nibble as value v's cells on the research board.
"""

from __future__ import annotations

from typing import Any

from catbox_solver.model.position import (
    PLAYS,
    PLAYS_BY_MASK,
    Play,
    Position,
    red_row,
    trick_winner_index,
)

RED_LEAD_MODES = {"exception": 0, "never": 1, "per-card": 2}


def pack_hand(hand: tuple[int, ...]) -> int:
    """Packed counts of a hand of values."""
    h = 0
    for v in hand:
        h += 1 << (4 * v - 4)
    return h


def unpack_hand(h: int) -> tuple[int, ...]:
    """The sorted values of a packed hand."""
    out: list[int] = []
    v = 1
    while h:
        out.extend([v] * (h & 15))
        h >>= 4
        v += 1
    return tuple(out)


class FastState:
    """A round in progress, mutable, for search. Build from a Position; ``push(play)``
    plays a legal play in place (unchecked) and ``pop()`` takes the last one back."""

    __slots__ = (
        "pos0",
        "n",
        "nv",
        "redrow",
        "must_follow",
        "loss_led",
        "red_lead",
        "used",
        "rows",
        "owners",
        "hands",
        "colors",
        "leader",
        "trick",
        "tricks_left",
        "won",
        "undo",
    )

    def __init__(self, pos: Position) -> None:
        rules = pos.rules
        self.pos0 = pos
        self.n = rules.players
        self.nv = rules.values
        self.redrow = red_row(rules.values)
        self.must_follow = rules.following == "must-follow"
        self.loss_led = rules.color_loss == "led"
        self.red_lead = RED_LEAD_MODES[rules.red_lead]
        self.used = pos.used
        rows = [0, 0, 0, 0]
        for v in range(1, self.nv + 1):
            nib = pos.used >> (4 * v - 4) & 15
            for c in range(4):
                if nib >> c & 1:
                    rows[c] |= 1 << (v - 1)
        self.rows = rows
        self.owners = list(pos.owners)
        self.hands = [pack_hand(h) for h in pos.hands]
        self.colors = list(pos.colors)
        self.leader = pos.leader
        self.trick: list[Play] = list(pos.trick)
        self.tricks_left = pos.tricks_left
        self.won = list(pos.tricks_won)
        self.undo: list[tuple[int, int, int, list[Play] | None]] = []

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.n

    def legal(self) -> list[Play]:
        """The distinct legal plays of the player to move (as Position.legal_plays)."""
        if self.tricks_left == 0:
            return []
        trick = self.trick
        p = (self.leader + len(trick)) % self.n
        cols = self.colors[p]
        used = self.used
        h = self.hands[p]
        table = PLAYS_BY_MASK
        out: list[Play] = []
        if trick:
            if self.must_follow:
                lc = trick[0].color
                led = 1 << lc
                x, sh, v = h, 0, 1
                while x:
                    if x & 15 and ~(used >> sh) & cols & led:
                        out.append(PLAYS[v][lc])
                    x >>= 4
                    sh += 4
                    v += 1
                if out:
                    return out
            x, sh, v = h, 0, 1
            while x:
                if x & 15:
                    out.extend(table[v][~(used >> sh) & cols & 15])
                x >>= 4
                sh += 4
                v += 1
            return out
        if used & self.redrow:
            x, sh, v = h, 0, 1
            while x:
                if x & 15:
                    out.extend(table[v][~(used >> sh) & cols & 15])
                x >>= 4
                sh += 4
                v += 1
            return out
        mode = self.red_lead
        if mode == 2:
            x, sh, v = h, 0, 1
            while x:
                if x & 15:
                    free = ~(used >> sh) & cols & 15
                    out.extend(table[v][free & 14 or free & 1])
                x >>= 4
                sh += 4
                v += 1
            return out
        x, sh, v = h, 0, 1
        while x:
            if x & 15:
                out.extend(table[v][~(used >> sh) & cols & 14])
            x >>= 4
            sh += 4
            v += 1
        if not out and mode == 0:
            x, sh, v = h, 0, 1
            while x:
                if x & 15:
                    out.extend(table[v][~(used >> sh) & cols & 1])
                x >>= 4
                sh += 4
                v += 1
        return out

    def push(self, play: Play) -> int:
        """Make ``play`` (legal, unchecked). Returns the seat that won the trick if the play
        completed it, else -1."""
        trick = self.trick
        n = self.n
        p = (self.leader + len(trick)) % n
        v, c = play
        bit = 1 << (4 * v - 4 + c)
        self.used |= bit
        self.owners[p] |= bit
        self.rows[c] |= 1 << (v - 1)
        self.hands[p] -= 1 << (4 * v - 4)
        old = self.colors[p]
        if trick:
            led = trick[0].color
            if c != led:
                self.colors[p] = old & ~(1 << (led if self.loss_led else c))
        trick.append(play)
        if len(trick) == n:
            w = (self.leader + trick_winner_index(trick)) % n
            self.won[w] += 1
            self.undo.append((p, old, self.leader, trick))
            self.leader = w
            self.trick = []
            self.tricks_left -= 1
            return w
        self.undo.append((p, old, -1, None))
        return -1

    def pop(self) -> None:
        """Take back the last play."""
        p, old, leader, done = self.undo.pop()
        if done is not None:
            self.won[self.leader] -= 1
            self.leader = leader
            self.trick = done
            self.tricks_left += 1
        v, c = self.trick.pop()
        bit = 1 << (4 * v - 4 + c)
        self.used &= ~bit
        self.owners[p] &= ~bit
        self.rows[c] &= ~(1 << (v - 1))
        self.hands[p] += 1 << (4 * v - 4)
        self.colors[p] = old

    def snapshot(self) -> tuple[Any, ...]:
        """The mutable part of the state, copied, for :meth:`restore`: a search that makes
        and unmakes plays in place without the undo list (the plain-Python trick game)
        and is cut short by the clock leaves the state inside its line."""
        return (self.used, list(self.rows), list(self.owners), list(self.hands),
                list(self.colors), self.leader, list(self.trick), self.tricks_left,
                list(self.won), list(self.undo))

    def restore(self, snap: tuple[Any, ...]) -> None:
        """Put back the state of :meth:`snapshot`."""
        (self.used, rows, owners, hands, colors, self.leader, trick, self.tricks_left, won,
         undo) = snap
        self.rows[:] = rows
        self.owners[:] = owners
        self.hands[:] = hands
        self.colors[:] = colors
        self.trick = list(trick)
        self.won[:] = won
        self.undo[:] = undo

    def to_position(self) -> Position:
        """The Position this state stands for (for checks and for showing results)."""
        p0 = self.pos0
        return Position(
            p0.rules,
            tuple(self.owners),
            p0.neutral,
            tuple(unpack_hand(h) for h in self.hands),
            tuple(self.colors),
            self.leader,
            tuple(self.trick),
            tuple(self.won),
            p0.predictions,
            self.tricks_left,
            validate=False,
        )
