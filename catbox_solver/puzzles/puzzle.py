"""Puzzles: a position, a question about it and the stored answer, read from TOML files.

A puzzle file is data only (TOML, read with the standard library's ``tomllib``; loading
never executes code). The schema is in ``docs/puzzles.md``. The question kinds:

- ``safe``: which plays of the player to move keep the hero (the player to move) safe from
  causing a paradox, whatever the others do? Answer: the set of such plays.
- ``best-tricks`` / ``best-score``: which plays give the hero the most guaranteed trick
  points / round score? Answer: the set of best plays, and ``value`` the guaranteed value.
- ``force-paradox``: which plays leave the *next* player to move with no legal play, so
  that they cause a paradox at once? Answer: the set of such plays.
- ``exists``: is there any continuation (everyone cooperating) meeting the listed
  ``conditions``? Answer: yes or no.
"""

from __future__ import annotations

import hashlib
import random
import re
import time
import tomllib
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from catbox_solver.dd.answer import OutOfTime
from catbox_solver.dd.forced import paradox_within, quickest_paradox
from catbox_solver.dd.lines import paradox_free_line, positions_along
from catbox_solver.dd.search import Search
from catbox_solver.dd.solve import value_only
from catbox_solver.dd.warmup import search_clock
from catbox_solver.errors import CatboxError, SearchError
from catbox_solver.formats.files import read_limited
from catbox_solver.formats.notation import position_from_notation, position_to_notation
from catbox_solver.games.game import count_play_events
from catbox_solver.model.deal import first_lead
from catbox_solver.model.numbers import check_int, check_seconds, counted, is_whole, listed
from catbox_solver.model.position import RULE_TEXT, Play, Position, need_position
from catbox_solver.model.rules import COLOR_CHARS, RED, Ruleset

KINDS = ("safe", "best-tricks", "best-score", "force-paradox", "exists")
PLAY_KINDS = ("safe", "best-tricks", "best-score", "force-paradox")
THEMES = ("avoid-paradox", "force-paradox", "red-lead", "red-lead-exception", "exact-bid",
          "empty-square")

_FIELDS = {
    "id", "title", "players", "ruleset", "position", "question", "hero", "answer", "value",
    "conditions", "hint", "explanation", "difficulty", "tags",
}
_REQUIRED = ("id", "title", "players", "position", "question", "answer")
_ID = re.compile(r"[a-z0-9][a-z0-9-]*")
COLOR_NAMES = ("red", "blue", "yellow", "green")


class PuzzleError(CatboxError, ValueError):
    """A puzzle file that cannot be read: the message names the file and the field."""


