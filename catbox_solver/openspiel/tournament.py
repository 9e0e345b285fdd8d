"""Seat-rotated matches between bots of the ladder, and their table.

Each deal is played once for every lineup (every choice of ``players`` bots out of those
given, in the order given) and every rotation of that lineup around the table: the same
cards go to every bot in every seat (duplicate style), so luck of the deal cancels out of
the comparisons. Per bot: mean round score, the share of its rounds in which it caused
the paradox, the share in which it met its prediction (without causing a paradox), each
with a 95 % confidence interval, and a rating: a Bradley-Terry fit of the pairwise round
results (higher score wins a pair, a tie is half), on the Elo scale, the random bot (or
the first bot) at 0.
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pyspiel

from catbox_solver.openspiel.bots import BOT_NAMES, make_bot
from catbox_solver.openspiel.game import SHORT_NAME, CatInTheBoxState

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Seat:
    """One bot's result in one round: its seat, score, paradox caused, prediction met."""

    deal: int
    lineup: tuple[str, ...]
    rotation: int
    bot: str
    seat: int
    score: int
    paradox: bool
    met: bool


@dataclass(frozen=True, slots=True)
class Interval:
    """An estimate with its 95 % confidence interval."""

    value: float
    low: float
    high: float

    def text(self, percent: bool = False) -> str:
        if percent:
            return f"{100 * self.value:5.1f} % [{100 * self.low:.1f}, {100 * self.high:.1f}]"
        return f"{self.value:+6.2f} [{self.low:+.2f}, {self.high:+.2f}]"

    def to_json(self) -> dict[str, float]:
        return {"value": round(self.value, 6), "low": round(self.low, 6),
                "high": round(self.high, 6)}


def mean_interval(xs: Sequence[float]) -> Interval:
    """The mean with a normal 95 % interval (standard error of the mean)."""
    m = statistics.fmean(xs)
    half = Z95 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
    return Interval(m, m - half, m + half)


def share_interval(hits: int, n: int) -> Interval:
    """A share with its Wilson 95 % interval."""
    if n == 0:
        return Interval(math.nan, 0.0, 1.0)
    p = hits / n
    z2 = Z95 * Z95
    mid = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Interval(p, max(0.0, mid - half), min(1.0, mid + half))


@dataclass(frozen=True, slots=True)
class BotRow:
    """A bot's line of the table."""

    bot: str
    rounds: int
    score: Interval
    paradox: Interval
    met: Interval
    rating: float

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.bot, "rounds": self.rounds, "score": self.score.to_json(),
                "paradox": self.paradox.to_json(), "met": self.met.to_json(),
                "rating": round(self.rating, 1)}


@dataclass(frozen=True)
class Match:
    """A finished match: its settings, every seat's result, the table rows (best rating
    first) and paired score differences between bots (``diffs[(a, b)]``: a's mean score
    less b's over the deals and lineups where both played, with its interval)."""

    players: int
    ruleset: str
    bots: tuple[str, ...]
    deals: int
    seats: tuple[Seat, ...]
    rows: tuple[BotRow, ...]
    diffs: dict[tuple[str, str], Interval] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    moves: dict[str, int] = field(default_factory=dict)

    def to_json(self, seed: int | None = None) -> dict[str, Any]:
        return {
            "players": self.players, "ruleset": self.ruleset, "bots": list(self.bots),
            "seed": seed, "deals": self.deals, "rounds": len(self.seats) // self.players,
            "rows": [r.to_json() for r in self.rows],
            "diffs": [{"bot": a, "other": b, **d.to_json()} for (a, b), d in self.diffs.items()],
            "seconds_per_move": {b: round(self.seconds[b] / max(self.moves[b], 1), 4)
                                 for b in self.bots},
            "cpu_seconds": {b: round(self.seconds[b], 3) for b in self.bots},
            "moves": dict(self.moves),
            "seats": [{"deal": s.deal, "lineup": list(s.lineup), "rotation": s.rotation,
                       "bot": s.bot, "seat": s.seat, "score": s.score, "paradox": s.paradox,
                       "met": s.met} for s in self.seats],
        }


