"""The double-dummy search's kernel (numba): the one production search, on plain int64
arrays; dd/solve.py's Search drives it (exact values, ranges, races, lines).

Why numba: a pure-Python search runs about 250,000 nodes per second, the limit of the
interpreter; numba compiles these functions to machine code at first use (cached on disk
afterwards), from a wheel on PyPI, with no compiler on the machine.

What is here (the readable references for correctness are ``Position`` for the rules and
the plain minimax of tests/oracles/minimax_ref.py for values; each cut-off's soundness
argument is in its docstring and in docs/search.md):

- the move generator of ``FastState.legal`` (itself ``Position.legal_plays``) for every
  rule reading, and the trick winner of ``trick_winner_index``;
- the zero-window search ``u(r)`` ("can the hero make sure the rest of the round is worth
  at least r?") with the counting bounds, the safe-seat test, the move ordering and a
  transposition table on the canonical key (blue, yellow, green interchangeable);
- the transposition table: open addressing, 4 probes, replace when full. Every stored
  bound is proven, so losing an entry costs time, never exactness;
- one addition of its own, *probes* (see ``game``): from 5 tricks left, in the searches
  with r = 0, each play first gets a small node budget, so that a costly wrong first
  choice does not hold up a cheap right one. They change the work, never an answer.

State layout (``s``, int64): see the ``S_*`` offsets. Plays are coded ``4 * value + color``.

numba's disk cache is checked here against all the kernel's sources together (see
stale.py): no compiled function runs while the modules are imported, so this happens
before any is loaded from the cache.
"""

from catbox_solver.dd.kernel.core import TABLE_BITS, TABLE_FIRST_BITS, Core
from catbox_solver.dd.kernel.cutoffs import (
    _duck,
    _loser_margin,
    _losing_cells,
    _low_follow,
    _lowest,
    _surely_free,
    bounds,
    capacity,
    capacity_holds,
    hero_ducks,
    hero_ducks_twice,
    red_holds,
    safe,
)
from catbox_solver.dd.kernel.game import game, wins_then_safe
from catbox_solver.dd.kernel.layout import (
    B_SIZE,
    B_WORDS,
    PROBE_FIRST,
    PROBE_NODES,
    PROBE_TL,
    S_OWN,
    S_TL,
    S_WON,
    T_HI,
    T_LO,
    T_SIZE,
    TT_BITS,
    TT_LONG_BITS,
    TT_WORDS,
    gen_plays,
)
from catbox_solver.dd.kernel.order import LEARNED_TL, LEARNED_WEIGHTS, _order_low
from catbox_solver.dd.kernel.score import _bonus_possible, bonus_ceiling
from catbox_solver.dd.kernel.stale import keep_kernel_cache_current
from catbox_solver.dd.kernel.table import _at_least, _grown, make_key, tt_find, tt_slot

__all__ = [
    "_at_least",
    "_bonus_possible",
    "_duck",
    "_grown",
    "_loser_margin",
    "_losing_cells",
    "_low_follow",
    "_lowest",
    "_order_low",
    "_surely_free",
    "B_SIZE",
    "B_WORDS",
    "bonus_ceiling",
    "bounds",
    "capacity",
    "capacity_holds",
    "Core",
    "game",
    "gen_plays",
    "hero_ducks",
    "hero_ducks_twice",
    "LEARNED_TL",
    "LEARNED_WEIGHTS",
    "make_key",
    "PROBE_FIRST",
    "PROBE_NODES",
    "PROBE_TL",
    "red_holds",
    "S_OWN",
    "S_TL",
    "S_WON",
    "TABLE_BITS",
    "TABLE_FIRST_BITS",
    "safe",
    "T_HI",
    "T_LO",
    "T_SIZE",
    "TT_BITS",
    "tt_find",
    "TT_LONG_BITS",
    "tt_slot",
    "TT_WORDS",
    "wins_then_safe",
]

keep_kernel_cache_current()
