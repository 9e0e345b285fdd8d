"""Oracle ceilings of coarser transposition tables, measured on the walls (docs/search.md,
"Routes measured and their ceilings").

A table keyed by less than the full key (a *projection* of the state) would let one stored
answer stand for every trick start of its class. This script measures how much such a
table could save at most on one whole search, so that a route whose ceiling is short of
its goal is closed before anyone builds it:

1. A recording copy of the kernel's zero-window search (``game``, made from the kernel's
   own source with one call added at each of its table stores) searches the wall from a
   fresh table and records every trick start it stores: tricks left, threshold, answer,
   the node counter at its start and at its store (so its subtree), its raw state (used
   cells, leader, hands, colors) and its key. The copy is checked against the kernel: the
   same answer in the same nodes, or the exit code is 1.
2. Two entries are in one class when they share the tricks left and the threshold and
   either their key or their projection (joined transitively, so the class is at least
   as coarse as the table's own key). A class is *consistent* when all its entries have
   the same answer.
3. The search is replayed in its own order: an entry whose class is consistent and was
   seen before skips its subtree. The ceiling is the search's nodes divided by the nodes
   left.

The oracle knows which classes are consistent, so no table keyed by that projection,
sound or not, could save more on that search. Projections (``--list`` shows them):
``key`` (the key alone: x1.00, the check of the method), ``hero-colors`` (the hero's
colors forgotten: a bound for the hero's own dominance, a stored answer used for a hero
with more or fewer colors), ``coalition-colors``, ``colors``, ``coalition-hands``,
``coalition`` (the coalition's hands and colors forgotten, the board and leader kept: a
bound for coalition-resource dominance) and ``hero-alone`` (the free cells the hero can
fill, its hand and colors, the leader: no sound table is this coarse).

The same records give the ceiling of a perfect evaluation ``d`` tricks deep (``--depths``):
every stored trick start with at most ``d`` tricks left answered in one node, whatever it
costs to know the answer. It bounds every test or formula that decides the end of a round
without search (the one- and two-trick duck tests are such evaluations, partial).

``--position NOTATION`` records that position's search instead (the hero the seat to move,
``u >= --threshold``, by default 0: the paradox question), and ``--max-nodes`` stops each
search there: the ceilings are then those of the trick starts finished within the cap, a
profile of where an open search spends its nodes.

Examples::

    python bench/bench_ceilings.py                       # the five walls under 20 M nodes
    python bench/bench_ceilings.py --projections none --depths 2,3,4
    python bench/bench_ceilings.py --projections none --depths 3,4 --max-nodes 1e6 \
        --position "4p official | R:....0... B:........ Y:........ G:.......3 | 11122568 \
    123346678 234445678 12356778 | RBY RBYG RBYG RBYG | lead 3: 8g 5r | won 0 0 0 0 | \
    bid 1 2 2 3 | left 8"
    python bench/bench_ceilings.py --walls 5p10-5b-6y --projections key,hero-colors,coalition
    python bench/bench_ceilings.py --list
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_walls import WALLS, _search, wall_position  # noqa: E402

from catbox_solver.dd.kernel.layout import S_ABORT, S_LIMIT, S_NODES, TT_WORDS  # noqa: E402
from catbox_solver.dd.search import Search  # noqa: E402
from catbox_solver.errors import CatboxError  # noqa: E402
from catbox_solver.model.position import Position  # noqa: E402

Records = npt.NDArray[np.int64]

# the columns of a record
TL, R, ANSWER, N_IN, N_OUT, USED, LEADER = range(7)
HANDS = 7  # 5 columns
COLORS = 12  # 5 columns
KEY = 17  # TT_WORDS columns (the key's words)
WIDTH = KEY + TT_WORDS

KERNEL_GAME = Path(__file__).resolve().parents[1] / "catbox_solver/dd/kernel/game.py"
"""The source the recording copy is made from: this checkout's kernel."""

DEFAULT_WALLS = ("p0-2b-4b", "p0-2b-2r", "p0-1b-2y", "p1-2b-6b", "5p10-5b-6y")
"""The walls with a known answer under 20 M nodes (the others take 225-608 M)."""

# ---- the recording copy of the kernel's search --------------------------------------------

