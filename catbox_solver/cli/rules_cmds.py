"""``catbox rules``: the interpretation switches and presets, and where two readings differ."""

from __future__ import annotations

import time
from typing import Any

import click

from catbox_solver.cli.common import (
    EXIT_UNCHECKED,
    Seconds,
    WholeNumber,
    WholeRange,
    echo_json,
    json_option,
    main,
    quiet_option,
    ready_search,
    show_progress,
)
from catbox_solver.formats.jsonform import play_json, position_to_dict
from catbox_solver.formats.notation import position_to_notation
from catbox_solver.model.numbers import listed
from catbox_solver.model.position import Play
from catbox_solver.model.rules import PRESETS, SWITCH_TEXTS, SWITCHES, TEXT_SOURCES, Ruleset
from catbox_solver.readings import QUESTIONS, Difference, diff_rulesets
from catbox_solver.render.text import render_text


@main.group()
def rules() -> None:
    """The rule readings: list the switches and presets, compare two readings.

    \b
    Example:
      catbox rules list
      catbox rules diff official must-follow --players 4
    """


def rules_listing() -> dict[str, Any]:
    """Every switch (values, default, the texts' wording) and every preset. ``quote``: the
    wording is the source's own (a rulebook or quick reference), else a description of a
    reading no text gives (a review, a house rule)."""
    return {
        "switches": [
            {
                "name": name,
                "values": list(values),
                "default": values[0],
                "texts": {
                    value: [{"source": src, "wording": text, "quote": src in TEXT_SOURCES}
                            for src, text in quotes]
                    for value, quotes in SWITCH_TEXTS[name].items()
                },
            }
            for name, values in SWITCHES.items()
        ]
        + [
            {
                "name": "row_order",
                "values": ["any order of RBYG"],
                "default": "RBYG",
                "texts": {},
            }
        ],
        "presets": [
            {"name": name, "switches": {**Ruleset().switches(), **setting}}
            for name, setting in PRESETS.items()
        ],
    }


@rules.command("list")
@json_option
def rules_list(as_json: bool) -> None:
    """Every interpretation switch and preset, one line each, with what the texts say.

    \b
    Example:
      catbox rules list
      catbox rules list --json
    """
    data = rules_listing()
    if as_json:
        echo_json(data)
        return
    click.echo("switches (official reading first):")
    for sw in data["switches"]:
        click.echo(f"  {sw['name']}: {' | '.join(sw['values'])}")
        for value, quotes in sw["texts"].items():
            for q in quotes:
                wording = f'"{q["wording"]}"' if q["quote"] else q["wording"]
                click.echo(f"      {value:<11} {q['source']}: {wording}")
    click.echo("presets:")
    default = Ruleset().switches()
    for preset in data["presets"]:
        changed = {k: v for k, v in preset["switches"].items() if default[k] != v}
        what = ", ".join(f"{k}={v}" for k, v in changed.items()) or "every switch official"
        click.echo(f"  {preset['name']}: {what}")


def _answer_text(question: str, answer: object, seat: int) -> str:
    """One reading's answer in words: the legal plays of ``seat`` (the player to move), or
    what the double-dummy value says about ``seat`` (the hero)."""
    if question == "legal":
        assert isinstance(answer, tuple)
        plays = " ".join(p.text for p in answer if isinstance(p, Play)) or "none (paradox)"
        return f"legal plays of seat {seat}: {plays}"
    if question == "paradox":
        return f"seat {seat} can avoid a paradox: {'yes' if answer else 'no'}"
    assert isinstance(answer, int)
    if question == "tricks":
        points = "trick point" if answer in (1, -1) else "trick points"
        return f"seat {seat} can make sure of {answer} {points}"
    return f"seat {seat} can make sure of a round score of {answer}"


def _answer_json(answer: object) -> Any:
    if isinstance(answer, tuple):
        return [play_json(p) for p in answer if isinstance(p, Play)]
    return answer


@rules.command("diff")
@click.argument("ruleset_a")
@click.argument("ruleset_b")
@click.option("--players", "-p", "-n", type=WholeRange(2, 5), default=4, show_default=True,
              help="Number of players (2-5).")
@click.option(
    "--question",
    type=click.Choice(QUESTIONS),
    default="legal",
    show_default=True,
    help="legal plays, or a double-dummy question (for every seat as hero).",
)
@click.option("--deals", type=WholeRange(1, 10_000), default=30, show_default=True,
              help="Seeded deals searched at each number of tricks left.")
@click.option("--max-tricks-left", type=WholeRange(1, 8), default=2, show_default=True,
              help="The bound: search positions with at most this many tricks left.")
@click.option("--seed", type=WholeNumber(), default=0, show_default=True,
              help="Seed of the deals: the same seed, the same positions searched.")
@click.option("--timeout", type=Seconds(), default=None,
              help="Give up after this many seconds: with no difference found by then, "
              "the answer is unknown (\"differ\": null), not \"no difference\".")