class PuzzleTimeout(SearchError):
    """A puzzle whose searches ran out of their time (``solve_puzzle``'s ``timeout``): its
    stored answer is not checked, which is neither right nor wrong. The message names the
    puzzle; ``reason`` is the message without it."""

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = message if reason is None else reason


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: a position, a question of kind ``question`` for seat ``hero``, and the
    stored answer (a tuple of plays for the play questions, a bool for ``exists``)."""

    id: str
    title: str
    players: int
    ruleset: str
    position: Position
    question: str
    hero: int | None
    answer: object
    hint: str = ""
    explanation: str = ""
    difficulty: int = 1
    tags: tuple[str, ...] = ()
    path: Path | None = None
    value: int | None = None
    conditions: tuple[str, ...] = ()

    @property
    def seat(self) -> int:
        """The seat the question is about (the hero, else the player to move)."""
        return self.position.to_move if self.hero is None else self.hero

    @property
    def plays(self) -> tuple[Play, ...]:
        """The stored correct plays (empty for an ``exists`` question)."""
        if isinstance(self.answer, tuple):
            return tuple(p for p in self.answer if isinstance(p, Play))
        return ()

    def question_text(self) -> str:
        """The question as a sentence for a reader."""
        mover = self.position.to_move
        seat = self.seat
        lead = f"Seat {mover} to play"
        if self.question == "safe":
            return (
                f"{lead}: which plays keep seat {seat} safe from causing a paradox, "
                "whatever the others do?"
            )
        if self.question == "best-tricks":
            return (
                f"{lead}: which play gives seat {seat} the most trick points at the end "
                "of the round, against the best defence?"
            )
        if self.question == "best-score":
            return (
                f"{lead}: which play gives seat {seat} the best round score (trick points "
                "plus bonus), against the best defence?"
            )
        if self.question == "force-paradox":
            return (
                f"{lead}: which play leaves the next player to move without any legal "
                "play, so that they cause a paradox?"
            )
        conds = ", ".join(condition_text(c) for c in self.conditions) or "no condition"
        return f"Is there any way to finish the round (everyone cooperating) with {conds}?"

    def answer_text(self) -> str:
        """The stored answer as a sentence."""
        if self.question == "exists":
            return "Yes." if self.answer is True else "No."
        plays = self.plays
        names = listed([p.text for p in plays], "or")
        if self.question == "safe":
            if not plays:
                return "No play keeps you safe."
            if len(plays) == 1:
                return f"Only {names} keeps you safe."
            return f"{names} keep you safe."
        if self.question == "force-paradox":
            if not plays:
                return "No play forces a paradox."
            return f"{names} {'forces' if len(plays) == 1 else 'force'} a paradox."
        what = "trick points" if self.question == "best-tricks" else "points"
        best = "is the best play" if len(plays) == 1 else "are the best plays"
        return f"{names} {best}: {self.value} {what} guaranteed."


# ---- conditions of exists questions -------------------------------------------------------

_COND_HELP = (
    "'no-paradox', 'paradox', 'paradox-by SEAT', 'tricks SEAT COUNT', "
    "'tricks-at-least SEAT COUNT', 'tricks-at-most SEAT COUNT', 'empty CELL' (like 'empty g4')"
)


def parse_condition(text: str, players: int = 5, values: int = 9) -> Any:
    """Read a condition of an ``exists`` puzzle (see docs/puzzles.md) into a
    :class:`catbox_solver.cpsat.exists.Condition`."""
    from catbox_solver.cpsat import exists as ex

    if not isinstance(text, str):
        raise PuzzleError(f"a condition is text like 'no-paradox', not {text!r}")
    parts = text.split()
    if not parts:
        raise PuzzleError(f"empty condition; one of {_COND_HELP}")
    word, args = parts[0].lower(), parts[1:]

    def ints(k: int) -> list[int]:
        if len(args) != k or not all(a.isdigit() and a.isascii() for a in args):
            raise PuzzleError(f"condition {text!r} needs {k} number(s)")
        return [int(a) for a in args]

    def seat(s: int) -> int:
        if not 0 <= s < players:
            raise PuzzleError(f"condition {text!r}: seat {s} outside 0-{players - 1}")
        return s

    if word == "no-paradox" and not args:
        return ex.no_paradox()
    if word == "paradox" and not args:
        return ex.paradox()
    if word == "paradox-by":
        return ex.paradox_by(seat(ints(1)[0]))
    if word in ("tricks", "tricks-at-least", "tricks-at-most"):
        s, k = ints(2)
        fn = {"tricks": ex.tricks, "tricks-at-least": ex.tricks_at_least,
              "tricks-at-most": ex.tricks_at_most}[word]
        return fn(seat(s), k)
    if word == "empty" and len(args) == 1:
        try:
            v, c = ex.parse_cell(args[0], values)
        except SearchError as exc:
            raise PuzzleError(str(exc)) from None
        return ex.empty((v, c))
    raise PuzzleError(f"unknown condition {text!r}; one of {_COND_HELP}")


def condition_text(text: str) -> str:
    """A condition in words."""
    if not isinstance(text, str):
        raise PuzzleError(f"a condition is text like 'no-paradox', not {text!r}")
    parts = text.split()
    word = parts[0].lower() if parts else ""
    if word == "no-paradox":
        return "no paradox"
    if word == "paradox":
        return "a paradox"
    if word == "paradox-by" and len(parts) == 2:
        return f"seat {parts[1]} causing a paradox"
    if word.startswith("tricks") and len(parts) == 3:
        how = {"tricks": "exactly", "tricks-at-least": "at least",
               "tricks-at-most": "at most"}.get(word, "")
        return f"seat {parts[1]} winning {how} {parts[2]} tricks"
    if word == "empty" and len(parts) == 2 and len(parts[1]) == 2:
        c = parts[1][0].upper()
        if c in COLOR_CHARS:
            return f"the {COLOR_NAMES[COLOR_CHARS.index(c)]} {parts[1][1]} cell left empty"
    return text


# ---- loading ------------------------------------------------------------------------------


def _get(data: dict[str, Any], name: str, kind: type | tuple[type, ...], where: str) -> Any:
    val = data[name]
    if isinstance(val, bool) and kind is int:
        raise PuzzleError(f"{where}: field {name!r} must be a number")
    if not isinstance(val, kind):
        want = {str: "a string", int: "a number", list: "a list"}.get(
            kind if isinstance(kind, type) else str, "of another type"
        )
        raise PuzzleError(f"{where}: field {name!r} must be {want}")
    return val


def _plays_field(val: Any, pos: Position, where: str) -> tuple[Play, ...]:
    if not isinstance(val, list) or not all(isinstance(x, str) for x in val):
        raise PuzzleError(f"{where}: field 'answer' must be a list of plays like [\"5y\"]")
    out: set[Play] = set()
    for x in val:
        try:
            play = Play.parse(x, pos.rules.values)
        except CatboxError as exc:
            raise PuzzleError(f"{where}: field 'answer': {exc}") from None
        # (an illegal play was reported as a wrong answer, exit 1, not as a broken file)
        reason = pos.why_illegal(play)
        if reason is not None:
            raise PuzzleError(
                f"{where}: field 'answer': {x} is not a legal play of seat {pos.to_move} "
                f"({RULE_TEXT[reason]})"
            )
        if play in out:  # (a repeated play was taken silently, even a million times)
            raise PuzzleError(f"{where}: field 'answer': {play.text} is given twice")
        out.add(play)
    return tuple(sorted(out))


def puzzle_from_dict(
    data: dict[str, Any], where: str = "puzzle", path: Path | None = None
) -> Puzzle:
    """Build a :class:`Puzzle` from the parsed TOML table; errors name ``where`` and the
    field."""
    if not isinstance(data, dict):
        raise PuzzleError(f"{where}: a puzzle is a table of fields, not {type(data).__name__}")
    for key in data:
        if key not in _FIELDS:
            raise PuzzleError(f"{where}: unknown field {key!r}")
    for key in _REQUIRED:
        if key not in data:
            raise PuzzleError(f"{where}: field {key!r} is missing")
    pid = _get(data, "id", str, where)
    if not _ID.fullmatch(pid):
        raise PuzzleError(
            f"{where}: field 'id' {pid!r} must be lower-case letters, digits and '-'"
        )
    title = _get(data, "title", str, where)
    players = _get(data, "players", int, where)
    if not 2 <= players <= 5:
        raise PuzzleError(f"{where}: field 'players' must be 2-5, not {players}")
    text = _get(data, "position", str, where)
    try:
        pos = position_from_notation(text)
    except CatboxError as exc:
        raise PuzzleError(f"{where}: field 'position': {exc}") from None
    if pos.rules.players != players:
        raise PuzzleError(
            f"{where}: field 'players' says {players} but the position has "
            f"{pos.rules.players} players"
        )
    ruleset = pos.rules.name
    if "ruleset" in data:
        spec = _get(data, "ruleset", str, where)
        try:
            named = Ruleset.from_name(spec, players)
        except CatboxError as exc:
            raise PuzzleError(f"{where}: field 'ruleset': {exc}") from None
        if named != pos.rules:
            raise PuzzleError(
                f"{where}: field 'ruleset' is {spec!r} but the position uses {ruleset!r}"
            )
    kind = _get(data, "question", str, where)
    if kind not in KINDS:
        raise PuzzleError(
            f"{where}: field 'question' {kind!r} is not one of {', '.join(KINDS)}"
        )
    hero: int | None = None
    if "hero" in data:
        hero = _get(data, "hero", int, where)
        if not 0 <= hero < players:
            raise PuzzleError(f"{where}: field 'hero' {hero} outside 0-{players - 1}")
    if kind in PLAY_KINDS:
        if pos.is_over:
            raise PuzzleError(f"{where}: field 'position': the round is over, nobody plays")
        if hero is not None and hero != pos.to_move:
            raise PuzzleError(
                f"{where}: field 'hero': a {kind} question is asked of the player to move "
                f"(seat {pos.to_move})"
            )
    answer: object
    if kind == "exists":
        answer = data["answer"]
        if not isinstance(answer, bool):
            raise PuzzleError(f"{where}: field 'answer' must be true or false")
    else:
        answer = _plays_field(data["answer"], pos, where)
    value: int | None = None
    if kind in ("best-tricks", "best-score"):
        if "value" not in data:
            raise PuzzleError(f"{where}: field 'value' is missing (the guaranteed {kind[5:]})")
        value = _get(data, "value", int, where)
    elif "value" in data:
        raise PuzzleError(f"{where}: field 'value' only belongs to best-tricks/best-score")
    conditions: tuple[str, ...] = ()
    if "conditions" in data:
        if kind != "exists":
            raise PuzzleError(f"{where}: field 'conditions' only belongs to exists questions")
        raw = _get(data, "conditions", list, where)
        if not all(isinstance(c, str) for c in raw):
            raise PuzzleError(f"{where}: field 'conditions' must be a list of strings")
        for c in raw:
            try:
                parse_condition(c, players, pos.rules.values)
            except PuzzleError as exc:
                raise PuzzleError(f"{where}: field 'conditions': {exc}") from None
        conditions = tuple(raw)
    if kind == "best-score":
        seat = pos.to_move if hero is None else hero
        rules = pos.rules
        two_at_most_4 = rules.players == 2 and rules.two_player_bonus == "at-most-4"
        if not two_at_most_4 and (pos.predictions is None or pos.predictions[seat] is None):
            raise PuzzleError(
                f"{where}: field 'position': the prediction of seat {seat} is needed for "
                "a best-score question"
            )
    hint = _get(data, "hint", str, where) if "hint" in data else ""
    explanation = _get(data, "explanation", str, where) if "explanation" in data else ""
    difficulty = _get(data, "difficulty", int, where) if "difficulty" in data else 1
    if not 1 <= difficulty <= 5:
        raise PuzzleError(f"{where}: field 'difficulty' must be 1-5, not {difficulty}")
    tags: tuple[str, ...] = ()
    if "tags" in data:
        raw_tags = _get(data, "tags", list, where)
        if not all(isinstance(t, str) for t in raw_tags):
            raise PuzzleError(f"{where}: field 'tags' must be a list of strings")
        tags = tuple(raw_tags)
    return Puzzle(
        id=pid, title=title, players=players, ruleset=ruleset, position=pos, question=kind,
        hero=hero, answer=answer, hint=hint, explanation=explanation, difficulty=difficulty,
        tags=tags, path=path, value=value, conditions=conditions,
    )


def load_puzzle(path: str | Path) -> Puzzle:
    """Read one puzzle file (TOML; never executed)."""
    if not isinstance(path, (str, Path)):
        raise PuzzleError(f"a puzzle file is a path, not {path!r}")
    p = Path(path)
    try:
        raw = read_limited(p)
    except OSError as exc:
        raise PuzzleError(f"{p}: cannot read: {exc.strerror or exc}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8-sig"))  # (a leading BOM dropped)
    except UnicodeDecodeError:
        raise PuzzleError(f"{p}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise PuzzleError(f"{p}: not valid TOML: {exc}") from None
    except RecursionError:
        raise PuzzleError(f"{p}: not valid TOML: nested too deeply") from None
    return puzzle_from_dict(data, str(p), p)


def load_puzzles(path: str | Path) -> list[Puzzle]:
    """One puzzle file, or every ``*.toml`` of a directory sorted by name."""
    if not isinstance(path, (str, Path)):
        raise PuzzleError(f"a puzzle file or directory is a path, not {path!r}")
    p = Path(path)
    if p.is_dir():
        files = sorted(p.glob("*.toml"))
        if not files:
            raise PuzzleError(f"{p}: no puzzle files (*.toml) in this directory")
        puzzles = [load_puzzle(f) for f in files]
        seen: dict[str, Path | None] = {}
        for pz in puzzles:
            if pz.id in seen:
                raise PuzzleError(f"{pz.path}: field 'id' {pz.id!r} is also used by {seen[pz.id]}")
            seen[pz.id] = pz.path
        return puzzles
    if not p.exists():
        raise PuzzleError(f"{p}: no such file or directory")
    return [load_puzzle(p)]


# ---- solving ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayVerdict:
    """One legal play of the puzzle position: whether it is a correct answer, its value
    for the question (None for force-paradox), a line starting with the play (for a wrong
    play: a refutation that replays legally and shows the failure; for a correct play: a
    line of best play), whether it is *tempting* (see docs/puzzles.md) and a sentence."""

    play: Play
    correct: bool
    result: bool | int | None
    line: tuple[Play, ...]
    tempting: bool
    note: str
    trick_points: int | None = None


@dataclass(frozen=True)
class Solution:
    """The solver's answer to a puzzle and how it compares with the stored answer."""

    puzzle: Puzzle
    answer: object
    value: int | None
    verdicts: tuple[PlayVerdict, ...]
    witness: tuple[Play, ...] | None
    clash: tuple[str, ...]
    nodes: int
    seconds: float
    depth: int
    tempting: int
    difficulty: int
    ok: bool
    problems: tuple[str, ...]

    @property
    def correct_plays(self) -> tuple[Play, ...]:
        return tuple(v.play for v in self.verdicts if v.correct)

    def to_json(self) -> dict[str, Any]:
        """The fixed JSON shape of ``catbox puzzle solve --json`` (docs/puzzles.md)."""
        pz = self.puzzle
        answer: object = (
            self.answer if isinstance(self.answer, bool)
            else [p.text for p in self.correct_plays]
        )
        return {
            "id": pz.id,
            "file": None if pz.path is None else str(pz.path),
            "question": pz.question,
            "hero": pz.seat,
            "ok": self.ok,
            "problems": list(self.problems),
            "answer": answer,
            "value": self.value,
            "plays": [
                {
                    "play": v.play.text,
                    "correct": v.correct,
                    "result": v.result,
                    "tempting": v.tempting,
                    "line": [p.text for p in v.line],
                    "note": v.note,
                }
                for v in self.verdicts
            ],
            "witness": None if self.witness is None else [p.text for p in self.witness],
            "clash": list(self.clash),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "depth": self.depth,
            "tempting": self.tempting,
            "difficulty": self.difficulty,
        }


