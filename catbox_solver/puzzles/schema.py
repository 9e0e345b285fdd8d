"""Puzzle files: the :class:`Puzzle`, its schema, and reading and writing TOML.

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

import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catbox_solver.errors import CatboxError, SearchError
from catbox_solver.formats.files import read_limited
from catbox_solver.formats.notation import position_from_notation, position_to_notation
from catbox_solver.model.numbers import listed
from catbox_solver.model.position import RULE_TEXT, Play, Position
from catbox_solver.model.rules import COLOR_CHARS, COLOR_NAMES, Ruleset

KINDS = ("safe", "best-tricks", "best-score", "force-paradox", "exists")
PLAY_KINDS = ("safe", "best-tricks", "best-score", "force-paradox")

_FIELDS = {
    "id", "title", "players", "ruleset", "position", "question", "hero", "answer", "value",
    "conditions", "hint", "explanation", "difficulty", "tags",
}
_REQUIRED = ("id", "title", "players", "position", "question", "answer")
_ID = re.compile(r"[a-z0-9][a-z0-9-]*")


class PuzzleError(CatboxError, ValueError):
    """A puzzle file that cannot be read: the message names the file and the field."""


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


