"""Search seeded random positions for table-key pairs (tests/oracles/key_pairs.json): run
by hand, not by the tests.

    PYTHONPATH=.:tests python -m oracles.find_key_pairs SEED ROOTS [--red] > candidates.json

A candidate is a root and two lines from it to trick starts A and B (where the search keys
its tables) whose keys agree once one field is left out and whose values differ. The key
below is a plain transcription of ``make_key`` and ``score_key`` in catbox_solver/dd/kernel.py
as they stand (live values renumbered, copies capped at the free cells, colors kept only
while they can still give a play); it only picks candidates. A candidate goes into
key_pairs.json once the search with that field left out of its key was seen to answer its
root wrongly (plant the field's omission in the kernel, solve the root, compare with
minimax_ref) and the search as it is answers it right. ``--red`` plays rounds that avoid
red, so that red stays unbroken late (the red-broken bit matters only then).
"""

from __future__ import annotations

import json
import random
import sys

from catbox_solver.dd.fast import pack_hand
from catbox_solver.formats.notation import position_to_notation
from catbox_solver.model.position import Position, red_row
from catbox_solver.model.rules import PRESETS, Ruleset
from oracles.gen import start_position

FIELDS = ("red_broken", "leader", "hand0", "hand1", "hand2", "hand3", "hand4", "red_row",
          "bgy_rows", "red_holders", "bgy_holders", "tricks_left")
_POP = [bin(i).count("1") for i in range(16)]


def make_key(pos: Position, drop: str | None = None) -> tuple[int, ...]:
    """The trick table's key of a trick start (kernel.make_key), ``drop`` left out."""
    n, nv, used = pos.rules.players, pos.rules.values, pos.used
    hands = [pack_hand(h) for h in pos.hands]
    colors = pos.colors
    masks, hits, rows = [0] * n, [0] * n, [0, 0, 0, 0]
    live = 0
    for v in range(nv):
        sh = 4 * v
        free = ~(used >> sh) & 15
        fill = 0
        for i in range(n):
            if hands[i] >> sh & 15 and free & colors[i]:
                fill |= colors[i]
        if not fill:
            continue
        nib = ~(free & fill) & 15
        for c in range(4):
            rows[c] |= (nib >> c & 1) << live
        for i in range(n):
            cnt = min(hands[i] >> sh & 15, _POP[free & colors[i]])
            if cnt:
                masks[i] |= cnt << (4 * live)
                hits[i] |= ~nib & 15
        live += 1
    holders = [0, 0, 0, 0]
    for i in range(n):
        cm = colors[i] & hits[i]
        for c in range(4):
            holders[c] |= (cm >> c & 1) << i
    if drop == "red_row":
        rows[0] = 0
    if drop == "bgy_rows":
        rows[1:] = [0, 0, 0]
    if drop == "red_holders":
        holders[0] = 0
    if drop == "bgy_holders":
        holders[1:] = [0, 0, 0]
    bgy = sorted(rows[c] << 8 | holders[c] for c in (1, 2, 3))
    return (rows[0] << 8 | holders[0], *bgy,
            0 if drop == "leader" else pos.leader,
            0 if drop == "red_broken" else int(bool(used & red_row(nv))),
            0 if drop == "tricks_left" else pos.tricks_left,
            *(0 if drop == f"hand{i}" else masks[i] for i in range(n)))


def u_value(pos: Position, hero: int, cache: dict[tuple[Position, int], int]) -> int:
    """The trick table's value of the rest of the round: g more tricks for the hero, or
    -1 - g if it causes a paradox after g more (plain minimax, cached)."""
    got = cache.get((pos, hero))
    if got is not None:
        return got
    plays = pos.legal_plays()
    if not plays:
        res = -1 if pos.tricks_left and pos.to_move == hero else 0
    else:
        vals = []
        for p in plays:
            nxt = pos.after(p)
            won = nxt.tricks_won[hero] > pos.tricks_won[hero]
            x = u_value(nxt, hero, cache)
            vals.append(x + won if x >= 0 else x - won)
        res = max(vals) if pos.to_move == hero else min(vals)
    cache[pos, hero] = res
    return res


def trick_starts(root: Position, limit: int) -> dict[Position, tuple[str, ...]] | None:
    """The trick starts below ``root`` with a line to each; None past ``limit`` nodes."""
    out: dict[Position, tuple[str, ...]] = {}
    stack: list[tuple[Position, tuple[str, ...]]] = [(root, ())]
    count = 0
    while stack:
        pos, line = stack.pop()
        count += 1
        if count > limit:
            return None
        if line and not pos.trick:
            out.setdefault(pos, line)
        stack.extend((pos.after(p), (*line, p.text)) for p in pos.legal_plays())
    return out


def round_line(rules: Ruleset, rng: random.Random, avoid_red: bool) -> list[Position]:
    pos = start_position(rules, rng)
    line = [pos]
    while pos.tricks_left and pos.legal_plays():
        plays = pos.legal_plays()
        other = [p for p in plays if p.color]
        pick = other if avoid_red and other and rng.random() < 0.97 else plays
        pos = pos.after(rng.choice(pick))
        line.append(pos)
    return line


def candidates(
    seed: int, roots: int, avoid_red: bool, limit: int = 20000
) -> list[dict[str, object]]:
    rng = random.Random(seed)
    found: list[dict[str, object]] = []
    done = 0
    while done < roots:
        n = rng.choice([2, 3, 4, 5])
        rules = Ruleset.from_name(rng.choice(["official", *PRESETS]), n)
        inner = [p for p in round_line(rules, rng, avoid_red)
                 if not p.is_over and p.tricks_left <= 4 and len(p.trick) == n - 1]
        if avoid_red:
            inner = [p for p in inner if not p.used & red_row(rules.values)]
        if not inner:
            continue
        root = rng.choice(inner)
        starts = trick_starts(root, limit)
        if starts is None:
            continue
        done += 1
        cache: dict[tuple[Position, int], int] = {}
        text = position_to_notation(root)
        for field in FIELDS:  # (one candidate per root and field)
            groups: dict[tuple[int, ...], list[Position]] = {}
            for pos in starts:
                groups.setdefault(make_key(pos, field), []).append(pos)
            for group in groups.values():
                for i, a in enumerate(group):
                    for b in group[i + 1:]:
                        if make_key(a) == make_key(b):
                            continue
                        for hero in range(n):
                            va, vb = u_value(a, hero, cache), u_value(b, hero, cache)
                            if va != vb:
                                found.append({"field": field, "root": text,
                                              "hero": hero, "a": " ".join(starts[a]),
                                              "b": " ".join(starts[b]), "u": [va, vb]})
                                break
                        if found and found[-1]["field"] == field and found[-1]["root"] == text:
                            break
                    if found and found[-1]["field"] == field and found[-1]["root"] == text:
                        break
                if found and found[-1]["field"] == field and found[-1]["root"] == text:
                    break
    return found


if __name__ == "__main__":
    rows = candidates(int(sys.argv[1]), int(sys.argv[2]), "--red" in sys.argv)
    json.dump(rows, sys.stdout, indent=0)
