"""Text game records (think PGN): one or more rounds with the deal, discards, 2-player
leftover cards and neutral tokens, predictions, every play by trick with its seat, the
paradox claim, tricks won and scores; then game totals and winners.

``write_record`` writes one, ``read_record`` reads it back exactly (write -> read -> write
gives the same text). Reading checks syntax only and raises :class:`RecordSyntaxError`
naming the line; whether the game was played legally is the referee's question
(:mod:`catbox_solver.games.referee`). The grammar is in docs/records.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace

from catbox_solver.errors import CatboxError, RecordError
from catbox_solver.model.numbers import (
    is_stored_whole,
    is_whole,
    shown,
    too_many_digits,
    whole_number,
)
from catbox_solver.model.position import PLAYS, Play, cells_of
from catbox_solver.model.results import GameResult, RoundResult
from catbox_solver.model.rules import Ruleset

_CARDS = re.compile(r"[1-9]+", re.ASCII)  # a row of card values like 1123

FORMAT_LINE = "catbox-record 1"

SETUP_FIELDS = ("start", "deal", "discards", "leftover", "neutral", "predictions")
END_FIELDS = ("paradox", "won", "scores")


class RecordSyntaxError(RecordError):
    """A record line that cannot be read; ``line`` is its 1-based number."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


@dataclass(frozen=True)
class RoundRecord:
    """One round as written: ``tricks`` holds the plays of each trick line as (seat, Play);
    ``lines`` maps each field ('round', 'start', 'deal', ..., 'trick 3', ...) to its line
    number (0 when the record was built in memory)."""

    number: int
    start: int
    deal: tuple[tuple[int, ...], ...]
    discards: tuple[int, ...]
    leftover: tuple[int, ...] = ()
    neutral: tuple[Play, ...] | None = None
    predictions: tuple[int, ...] | None = None
    tricks: tuple[tuple[tuple[int, Play], ...], ...] = ()
    paradox: int | None = None
    won: tuple[int, ...] | None = None
    scores: tuple[int, ...] | None = None
    lines: Mapping[str, int] = field(default_factory=dict, compare=False)
    comments: Mapping[str, tuple[str, ...]] = field(default_factory=dict, compare=False)
    """Comment lines kept with the round: each field ('round', 'deal', 'trick 3', ...)
    maps to the texts (after '#') of the comments that follow its line."""

    @property
    def plays(self) -> tuple[tuple[int, Play], ...]:
        """Every play of the round in order, as (seat, Play)."""
        return tuple(p for trick in self.tricks for p in trick)

    def __post_init__(self) -> None:
        _shape_round(self)

    def line(self, name: str) -> int | None:
        """The line number of a field, or None if unknown."""
        return self.lines.get(name) or None


@dataclass(frozen=True)
class GameRecord:
    """A whole record: header (players, ruleset, optional seed and names), rounds, and the
    optional game totals and winners."""

    rules: Ruleset
    rounds: tuple[RoundRecord, ...]
    seed: int | None = None
    names: tuple[str, ...] | None = None
    totals: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None
    lines: Mapping[str, int] = field(default_factory=dict, compare=False)
    comments: Mapping[str, tuple[str, ...]] = field(default_factory=dict, compare=False)
    """Comment lines kept outside the rounds: '' those before the first line,
    'catbox-record', 'players', 'ruleset', 'seed', 'names', 'totals' and 'winners' those
    that follow that line."""

    def __post_init__(self) -> None:
        _shape_game(self)

    def line(self, name: str) -> int | None:
        return self.lines.get(name) or None


def _ints_of(value: object, what: str) -> tuple[int, ...]:
    """``value`` as a tuple of whole numbers (a list is taken too), else a RecordError:
    a record built by hand with a list or a float was compared wrongly or crashed in the
    referee."""
    if not isinstance(value, (tuple, list)) or not all(is_whole(v) for v in value):
        raise RecordError(f"{what} is a sequence of whole numbers, not {value!r}")
    return tuple(value)


