"""``catbox deal``, ``catbox play``, ``catbox simulate`` and ``catbox verify``: seeded rounds,
a game in the terminal against random bots, random-bot statistics and the referee."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import click

from catbox_solver.cli.common import (
    EXIT_INVALID,
    GivenPath,
    WholeNumber,
    WholeRange,
    counted,
    echo_json,
    fail,
    json_option,
    main,
    progress,
    quiet_option,
    ruleset_option,
    stopped,
)
from catbox_solver.errors import CatboxError, RecordError
from catbox_solver.formats.files import read_limited, write_whole
from catbox_solver.formats.record import (
    GameRecord,
    game_record,
    read_record,
    round_record,
    write_record,
)
from catbox_solver.games.bots import Bot, PlayerView, random_bots
from catbox_solver.games.game import EVENTS, RoundResult, play_game, setup_round
from catbox_solver.games.referee import Verdict, verify
from catbox_solver.games.simulate import compare_stats, game_seeds, play_games, simulate_stats
from catbox_solver.model.deal import deal as deal_cards
from catbox_solver.model.numbers import whole_number
from catbox_solver.model.position import RULE_TEXT, Play
from catbox_solver.model.rules import Ruleset
from catbox_solver.render.text import board_lines, render_view

players_option = click.option(
    "--players", "-p", type=WholeRange(2, 5), required=True, help="Number of players (2-5)."
)


def _rules(ruleset: str, players: int) -> Ruleset:
    return Ruleset.from_name(ruleset, players)


def _seats(values: tuple[int, ...] | list[int]) -> str:
    return " ".join(str(v) for v in values)


# ---- catbox deal ---------------------------------------------------------------------------
@main.command("deal")
@players_option
@click.option("--seed", type=WholeNumber(), required=True, help="Seed of the shuffle and the bots.")
@click.option("--start", type=WholeNumber(), default=0, show_default=True,
              help="Seat that starts the round.")
@ruleset_option
@json_option
@click.option("--notation", is_flag=True, help="Print the one-line notation of the position.")
def deal_cmd(
    players: int, seed: int, start: int, ruleset: str, as_json: bool, notation: bool
) -> None:
    """Deal a seeded round and show it at the first lead.

    Random bots (seeded from SEED) choose the discards and the predictions; with 2 players
    the first 3 leftover cards place the neutral tokens. The same seed always gives the same
    round: it is round 1 of `catbox play` games with that seed (`catbox simulate` seeds its
    games and their rounds' bots differently: see its --help).

    \b
    Examples:
      catbox deal --players 4 --seed 7
      catbox deal --players 2 --seed 7 --notation
      catbox deal -p 3 --seed 1 --start 2 --json
    """
    from catbox_solver.formats.jsonform import position_to_dict
    from catbox_solver.formats.notation import position_to_notation
    from catbox_solver.render.text import render_text

    if as_json and notation:  # (as show: one was dropped without a word)
        raise click.UsageError("choose one of --json and --notation")
    rules = _rules(ruleset, players)
    if not 0 <= start < players:
        fail(f"--start: seat {start} outside 0..{players - 1}")
    setup = setup_round(deal_cards(rules, seed), start, random_bots(players, seed))
    pos = setup.position
    if as_json:
        echo_json(position_to_dict(pos))
        return
    if notation:
        click.echo(position_to_notation(pos))
        return
    lines = [f"seed {seed}, round started by seat {start}"]
    lines.append("dealt hands: " + " | ".join("".join(map(str, h)) for h in setup.deal.hands))
    lines.append(f"discards:    {_seats(setup.discards)}")
    if setup.revealed:
        lines.append(f"revealed:    {_seats(setup.revealed)} (neutral tokens)")
    if setup.predictions is not None:
        lines.append(f"predictions: {_seats(setup.predictions)}")
    click.echo("\n".join(lines) + "\n")
    click.echo(render_text(pos))


# ---- catbox play ---------------------------------------------------------------------------
def _ask(question: str) -> str:
    """The human's next line of input that is not blank, after ``question``. Piped input is
    echoed (a terminal echoes typing itself), so that a transcript shows each answer on its
    prompt's line; a blank line asks again on a line of its own (click's prompt asked again
    on the same line, unseen: "discard which card: discard which card:"). Ctrl-C or the end
    of the input raises click's Abort, as its prompt did."""
    while True:
        click.echo(f"{question}: ", nl=False)
        try:
            line = sys.stdin.readline()
        except KeyboardInterrupt:
            raise click.exceptions.Abort() from None
        if not line:
            raise click.exceptions.Abort()
        if not sys.stdin.isatty():
            click.echo(line.rstrip("\r\n"))
        if line.strip():
            return line.strip()


