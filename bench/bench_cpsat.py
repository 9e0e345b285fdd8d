"""Benchmark of the CP-SAT model (run: python bench/bench_cpsat.py [--quick]).

1. Existence of a paradox-free completion from the first lead of a 4-player round: median
   and worst time over 20 seeded deals (goal: median under 2 s).
2. Every named statement for every player count it is about (goal: under 60 s each).

The solver uses 2 workers (this machine has 2 cores). ``--quick`` runs part 1 only.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

# measure the checkout this script lives in, not an installed copy of the package
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from catbox_solver.cpsat.exists import exists, no_paradox  # noqa: E402
from catbox_solver.cpsat.proofs import STATEMENTS, prove  # noqa: E402
from catbox_solver.model.deal import first_lead  # noqa: E402
from catbox_solver.model.position import Position  # noqa: E402
from catbox_solver.model.rules import Ruleset  # noqa: E402

WORKERS = 2


def first_lead_of(rules: Ruleset, seed: int) -> Position:
    """A seeded deal at its first lead, distinct discards, no predictions."""
    return first_lead(rules, seed, start=0, distinct_discards=True, predictions=False)


def bench_existence(count: int = 20) -> None:
    rules = Ruleset(4)
    times = []
    found = 0
    unknown = 0
    for seed in range(count):
        pos = first_lead_of(rules, seed)
        ans = exists(pos, [no_paradox()], workers=WORKERS, timeout=60)
        times.append(ans.seconds)
        found += ans.exists is True
        unknown += ans.exists is None
    print(
        f"exists --no-paradox, 4 players, first lead, {count} seeded deals: "
        f"median {statistics.median(times):.2f} s, worst {max(times):.2f} s "
        f"({found} with a paradox-free line, {count - found - unknown} impossible, "
        f"{unknown} unknown)"
    )
    sys.stdout.flush()


def bench_proofs() -> None:
    for st in STATEMENTS.values():
        for n in st.players:
            t0 = time.perf_counter()
            (res,) = prove(st.name, n, workers=WORKERS, timeout=120)
            wall = time.perf_counter() - t0
            print(f"prove {st.name:20} {n} players: {res.verdict:14} {wall:6.1f} s")
            for line in res.findings:
                if not line.startswith("cells that are never empty (0)"):
                    print(f"    {line}")
            sys.stdout.flush()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="existence benchmark only")
    args = parser.parse_args(argv)
    bench_existence()
    if not args.quick:
        bench_proofs()


if __name__ == "__main__":
    main()
