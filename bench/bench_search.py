"""Benchmark of the double-dummy search (catbox_solver.dd.solve).

For each player count and question: the median and worst time and node count over 20
fixed seeded positions with 4, 5 and 6 tricks left and at the first lead of a round (after
discards and predictions); with 5 players, whose round is one trick shorter, 3, 4 and 5
tricks left and the first lead. That is the issue's ladder of goals (`tricks`: 0.05 s,
0.5 s, 5 s, then 60 s from the first lead; 5 players: "the same ladder, one trick
shorter"). ``--depths``, when given, applies to every player count asked. Positions are
reached by paradox-free play from seeded deals (a randomized depth-first search finds a
line that finishes the round with no paradox, and the line is cut at the wanted trick):
random play mostly reaches positions that are already lost, which are easy. The same
positions are solved by the straightforward memoised alpha-beta of
``bench/baseline_alphabeta.py`` (with a time cap, ``--baseline-seconds``) for the speed-up:
baseline time / search time (with ``--repeat N``, the search's best of N runs against
one run of the baseline). Its median and least are over the positions where both
finished, as the line says; when the baseline ran out of time on some, the line adds a
lower bound of the median over every position (an unfinished baseline counted as the time
it ran). The exit code is 1 when any answer disagrees: a finished baseline answer
that differs from the search's, or finished answers of one position that differ between
repeated runs; it is 0 otherwise.

A search that runs out of time (``--max-seconds``; a line cut short counts too) is
counted in the ``timeouts`` column and stays in the medians with the time and nodes it
ran, which are lower bounds: a median or worst that a longer run of such a search could
change is printed as ``>x``. When answers run out of time (``tricks`` and ``score``), a
second line gives the width of the range the value was proven to lie in.

Examples::

    python bench/bench_search.py --players 4 --questions tricks --max-seconds 120
    python bench/bench_search.py --players 4 --depths 4,5 --count 20 --no-baseline
    python bench/bench_search.py --players 4 --depths 6 --questions tricks --jobs 2
    python bench/bench_search.py --players 4 --depths first --questions paradox --repeat 3
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from baseline_alphabeta import baseline_solve  # noqa: E402

from catbox_solver.dd.answer import QUESTIONS, Answer  # noqa: E402
from catbox_solver.dd.checks import MAX_JOBS
from catbox_solver.dd.lines import paradox_free_line  # noqa: E402
from catbox_solver.dd.solve import solve
from catbox_solver.errors import RulesetError  # noqa: E402
from catbox_solver.model.deal import first_lead  # noqa: E402
from catbox_solver.model.position import Position  # noqa: E402
from catbox_solver.model.rules import Ruleset  # noqa: E402
from catbox_solver.questions import Question

FIRST_LEAD = 0  # "tricks left" label for the first lead: the round's full trick count
# the default --depths of each player count: the ladder (0.05 s, 0.5 s, 5 s, then the
# first lead), one trick shorter for 5 players, whose round is one trick shorter
DEFAULT_DEPTHS = {2: "4,5,6,first", 3: "4,5,6,first", 4: "4,5,6,first", 5: "3,4,5,first"}


def bench_positions(players: int, tricks_left: int, count: int = 20, seed: int = 0) -> list[
    Position
]:
    """``count`` positions at the start of a trick with ``tricks_left`` tricks to go
    (FIRST_LEAD: the first lead), on paradox-free lines of seeded rounds."""
    rules = Ruleset(players=players)
    want = rules.tricks if tricks_left == FIRST_LEAD else tricks_left
    out: list[Position] = []
    k = 0
    while len(out) < count:
        rng = random.Random(1000 * players + 100_000 * seed + k)
        k += 1
        pos = first_lead(rules, rng)  # distinct discards: a paradox-free line needs them
        line = paradox_free_line(pos, rng, 20_000)
        if line is None:
            continue
        for play in line:
            if pos.tricks_left == want and not pos.trick:
                break
            pos = pos.after(play)
        out.append(pos)
    return out


def median_worst(xs: list[float], cut: list[bool]) -> tuple[float, bool, float, bool]:
    """The median and the largest of ``xs``, each with whether it is only a lower bound.
    ``cut[i]``: ``xs[i]`` is a lower bound (the time or nodes of a search that ran out of
    time; the whole search takes more). Such values stay in the median. The median is
    exact when every cut value sorts above the middle one(s) (with an even count, the
    median averages the two middle values), since then raising them cannot move it; the
    largest is exact when no value is cut."""
    order = sorted(range(len(xs)), key=lambda i: (xs[i], cut[i]))
    middle = order[: len(xs) // 2 + 1]  # up to the middle value, or the upper of the two
    return (statistics.median(xs), any(cut[i] for i in middle), max(xs), any(cut))


def _fmt(xs: list[float], cut: list[bool], spec: str, widths: tuple[int, int]) -> str:
    """Median and largest of ``xs`` in two columns, a lower bound shown as ``>x``."""
    med, med_cut, worst, worst_cut = median_worst(xs, cut)
    return " ".join(
        f"{'>' if lower else ''}{x:{spec}}".rjust(w)
        for x, lower, w in ((med, med_cut, widths[0]), (worst, worst_cut, widths[1]))
    )


def _fastest(
    pos: Position, hero: int, q: Question, cap: float, jobs: int, repeat: int
) -> tuple[Answer, float, bool]:
    """Solve ``repeat`` times; the fastest answer, its time, and whether the finished
    answers differ (they must not: the search is deterministic; a difference is printed)."""
    best: tuple[Answer, float] | None = None
    seen: set[tuple[object, ...]] = set()
    for _ in range(repeat):
        t0 = time.perf_counter()
        ans = solve(pos, hero, q, timeout=cap, jobs=jobs)
        dt = time.perf_counter() - t0
        if ans.value is not None and ans.pv_complete:
            seen.add((ans.value, tuple(r.result for r in ans.plays), ans.pv))
        if best is None or dt < best[1]:
            best = (ans, dt)
    if len(seen) > 1:
        print(f"  DIFFERENT ANSWERS on repeating {pos!r}")
    assert best is not None
    return (*best, len(seen) > 1)


def speed_up(
    search: list[float], cut: list[bool], base: list[float], base_cut: list[bool],
    base_cap: float,
) -> str:
    """The speed-up line of a row: baseline time / search time per position. Its median
    and least over the positions where both finished (exact ratios), and the median over
    every position where the search finished, a baseline that did not finish counted with
    the time it ran (at least its cap): a lower bound of that median. Positions where the
    search ran out of time are left out of both (the ratio is not known either way)."""
    k = len(search)
    exact = [b / max(t, 1e-6) for t, c, b, bc in zip(search, cut, base, base_cut, strict=True)
             if not c and not bc]
    lower = [b / max(t, 1e-6) for t, c, b in zip(search, cut, base, strict=True) if not c]
    finished = k - sum(base_cut)
    if exact:
        text = (f"x{statistics.median(exact):.0f} at the median (least x{min(exact):.0f}) "
                f"over the {len(exact)} of {k} positions where the baseline finished "
                f"within {base_cap:g} s")
    elif finished:
        text = (f"not known: the baseline finished on {finished} of {k} positions within "
                f"{base_cap:g} s, the search on none of them")
    else:
        text = f"the baseline finished on none of the {k} positions within {base_cap:g} s"
    if sum(base_cut) and lower:
        text += (f"; over all {len(lower)}, at least x{statistics.median(lower):.0f} "
                 "at the median (an unfinished baseline counted as the time it ran)")
    if sum(cut):
        text += f"; {sum(cut)} where the search ran out of time left out"
    return text


def _player_counts(ap: argparse.ArgumentParser, text: str) -> list[int]:
    """``--players``: comma-separated player counts, each one the rules allow."""
    out = []
    for part in text.split(","):
        try:
            n = int(part)
            Ruleset(players=n)
        except (ValueError, RulesetError):
            ap.error(f"argument --players: {part!r} is not a player count (2 to 5)")
        out.append(n)
    return out


def _depths(ap: argparse.ArgumentParser, text: str, players: int) -> list[int]:
    """``--depths`` for ``players``: comma-separated tricks left, each from 1 to the tricks
    of a round (FIRST_LEAD for "first")."""
    out = []
    for part in text.split(","):
        if part == "first":
            out.append(FIRST_LEAD)
            continue
        try:
            depth = int(part)
        except ValueError:
            depth = 0
        if depth < 1:
            ap.error(f"argument --depths: {part!r} is not a number of tricks left "
                     "(1 or more) or 'first'")
        tricks = Ruleset(players=players).tricks
        if depth > tricks:
            ap.error(f"argument --depths: {depth} tricks left is more than the {tricks} "
                     f"tricks of a {players}-player round")
        out.append(depth)
    return out


def _seconds(ap: argparse.ArgumentParser, name: str, value: float) -> float:
    """A time cap: a finite number of seconds, 0 or more."""
    if not math.isfinite(value) or value < 0:
        ap.error(f"argument {name}: must be a number of seconds, 0 or more, not {value:g}")
    return value


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, every argument checked before any work (positions, the core's
    loading): a bad one is a one-line error and exit code 2. ``players`` comes back as a
    list of ints, ``questions`` as a list, ``depths`` as each player count's list of tricks
    left (FIRST_LEAD: the first lead)."""
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", default="2,3,4,5", help="player counts, e.g. 4 or 3,4")
    ap.add_argument("--questions", default=",".join(QUESTIONS))
    ap.add_argument(
        "--depths", default=None,
        help="tricks left, e.g. 4,5 (first = the first lead), for every player count asked "
        "(default: the issue's ladder, 4,5,6,first with 2-4 players and 3,4,5,first with 5)",
    )
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--max-seconds", type=float, default=120.0, help="time cap per solve")
    ap.add_argument(
        "--baseline",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also run the baseline alpha-beta (default: yes)",
    )
    ap.add_argument("--baseline-seconds", type=float, default=60.0, help="baseline time cap")
    ap.add_argument(
        "--jobs", type=int, default=1,
        help="plays searched at once, one thread each (the goals are for 1: one core)",
    )
    ap.add_argument(
        "--repeat", type=int, default=1,
        help="solve each position this many times and keep the fastest (the answers must "
        "agree): for rows of sub-second times, where one run shows the machine's noise; "
        "the baseline still runs once",
    )
    args = ap.parse_args(argv)
    args.players = _player_counts(ap, args.players)
    args.questions = args.questions.split(",")
    unknown = [q for q in args.questions if q not in QUESTIONS]
    if unknown:
        ap.error(f"argument --questions: unknown question {unknown[0]!r} "
                 f"(one of {', '.join(QUESTIONS)})")
    args.depths = {
        n: _depths(ap, DEFAULT_DEPTHS[n] if args.depths is None else args.depths, n)
        for n in args.players
    }
    if args.count < 1:
        ap.error(f"argument --count: must be at least 1, not {args.count}")
    _seconds(ap, "--max-seconds", args.max_seconds)
    _seconds(ap, "--baseline-seconds", args.baseline_seconds)
    if not 0 <= args.jobs <= MAX_JOBS:
        ap.error(f"argument --jobs: must be 0 (one per core) or 1 to {MAX_JOBS}, "
                 f"not {args.jobs}")
    if args.repeat < 1:
        ap.error(f"argument --repeat: must be at least 1, not {args.repeat}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # load (or compile) the numba core once, outside the timings
    warm = bench_positions(3, 1, 1)[0]
    for q in ("paradox", "table"):
        solve(warm, warm.to_move, q)
    if args.jobs != 1:
        print(f"(plays searched {args.jobs or 'one per core'} at once, one thread each)")
    print(
        f"{'p':>2} {'left':>5} {'question':>8} | {'med s':>9} {'worst s':>9} | "
        f"{'med nodes':>10} {'worst nodes':>11} | timeouts | baseline med s"
    )
    disagree = 0  # answers that differ: from the baseline's, or between repeated runs
    for n in args.players:
        for depth in args.depths[n]:
            positions = bench_positions(n, depth, args.count)
            label = "first" if depth == FIRST_LEAD else str(depth)
            for q in args.questions:
                times: list[float] = []
                nodes: list[float] = []
                cut: list[bool] = []  # the search ran out of time: its time and nodes are
                # lower bounds of the whole search's
                widths: list[int] = []  # a timeout's proven range of the value: hi - lo
                base_times: list[float] = []
                base_cut: list[bool] = []  # the baseline ran out of time
                for pos in positions:
                    hero = pos.to_move
                    if q == "score" and pos.predictions is not None and (
                        pos.predictions[hero] is None
                    ):
                        continue
                    ans, dt, differ = _fastest(
                        pos, hero, q, args.max_seconds, args.jobs, args.repeat)
                    disagree += differ
                    times.append(dt)
                    nodes.append(ans.nodes)
                    # (the full answer is timed: a line cut short is a timeout too)
                    cut.append(ans.value is None or not ans.pv_complete)
                    if cut[-1]:
                        if ans.value is None and ans.bounds is not None:
                            widths.append(ans.bounds[1] - ans.bounds[0])
                        elif ans.value is not None and q in ("tricks", "score"):
                            widths.append(0)  # the value known, some plays or the line not
                    if args.baseline:
                        bt0 = time.perf_counter()
                        bval = baseline_solve(pos, hero, q, timeout=args.baseline_seconds)
                        base_times.append(time.perf_counter() - bt0)
                        base_cut.append(bval is None)
                        got = [r.result for r in ans.plays]
                        if bval is not None and None not in got and bval != got:
                            print(f"  DISAGREEMENT with the baseline on {pos!r}")
                            disagree += 1
                if not times:
                    print(f"{n:>2} {label:>5} {q:>8} | no position asks it", flush=True)
                    continue
                base = _fmt(base_times, base_cut, ".3f", (9, 9)).split()[0] if (
                    args.baseline) else ""
                print(
                    f"{n:>2} {label:>5} {q:>8} | {_fmt(times, cut, '.3f', (9, 9))} | "
                    f"{_fmt(nodes, cut, '.0f', (10, 11))} | {sum(cut):8d} | {base:>14}",
                    flush=True,
                )
                if args.baseline:
                    runs = (f" (search: best of {args.repeat} runs, baseline: one run)"
                            if args.repeat > 1 else "")
                    print(
                        f"{'':>17}   speed-up (baseline s / search s){runs}: "
                        f"{speed_up(times, cut, base_times, base_cut, args.baseline_seconds)}",
                        flush=True,
                    )
                if widths:
                    # what a timed-out answer still says: the range of the value proven
                    print(
                        f"{'':>17}   out of time, the value's proven range (hi - lo): median "
                        f"{statistics.median(widths):g}, widest {max(widths)}, at most 1 in "
                        f"{sum(w <= 1 for w in widths)} of {len(widths)}",
                        flush=True,
                    )
    if disagree:
        print(f"{disagree} answer(s) disagree (DISAGREEMENT / DIFFERENT ANSWERS above)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
