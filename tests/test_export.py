"""The printable puzzle sheet: one self-contained HTML page, every text escaped, answers hidden
behind buttons; ``catbox puzzle export``. (The page in a real browser: test_browser.py.)"""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from catbox_solver.cli import main
from catbox_solver.errors import CatboxError
from catbox_solver.puzzles import (
    Puzzle,
    PuzzleError,
    PuzzleFilter,
    load_puzzles,
    parse_filter,
    puzzle_from_dict,
    select_puzzles,
)
from catbox_solver.render.sheet import (
    by_trick,
    puzzle_html,
    sheet_html,
    sheet_order,
    shown_titles,
    write_sheet,
)
from catbox_solver.render.svg import position_svg

REPO = Path(__file__).resolve().parents[1]

FOUR_P = (
    "4p official | R:01213120 B:2300.332 Y:31220.32 G:31210130 | 15 46 2 3 | "
    "RBYG RG RBYG RBYG | lead 2: 8b 7b | won 2 1 3 1 | bid 2 1 3 1 | left 1"
)
TWO_P = (
    "2p official | R:..... B:..0.. Y:...N0 G:N.1N. | 1223455 11124455 | RBYG RYG | "
    "lead 0: 5y | won 1 0 | left 7"
)
NASTY = '<script>alert("x")</script> & <b>bold</b>'


def exists_puzzle(**extra: object) -> Puzzle:
    data: dict[str, object] = {
        "id": "peter",
        "title": "Peter's last trick",
        "players": 4,
        "position": FOUR_P,
        "question": "exists",
        "conditions": ["no-paradox"],
        "answer": False,
        "hint": "Look at Peter's colors.",
        "explanation": "Peter holds 4 and 6.\n\nRed and green 4 and 6 are taken.",
        "difficulty": 2,
        "tags": ["rulebook"],
    }
    data.update(extra)
    return puzzle_from_dict(data)


def safe_puzzle(**extra: object) -> Puzzle:
    data: dict[str, object] = {
        "id": "two-safe",
        "title": "Two players, stay safe",
        "players": 2,
        "position": TWO_P,
        "question": "safe",
        "answer": [],
        "difficulty": 3,
    }
    data.update(extra)
    return puzzle_from_dict(data)


class Collector(HTMLParser):
    """Every start tag with its attributes, and whether each start tag was closed."""

    VOID = {"meta", "br", "img", "input", "link", "hr", "rect", "circle", "line"}

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()


def parse(html: str) -> Collector:
    c = Collector()
    c.feed(html)
    c.close()
    assert c.stack == []
    return c


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def test_sheet_structure() -> None:
    puzzles = [exists_puzzle(), safe_puzzle()]
    html = sheet_html(puzzles, "Club night")
    assert html.startswith('<!DOCTYPE html>\n<html lang="en">')
    tags = parse(html).tags
    # (by player count: the 2-player puzzle first, though given second)
    sections = [a for t, a in tags if t == "section"]
    assert [s["id"] for s in sections] == ["puzzle-two-safe", "puzzle-peter"]
    toc = [a["href"] for t, a in tags if t == "a"]
    assert toc == ["#puzzle-two-safe", "#puzzle-peter"]
    buttons = [a for t, a in tags if t == "button" and a.get("class") == "reveal"]
    answers = [a for t, a in tags if t == "div" and a.get("class") == "answer"]
    assert [b["aria-controls"] for b in buttons] == [a["id"] for a in answers]
    assert [a["id"] for a in answers] == ["puzzle-two-safe-answer", "puzzle-peter-answer"]
    assert all("hidden" in a for a in answers)
    assert [b["aria-expanded"] for b in buttons] == ["false", "false"]
    assert "<title>Club night</title>" in html and "<h1>Club night</h1>" in html
    assert "<h3>1. Two players, stay safe</h3>" in html
    assert "<h3>2. Peter&#x27;s last trick</h3>" in html
    groups = [a["id"] for t, a in tags if t == "div" and a.get("class") == "group"]
    assert groups == ["players-2", "players-4"]
    assert '<h3>2 players</h3>\n<ol start="1">' in html
    assert '<h3>4 players</h3>\n<ol start="2">' in html
    # the puzzle file's tags are not shown (they are the files' own: "generated", ...)
    assert "★★☆☆☆</span> difficulty 2 of 5 · 4 players · rules: official</p>" in html
    assert "tags:" not in html and "rulebook" not in html


