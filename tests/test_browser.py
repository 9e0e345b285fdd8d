"""The exported puzzle sheet in a real headless Chromium (Debian's chromium and chromedriver):
it loads with no errors, the answers start hidden and the buttons reveal them, print hides
the buttons, and a screenshot shows the pictures.

Selenium is pointed at /usr/bin/chromedriver and runs offline (SE_OFFLINE), so Selenium
Manager never downloads a driver or a browser. Skipped only when Chromium is not installed.
"""

from __future__ import annotations

import os
import re
import struct
import zlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from catbox_solver.puzzles import Puzzle, load_puzzles, puzzle_from_dict
from catbox_solver.render.sheet import sheet_order, write_sheet
from catbox_solver.render.svg import ROW_COLORS, SEAT_COLORS

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium (apt-get install chromium)"
)

WIDTH, HEIGHT = 1000, 1400
NASTY_TITLE = '<img src=x onerror="window.pwned=1"> & co'
TWO_P = (
    "2p official | R:..... B:..0.. Y:...N0 G:N.1N. | 1223455 11124455 | RBYG RYG | "
    "lead 0: 5y | won 1 0 | left 7"
)


FOUR_P = (
    "4p official | R:01213120 B:2300.332 Y:31220.32 G:31210130 | 15 46 2 3 | "
    "RBYG RG RBYG RBYG | lead 2: 8b 7b | won 2 1 3 1 | bid 2 1 3 1 | left 1"
)


def sheet_puzzles() -> list[Puzzle]:
    """A fixed 4-player puzzle first (the screenshot looks at its picture), then the
    repository's puzzles, then one with markup in its title."""
    first = puzzle_from_dict(
        {
            "id": "peter",
            "title": "Peter's last trick",
            "players": 4,
            "position": FOUR_P,
            "question": "exists",
            "conditions": ["no-paradox"],
            "answer": False,
            "hint": "Look at Peter's colors.",
            "explanation": "Peter holds 4 and 6.\n\nRed and green 4 and 6 are taken.",
        }
    )
    extra = puzzle_from_dict(
        {
            "id": "nasty",
            "title": NASTY_TITLE,
            "players": 2,
            "position": TWO_P,
            "question": "safe",
            "answer": [],
            "explanation": "Every line ends with seat 1 stuck.",
            "difficulty": 4,
        }
    )
    return [first, *load_puzzles(REPO / "puzzles"), extra]


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    os.environ["SE_OFFLINE"] = "true"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--force-device-scale-factor=1",
        "--hide-scrollbars",
        f"--window-size={WIDTH},{HEIGHT}",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    drv = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield drv
    finally:
        drv.quit()


@pytest.fixture()
def page(driver: Any, tmp_path: Path) -> Any:
    path = tmp_path / "sheet.html"
    write_sheet(sheet_puzzles(), path, "Browser test sheet")
    driver.get(path.as_uri())
    return driver


