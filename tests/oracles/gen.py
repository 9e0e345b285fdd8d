"""Seeded random rounds and positions for tests, for every player count.

Import as ``from oracles.gen import ...`` (pytest puts ``tests/`` on the path). The API is
small:

- :func:`start_position` -- a dealt round at its first lead: seeded deal, discards,
  predictions and (2 players) neutral tokens from the revealed leftovers (the library's
  ``first_lead``, seat 0 leading, any discards unless asked for distinct ones).
- :func:`random_line` -- random legal plays from a position to the end of the round.
- :func:`mid_round_positions` -- distinct positions part way through seeded random rounds.
- :func:`paradox_free_line` -- a depth-first search for plays that finish the round with no
  paradox (random play almost never does), with a node budget.
- :func:`paradox_free_round` -- a start position from the first seed that has such a line.
- :func:`edited_text` -- a hypothesis strategy: a text file edited by hand at random.

Everything is deterministic for a given seed; only the engine's own rules are used
(``legal_plays``/``after``), so these helpers never decide legality themselves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import strategies as st

from catbox_solver.dd import lines
from catbox_solver.model.deal import first_lead
from catbox_solver.model.position import Play, Position
from catbox_solver.model.rules import Ruleset


def _rng(seed: int | random.Random) -> random.Random:
    return seed if isinstance(seed, random.Random) else random.Random(seed)


def start_position(
    rules: Ruleset,
    seed: int | random.Random,
    start: int = 0,
    distinct_discards: bool = False,
) -> Position:
    """The first lead of a seeded round: each seat discards a random card (with
    ``distinct_discards`` the seats avoid discarding equal values where they can, which a
    paradox-free round of 3 or 4 players needs), predicts at random from the allowed
    choices, and with 2 players the 3 revealed leftovers place the neutral tokens."""
    return first_lead(rules, _rng(seed), start, distinct_discards)


def random_line(pos: Position, seed: int | random.Random) -> list[Position]:
    """Positions along random legal plays from ``pos`` (included) until the round is over
    (last trick done or paradox); the last entry is the final position."""
    rng = _rng(seed)
    line = [pos]
    while True:
        legal = pos.legal_plays()
        if not legal or pos.tricks_left == 0:
            return line
        pos = pos.after(rng.choice(legal))
        line.append(pos)


def line_position(players: int, seed: int, index: int) -> Position:
    """Position ``index`` of the seeded random round ``seed`` (official rules)."""
    rng = random.Random(seed)
    return random_line(start_position(Ruleset(players=players), rng), rng)[index]


def mid_round_positions(
    rules: Ruleset, seed: int, count: int, min_plays: int = 1
) -> list[Position]:
    """``count`` distinct positions, not over, at least ``min_plays`` plays into seeded
    random rounds (one position drawn from each round's line)."""
    rng = random.Random(seed)
    seen: set[Position] = set()
    out: list[Position] = []
    while len(out) < count:
        line = random_line(start_position(rules, rng), rng)
        inner = [p for p in line[min_plays:] if not p.is_over]
        if not inner:
            continue
        pos = rng.choice(inner)
        if pos not in seen:
            seen.add(pos)
            out.append(pos)
    return out


def paradox_free_line(
    pos: Position, max_nodes: int = 200_000, seed: int | None = None
) -> list[Play] | None:
    """Plays that finish the round from ``pos`` with no paradox (the library's depth-first
    search, catbox_solver.dd.lines), or None within ``max_nodes``; ``seed`` shuffles the
    order in which plays are tried."""
    rng = None if seed is None else random.Random(seed)
    return lines.paradox_free_line(pos, rng, max_nodes)


def paradox_free_round(
    rules: Ruleset, seed: int, tries: int = 50, max_nodes: int = 20_000
) -> tuple[Position, list[Play]]:
    """The start position of the first seeded round (seeds ``seed``, ``seed + 1``, ...) that
    has a paradox-free line within ``max_nodes``, and that line."""
    for k in range(tries):
        pos = start_position(rules, seed + k, distinct_discards=True)
        line = paradox_free_line(pos, max_nodes, seed=seed + k)
        if line is not None:
            return pos, line
    raise AssertionError(f"no paradox-free round for {rules} from seed {seed} in {tries} tries")


def replay(pos: Position, plays: Sequence[Play]) -> list[Position]:
    """Positions along ``plays`` made through the checked ``Position.play``."""
    line = [pos]
    for play in plays:
        pos = pos.play(play)
        line.append(pos)
    return line


@st.composite
def edited_text(draw: st.DrawFn, texts: Sequence[str], chars: str, max_edits: int = 4) -> str:
    """One of ``texts`` with 1 to ``max_edits`` random edits, as by hand: a character of
    ``chars`` put in or over one, a character deleted, a line dropped, doubled or swapped
    with another (for the readers of files: whatever they get, they never crash)."""
    lines_ = draw(st.sampled_from(list(texts))).splitlines()
    for _ in range(draw(st.integers(1, max_edits))):
        i = draw(st.integers(0, len(lines_) - 1))
        kind = draw(st.sampled_from(["char", "delete", "insert", "drop", "double", "swap"]))
        line = lines_[i]
        if kind in ("char", "delete", "insert") and line:
            j = draw(st.integers(0, len(line) - 1))
            ch = draw(st.sampled_from(list(chars)))
            lines_[i] = {"char": line[:j] + ch + line[j + 1:], "delete": line[:j] + line[j + 1:],
                         "insert": line[:j] + ch + line[j:]}[kind]
        elif kind == "drop" and len(lines_) > 1:
            del lines_[i]
        elif kind == "double":
            lines_.insert(i, line)
        elif kind == "swap":
            k = draw(st.integers(0, len(lines_) - 1))
            lines_[i], lines_[k] = lines_[k], lines_[i]
    return "\n".join(lines_) + "\n"
