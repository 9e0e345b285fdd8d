"""Write the example pictures of the docs: docs/img/*.svg and docs/examples.md.

- ``docs/img/<name>.svg`` for the positions of :data:`EXAMPLES` (shown in docs/pictures.md);
- ``docs/img/puzzle-<id>.svg`` and ``docs/examples.md`` for every puzzle in ``puzzles/``.

Run from the repository root: ``python scripts/make_pictures.py``. tests/test_svg.py checks
that the pictures in docs/img are what this script writes today.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from catbox_solver.formats.notation import position_from_notation, position_to_notation
from catbox_solver.puzzles import Puzzle, load_puzzles
from catbox_solver.render.svg import position_svg

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
IMG = DOCS / "img"

#: name -> (position in notation, what it shows)
EXAMPLES: dict[str, tuple[str, str]] = {
    "four-players": (
        "4p official | R:.1....3. B:.....0.2 Y:........ G:......3. | "
        "11345578 23334558 11224678 3445667 | RBYG RYG RBYG RYG | lead 3: 7g | won 0 0 0 1 | "
        "bid 3 1 1 3 | left 7",
        "4 players, trick 2: seat 3 led 7 green; seats 1 and 3 have lost blue; column 9 is "
        "covered.",
    ),
    "two-players": (
        "2p official | R:..... B:..0.. Y:...N0 G:N.1N. | 1223455 11124455 | RBYG RYG | "
        "lead 0: 5y | won 1 0 | left 7",
        "2 players: three neutral tokens (N) from the revealed leftovers, column 6 covered, "
        "the bonus needs at most 4 tricks.",
    ),
    "paradox": (
        "3p must-follow,row_order=GYBR | G:100211 Y:021120 B:200201 R:2.2201 | 3 15 4 | "
        "RBY RBYG RBY | lead 2: 1b 2b | won 1 4 2 | bid 1 3 1 | left 1",
        "A paradox: seat 1 has no legal play; the trick is interrupted and the scores are "
        "shown (rows in the order green, yellow, blue, red of this ruleset).",
    ),
    "round-over": (
        "2p official | R:10110 B:.1010 Y:N1100 G:NN010 | 5 3 | RBYG RBY | lead 0 | won 6 2 | "
        "left 0",
        "A finished round: every seat's score as trick points plus bonus.",
    ),
}

EXAMPLES_INTRO = """# Example puzzles

Puzzles from [`puzzles/`](../puzzles/) with their pictures: every hand-made one (rulebook
figures and rule readings, the red-lead exception's among them), then the first puzzle of
each theme of `catbox puzzle generate` (the two `best-tricks` puzzles are tagged
`generated` too, but were found by a search of their own: the generator has no such theme).
Each is a TOML file ([docs/puzzles.md](puzzles.md)); `catbox puzzle solve puzzles/` checks
every stored answer against the solver, and `catbox puzzle export puzzles/ -o sheet.html`
makes the printable sheet of all of them, with a "Show answer" button per puzzle
([docs/pictures.md](pictures.md)). How to read a picture: [docs/pictures.md](pictures.md).

This page is written by `python scripts/make_pictures.py`.
"""


def _stars(level: int) -> str:
    return "★" * level + "☆" * (5 - level)


def _markdown_text(text: str) -> str:
    """Puzzle text for Markdown: paragraphs kept, characters that start markup escaped."""
    out = []
    for para in text.strip().split("\n\n"):
        line = " ".join(para.split())
        for ch in "\\`*_[]<>|":
            line = line.replace(ch, "\\" + ch)
        out.append(line)
    return "\n\n".join(out)


def puzzle_section(number: int, pz: Puzzle) -> str:
    """One puzzle of docs/examples.md."""
    source = pz.path.name if pz.path is not None else f"{pz.id}.toml"
    lines = [
        f"## {number}. {_markdown_text(pz.title)}",
        "",
        f"{_stars(pz.difficulty)} difficulty {pz.difficulty} of 5 · {pz.players} players · "
        f"rules `{pz.ruleset}` · file [`puzzles/{source}`](../puzzles/{source})",
        "",
        f"![{_markdown_text(pz.title)}](img/puzzle-{pz.id}.svg)",
        "",
        "```",
        position_to_notation(pz.position),
        "```",
        "",
        f"**{_markdown_text(pz.question_text())}**",
        "",
    ]
    if pz.hint:
        lines += [f"*Hint:* {_markdown_text(pz.hint)}", ""]
    lines += [
        "<details><summary>Answer</summary>",
        "",
        f"**{_markdown_text(pz.answer_text())}**",
        "",
    ]
    if pz.explanation:
        lines += [_markdown_text(pz.explanation), ""]
    lines += ["</details>", ""]
    return "\n".join(lines)


_GENERATED = re.compile(r"^(?P<theme>.+)-[2-5]p-[0-9a-f]{8}$")


def chosen_puzzles(puzzles: list[Puzzle]) -> list[Puzzle]:
    """The puzzles docs/examples.md shows: the hand-made ones (ids without the generator's
    ``-<players>p-<hash>`` ending), then the first generated puzzle of each theme."""
    made = [pz for pz in puzzles if not _GENERATED.match(pz.id)]
    first: dict[str, Puzzle] = {}
    for pz in puzzles:
        match = _GENERATED.match(pz.id)
        if match is not None:
            first.setdefault(match["theme"], pz)
    return made + list(first.values())


def example_pictures() -> dict[str, str]:
    """File name in docs/img -> SVG text, for the fixed examples."""
    return {
        f"{name}.svg": position_svg(position_from_notation(text))
        for name, (text, _) in EXAMPLES.items()
    }


def puzzle_pictures(puzzles: list[Puzzle]) -> dict[str, str]:
    """File name in docs/img -> SVG text, for the puzzles."""
    return {
        f"puzzle-{pz.id}.svg": position_svg(
            pz.position, hero=pz.hero if pz.question == "exists" else pz.seat
        )
        for pz in puzzles
    }


def examples_page(puzzles: list[Puzzle]) -> str:
    sections = [puzzle_section(i, pz) for i, pz in enumerate(puzzles, start=1)]
    return EXAMPLES_INTRO + "\n" + "\n".join(sections)


def main() -> int:
    IMG.mkdir(parents=True, exist_ok=True)
    puzzles = chosen_puzzles(load_puzzles(ROOT / "puzzles"))
    for old in IMG.glob("puzzle-*.svg"):
        old.unlink()
    files = {**example_pictures(), **puzzle_pictures(puzzles)}
    for name, svg in files.items():
        (IMG / name).write_text(svg, encoding="utf-8")
    (DOCS / "examples.md").write_text(examples_page(puzzles), encoding="utf-8")
    print(f"wrote {len(files)} pictures in {IMG} and {DOCS / 'examples.md'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
