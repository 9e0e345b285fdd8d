"""Hints and explanations of generated puzzles, in words from the solution's lines: the
themes' hints, how the red-lead exception decides a puzzle, which cells can stay empty."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from catbox_solver.dd.forced import quickest_paradox
from catbox_solver.dd.solve import value_only
from catbox_solver.errors import CatboxError, SearchError
from catbox_solver.games.game import count_play_events
from catbox_solver.model.numbers import listed
from catbox_solver.model.position import Play, Position
from catbox_solver.model.rules import COLOR_NAMES, RED
from catbox_solver.puzzles.check import (
    Solution,
    _plays_text,
    _seat_stuck,
    _trick_no,
    replay_line,
)
from catbox_solver.puzzles.schema import Puzzle

EXCEPTION_HINT = ("Red may not be led before someone breaks it, unless the leader has no "
                   "other legal play.")
PER_CARD_HINT = ("Red may not be led before someone breaks it, unless the card led has no "
                  "other color its player can declare (the per-card reading).")
HINTS = {
    "avoid-paradox": "For each card you keep, count the cells still open in the colors you "
                     "can declare.",
    "force-paradox": "Look at the next player's hand and colors: which open cells can "
                     "they still use?",
    "red-lead": EXCEPTION_HINT,
    "red-lead-exception": EXCEPTION_HINT,
    "exact-bid": "Your prediction pays the bonus only when it is met exactly: more tricks "
                 "can cost points.",
    "empty-square": "With two players one cell always stays empty: make sure it is not "
                    "one you need.",
}
BREAKS_RED_HINT = ("Red is not broken yet, and a follower may declare red: the first red "
                    "play breaks it.")


def _without_exception(pos: Position) -> Position:
    """``pos`` under the quick-reference reading: red never led before it is broken."""
    return pos.with_rules(pos.rules.with_switches(red_lead="never"))


def only_red_to_lead(pos: Position) -> bool:
    """The player to move leads, and every legal play is red (with red unbroken, only the
    red-lead exception allows them)."""
    plays = pos.legal_plays()
    return not pos.trick and bool(plays) and all(p.color == RED for p in plays)


def safe_without_exception(pos: Position) -> set[Play] | None:
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


def explain(theme: str, pz: Puzzle, sol: Solution) -> str:
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
        cells = cells_left_empty(pz.position.after(good.play))
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
    if only_red_to_lead(pos):
        words.append("Red is not broken, but you have nothing else to lead, so the "
                     "red-lead exception lets you lead red.")
    else:
        for v in sorted(sol.verdicts, key=lambda w: not w.correct):
            at = _first_exception_lead(pos, v.line)
            if at is not None:
                # (the point of the line where it happens, not the play alone: "after 6g,
                # you must lead red" read as forced, and other answers to 6g break red
                # first)
                words.append(_exception_lead_words(pz, *at))
                break
    other = safe_without_exception(pos)
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
    if only_red_to_lead(there):
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
    if only_red_to_lead(final.with_rules(pz.position.rules)):
        return (f"{text} you must lead in trick {_trick_no(final)} and have only red to "
                "lead, with red not broken.")
    return f"{text} {_seat_stuck(final, pz.seat)} (trick {_trick_no(final)})."


def cells_left_empty(pos: Position) -> set[tuple[int, int]]:
    """The (value, color) cells that some paradox-free finish of ``pos`` leaves without a
    token, by a plain search over every line (the empty-square theme: 2 players, at most
    4 tricks left). The line shown may leave one cell empty where another finish leaves
    another: an explanation naming the line's cell as the empty one stated something
    false."""
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


