"""A printable puzzle sheet: one self-contained HTML page with every puzzle.

For a teacher to print or share: each puzzle shows its picture (inline SVG, see
:mod:`catbox_solver.render.svg`), title, difficulty, question, a hint to unfold and a "Show answer"
button revealing the answer and the explanation. The page needs no network: the style, the
pictures and the few lines of script are all inline, and a Content-Security-Policy forbids
loading anything else. With ``@media print`` the buttons disappear, each puzzle stays on one
page and only the hints and answers opened on screen are printed (so "Show all answers" then
print gives an answer key). All text from puzzle files is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from pathlib import Path

from catbox_solver.errors import CatboxError
from catbox_solver.formats.files import write_whole
from catbox_solver.formats.notation import position_to_notation
from catbox_solver.model.numbers import counted, is_whole
from catbox_solver.puzzles import Puzzle
from catbox_solver.render.svg import position_svg

__all__ = ["DEFAULT_TITLE", "puzzle_html", "sheet_html", "write_sheet"]

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
nav ol { columns: 2; }
.toolbar { margin: 1em 0; }
.puzzle { border-top: 2px solid #1a1a1a; padding-top: 0.8em; margin-top: 2em; }
.puzzle h2 { margin: 0 0 0.2em 0; }
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
  body { max-width: none; padding: 0; }
  nav, .toolbar, button, details.notation, details.hint:not([open]) { display: none; }
  .puzzle { break-inside: avoid; page-break-inside: avoid; }
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


def _paragraphs(text: str) -> str:
    """Plain text as escaped HTML paragraphs (a blank line starts a new paragraph)."""
    paras = [" ".join(p.split()) for p in text.strip().split("\n\n")]
    return "".join(f"<p>{escape(p)}</p>" for p in paras if p)


def _stars(difficulty: int) -> str:
    level = max(0, min(5, difficulty))
    return "★" * level + "☆" * (5 - level)


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


def puzzle_html(puzzle: Puzzle, number: int, anchor: str) -> str:
    """One puzzle as an HTML ``<section>``: picture, question, hint and hidden answer."""
    if not isinstance(puzzle, Puzzle):
        raise CatboxError(f"a Puzzle is needed, not {type(puzzle).__name__}")
    if not isinstance(anchor, str) or not is_whole(number):
        raise CatboxError(f"a puzzle's number and anchor are a whole number and text, not "
                          f"{number!r} and {anchor!r}")
    pos = puzzle.position
    hero = puzzle.hero if puzzle.question == "exists" else puzzle.seat
    rules = pos.rules
    meta = [
        f'<span class="stars" aria-hidden="true">{_stars(puzzle.difficulty)}</span> '
        f"difficulty {puzzle.difficulty} of 5",
        f"{rules.players} players",
        f"rules: {escape(rules.name)}",
    ]
    if puzzle.tags:
        meta.append("tags: " + escape(", ".join(puzzle.tags)))
    answer_id = f"{anchor}-answer"
    parts = [
        f'<section class="puzzle" id="{escape(anchor, quote=True)}">',
        f"<h2>{number}. {escape(puzzle.title)}</h2>",
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
        _paragraphs(puzzle.explanation),
        "</div>",
        '<details class="notation"><summary>Position in notation</summary>'
        f"<code>{escape(position_to_notation(pos))}</code></details>",
        "</section>",
    ]
    return "\n".join(parts)


def sheet_html(puzzles: Sequence[Puzzle], title: str = DEFAULT_TITLE) -> str:
    """The whole sheet as one HTML page (text): title, table of contents, every puzzle."""
    if not isinstance(puzzles, Sequence) or isinstance(puzzles, str):
        raise CatboxError(f"the puzzles to export are a list of Puzzles, not {puzzles!r}")
    if not puzzles:
        raise CatboxError("no puzzles to export")
    for i, pz in enumerate(puzzles, 1):
        if not isinstance(pz, Puzzle):
            raise CatboxError(f"puzzle {i} to export is not a Puzzle but {type(pz).__name__}")
    if not isinstance(title, str):
        raise CatboxError(f"the sheet's title is text, not {title!r}")
    anchors = _anchors(puzzles)
    toc = "\n".join(
        f'<li><a href="#{escape(a, quote=True)}">{escape(pz.title)}</a></li>'
        for pz, a in zip(puzzles, anchors, strict=True)
    )
    count = len(puzzles)
    sections = "\n".join(
        puzzle_html(pz, i, a) for i, (pz, a) in enumerate(zip(puzzles, anchors, strict=True), 1)
    )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<script>{_ERROR_HOOK}</script>
<style>{_CSS}</style>
</head>
<body>
<header>
<h1>{escape(title)}</h1>
<p class="intro">{counted(count, "puzzle")} for the card game Cat in the Box.
All hands are shown. Each picture shows the research board (a player's token is a disc
with the seat number), the trick in progress, every hand and each player's colors (a
crossed-out color is lost). Try each question, then press <em>Show answer</em>.</p>
</header>
<nav aria-label="Contents">
<h2>Contents</h2>
<ol>
{toc}
</ol>
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