def _play_of(value: object, what: str) -> Play:
    """``value`` as a Play of the deck (values 1-9, colors 0-3), else a RecordError."""
    if not (isinstance(value, Play) and is_whole(value.value) and is_whole(value.color)
            and 1 <= value.value <= 9 and 0 <= value.color <= 3):
        raise RecordError(f"{what} is a Play like Play(7, 0), not {value!r}")
    return value


def _optional(value: object, what: str) -> tuple[int, ...] | None:
    return None if value is None else _ints_of(value, what)


def _comments_of(value: object, what: str) -> dict[str, tuple[str, ...]]:
    """Comments as a dict of field name to texts, each one line (a line break in a
    comment would write a line the reader takes for a field)."""
    if not isinstance(value, Mapping):
        raise RecordError(f"{what} map a field to its comment texts, not {value!r}")
    out: dict[str, tuple[str, ...]] = {}
    for key, texts in value.items():
        if not isinstance(key, str) or not isinstance(texts, (tuple, list)) or not all(
            isinstance(t, str) and t.splitlines() in ([], [t]) for t in texts
        ):
            raise RecordError(f"{what} map a field name to one-line texts, not {key!r}: "
                              f"{texts!r}")
        out[key] = tuple(texts)
    return out


def _shape_round(r: RoundRecord) -> None:
    """Check the field types of a round built in memory, and store sequences as tuples."""
    def put(name: str, value: object) -> None:
        object.__setattr__(r, name, value)

    for name in ("number", "start"):
        if not is_whole(getattr(r, name)):
            raise RecordError(f"round field {name} is a whole number, not {getattr(r, name)!r}")
    if r.paradox is not None and not is_whole(r.paradox):
        raise RecordError(f"round {r.number}: paradox is a seat number or None, not {r.paradox!r}")
    where = f"round {r.number}:"
    if not isinstance(r.deal, (tuple, list)):
        raise RecordError(f"{where} deal is a sequence of hands, not {r.deal!r}")
    put("deal", tuple(_ints_of(h, f"{where} each hand of the deal") for h in r.deal))
    put("discards", _ints_of(r.discards, f"{where} discards"))
    put("leftover", _ints_of(r.leftover, f"{where} leftover"))
    for name in ("predictions", "won", "scores"):
        put(name, _optional(getattr(r, name), f"{where} {name}"))
    if r.neutral is not None:
        if not isinstance(r.neutral, (tuple, list)):
            raise RecordError(f"{where} neutral is a sequence of Plays, not {r.neutral!r}")
        put("neutral", tuple(_play_of(p, f"{where} each neutral token") for p in r.neutral))
    if not isinstance(r.tricks, (tuple, list)):
        raise RecordError(f"{where} tricks is a sequence of tricks, not {r.tricks!r}")
    tricks = []
    for i, trick in enumerate(r.tricks, 1):
        if not isinstance(trick, (tuple, list)):
            raise RecordError(f"{where} trick {i} is a sequence of (seat, Play), not {trick!r}")
        plays = []
        for entry in trick:
            if not (isinstance(entry, (tuple, list)) and len(entry) == 2
                    and is_whole(entry[0])):
                raise RecordError(f"{where} trick {i} holds (seat, Play) pairs, not {entry!r}")
            plays.append((entry[0], _play_of(entry[1], f"{where} each play of trick {i}")))
        tricks.append(tuple(plays))
    put("tricks", tuple(tricks))
    if not isinstance(r.lines, Mapping):
        raise RecordError(f"{where} lines is a mapping of field to line number, not {r.lines!r}")
    put("comments", _comments_of(r.comments, f"{where} comments"))


