"""The referee: replays a game record through the rules engine and either confirms it (with
each round's tricks and scores and the game totals) or names the FIRST illegal event, the
rule it breaks, its round and its line.

Rules named in a verdict: 'rule 1', 'rule 2', 'red lead', 'must follow', 'wrong player',
'card not in hand' (also a deal or discard that does not match the deck or the hand),
'neutral tokens' (2 players: tokens that do not match the revealed cards), 'prediction'
(a value the ruleset does not allow), 'false paradox claim' (a claim while a legal play
existed, or plays that stop before the round is over without a claim), 'round over' (a
play after the last trick), 'game over' (more rounds than players) and 'wrong score'
(recorded tricks won, scores, totals or winners differ from the computed ones).
The legality of plays is the engine's (Position.why_illegal); nothing is re-decided here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from catbox_solver.errors import RecordError
from catbox_solver.formats.record import GameRecord, RoundRecord
from catbox_solver.games.game import game_winners, hands_after_discards
from catbox_solver.model.numbers import listed
from catbox_solver.model.position import (
    PLAYS,
    RULE_TEXT,
    Position,
    cell_bit,
    cells_of,
    neutral_mask,
)
from catbox_solver.model.rules import Ruleset

RULES_CHECKED = (
    "rule 1",
    "rule 2",
    "red lead",
    "must follow",
    "wrong player",
    "card not in hand",
    "neutral tokens",
    "prediction",
    "false paradox claim",
    "round over",
    "game over",
    "wrong score",
)


@dataclass(frozen=True)
class RoundVerdict:
    """The computed outcome of one replayed round."""

    number: int
    tricks_won: tuple[int, ...]
    scores: tuple[int, ...]
    paradox_by: int | None


@dataclass(frozen=True)
class Verdict:
    """``valid`` with every round's outcome and the game totals and winners (None while
    the game is not over: fewer rounds than players), or the first
    illegal event: ``rule`` broken, a ``message`` saying what, its ``round`` and ``line``
    (``rounds`` then holds the rounds confirmed before it)."""

    valid: bool
    rounds: tuple[RoundVerdict, ...] = ()
    totals: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None
    rule: str | None = None
    message: str = ""
    round: int | None = None
    line: int | None = None

    def __str__(self) -> str:
        if self.valid:
            return "valid"
        where = []
        if self.round is not None:
            where.append(f"round {self.round}")
        if self.line is not None:
            where.append(f"line {self.line}")
        return f"invalid: {', '.join(where)}: {self.rule}: {self.message}"


class _Illegal(Exception):
    """Internal: the first illegal event found (turned into a Verdict)."""

    def __init__(self, rule: str, message: str, line: int | None) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.line = line


def _check_cards(rules: Ruleset, r: RoundRecord) -> None:
    """The deal, leftover cards and discards must match the deck and the hands."""
    line = r.line("deal")
    n = rules.players
    # (a record read from text has these counts right; one built in memory may not)
    if len(r.deal) != n:
        raise _Illegal("card not in hand", f"the deal has {len(r.deal)} hands for {n} players",
                       line)
    if len(r.discards) != n:
        raise _Illegal("card not in hand", f"{len(r.discards)} discards for {n} players",
                       r.line("discards") or line)
    for seat, hand in enumerate(r.deal):
        if len(hand) != rules.hand_size:
            raise _Illegal(
                "card not in hand",
                f"seat {seat} was dealt {len(hand)} cards; a {rules.players}-player deal "
                f"gives {rules.hand_size}",
                line,
            )
    if len(r.leftover) != rules.leftover:
        raise _Illegal(
            "card not in hand",
            f"{len(r.leftover)} leftover cards; {rules.players} players leave {rules.leftover}",
            r.line("leftover") or line,
        )
    dealt = Counter(v for hand in r.deal for v in hand)
    left = Counter(r.leftover)
    counts = dealt + left
    # the line to name: the deal's, unless the leftover cards alone break the count (a bad
    # leftover card was reported at the deal line, as if a hand were wrong: game audit)
    left_line = r.line("leftover") or line
    for v in sorted(counts):
        where = left_line if not dealt[v] else line
        if not 1 <= v <= rules.values:
            what = "a leftover card of value" if not dealt[v] else "value"
            raise _Illegal(
                "card not in hand",
                f"{what} {v} is not in the {rules.players}-player deck "
                f"(values 1-{rules.values})",
                where,
            )
        if counts[v] > rules.copies:
            split = f" ({dealt[v]} dealt, {left[v]} left over)" if left[v] else ""
            raise _Illegal(
                "card not in hand",
                f"value {v} appears {counts[v]} times{split}; only {rules.copies} copies exist",
                left_line if left[v] and dealt[v] <= rules.copies else line,
            )
    for seat, (hand, d) in enumerate(zip(r.deal, r.discards, strict=True)):
        if d not in hand:
            raise _Illegal(
                "card not in hand",
                f"seat {seat} discarded {d}, which is not in its dealt hand",
                r.line("discards"),
            )


def _start_position(rules: Ruleset, r: RoundRecord) -> Position:
    """Check the setup lines and build the position at the first lead."""
    _check_cards(rules, r)
    revealed = r.leftover[: rules.neutral_tokens]
    if r.neutral is not None and rules.players != 2:
        # (the reader refuses such a line; a record built in memory could hold one, even
        # an empty one, and was judged valid though it could not be written and read back)
        raise _Illegal(
            "neutral tokens",
            f"neutral tokens are placed with 2 players only, not {rules.players}",
            r.line("neutral"),
        )
    if r.neutral is not None:
        mask = 0
        for play in r.neutral:
            mask |= cell_bit(play.value, play.color)
        want = neutral_mask(revealed)
        if mask != want or len(r.neutral) != len(revealed):
            cells = " ".join(p.text for p in sorted(PLAYS[v][c] for c, v in cells_of(want)))
            raise _Illegal(
                "neutral tokens",
                f"the revealed cards {''.join(map(str, revealed))} place neutral tokens on "
                f"{cells}",
                r.line("neutral"),
            )
    predictions = r.predictions
    if predictions is None and rules.has_predictions:
        # (the reader refuses a round with no 'predictions' line; a record built in memory
        # got as far as the scores, whose bonus needs them, and raised out of verify)
        raise _Illegal(
            "prediction",
            f"{rules.players} players predict: round {r.number} has no predictions",
            r.line("round"),
        )
    if predictions is not None:
        # (what the reader refuses; a record built in memory was judged on them)
        if not rules.has_predictions:
            raise _Illegal(
                "prediction",
                f"{rules.players} players make no predictions with ruleset {rules.name}",
                r.line("predictions"),
            )
        if len(predictions) != rules.players:
            raise _Illegal(
                "prediction",
                f"{len(predictions)} predictions for {rules.players} players",
                r.line("predictions"),
            )
        for seat, guess in enumerate(predictions):
            if guess not in rules.prediction_choices:
                raise _Illegal(
                    "prediction",
                    f"seat {seat} predicted {guess}; allowed: "
                    f"{', '.join(map(str, rules.prediction_choices))}",
                    r.line("predictions"),
                )
    hands = hands_after_discards(r.deal, r.discards)
    return Position.new_round(rules, hands, r.start, predictions, neutral_values=revealed)


def _replay_round(rules: Ruleset, r: RoundRecord) -> RoundVerdict:
    """Replay one round; raises _Illegal at the first illegal event."""
    pos = _start_position(rules, r)
    last_line = r.line("predictions") or r.line("discards") or r.line("round")
    for i, trick in enumerate(r.tricks, 1):
        line = r.line(f"trick {i}")
        last_line = line
        for seat, play in trick:
            if pos.tricks_left == 0:
                raise _Illegal(
                    "round over", f"{seat}:{play.text} after the last trick of the round", line
                )
            if seat != pos.to_move:
                raise _Illegal(
                    "wrong player",
                    f"{seat}:{play.text} in trick {i}, but it is seat {pos.to_move}'s turn",
                    line,
                )
            reason = pos.why_illegal(play)
            if reason is not None:
                # the rule is named once, by the verdict ("rule 1: 3:7g in trick 1: rule
                # 1: that cell ..." named it twice)
                text = RULE_TEXT.get(reason, reason)
                why = "" if text == reason else ": " + text.removeprefix(f"{reason}: ")
                raise _Illegal(reason, f"{seat}:{play.text} in trick {i}{why}", line)
            pos = pos.after(play)
    claim_line = r.line("paradox") or last_line
    if pos.tricks_left == 0:
        if r.paradox is not None:
            raise _Illegal(
                "false paradox claim",
                f"seat {r.paradox} claims a paradox after the last trick",
                claim_line,
            )
    else:
        legal = pos.legal_plays()
        if r.paradox is None:
            if legal:
                message = (
                    f"the plays stop in trick {pos.tricks_played + 1} with no paradox claim "
                    f"while seat {pos.to_move} has a legal play "
                    f"({', '.join(p.text for p in legal[:4])}{'...' if len(legal) > 4 else ''})"
                )
            else:
                message = (
                    f"seat {pos.to_move} has no legal play in trick "
                    f"{pos.tricks_played + 1}, but the record claims no paradox"
                )
            raise _Illegal("false paradox claim", message, claim_line)
        if r.paradox != pos.to_move:
            raise _Illegal(
                "false paradox claim",
                f"seat {r.paradox} claims a paradox, but it is seat {pos.to_move}'s turn",
                claim_line,
            )
        if legal:
            raise _Illegal(
                "false paradox claim",
                f"seat {r.paradox} claims a paradox but has a legal play "
                f"({', '.join(p.text for p in legal[:4])}{'...' if len(legal) > 4 else ''})",
                claim_line,
            )
    scores = pos.scores()
    _must_match("tricks won are", pos.tricks_won, r.won, r.line("won"))
    _must_match("scores are", scores, r.scores, r.line("scores"))
    return RoundVerdict(r.number, pos.tricks_won, scores, pos.paradox_by)


def _must_match(
    what: str,
    computed: tuple[int, ...],
    recorded: tuple[int, ...] | None,
    line: int | None,
) -> None:
    """A recorded outcome (tricks won, scores, totals, winners), when given, must equal the
    one the replay computed: else 'wrong score'."""
    if recorded is not None and recorded != computed:
        raise _Illegal(
            "wrong score",
            f"{what} {' '.join(map(str, computed))}, the record says "
            f"{' '.join(map(str, recorded))}",
            line,
        )


def _seats(seats: tuple[int, ...]) -> str:
    """Seats in words: "seat 2", "seats 0 and 2", "seats 0, 1 and 3" ("no seat": a record
    built in code may name none, which raised IndexError; review)."""
    if not seats:
        return "no seat"
    return f"seat{'' if len(seats) == 1 else 's'} {listed(seats)}"


def verify(record: GameRecord) -> Verdict:
    """Replay ``record``: valid with the outcome of every round, or the first illegal event
    with the rule it breaks, its round and line."""
    if not isinstance(record, GameRecord):
        raise RecordError(f"a GameRecord is needed, not {type(record).__name__}")
    rules = record.rules
    n = rules.players
    done: list[RoundVerdict] = []
    current: int | None = None
    try:
        for i, r in enumerate(record.rounds):
            current = r.number
            if i >= n:
                raise _Illegal(
                    "game over", f"a game of {n} players has {n} rounds", r.line("round")
                )
            if not 0 <= r.start < n:  # (an in-memory record: round 1's seat 7 was
                # reported as "the start passes clockwise, so seat 1 starts it")
                raise _Illegal("wrong player",
                               f"round {r.number} is started by seat {r.start}, outside "
                               f"0..{n - 1}", r.line("start"))
            want = (record.rounds[0].start + i) % n
            if r.start != want:
                raise _Illegal(
                    "wrong player",
                    f"round {r.number} is started by seat {r.start}; the start passes "
                    f"clockwise, so seat {want} starts it",
                    r.line("start"),
                )
            done.append(_replay_round(rules, r))
        current = None
        totals = tuple(sum(rv.scores[s] for rv in done) for s in range(n))
        _must_match("totals are", totals, record.totals, record.line("totals"))
        # the game ends after as many rounds as players: only then has it winners
        winners = game_winners(totals, done[-1].scores) if len(done) == n else None
        if winners is None and record.winners is not None:
            raise _Illegal(
                "wrong score",
                f"winners named after {len(done)} of {n} rounds: the game is not over",
                record.line("winners"),
            )
        if winners is not None and record.winners not in (None, winners):
            # (this read "the winners are seats 2, the record says 3")
            raise _Illegal(
                "wrong score",
                f"{_seats(winners)} won the game, the record says {_seats(record.winners)}",
                record.line("winners"),
            )
    except _Illegal as bad:
        return Verdict(
            valid=False,
            rounds=tuple(done),
            rule=bad.rule,
            message=bad.message,
            round=current,
            line=bad.line,
        )
    return Verdict(valid=True, rounds=tuple(done), totals=totals, winners=winners)
