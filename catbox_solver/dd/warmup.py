"""Making the compiled kernel ready: numba compiles it at the first search after an
install (then it loads from its disk cache), and a search's clock starts only after."""

from __future__ import annotations

import time

from catbox_solver.dd.search import Search
from catbox_solver.dd.threads import _pool
from catbox_solver.formats.notation import position_from_notation


def warm_up() -> None:
    """Make the compiled core ready: numba compiles it at its first use after an install
    (40 s to 2 minutes on one core of the development machine) and then loads it from its disk
    cache (a fraction of a second). A tiny position is searched for the trick and score
    game and the cooperative search, in this thread and in a worker of the search pool,
    whose entry points differ (see core._entry). Commands call it before their searches
    start, so that the wait comes first and can be named, not inside a progress line.
    Once done, a call returns at once."""
    _make_ready()


def search_clock() -> float:
    """The moment a search's timeout and its reported seconds count from: after the
    kernel is ready, since its first compile after an install is not the search's time
    and would otherwise turn a first answer with a timeout into "unknown"."""
    _make_ready()
    return time.perf_counter()


def _make_ready() -> None:
    """warm_up's work (solve and the others call this, not the public name)."""
    global _warm
    if _warm:
        return
    pos = position_from_notation(
        "3p official | R:...112 B:.22222 Y:.11011 G:0000.0 | 126 115 134 | G RY B | lead 1 "
        "| won 1 4 1 | bid 4 4 1 | left 2"
    )

    def run() -> None:
        for question in ("score", "table"):
            Search(pos, pos.to_move).exact(question)

    run()
    _pool().submit(run).result()  # (a worker of the searches' own pool)
    _warm = True


_warm = False  # warm_up has run in this process