def _shape_game(g: GameRecord) -> None:
    """Check the field types of a record built in memory, and store sequences as tuples."""
    if not isinstance(g.rules, Ruleset):
        raise RecordError(f"a game record needs a Ruleset, not {g.rules!r}")
    if not isinstance(g.rounds, (tuple, list)) or not g.rounds or not all(
        isinstance(r, RoundRecord) for r in g.rounds
    ):
        raise RecordError(f"a game record's rounds are one or more RoundRecords, not {g.rounds!r}")
    object.__setattr__(g, "rounds", tuple(g.rounds))
    for i, r in enumerate(g.rounds, 1):
        if r.number != i:  # (as the reader asks: a record numbered otherwise read back wrong)
            raise RecordError(f"a game record's rounds are numbered 1, 2, ...: round {r.number} "
                              f"where round {i} was expected")
    if g.seed is not None and not is_stored_whole(g.seed):
        # (a seed of 19 digits or more was written, and the reader then refused it)
        raise RecordError(f"a game record's seed is a whole number of at most 18 digits or "
                          f"None, not {shown(g.seed)}")
    if g.names is not None:
        if not isinstance(g.names, (tuple, list)) or not all(isinstance(x, str) for x in g.names):
            raise RecordError(f"a game record's names are text, not {g.names!r}")
        object.__setattr__(g, "names", tuple(g.names))
    for name in ("totals", "winners"):
        object.__setattr__(g, name, _optional(getattr(g, name), f"the game's {name}"))
    if not isinstance(g.lines, Mapping):
        raise RecordError(f"a game record's lines map fields to line numbers, not {g.lines!r}")
    object.__setattr__(g, "comments", _comments_of(g.comments, "a game record's comments"))


# ---- from a played game -------------------------------------------------------------------
def round_record(result: RoundResult) -> RoundRecord:
    """The record of a played round."""
    if not isinstance(result, RoundResult):
        raise RecordError(f"a played round (RoundResult) is needed, not {type(result).__name__}")
    n = result.rules.players
    plays = result.plays
    tricks = tuple(plays[i : i + n] for i in range(0, len(plays), n))
    neutral = tuple(PLAYS[v][c] for c, v in cells_of(result.final.neutral))
    two = n == 2
    return RoundRecord(
        number=result.number,
        start=result.start,
        deal=result.deal.hands,
        discards=result.discards,
        leftover=result.deal.leftover if two else (),
        neutral=tuple(sorted(neutral)) if two else None,
        predictions=result.predictions,
        tricks=tricks,
        paradox=result.paradox_by,
        won=result.tricks_won,
        scores=result.scores,
    )


def game_record(game: GameResult, names: tuple[str, ...] | None = None) -> GameRecord:
    """The record of a played game (totals and winners included)."""
    if not isinstance(game, GameResult):
        raise RecordError(f"a played game (GameResult) is needed, not {type(game).__name__}")
    return GameRecord(
        rules=game.rules,
        rounds=tuple(round_record(r) for r in game.rounds),
        seed=game.seed,
        names=names,
        totals=game.totals,
        winners=game.winners,
    )


# ---- writing ------------------------------------------------------------------------------
def _ints(values: tuple[int, ...]) -> str:
    return " ".join(str(v) for v in values)


def _write_round(r: RoundRecord, two_players: bool) -> Iterator[str]:
    def with_notes(key: str, line: str) -> Iterator[str]:
        yield line
        yield from ("#" + text for text in r.comments.get(key, ()))

    yield from with_notes("round", f"round {r.number}")
    yield from with_notes("start", f"start {r.start}")
    yield from with_notes("deal", "deal " + " ".join("".join(str(v) for v in hand)
                                                    for hand in r.deal))
    yield from with_notes("discards", f"discards {_ints(r.discards)}")
    if r.leftover or two_players:
        yield from with_notes("leftover", "leftover " + "".join(str(v) for v in r.leftover))
    if r.neutral is not None:
        yield from with_notes("neutral", "neutral " + " ".join(p.text for p in r.neutral))
    if r.predictions is not None:
        yield from with_notes("predictions", f"predictions {_ints(r.predictions)}")
    for i, trick in enumerate(r.tricks, 1):
        yield from with_notes(f"trick {i}", f"trick {i} " + " ".join(
            f"{seat}:{play.text}" for seat, play in trick))
    if r.paradox is not None:
        yield from with_notes("paradox", f"paradox {r.paradox}")
    if r.won is not None:
        yield from with_notes("won", f"won {_ints(r.won)}")
    if r.scores is not None:
        yield from with_notes("scores", f"scores {_ints(r.scores)}")


