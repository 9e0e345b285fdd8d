"""Benchmark of the walls: the single zero-window searches that keep `tricks` from the
first lead over its 60 s goal (docs/search.md, "Routes measured and their ceilings"),
and one paradox verdict (r = 0) that kept a 5-player `paradox` answer over 60 s.

Each wall is one question "u >= r?" (u: the outcome of the rest of the round for the hero,
see docs/search.md) on a first-lead position of bench_search.py after a few plays, searched
from a fresh table with the compiled core under a node cap. Node counts do not depend on
the machine (the order and the table are deterministic), so a change to the search can be
judged on them alone: a wall that finishes in fewer nodes, or one that now finishes under
the cap, is progress. The figures printed are the answer (True, False, or "open" when the
cap ran out), the nodes, the seconds and the nodes per second.

The known answers come from searches without a cap (docs/engineering-log.md);
a finished search that disagrees with one is reported as WRONG and the exit code is 1.

``--split`` searches instead each legal play of the seat to move at the wall on its own
(the position after the play, the same question, a fresh table, the same cap), in the
search's own order at the wall's threshold, and prints each one's place in that order:
so it finds which answer refutes a wall, and so what a better order would have to try
first. The refuting plays (False) are listed at the end. ``--node``
asks the same of any position of bench_search.py after any plays, instead of the walls
(not with ``--walls``): PLAYERS:NUMBER:PLAYS:R, the player count, the number of the
first-lead position (0 to 19), the plays made from it (space-separated) and the threshold
r (-T to T, T the tricks left after the plays).

The compiled core is loaded before the first search is timed (a short capped search of
the first wall's position, not printed), so the first wall's seconds do not include it.

Examples::

    python bench/bench_walls.py                       # every wall, 50 M nodes each
    python bench/bench_walls.py --cap 20e6 --walls p0-2b-4b,p0-1b
    python bench/bench_walls.py --list
    python bench/bench_walls.py --split --walls p0-2b --cap 30e6
    python bench/bench_walls.py --split --node "4:0:1b 2r:-4" --cap 10e6
"""

from __future__ import annotations

import argparse
import functools
import math
import sys
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_search import FIRST_LEAD, bench_positions  # noqa: E402

from catbox_solver.dd.search import Search  # noqa: E402
from catbox_solver.dd.warmup import warm_up
from catbox_solver.errors import CatboxError  # noqa: E402
from catbox_solver.model.position import Play, Position  # noqa: E402
from catbox_solver.model.rules import Ruleset  # noqa: E402

POSITIONS = 20  # bench_search.py's first-lead positions per player count (its --count)
WARM_NODES = 100_000  # the untimed search that loads the core before the first timing


class Wall(NamedTuple):
    """One search: ``players``' first-lead position ``number`` of bench_search.py, the
    ``plays`` made from it, the threshold ``r`` (hero: the first leader), the known
    answer (None: not known) and where it was measured."""

    name: str
    players: int
    number: int
    plays: tuple[str, ...]
    r: int
    known: bool | None
    note: str


WALLS: tuple[Wall, ...] = (
    Wall("p0-1b", 4, 0, ("1b",), -4, False,
         "9.46 M nodes (learned order from 7 tricks left), over 303 M from 8"),
    Wall("p0-2b", 4, 0, ("2b",), -4, False,
         "over 608 M nodes unfinished; False: seat 1's 4b refutes"),
    Wall("p0-2b-4b", 4, 0, ("2b", "4b"), -4, False,
         "the refuting answer to p0-2b alone: 18.9 M nodes"),
    Wall("p0-2b-2r", 4, 0, ("2b", "2r"), -4, True,
         "a red answer to p0-2b, the hero escapes: 6.7 M nodes"),
    Wall("p0-1b-2y", 4, 0, ("1b", "2y"), -4, False,
         "the one answer to p0-1b found to refute it alone: 9.46 M nodes"),
    Wall("p1-2b", 4, 1, ("2b",), -4, False,
         "348.7 M nodes (learned order from 7), 11.2 M from 8"),
    Wall("p1-2b-6b", 4, 1, ("2b", "6b"), -4, False,
         "one of p1-2b's eight refuting answers alone: 6.45 M nodes (4b: 5.24 M)"),
    Wall("p1-4b", 4, 1, ("4b",), -5, False,
         "about 225-241 M nodes under every order of the first two tricks"),
    Wall("5p10-5b", 5, 10, ("5b",), 0, False,
         "a paradox verdict: 351.8 M nodes; 38.7 M raced (Search._u_raced)"),
    Wall("5p10-5b-6y", 5, 10, ("5b", "6y"), 0, False,
         "the cheapest of 5p10-5b's refuting answers alone: 2.73 M nodes"),
)


@functools.cache
def _first_leads(players: int) -> tuple[Position, ...]:
    """bench_search.py's first-lead positions (about 1.4 s to find: made once per player
    count, not once per wall)."""
    return tuple(bench_positions(players, FIRST_LEAD, POSITIONS))


def wall_position(wall: Wall) -> tuple[Position, int]:
    """The position of ``wall`` and its hero (the first leader)."""
    pos = _first_leads(wall.players)[wall.number]
    hero = pos.to_move
    for text in wall.plays:
        pos = pos.play(Play.parse(text))
    return pos, hero


def _row(name: str, plays: str, r: int, res: bool | None, nodes: int, dt: float,
         flag: str = "") -> str:
    shown = "open" if res is None else str(res)
    rate = nodes / dt / 1e6 if dt > 0 else 0.0
    return f"{name:10s} {plays:8s} {r:3d} {shown:6s} {nodes:13,d} {dt:7.1f} {rate:5.2f}{flag}"