class _Budget:
    """A shared deadline for one puzzle's searches (from a ready compiled core, see
    search_clock)."""

    def __init__(self, timeout: float | None) -> None:
        self.deadline = None if timeout is None else search_clock() + timeout
        self.nodes = 0


def _search(
    pos: Position, hero: int, question: str, budget: _Budget
) -> tuple[Any, tuple[Play, ...]]:
    """Exact value of ``question`` for ``hero`` on ``pos`` and a line of best play."""
    if not pos.legal_plays():
        if question == "paradox":
            return pos.paradox_by != hero, ()
        if question == "tricks":
            return pos.trick_points(hero), ()
        return pos.scores()[hero], ()
    search = Search(pos, hero, budget.deadline)
    try:
        value = search.exact(question)
        line = search.principal_variation(question, value)
    except OutOfTime:
        budget.nodes += search.nodes
        raise PuzzleTimeout("the search ran out of time (--timeout)") from None
    budget.nodes += search.nodes
    return value, line


def _quickest_refutation(pos: Position, hero: int, budget: _Budget) -> tuple[Play, ...]:
    """The line to the hero's quickest forced paradox from ``pos`` (which the search has
    shown the hero cannot avoid); its nodes are not counted in the difficulty's."""
    try:
        forced = quickest_paradox(pos, hero, budget.deadline)
    except OutOfTime:
        raise PuzzleTimeout("the search ran out of time (--timeout)") from None
    if forced is None:  # pragma: no cover - the search proved the paradox
        raise SearchError("bug: the paradox search and the forced-paradox search disagree")
    return forced.line


