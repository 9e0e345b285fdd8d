"""``catbox odds``: a seat's odds over the hands it cannot see (single dummy).

Thin: parse the arguments, call :mod:`catbox_solver.dd.hidden`, print.
"""

from __future__ import annotations

from fractions import Fraction

import click

from catbox_solver.cli.common import (
    Seconds,
    Undecided,
    WholeNumber,
    WholeRange,
    counted,
    json_option,
    main,
    quiet_option,
    ready_search,
)
from catbox_solver.cli.solve_cmds import (
    QUESTION_TEXT,
    ProvenCtrlC,
    hero_and_question,
    jobs_option,
    parse_hero,
)
from catbox_solver.dd.hidden import (
    HIDDEN_QUESTIONS,
    MAX_EXACT_DEALS,
    SingleDummy,
    single_dummy,
)
from catbox_solver.model.position import Position


def _share_text(question: str, share: Fraction | float) -> str:
    """A share of deals (paradox) as a percentage, a mean value with two decimals; a
    standard error in the same unit."""
    value = float(share)
    return f"{100 * value:.1f} %" if question == "paradox" else f"{value:.2f}"


def _exact_text(sd: SingleDummy, share: Fraction) -> str:
    """The share exactly: sampled ``paradox`` as deals out of those searched, else the
    fraction."""
    if sd.question == "paradox" and not sd.exact:
        return f"{share * sd.weight} of {sd.weight} deals"
    return str(share)


def odds_text(sd: SingleDummy, why: str = "out of time") -> str:
    """The odds in words: what was weighed, then each play (best first), then what seeing
    every hand would be worth."""
    head = QUESTION_TEXT[sd.question].format(h=sd.seat)
    lines = [f"{head} (each deal solved double dummy)"]
    searched = sd.deals + sd.undecided
    some = f"{searched:,} of " if searched < sd.asked else ""
    asked = f"{sd.asked:,} {'deal' if sd.asked == 1 else 'deals'}"
    if sd.exact:
        out = f" ({sd.ruled_out:,} more ruled out by the trick under way)" if sd.ruled_out else ""
        every = ("" if sd.samples is None else
                 f" (no more than the {sd.samples:,} samples asked: each searched once)")
        lines.append(f"{some}{asked} seat {sd.seat} cannot tell apart{every}, "
                     f"weighted by the {sd.ways:,} ways to deal the hidden cards{out}")
    else:
        lines.append(f"{some}{asked} drawn at random (seed {sd.seed}) "
                     f"from the {sd.ways:,} ways to deal the hidden cards")
    if not sd.discard:
        lines.append(f"seat {sd.seat}'s own discard is not given: it is dealt with the "
                     "hidden cards (--discard V)")
    if not sd.complete:
        lines.append(f"cut short ({why}): only the deals finished count")
    if sd.undecided:
        lines.append(f"{counted(sd.undecided, 'deal')} undecided at the time limit, left out")
    if not sd.weight:
        lines.append("no deal decided: no odds")
        return "\n".join(lines)
    if sd.plays:
        paradox = sd.question == "paradox"
        heads = ["play", "safe in" if paradox else "mean"]
        if not sd.exact:
            heads.append("± s.e.")
        if not paradox:
            heads += ["worst", "best"]
        widths = [max(len(h), 7) if i else 4 for i, h in enumerate(heads)]
        lines.append("  ".join(h.rjust(w) for h, w in zip(heads, widths, strict=True))
                     + "  exactly")
        for p in sd.plays:
            cells = [p.play.text, _share_text(sd.question, p.share)]
            if not sd.exact:
                cells.append("-" if p.error is None else _share_text(sd.question, p.error))
            if not paradox:
                cells += [str(p.worst), str(p.best)]
            lines.append("  ".join(c.rjust(w) for c, w in zip(cells, widths, strict=True))
                         + f"  {_exact_text(sd, p.share)}")
        label = "seeing every hand (the best play in each deal)"
    else:
        label = f"seat {sd.seat} is not to move; the position itself"
    dd = sd.double_dummy
    assert dd is not None
    lines.append(f"{label}: {_share_text(sd.question, dd)} ({_exact_text(sd, dd)})")
    lines.append(f"{sd.seconds:.3f} s")
    return "\n".join(lines)


