"""Game analysis benchmark: seconds to annotate a whole game (catbox annotate).

Run: ``python bench/bench_annotate.py [--players 3,4,5] [--seeds 0,1,2]
[--bots random,thumb] [--questions paradox,tricks] [--timeout-per-play 60] [--jobs 1]
[--quick]``.
For each player count, seed and kind of bot, a game is played
(``play_game(Ruleset(players=n), seed, bots)``: ``random``, seeded random bots, which
choose among the legal plays at random, so most rounds end early in a paradox;
``thumb``, the rule-of-thumb bot of ``games.thumb``, which keeps its options and so plays
longer rounds, nearer those of people) and annotated whole for each question,
``timeout-per-play`` seconds for each search of a play. Printed per game: the plays
judged, the seconds in all (wall clock, and the process's CPU seconds: on a machine
shared with other work the wall clock counts the waits too, the CPU seconds only the
work, close to the wall clock on an idle core), the slowest play, and the plays left
unknown by the time limit (``--quick``: the paradox analyses search only what each mark
needs, see ``analyse_game``; unknown then counts the marks left open); then per player
count, bot and question the median and the largest seconds per game. The goal: a
4-player game with the paradox question in under a minute, every play decided. One
core (run it under ``taskset -c 1``), the compiled engine, warmed up first.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

# measure the checkout this script lives in, not an installed copy of the package
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from catbox_solver.annotate.analysis import QUESTIONS, analyse_game  # noqa: E402
from catbox_solver.dd.checks import MAX_JOBS  # noqa: E402
from catbox_solver.dd.warmup import warm_up
from catbox_solver.formats.record import read_record, write_record  # noqa: E402
from catbox_solver.games.bots import Bot, random_bots  # noqa: E402
from catbox_solver.games.game import play_game  # noqa: E402
from catbox_solver.games.thumb import RuleOfThumbBot  # noqa: E402
from catbox_solver.model.rules import Ruleset  # noqa: E402

BOTS = ("random", "thumb")


def bots_for(kind: str, players: int, seed: int) -> list[Bot]:
    """The seats of a benchmark game: seeded random bots, or rule-of-thumb bots."""
    if kind == "random":
        return random_bots(players, seed)
    return [RuleOfThumbBot() for _ in range(players)]


def _ints(ap: argparse.ArgumentParser, text: str, what: str, low: int, high: int) -> list[int]:
    try:
        values = [int(x) for x in text.split(",")]
    except ValueError:
        ap.error(f"--{what} {text!r}: numbers separated by commas")
    for v in values:
        if not low <= v <= high:
            ap.error(f"--{what}: {v} is not {low} to {high}")
    return values


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The arguments, checked before any work (a bad one: a one-line error, exit 2)."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--players", default="3,4,5", help="player counts, e.g. 3,4")
    ap.add_argument("--seeds", default="0,1,2", help="seeds of the games, e.g. 0,1,2")
    ap.add_argument("--bots", default="random,thumb", help="random and/or thumb")
    ap.add_argument("--questions", default="paradox,tricks", help="paradox, tricks, score")
    ap.add_argument("--timeout-per-play", type=float, default=60.0,
                    help="seconds for each search of a play")
    ap.add_argument("--jobs", type=int, default=1, help="plays judged at once (0: per core)")
    ap.add_argument("--quick", action="store_true",
                    help="paradox: search only what each mark needs (catbox annotate --quick)")
    args = ap.parse_args(argv)
    args.player_counts = _ints(ap, args.players, "players", 2, 5)
    args.seed_list = _ints(ap, args.seeds, "seeds", 0, 10**9)
    args.bot_list = [b.strip() for b in args.bots.split(",")]
    for b in args.bot_list:
        if b not in BOTS:
            ap.error(f"--bots: {b!r} is not one of {', '.join(BOTS)}")
    args.question_list = [q.strip() for q in args.questions.split(",")]
    for q in args.question_list:
        if q not in QUESTIONS:
            ap.error(f"--questions: {q!r} is not one of {', '.join(QUESTIONS)}")
    if not 0 < args.timeout_per_play <= 3600:
        ap.error(f"--timeout-per-play {args.timeout_per_play}: more than 0, at most 3600")
    if not 0 <= args.jobs <= MAX_JOBS:
        ap.error(f"--jobs {args.jobs}: 0 to {MAX_JOBS}")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    warm_up()
    print(f"{'players':>7} {'bots':>6} {'seed':>4} {'question':>8} {'plays':>5} "
          f"{'seconds':>8} {'cpu s':>7} {'slowest':>7} {'unknown':>7}")
    totals: dict[tuple[int, str, str], list[float]] = {}
    cpus: dict[tuple[int, str, str], list[float]] = {}
    for n, kind, seed in ((n, k, s) for n in args.player_counts for k in args.bot_list
                          for s in args.seed_list):
        game = play_game(Ruleset(players=n), seed=seed, bots=bots_for(kind, n, seed))
        record = read_record(write_record(game))
        for q in args.question_list:
            begun, cpu = time.perf_counter(), time.process_time()
            a = analyse_game(record, q, args.timeout_per_play, jobs=args.jobs,
                             quick=args.quick and q == "paradox")
            spent, cpu = time.perf_counter() - begun, time.process_time() - cpu
            slowest = max((note.seconds for note in a.notes), default=0.0)
            open_ = sum(note.open for note in a.notes)
            totals.setdefault((n, kind, q), []).append(spent)
            cpus.setdefault((n, kind, q), []).append(cpu)
            print(f"{n:>7} {kind:>6} {seed:>4} {q:>8} {len(a.notes):>5} {spent:>8.1f} "
                  f"{cpu:>7.1f} {slowest:>7.1f} {open_:>7}", flush=True)
    print()
    print(f"{'players':>7} {'bots':>6} {'question':>8} {'games':>5} {'median s':>8} "
          f"{'max s':>7} {'median cpu s':>12} {'max cpu s':>9}")
    for (n, kind, q), times in totals.items():
        used = cpus[n, kind, q]
        print(f"{n:>7} {kind:>6} {q:>8} {len(times):>5} {statistics.median(times):>8.1f} "
              f"{max(times):>7.1f} {statistics.median(used):>12.1f} {max(used):>9.1f}")


if __name__ == "__main__":
    main()