def tie_break_text(
    totals: Sequence[int], final: Sequence[int], winners: Sequence[int],
    who: Callable[[int], str] = lambda s: f"seat {s}",
) -> str:
    """How a tie on the highest total was broken, in words (empty without a tie): the
    tied seats' scores in the final round decide, and a tie there too shares the win."""
    best = max(totals)
    tied = [s for s, total in enumerate(totals) if total == best]
    if len(tied) < 2:
        return ""
    names = [who(s) for s in tied]
    scores = ", ".join(f"{name} {final[s]}" for name, s in zip(names, tied, strict=True))
    text = (f"tie on {best} points between {' and '.join(names)}: broken by the score of "
            f"the final round ({scores})")
    if len(winners) > 1:
        return f"{text}, tied there too, so the win is shared"
    return f"{text}, highest for {who(winners[0])}"


class TerminalBot:
    """The human player: prompts on the terminal, shows the view, re-prompts on bad input
    naming the rule broken."""

    def discard(self, view: PlayerView) -> int:
        if view.neutral:  # 2 players: the leftovers are revealed before the discard
            click.echo("\n" + "\n".join(board_lines(view.rules, view.owners, view.neutral)))
        click.echo(f"\nyour hand (seat {view.seat}): {' '.join(map(str, view.hand))}")
        while True:
            text = _ask("discard which card")
            card = whole_number(text)
            if card is not None and card in view.hand:
                return card
            click.echo(f"  {text!r} is not a card in your hand")

    def predict(self, view: PlayerView, choices: tuple[int, ...]) -> int:
        made = [
            f"seat {s}: {p}" for s, p in enumerate(view.predictions or ()) if p is not None
        ]
        click.echo(f"\nyour hand: {' '.join(map(str, view.hand))}")
        if made:
            click.echo("predictions so far: " + ", ".join(made))
        allowed = ", ".join(map(str, choices))
        while True:
            text = _ask(f"predict your tricks ({allowed})")
            tricks = whole_number(text)
            if tricks is not None and tricks in choices:
                return tricks
            click.echo(f"  {text!r} is not one of {allowed}")

    def play(self, view: PlayerView) -> Play:
        click.echo("\n" + render_view(view))
        while True:
            text = _ask("your play (like 7r; ? lists the legal plays)")
            if text in ("?", "help", "legal"):
                click.echo("  legal: " + " ".join(p.text for p in view.legal))
                continue
            try:
                play = Play.parse(text, view.rules.values)
            except CatboxError as exc:
                click.echo(f"  {exc}")
                continue
            reason = view.why_illegal(play)
            if reason is None:
                return play
            click.echo(f"  illegal: {RULE_TEXT.get(reason, reason)}")