def test_sheet_content_per_puzzle() -> None:
    peter, safe = exists_puzzle(), safe_puzzle()
    html = sheet_html([peter, safe])
    # the exists question marks no hero; a play question marks the seat it asks about
    assert f"<figure>{position_svg(peter.position)}</figure>" in html
    assert f"<figure>{position_svg(safe.position, hero=1)}</figure>" in html
    assert (
        '<p class="question">Is there any way to finish the round (everyone cooperating) '
        "with no paradox?</p>"
    ) in html
    assert '<p class="verdict">No.</p>' in html
    assert '<p class="verdict">No play keeps you safe.</p>' in html
    assert "<p>Peter holds 4 and 6.</p><p>Red and green 4 and 6 are taken.</p>" in html
    assert "<summary>Hint</summary><p>Look at Peter&#x27;s colors.</p>" in html
    # no hint, no hint box
    assert html.count('<details class="hint">') == 1
    assert "<code>" + TWO_P + "</code>" in html


def test_every_text_is_escaped() -> None:
    pz = exists_puzzle(title=NASTY, hint=NASTY, explanation=NASTY, tags=[NASTY])
    html = sheet_html([pz], NASTY)
    assert "alert" in html
    assert "<script>alert" not in html and "<b>bold" not in html
    escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;"
    # page title and heading, puzzle heading, contents, hint, explanation (tags: not shown)
    assert html.count(escaped) == 6
    # exactly the two scripts of the page itself
    assert html.count("<script>") == 2
    parse(html)


