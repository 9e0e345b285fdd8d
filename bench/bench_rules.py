"""Rules engine benchmark: legal_plays() calls per second and random rounds per second.

Run: ``python bench/bench_rules.py [--seconds S]``. One core, no caching: the mid-round
positions are collected first (distinct, freshly built objects), then ``legal_plays()`` is
timed over them; a round is dealt, discarded, predicted and played out with random legal
plays to the end and scored. Goals with 4 players: >= 200,000 legal_plays/s and >= 2,000
rounds/s. Figures for 2, 3 and 5 players are printed too.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

# measure the checkout this script lives in, not an installed copy of the package
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from catbox_solver.model.deal import first_lead  # noqa: E402
from catbox_solver.model.position import Position  # noqa: E402
from catbox_solver.model.rules import Ruleset  # noqa: E402

GOAL_LEGAL = 200_000
GOAL_ROUNDS = 2_000


def random_round(rules: Ruleset, rng: random.Random) -> tuple[tuple[int, ...], int]:
    """Deal, discard, predict, random legal plays to the end; the round scores and the
    number of plays made (random play usually ends in an early paradox)."""
    pos = first_lead(rules, rng, distinct_discards=False)
    choice = rng.choice
    plays = 0
    while True:
        legal = pos.legal_plays()
        if not legal:
            break
        pos = pos.after(choice(legal))
        plays += 1
    return pos.scores(), plays


def mid_round_positions(rules: Ruleset, count: int, seed: int) -> list[Position]:
    """``count`` distinct positions (round not over, at least one play made) drawn from
    seeded random rounds, one per round."""
    rng = random.Random(seed)
    seen: set[Position] = set()
    out: list[Position] = []
    while len(out) < count:
        pos = first_lead(rules, rng, distinct_discards=False)
        line = []
        while True:
            legal = pos.legal_plays()
            if not legal:
                break
            pos = pos.after(rng.choice(legal))
            if pos.legal_plays():
                line.append(pos)
        if line:
            p = rng.choice(line)
            if p not in seen:
                seen.add(p)
                out.append(p)
    # rebuild each position from its fields so no lazily computed state is carried over
    return [
        Position(
            p.rules,
            p.owners,
            p.neutral,
            p.hands,
            p.colors,
            p.leader,
            p.trick,
            p.tricks_won,
            p.predictions,
            p.tricks_left,
            validate=False,
        )
        for p in out
    ]


def bench_legal(rules: Ruleset, seconds: float, count: int = 4000) -> float:
    """legal_plays() calls per second over ``count`` distinct mid-round positions."""
    positions = mid_round_positions(rules, count, seed=rules.players)
    calls = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        for p in positions:
            p.legal_plays()
        calls += len(positions)
        elapsed = time.perf_counter() - start
    return calls / elapsed


def bench_rounds(rules: Ruleset, seconds: float) -> tuple[float, float]:
    """Complete random rounds (deal to scores) per second, and mean plays per round."""
    rng = random.Random(1000 + rules.players)
    rounds = plays = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        for _ in range(50):
            plays += random_round(rules, rng)[1]
        rounds += 50
        elapsed = time.perf_counter() - start
    return rounds / elapsed, plays / rounds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="time per measurement, more than 0 (default: 2)")
    args = parser.parse_args(argv)
    if not math.isfinite(args.seconds) or args.seconds <= 0:
        parser.error(f"argument --seconds: must be a number of seconds more than 0, "
                     f"not {args.seconds:g}")
    print(f"{'players':>7} {'legal_plays/s':>14} {'rounds/s':>10} {'plays/round':>12}")
    for n in (4, 2, 3, 5):
        rules = Ruleset(players=n)
        legal = bench_legal(rules, args.seconds)
        rounds, mean_plays = bench_rounds(rules, args.seconds)
        note = ""
        if n == 4:
            ok_l = "ok" if legal >= GOAL_LEGAL else "BELOW GOAL"
            ok_r = "ok" if rounds >= GOAL_ROUNDS else "BELOW GOAL"
            note = f"  (goals {GOAL_LEGAL:,}: {ok_l}; {GOAL_ROUNDS:,}: {ok_r})"
        print(f"{n:>7} {legal:>14,.0f} {rounds:>10,.0f} {mean_plays:>12.1f}{note}")


if __name__ == "__main__":
    main()