def _observer(human: int) -> Any:
    """Prints the public course of the game for the human at seat ``human``."""

    def tell(kind: str, data: Mapping[str, Any]) -> None:
        if kind == "begin":
            click.echo(f"\n=== round {data['round']}: seat {data['start']} starts ===")
            if data["revealed"]:  # 2 players: revealed right after the deal
                click.echo(f"revealed leftover cards: {_seats(data['revealed'])}")
        elif kind == "start":
            if data["predictions"] is not None:
                click.echo(f"predictions: {_seats(data['predictions'])}")
        elif kind == "play":
            if data["seat"] != human:
                click.echo(f"  seat {data['seat']} plays {data['play'].text}")
        elif kind == "trick":
            click.echo(f"  seat {data['winner']} wins the trick")
        elif kind == "paradox":
            who = "you" if data["seat"] == human else f"seat {data['seat']}"
            click.echo(f"  PARADOX: {who} cannot play (trick {data['trick']}); the round is over")
        elif kind == "round":
            result: RoundResult = data["result"]
            click.echo(f"round {result.number}: tricks won {_seats(result.tricks_won)}")
            click.echo(f"round {result.number}: scores {_seats(result.scores)}")

    return tell


@main.command("play")
@players_option
@click.option("--seed", type=WholeNumber(), default=None,
              help="Seed (default: a random one, printed).")
@click.option("--seat", type=WholeNumber(), default=0, show_default=True, help="Your seat.")
@ruleset_option
@click.option(
    "--record", "record_file", type=GivenPath(dir_okay=False), help="Write the game record here."
)
def play_cmd(
    players: int, seed: int | None, seat: int, ruleset: str, record_file: str | None
) -> None:
    """Play a full game in the terminal against random bots.

    You are prompted for your discard, your prediction and each play (type plays like 7r,
    3b, 5y, 2g; '?' lists the legal plays). An illegal play is refused with the rule it
    breaks. Seat 0 starts the first round; the start passes clockwise.

    \b
    Examples:
      catbox play --players 3
      catbox play --players 4 --seed 7 --seat 2 --record game.txt
      catbox verify game.txt
    """
    rules = _rules(ruleset, players)
    if not 0 <= seat < players:
        fail(f"--seat: seat {seat} outside 0..{players - 1}")
    if sys.stdin is None:  # (the first prompt raised RuntimeError "lost sys.stdin")
        fail("standard input is closed: the game reads your choices from it")
    if record_file:  # a bad path fails now, not after the game: opened to append, once
        target = Path(record_file)
        existed = target.exists()
        try:
            with target.open("a", encoding="utf-8"):
                pass
        except OSError as exc:
            fail(f"--record: cannot write {record_file!r}: {exc.strerror or exc}")
        if not existed:
            target.unlink()  # (the record is written after the first round)
    if seed is None:
        seed = random.SystemRandom().randrange(10**9)
    click.echo(f"Cat in the Box, {players} players, ruleset {rules.name}, seed {seed}")
    click.echo(f"you are seat {seat}")
    bots: list[Bot] = list(random_bots(players, seed))
    bots[seat] = TerminalBot()
    names = tuple("you" if s == seat else f"bot{s}" for s in range(players))

    def write(record: GameRecord) -> None:
        assert record_file is not None
        write_whole(record_file, write_record(record))

    finished = [0]

    def so_far(rounds: tuple[RoundResult, ...]) -> None:
        """The record of the rounds finished (a game stopped early keeps them)."""
        write(GameRecord(rules, tuple(round_record(r) for r in rounds), seed, names))
        finished[0] = len(rounds)

    try:
        game = play_game(
            rules, seed, bots, 0, _observer(seat), so_far if record_file else None
        )
    except click.exceptions.Abort as exc:  # a prompt met Ctrl-C or the end of its input
        click.echo()  # (ends the prompt's line)
        if record_file and finished[0]:
            done = counted(finished[0], "round")
            click.echo(f"record of the {done} finished written to {record_file}", err=True)
        if isinstance(exc.__context__, KeyboardInterrupt):
            stopped()
        fail("the input ended before the game did")
    click.echo(f"\ntotals: {_seats(game.totals)}")

    def who(s: int) -> str:
        return "you" if s == seat else f"seat {s}"

    tie = tie_break_text(game.totals, game.rounds[-1].scores, game.winners, who)
    if tie:
        click.echo(tie)
    won = ", ".join(who(s) for s in game.winners)
    click.echo(f"winner{'s' if len(game.winners) > 1 else ''}: {won}")
    if record_file:
        write(game_record(game, names))
        click.echo(f"record written to {record_file}")


