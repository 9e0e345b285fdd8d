"""``catbox tournament``: seat-rotated matches between the OpenSpiel bots (docs/bots.md).

Thin: parse the arguments, call :func:`catbox_solver.openspiel.tournament.run_match`,
print. OpenSpiel (the ``openspiel`` extra) is imported only when the command runs, so the
rest of the CLI works without it.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from catbox_solver.cli.common import (
    Seconds,
    WholeNumber,
    WholeRange,
    json_option,
    main,
    quiet_option,
    ready_search,
    ruleset_option,
    show_progress,
)
from catbox_solver.errors import CatboxError
from catbox_solver.model.rules import Ruleset

BOTS = ("random", "rule", "ismcts", "single-dummy")


def _bot_list(text: str, players: int) -> list[str]:
    bots = [b.strip() for b in text.split(",") if b.strip()]
    for b in bots:
        if b not in BOTS:
            raise CatboxError(f"--bots: no bot {b!r} (bots: {', '.join(BOTS)})")
    if len(set(bots)) != len(bots):
        raise CatboxError(f"--bots: a bot is named twice in {text!r}")
    if len(bots) < players:
        raise CatboxError(f"--bots: {players} players need at least {players} bots, "
                          f"not {len(bots)}")
    return bots


@main.command("tournament")
@click.option("--players", "-p", type=WholeRange(2, 5), default=4, show_default=True,
              help="Number of players (2-5).")
@click.option("--bots", default=",".join(BOTS), show_default=True,
              help="The bots, comma-separated: random, rule, ismcts, single-dummy; every "
              "choice of --players of them plays every deal in every rotation.")
@click.option("--deals", type=WholeRange(1, 100_000), default=2, show_default=True,
              help="How many deals.")
@click.option("--simulations", type=WholeRange(1, 10**6), default=100, show_default=True,
              help="ISMCTS simulations a move.")
@click.option("--samples", type=WholeRange(1, 10**5), default=12, show_default=True,
              help="Deals of the hidden hands the single-dummy bot solves a move.")
@click.option("--budget", type=Seconds(0.001), default=0.5, show_default=True,
              help="The single-dummy bot's seconds a move.")
@click.option("--seed", type=WholeNumber(), default=0, show_default=True,
              help="Seed of the deals and the bots.")
@ruleset_option
@json_option
@quiet_option
def tournament_cmd(
    players: int, bots: str, deals: int, simulations: int, samples: int, budget: float,
    seed: int, ruleset: str, as_json: bool, quiet: bool,
) -> None:
    """Seat-rotated matches between the bots of the ladder, and their table.

    Every deal is played by every choice of --players bots in every rotation around the
    table (each bot holds each seat's cards). Per bot: the mean round score, the share of
    its rounds in which it caused the paradox and the share in which it met its
    prediction, each with a 95 % confidence interval, a rating (Bradley-Terry on the
    pairwise round results, Elo scale, random at 0) and its CPU seconds a move; then the
    single-dummy bot's score less ISMCTS's, paired by deal. Needs OpenSpiel
    (pip install "catbox-solver[openspiel]").

    \b
    JSON fields: players, ruleset, bots, seed, deals, rounds, rows (bot, rounds, score,
    paradox, met: each value, low, high; rating), diffs, seconds_per_move, cpu_seconds,
    moves, seats (every bot's result in every round).

    \b
    Examples:
      catbox tournament --players 3 --bots random,rule,ismcts --deals 1 --simulations 5
      catbox tournament -p 4 --deals 20 --seed 1 --json --quiet
    """
    rules = Ruleset.from_name(ruleset, players)
    chosen = _bot_list(bots, players)
    try:
        import pyspiel

        from catbox_solver.openspiel.tournament import match_table, run_match
    except ImportError as exc:
        raise CatboxError(f"catbox tournament needs OpenSpiel ({exc}): pip install "
                          "\"catbox-solver[openspiel]\"") from None
    if "single-dummy" in chosen:
        ready_search(quiet)
    bar: Any = None
    if show_progress(quiet):
        bar = click.progressbar(length=1, label="rounds", file=sys.stderr)

    def report(done: int, total: int) -> None:
        if bar is not None:
            bar.length = total
            bar.update(1)

    try:
        match = run_match(players, chosen, deals, seed, rules.name,
                          {"simulations": simulations, "samples": samples,
                           "budget": budget}, report)
    except pyspiel.SpielError as exc:
        raise CatboxError(str(exc)) from None
    finally:
        if bar is not None:
            bar.render_finish()
    if as_json:
        click.echo(json.dumps(match.to_json(seed)))
        return
    click.echo(match_table(match))
    pair = match.diffs.get(("single-dummy", "ismcts"))
    if pair is not None:
        verdict = ("the interval is above 0" if pair.low > 0 else
                   "the interval reaches 0" if pair.high > 0 else "ISMCTS ahead")
        click.echo(f"\nsingle-dummy less ismcts, paired by deal: {pair.text()} ({verdict})")
