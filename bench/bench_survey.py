"""Survey benchmark: deals per second of ``catbox survey run``, and what Dask costs.

Run: ``python bench/bench_survey.py [--players 3,4] [--questions table,paradox] [--deals
table=2000,paradox=6] [--workers 1,2] [--threads]``. For each player count and question,
the same deals (seed 0, 60 s a deal) are answered three ways: a plain loop over
``run_deals`` in this process (no Dask, nothing stored); through a LocalCluster of 1
worker (the Dask overhead: its time per deal against the loop's); and through a
LocalCluster of each ``--workers`` count (processes of one thread; ``--threads``: one
process of that many threads, for the processes-or-threads choice). Each Dask run stores
its rows in a fresh temporary directory, as ``catbox survey run`` does; the cluster's
start is not counted (its workers are warmed up first: the kernel loaded and one deal
answered, which imports the task's modules), the chunks are the default ones. Printed:
deals per second, the speed-up of the most workers over the fewest, the limit of that
speed-up (``limit``: the most any schedule could give, as a deal is never split, see
``schedule_limit``; a few deals that each take the whole timeout hold it well under the
worker count), and the overhead over the loop. This machine's speed moves by about 10 %
from one minute to the next, more than the overhead itself, so ``--repeat K`` measures
the overhead K times, each a loop followed at once by the 1-worker run over the same
deals, and prints the median and the range. With ``--pool``, the same chunks also go to
a plain process pool of the most workers, without Dask (``pool``: its speed-up over the
loop; ``slower``: how much longer each deal's search took there than in the loop, its
rows' search seconds over the loop's), which tells what the machine itself gives several
searches at once from what Dask costs. The machine's load average is printed too: on a
shared machine the figures move with it."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

# measure the checkout this script lives in, not an installed copy of the package
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from catbox_solver.dd.warmup import warm_up  # noqa: E402
from catbox_solver.survey.deals import chunk_table, run_deals  # noqa: E402
from catbox_solver.survey.runner import (  # noqa: E402
    chunks,
    close_client,
    default_chunk,
    local_client,
    run_survey,
)
from catbox_solver.survey.spec import SurveySpec  # noqa: E402

QUESTIONS = ("table", "paradox")
TIMEOUT = 60.0
"""Seconds per deal, as ``catbox survey run`` by default (a rare 4-player deal's ``table``
takes minutes without one)."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The arguments, checked before any work (a bad one: one line, exit 2)."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--players", default="3,4", help="player counts, e.g. 3,4")
    ap.add_argument("--questions", default="table,paradox", help="table and/or paradox")
    ap.add_argument("--deals", default="table=2000,paradox=6",
                    help="deals per row for each question, QUESTION=N,...")
    ap.add_argument("--workers", default="1,2", help="worker counts, e.g. 1,2")
    ap.add_argument("--threads", action="store_true",
                    help="workers as threads of one process (default: processes)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="measure the overhead this many times (loop, then 1 worker), "
                         "printing the median and the range")
    ap.add_argument("--pool", action="store_true",
                    help="also run the chunks on a plain process pool of the most workers")
    args = ap.parse_args(argv)
    try:
        args.player_counts = [int(x) for x in args.players.split(",")]
        args.worker_counts = [int(x) for x in args.workers.split(",")]
    except ValueError:
        ap.error(f"--players and --workers are whole numbers separated by commas, not "
                 f"{args.players!r}, {args.workers!r}")
    if not all(2 <= n <= 5 for n in args.player_counts):
        ap.error(f"--players: player counts are 2 to 5, not {args.players!r}")
    if not all(1 <= w <= 64 for w in args.worker_counts):
        ap.error(f"--workers: 1 to 64 workers, not {args.workers!r}")
    if not 1 <= args.repeat <= 100:
        ap.error(f"--repeat: 1 to 100 times, not {args.repeat}")
    args.question_list = [q.strip() for q in args.questions.split(",")]
    bad = [q for q in args.question_list if q not in QUESTIONS]
    if bad:
        ap.error(f"--questions: {', '.join(bad)} not one of {', '.join(QUESTIONS)}")
    counts: dict[str, int] = {}
    for part in args.deals.split(","):
        q, sep, n = part.partition("=")
        if not sep or q not in QUESTIONS or not n.isdigit() or int(n) < 1:
            ap.error(f"--deals: QUESTION=N with N 1 or more, not {part!r}")
        counts[q] = int(n)
    missing = [q for q in args.question_list if q not in counts]
    if missing:
        ap.error(f"--deals: no count for {', '.join(missing)}")
    args.deal_counts = counts
    return args


def schedule_limit(rows: list[dict[str, Any]], workers: int) -> float:
    """The largest speed-up any schedule of these deals on ``workers`` workers can reach
    over one. A deal is not split, so no run is shorter than the total over ``workers``,
    nor than the sum of the k + 1 shortest of the k * workers + 1 longest deals for any
    k (one worker gets k + 1 of those: k = 0 is the longest deal; with 2 workers and
    three deals of 60 s, k = 1 gives 120 s). (From the search seconds of the loop's rows:
    a deal's seconds summed over its seats.)"""
    per_deal: dict[int, float] = {}
    for row in rows:
        per_deal[row["deal"]] = per_deal.get(row["deal"], 0.0) + row["seconds"]
    times = sorted(per_deal.values(), reverse=True)
    total = sum(times)
    if total <= 0:
        return float(workers)
    bound = total / workers
    k = 0
    while k * workers + 1 <= len(times):
        top = times[:k * workers + 1]
        bound = max(bound, sum(top[-(k + 1):]))
        k += 1
    return total / bound


