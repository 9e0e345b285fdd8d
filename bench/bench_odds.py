"""Hidden-hand odds benchmark: seconds per deal of ``single_dummy`` (catbox odds).

Run: ``python bench/bench_odds.py [--players 2,3,4,5] [--depths 3,4,first] [--count 5]
[--samples 20] [--questions paradox,tricks] [--max-seconds 60] [--jobs 1]``. For each player count,
depth and question: ``count`` positions from bench_search's fixed set (reached by
paradox-free play from seeded deals, at the start of a trick), each weighed over
``samples`` random deals (seed 0) for the player to move, with ``max-seconds`` for the
whole of each position's answer; printed: the median and the largest seconds per deal
searched, the deals decided out of those asked (all positions of the row), and the median
share of the best play (paradox: the share of deals it is safe in; tricks: its mean). One
core (``--jobs``: deals at once, one thread each), the compiled engine, warmed up first.
``tricks`` from the first lead is left out by default: one deal can take minutes
(docs/search.md).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

# measure the checkout this script lives in, not an installed copy of the package
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_search import (  # noqa: E402
    FIRST_LEAD,
    _depths,
    _player_counts,
    _seconds,
    bench_positions,
)

from catbox_solver.dd.checks import MAX_JOBS  # noqa: E402
from catbox_solver.dd.hidden import single_dummy  # noqa: E402
from catbox_solver.dd.warmup import warm_up


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The arguments, checked before any work (a bad one: a one-line error, exit 2), by
    bench_search's own checks of player counts, depths and seconds. ``player_counts``
    comes back as a list, ``depth_list`` as each player count's list of tricks left."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--players", default="2,3,4,5", help="player counts, e.g. 3,4")
    ap.add_argument("--depths", default="3,4,first",
                    help="tricks left at the start of a trick, or 'first' (the first lead)")
    ap.add_argument("--count", type=int, default=5, help="positions per row")
    ap.add_argument("--samples", type=int, default=20, help="deals per position")
    ap.add_argument("--questions", default=None,
                    help="paradox and/or tricks (default both, tricks not from the first "
                    "lead)")
    ap.add_argument("--max-seconds", type=float, default=60.0,
                    help="seconds for each position's answer")
    ap.add_argument("--jobs", type=int, default=1,
                    help="deals searched at once, one thread each (0: one per core)")
    args = ap.parse_args(argv)
    args.player_counts = _player_counts(ap, args.players)
    args.depth_list = {n: _depths(ap, args.depths, n) for n in args.player_counts}
    questions = [q.strip() for q in (args.questions or "paradox,tricks").split(",")]
    for q in questions:
        if q not in ("paradox", "tricks"):
            ap.error(f"argument --questions: {q!r} is not one of paradox, tricks")
    args.question_list = questions
    for name in ("count", "samples"):
        if getattr(args, name) < 1:
            ap.error(f"argument --{name}: must be at least 1, not {getattr(args, name)}")
    if not 0 <= args.jobs <= MAX_JOBS:
        ap.error(f"argument --jobs: must be 0 to {MAX_JOBS}, not {args.jobs}")
    _seconds(ap, "--max-seconds", args.max_seconds)
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    warm_up()
    print(f"{'players':>7} {'left':>5} {'question':>8} {'median s/deal':>13} "
          f"{'worst s/deal':>12} {'decided':>9} {'best play':>9}")
    for players in args.player_counts:
        for depth in args.depth_list[players]:
            positions = bench_positions(players, depth, args.count)
            for question in args.question_list:
                if question == "tricks" and depth == FIRST_LEAD and args.questions is None:
                    continue  # (one deal can take minutes)
                per_deal, best = [], []
                decided = 0
                for pos in positions:
                    sd = single_dummy(pos, question=question, samples=args.samples, seed=0,
                                      timeout=args.max_seconds, jobs=args.jobs)
                    per_deal.append(sd.seconds / max(sd.deals + sd.undecided, 1))
                    decided += sd.deals
                    if sd.plays:
                        best.append(float(sd.plays[0].share))
                left = "first" if depth == FIRST_LEAD else str(depth)
                share = f"{statistics.median(best):.2f}" if best else "-"
                of = f"{decided}/{args.samples * len(positions)}"
                print(f"{players:>7} {left:>5} {question:>8} "
                      f"{statistics.median(per_deal):>13.4f} {max(per_deal):>12.4f} "
                      f"{of:>9} {share:>9}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
