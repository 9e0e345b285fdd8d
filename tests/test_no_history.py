"""The product's docs, code, tests and benches speak of the product only: no working-session
history ("session" followed by a number, "since session", "stop" followed by a number,
"an earlier session"). History lives in ``git log`` and, dated, in docs/engineering-log.md,
the one page exempt."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# the product's text: the README and every text file under these folders
FOLDERS = ("docs", "catbox_solver", "tests", "bench", "scripts")
TEXT = {".py", ".md", ".txt", ".toml", ".json", ".jsonl", ".svg", ".html", ".css", ".sh",
        ".yml", ".yaml", ".cfg", ".ini"}

# where history belongs, and this file, which must name what it looks for
EXEMPT = {"docs/engineering-log.md", "tests/test_no_history.py"}

HISTORY = re.compile(
    r"\bsessions?(?:[ \t-]|\n[ \t]*(?:#[ \t]*)?)*\d"  # the word, then a number or range,
    # after a space or a hyphen, or on the next line (a wrapped comment)
    r"|\bsince\s+session\b"
    r"|\bstop(?:[ \t]|\n[ \t]*(?:#[ \t]*)?)+\d"
    r"|\bsession\s+by\s+session\b"
    r"|\b(?:this|that|last|next|previous|earlier|later|an?)\s+sessions?\b",
    re.IGNORECASE,
)


def product_files() -> list[str]:
    """Paths (relative, with /) of the README and of the text files under FOLDERS."""
    out = ["README.md"]
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in TEXT and "__pycache__" not in path.parts:
                out.append(path.relative_to(ROOT).as_posix())
    return out


def history_lines(rel: str) -> list[str]:
    """'path:line: text' of each place in ``rel`` that speaks of working sessions (the
    whole text is searched, so that wording broken across two lines is found too)."""
    text = (ROOT / rel).read_text(encoding="utf-8", errors="replace")
    lines = text.splitlines()
    found = []
    for m in HISTORY.finditer(text):
        i = text.count("\n", 0, m.start())
        found.append(f"{rel}:{i + 1}: {lines[i].strip()}")
    return found


def exempt(rel: str) -> bool:
    return rel in EXEMPT


FILES = product_files()


def test_the_files_are_found() -> None:
    assert {"README.md", "docs/search.md", "docs/engineering-log.md",
            "catbox_solver/dd/solve.py", "bench/bench_walls.py",
            "tests/test_no_history.py"} <= set(FILES)


@pytest.mark.parametrize(
    "text",
    # (written with {s} for the word, so that this file states no history of its own)
    [t.format(s="session", S="Session") for t in (
        "measured in {s} 26", "{S}s 21-25 found", "the {s}-5 rows", "(since {s} 30;",
        "stop 3 left it", "the speed work, {s} by {s}", "an earlier {s} measured",
        "as in this {s}", "(perf, {s}\n    16)", "a comment # see {s}\n# 12",
        "# as stop\n    # 4 found")],
)
def test_the_wording_is_recognised(text: str) -> None:
    assert HISTORY.search(text)


@pytest.mark.parametrize(
    "text",
    ["self.sessions = 0", 'model.new_bool_var(f"session{self.sessions}")',
     "block_line(rm, line, session)", "2026-11-28: the walls", "stops at 3 tricks left",
     "StopSignal stops a solve"],
)
def test_other_words_are_not_taken_for_history(text: str) -> None:
    assert not HISTORY.search(text)


def test_the_product_speaks_of_the_product_only() -> None:
    found = [hit for rel in FILES if not exempt(rel) for hit in history_lines(rel)]
    assert not found, ("history wording (put it in git log or docs/engineering-log.md):\n"
                       + "\n".join(found))