def _search(pos: Position, hero: int, r: int, cap: int) -> tuple[bool | None, int, float]:
    """``u >= r`` for ``hero`` on ``pos`` from a fresh table within ``cap`` nodes: the
    answer (None: open), the nodes and the seconds."""
    search = Search(pos, hero)
    t = time.perf_counter()
    res = search._u_within(r, cap)  # noqa: SLF001 (the node cap is what is measured)
    return res, search.nodes, time.perf_counter() - t


def split(wall: Wall, cap: int) -> list[str]:
    """Each legal play at ``wall`` searched on its own, in the search's own order at the
    wall's threshold (the cornered hero's order at r < 0), each printed as it ends with
    its place in that order; the plays whose search ended False (they refute the wall's
    question)."""
    pos, hero = wall_position(wall)
    order = Search(pos, hero)._search_order(  # noqa: SLF001
        list(pos.legal_plays()), pos.to_move, wall.r)
    refuting = []
    for place, play in enumerate(order, 1):
        res, nodes, dt = _search(pos.play(play), hero, wall.r, cap)
        plays = " ".join((*wall.plays, play.text))
        print(_row(wall.name, plays, wall.r, res, nodes, dt, f"  (#{place} in order)"),
              flush=True)
        if res is False:
            refuting.append(play.text)
    return refuting


def parse_node(text: str) -> Wall:
    """A wall given on the command line as PLAYERS:NUMBER:PLAYS:R (plays space-separated,
    e.g. "4:0:1b 2r:-4"); its answer is not known. A ValueError says what is wrong."""

    def bad(why: str) -> ValueError:
        return ValueError(f"bad --node {text!r} (PLAYERS:NUMBER:PLAYS:R, "
                          f"e.g. '4:0:1b 2r:-4'): {why}")

    parts = text.split(":")
    if len(parts) != 4:
        raise bad(f"{len(parts)} parts, not 4")
    players_text, number_text, plays_text, r_text = parts
    try:
        players = int(players_text)
        Ruleset(players=players)
    except (ValueError, CatboxError):
        raise bad(f"the player count must be 2 to 5, not {players_text!r}") from None
    try:
        number = int(number_text)
    except ValueError:
        number = -1
    if not 0 <= number < POSITIONS:
        raise bad(f"the position number must be 0 to {POSITIONS - 1}, not {number_text!r}")
    pos = _first_leads(players)[number]
    for play_text in plays_text.split():
        try:
            pos = pos.play(Play.parse(play_text))
        except CatboxError as exc:
            raise bad(f"play {play_text!r}: {exc}") from None
    try:
        r = int(r_text)
    except ValueError:
        r = pos.tricks_left + 1
    if not -pos.tricks_left <= r <= pos.tricks_left:
        raise bad(f"the threshold r must be -{pos.tricks_left} to {pos.tricks_left} "
                  f"(the tricks left after the plays), not {r_text!r}")
    return Wall("node", players, number, tuple(plays_text.split()), r, None, "")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cap", type=float, default=50e6,
                    help="node cap per search, 1 or more (default: 50e6)")
    ap.add_argument("--walls", default="", help="names, comma-separated (default: all)")
    ap.add_argument("--list", action="store_true", help="list the walls and stop")
    ap.add_argument("--node", action="append", default=[], metavar="P:N:PLAYS:R",
                    help="a search of your own instead of the walls (not with --walls): "
                    f"players, position number (0 to {POSITIONS - 1}), plays, threshold "
                    "(repeatable)")
    ap.add_argument("--split", action="store_true",
                    help="search each play of the seat to move at the wall on its own")
    args = ap.parse_args(argv)
    if not math.isfinite(args.cap) or args.cap < 1:
        ap.error(f"argument --cap: must be a number of nodes, 1 or more, not {args.cap:g}")
    if args.node and args.walls:
        ap.error("argument --node: not with --walls (--node searches instead of the walls)")
    chosen = WALLS
    if args.walls:
        names = args.walls.split(",")
        unknown = [x for x in names if x not in {w.name for w in WALLS}]
        if unknown:
            ap.error(f"unknown wall(s): {', '.join(unknown)}")
        chosen = tuple(w for w in WALLS if w.name in names)
    if args.node:
        try:
            chosen = tuple(parse_node(text) for text in args.node)
        except ValueError as exc:
            ap.error(str(exc))
    if args.list:
        for w in chosen:
            plays = " ".join(w.plays)
            print(f"{w.name:10s} {w.players}p #{w.number} {plays:8s} u >= {w.r}: {w.note}")
        return 0
    cap = int(args.cap)
    wrong = 0
    # load the compiled core outside the timings: warm_up, then a short capped search of
    # the kind timed (a fresh table at a first lead), whose first run costs about a second
    warm_up()
    _search(*wall_position(chosen[0]), chosen[0].r, WARM_NODES)
    print(f"{'wall':10s} {'plays':8s} {'r':>3s} {'answer':6s} {'nodes':>13s} {'s':>7s} {'M/s':>5s}")
    for w in chosen:
        if args.split:
            refuting = split(w, cap)
            print(f"{w.name}: refuted by {' '.join(refuting) or 'none within the cap'}")
            continue
        res, nodes, dt = _search(*wall_position(w), w.r, cap)
        flag = ""
        if res is not None and w.known is not None and res != w.known:
            flag = f"  WRONG (known: {w.known})"
            wrong += 1
        print(_row(w.name, " ".join(w.plays), w.r, res, nodes, dt, flag), flush=True)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