def write_record(record: GameRecord | GameResult) -> str:
    """The text of a record (a GameResult is turned into its record first)."""
    if isinstance(record, GameResult):
        record = game_record(record)
    if not isinstance(record, GameRecord):
        raise RecordError(f"a GameRecord or GameResult is needed, not {type(record).__name__}")
    notes = record.comments

    def note(key: str) -> None:
        out.extend("#" + text for text in notes.get(key, ()))

    out = ["#" + text for text in notes.get("", ())]
    players, ruleset = f"players {record.rules.players}", f"ruleset {record.rules.name}"
    for key, line in (("catbox-record", FORMAT_LINE), ("players", players),
                      ("ruleset", ruleset)):
        out.append(line)
        note(key)
    if record.seed is not None:
        out.append(f"seed {record.seed}")
        note("seed")
    if record.names is not None:
        # names that read back: one per seat, each one word without '#' (a comment);
        # "Ann Lee" was written and then read as two names
        names = record.names
        if len(names) != record.rules.players:
            raise RecordError(f"names: {len(names)} names for {record.rules.players} players")
        for name in names:
            if not isinstance(name, str) or not name or "#" in name or any(
                ch.isspace() for ch in name
            ):
                raise RecordError(f"names: {shown(name)} is not one word without '#'")
        out.append("names " + " ".join(names))
        note("names")
    for r in record.rounds:
        out.append("")
        out.extend(_write_round(r, record.rules.players == 2))
    if record.totals is not None or record.winners is not None:
        out.append("")
    if record.totals is not None:
        out.append(f"totals {_ints(record.totals)}")
        note("totals")
    if record.winners is not None:
        out.append(f"winners {_ints(record.winners)}")
        note("winners")
    return "\n".join(out) + "\n"


# ---- reading ------------------------------------------------------------------------------
class _RoundBuilder:
    """Collects the fields of one round while reading."""

    def __init__(self, number: int, line: int) -> None:
        self.number = number
        self.lines: dict[str, int] = {"round": line}
        self.start: int | None = None
        self.deal: tuple[tuple[int, ...], ...] | None = None
        self.discards: tuple[int, ...] | None = None
        self.leftover: tuple[int, ...] | None = None
        self.neutral: tuple[Play, ...] | None = None
        self.predictions: tuple[int, ...] | None = None
        self.tricks: list[tuple[tuple[int, Play], ...]] = []
        self.paradox: int | None = None
        self.won: tuple[int, ...] | None = None
        self.scores: tuple[int, ...] | None = None

    @property
    def ended(self) -> bool:
        """A paradox, won or scores line was read: no more tricks."""
        return any(k in self.lines for k in END_FIELDS)


def _int(text: str, what: str, line: int, low: int | None = None) -> int:
    value = whole_number(text, signed=True)
    if value is None:
        too = too_many_digits(text, signed=True)
        if too is not None:  # (19 digits read "is not a whole number")
            raise RecordSyntaxError(f"{what}: {shown(text)} {too}", line)
        # (a 5000-digit seed was echoed whole)
        size = f" ({len(text)} characters)" if len(text) > 40 else ""
        raise RecordSyntaxError(f"{what}: {shown(text)}{size} is not a whole number", line)
    if low is not None and value < low:
        raise RecordSyntaxError(f"{what}: {value} is below {low}", line)
    return value


def _seat(text: str, players: int, what: str, line: int) -> int:
    seat = _int(text, what, line, 0)
    if seat >= players:
        raise RecordSyntaxError(f"{what}: seat {seat} outside 0..{players - 1}", line)
    return seat