def through_dask(spec: SurveySpec, deals: int, workers: int, processes: bool) -> float:
    """Seconds for ``deals`` deals on a warmed-up LocalCluster of ``workers``."""
    client = local_client(workers, processes)
    try:
        client.run(warm_up)
        # the first task of a fresh worker imports the task's modules (pyarrow among
        # them, 0.3 s or so): once per worker, as the kernel's load, and done before the
        # loop's clock too
        client.run(chunk_table, spec, [0])
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            run_survey(spec, deals, Path(tmp) / "s", client=client)
            return time.perf_counter() - start
    finally:
        close_client(client)


def through_loop(spec: SurveySpec, deals: int) -> tuple[float, list[dict[str, Any]]]:
    """Seconds for ``deals`` deals in a plain loop in this process, and their rows."""
    start = time.perf_counter()
    rows = run_deals(spec, list(range(deals)))
    return time.perf_counter() - start, rows


def overheads(spec: SurveySpec, deals: int, processes: bool, loop: float, one: float,
              repeat: int) -> list[float]:
    """The overhead in percent of a 1-worker run over the loop: the pair measured already
    (``loop``, ``one``), then ``repeat`` - 1 more pairs, each loop followed at once by its
    1-worker run, so that both halves of a pair see the machine at the same speed."""
    out = [100 * (one / loop - 1)]
    for _ in range(repeat - 1):
        seconds, _ = through_loop(spec, deals)
        out.append(100 * (through_dask(spec, deals, 1, processes) / seconds - 1))
    return out


def _ready(seconds: float) -> None:
    """A pool task that holds its process a moment, so that each process takes one."""
    time.sleep(seconds)


def through_pool(spec: SurveySpec, deals: int, workers: int) -> tuple[float, list[dict[str, Any]]]:
    """Seconds for ``deals`` deals on a warmed-up pool of ``workers`` processes, without
    Dask, in the chunks ``catbox survey run`` would use, and the rows they gave."""
    parts = chunks(list(range(deals)), default_chunk(spec, deals, workers))
    with ProcessPoolExecutor(workers, initializer=warm_up) as pool:
        for f in [pool.submit(_ready, 1.0) for _ in range(workers)]:
            f.result()
        start = time.perf_counter()
        futures = [pool.submit(run_deals, spec, part) for part in parts]
        rows = [row for f in futures for row in f.result()]
        return time.perf_counter() - start, rows


def pool_columns(spec: SurveySpec, deals: int, workers: int, loop: float,
                 loop_rows: list[dict[str, Any]]) -> str:
    """The ``pool`` and ``slower`` columns (see the module's docstring)."""
    seconds, rows = through_pool(spec, deals, workers)
    searched = sum(r["seconds"] for r in loop_rows)
    slower = sum(r["seconds"] for r in rows) / searched if searched > 0 else 1.0
    return f" {loop / seconds:>5.2f}x {slower:>5.2f}x"


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    warm_up()
    mode = "threads" if args.threads else "processes"
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
          f"workers as {mode}")
    print(f"{'players':>7} {'question':>8} {'deals':>6} {'loop/s':>8} "
          + " ".join(f"{f'{w}w/s':>8}" for w in args.worker_counts)
          + f" {'speed-up':>8} {'limit':>6} {'overhead':>8}"
          + (f" {'range':>13}" if args.repeat > 1 else "")
          + (f" {'pool':>6} {'slower':>6}" if args.pool else ""))
    for n in args.player_counts:
        for q in args.question_list:
            spec = SurveySpec(n, "official", q, 0, timeout=TIMEOUT)
            deals = args.deal_counts[q]
            loop, rows = through_loop(spec, deals)
            limit = schedule_limit(rows, max(args.worker_counts))
            times = {w: through_dask(spec, deals, w, not args.threads)
                     for w in args.worker_counts}
            lo, hi = min(args.worker_counts), max(args.worker_counts)
            one = through_dask(spec, deals, 1, not args.threads) if 1 not in times else times[1]
            over = sorted(overheads(spec, deals, not args.threads, loop, one, args.repeat))
            print(f"{n:>7} {q:>8} {deals:>6} {deals / loop:>8.3g} "
                  + " ".join(f"{deals / times[w]:>8.3g}" for w in args.worker_counts)
                  + f" {times[lo] / times[hi]:>7.2f}x {limit:>5.2f}x"
                  + f" {statistics.median(over):>7.1f}%"
                  + (f" {over[0]:>5.1f}..{over[-1]:>5.1f}%" if args.repeat > 1 else "")
                  + (pool_columns(spec, deals, hi, loop, rows) if args.pool else ""),
                  flush=True)


if __name__ == "__main__":
    main()
