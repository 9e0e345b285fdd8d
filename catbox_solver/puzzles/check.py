"""Solving a puzzle exactly and checking its stored answer: every legal play's verdict,
a line of best play or a refutation for each, the difficulty from the solving effort."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from catbox_solver.dd.answer import OutOfTime
from catbox_solver.dd.forced import quickest_paradox
from catbox_solver.dd.search import Search
from catbox_solver.dd.warmup import search_clock
from catbox_solver.errors import SearchError
from catbox_solver.model.numbers import check_int, check_seconds, counted, listed
from catbox_solver.model.position import Play, Position, need_position
from catbox_solver.model.rules import COLOR_NAMES
from catbox_solver.puzzles.schema import KINDS, Puzzle, PuzzleError, parse_condition


class PuzzleTimeout(SearchError):
    """A puzzle whose searches ran out of their time (``solve_puzzle``'s ``timeout``): its
    stored answer is not checked, which is neither right nor wrong. The message names the
    puzzle; ``reason`` is the message without it."""

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = message if reason is None else reason


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


class _SolveEffort:
    """The searches of one puzzle: their shared deadline (from a ready compiled core, see
    search_clock) and the nodes they have spent, which the difficulty counts."""

    def __init__(self, timeout: float | None) -> None:
        self.deadline = None if timeout is None else search_clock() + timeout
        self.nodes = 0


def _search(
    pos: Position, hero: int, question: str, effort: _SolveEffort
) -> tuple[Any, tuple[Play, ...]]:
    """Exact value of ``question`` for ``hero`` on ``pos`` and a line of best play."""
    if not pos.legal_plays():
        if question == "paradox":
            return pos.paradox_by != hero, ()
        if question == "tricks":
            return pos.trick_points(hero), ()
        return pos.scores()[hero], ()
    search = Search(pos, hero, effort.deadline)
    try:
        value = search.exact(question)
        line = search.principal_variation(question, value)
    except OutOfTime:
        effort.nodes += search.nodes
        raise PuzzleTimeout("the search ran out of time (--timeout)") from None
    effort.nodes += search.nodes
    return value, line


def _quickest_refutation(pos: Position, hero: int, effort: _SolveEffort) -> tuple[Play, ...]:
    """The line to the hero's quickest forced paradox from ``pos`` (which the search has
    shown the hero cannot avoid); its nodes are not counted in the difficulty's."""
    try:
        forced = quickest_paradox(pos, hero, effort.deadline)
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
        # (won the trick: the next to play is the mover itself, no victim; this counted as
        # tempting whenever the mover held another card of that value, and was nearly the
        # only way a force-paradox play was tempting)
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
    effort = _SolveEffort(timeout)
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
        res = exists(pos, conds, timeout=60.0 if timeout is None else timeout)
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
            v, pv = _search(pos.after(play), hero, question, effort)
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
                tv, _ = _search(pos.after(play), hero, "tricks", effort)
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
                line = (play, *_quickest_refutation(pos.after(play), hero, effort))
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
                    # of 2 tricks and no bonus read as 1 trick and a bonus of 1)
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
    difficulty = rate_difficulty(effort.nodes, depth, n, n_tempting, len(verdicts))
    return Solution(
        puzzle, answer, value, tuple(verdicts), witness, clash, effort.nodes,
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