def replay_line(pos: Position, line: Sequence[Play]) -> Position:
    """Play ``line`` through the rules engine (checked), returning the final position."""
    need_position(pos)  # (True and an empty line came back as True)
    for play in line:
        pos = pos.play(play)
    return pos


def _seat_stuck(pos: Position, hero: int | None = None) -> str:
    """Why the player to move of a paradox position has no legal play, in words."""
    s = pos.to_move
    who = f"you (seat {s})" if s == hero else f"seat {s}"
    values = sorted(set(pos.hands[s]))
    cols = [c for c in range(4) if pos.colors[s] >> c & 1]
    held = listed(values)
    if not cols:
        return f"{who} hold{'' if s == hero else 's'} {held} but no color is left to declare"
    verb = "hold" if s == hero else "holds"
    if len(cols) == 4:
        which = "that value" if len(values) == 1 else "those values"
        return f"{who} {verb} {held}: every cell of {which} is taken"
    names = "/".join(COLOR_NAMES[c] for c in cols)
    return f"{who} {verb} {held} and may only declare {names}: every such cell is taken"


def _trick_no(pos: Position) -> int:
    return pos.tricks_played + 1


def _plays_text(line: Sequence[Play]) -> str:
    return " ".join(p.text for p in line)


def _near_miss(after: Position, play: Play, mover: int) -> bool:
    """Is a wrong force-paradox ``play`` of seat ``mover`` (``after``: the position it
    leads to) *tempting*: the next player to move is someone else, and the play takes a
    cell they could have used (same value in hand, color still declarable) or leaves them
    a single legal play?"""
    if after.tricks_left == 0 or after.to_move == mover:
        # (won the trick: the next to play is the mover itself, no victim; counting it as
        # tempting whenever the mover holds another card of that value would make nearly
        # every force-paradox play tempting)
        return False
    victim = after.to_move
    takes = play.value in after.hands[victim] and bool(after.colors[victim] >> play.color & 1)
    return takes or len(after.legal_plays()) == 1


def solve_puzzle(puzzle: Puzzle, timeout: float | None = None) -> Solution:
    """Solve ``puzzle`` exactly and compare with its stored answer (``ok``). A search that
    runs out of ``timeout`` seconds raises :class:`PuzzleTimeout` (a SearchError) naming
    the puzzle."""
    if not isinstance(puzzle, Puzzle):
        raise PuzzleError(f"a puzzle is needed, not {type(puzzle).__name__}")
    if timeout is not None:
        check_seconds(timeout)  # (a NaN deadline was never reached)
    if puzzle.question not in KINDS:
        raise PuzzleError(f"{puzzle.id}: unknown question {puzzle.question!r}")
    # a Puzzle built by hand (the loaders check these): None for the position raised
    # AttributeError, None for the conditions TypeError, and a wrong player count was
    # not noticed
    need_position(puzzle.position, PuzzleError)
    if puzzle.players != puzzle.position.rules.players:
        raise PuzzleError(f"{puzzle.id}: players {puzzle.players!r}, but the position is "
                          f"for {puzzle.position.rules.players}")
    if not isinstance(puzzle.conditions, (tuple, list)):
        raise PuzzleError(f"{puzzle.id}: conditions are a list of texts, not "
                          f"{puzzle.conditions!r}")
    try:
        return _solve(puzzle, timeout)
    except PuzzleTimeout as exc:
        where = puzzle.path if puzzle.path is not None else puzzle.id
        raise PuzzleTimeout(f"{where}: {exc}", exc.reason) from None
    except SearchError as exc:
        where = puzzle.path if puzzle.path is not None else puzzle.id
        raise type(exc)(f"{where}: {exc}") from None


def _solve(puzzle: Puzzle, timeout: float | None) -> Solution:
    t0 = time.perf_counter()
    budget = _Budget(timeout)
    pos = puzzle.position
    hero = puzzle.seat
    kind = puzzle.question
    n = pos.rules.players
    verdicts: list[PlayVerdict] = []
    witness: tuple[Play, ...] | None = None
    clash: tuple[str, ...] = ()
    value: int | None = None
    answer: object
    if kind == "exists":
        from catbox_solver.cpsat.exists import exists

        conds = [parse_condition(c, n, pos.rules.values) for c in puzzle.conditions]
        res = exists(pos, conds, time_limit=60.0 if timeout is None else timeout)
        if res.exists is None:  # (the solver stopped at its time limit)
            raise PuzzleTimeout(res.reason)
        answer = bool(res.exists)
        witness = res.line
        clash = tuple(res.clash)
    elif kind == "force-paradox":
        for play in pos.legal_plays():
            after = pos.after(play)
            if after.is_paradox and after.to_move != pos.to_move:
                verdicts.append(PlayVerdict(
                    play, True, None, (play,), False,
                    f"{_seat_stuck(after)}: paradox in trick {_trick_no(after)}",
                ))
            else:
                reply = after.legal_plays()
                line: tuple[Play, ...] = (play,)
                if after.is_paradox:
                    note = "you are the next to play, and you have no legal play"
                elif not reply:
                    note = "the round ends with this trick"
                elif after.to_move == pos.to_move:
                    # you win the trick and lead the next: no one else is stuck at once,
                    # and a line that went on could show the paradox the question asks for
                    note = ("you win the trick and must lead the next one: no one else is "
                            "left without a legal play at once")
                else:
                    line = (play, reply[0])
                    note = (f"seat {after.to_move} can still play "
                            f"{listed([p.text for p in reply], 'or')}")
                verdicts.append(PlayVerdict(
                    play, False, None, line, _near_miss(after, play, pos.to_move), note,
                ))
        answer = tuple(v.play for v in verdicts if v.correct)
    else:
        question = {"safe": "paradox", "best-tricks": "tricks", "best-score": "score"}[kind]
        results: list[tuple[Play, Any, tuple[Play, ...]]] = []
        for play in pos.legal_plays():
            v, pv = _search(pos.after(play), hero, question, budget)
            results.append((play, v, (play, *pv)))
        if kind == "safe":
            correct = [bool(v) for _, v, _ in results]
        else:
            best = max(int(v) for _, v, _ in results)
            value = best
            correct = [int(v) == best for _, v, _ in results]
        trick_vals: dict[Play, int] = {}
        if kind == "best-score":
            for play, _, _ in results:
                tv, _ = _search(pos.after(play), hero, "tricks", budget)
                trick_vals[play] = int(tv)
        wrong_vals = sorted({int(v) for (_, v, _), ok in zip(results, correct, strict=True)
                             if not ok}, reverse=True)
        second = wrong_vals[0] if wrong_vals else None
        best_tricks = max(trick_vals.values()) if trick_vals else 0
        good_tricks = [trick_vals[p] for (p, _, _), ok in zip(results, correct, strict=True)
                       if ok and p in trick_vals]
        for (play, v, line), ok in zip(results, correct, strict=True):
            if kind == "safe" and not ok:
                # the forced refutation, not the search's line: the others hurry the
                # hero's paradox, the hero puts it off (the line decides "tempting")
                line = (play, *_quickest_refutation(pos.after(play), hero, budget))
            final = replay_line(pos, line)
            if kind == "safe":
                if ok:
                    note = ("no paradox for you" if final.paradox_by is None
                            else f"seat {final.paradox_by} causes the paradox, not you")
                    tempting = False
                else:
                    if final.paradox_by != hero:  # pragma: no cover - the search proved it
                        raise SearchError(f"bug: refutation of {play.text} does not end in "
                                          "the hero's paradox")
                    note = f"{_seat_stuck(final, hero)} (trick {_trick_no(final)})"
                    tempting = len(line) > n
            else:
                what = "trick point" if kind == "best-tricks" else "point"
                note = f"{counted(int(v), what)} guaranteed"
                tempting = False
                if not ok:
                    tempting = int(v) == second
                    if kind == "best-score" and trick_vals[play] > min(good_tricks):
                        tempting = True
                if kind == "best-score":
                    # (the trick game's own value after the play, not the trick points of
                    # the score's line: "2 points guaranteed (1 trick point)" beside a line
                    # of 2 tricks and no bonus would read as 1 trick and a bonus of 1)
                    most = ", the most" if not ok and trick_vals[play] == best_tricks else ""
                    note += (f" (playing for tricks alone: "
                             f"{counted(trick_vals[play], 'trick point')} guaranteed{most})")
                if final.paradox_by == hero:
                    note += "; you cause a paradox on the way"
                elif final.paradox_by is not None:
                    note += f"; seat {final.paradox_by} causes a paradox on the way"
            verdicts.append(
                PlayVerdict(play, ok, v, line, tempting, note, trick_vals.get(play))
            )
        answer = tuple(v.play for v in verdicts if v.correct)
    wrong = [v for v in verdicts if not v.correct]
    depth = max((len(v.line) for v in wrong), default=0)
    n_tempting = sum(1 for v in wrong if v.tempting)
    problems = _compare(puzzle, answer, value)
    difficulty = rate_difficulty(budget.nodes, depth, n, n_tempting, len(verdicts))
    return Solution(
        puzzle, answer, value, tuple(verdicts), witness, clash, budget.nodes,
        time.perf_counter() - t0, depth, n_tempting, difficulty, not problems, tuple(problems),
    )