def by_css(drv: Any, selector: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(drv.find_elements(By.CSS_SELECTOR, selector))


def test_page_loads_without_errors(page: Any) -> None:
    assert page.title == "Browser test sheet"
    assert page.execute_script("return window.sheetReady") is True
    assert page.execute_script("return window.sheetErrors") == []
    severe = [e for e in page.get_log("browser") if e["level"] == "SEVERE"]
    assert severe == []
    # the nasty title is text, not markup: shown literally and never run
    headings = [h.text for h in by_css(page, "section h3")]
    order = [p.id for p in sheet_order(sheet_puzzles())]
    nasty = by_css(page, "section#puzzle-nasty h3")[0].text
    assert nasty == f"{order.index('nasty') + 1}. {NASTY_TITLE}"
    assert page.execute_script("return window.pwned === undefined") is True
    assert len(by_css(page, "figure svg")) == len(headings) == len(sheet_puzzles())
    # in groups by player count, easiest first in each
    groups = [g.get_attribute("id") for g in by_css(page, "div.group")]
    assert groups == ["players-2", "players-3", "players-4", "players-5"]
    shown = [s.get_attribute("id") for s in by_css(page, "section.puzzle")]
    assert shown == [f"puzzle-{i}" for i in order]


def test_reveal_shows_answer_and_explanation(page: Any) -> None:
    puzzles = sheet_puzzles()
    answers = by_css(page, ".answer")
    buttons = by_css(page, "button.reveal")
    at = [p.id for p in sheet_order(puzzles)].index("peter")
    assert [a.is_displayed() for a in answers] == [False] * len(puzzles)
    buttons[at].click()
    assert answers[at].is_displayed()
    assert answers[at].text == "No.\nPeter holds 4 and 6.\nRed and green 4 and 6 are taken."
    assert buttons[at].text == "Hide answer"
    assert buttons[at].get_attribute("aria-expanded") == "true"
    others = answers[:at] + answers[at + 1:]
    assert [a.is_displayed() for a in others] == [False] * (len(puzzles) - 1)
    buttons[at].click()
    assert not answers[at].is_displayed() and buttons[at].text == "Show answer"
    toggle = by_css(page, "#toggle-all")[0]
    toggle.click()
    assert [a.is_displayed() for a in answers] == [True] * len(puzzles)
    nasty = by_css(page, "#puzzle-nasty-answer")[0]
    assert nasty.text == "No play keeps you safe.\nEvery line ends with seat 1 stuck."
    # a line of plays broken by trick
    red = by_css(page, "#puzzle-red-lead-4p-5922fbdd-answer")[0]
    assert "after 4b 2r 6r 1r | 3r 5r 6y 4r | 8r 1y 2y 7r the round ends" in red.text
    assert toggle.text == "Hide all answers"
    toggle.click()
    assert [a.is_displayed() for a in answers] == [False] * len(puzzles)


def test_print_hides_buttons_and_contents(page: Any) -> None:
    page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert [b.is_displayed() for b in by_css(page, "button")] == [False] * (
            len(sheet_puzzles()) + 1
        )
        assert not by_css(page, "nav")[0].is_displayed()
        # a closed hint cannot be unfolded on paper: left out
        hints = by_css(page, "details.hint")
        assert hints and [h.is_displayed() for h in hints] == [False] * len(hints)
        assert all(f.is_displayed() for f in by_css(page, "figure"))
        # each puzzle's text beside its picture, which takes the left part of the page
        for section in by_css(page, "section.puzzle")[:5]:
            fig = section.find_element("css selector", "figure").rect
            question = section.find_element("css selector", ".question").rect
            assert question["x"] >= fig["x"] + fig["width"]
            assert fig["y"] <= question["y"] < fig["y"] + fig["height"]
    finally:
        page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


def pdf_pages(drv: Any) -> int:
    """Pages of the page printed to PDF (A4, its own print style)."""
    import base64

    pdf = drv.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True})
    data = base64.b64decode(pdf["data"])
    return len(re.findall(rb"/Type\s*/Page\b", data))


def test_print_packs_several_puzzles_to_a_page(driver: Any, tmp_path: Path) -> None:
    """Printed, the collection's puzzles share pages (it printed 43 pages for 43
    puzzles): at least three to a page, none split by a page break."""
    puzzles = load_puzzles(REPO / "puzzles")
    path = tmp_path / "sheet.html"
    write_sheet(puzzles, path)
    driver.get(path.as_uri())
    pages = pdf_pages(driver)
    assert 1 <= pages <= len(puzzles) // 3, pages


def png_pixels(data: bytes) -> tuple[int, int, list[tuple[int, ...]]]:
    """Decode an 8-bit RGB/RGBA non-interlaced PNG (what Chromium writes) with zlib only."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat = 8, []
    width = height = channels = 0
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        at += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert (depth, interlace) == (8, 0) and ctype in (2, 6)
            channels = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat.append(body)
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    prev = bytearray(stride)
    pixels: list[tuple[int, ...]] = []
    for y in range(height):
        start = y * (stride + 1)
        kind_of_filter = raw[start]
        line = bytearray(raw[start + 1 : start + 1 + stride])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            if kind_of_filter == 1:
                line[x] = (line[x] + a) & 255
            elif kind_of_filter == 2:
                line[x] = (line[x] + b) & 255
            elif kind_of_filter == 3:
                line[x] = (line[x] + ((a + b) >> 1)) & 255
            elif kind_of_filter == 4:
                c = prev[x - channels] if x >= channels else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[x] = (line[x] + pred) & 255
        pixels += [tuple(line[i : i + 3]) for i in range(0, stride, channels)]
        prev = line
    return width, height, pixels


def rgb(color: str) -> tuple[int, ...]:
    return tuple(int(color[i : i + 2], 16) for i in (1, 3, 5))


def test_screenshot_shows_the_pictures(page: Any, tmp_path: Path) -> None:
    figure = by_css(page, "#puzzle-peter figure")[0]
    page.execute_script("arguments[0].scrollIntoView()", figure)
    shot = tmp_path / "figure.png"
    assert figure.screenshot(str(shot))
    width, height, pixels = png_pixels(shot.read_bytes())
    assert (width, height) == (figure.size["width"], figure.size["height"])
    assert width >= 700 and height >= 400
    counts = Counter(pixels)
    white = counts[(255, 255, 255)]
    assert 0.3 < white / len(pixels) < 0.9  # a drawing, neither blank nor a solid block
    assert len(counts) > 50
    # the four board colors (row labels) and the token colors of the seats on the board
    for color in ROW_COLORS:
        assert counts[rgb(color)] > 200, color
    for color in SEAT_COLORS[:4]:
        assert counts[rgb(color)] > 200, color