# ---- catbox simulate -----------------------------------------------------------------------
@main.command("simulate")
@players_option
# at most 100,000 games (about 4 minutes and 1.7 GB: every game's record is kept for the
# report); an unbounded count ran for ever without a word
@click.option("--games", "-g", type=WholeRange(1, 100_000), default=100, show_default=True,
              help="How many games to play.")
@click.option("--seed", type=WholeNumber(), default=0, show_default=True, help="Seed of all games.")
@ruleset_option
@click.option(
    "--compare",
    "compare",
    default=None,
    metavar="RULESET",
    help="Also play the same seeded rounds under this ruleset (same deals, discards and "
    "predictions in every round; the bots' plays on the same seeded streams) and report "
    "how often a round's outcome differs.",
)
@json_option
@quiet_option
def simulate_cmd(
    players: int,
    games: int,
    seed: int,
    ruleset: str,
    compare: str | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Play random-bot games and report how they go.

    Reports the paradox rate (and in which trick paradoxes happen), average totals, round
    scores and tricks per seat, wins per seat, and how often each rule event fired (red led
    after red was broken, red led by the exception, off-color follows, colors lost, tricks
    won by trump, paradoxes, bonuses). Reproducible from --seed: game k is seeded with the
    k-th 48-bit number drawn from --seed, and every round's bots are seeded anew from that
    game seed and the round (library: play_game(..., per_round_bots=True)), so that a round
    starts alike under --compare's two readings whatever happened before it.

    \b
    JSON fields: players, ruleset, seed, games, rounds, paradox_rounds, paradox_rate,
    paradox_by_trick, paradox_by_seat, average_totals, average_round_scores,
    average_tricks, wins, events, events_per_round.

    With --compare the JSON object is {"a": stats, "b": stats, "differences": {...}}
    (rounds, plays_differ, paradox_occurrence_differs, paradox_differs, tricks_differ,
    scores_differ, rates).

    \b
    Examples:
      catbox simulate --players 4 --games 1000 --seed 1
      catbox simulate -p 3 -g 200 --ruleset quickref-red-lead --json --quiet
      catbox simulate -p 2 -g 500 --compare czech-color-loss
    """
    rules = _rules(ruleset, players)
    other = _rules(compare, players) if compare is not None else None
    seeds = game_seeds(seed, games)
    results = play_games(rules, progress(seeds, len(seeds), "simulating", quiet))
    stats = simulate_stats(rules, results, seed)
    if other is not None:
        results_b = play_games(
            other, progress(seeds, len(seeds), f"simulating {other.name}", quiet)
        )
        stats_b = simulate_stats(other, results_b, seed)
        diff = compare_stats(results, results_b)
        if as_json:
            echo_json({"a": stats, "b": stats_b, "differences": diff})
            return
        n_rounds = diff["rounds"]
        click.echo(
            f"{counted(games, 'game')} ({n_rounds} rounds), {players} players, seed {seed}: "
            f"{rules.name} against {other.name} on the same deals and bots"
        )
        click.echo(f"paradox rate     {stats['paradox_rate']:.3f} against "
                   f"{stats_b['paradox_rate']:.3f} ({stats['paradox_rounds']} and "
                   f"{stats_b['paradox_rounds']} of {n_rounds} rounds)")
        click.echo(f"average totals   {_seats(stats['average_totals'])} against "
                   f"{_seats(stats_b['average_totals'])}")
        for key, text in (
            ("plays_differ", "the plays differ"),
            ("paradox_occurrence_differs", "one reading has a paradox, the other not"),
            ("paradox_differs", "the paradox (who, which trick) differs"),
            ("tricks_differ", "tricks won differ"),
            ("scores_differ", "scores differ"),
        ):
            click.echo(f"  {diff[key]:>7} rounds ({diff['rates'][key]:.3f})  {text}")
        return
    if as_json:
        echo_json(stats)
        return
    lines = [
        f"{counted(games, 'game')} ({stats['rounds']} rounds), {players} players, "
        f"ruleset {rules.name}, "
        f"seed {seed}",
        # ("1.000 (3998 rounds)" hid the 2 rounds of 4000 without one)
        f"paradox rate     {stats['paradox_rate']:.3f} ({stats['paradox_rounds']} of "
        f"{stats['rounds']} rounds)",
        "paradox in trick "
        + (", ".join(f"{t}: {k}" for t, k in stats["paradox_by_trick"].items()) or "-"),
        f"average totals   {_seats(stats['average_totals'])}",
        f"average round    {_seats(stats['average_round_scores'])}  (score of one round)",
        f"average tricks   {_seats(stats['average_tricks'])}",
        f"wins             {_seats(stats['wins'])}",
        "rule events (count, per round):",
    ]
    for key, text in EVENTS.items():
        lines.append(
            f"  {stats['events'][key]:>8}  {stats['events_per_round'][key]:>7.3f}  {text}"
        )
    click.echo("\n".join(lines))


# ---- catbox verify -------------------------------------------------------------------------
def verdict_json(verdict: Verdict) -> dict[str, Any]:
    """The `catbox verify --json` object."""
    rounds = [
        {
            "round": rv.number,
            "tricks_won": list(rv.tricks_won),
            "scores": list(rv.scores),
            "paradox_by": rv.paradox_by,
        }
        for rv in verdict.rounds
    ]
    if verdict.valid:
        return {
            "valid": True,
            "rounds": rounds,
            "totals": list(verdict.totals or ()),
            "winners": None if verdict.winners is None else list(verdict.winners),
        }
    return {
        "valid": False,
        "rule": verdict.rule,
        "round": verdict.round,
        "line": verdict.line,
        "message": verdict.message,
        "rounds": rounds,
    }


@main.command("verify")
@click.argument("record_file", metavar="RECORD", type=GivenPath(allow_dash=True))
@json_option
def verify_cmd(record_file: str, as_json: bool) -> None:
    """Referee a game record: replay it and confirm it or name the first illegal event.

    Prints 'valid' with each round's scores, the totals and, once the game is over (as
    many rounds as players), the winners (exit code 0), or the first
    illegal event with its round, line and the rule it breaks (exit code 1). A file that
    cannot be read or is not a record: exit code 2. RECORD '-' reads standard input.
    The record format is in docs/records.md.

    \b
    Examples:
      catbox play --players 3 --seed 5 --record game.txt
      catbox verify game.txt
      catbox verify game.txt --json
    """
    try:
        text = read_limited(None if record_file == "-" else record_file).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RecordError(f"{record_file}: not a text file (UTF-8)") from None
    record = read_record(text)
    verdict = verify(record)
    if as_json:
        echo_json(verdict_json(verdict))
    elif verdict.valid:
        n = record.rules.players
        over = "" if verdict.winners is not None else f" of {n}, the game is not over"
        click.echo(f"valid: {counted(len(verdict.rounds), 'round')}{over}")
        for rv in verdict.rounds:
            extra = "" if rv.paradox_by is None else f" (paradox by seat {rv.paradox_by})"
            click.echo(f"round {rv.number}: scores {_seats(rv.scores)}{extra}")
        click.echo(f"totals {_seats(verdict.totals or ())}")
        if verdict.winners is not None:
            winners = verdict.winners
            totals = verdict.totals or ()
            tie = tie_break_text(totals, verdict.rounds[-1].scores, winners)
            if tie:
                click.echo(tie)
            click.echo(f"winner{'s' if len(winners) > 1 else ''}: {_seats(winners)}")
    else:
        click.echo(str(verdict))
    if not verdict.valid:
        raise click.exceptions.Exit(EXIT_INVALID)