def _compare(puzzle: Puzzle, answer: object, value: int | None) -> list[str]:
    """Differences between the stored and the computed answer, in words."""
    problems: list[str] = []
    if puzzle.question == "exists":
        if puzzle.answer is not answer:
            problems.append(
                f"stored answer {'yes' if puzzle.answer else 'no'}, "
                f"solver says {'yes' if answer else 'no'}"
            )
        return problems
    assert isinstance(answer, tuple)
    stored = set(puzzle.plays)
    found = set(answer)
    if stored != found:
        def txt(s: set[Play]) -> str:
            return ", ".join(p.text for p in sorted(s)) or "none"

        problems.append(f"stored answer {txt(stored)}, solver says {txt(found)}")
    if puzzle.question in ("best-tricks", "best-score") and puzzle.value != value:
        problems.append(f"stored value {puzzle.value}, solver says {value}")
    return problems


# Difficulty from the solving effort (thresholds documented in docs/puzzles.md).
NODE_STEPS = (200, 2000)


def rate_difficulty(nodes: int, depth: int, players: int, tempting: int, plays: int) -> int:
    """1-5 from the solving effort: one point to start, one for each node threshold passed
    (200, 2000 search nodes), one when the longest refutation runs past the next full
    round of plays (more than ``2 * players`` plays), one for two or more tempting wrong
    plays; at most 5."""
    for what, x in (("nodes", nodes), ("depth", depth), ("tempting", tempting), ("plays", plays)):
        check_int(x, what, 0)
    check_int(players, "players", 2, 5)
    d = 1 + sum(1 for s in NODE_STEPS if nodes >= s)
    if depth > 2 * players:
        d += 1
    if tempting >= 2:
        d += 1
    return min(d, 5)


# ---- writing puzzle files -----------------------------------------------------------------


def toml_string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    if not isinstance(text, str):
        raise PuzzleError(f"a TOML string is made of text, not {text!r}")
    out = ['"']
    for ch in text:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _toml_list(items: Sequence[str]) -> str:
    return "[" + ", ".join(toml_string(x) for x in items) + "]"


def puzzle_to_toml(pz: Puzzle) -> str:
    """The puzzle as a TOML file that :func:`load_puzzle` reads back to an equal puzzle
    (apart from ``path``)."""
    if not isinstance(pz, Puzzle):
        raise PuzzleError(f"a puzzle is needed, not {type(pz).__name__}")
    lines = [
        f"id = {toml_string(pz.id)}",
        f"title = {toml_string(pz.title)}",
        f"players = {pz.players}",
        f"ruleset = {toml_string(pz.ruleset)}",
        f"position = {toml_string(position_to_notation(pz.position))}",
        f"question = {toml_string(pz.question)}",
    ]
    if pz.hero is not None:
        lines.append(f"hero = {pz.hero}")
    if pz.question == "exists":
        lines.append(f"conditions = {_toml_list(pz.conditions)}")
        lines.append(f"answer = {'true' if pz.answer is True else 'false'}")
    else:
        lines.append(f"answer = {_toml_list([p.text for p in pz.plays])}")
    if pz.value is not None:
        lines.append(f"value = {pz.value}")
    lines += [
        f"hint = {toml_string(pz.hint)}",
        f"explanation = {toml_string(pz.explanation)}",
        f"difficulty = {pz.difficulty}",
        f"tags = {_toml_list(pz.tags)}",
    ]
    return "\n".join(lines) + "\n"


# ---- generating puzzles -------------------------------------------------------------------

