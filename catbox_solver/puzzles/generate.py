"""Generating puzzles: seeded deals played to a few tricks before the end, kept when the
answer is unique and some wrong play tempts; reproducible from the seed."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Sequence
from dataclasses import replace

from catbox_solver.dd.forced import paradox_within
from catbox_solver.dd.lines import paradox_free_line, positions_along
from catbox_solver.dd.search import Search
from catbox_solver.formats.notation import position_to_notation
from catbox_solver.model.deal import first_lead
from catbox_solver.model.numbers import check_int, is_whole
from catbox_solver.model.position import Play, Position
from catbox_solver.model.rules import RED, Ruleset
from catbox_solver.puzzles.check import Solution, solve_puzzle
from catbox_solver.puzzles.explain import (
    BREAKS_RED_HINT,
    HINTS,
    PER_CARD_HINT,
    cells_left_empty,
    explain,
    only_red_to_lead,
    safe_without_exception,
)
from catbox_solver.puzzles.schema import Puzzle, PuzzleError

THEMES = ("avoid-paradox", "force-paradox", "red-lead", "red-lead-exception", "exact-bid",
          "empty-square")

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
# the red-lead themes' titles by what decides the puzzle (one list for both themes, red
# titles on puzzles answered with green misled): the leader has
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


def _red_lead_point(pos: Position, correct: Sequence[Play]) -> str | None:
    """Why a red-lead puzzle is about red (red is unbroken): "exception" when the leader
    leads red under the exception (with the per-card reading, a red lead at all) or the
    answer changes under the quick-reference reading without it; "breaks" when only the
    safe play being red (a follower's: it breaks red) makes it so; None: neither, not a
    red-lead puzzle."""
    if only_red_to_lead(pos):
        return "exception"
    other_safe = safe_without_exception(pos)
    if other_safe is not None and other_safe != set(correct):
        return "exception"
    if any(p.color == RED for p in correct):
        # (a red lead before red is broken is the exception's, whatever its reading: the
        # per-card one's were called "breaks", with the follower's hint; review)
        return "breaks" if pos.trick else "exception"
    return None



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
                if theme == "empty-square" and not cells_left_empty(pos.after(right[0])):
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
            hint = HINTS[theme]
            tags: tuple[str, ...] = ("generated", theme)
            if theme in ("red-lead", "red-lead-exception"):
                if point == "exception":  # (the tag finds them: a teacher's question)
                    tags += ("exception",)
                    if rules.red_lead == "per-card":
                        hint = PER_CARD_HINT
                else:  # (every one had the exception's hint, though it played no part)
                    hint = BREAKS_RED_HINT
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
            pz = replace(pz, explanation=explain(theme, pz, sol))
            yield pz
            break  # one puzzle per dealt round keeps the collection varied


def _title(theme: str, point: str | None, pos: Position, rng: random.Random) -> str:
    """A generated puzzle's title, drawn from its theme's four (the red-lead themes: the
    four that fit what decides it, ``point`` of :func:`_red_lead_point`)."""
    titles = _TITLES.get(theme)
    if titles is None:
        kind = "only-red" if only_red_to_lead(pos) else str(point)
        if kind == "exception" and pos.rules.red_lead == "per-card":
            kind = "per-card"  # ("When red must be led" stood where the red lead was optional)
        titles = _RED_TITLES[kind]
    return rng.choice(titles)


def _score_tradeoff(sol: Solution) -> bool:
    """exact-bid: the best-score play is not a play that wins the most tricks."""
    best = [v for v in sol.verdicts if v.correct][0]
    most = max(v.trick_points or 0 for v in sol.verdicts)
    return (best.trick_points or 0) < most
