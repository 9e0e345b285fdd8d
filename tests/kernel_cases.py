"""Seeded positions and brute-force values shared by the tests of the compiled search
(test_kernel_cutoffs.py, test_kernel_search.py). The references are the rules engine
(``Position``) and the plain minimax over it (oracles.minimax_ref), memoized here."""

from __future__ import annotations

import random
from functools import cache

from oracles.gen import paradox_free_line, random_line, replay, start_position
from oracles.minimax_ref import terminal_value

from catbox_solver.dd.fast import FastState
from catbox_solver.dd.kernel import PROBE_FIRST, PROBE_NODES, PROBE_TL, Core
from catbox_solver.model.position import Position
from catbox_solver.model.rules import PRESETS, Ruleset

RULESETS = [Ruleset.from_name(name, n) for n in (2, 3, 4, 5) for name in PRESETS]

Memo = dict[tuple[Position, int, str], int | bool]


def core_for(
    fs: FastState,
    hero: int,
    tt_bits: int | None = None,
    probes: tuple[int, int, int] = (PROBE_TL, PROBE_NODES, PROBE_FIRST),
) -> Core:
    """A Core for ``hero`` with the state of ``fs`` loaded (``tt_bits``: see Core)."""
    core = Core(
        hero,
        (fs.n, fs.nv, fs.redrow, int(fs.must_follow), int(fs.loss_led), fs.red_lead),
        tt_bits=tt_bits,
        probes=probes,
    )
    core.load(fs.used, fs.leader, fs.tricks_left, fs.trick, fs.hands, fs.colors)
    return core


@cache
def round_lines() -> tuple[tuple[Position, ...], ...]:
    """4 seeded random rounds per ruleset, each as the positions along it (the final one
    included)."""
    rng = random.Random(7)
    out: list[tuple[Position, ...]] = []
    for rules in RULESETS:
        for _ in range(4):
            out.append(tuple(random_line(start_position(rules, rng), rng)))
    return tuple(out)


@cache
def round_positions() -> tuple[Position, ...]:
    """Every position of the rounds of ``round_lines``."""
    return tuple(p for line in round_lines() for p in line)


def pf_line(rules: Ruleset, rng: random.Random) -> list[Position]:
    """Positions along a paradox-free line of a seeded round (the first of a few deals
    that has one)."""
    for _ in range(20):
        pos = start_position(rules, rng, distinct_discards=True)
        plays = paradox_free_line(pos, 20_000, seed=rng.randrange(10**6))
        if plays is not None:
            return replay(pos, plays)
    raise AssertionError(f"no paradox-free line for {rules}")


def case_positions(seed: int, rulesets: list[Ruleset], lines: int = 4) -> list[Position]:
    """The positions of the random rounds of ``rulesets``, then those of ``lines``
    paradox-free lines per ruleset (seeded by ``seed``)."""
    rng = random.Random(seed)
    out = [p for p in round_positions() if p.rules in rulesets]
    for rules in rulesets:
        for _ in range(lines):
            out.extend(pf_line(rules, rng))
    return out


@cache
def small_positions() -> tuple[Position, ...]:
    """Seeded positions with 1-3 tricks left and a legal play, of every ruleset: per
    ruleset 2 paradox-free lines (the hard ones) and 2 random lines, up to 3 positions of
    each."""
    rng = random.Random(2025)
    out: list[Position] = []
    for rules in RULESETS:
        for kind in ("paradox-free", "random", "paradox-free", "random"):
            if kind == "random":
                line = random_line(start_position(rules, rng), rng)
            else:
                line = pf_line(rules, rng)
            cands = [p for p in line if 0 < p.tricks_left <= 3 and p.legal_plays()]
            out.extend(rng.sample(cands, min(3, len(cands))))
    return tuple(out)


def value(pos: Position, hero: int, question: str, memo: Memo) -> int | bool:
    """The plain minimax of oracles.minimax_ref (the hero maximises, every other seat
    minimises; ``table`` cooperative), memoized on the position."""
    got = memo.get((pos, hero, question))
    if got is None:
        plays = pos.legal_plays()
        if not plays:
            got = terminal_value(pos, hero, question)
        else:
            values = [value(pos.after(p), hero, question, memo) for p in plays]
            best = question == "table" or pos.to_move == hero
            got = max(values) if best else min(values)
        memo[(pos, hero, question)] = got
    return got


def rest_value(pos: Position, hero: int, memo: Memo) -> int:
    """The trick game's value of the rest of the round (``u``: g more tricks and no
    paradox of the hero, or -1 - g when it causes one after g more), by the plain
    minimax: the trick points less those already won, the paradox verdict telling the
    two cases apart."""
    points = value(pos, hero, "tricks", memo)
    won = pos.tricks_won[hero]
    assert isinstance(points, int)
    return points - won if value(pos, hero, "paradox", memo) else points + won - 1