_TITLES = {
    "avoid-paradox": ("Only one way out", "Mind the gap", "Stay in the box", "One safe card"),
    "force-paradox": ("Close the box", "Leave them nothing", "Shut the last door",
                      "No cell for you"),
    # the red-lead themes take their titles from _RED_TITLES, by what decides the puzzle
    "exact-bid": ("Just enough tricks", "Keep your word", "Not one trick too many",
                  "The bid comes first"),
    "empty-square": ("The empty square", "One cell stays empty", "Two players, one gap",
                     "Which cell stays free"),
}
# the red-lead themes' titles by what decides the puzzle (one list for both themes; a red
# title on a puzzle answered with green would mislead): the leader has
# nothing but red to lead; the answer changes without the exception; the safe play is red
_RED_TITLES = {
    "only-red": ("Nothing but red", "Red by necessity", "The red-lead exception",
                 "Red is not broken"),
    "exception": ("The red-lead exception", "When red must be led", "Red is not broken",
                  "Red under lock"),
    "breaks": ("Red is not broken", "The first red", "Red under lock", "Who breaks red?"),
    # (per-card: leading such a card red is allowed, never forced, unless nothing else is)
    "per-card": ("The red-lead exception", "A card with no other color", "Red is not broken",
                 "Red under lock"),
}
_EXCEPTION_HINT = ("Red may not be led before someone breaks it, unless the leader has no "
                   "other legal play.")
_PER_CARD_HINT = ("Red may not be led before someone breaks it, unless the card led has no "
                  "other color its player can declare (the per-card reading).")
_HINTS = {
    "avoid-paradox": "For each card you keep, count the cells still open in the colors you "
                     "can declare.",
    "force-paradox": "Look at the next player's hand and colors: which open cells can "
                     "they still use?",
    "red-lead": _EXCEPTION_HINT,
    "red-lead-exception": _EXCEPTION_HINT,
    "exact-bid": "Your prediction pays the bonus only when it is met exactly: more tricks "
                 "can cost points.",
    "empty-square": "With two players one cell always stays empty: make sure it is not "
                    "one you need.",
}
_BREAKS_RED_HINT = ("Red is not broken yet, and a follower may declare red: the first red "
                    "play breaks it.")
THEME_QUESTION = {
    "avoid-paradox": "safe", "force-paradox": "force-paradox", "red-lead": "safe",
    "red-lead-exception": "safe",
    "exact-bid": "best-score", "empty-square": "safe",
}
# tricks left at the puzzle position, per theme
_TRICKS_LEFT = {
    "avoid-paradox": (2, 3), "force-paradox": (1, 2, 3), "red-lead": (2, 3, 4),
    "red-lead-exception": (2, 3, 4),
    "exact-bid": (2, 3), "empty-square": (2, 3, 4),
}


def random_line(pos: Position, rng: random.Random, avoid_red: bool = False) -> list[Position]:
    """Positions along random legal plays until the round is over."""
    out = [pos]
    while True:
        plays = pos.legal_plays()
        if not plays:
            return out
        if avoid_red:
            plays = tuple(p for p in plays if p.color != 0) or plays
        pos = pos.after(rng.choice(plays))
        out.append(pos)


def _safe_plays(pos: Position, hero: int, stop: int = 2) -> list[Play]:
    """The legal plays that keep ``hero`` safe (the search stops after ``stop``)."""
    found: list[Play] = []
    for play in pos.legal_plays():
        after = pos.after(play)
        if after.legal_plays():
            s = Search(after, hero)
            ok = bool(s.exact("paradox"))
        else:
            ok = after.paradox_by != hero
        if ok:
            found.append(play)
            if len(found) >= stop:
                break
    return found


def _may_tempt(pos: Position, right: Sequence[Play]) -> bool:
    """Is some wrong play of a ``safe`` candidate tempting: the others cannot force the
    hero's paradox within the next round of plays (so it comes after more than
    ``players`` plays, counting the wrong play)?"""
    hero = pos.to_move
    return any(not paradox_within(pos.after(p), hero, pos.players - 1)
               for p in pos.legal_plays() if p not in right)


def _forces(pos: Position, play: Play) -> bool:
    """Does ``play`` leave the next player to move (someone else) without a legal play?"""
    after = pos.after(play)
    return after.is_paradox and after.to_move != pos.to_move


def _immediate_count(pos: Position) -> int:
    return sum(1 for p in pos.legal_plays() if _forces(pos, p))


def _prefilter(theme: str, pos: Position) -> bool:
    """Cheap tests before the full solve: at least three plays, and the theme's own
    (force-paradox: a unique answer; the ``safe`` themes test theirs in the generator,
    which keeps the safe plays it finds)."""
    if pos.is_over or len(pos.legal_plays()) < 3:
        return False
    if theme == "force-paradox":
        return _immediate_count(pos) == 1
    if theme in ("red-lead", "red-lead-exception"):
        if pos.red_broken:
            return False
    if theme == "exact-bid":
        preds = pos.predictions
        return preds is not None and preds[pos.to_move] is not None
    return True


def _without_exception(pos: Position) -> Position:
    """``pos`` under the quick-reference reading: red never led before it is broken."""
    return pos.with_rules(pos.rules.with_switches(red_lead="never"))


def _only_red_to_lead(pos: Position) -> bool:
    """The player to move leads, and every legal play is red (with red unbroken, only the
    red-lead exception allows them)."""
    plays = pos.legal_plays()
    return not pos.trick and bool(plays) and all(p.color == RED for p in plays)


def _safe_without_exception(pos: Position) -> set[Play] | None:
    """The plays that keep the player to move safe under the quick-reference reading
    (red never led before it is broken), or None when that cannot be asked here (the
    ruleset has no exception, or the other reading's search cannot answer)."""
    if pos.rules.red_lead == "never":  # (the per-card reading is an exception too)
        return None
    other = _without_exception(pos)
    try:
        return {p for p in other.legal_plays()
                if value_only(other.after(p), pos.to_move, "paradox")}
    except CatboxError:
        return None


def _red_lead_point(pos: Position, correct: Sequence[Play]) -> str | None:
    """Why a red-lead puzzle is about red (red is unbroken): "exception" when the leader
    leads red under the exception (with the per-card reading, a red lead at all) or the
    answer changes under the quick-reference reading without it; "breaks" when only the
    safe play being red (a follower's: it breaks red) makes it so; None: neither, not a
    red-lead puzzle."""
    if _only_red_to_lead(pos):
        return "exception"
    other_safe = _safe_without_exception(pos)
    if other_safe is not None and other_safe != set(correct):
        return "exception"
    if any(p.color == RED for p in correct):
        # (a red lead before red is broken is the exception's, whatever its reading: the
        # per-card one's were called "breaks", with the follower's hint; review)
        return "breaks" if pos.trick else "exception"
    return None


