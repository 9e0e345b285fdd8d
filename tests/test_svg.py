"""The SVG picture of a position: valid XML, self-contained, deterministic, and showing exactly
the board, trick, hands, colors and status of the position; ``catbox render``."""

from __future__ import annotations

import hashlib
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st
from oracles.gen import random_line, start_position
from script_loader import load_script

from catbox_solver.cli import main
from catbox_solver.errors import PositionError
from catbox_solver.formats.notation import position_from_notation
from catbox_solver.model.position import Position
from catbox_solver.model.rules import Ruleset
from catbox_solver.puzzles import load_puzzles
from catbox_solver.render.svg import NEUTRAL_COLOR, SEAT_COLORS, _text, position_svg

NS = "{http://www.w3.org/2000/svg}"

FOUR_P = (
    "4p official | R:.1....3. B:.....0.2 Y:........ G:......3. | "
    "11345578 23334558 11224678 3445667 | RBYG RYG RBYG RYG | lead 3: 7g | won 0 0 0 1 | "
    "bid 3 1 1 3 | left 7"
)
TWO_P = (
    "2p official | R:..... B:..0.. Y:...N0 G:N.1N. | 1223455 11124455 | RBYG RYG | "
    "lead 0: 5y | won 1 0 | left 7"
)
PARADOX = (
    "3p must-follow,row_order=GYBR | G:100211 Y:021120 B:200201 R:2.2201 | 3 15 4 | "
    "RBY RBYG RBY | lead 2: 1b 2b | won 1 4 2 | bid 1 3 1 | left 1"
)
FINISHED = (
    "2p official | R:10110 B:.1010 Y:N1100 G:NN010 | 5 3 | RBYG RBY | lead 0 | won 6 2 | left 0"
)
ALL = (FOUR_P, TWO_P, PARADOX, FINISHED)

# board geometry: column v, row r (in row order) has its centre here
BOARD_X0, BOARD_Y0, CELL = 80, 98, 40


