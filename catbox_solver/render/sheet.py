"""A printable puzzle sheet: one self-contained HTML page with every puzzle.

For a teacher to print or share with pupils: the puzzles in groups by player count, easiest
first in each, each with its picture (inline SVG, see :mod:`catbox_solver.render.svg`),
title, difficulty, question, a hint to unfold and a "Show answer" button revealing the
answer and the explanation, whose lines of play are broken by trick. Titles are told apart
(a repeated one is numbered; the player count, which the group heading gives, is left out
of it); the puzzle files' tags are not shown. The page needs no network: the style, the
pictures and the few lines of script are all inline, and a Content-Security-Policy forbids
loading anything else. With ``@media print`` the buttons disappear, each puzzle sits beside
its picture and stays on one page, several to a page, and only the hints and answers opened
on screen are printed (so "Show all answers" then print gives an answer key). All text from
puzzle files is escaped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from pathlib import Path

from catbox_solver.errors import CatboxError
from catbox_solver.formats.files import write_whole
from catbox_solver.formats.notation import position_to_notation
from catbox_solver.model.numbers import counted, is_whole
from catbox_solver.model.position import Play, Position
from catbox_solver.puzzles import Puzzle
from catbox_solver.render.svg import position_svg

__all__ = [
    "DEFAULT_TITLE", "by_trick", "puzzle_html", "sheet_html", "sheet_order", "shown_titles",
    "write_sheet",
]

DEFAULT_TITLE = "Cat in the Box puzzles"

_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; form-action 'none'"
)

_CSS = """
:root { color-scheme: light; }
body { font-family: sans-serif; color: #1a1a1a; background: #ffffff; margin: 0 auto;
  max-width: 800px; padding: 1.5em; line-height: 1.45; }