def _explain(theme: str, pz: Puzzle, sol: Solution) -> str:
    """An explanation in words, from the solution's lines."""
    right = [v for v in sol.verdicts if v.correct]
    wrong = [v for v in sol.verdicts if not v.correct]
    good = right[0]
    parts: list[str] = []
    if pz.question == "force-paradox":
        after = pz.position.after(good.play)
        how = ("must lead the next trick" if not after.trick else "plays next")
        parts.append(f"Only {good.play.text} works: seat {after.to_move} {how}, and "
                     f"{good.note}.")
        for v in wrong[:4]:
            parts.append(f"After {v.play.text}, {v.note}.")
        return " ".join(parts)
    if pz.question == "best-score":
        pred = pz.position.predictions[pz.seat] if pz.position.predictions else None
        parts.append(f"{good.play.text}: {good.note}, with best play on both sides "
                     f"{_plays_text(good.line)}.")
        for v in sorted(wrong, key=lambda w: -int(w.result or 0))[:3]:
            parts.append(f"{v.play.text}: only {v.note}, after {_plays_text(v.line)}.")
        if pred is not None:
            parts.append(f"Seat {pz.seat} predicted {pred}: the bonus only counts when the "
                         "tricks won match the prediction exactly, so grabbing an extra "
                         "trick can cost more than it brings.")
        return " ".join(parts)
    tail = "the round ends without you causing a paradox"
    if good.note.startswith("seat"):
        tail = good.note
    parts.append(f"{good.play.text} is the only safe play: after "
                 f"{_plays_text(good.line)} {tail}.")
    for v in sorted(wrong, key=lambda w: -len(w.line))[:4]:
        parts.append(f"After {_plays_text(v.line)}, {v.note}.")
    if theme in ("red-lead", "red-lead-exception") and "exception" in pz.tags:
        parts.append(_exception_words(pz, sol))
    if theme == "empty-square":
        cells = _cells_left_empty(pz.position.after(good.play))
        names = [f"{COLOR_NAMES[c]} {val}" for val, c in sorted(cells)]
        if len(names) == 1:
            parts.append(f"Whatever follows with no paradox, the cell that stays empty is "
                         f"{names[0]}.")
        elif names:
            parts.append(f"The cell that stays empty depends on the rest of the round: "
                         f"{listed(names, 'or')} can be it.")
    return " ".join(parts)


def _first_exception_lead(
    pos: Position, line: Sequence[Play]
) -> tuple[tuple[Play, ...], Play, Position] | None:
    """The first lead of red before red is broken along ``line`` (one the red-lead
    exception allows): the plays of the line before it, the lead itself and the position
    it is made in; or None."""
    for i, play in enumerate(line):
        events: Counter[str] = Counter()
        count_play_events(pos, play, events)  # (the rule events' own test of such a lead)
        if events["red_lead_exception"]:
            return tuple(line[:i]), play, pos
        pos = pos.after(play)
    return None


def _exception_words(pz: Puzzle, sol: Solution) -> str:
    """How the red-lead exception decides a puzzle tagged ``exception``, in words: where a
    line leads red by it, and what the answer would be under the quick-reference reading
    without it (a teacher's question: generated explanations never said)."""
    pos = pz.position
    words: list[str] = []
    if _only_red_to_lead(pos):
        words.append("Red is not broken, but you have nothing else to lead, so the "
                     "red-lead exception lets you lead red.")
    else:
        for v in sorted(sol.verdicts, key=lambda w: not w.correct):
            at = _first_exception_lead(pos, v.line)
            if at is not None:
                # (the point of the line where it happens, not the play alone: "after 6g,
                # you must lead red" would read as forced, and other answers to 6g break
                # red first)
                words.append(_exception_lead_words(pz, *at))
                break
    other = _safe_without_exception(pos)
    if other is not None:
        start = _without_exception(pos)
        if not start.legal_plays():
            words.append("Under the quick-reference reading, with no exception, you would "
                         "have no legal play: a paradox on the spot.")
        elif other:
            names = listed([p.text for p in sorted(other)], "or")
            words.append(f"Under the quick-reference reading, with no exception, the safe "
                         f"{'play would be' if len(other) == 1 else 'plays would be'} "
                         f"{names} instead.")
        else:
            words.append("Under the quick-reference reading, with no exception, no play "
                         "would be safe.")
        right = next(v.play for v in sol.verdicts if v.correct)
        if right not in other and right in start.legal_plays():
            words.append(_fails_without_exception(pz, start, right))
    return " ".join(words)


def _exception_lead_words(
    pz: Puzzle, before: Sequence[Play], lead: Play, there: Position
) -> str:
    """A lead of red before red is broken, in position ``there`` after the plays
    ``before`` from the puzzle, in words: the leader has only red to lead (the exception
    of the rulebooks), or, with the per-card reading, the card led has no other color its
    leader can declare."""
    you = there.to_move == pz.seat
    after = f"After {_plays_text(before)}, " if before else ""
    if _only_red_to_lead(there):
        who = "you have" if you else f"seat {there.to_move} has"
        text = (f"{after}{who} only red to lead in trick {_trick_no(there)}, with red not "
                f"broken: only the red-lead exception allows {lead.text}.")
    else:  # (the per-card reading: other cards could be led in other colors)
        who = "you" if you else f"seat {there.to_move}"
        text = (f"{after}{who} may lead {lead.text} in trick {_trick_no(there)}, with red "
                f"not broken: {lead.value} has no other color {who} can declare, and the "
                "per-card reading of the red-lead exception allows such a card.")
    return text[0].upper() + text[1:]


def _fails_without_exception(pz: Puzzle, start: Position, play: Play) -> str:
    """Why ``play``, safe with the red-lead exception, is not without it: the quickest
    forced paradox from ``start`` (the puzzle under the quick-reference reading), and
    whether it is a lead of red before red is broken (the exception's case)."""
    forced = quickest_paradox(start.after(play), pz.seat)
    if forced is None:  # pragma: no cover - the search said the play is not safe
        raise SearchError(f"bug: {play.text} is safe without the exception after all")
    line = (play, *forced.line)
    final = replay_line(start, line)
    text = f"Without the exception, {play.text} fails: after {_plays_text(line)}"
    if _only_red_to_lead(final.with_rules(pz.position.rules)):
        return (f"{text} you must lead in trick {_trick_no(final)} and have only red to "
                "lead, with red not broken.")
    return f"{text} {_seat_stuck(final, pz.seat)} (trick {_trick_no(final)})."


