"""An analysis as one self-contained HTML page, in the puzzle sheet's style
(:mod:`catbox_solver.render.sheet`): the summary per seat, the game trick by trick with each
play's mark, and for each losing play its board as SVG (:func:`catbox_solver.render.svg.
position_svg`), the better play with its line and the line that refutes the play made.

Nothing is loaded from elsewhere (the same Content-Security-Policy as the sheet); marks
are words and chess signs (?? ? ?!), never color alone; all text is escaped.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from catbox_solver.annotate.analysis import LOSING, MARKS, THRESHOLDS, Analysis, PlayNote
from catbox_solver.annotate.text import (
    QUESTION_WORDS,
    line_text,
    value_text,
    verdict_text,
)
from catbox_solver.errors import CatboxError
from catbox_solver.formats.files import write_whole
from catbox_solver.formats.notation import position_to_notation
from catbox_solver.render.sheet import page_head
from catbox_solver.render.svg import position_svg

SIGNS = {"blunder": "??", "mistake": "?", "inaccuracy": "?!", "best": "", "only": "",
         "unknown": "(?)"}

_MORE_CSS = """
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #bbbbbb; padding: 0.2em 0.6em; text-align: right; }
td.plays { text-align: left; }
.play { margin-right: 0.7em; white-space: nowrap; }
.play.blunder, .play.mistake { font-weight: bold; text-decoration: underline; }
.play.inaccuracy, .play.unknown { text-decoration: underline dotted; }
.mistakes section { border-top: 2px solid #1a1a1a; padding-top: 0.8em; margin-top: 2em; }
.line { font-family: monospace; overflow-wrap: anywhere; }
@media print { .mistakes section { break-inside: avoid; page-break-inside: avoid; } }
"""

_SCRIPT = "window.sheetReady = true;"


def _anchor(n: PlayNote) -> str:
    return f"r{n.round}-t{n.trick}-s{n.seat}"


def _play_span(n: PlayNote, question: str) -> str:
    label = f"{n.seat}:{n.play.text}{SIGNS[n.mark]}"
    title = escape(verdict_text(question, n), quote=True)
    inner = escape(label)
    if n.mark in LOSING:
        inner = f'<a href="#{_anchor(n)}">{inner}</a>'
    return f'<span class="play {n.mark}" title="{title}">{inner}</span>'


def _summary_table(a: Analysis) -> str:
    extra = {"paradox": "avoidable paradoxes", "tricks": "tricks given away",
             "score": "points given away"}[a.question]
    heads = ["seat", *MARKS, extra] + (["excused"] if a.hidden else [])
    rows = ["<tr>" + "".join(f"<th>{escape(h)}</th>" for h in heads) + "</tr>"]
    for s in a.summary():
        last = s.avoidable_paradoxes if a.question == "paradox" else s.given_away
        cells = [f"{s.seat}" if s.name is None else f"{s.seat} {s.name}",
                 *(str(s.marks[m]) for m in MARKS), str(last)]
        if a.hidden:
            cells.append(str(s.excused))
        rows.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
    return '<table class="summary">' + "".join(rows) + "</table>"


def _game(a: Analysis) -> str:
    parts = []
    rounds = sorted({n.round for n in a.notes})
    for r in rounds:
        mine = [n for n in a.notes if n.round == r]
        rows = []
        for t in sorted({n.trick for n in mine}):
            spans = " ".join(_play_span(n, a.question) for n in mine if n.trick == t)
            rows.append(f'<tr><th>trick {t}</th><td class="plays">{spans}</td></tr>')
        parts.append(f'<h3 id="round-{r}">Round {r}</h3><table class="round">'
                     + "".join(rows) + "</table>")
    return "\n".join(parts)


def _mistake(a: Analysis, n: PlayNote) -> str:
    q = a.question
    parts = [
        f'<section class="mistake {n.mark}" id="{_anchor(n)}">',
        f"<h3>Round {n.round}, trick {n.trick}: seat {n.seat} played "
        f"{escape(n.play.text)}{SIGNS[n.mark]} — {n.mark}</h3>",
        f"<figure>{position_svg(n.position, hero=n.seat)}</figure>",
        f'<p class="verdict">{escape(verdict_text(q, n))}</p>',
    ]
    if n.better and n.best:
        parts.append(f'<p>Better: <strong>{escape(" ".join(p.text for p in n.best))}</strong> '
                     f'({escape(value_text(q, n.value_best, n.bounds_best))}): '
                     f'<span class="line better">{escape(line_text(n.position, n.better))}'
                     "</span></p>")
    if n.line:
        parts.append(f"<p>After {escape(n.play.text)} "
                     f"({escape(value_text(q, n.value_played, n.bounds_played))}): "
                     f'<span class="line refutation">{escape(line_text(n.position, n.line))}'
                     "</span></p>")
    h = n.hidden
    if h is not None and h.share_played is not None and h.share_best is not None:
        unit = "share of deals safe" if q == "paradox" else "mean"
        excuse = " — the best bet: no mistake of the player" if h.mark == "best" else ""
        parts.append(
            f'<p class="hidden">Seen from its own hand ({h.deals} deals, '
            f'{"every deal" if h.exact else "sampled"}): {escape(h.mark)}{excuse}; {unit} '
            f"{float(h.share_played):.2f} for {escape(n.play.text)}, "
            f"{float(h.share_best):.2f} for {escape(' '.join(p.text for p in h.best))}.</p>")
    parts.append('<details class="notation"><summary>Position in notation</summary>'
                 f"<code>{escape(position_to_notation(n.position))}</code></details>")
    parts.append("</section>")
    return "\n".join(parts)


def analysis_html(a: Analysis, title: str | None = None) -> str:
    """The whole page (text)."""
    if not isinstance(a, Analysis):
        raise CatboxError(f"an Analysis is needed, not {type(a).__name__}")
    rules = a.record.rules
    title = title or f"Game analysis: {rules.players} players, question {a.question}"
    losing = [n for n in a.notes if n.mark in LOSING]
    inacc, mistake, blunder = THRESHOLDS[a.question]
    if a.question == "paradox":
        marks = ("A blunder (??) is a play after which the mover can no longer be sure to "
                 "avoid a paradox, from a position where it could.")
    else:
        unit = "trick points" if a.question == "tricks" else "points"
        marks = (f"A play losing {blunder} {unit} or more is a blunder (??), {mistake} or "
                 f"more a mistake (?), {inacc} or more an inaccuracy (?!).")
    toc = "\n".join(
        f'<li><a href="#{_anchor(n)}">Round {n.round}, trick {n.trick}: seat {n.seat} '
        f"{escape(n.play.text)}{SIGNS[n.mark]}</a></li>" for n in losing)
    stopped = "" if a.complete else (
        f"<p><strong>Stopped after {len(a.notes)} of {a.total} plays.</strong></p>")
    invalid = "" if a.verdict.valid else (
        f"<p><strong>The record is not valid: {escape(str(a.verdict))}</strong></p>")
    sections = "\n".join(_mistake(a, n) for n in losing)
    return f"""{page_head(title, _MORE_CSS)}
<header>
<h1>{escape(title)}</h1>
<p class="intro">Each play of the game judged by the exact search with every hand open,
the player who made it against all the others: {escape(QUESTION_WORDS[a.question])}
{escape(marks)} A play is <em>best</em> when it is worth the most, <em>only</em> when every
legal play is worth the same, and <em>unknown (?)</em> when the time limit left its mark
open. {len(a.notes)} of {a.total} plays analysed.</p>
{stopped}{invalid}
</header>
<h2>Summary</h2>
{_summary_table(a)}
<nav aria-label="Contents">
<h2>Losing plays</h2>
<ol>
{toc}
</ol>
</nav>
<h2>The game</h2>
{_game(a)}
<main class="mistakes">
{sections}
</main>
<script>{_SCRIPT}</script>
</body>
</html>
"""


def write_analysis_html(a: Analysis, path: str | Path, title: str | None = None) -> int:
    """Write the page to ``path`` as UTF-8; returns the number of bytes written."""
    data = analysis_html(a, title).encode("utf-8")
    write_whole(path, data)
    return len(data)