@json_option
@quiet_option
def rules_diff(
    ruleset_a: str,
    ruleset_b: str,
    players: int,
    question: str,
    deals: int,
    max_tricks_left: int,
    seed: int,
    timeout: float | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Find a smallest position where readings RULESET_A and RULESET_B differ.

    Smallest means fewest cards left in hands, then fewest tricks left. Positions are
    searched from the last trick backwards over seeded deals; every line of play from each
    searched trick start is walked under both readings. Rulesets are preset names with
    optional overrides (official,following=must-follow). Two names for one ruleset (or
    two apart only in a switch that does nothing at the player count) are answered at
    once, and so are two readings apart only in switches that change only
    the scoring at the end of the round (interrupted trick, bonus adjacency, 2-player
    bonus, row order) on any question but score. Exit code 0 with an answer (a
    difference, or none within the bounds), 3 when --timeout left it unknown, 2 on bad
    input.

    \b
    Example:
      catbox rules diff official must-follow --players 4
      catbox rules diff official czech-color-loss --players 3 --json
      catbox rules diff official quickref-red-lead -p 2 --question paradox
    """
    a = Ruleset.from_name(ruleset_a, players)
    b = Ruleset.from_name(ruleset_b, players)
    ready_search(quiet)
    deadline = None if timeout is None else time.monotonic() + timeout
    verbose = show_progress(quiet)

    def on_level(t: int) -> None:
        if verbose:
            click.echo(f"searching positions with {t} trick(s) left...", err=True)

    result = diff_rulesets(
        a, b, question, deals=deals, max_tricks_left=max_tricks_left, seed=seed,
        deadline=deadline, on_level=on_level,
    )
    if isinstance(result, Difference):
        cards, left = result.size
        if as_json:
            under_b: dict[str, Any] = {"ruleset": b.name, "answer": _answer_json(result.answer_b)}
            if result.position_b is not None:  # (B's predictions, which A's position lacks)
                under_b["position"] = position_to_dict(result.position_b)
                under_b["notation"] = position_to_notation(result.position_b)
            echo_json({
                "differ": True,
                "question": question,
                "position": position_to_dict(result.position),
                "notation": position_to_notation(result.position),
                "size": {"cards": cards, "tricks_left": left},
                "line": [play_json(p) for p in result.line],
                "hero": result.hero,
                "a": {"ruleset": a.name, "answer": _answer_json(result.answer_a)},
                "b": under_b,
            })
            return
        click.echo(f"{a.name} and {b.name} differ ({question}); smallest position found: "
                   f"{cards} cards in hands, {left} trick(s) left")
        click.echo(position_to_notation(result.position))
        click.echo(render_text(result.position))
        seat = result.hero
        if result.line:
            after = result.position
            for play in result.line:
                after = after.after(play)
            seat = after.to_move
            click.echo("line (legal under both): " + " ".join(p.text for p in result.line))
            click.echo(f"the legal plays below are those after this line (seat {seat} to "
                       "move), not those of the board drawn above")
        elif question == "legal":
            seat = result.position.to_move
        assert seat is not None
        click.echo(f"{a.name}: {_answer_text(question, result.answer_a, seat)}")
        click.echo(f"{b.name}: {_answer_text(question, result.answer_b, seat)}")
        if result.position_b is not None:  # (B's predictions, which A's notation lacks)
            click.echo(f"under {b.name} the position is: {position_to_notation(result.position_b)}")
        return
    cards, left = result.bound
    if as_json:
        echo_json({
            "differ": None if result.out_of_time else False,
            "question": question,
            "bound": {"cards": cards, "tricks_left": left},
            "positions_checked": result.positions_checked,
            **({"reason": "out of time (--timeout)"} if result.out_of_time else {}),
            **({"same": True} if result.same else {}),
            **({"score_only": list(result.score_only)} if result.score_only else {}),
        })
    elif result.same:
        click.echo(f"no difference: {a.name} and {b.name} are the same ruleset for "
                   f"{players} players (nothing to search)")
    elif result.score_only:
        verb = "changes" if len(result.score_only) == 1 else "change"
        click.echo(f"no difference: {a.name} and {b.name} differ only in "
                   f"{listed(result.score_only)}, which never {verb} a legal play, a trick or "
                   "a paradox, only the scoring at the end of the round (nothing to search; "
                   "ask --question score)")
    elif result.out_of_time:
        click.echo(
            f"unknown: out of time (--timeout) with no difference found up to size {cards} "
            f"cards / {left} trick(s) left ({result.positions_checked} positions checked, "
            f"not every one of the {deals} deals per level up to {max_tricks_left} tricks "
            "left)"
        )
    else:
        click.echo(
            f"no difference up to size {cards} cards / {left} trick(s) left "
            f"({result.positions_checked} positions checked, {deals} deals per level, "
            f"at most {max_tricks_left} tricks left)"
        )
    if result.out_of_time:  # (unknown exits with 3, as exists, prove and solve do; was 0)
        raise click.exceptions.Exit(EXIT_UNCHECKED)