def _cells_left_empty(pos: Position) -> set[tuple[int, int]]:
    """The (value, color) cells that some paradox-free finish of ``pos`` leaves without a
    token, by a plain search over every line (the empty-square theme: 2 players, at most
    4 tricks left). The line shown may leave one cell empty where another finish leaves
    another, so an explanation naming only the line's cell as the empty one would state
    something false."""
    memo: dict[Position, frozenset[int]] = {}

    def ends(p: Position) -> frozenset[int]:
        if p.tricks_left == 0:
            return frozenset((p.used,))
        if p.is_paradox:
            return frozenset()
        if p not in memo:
            memo[p] = frozenset().union(*(ends(p.after(q)) for q in p.legal_plays()))
        return memo[p]

    return {(bit // 4 + 1, bit % 4) for used in ends(pos)
            for bit in range(pos.rules.values * 4) if not used >> bit & 1}


def _candidate_positions(
    theme: str, rules: Ruleset, rng: random.Random
) -> list[Position]:
    """Positions from one seeded round where a puzzle of ``theme`` may hide."""
    start = first_lead(rules, rng, start=None)
    avoid_red = theme in ("red-lead", "red-lead-exception")
    lines: list[list[Position]] = []
    if theme == "force-paradox" or rng.random() < 0.3:
        lines.append(random_line(start, rng, avoid_red))
    plays = paradox_free_line(start, rng, max_nodes=3000, avoid_red=avoid_red)
    free = None if plays is None else positions_along(start, plays)
    if free is not None:
        lines.append(free)
        # a sidestep: leave the paradox-free line at a late point and play on at random
        late = [p for p in free if 2 <= p.tricks_left <= 4]
        if late:
            lines.append(random_line(rng.choice(late), rng, avoid_red))
    left = _TRICKS_LEFT[theme]
    if rules.players == 5 and theme == "exact-bid":
        left = (2,)  # the score search has no color symmetry: keep 5 players short
    elif rules.players >= 4:
        left = tuple(k for k in left if k <= 3)  # 4 tricks of 4-5 players: slow searches
    out = []
    for line in lines:
        cands = [p for p in line if p.tricks_left in left and not p.is_over]
        rng.shuffle(cands)
        out += cands[:4]
    return out


def generate(
    theme: str,
    players: int,
    seed: int,
    exclude: set[str] | None = None,
    ruleset: str = "official",
    max_rounds: int | None = None,
) -> Iterator[Puzzle]:
    """Endless stream of new puzzles of ``theme`` (stop after as many as you need):
    seeded deals played paradox-free to a few tricks before the end, kept when the answer
    is unique (one correct play; best-score: one best play, at least one point clear),
    there are at least three legal plays and at least one tempting wrong one, and the
    position is new (``exclude`` holds notations already used; it is not changed).
    Reproducible from ``seed``. Bad arguments raise at once, not at the first puzzle (so
    that a caller creates no output directory for a theme that cannot work)."""
    if theme not in THEMES:
        raise PuzzleError(f"unknown theme {theme!r}; one of {', '.join(THEMES)}")
    if exclude is not None and not isinstance(exclude, set):
        raise PuzzleError(f"exclude is a set of position notations, not {exclude!r}")
    if max_rounds is not None:
        check_int(max_rounds, "max_rounds", 1)
    if not is_whole(seed):  # (None, "x" or 1.5 seeded a stream of their own, as a number)
        raise PuzzleError(f"seed must be a whole number, not {seed!r}")
    if theme == "empty-square" and players != 2:
        raise PuzzleError("the empty-square theme is a 2-player theme (--players 2)")
    if theme == "exact-bid" and players == 2:
        raise PuzzleError("the exact-bid theme is for 3-5 players (--players 3, 4 or 5)")
    rules = Ruleset.from_name(ruleset, players)
    if theme == "red-lead-exception" and rules.red_lead == "never":
        # (no puzzle could turn on an exception the rules leave out: an endless search)
        raise PuzzleError(f"the red-lead-exception theme needs a red-lead exception (the "
                          f"official one or per-card), and ruleset {rules.name!r} has none")
    return _generate(theme, players, seed, exclude, rules, max_rounds)


def _generate(
    theme: str,
    players: int,
    seed: int,
    exclude: set[str] | None,
    rules: Ruleset,
    max_rounds: int | None,
) -> Iterator[Puzzle]:
    """The stream of :func:`generate`, its arguments checked."""
    rng = random.Random(f"{theme}/{players}/{seed}")
    seen = set() if exclude is None else set(exclude)  # (the caller's set is not changed:
    # adding to it made the same call give other puzzles the next time)
    kind = THEME_QUESTION[theme]
    rounds = 0
    while max_rounds is None or rounds < max_rounds:
        rounds += 1
        for pos in _candidate_positions(theme, rules, rng):
            text = position_to_notation(pos)
            if text in seen or not _prefilter(theme, pos):
                continue
            seen.add(text)
            point = None
            if kind == "safe":
                # the cheap tests before the full solve, whose forced refutations (the
                # quickest paradox after each wrong play) are most of a candidate's cost
                right = _safe_plays(pos, pos.to_move)
                if len(right) != 1:  # (not a unique answer)
                    continue
                if theme in ("red-lead", "red-lead-exception"):
                    point = _red_lead_point(pos, right)
                    if point is None or (theme == "red-lead-exception"
                                         and point != "exception"):
                        continue
                if theme == "empty-square" and not _cells_left_empty(pos.after(right[0])):
                    continue  # (no paradox-free finish: no cell is the empty one)
                if not _may_tempt(pos, right):
                    continue
            draft = Puzzle(
                id="draft", title="", players=players, ruleset=rules.name, position=pos,
                question=kind, hero=None, answer=(),
            )
            sol = solve_puzzle(draft)
            if len(sol.correct_plays) != 1 or sol.tempting < 1:
                continue
            if theme == "exact-bid" and not _score_tradeoff(sol):
                continue
            hint = _HINTS[theme]
            tags: tuple[str, ...] = ("generated", theme)
            if theme in ("red-lead", "red-lead-exception"):
                if point == "exception":  # (the tag finds them: a teacher's question)
                    tags += ("exception",)
                    if rules.red_lead == "per-card":
                        hint = _PER_CARD_HINT
                else:  # (every one had the exception's hint, though it played no part)
                    hint = _BREAKS_RED_HINT
            digest = hashlib.sha1(text.encode()).hexdigest()[:8]
            pz = replace(
                draft,
                id=f"{theme}-{players}p-{digest}",
                title=f"{_title(theme, point, pos, rng)} ({players} players)",
                answer=sol.correct_plays,
                value=sol.value,
                hint=hint,
                difficulty=sol.difficulty,
                tags=tags,
            )
            pz = replace(pz, explanation=_explain(theme, pz, sol))
            yield pz
            break  # one puzzle per dealt round keeps the collection varied


def _title(theme: str, point: str | None, pos: Position, rng: random.Random) -> str:
    """A generated puzzle's title, drawn from its theme's four (the red-lead themes: the
    four that fit what decides it, ``point`` of :func:`_red_lead_point`)."""
    titles = _TITLES.get(theme)
    if titles is None:
        kind = "only-red" if _only_red_to_lead(pos) else str(point)
        if kind == "exception" and pos.rules.red_lead == "per-card":
            kind = "per-card"  # ("When red must be led" stood where the red lead was optional)
        titles = _RED_TITLES[kind]
    return rng.choice(titles)


def _score_tradeoff(sol: Solution) -> bool:
    """exact-bid: the best-score play is not a play that wins the most tricks."""
    best = [v for v in sol.verdicts if v.correct][0]
    most = max(v.trick_points or 0 for v in sol.verdicts)
    return (best.trick_points or 0) < most
