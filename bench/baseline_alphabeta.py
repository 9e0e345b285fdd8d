"""The baseline for bench/bench_search.py: a straightforward memoised alpha-beta.

Plain Position objects, a memo keyed on the whole Position (no canonical key), plays in
the engine's order (no move ordering), one full-window search per play (no zero-window
searches, no bounds narrowing). Same paranoid questions as catbox_solver.dd.solve.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

# the checkout this file lives in, not an installed copy of the package
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from catbox_solver.model.position import Position  # noqa: E402

INF = 10_000
EXACT, LOWER, UPPER = 0, 1, 2


class OutOfTime(Exception):
    pass


def _terminal(pos: Position, hero: int, question: str) -> int:
    if question == "table":
        return int(not pos.is_paradox)
    if question == "paradox":
        return int(pos.paradox_by != hero)
    if question == "tricks":
        return pos.trick_points(hero)
    return pos.scores()[hero]


def baseline_solve(
    pos: Position, hero: int, question: str, timeout: float | None = None
) -> list[bool | int] | None:
    """The value after each legal play of the player to move (None on timeout)."""
    deadline = None if timeout is None else time.perf_counter() + timeout
    memo: dict[Position, tuple[int, int]] = {}
    count = [0]

    def ab(p: Position, alpha: int, beta: int) -> int:
        count[0] += 1
        if deadline is not None and not count[0] & 1023 and time.perf_counter() > deadline:
            raise OutOfTime
        plays = p.legal_plays()
        if not plays:
            return _terminal(p, hero, question)
        ent = memo.get(p)
        if ent is not None:
            v, flag = ent
            if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
                return v
        a0, b0 = alpha, beta
        if question == "table" or p.to_move == hero:
            best = -INF
            for pl in plays:
                best = max(best, ab(p.after(pl), alpha, beta))
                alpha = max(alpha, best)
                if alpha >= beta:
                    break
        else:
            best = INF
            for pl in plays:
                best = min(best, ab(p.after(pl), alpha, beta))
                beta = min(beta, best)
                if alpha >= beta:
                    break
        flag = EXACT if a0 < best < b0 else LOWER if best >= b0 else UPPER
        memo[p] = (best, flag)
        return best

    try:
        vals = [ab(pos.after(pl), -INF, INF) for pl in pos.legal_plays()]
    except OutOfTime:
        return None
    if question in ("paradox", "table"):
        return [bool(v) for v in vals]
    return vals


WHAT = ("baseline_alphabeta.py: the plain memoised alpha-beta that bench/bench_search.py "
        "imports (baseline_solve) for its speed-up; not a benchmark itself: "
        "run python bench/bench_search.py")


if __name__ == "__main__":  # run directly: say what this file is (it printed nothing)
    if sys.argv[1:] in ([], ["-h"], ["--help"]):
        print(WHAT)
        sys.exit(0)
    print(f"baseline_alphabeta.py: error: unrecognized arguments: {' '.join(sys.argv[1:])} "
          "(the baseline imported by bench/bench_search.py takes none)", file=sys.stderr)
    sys.exit(2)