def test_sheet_needs_no_network() -> None:
    html = sheet_html([exists_puzzle(), safe_puzzle()])
    assert re.findall(r"https?://[^\"'\s]*", html) == ["http://www.w3.org/2000/svg"] * 2
    tags = parse(html).tags
    assert not [a for t, a in tags if "src" in a]
    assert all(a["href"] is not None and a["href"].startswith("#") for t, a in tags if "href" in a)
    for forbidden in ("url(", "@import", "<link", "<img", "<iframe"):
        assert forbidden not in html
    csp = [a["content"] for t, a in tags if a.get("http-equiv") == "Content-Security-Policy"]
    assert csp == [
        "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    ]
    assert "@media print" in html


def test_sheet_is_deterministic_and_anchors_unique() -> None:
    puzzles = [exists_puzzle(), exists_puzzle(title="Again")]
    html = sheet_html(puzzles)
    assert sheet_html(puzzles) == html
    ids = [a["id"] for t, a in parse(html).tags if t == "section"]
    assert ids == ["puzzle-peter", "puzzle-peter-2"]


def test_no_puzzles_is_an_error() -> None:
    with pytest.raises(CatboxError, match="no puzzles to export"):
        sheet_html([])


def test_write_sheet(tmp_path: Path) -> None:
    out = tmp_path / "sheet.html"
    size = write_sheet([safe_puzzle()], out)
    data = out.read_bytes()
    assert size == len(data)
    assert data.decode("utf-8") == sheet_html([safe_puzzle()])


# ---- catbox puzzle export --------------------------------------------------------------------

PUZZLE_TOML = """id = "two-safe"
title = "Two players, stay safe"
players = 2
position = "{pos}"
question = "safe"
answer = []
"""


def test_export_command(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(PUZZLE_TOML.format(pos=TWO_P), encoding="utf-8")
    out = tmp_path / "sheet.html"
    result = run("puzzle", "export", str(tmp_path), "-o", str(out), "--title", "Week 3")
    assert result.exit_code == 0
    assert result.output == f"wrote {out}: 1 puzzle, {out.stat().st_size} bytes\n"
    loaded = load_puzzles(tmp_path)
    assert out.read_text(encoding="utf-8") == sheet_html(loaded, "Week 3")
    result = run("puzzle", "export", str(tmp_path / "a.toml"))
    assert result.exit_code == 0
    assert result.output == sheet_html(loaded)


def test_export_checks_the_stored_answers_first(tmp_path: Path) -> None:
    """A wrong stored answer went onto the sheet without a word (exit 0), while `puzzle
    solve` exits 1 on it: now nothing is written, unless --no-check."""
    (tmp_path / "a.toml").write_text(
        PUZZLE_TOML.format(pos=TWO_P).replace("answer = []", 'answer = ["5g"]'),
        encoding="utf-8",
    )
    out = tmp_path / "sheet.html"
    result = run("puzzle", "export", str(tmp_path), "-o", str(out))
    assert result.exit_code == 1 and not out.exists()
    assert result.output == (
        "error: 1 of 1 stored answer wrong: two-safe (stored answer 5g, solver says none); "
        "nothing written (--no-check exports them as they are)\n"
    )
    result = run("puzzle", "export", str(tmp_path), "-o", str(out), "--no-check")
    assert result.exit_code == 0 and "Only 5g keeps you safe" in out.read_text("utf-8")
    out.unlink()
    result = run("puzzle", "export", str(tmp_path), "-o", str(out), "--timeout", "0")
    assert result.exit_code == 3 and not out.exists()
    assert result.output.startswith("error: 1 of 1 puzzle not checked within --timeout: "
                                    "two-safe; nothing written")

def test_export_errors_are_one_line(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text('id = "x"\n', encoding="utf-8")
    for args, fragment in (
        (("puzzle", "export", str(tmp_path / "missing")), "no such file or directory"),
        (("puzzle", "export", str(tmp_path)), "field 'title' is missing"),
    ):
        result = run(*args)
        assert result.exit_code == 2
        assert result.output.startswith("error: ") and fragment in result.output
        assert len(result.output.strip().splitlines()) == 1


def test_export_help_has_an_example() -> None:
    result = run("puzzle", "export", "--help")
    assert result.exit_code == 0
    assert "catbox puzzle export puzzles/ -o sheet.html" in result.output


def test_the_repository_puzzles_export() -> None:
    puzzles = load_puzzles(REPO / "puzzles")
    html = sheet_html(puzzles)
    sections = [a for t, a in parse(html).tags if t == "section"]
    assert [s["id"] for s in sections] == [f"puzzle-{p.id}" for p in sheet_order(puzzles)]
    assert sorted(str(s["id"]) for s in sections) == sorted(f"puzzle-{p.id}" for p in puzzles)


def _visible(html: str) -> str:
    """The sheet's text a pupil reads: no pictures, no notation, no markup."""
    html = re.sub(r"<svg.*?</svg>|<code>.*?</code>|<style>.*?</style>|<script>.*?</script>",
                  "", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def test_the_collection_sheet_is_for_pupils() -> None:
    """Sorted by difficulty within each player count; no title twice; no tags of the
    files; no rulebook figure numbers (pupils do not have the rulebook)."""
    puzzles = load_puzzles(REPO / "puzzles")
    ordered = sheet_order(puzzles)
    keys = [(p.players, p.difficulty) for p in ordered]
    assert keys == sorted(keys) and len(ordered) == len(puzzles)
    titles = shown_titles(ordered)
    assert len({t.casefold() for t in titles}) == len(titles) == len(puzzles)
    assert not [t for t in titles if re.search(r"\(\d players\)", t)]
    html = sheet_html(puzzles)
    headings = re.findall(r"<h3>(\d+)\. ([^<]*)</h3>", html)
    assert [int(n) for n, _ in headings] == list(range(1, len(puzzles) + 1))
    assert [unescape(h) for _, h in headings] == titles
    text = _visible(html)
    assert not re.search(r"(?i)\bfig(ure|\.)? ?\d", text)
    assert "generated" not in text and "tags" not in text and "figure-3" not in text


def test_shown_titles() -> None:
    a = exists_puzzle(title="The empty square (4 players)")
    b = exists_puzzle(title="The empty square (4 players)")
    c = exists_puzzle(title="the empty square")
    d = exists_puzzle(title="Shut the door (2 players)")  # (not its count: kept)
    e = exists_puzzle(title=" (4 players)")
    assert shown_titles([a, b, c, d, e]) == [
        "The empty square", "The empty square II", "the empty square III",
        "Shut the door (2 players)", "(4 players)",
    ]


def test_answers_are_broken_by_trick() -> None:
    """A line of plays in an explanation is broken by trick where it replays from the
    puzzle's position (12 plays in a row could not be read)."""
    pz = next(p for p in load_puzzles(REPO / "puzzles") if p.id == "red-lead-4p-5922fbdd")
    assert pz.explanation.startswith("4b is the only safe play: after 4b 2r 6r 1r 3r 5r 6y "
                                     "4r 8r 1y 2y 7r the round ends")
    assert by_trick(pz.explanation, pz.position).startswith(
        "4b is the only safe play: after 4b 2r 6r 1r | 3r 5r 6y 4r | 8r 1y 2y 7r the round "
        "ends")
    html = puzzle_html(pz, 1, "a")
    assert "after 4b 2r 6r 1r | 3r 5r 6y 4r | 8r 1y 2y 7r the round ends" in html
    # not a line from here: left as it is (an illegal play, a value too high, one play)
    assert by_trick("then 5r 5r and 9r 1r, 4b", pz.position) == "then 5r 5r and 9r 1r, 4b"
    two = safe_puzzle()  # (mid-trick: the first play ends the trick)
    assert by_trick("after 1r 2r 1b x", two.position) == "after 1r | 2r 1b x"


# ---- picking puzzles ---------------------------------------------------------------------


def test_select_puzzles() -> None:
    puzzles = load_puzzles(REPO / "puzzles")

    def ids(*filters: str) -> list[str]:
        return [p.id for p in select_puzzles(puzzles, list(filters))]

    assert ids() == [p.id for p in puzzles]
    assert ids("players=2") == [p.id for p in puzzles if p.players == 2]
    assert ids("players=2,5") == [p.id for p in puzzles if p.players in (2, 5)]
    assert ids("players!=2,5") == [p.id for p in puzzles if p.players in (3, 4)]
    assert ids("players=4", "difficulty<=2") == [
        p.id for p in puzzles if p.players == 4 and p.difficulty <= 2]
    assert ids("difficulty>3") == [p.id for p in puzzles if p.difficulty > 3]
    assert ids("difficulty >= 3") == [p.id for p in puzzles if p.difficulty >= 3]
    assert ids("difficulty<2") == [p.id for p in puzzles if p.difficulty < 2]
    assert ids("tag=exception") == [p.id for p in puzzles if "exception" in p.tags]
    assert ids("tag=figure-*") == [p.id for p in puzzles if p.id.startswith("fig-")]
    assert ids("question!=exists,safe") == [
        p.id for p in puzzles if p.question not in ("exists", "safe")]
    assert ids("id=fig-3-7-*") == ["fig-3-7-make-peter-paradox", "fig-3-7-peter-paradox"]
    assert parse_filter(" players = 3 ") == PuzzleFilter("players", "=", ("3",))


@pytest.mark.parametrize(("text", "message"), [
    ("colour=red", "filter 'colour=red': unknown field 'colour' (one of players, difficulty, "
                   "question, tag, id)"),
    ("players", "filter 'players': not FIELD=VALUE (like 'players=4', 'difficulty<=2', "
                "'tag=red-lead')"),
    ("players=four", "filter 'players=four': players is a whole number"),
    ("players=", "filter 'players=': a value is missing"),
    ("players<=2,3", "filter 'players<=2,3': <= takes one number"),
    ("tag<=x", "filter 'tag<=x': tag is compared with = or != only"),
])
def test_bad_filters_are_named(text: str, message: str) -> None:
    with pytest.raises(PuzzleError) as err:
        parse_filter(text)
    assert str(err.value) == message
    result = run("puzzle", "export", str(REPO / "puzzles"), "--filter", text, "--no-check")
    assert (result.exit_code, result.output) == (2, f"error: {message}\n")


def test_export_filter(tmp_path: Path) -> None:
    out = tmp_path / "sheet.html"
    result = run("puzzle", "export", str(REPO / "puzzles"), "--filter", "players=2",
                 "--filter", "difficulty<=1", "--filter", "question=exists", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"wrote {out}: 3 puzzles, ")
    html = out.read_text("utf-8")
    assert [a["id"] for t, a in parse(html).tags if t == "section"] == [
        "puzzle-empty-square-blue-4", "puzzle-empty-square-green-5",
        "puzzle-empty-square-yellow-2",
    ]
    result = run("puzzle", "export", str(REPO / "puzzles"), "--filter", "players=2",
                 "--filter", "difficulty=5", "--no-check")
    assert (result.exit_code, result.output) == (2, (
        f"error: {REPO / 'puzzles'}: no puzzle passes --filter players=2 --filter "
        "difficulty=5\n"))