RECORDER = '''
from numba import njit as _njit_plain
from catbox_solver.dd.kernel.layout import B_WORDS as _B_WORDS, TT_WORDS as _TT_WORDS

_jit = _njit_plain(error_model="numpy")  # this copy is not cached


@_jit
def _record(rec, s, row, tl, r, res, n_in):
    """Append one stored trick start to ``rec`` (row 0, column 0: the count)."""
    i = rec[0, 0] + 1
    if i >= rec.shape[0]:
        rec[0, 1] = 1  # full: the count stops, the search goes on
        return
    rec[0, 0] = i
    q = rec[i]
    q[0] = tl
    q[1] = r
    q[2] = 1 if res else 0
    q[3] = n_in
    q[4] = s[S_NODES]
    q[5] = s[S_USED]
    q[6] = s[S_LEADER]
    for j in range(5):
        q[7 + j] = s[S_HANDS + j]
        q[12 + j] = s[S_COLORS + j]
    for j in range(_TT_WORDS):
        q[17 + j] = row[_B_WORDS + j]
'''

PATCHES: tuple[tuple[str, str], ...] = (
    # the copy compiles with its own, uncached decorator (defined in RECORDER)
    ("    _jit,\n", "    _jit as _jit_cached,\n"),
    ("from catbox_solver.dd.kernel.table import _store, make_key, tt_find, tt_slot\n",
     "from catbox_solver.dd.kernel.table import _store, make_key, tt_find, tt_slot\n"
     + RECORDER),
    # the node counter at the start of a trick start's search
    ("    keyed = tlen == 0\n    slot = -1\n",
     "    keyed = tlen == 0\n    slot = -1\n    n_in = s[S_NODES]\n"),
    # each store of the trick game is recorded (``tsc``, the score table, is unused in
    # the trick game: the records go there)
    ("                    _store(tt, row, tl, zero, True)\n",
     "                    _store(tt, row, tl, zero, True)\n"
     "                    _record(tsc, s, row, tl, zero, True, n_in)\n"),
    ("                        _store(tt, row, tl, r, True)\n",
     "                        _store(tt, row, tl, r, True)\n"
     "                        _record(tsc, s, row, tl, r, True, n_in)\n"),
    ("    if keyed:\n        _store(tt, row, tl, r, res)\n    return res\n",
     "    if keyed:\n        _store(tt, row, tl, r, res)\n"
     "        _record(tsc, s, row, tl, r, res, n_in)\n    return res\n"),
)


def recording_source(text: str) -> str:
    """The kernel's ``game`` module source with the recording added. A ValueError names
    the first place of the source that is no longer where this script expects it."""
    for old, new in PATCHES:
        if text.count(old) != 1:
            raise ValueError(f"the kernel's game.py changed: {old.strip()!r} is found "
                             f"{text.count(old)} times, not once; update PATCHES")
        text = text.replace(old, new)
    return text


