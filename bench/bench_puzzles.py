"""Benchmark of the puzzle generator (run: python bench/bench_puzzles.py [--count K]).

For every theme and every player count it supports, generate ``--count`` verified puzzles
(unique answer, at least three legal plays, at least one tempting wrong play, solved
again by :func:`solve_puzzle` here to be sure) and print the rate in puzzles per minute.
Goal: at least 10 verified puzzles a minute for each theme on one core of this machine.
``--quick`` measures one player count per theme. The compiled search core is loaded
before the first measurement (it would otherwise count in the first row). Exit code 1 when
a theme is below the goal, 2 on a bad argument.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time
from pathlib import Path

# measure the checkout this script lives in, not an installed copy of the package
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from catbox_solver.dd.warmup import warm_up  # noqa: E402
from catbox_solver.puzzles import THEMES, generate, solve_puzzle  # noqa: E402

GOAL = 10.0  # puzzles per minute
PLAYERS = {
    "avoid-paradox": (2, 3, 4, 5),
    "force-paradox": (2, 3, 4, 5),
    "red-lead": (2, 3, 4, 5),
    "red-lead-exception": (2, 3, 4, 5),
    "exact-bid": (3, 4, 5),
    "empty-square": (2,),
}
QUICK = {"avoid-paradox": 4, "force-paradox": 4, "red-lead": 4, "red-lead-exception": 4,
         "exact-bid": 4, "empty-square": 2}


def rate(theme: str, players: int, count: int, seed: int, budget: float) -> tuple[int, float]:
    """(puzzles made, seconds) for up to ``count`` puzzles within ``budget`` seconds."""
    t0 = time.perf_counter()
    made = 0
    for pz in itertools.islice(generate(theme, players, seed), count):
        sol = solve_puzzle(pz)
        if not sol.ok or len(sol.correct_plays) != 1:  # pragma: no cover - a generator bug
            raise SystemExit(f"generated puzzle {pz.id} does not verify: {sol.problems}")
        made += 1
        if time.perf_counter() - t0 > budget:
            break
    return made, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=20,
                    help="puzzles per theme and player count, 1 or more (default: 20)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=float, default=120.0,
                    help="seconds per measurement, more than 0 (default: 120)")
    ap.add_argument("--quick", action="store_true", help="one player count per theme")
    ap.add_argument("--themes", default=",".join(THEMES),
                    help="comma-separated themes to measure (default: all)")
    args = ap.parse_args(argv)
    if args.count < 1:
        ap.error(f"argument --count: must be at least 1, not {args.count}")
    if not math.isfinite(args.budget) or args.budget <= 0:
        ap.error(f"argument --budget: must be a number of seconds more than 0, "
                 f"not {args.budget:g}")
    themes = [t.strip() for t in args.themes.split(",")]
    unknown = [t for t in themes if t not in THEMES]
    if unknown:
        ap.error(f"unknown theme {unknown[0]!r}; one of {', '.join(THEMES)}")
    warm_up()  # load (or compile) the compiled core outside the timings
    print(f"{'theme':<18} {'players':>7} {'puzzles':>7} {'seconds':>8} {'per min':>8}")
    worst: dict[str, float] = {}
    for theme in themes:
        counts = (QUICK[theme],) if args.quick else PLAYERS[theme]
        for n in counts:
            made, secs = rate(theme, n, args.count, args.seed, args.budget)
            per_min = made / secs * 60 if secs > 0 else float("inf")
            worst[theme] = min(worst.get(theme, per_min), per_min)
            print(f"{theme:<18} {n:>7} {made:>7} {secs:>8.2f} {per_min:>8.1f}", flush=True)
    print()
    ok = True
    for theme, r in worst.items():
        verdict = "ok" if r >= GOAL else "BELOW GOAL"
        ok &= r >= GOAL
        print(f"{theme:<18} slowest player count: {r:8.1f} puzzles/min ({verdict}, goal {GOAL:g})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
