"""Bot ladder benchmark: seat-rotated matches between the OpenSpiel bots of catbox-solver.

Run: ``taskset -c 1 python bench/bench_bots.py [--players 3,4] [--deals 10]
[--bots random,rule,ismcts,single-dummy] [--simulations 100] [--samples 12]
[--budget 0.5] [--seed 0] [--ruleset official] [--json FILE]``, or
``python bench/bench_bots.py --merge RUN.json ...`` for the tables of several saved runs
(of other seeds) together. For each player count,
every deal is played by every lineup of that many bots (all choices of them) in every
rotation around the table, so each bot holds each seat's cards of each deal. Printed per
player count: a Markdown table with each bot's mean round score, the share of its rounds
in which it caused the paradox and the share in which it met its prediction, each with a
95 % confidence interval, a rating (Bradley-Terry on the pairwise round results, Elo
scale, random at 0) and its CPU seconds per move; then the paired score difference of
single-dummy against each other bot with its interval. One thread; pin it to one core.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

# measure the checkout this script lives in, not an installed copy of the package
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from catbox_solver.errors import CatboxError  # noqa: E402
from catbox_solver.model.rules import Ruleset  # noqa: E402
from catbox_solver.openspiel.tournament import (  # noqa: E402
    Match,
    match_table,
    merge,
    run_match,
)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The arguments, checked before any work (a bad one: a one-line error, exit 2)."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--players", default="3,4", help="player counts, e.g. 3,4")
    ap.add_argument("--deals", type=int, default=10, help="deals per player count")
    ap.add_argument("--bots", default="random,rule,ismcts,single-dummy",
                    help="bots, comma-separated (random, rule, ismcts, single-dummy)")
    ap.add_argument("--simulations", type=int, default=100, help="ISMCTS simulations a move")
    ap.add_argument("--samples", type=int, default=12, help="single-dummy deals a move")
    ap.add_argument("--budget", type=float, default=0.5,
                    help="single-dummy seconds a move")
    ap.add_argument("--seed", type=int, default=0, help="seed of the deals and bots")
    ap.add_argument("--ruleset", default="official", help="ruleset, as the CLI takes it")
    ap.add_argument("--json", default=None, help="also write the results as JSON here")
    ap.add_argument("--quiet", action="store_true", help="no progress on stderr")
    ap.add_argument("--merge", nargs="+", default=None, metavar="JSON",
                    help="play nothing: print the tables of earlier runs' --json files "
                    "together (runs of other seeds, same players, bots and ruleset)")
    args = ap.parse_args(argv)
    if args.merge is not None:
        for name in args.merge:
            if not Path(name).is_file():
                ap.error(f"argument --merge: no file {name!r}")
    counts = []
    for part in args.players.split(","):
        part = part.strip()
        if not part.isdigit() or not 2 <= int(part) <= 5:
            ap.error(f"argument --players: {part!r} is not a player count 2-5")
        counts.append(int(part))
    args.player_counts = counts
    names = ("random", "rule", "ismcts", "single-dummy")
    bots = [b.strip() for b in args.bots.split(",")]
    for b in bots:
        if b not in names:
            ap.error(f"argument --bots: no bot {b!r} (bots: {', '.join(names)})")
    if len(set(bots)) != len(bots):
        ap.error("argument --bots: a bot is named twice")
    for n in counts:
        if len(bots) < n:
            ap.error(f"argument --bots: {n} players need at least {n} bots, not {len(bots)}")
    args.bot_list = bots
    for name in ("deals", "simulations", "samples"):
        if getattr(args, name) < 1:
            ap.error(f"argument --{name}: must be at least 1, not {getattr(args, name)}")
    if not args.budget > 0 or args.budget > 3600:
        ap.error(f"argument --budget: seconds above 0 (at most 3600), not {args.budget}")
    for n in counts:
        try:
            Ruleset.from_name(args.ruleset, n)
        except CatboxError as exc:
            ap.error(f"argument --ruleset: {exc}")
    if args.json is not None and not Path(args.json).resolve().parent.is_dir():
        ap.error(f"argument --json: no folder {str(Path(args.json).parent)!r}")
    return args


def report(match: Match) -> None:
    """The table, then single-dummy against each other bot, paired by deal (ISMCTS: the
    goal)."""
    print(match_table(match))
    print()
    for other in ("ismcts", "rule", "random"):
        pair = match.diffs.get(("single-dummy", other))
        if pair is None:
            continue
        verdict = ("confirmed: the interval is above 0" if pair.low > 0 else
                   "not confirmed: the interval reaches 0" if pair.high > 0 else
                   f"{other} ahead")
        print(f"single-dummy less {other}, paired by deal: {pair.text()} ({verdict})")


def merged(names: list[str]) -> int:
    """Print the merged tables of saved runs, one per player count."""
    runs: dict[int, list[dict[str, Any]]] = {}
    for name in names:
        try:
            for run in json.loads(Path(name).read_text()):
                runs.setdefault(run["players"], []).append(run)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            print(f"bench_bots.py: error: --merge {name}: not a saved run ({exc})",
                  file=sys.stderr)
            return 2
    for n in sorted(runs):
        report(merge(runs[n]))
        seeds = sorted(run["seed"] for run in runs[n])
        print(f"seeds {', '.join(map(str, seeds))}\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.merge is not None:
        return merged(args.merge)
    from catbox_solver.dd.warmup import warm_up

    warm_up()
    show = sys.stderr.isatty() and not args.quiet

    def progress(done: int, total: int) -> None:
        if show:
            print(f"\r{done}/{total} rounds", end="", file=sys.stderr, flush=True)

    out = []
    for n in args.player_counts:
        began = time.perf_counter()
        match = run_match(n, args.bot_list, args.deals, args.seed, args.ruleset,
                          {"simulations": args.simulations, "samples": args.samples,
                           "budget": args.budget}, progress)
        if show:
            print(file=sys.stderr)
        report(match)
        print(f"{time.perf_counter() - began:.0f} s\n")
        out.append(match.to_json(args.seed))
    if args.json is not None:
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