def recording_module(workdir: str) -> ModuleType:
    """The recording copy of the kernel's game module, written to ``workdir``."""
    path = Path(workdir) / "recording_game.py"
    source = KERNEL_GAME.read_text(encoding="utf-8")
    path.write_text(recording_source(source), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("recording_game", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["recording_game"] = module  # numba resolves the copy's functions by module name
    spec.loader.exec_module(module)
    return module


def record(recorder: ModuleType, name: str, pos: Position, hero: int, r: int,
           max_entries: int, cap: int = 0) -> tuple[bool | None, int, Records]:
    """``u >= r`` for ``hero`` on ``pos`` searched by the recording copy from a fresh
    table, within ``cap`` nodes (0: no cap): its answer (None: the cap ended it), its nodes
    and its records (one row per stored trick start, in the order they were stored; a
    capped search stores nothing after the cap, so its records are the trick starts it
    finished)."""
    core = Search(pos, hero)._loaded_core()  # noqa: SLF001 (the kernel's state is recorded)
    core._fresh()  # noqa: SLF001
    if cap:
        core.s[S_LIMIT] = cap
    rec = np.zeros((max_entries + 1, WIDTH), dtype=np.int64)
    res = recorder.game(core.s, 0, r, 0, core.buf, core._trick_table(), rec, -1.0)  # noqa: SLF001
    if rec[0, 1]:
        raise OverflowError(f"{name}: more than {max_entries:,} entries; "
                            f"raise --max-entries")
    answer = None if core.s[S_ABORT] else bool(res)
    return answer, int(core.s[S_NODES]), rec[1:int(rec[0, 0]) + 1]


# ---- classes and the oracle's replay ------------------------------------------------------

Projection = Callable[[Records, int], npt.NDArray[np.int64]]


def _cols(rec: Records, cols: Sequence[int]) -> npt.NDArray[np.int64]:
    return rec[:, list(cols)]


def _hero_alone(rec: Records, hero: int) -> npt.NDArray[np.int64]:
    """The free cells the hero can fill (a free cell of a value it holds, in its
    colors), its hand and colors, the leader."""
    used = rec[:, USED]
    hand = rec[:, HANDS + hero]
    colors = rec[:, COLORS + hero]
    free = np.zeros(len(rec), dtype=np.int64)
    for v in range(9):
        held = (hand >> (4 * v)) & 15 != 0
        cells = (~used >> (4 * v)) & 15 & colors
        free |= np.where(held, cells, 0) << (4 * v)
    return np.column_stack([rec[:, LEADER], hand, colors, free])


def _others(hero: int, first: int) -> list[int]:
    return [first + i for i in range(5) if i != hero]


PROJECTIONS: dict[str, tuple[Projection, str]] = {
    "key": (lambda rec, hero: _cols(rec, range(KEY, KEY + 4)),
            "the key alone (x1.00: the check of the method)"),
    "hero-colors": (lambda rec, hero: _cols(
        rec, [USED, LEADER, *range(HANDS, HANDS + 5), *_others(hero, COLORS)]),
        "the hero's colors forgotten (the hero's own dominance)"),
    "coalition-colors": (lambda rec, hero: _cols(
        rec, [USED, LEADER, *range(HANDS, HANDS + 5), COLORS + hero]),
        "the coalition's colors forgotten"),
    "colors": (lambda rec, hero: _cols(rec, [USED, LEADER, *range(HANDS, HANDS + 5)]),
               "every seat's colors forgotten"),
    "coalition-hands": (lambda rec, hero: _cols(
        rec, [USED, LEADER, HANDS + hero, *range(COLORS, COLORS + 5)]),
        "the coalition's hands forgotten"),
    "coalition": (lambda rec, hero: _cols(rec, [USED, LEADER, HANDS + hero, COLORS + hero]),
                  "the coalition's hands and colors forgotten, the board kept "
                  "(coalition-resource dominance)"),
    "hero-alone": (_hero_alone, "the hero's fillable free cells, hand and colors, "
                   "the leader (not sound)"),
}


def _labels(rec: Records, part: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """One label per distinct (tricks left, threshold, ``part``) row."""
    rows = np.column_stack([rec[:, TL], rec[:, R], part])
    return np.unique(rows, axis=0, return_inverse=True)[1].reshape(-1).astype(np.int64)


def classes(rec: Records, part: npt.NDArray[np.int64]) -> list[int]:
    """Each entry's class: entries of one tricks left and threshold joined when their
    keys are equal or their ``part`` rows are (union-find, transitively)."""
    by_key = _labels(rec, rec[:, KEY:KEY + 4])
    by_part = _labels(rec, part)
    parent = list(range(len(rec)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for labels in (by_key, by_part):
        first: dict[int, int] = {}
        for i, label in enumerate(labels.tolist()):
            j = first.setdefault(label, i)
            if j != i:
                a, b = find(i), find(j)
                if a != b:
                    parent[a] = b
    return [find(i) for i in range(len(rec))]


def _saved(rec: Records, skips: Callable[[int], bool]) -> int:
    """The nodes a replay saves: entries in the search's order (the node counter at their
    start), each one for which ``skips(i)`` holds skipping its subtree (the nodes from its
    start to its store; its own node is counted before its start). An entry inside a
    subtree already skipped is never looked at, so nothing is saved twice."""
    saved = 0
    skipped_until = -1
    for i in np.argsort(rec[:, N_IN], kind="stable").tolist():
        start, end = int(rec[i, N_IN]), int(rec[i, N_OUT])
        if start <= skipped_until:
            continue  # inside a subtree already skipped
        if skips(i):
            saved += end - start
            skipped_until = end
    return saved


def ceiling(rec: Records, cls: Sequence[int], nodes: int) -> tuple[float, int, int]:
    """The oracle's replay: (nodes / nodes left, mixed classes, classes). An entry whose
    class is consistent and was seen before skips its subtree."""
    answers: dict[int, set[int]] = {}
    for c, a in zip(cls, rec[:, ANSWER].tolist(), strict=True):
        answers.setdefault(c, set()).add(a)
    seen: set[int] = set()

    def skips(i: int) -> bool:
        c = cls[i]
        known = c in seen
        seen.add(c)
        return known and len(answers[c]) == 1

    saved = _saved(rec, skips)
    mixed = sum(1 for a in answers.values() if len(a) > 1)
    return nodes / max(1, nodes - saved), mixed, len(answers)


def depth_ceiling(rec: Records, depth: int, nodes: int) -> float:
    """The ceiling of a perfect evaluation ``depth`` tricks deep: every stored trick start
    with at most ``depth`` tricks left answered in one node, its subtree never searched.
    Trick starts decided before their store (table hits, the entry tests) are cheap and
    stay as they are. No evaluation of the position that deep, by search or by formula,
    could save more on that search."""
    tl = rec[:, TL]
    saved = _saved(rec, lambda i: bool(tl[i] <= depth))
    return nodes / max(1, nodes - saved)


# ---- the command line ---------------------------------------------------------------------

def _names(text: str, known: Sequence[str], what: str) -> list[str]:
    if text == "none":
        return []
    names = [t for t in text.split(",") if t]
    for name in names:
        if name not in known:
            raise argparse.ArgumentTypeError(
                f"unknown {what} {name!r}; one of {', '.join(known)}")
    if not names:
        raise argparse.ArgumentTypeError(f"no {what} named")
    return names


def _position(text: str) -> Position:
    try:
        return Position.from_notation(text)
    except CatboxError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _depths(text: str) -> list[int]:
    if text == "none":
        return []
    try:
        depths = [int(t) for t in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"whole numbers of tricks, comma-separated, not {text!r}") from None
    for d in depths:
        if not 1 <= d <= 9:
            raise argparse.ArgumentTypeError(f"a depth is 1 to 9 tricks, not {d}")
    return depths


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    wall_names = [w.name for w in WALLS]
    ap.add_argument("--walls", default=",".join(DEFAULT_WALLS),
                    type=lambda t: _names(t, wall_names, "wall"),
                    help="names, comma-separated (default: the five under 20 M nodes)")
    ap.add_argument("--projections", default=",".join(PROJECTIONS),
                    type=lambda t: _names(t, list(PROJECTIONS), "projection"),
                    help="names, comma-separated (default: all; 'none' for none)")
    ap.add_argument("--depths", default="1,2,3,4,5", type=_depths,
                    help="perfect evaluations this many tricks deep, comma-separated "
                         "(default: 1,2,3,4,5; 'none' for none)")
    ap.add_argument("--max-entries", type=float, default=4e6,
                    help="the most trick starts recorded per wall (default: 4e6, 672 MB)")
    ap.add_argument("--position", action="append", type=_position, default=[],
                    metavar="NOTATION",
                    help="a position to record instead of the walls (repeatable); the "
                         "hero is the seat to move")
    ap.add_argument("--threshold", type=int, default=0,
                    help="the threshold r of --position's search, u >= r (default 0: "
                         "the paradox question)")
    ap.add_argument("--max-nodes", type=float, default=0,
                    help="stop each search after this many nodes (default 0: none); the "
                         "ceilings are then those of the nodes searched")
    ap.add_argument("--list", action="store_true", help="list the projections and stop")
    args = ap.parse_args(argv)
    if not 0 <= args.max_nodes <= 1e15:
        ap.error(f"argument --max-nodes: must be 0 to 1e15, not {args.max_nodes:g}")
    if not 1 <= args.max_entries <= 1e9:
        ap.error(f"argument --max-entries: must be 1 to 1e9, not {args.max_entries:g}")
    return args


def searches(args: argparse.Namespace) -> list[tuple[str, Position, int, int]]:
    """What to record: (name, position, hero, threshold) for each ``--position`` (the hero
    the seat to move), or else each of ``--walls``."""
    if args.position:
        return [(f"position {i}", pos, pos.to_move, args.threshold)
                for i, pos in enumerate(args.position, 1)]
    found = []
    for name in args.walls:
        wall = next(w for w in WALLS if w.name == name)
        pos, hero = wall_position(wall)
        found.append((wall.name, pos, hero, wall.r))
    return found


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.list:
        for name, (_, what) in PROJECTIONS.items():
            print(f"{name:17s} {what}")
        return 0
    cap = int(args.max_nodes)
    wrong = 0
    with tempfile.TemporaryDirectory() as workdir:
        recorder = recording_module(workdir)
        for name, pos, hero, r in searches(args):
            t = time.perf_counter()
            res, nodes, rec = record(recorder, name, pos, hero, r, int(args.max_entries), cap)
            dt = time.perf_counter() - t
            kernel_res, kernel_nodes, _ = _search(pos, hero, r, cap or 1 << 62)
            same = (kernel_res, kernel_nodes) == (res, nodes)
            shown = "open at the cap" if res is None else str(res)
            print(f"{name}: {shown} in {nodes:,} nodes ({dt:.1f} s recorded), "
                  f"{len(rec):,} trick starts stored"
                  + ("" if same else f"  DIFFERS from the kernel: {kernel_res} in "
                     f"{kernel_nodes:,} nodes"), flush=True)
            if not same:
                wrong += 1
                continue
            for pname in args.projections:
                project, _ = PROJECTIONS[pname]
                x, mixed, n = ceiling(rec, classes(rec, project(rec, hero)), nodes)
                print(f"  {pname:17s} x{x:5.2f}   classes {n:10,d}   mixed {mixed:8,d}",
                      flush=True)
            for depth in args.depths:
                x = depth_ceiling(rec, depth, nodes)
                print(f"  {f'{depth} tricks deep':17s} x{x:5.2f}", flush=True)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