def lineups(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every choice of ``players`` bots out of ``bots`` (all of them when as many)."""
    return list(itertools.combinations(bots, players))


def play_round(
    game: Any, seated: Sequence[Any], deal_seed: int,
    clock: Callable[[], float], spent: list[float], moves: list[int],
) -> CatInTheBoxState:
    """One game of ``game`` (one round unless its ``rounds`` says more) with ``seated[s]``
    at seat s, the chance outcomes drawn from ``deal_seed`` (all before the first decision:
    the same seed, the same cards); ``spent[s]`` and ``moves[s]`` count each seat's time
    and decisions."""
    rng = random.Random(deal_seed)
    state: CatInTheBoxState = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        seat = state.current_player()
        began = clock()
        action = seated[seat].step(state)
        spent[seat] += clock() - began
        moves[seat] += 1
        state.apply_action(action)
    return state


def _bot_seed(seed: int, deal: int, rotation: int, seat: int) -> int:
    return random.Random(f"{seed}/deal{deal}/rot{rotation}/seat{seat}").randrange(2**31)


def rating(seats: Sequence[Seat], bots: Sequence[str], iterations: int = 200) -> dict[str, float]:
    """Bradley-Terry strengths of the bots from every pair at a table in a round (the
    higher score wins, a tie counts half to each), as Elo points, the random bot (or the
    first bot) at 0. A bot that never lost (or never won) is held to the range of +-800."""
    wins: dict[tuple[str, str], float] = {}
    by_round: dict[tuple[int, tuple[str, ...], int], list[Seat]] = {}
    for s in seats:
        by_round.setdefault((s.deal, s.lineup, s.rotation), []).append(s)
    for table in by_round.values():
        for x, y in itertools.permutations(table, 2):
            key = (x.bot, y.bot)
            wins[key] = wins.get(key, 0.0) + (1.0 if x.score > y.score else
                                               0.5 if x.score == y.score else 0.0)
    strength = {b: 1.0 for b in bots}
    for _ in range(iterations):  # the MM algorithm of Hunter (2004), 0.5 prior win each way
        new = {}
        for a in bots:
            w = 0.5 + sum(wins.get((a, b), 0.0) for b in bots if b != a)
            d = sum((wins.get((a, b), 0.0) + wins.get((b, a), 0.0) + 1.0)
                    / (strength[a] + strength[b]) for b in bots if b != a)
            new[a] = w / d if d else strength[a]
        strength = new
    anchor = "random" if "random" in bots else bots[0]
    elo = {b: 400 * math.log10(strength[b] / strength[anchor]) for b in bots}
    return {b: max(-800.0, min(800.0, e)) for b, e in elo.items()}


def paired_diffs(seats: Sequence[Seat], bots: Sequence[str]) -> dict[tuple[str, str], Interval]:
    """For each ordered pair of bots: the mean over the deals of a's mean score less b's,
    both over the rounds of that deal's lineups holding both (every rotation: the same
    cards in every seat), with its 95 % interval over the deals."""
    out = {}
    for a, b in itertools.permutations(bots, 2):
        units: dict[int, dict[str, list[int]]] = {}
        for s in seats:
            if a in s.lineup and b in s.lineup and s.bot in (a, b):
                units.setdefault(s.deal, {}).setdefault(s.bot, []).append(s.score)
        xs = [statistics.fmean(u[a]) - statistics.fmean(u[b]) for u in units.values()]
        if xs:
            out[(a, b)] = mean_interval(xs)
    return out


def run_match(
    players: int,
    bots: Sequence[str] = BOT_NAMES,
    deals: int = 10,
    seed: int = 0,
    ruleset: str = "official",
    options: dict[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    clock: Callable[[], float] | None = None,
) -> Match:
    """Seat-rotated rounds of ``deals`` deals (seeded from ``seed``) for every lineup of
    ``players`` of ``bots``; ``options`` for :func:`make_bot` (simulations, samples,
    budget); ``progress(done, total)`` after each round; ``clock``: what a bot's time per
    move is measured with (default CPU seconds of this process: on a shared machine wall
    seconds also count the other programs')."""
    import time

    clock = clock or time.process_time
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise pyspiel.SpielError(f"run_match: deals is a whole number from 1, not {deals!r}")
    unknown = [b for b in bots if b not in BOT_NAMES]
    if unknown:
        raise pyspiel.SpielError(f"run_match: no bot {unknown[0]!r} (bots: "
                                 f"{', '.join(BOT_NAMES)})")
    if len(set(bots)) != len(bots) or len(bots) < players:
        raise pyspiel.SpielError(f"run_match: {players} players need at least {players} "
                                 f"different bots, not {', '.join(bots)}")
    game = pyspiel.load_game(SHORT_NAME, {"players": players, "ruleset": ruleset})
    ups = lineups(bots, players)
    total = deals * len(ups) * players
    seats: list[Seat] = []
    spent = {b: 0.0 for b in bots}
    moves = {b: 0 for b in bots}
    done = 0
    for d in range(deals):
        deal_seed = random.Random(f"{seed}/deal{d}").randrange(2**31)
        for up in ups:
            for rot in range(players):
                order = [up[(s - rot) % players] for s in range(players)]
                made = [make_bot(name, game, seed=_bot_seed(seed, d, rot, s),
                                 **(options or {})) for s, name in enumerate(order)]
                t = [0.0] * players
                m = [0] * players
                state = play_round(game, made, deal_seed, clock, t, m)
                pos = state.round.position
                assert pos is not None
                scores = pos.scores()
                for s, name in enumerate(order):
                    spent[name] += t[s]
                    moves[name] += m[s]
                    paradox = pos.paradox_by == s
                    seats.append(Seat(d, up, rot, name, s, scores[s], paradox,
                                      not paradox and pos.prediction_met(s)))
                done += 1
                if progress is not None:
                    progress(done, total)
    return summarize(players, game.get_parameters()["ruleset"], bots, deals, seats, spent,
                     moves)


def summarize(
    players: int, ruleset: str, bots: Sequence[str], deals: int, seats: Sequence[Seat],
    spent: dict[str, float], moves: dict[str, int],
) -> Match:
    """The Match of these rounds: table rows, ratings, paired differences."""
    ratings = rating(seats, bots)
    rows = []
    for b in bots:
        mine = [s for s in seats if s.bot == b]
        rows.append(BotRow(b, len(mine), mean_interval([s.score for s in mine]),
                           share_interval(sum(s.paradox for s in mine), len(mine)),
                           share_interval(sum(s.met for s in mine), len(mine)), ratings[b]))
    rows.sort(key=lambda r: -r.rating)
    return Match(players, ruleset, tuple(bots), deals, tuple(seats), tuple(rows),
                 paired_diffs(seats, bots), dict(spent), dict(moves))


def merge(runs: Sequence[dict[str, Any]]) -> Match:
    """One Match of several runs' JSON (:meth:`Match.to_json`) of the same player count,
    ruleset and bots, played from different seeds: their rounds together."""
    if not runs:
        raise pyspiel.SpielError("merge: no runs to merge")
    first = runs[0]
    for run in runs[1:]:
        for key in ("players", "ruleset", "bots"):
            if run[key] != first[key]:
                raise pyspiel.SpielError(f"merge: runs differ in {key}: {first[key]!r} and "
                                         f"{run[key]!r}")
    seeds = [run["seed"] for run in runs]
    if len(set(seeds)) != len(seeds):
        raise pyspiel.SpielError(f"merge: two runs of the same seed ({seeds})")
    seats = [Seat(run["seed"] * 10**6 + s["deal"], tuple(s["lineup"]), s["rotation"], s["bot"],
                  s["seat"], s["score"], s["paradox"], s["met"])
             for run in runs for s in run["seats"]]
    bots = first["bots"]
    spent = {b: sum(run["cpu_seconds"][b] for run in runs) for b in bots}
    moves = {b: sum(run["moves"][b] for run in runs) for b in bots}
    return summarize(first["players"], first["ruleset"], bots,
                     sum(run["deals"] for run in runs), seats, spent, moves)


def match_table(match: Match) -> str:
    """The table in Markdown: one row per bot, best rating first."""
    lines = [
        f"{match.players} players, {match.ruleset}, {match.deals} deals, "
        f"{len(match.seats) // match.players} rounds (95 % intervals)",
        "",
        "| bot | rounds | mean round score | caused the paradox | prediction met | rating "
        "| CPU s/move |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in match.rows:
        per = match.seconds[r.bot] / max(match.moves[r.bot], 1)
        lines.append(f"| {r.bot} | {r.rounds} | {r.score.text()} | {r.paradox.text(True)} | "
                     f"{r.met.text(True)} | {r.rating:+.0f} | {per:.3f} |")
    return "\n".join(lines)