def tree(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{NS}text")]


def board_tokens(root: ET.Element) -> dict[tuple[int, int], str]:
    """Centre of every board token -> 'seat N' or 'neutral', read from the drawing."""
    out: dict[tuple[int, int], str] = {}
    for c in root.iter(f"{NS}circle"):
        x, y = int(c.get("cx", "0")), int(c.get("cy", "0"))
        if y >= BOARD_Y0 - CELL // 2 and y < BOARD_Y0 + 4 * CELL - CELL // 2 and x >= 60:
            out[(x, y)] = f"seat {SEAT_COLORS.index(c.get('fill', ''))}"
    for r in root.iter(f"{NS}rect"):
        if r.get("fill") == NEUTRAL_COLOR:
            x, y = int(r.get("x", "0")), int(r.get("y", "0"))
            if BOARD_Y0 - CELL // 2 <= y < BOARD_Y0 + 4 * CELL - CELL // 2:
                out[(x + 13, y + 13)] = "neutral"
    return out


def expected_tokens(pos: Position) -> dict[tuple[int, int], str]:
    out = {}
    for row, ch in enumerate(pos.rules.row_order):
        color = "RBYG".index(ch)
        for v in range(1, pos.rules.values + 1):
            owner = pos.owner_of(v, color)
            if owner is not None:
                where = (BOARD_X0 + CELL * (v - 1), BOARD_Y0 + CELL * row)
                out[where] = "neutral" if owner == -1 else f"seat {owner}"
    return out


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


# ---- the file itself -------------------------------------------------------------------------


def test_every_example_is_valid_self_contained_svg() -> None:
    for text in ALL:
        svg = position_svg(position_from_notation(text))
        root = tree(svg)
        assert root.tag == f"{NS}svg"
        assert root.get("font-family") == "sans-serif"
        # nothing loaded from elsewhere, no ids or style sheet to clash inside an HTML page
        for forbidden in ("href", "<image", "url(", "@import", "<style", " id=", "<script"):
            assert forbidden not in svg
        assert re.findall(r"https?://[^\"]*", svg) == ["http://www.w3.org/2000/svg"]


def test_output_is_deterministic_and_pinned() -> None:
    pos = position_from_notation(FOUR_P)
    first = position_svg(pos)
    assert position_svg(position_from_notation(FOUR_P)) == first
    assert pos._repr_svg_() == first
    assert first.startswith(
        '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="720" height="486" '
        'viewBox="0 0 720 486" role="img" aria-label="Cat in the Box, 4 players, ruleset '
        "official. Seat 0 to move. Trick so far: seat 3 7g. Hands: seat 0: 1 1 3 4 5 5 7 8; "
    )
    # seat 1's token on red 2: an orange disc with its seat number
    assert (
        '<circle cx="120" cy="98" r="14" fill="#e66101" stroke="#1a1a1a" stroke-width="1.5"/>\n'
        '<text x="120" y="105" font-size="18" fill="#ffffff" font-weight="bold" '
        'text-anchor="middle">1</text>'
    ) in first
    assert hashlib.sha256(first.encode()).hexdigest() == (
        "e2540028984ccfec48ebde8c391c14ccb7d7e838707a5a18f8aa62e4d9fd3f1d"
    )


def test_size_scales_the_picture_not_the_drawing() -> None:
    pos = position_from_notation(FOUR_P)
    root = tree(position_svg(pos, 360))
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == (
        "360",
        "243",
        "0 0 720 486",
    )
    assert position_svg(pos, 720) == position_svg(pos)


def test_bad_size_or_hero_is_a_position_error() -> None:
    pos = position_from_notation(TWO_P)
    calls: tuple[Callable[[], str], ...] = (
        lambda: position_svg(pos, 0), lambda: position_svg(pos, hero=2)
    )
    for call in calls:
        try:
            call()
        except PositionError as exc:
            assert "size" in str(exc) or "hero seat 2" in str(exc)
        else:
            raise AssertionError("no error")


def test_text_is_escaped() -> None:
    assert _text(1, 2, '<b>&"x"') == (
        '<text x="1" y="2" font-size="12">&lt;b&gt;&amp;&quot;x&quot;</text>'
    )


# ---- what the picture shows ------------------------------------------------------------------


def test_four_player_picture() -> None:
    root = tree(position_svg(position_from_notation(FOUR_P)))
    words = texts(root)
    assert words[:2] == ["Seat 0 to move", "4 players · official"]
    assert board_tokens(root) == {
        (120, 98): "seat 1",
        (320, 98): "seat 3",
        (280, 138): "seat 0",
        (360, 138): "seat 2",
        (320, 218): "seat 3",
    }
    # column numbers 1..9, the 9th covered
    assert words[words.index("Research board") + 1 : words.index("Research board") + 10] == [
        str(v) for v in range(1, 10)
    ]
    assert "covered" in words
    # row labels in row order
    assert [w for w in words if w in ("R", "B", "Y", "G")][:4] == ["R", "B", "Y", "G"]
    # the trick: seat 3 led 7 green, which is winning
    assert "Trick 2 of 8" in words
    assert ["seat 3", "green", "7", "led", "winning"] == words[
        words.index("seat 3") : words.index("seat 3") + 5
    ]
    assert "led color: green" in words and "red is broken" in words
    assert "◀ to move" in words


def test_lost_colors_are_crossed_out() -> None:
    root = tree(position_svg(position_from_notation(FOUR_P)))
    # seats 1 and 3 lost blue: two crossing lines each, plus the legend's example chip
    crosses = [ln for ln in root.iter(f"{NS}line") if ln.get("stroke-width") == "2"]
    assert len(crosses) == 2 * (2 + 1)


def test_two_player_neutral_tokens_and_covered_column() -> None:
    pos = position_from_notation(TWO_P)
    root = tree(position_svg(pos))
    tokens = board_tokens(root)
    assert tokens == expected_tokens(pos)
    assert sorted(k for k, v in tokens.items() if v == "neutral") == [
        (80, 218),
        (200, 178),
        (200, 218),
    ]
    words = texts(root)
    assert "covered" in words and "neutral token" in words
    assert words.count("≤ 4 won") == 2


def test_paradox_picture_rows_and_scores() -> None:
    pos = position_from_notation(PARADOX)
    root = tree(position_svg(pos))
    words = texts(root)
    assert words[0] == "PARADOX: seat 1 has no legal play"
    assert [w for w in words if w in ("R", "B", "Y", "G")][:4] == ["G", "Y", "B", "R"]
    assert board_tokens(root) == expected_tokens(pos)
    assert "PARADOX" in words and "interrupted: nobody wins this trick" in words
    assert "winning" not in words and "◀ to move" not in words
    assert [w for w in words if " = " in w] == [
        "score = tricks + bonus",
        "3 = 1 + 2",
        "-4 = -4 + 0",
        "2 = 2 + 0",
    ]
    assert "covered" not in words


def test_finished_round_picture() -> None:
    root = tree(position_svg(position_from_notation(FINISHED)))
    words = texts(root)
    assert words[0] == "Round over: all 8 tricks played"
    assert "All 8 tricks played" in words
    assert [w for w in words if " = " in w] == ["score = tricks + bonus", "6 = 6 + 0", "5 = 2 + 3"]


def test_unknown_prediction_and_hero() -> None:
    pos = position_from_notation(FOUR_P).with_predictions((3, None, 1, 3))
    words = texts(tree(position_svg(pos, hero=0)))
    assert "?" in words
    assert "◀ to move, hero" in words


@given(
    players=st.integers(2, 5),
    seed=st.integers(0, 10_000),
    cut=st.floats(0, 1),
    order=st.permutations("RBYG"),
)
def test_board_matches_any_position(players: int, seed: int, cut: float, order: list[str]) -> None:
    rules = Ruleset(players=players, row_order="".join(order))
    line = random_line(start_position(rules, random.Random(seed)), seed)
    pos = line[int(cut * (len(line) - 1))]
    svg = position_svg(pos)
    root = tree(svg)
    assert board_tokens(root) == expected_tokens(pos)
    assert [w for w in texts(root) if w in ("R", "B", "Y", "G")][:4] == order
    assert svg == position_svg(pos)


# ---- catbox render ---------------------------------------------------------------------------


def test_render_prints_or_writes_the_svg(tmp_path: Path) -> None:
    result = run("render", FOUR_P)
    assert result.exit_code == 0
    assert result.output == position_svg(position_from_notation(FOUR_P))
    out = tmp_path / "board.svg"
    result = run("render", TWO_P, "-o", str(out), "--size", "360", "--hero", "1")
    assert result.exit_code == 0 and result.output == ""
    assert out.read_text(encoding="utf-8") == position_svg(
        position_from_notation(TWO_P), 360, hero=1
    )
    # '-o -' is standard output (it wrote a file named '-'), and the size has a maximum
    result = run("render", FOUR_P, "-o", "-")
    assert result.exit_code == 0 and result.output == position_svg(position_from_notation(FOUR_P))
    result = run("render", FOUR_P, "--size", "100001")
    assert result.exit_code == 2 and "1<=x<=100000" in result.output


def test_render_errors_are_one_line() -> None:
    for args, fragment in (
        (("render", "4p official | nonsense"), "error: "),
        (("render", TWO_P, "--hero", "3"), "error: hero seat 3 is not a seat"),
        (("render", "@/nonexistent/file.txt"), "error: "),
    ):
        result = run(*args)
        assert result.exit_code == 2
        assert result.output.startswith(fragment)
        assert len(result.output.strip().splitlines()) == 1


def test_render_help_has_an_example() -> None:
    result = run("render", "--help")
    assert result.exit_code == 0
    assert 'catbox render "4p official | R:.1....3.' in result.output
    assert "-o board.svg" in result.output


# ---- the pictures in the docs ----------------------------------------------------------------

REPO = Path(__file__).resolve().parents[1]


def make_pictures() -> ModuleType:
    return load_script("scripts/make_pictures.py")


def test_docs_pictures_are_current() -> None:
    script = make_pictures()
    examples = script.example_pictures()
    assert sorted(examples) == [
        "four-players.svg",
        "paradox.svg",
        "round-over.svg",
        "two-players.svg",
    ]
    for name, svg in examples.items():
        assert (REPO / "docs" / "img" / name).read_text(encoding="utf-8") == svg, name
        assert f"](img/{name})" in (REPO / "docs" / "pictures.md").read_text(encoding="utf-8")


def test_docs_example_puzzles_are_current() -> None:
    script = make_pictures()
    puzzles = {p.id: p for p in load_puzzles(REPO / "puzzles")}
    page = (REPO / "docs" / "examples.md").read_text(encoding="utf-8")
    shown = re.findall(r"\]\(img/puzzle-([a-z0-9-]+)\.svg\)", page)
    assert shown, "docs/examples.md shows no puzzle"
    for number, pid in enumerate(shown, start=1):
        pz = puzzles[pid]
        assert script.puzzle_section(number, pz) in page
        picture = (REPO / "docs" / "img" / f"puzzle-{pid}.svg").read_text(encoding="utf-8")
        assert picture == script.puzzle_pictures([pz])[f"puzzle-{pid}.svg"]
