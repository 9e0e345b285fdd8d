"""The search's copies of the rules against ``Position``, under every ruleset.

The double-dummy search does not play on ``Position``: it plays on ``FastState``
(catbox_solver/dd/fast.py) and, inside the compiled core, on the kernel's own state
(``gen_plays``, ``_push``, ``_pop`` in catbox_solver/dd/kernel.py). Each is a transcription of
``Position.legal_plays`` / ``Position.after``, and a slip in one ruleset (must-follow after
the led color was lost, say) shows only in positions that ruleset reaches in play, and
sometimes only when two switches are combined. So: every preset and every combination of
the switches that change play, 2-5 players, thousands of positions reached in seeded
random play, and at each one

- the legal plays of FastState and of the kernel equal ``Position.legal_plays()``;
- every legal play made in FastState reads back (``to_position``) as ``Position.after``,
  and taking it back restores the position; the same for the kernel's state;
- a whole round played in FastState alone stays equal to the Positions along its line.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import numpy.typing as npt
import pytest
from oracles.gen import random_line, start_position

from catbox_solver.dd.fast import FastState, pack_hand
from catbox_solver.dd.kernel import Core
from catbox_solver.dd.kernel import layout as K
from catbox_solver.model.position import PLAYS, Play, Position
from catbox_solver.model.rules import PRESETS, SCORE_ONLY, SWITCHES, Ruleset

PLAYERS = (2, 3, 4, 5)
PLAY_SWITCHES = tuple(name for name in SWITCHES if name not in SCORE_ONLY)


def _combined_specs() -> list[str]:
    """Every combination of the values of the switches that change play (red lead, color
    loss, following), written as ``Ruleset.from_name`` reads them."""
    specs = []
    for values in itertools.product(*(SWITCHES[name] for name in PLAY_SWITCHES)):
        parts = [f"{name}={value}" for name, value in zip(PLAY_SWITCHES, values, strict=True)]
        specs.append(",".join(["official", *parts]))
    return specs


RULESETS = [Ruleset.from_name(name, n) for name in PRESETS for n in PLAYERS]
COMBINED = [Ruleset.from_name(spec, n) for spec in _combined_specs() for n in PLAYERS]


def _line_positions(rules: Ruleset, seed: int, rounds: int) -> list[list[Position]]:
    """The positions of ``rounds`` seeded random rounds, each from its first lead to its end."""
    rng = random.Random(seed)
    return [random_line(start_position(rules, rng), rng) for _ in range(rounds)]


# ---- the kernel's state, as dd/solve.py loads it -----------------------------------------
class KernelState:
    """The compiled core's state for one ruleset, loaded from a Position as
    ``Search._loaded_core`` does, with the kernel's play generator and make/unmake."""

    def __init__(self, pos: Position) -> None:
        st = FastState(pos)
        self.core = Core(
            0, (st.n, st.nv, st.redrow, int(st.must_follow), int(st.loss_led), st.red_lead)
        )
        self.row: npt.NDArray[np.int64] = np.zeros(K.B_SIZE, dtype=np.int64)
        self.n = st.n
        self.load(pos)

    def load(self, pos: Position) -> None:
        st = FastState(pos)
        self.core.load(st.used, st.leader, st.tricks_left, st.trick, st.hands, st.colors)

    def legal(self) -> list[Play]:
        k = K.gen_plays(self.core.s, self.row)
        return [PLAYS[int(code) >> 2][int(code) & 3] for code in self.row[:k]]

    def facts(self) -> tuple[object, ...]:
        """What the kernel's state says of the position: used cells, leader, tricks left,
        the trick, hands and colors of every seat."""
        s = self.core.s[: K.S_COLORS + 5].tolist()
        n = self.n
        return (
            s[K.S_USED], s[K.S_LEADER], s[K.S_TL],
            tuple(s[K.S_TRICK: K.S_TRICK + s[K.S_TLEN]]),
            tuple(s[K.S_HANDS: K.S_HANDS + n]),
            tuple(s[K.S_COLORS: K.S_COLORS + n]),
        )

    def push(self, play: Play) -> int:
        return int(K._push(self.core.s, self.row, 4 * play.value + play.color))

    def pop(self, play: Play, winner: int) -> None:
        K._pop(self.core.s, self.row, 4 * play.value + play.color, winner)