h1 { margin-bottom: 0.2em; }
.intro { color: #444444; }
nav ol { columns: 2; margin-top: 0; }
.toolbar { margin: 1em 0; }
.puzzle { border-top: 2px solid #1a1a1a; padding-top: 0.8em; margin-top: 2em; }
.group > h2 { margin: 1.6em 0 0 0; }
.puzzle h3 { margin: 0 0 0.2em 0; font-size: 1.3em; }
nav h3 { margin: 0.6em 0 0.2em 0; font-size: 1em; }
.meta { color: #555555; font-size: 0.9em; margin: 0 0 0.6em 0; }
.stars { letter-spacing: 0.1em; }
figure { margin: 0.4em 0; }
figure svg { width: 100%; height: auto; max-width: 720px; }
.question { font-weight: bold; font-size: 1.05em; }
details.hint summary, details.notation summary { cursor: pointer; }
details.hint { margin-bottom: 0.6em; }
details.notation { margin-top: 0.6em; }
details.notation code { font-size: 0.85em; overflow-wrap: anywhere; }
button { font: inherit; padding: 0.3em 0.9em; border: 1px solid #1a1a1a; border-radius: 4px;
  background: #f3f3f3; cursor: pointer; }
button:hover { background: #e4e4e4; }
.answer { border-left: 4px solid #1a1a1a; background: #f6f6f6; padding: 0.4em 0.9em;
  margin-top: 0.6em; }
.answer .verdict { font-weight: bold; }
@media print {
  @page { size: A4; margin: 12mm; }
  body { max-width: none; padding: 0; font-size: 9.5pt; line-height: 1.3; }
  h1 { font-size: 16pt; margin: 0; }
  .intro { margin: 0.2em 0 0 0; }
  nav, .toolbar, button, details.notation, details.hint:not([open]) { display: none; }
  .group > h2 { font-size: 13pt; margin: 0.6em 0 0 0; break-after: avoid; }
  .puzzle { break-inside: avoid; page-break-inside: avoid; margin-top: 0.7em;
    padding-top: 0.4em; border-top-width: 1px; display: grid;
    grid-template-columns: 55% 1fr; column-gap: 1.2em; align-items: start; }
  .puzzle > * { grid-column: 2; margin-top: 0; }
  .puzzle > h3 { font-size: 11pt; }
  .puzzle > figure { grid-column: 1; grid-row: 1 / span 8; margin: 0; }
  .answer { background: none; }
  a { color: inherit; text-decoration: none; }
}
"""

# Errors are collected in window.sheetErrors (read back by the browser test); the reveal
# buttons toggle the ``hidden`` attribute of their answer.
_ERROR_HOOK = """
window.sheetErrors = [];
window.addEventListener("error", function (e) { window.sheetErrors.push(String(e.message)); });
"""

_SCRIPT = """
(function () {
  function show(button, open) {
    var answer = document.getElementById(button.getAttribute("aria-controls"));
    answer.hidden = !open;
    button.setAttribute("aria-expanded", open ? "true" : "false");
    button.textContent = open ? "Hide answer" : "Show answer";
  }
  var buttons = document.querySelectorAll("button.reveal");
  buttons.forEach(function (button) {
    button.addEventListener("click", function () {
      show(button, button.getAttribute("aria-expanded") !== "true");
    });
  });
  var all = document.getElementById("toggle-all");
  if (all) {
    all.addEventListener("click", function () {
      var open = all.getAttribute("aria-expanded") !== "true";
      buttons.forEach(function (button) { show(button, open); });
      all.setAttribute("aria-expanded", open ? "true" : "false");
      all.textContent = open ? "Hide all answers" : "Show all answers";
    });
  }
  window.sheetReady = true;
})();
"""


_RUN = re.compile(r"(?<![\w-])[1-9][rbyg](?: [1-9][rbyg])+(?![\w-])")


def _tricks(pos: Position, texts: Sequence[str]) -> list[list[str]] | None:
    """The plays ``texts`` from ``pos`` in groups by trick, or None when they are not a
    legal line there."""
    groups: list[list[str]] = [[]]
    for text in texts:
        try:
            play = Play.parse(text, pos.rules.values)
        except CatboxError:
            return None
        if pos.is_over or pos.why_illegal(play) is not None:
            return None
        pos = pos.after(play)
        groups[-1].append(text)
        if not pos.trick:  # (the trick is complete)
            groups.append([])
    return [g for g in groups if g]


def by_trick(text: str, pos: Position) -> str:
    """``text`` with each line of plays that replays from ``pos`` (under its rules, or
    with no red-lead exception, the reading some explanations compare with) broken by
    trick with " | ": "after 5r 2r 4r 3r | 8r 6r" for "after 5r 2r 4r 3r 8r 6r"."""
    starts = [pos]
    try:
        starts.append(pos.with_rules(pos.rules.with_switches(red_lead="never")))
    except CatboxError:  # (a position that reading cannot reach: a red lead made already)
        pass

    def split(match: re.Match[str]) -> str:
        plays = match.group(0).split()
        for start in starts:
            groups = _tricks(start, plays)
            if groups is not None:
                return " | ".join(" ".join(g) for g in groups)
        return match.group(0)

    return _RUN.sub(split, text)


def _paragraphs(text: str, pos: Position | None = None) -> str:
    """Plain text as escaped HTML paragraphs (a blank line starts a new paragraph); with
    ``pos``, its lines of plays broken by trick."""
    paras = [" ".join(p.split()) for p in text.strip().split("\n\n")]
    if pos is not None:
        paras = [by_trick(p, pos) for p in paras]
    return "".join(f"<p>{escape(p)}</p>" for p in paras if p)


def _stars(difficulty: int) -> str:
    level = max(0, min(5, difficulty))
    return "★" * level + "☆" * (5 - level)


def sheet_order(puzzles: Sequence[Puzzle]) -> list[Puzzle]:
    """The sheet's order: by player count, easiest first in each (in the given order
    among equals)."""
    return sorted(puzzles, key=lambda pz: (pz.players, pz.difficulty))


_ROMAN = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")


def shown_titles(puzzles: Sequence[Puzzle]) -> list[str]:
    """The titles as the sheet shows them: without a trailing "(N players)" (the group
    heading says it), and a title met again numbered ("The empty square II"), so that no
    two are alike."""
    used: set[str] = set()
    out = []
    for pz in puzzles:
        title = " ".join(pz.title.split())
        suffix = f" ({pz.players} players)"
        if title.endswith(suffix) and len(title) > len(suffix):
            title = title[: -len(suffix)]
        shown, n = title, 1
        while shown.casefold() in used:
            n += 1
            shown = f"{title} {_ROMAN[n] if n < len(_ROMAN) else n}"
        used.add(shown.casefold())
        out.append(shown)
    return out


def _anchors(puzzles: Sequence[Puzzle]) -> list[str]:
    """One HTML id per puzzle, from its id (numbered when two puzzles share one)."""
    seen: set[str] = set()
    out = []
    for i, pz in enumerate(puzzles, start=1):
        anchor = f"puzzle-{pz.id}"
        if anchor in seen:
            anchor = f"puzzle-{pz.id}-{i}"
        seen.add(anchor)
        out.append(anchor)
    return out


def puzzle_html(puzzle: Puzzle, number: int, anchor: str, title: str | None = None) -> str:
    """One puzzle as an HTML ``<section>``: picture, question, hint and hidden answer
    (``title``: the title shown, by default the puzzle's)."""
    if not isinstance(puzzle, Puzzle):
        raise CatboxError(f"a Puzzle is needed, not {type(puzzle).__name__}")
    if not isinstance(anchor, str) or not is_whole(number):
        raise CatboxError(f"a puzzle's number and anchor are a whole number and text, not "
                          f"{number!r} and {anchor!r}")
    if title is None:
        title = puzzle.title
    if not isinstance(title, str):
        raise CatboxError(f"a puzzle's title is text, not {title!r}")
    pos = puzzle.position
    hero = puzzle.hero if puzzle.question == "exists" else puzzle.seat
    rules = pos.rules
    meta = [
        f'<span class="stars" aria-hidden="true">{_stars(puzzle.difficulty)}</span> '
        f"difficulty {puzzle.difficulty} of 5",
        f"{rules.players} players",
        f"rules: {escape(rules.name)}",
    ]
    answer_id = f"{anchor}-answer"
    parts = [
        f'<section class="puzzle" id="{escape(anchor, quote=True)}">',
        f"<h3>{number}. {escape(title)}</h3>",
        f'<p class="meta">{" · ".join(meta)}</p>',
        f"<figure>{position_svg(pos, hero=hero)}</figure>",
        f'<p class="question">{escape(puzzle.question_text())}</p>',
    ]
    if puzzle.hint:
        parts.append(
            f'<details class="hint"><summary>Hint</summary>{_paragraphs(puzzle.hint)}</details>'
        )
    parts += [
        f'<button type="button" class="reveal" aria-expanded="false" '
        f'aria-controls="{escape(answer_id, quote=True)}">Show answer</button>',
        f'<div class="answer" id="{escape(answer_id, quote=True)}" hidden>',
        f'<p class="verdict">{escape(puzzle.answer_text())}</p>',
        _paragraphs(puzzle.explanation, pos),
        "</div>",
        '<details class="notation"><summary>Position in notation</summary>'
        f"<code>{escape(position_to_notation(pos))}</code></details>",
        "</section>",
    ]
    return "\n".join(parts)


def page_head(title: str, extra_css: str = "") -> str:
    """The start of a self-contained page in the sheet's style, up to ``<body>``: its
    content security policy (no network, nothing but inline style and script), the
    error hook the browser test reads, and the sheet's stylesheet (plus ``extra_css``)."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<script>{_ERROR_HOOK}</script>
<style>{_CSS}{extra_css}</style>
</head>
<body>"""


def sheet_html(puzzles: Sequence[Puzzle], title: str = DEFAULT_TITLE) -> str:
    """The whole sheet as one HTML page (text): title, contents, and the puzzles in groups
    by player count, easiest first in each (:func:`sheet_order`)."""
    if not isinstance(puzzles, Sequence) or isinstance(puzzles, str):
        raise CatboxError(f"the puzzles to export are a list of Puzzles, not {puzzles!r}")
    if not puzzles:
        raise CatboxError("no puzzles to export")
    for i, pz in enumerate(puzzles, 1):
        if not isinstance(pz, Puzzle):
            raise CatboxError(f"puzzle {i} to export is not a Puzzle but {type(pz).__name__}")
    if not isinstance(title, str):
        raise CatboxError(f"the sheet's title is text, not {title!r}")
    ordered = sheet_order(puzzles)
    anchors = _anchors(ordered)
    titles = shown_titles(ordered)
    toc: list[str] = []
    body: list[str] = []
    for i, (pz, anchor, shown) in enumerate(zip(ordered, anchors, titles, strict=True), 1):
        if i == 1 or ordered[i - 2].players != pz.players:
            group = f"{pz.players} players"
            if i > 1:
                toc.append("</ol>")
                body.append("</div>")
            toc += [f"<h3>{group}</h3>", f'<ol start="{i}">']
            body += [f'<div class="group" id="players-{pz.players}">', f"<h2>{group}</h2>"]
        toc.append(f'<li><a href="#{escape(anchor, quote=True)}">{escape(shown)}</a></li>')
        body.append(puzzle_html(pz, i, anchor, shown))
    toc.append("</ol>")
    body.append("</div>")
    contents = "\n".join(toc)
    sections = "\n".join(body)
    count = len(puzzles)
    return f"""{page_head(title)}
<header>
<h1>{escape(title)}</h1>
<p class="intro">{counted(count, "puzzle")} for the card game Cat in the Box, by number of
players and easiest first. All hands are shown. Each picture shows the research board (a
player's token is a disc with the seat number), the trick in progress, every hand and each
player's colors (a crossed-out color is lost). Try each question, then press <em>Show
answer</em>; in an answer, " | " ends a trick.</p>
</header>
<nav aria-label="Contents">
<h2>Contents</h2>
{contents}
</nav>
<div class="toolbar">
<button type="button" id="toggle-all" aria-expanded="false">Show all answers</button>
</div>
<main>
{sections}
</main>
<script>{_SCRIPT}</script>
</body>
</html>
"""


def write_sheet(puzzles: Sequence[Puzzle], path: str | Path, title: str = DEFAULT_TITLE) -> int:
    """Write the sheet to ``path`` as UTF-8; returns the number of bytes written."""
    if not isinstance(path, (str, Path)):
        raise CatboxError(f"the sheet's path is a file name, not {path!r}")
    data = sheet_html(puzzles, title).encode("utf-8")
    write_whole(path, data)
    return len(data)