@main.command("odds")
@click.argument("position")
@hero_and_question(
    "The seat whose odds these are (it sees only its own hand), or 'to-move'.",
    HIDDEN_QUESTIONS, "paradox",
    "paradox: the share of deals where the hero avoids causing one; tricks, score: "
    "the mean of its guaranteed trick points or round score.",
)
@click.option("--samples", type=WholeRange(1, 10**7), default=100, show_default=True,
              help="Deals drawn at random (not with --exact); when there are no more "
              "deals than this (nor --max-deals), each is searched once instead, weighted "
              "exactly.")
@click.option("--seed", type=WholeNumber(), default=0, show_default=True,
              help="Seed of the random deals: the same seed draws the same deals (not "
              "with --exact).")
@click.option("--exact/--sampled", default=None,
              help="--exact: search every deal the hero cannot tell apart, weighted "
              "exactly (late in a round; refused beyond --max-deals). --sampled: draw "
              "--samples deals even when there are fewer. Default: drawn, unless there are "
              "no more deals than --samples and --max-deals.")
@click.option("--max-deals", type=WholeRange(1, 10**7), default=MAX_EXACT_DEALS,
              show_default=True, help="The most deals searched exactly: --exact refuses more, "
              "and the default draws --samples deals when there are more.")
@click.option("--discard", type=WholeNumber(), default=None,
              help="The hero's own discarded value, which it knows.")
@click.option("--timeout", type=Seconds(), default=None,
              help="Seconds for the whole answer; the deals finished by then count.")
@jobs_option("deals", "The odds are the same, except which deals a --timeout leaves out.")
@json_option
@quiet_option
def odds_cmd(
    position: str,
    hero: str,
    question: str,
    samples: int,
    seed: int,
    exact: bool | None,
    max_deals: int,
    discard: int | None,
    timeout: float | None,
    jobs: int,
    as_json: bool,
    quiet: bool,
) -> None:
    """The hero's odds when the other hands are hidden (single dummy).

    The hero sees its own hand, the research board, every seat's colors, the tricks won
    and the predictions. The other hands are dealt at random from the cards it cannot
    see, each keeping its size (--samples deals from --seed), or every such deal is
    taken with its exact weight (--exact, or by itself when there are no more deals than
    --samples). Each deal is solved double dummy, the hero
    against all the others, for each of its legal plays: the share of deals where a play
    keeps it safe from causing a paradox, or the mean of what it guarantees. The last
    line gives what seeing every hand would be worth (the best play in each deal).
    Only the trick under way is read for hints (a deal it rules out, such as one giving
    a red leader before red was broken another lead, is left out); earlier plays and the
    predictions are not. Each deal's answer assumes that everyone sees every card after
    this play: the odds are best used to compare plays (docs/odds.md).

    How long: late in a round a few hundred deals a second; from the first lead with 4
    or 5 players seconds a deal, and the paradox odds there are mostly 0 % (the others,
    playing together, corner the hero in nearly every deal), so give it a --timeout.

    Exit code 3 when the time limit left deals out or undecided, 130 after Ctrl-C (the
    odds over the deals finished are printed), 2 on bad input.

    POSITION is the one-line notation, JSON text (catbox-position/1, starting with '{'),
    @FILE holding either, or @FILE.jsonl with one position per line (a batch).

    \b
    Examples:
      catbox odds @pos.json
      catbox odds @pos.json --hero 2 --question tricks --samples 200 --seed 7
      catbox odds @late.json --exact --json
      catbox odds @first-lead.json --discard 5 --timeout 60 --jobs 0
    """
    from catbox_solver.cli.position_cmds import run_positions

    dropped = () if discard is None else (discard,)
    stop = ProvenCtrlC()
    undecided = Undecided()

    def odds(pos: Position) -> SingleDummy:
        seat = parse_hero(hero, pos)
        ready_search(quiet)
        sd = stop.run(quiet, "odds", lambda report: single_dummy(
            pos, seat, question, samples=samples, seed=seed, exact=exact, discard=dropped,
            timeout=timeout, max_deals=max_deals, progress=report, jobs=jobs,
        ), "deals")
        undecided.add(not stop.hit and (not sd.complete or sd.undecided > 0))
        return sd

    run_positions(position, as_json, lambda pos: odds(pos).to_json(),
                  lambda pos: odds_text(odds(pos), stop.why), undecided=undecided, stop=stop)
    undecided.end()