def kernel_facts(pos: Position) -> tuple[object, ...]:
    """KernelState.facts of ``pos``, from the Position itself."""
    return (
        pos.used, pos.leader, pos.tricks_left,
        tuple(4 * p.value + p.color for p in pos.trick),
        tuple(pack_hand(h) for h in pos.hands),
        tuple(pos.colors),
    )


def _winner(pos: Position, nxt: Position) -> int:
    """The seat that won the trick ``pos -> nxt`` completed, else -1."""
    if nxt.trick or nxt.tricks_left == pos.tricks_left:
        return -1
    return next(s for s in range(len(pos.tricks_won)) if nxt.tricks_won[s] > pos.tricks_won[s])


def check_line(line: list[Position], kernel: KernelState) -> list[str]:
    """Every disagreement between the search's copies of the rules and ``Position`` along
    ``line`` (one text per disagreement, empty if none)."""
    bad: list[str] = []
    for pos in line:
        legal = pos.legal_plays()
        expected = sorted(legal)
        st = FastState(pos)
        snap = st.snapshot()
        fast = st.legal()
        if sorted(fast) != expected or len(set(fast)) != len(fast):
            bad.append(f"{pos}: FastState.legal {fast} != {list(legal)}")
        kernel.load(pos)
        gen = kernel.legal()
        if sorted(gen) != expected or len(set(gen)) != len(gen):
            bad.append(f"{pos}: kernel gen_plays {gen} != {list(legal)}")
        before = kernel.facts()
        if before != kernel_facts(pos):
            bad.append(f"{pos}: the kernel loaded {before}")
        for play in legal:
            nxt = pos.after(play)
            w = st.push(play)
            if st.to_position() != nxt or w != _winner(pos, nxt):
                bad.append(f"{pos}: FastState.push({play.text}) != Position.after")
            st.pop()
            if st.snapshot() != snap:
                bad.append(f"{pos}: FastState.pop after {play.text} did not restore it")
            kw = kernel.push(play)
            if kernel.facts() != kernel_facts(nxt) or kw != _winner(pos, nxt):
                bad.append(f"{pos}: kernel _push({play.text}) != Position.after")
            kernel.pop(play, kw)
            if kernel.facts() != before:
                bad.append(f"{pos}: kernel _pop after {play.text} did not restore it")
    # the whole round in FastState alone: push along the line, then pop back to the start
    st = FastState(line[0])
    for pos, nxt in itertools.pairwise(line):
        play = next(p for p in pos.legal_plays() if pos.after(p) == nxt)
        st.push(play)
        if st.to_position() != nxt:
            bad.append(f"{line[0]}: FastState along the line left {nxt}")
            break
    while st.undo:
        st.pop()
    if st.to_position() != line[0]:
        bad.append(f"{line[0]}: FastState popped back along the line left another position")
    return bad


def _check_rulesets(rulesets: list[Ruleset], rounds: int, seed: int) -> Counter[str]:
    """Positions checked per ruleset name, after asserting that none disagrees."""
    counts: Counter[str] = Counter()
    bad: list[str] = []
    for i, rules in enumerate(rulesets):
        kernel: KernelState | None = None
        for line in _line_positions(rules, seed + i, rounds):
            kernel = kernel or KernelState(line[0])
            bad.extend(check_line(line, kernel))
            counts[str(rules)] += len(line)
    assert not bad, f"{len(bad)} disagreements, the first: " + "\n".join(bad[:5])
    return counts


@pytest.mark.parametrize("players", PLAYERS)
def test_every_preset_agrees_with_position(players: int) -> None:
    counts = _check_rulesets([r for r in RULESETS if r.players == players], 5, 100 * players)
    assert len(counts) == len(PRESETS)
    assert sum(counts.values()) >= 500


@pytest.mark.parametrize("players", PLAYERS)
def test_combined_switches_agree_with_position(players: int) -> None:
    rulesets = [r for r in COMBINED if r.players == players]
    counts = _check_rulesets(rulesets, 6, 1000 + 100 * players)
    assert len(counts) == 12  # 3 red-lead readings x 2 color losses x 2 followings
    assert sum(counts.values()) >= 1000


def test_combined_specs_name_every_play_switch() -> None:
    """The combinations are what they say: each play switch takes every value."""
    for name in PLAY_SWITCHES:
        assert {getattr(r, name) for r in COMBINED} == set(SWITCHES[name])
    assert {r.players for r in COMBINED} == set(PLAYERS)