def _seat_list(
    args: list[str], players: int, what: str, line: int, low: int | None = None
) -> tuple[int, ...]:
    """One whole number per seat (``low``: the least allowed; counts are at least 0)."""
    if len(args) != players:
        raise RecordSyntaxError(f"{what}: {len(args)} entries for {players} players", line)
    return tuple(_int(a, what, line, low) for a in args)


def _cards(text: str, what: str, line: int) -> tuple[int, ...]:
    if not _CARDS.fullmatch(text):
        raise RecordSyntaxError(f"{what}: {shown(text)} is not a row of card values 1-9", line)
    return tuple(int(ch) for ch in text)


def _play(text: str, what: str, line: int) -> Play:
    try:
        return Play.parse(text)
    except CatboxError as exc:
        raise RecordSyntaxError(f"{what}: {exc}", line) from None


def _read_setup(b: _RoundBuilder, key: str, args: list[str], rules: Ruleset, line: int) -> None:
    """Read one of the setup lines of a round (start, deal, discards, leftover, neutral,
    predictions) into ``b``."""
    n = rules.players
    if key == "start":
        if len(args) != 1:
            raise RecordSyntaxError("'start' takes one seat", line)
        b.start = _seat(args[0], n, "start", line)
    elif key == "deal":
        if len(args) != n:
            raise RecordSyntaxError(f"deal: {len(args)} hands for {n} players", line)
        hands = tuple(_cards(a, "deal", line) for a in args)
        if any(list(h) != sorted(h) for h in hands):
            raise RecordSyntaxError("deal: write each hand in ascending order", line)
        b.deal = hands
    elif key == "discards":
        discards = _seat_list(args, n, "discards", line)
        if any(not 1 <= d <= 9 for d in discards):
            raise RecordSyntaxError("discards: card values are 1-9", line)
        b.discards = discards
    elif key == "leftover":
        if n != 2:
            raise RecordSyntaxError(f"'leftover' is for 2 players, not {n}", line)
        if len(args) != 1:
            raise RecordSyntaxError("'leftover' takes one row of card values", line)
        b.leftover = _cards(args[0], "leftover", line)
    elif key == "neutral":
        if n != 2:
            raise RecordSyntaxError(f"'neutral' is for 2 players, not {n}", line)
        b.neutral = tuple(_play(a, "neutral", line) for a in args)
    else:
        if not rules.has_predictions:
            raise RecordSyntaxError(
                f"{n} players make no predictions with ruleset {rules.name}", line
            )
        # (a count: "-1" was a rules verdict, not the syntax error the grammar makes it)
        b.predictions = _seat_list(args, n, "predictions", line, 0)


def read_record(text: str) -> GameRecord:
    """Read a record written by :func:`write_record` (or typed by hand following
    docs/records.md). Raises RecordSyntaxError (a RecordError) naming the line."""
    if not isinstance(text, str):
        raise RecordError(f"a record is text, not {type(text).__name__}")
    header: dict[str, str] = {}
    header_lines: dict[str, int] = {}
    names: tuple[str, ...] | None = None
    rules: Ruleset | None = None
    rounds: list[RoundRecord] = []
    current: _RoundBuilder | None = None
    totals: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None
    game_lines: dict[str, int] = {}
    seen_content = False

    def ruleset(line: int) -> Ruleset:
        nonlocal rules
        if rules is None:
            if "players" not in header:
                raise RecordSyntaxError("the header needs a 'players' line before the rounds", line)
            players = _int(header["players"], "players", header_lines["players"])
            try:
                rules = Ruleset.from_name(header.get("ruleset", "official"), players)
            except CatboxError as exc:
                where = header_lines.get("ruleset", header_lines["players"])
                raise RecordSyntaxError(str(exc), where) from None
        return rules

    def finish(b: _RoundBuilder, line: int) -> None:
        rules_ = ruleset(line)
        where = b.lines["round"]
        if b.start is None or b.deal is None or b.discards is None:
            missing = [k for k in ("start", "deal", "discards") if k not in b.lines]
            raise RecordSyntaxError(f"round {b.number} has no '{missing[0]}' line", where)
        if rules_.players == 2 and b.leftover is None:
            raise RecordSyntaxError(f"round {b.number}: 2 players need a 'leftover' line", where)
        if rules_.has_predictions and b.predictions is None:
            raise RecordSyntaxError(f"round {b.number} has no 'predictions' line", where)
        rounds.append(
            RoundRecord(
                number=b.number,
                start=b.start,
                deal=b.deal,
                discards=b.discards,
                leftover=b.leftover or (),
                neutral=b.neutral,
                predictions=b.predictions,
                tricks=tuple(b.tricks),
                paradox=b.paradox,
                won=b.won,
                scores=b.scores,
                lines=dict(b.lines),
            )
        )

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, *args = line.split()
        if key == "catbox-record":
            if seen_content or args != ["1"]:
                raise RecordSyntaxError(
                    "'catbox-record 1' may only be the first line (format version 1)", number
                )
            seen_content = True
            continue
        seen_content = True
        if key in ("players", "ruleset", "seed", "names"):
            if current is not None or rounds:
                raise RecordSyntaxError(f"header line '{key}' after the first round", number)
            if key in header_lines:
                raise RecordSyntaxError(f"a second '{key}' line", number)
            if not args or (key != "names" and len(args) != 1):
                takes = "names" if key == "names" else "one value"
                raise RecordSyntaxError(f"'{key}' takes {takes}", number)
            header_lines[key] = number
            if key == "names":
                names = tuple(args)
            else:
                header[key] = args[0]
                if key == "players":
                    players = _int(args[0], "players", number)
                    if not 2 <= players <= 5:
                        raise RecordSyntaxError(f"players: {players} is not 2 to 5", number)
                elif key == "seed":
                    _int(args[0], "seed", number)
            continue
        if key == "round":
            rules_ = ruleset(number)
            if names is not None and len(names) != rules_.players:
                raise RecordSyntaxError(
                    f"names: {len(names)} names for {rules_.players} players", header_lines["names"]
                )
            if totals is not None or winners is not None:
                raise RecordSyntaxError("a round after the game totals", number)
            if current is not None:
                finish(current, number)
            if len(args) != 1:
                raise RecordSyntaxError("'round' takes the round number", number)
            want = len(rounds) + 1
            got = _int(args[0], "round", number, 1)
            if got != want:
                raise RecordSyntaxError(f"round {got} where round {want} was expected", number)
            current = _RoundBuilder(got, number)
            continue
        if key in ("totals", "winners"):
            rules_ = ruleset(number)
            if current is not None:
                finish(current, number)
                current = None
            if key in game_lines:
                raise RecordSyntaxError(f"a second '{key}' line", number)
            if key == "totals" and "winners" in game_lines:
                raise RecordSyntaxError("'totals' must come before winners", number)
            game_lines[key] = number
            if key == "totals":
                totals = _seat_list(args, rules_.players, "totals", number)
            else:
                if not args:
                    raise RecordSyntaxError("'winners' needs at least one seat", number)
                winners = tuple(_seat(a, rules_.players, "winners", number) for a in args)
            continue
        if current is None:
            if key in SETUP_FIELDS or key in END_FIELDS or key == "trick":
                raise RecordSyntaxError(f"'{key}' outside a round (a 'round N' line first)", number)
            raise RecordSyntaxError(f"unknown line {shown(key)}", number)
        rules_ = ruleset(number)
        n = rules_.players
        b = current
        if key in SETUP_FIELDS:
            if b.tricks or b.ended:
                raise RecordSyntaxError(f"'{key}' after the first trick of the round", number)
            if key in b.lines:
                raise RecordSyntaxError(f"a second '{key}' line in round {b.number}", number)
            b.lines[key] = number
            _read_setup(b, key, args, rules_, number)
            continue
        if key == "trick":
            if b.ended:
                raise RecordSyntaxError("a trick after the paradox, won or scores line", number)
            if not args:
                raise RecordSyntaxError("'trick' takes its number and plays", number)
            want = len(b.tricks) + 1
            got = _int(args[0], "trick", number, 1)
            if got != want:
                raise RecordSyntaxError(f"trick {got} where trick {want} was expected", number)
            if b.tricks and len(b.tricks[-1]) != n:
                raise RecordSyntaxError(
                    f"trick {want - 1} has {len(b.tricks[-1])} plays; only the last trick of a "
                    "round may stop early",
                    b.lines[f"trick {want - 1}"],
                )
            plays = []
            for item in args[1:]:
                seat_text, sep, play_text = item.partition(":")
                if not sep:
                    raise RecordSyntaxError(
                        f"trick {got}: {shown(item)} is not seat:play like '2:7r'", number
                    )
                what = f"trick {got}"
                plays.append((_seat(seat_text, n, what, number), _play(play_text, what, number)))
            if not 1 <= len(plays) <= n:
                raise RecordSyntaxError(
                    f"trick {got}: {len(plays)} plays for {n} players", number
                )
            b.tricks.append(tuple(plays))
            b.lines[f"trick {got}"] = number
            continue
        if key in END_FIELDS:
            if key in b.lines:
                raise RecordSyntaxError(f"a second '{key}' line in round {b.number}", number)
            order = END_FIELDS.index(key)
            if any(k in b.lines for k in END_FIELDS[order + 1 :]):
                later = ", ".join(END_FIELDS[order + 1 :])
                raise RecordSyntaxError(f"'{key}' must come before {later}", number)
            b.lines[key] = number
            if key == "paradox":
                if len(args) != 1:
                    raise RecordSyntaxError("'paradox' takes the seat that claims it", number)
                b.paradox = _seat(args[0], n, "paradox", number)
            elif key == "won":
                b.won = _seat_list(args, n, key, number, 0)
            else:
                b.scores = _seat_list(args, n, key, number)
            continue
        raise RecordSyntaxError(f"unknown line {shown(key)}", number)
    if current is not None:
        finish(current, len(text.splitlines()))
    if not rounds:
        raise RecordError("the record has no round")
    rules_final = ruleset(1)
    seed = int(header["seed"]) if "seed" in header else None
    lines = {**header_lines, **game_lines}
    game_notes, round_notes = _read_comments(text)
    return GameRecord(
        rules=rules_final,
        rounds=tuple(replace(r, comments=notes) if notes else r
                     for r, notes in zip(rounds, round_notes, strict=True)),
        comments=game_notes,
        seed=seed,
        names=names,
        totals=totals,
        winners=winners,
        lines=lines,
    )


_GAME_KEYS = ("catbox-record", "players", "ruleset", "seed", "names", "totals", "winners")


Notes = dict[str, tuple[str, ...]]


def _read_comments(text: str) -> tuple[Notes, list[Notes]]:
    """The comments of a record that reads (a second pass, after read_record's checks):
    each comment, a whole line or the end of a line after '#', belongs to the field line it
    follows or stands on ('' for those before the first line). Returns the game's and
    each round's, as GameRecord.comments and RoundRecord.comments hold them."""
    game: dict[str, list[str]] = {}
    rounds: list[dict[str, list[str]]] = []
    scope, key = game, ""
    for raw in text.splitlines():
        body, hashed, note = raw.partition("#")
        words = body.split()
        if words:
            first = words[0]
            if first == "round":
                rounds.append({})
                scope, key = rounds[-1], "round"
            elif first in _GAME_KEYS:
                scope, key = game, first
            else:
                scope = rounds[-1]
                key = f"trick {int(words[1])}" if first == "trick" else first
        if hashed:
            scope.setdefault(key, []).append(note)

    def frozen(notes: dict[str, list[str]]) -> Notes:
        return {k: tuple(v) for k, v in notes.items()}

    return frozen(game), [frozen(r) for r in rounds]
