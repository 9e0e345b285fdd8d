"""Comments in game records: reading keeps them with their field, writing keeps them (each
on a line of its own after its field's line), the referee ignores them."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catbox_solver.errors import RecordError
from catbox_solver.formats.record import read_record, write_record
from catbox_solver.games.game import play_game
from catbox_solver.games.referee import verify
from catbox_solver.model.rules import Ruleset

GAME = write_record(play_game(Ruleset(players=3), seed=5))


def test_comments_belong_to_the_line_they_follow_or_stand_on() -> None:
    lines = GAME.splitlines()
    at = lines.index("trick 2 0:2g 1:5g 2:4r")
    lines[at] += "  # on the line"
    lines.insert(at + 1, "# after trick 2")
    lines.insert(0, "# before everything")
    lines.insert(3, "#after players")  # (after 'catbox-record 1', 'players 3')
    record = read_record("\n".join(lines) + "\n")
    assert record.comments == {"": (" before everything",), "players": ("after players",)}
    assert record.rounds[0].comments == {"trick 2": (" on the line", " after trick 2")}
    assert record.rounds[1].comments == {}
    written = write_record(record)
    out = written.splitlines()
    assert out[:4] == ["# before everything", "catbox-record 1", "players 3", "#after players"]
    at = out.index("trick 2 0:2g 1:5g 2:4r")
    assert out[at + 1 : at + 3] == ["# on the line", "# after trick 2"]
    assert write_record(read_record(written)) == written
    # the referee ignores them: the same verdict as without
    assert verify(record) == verify(read_record(GAME))


def test_a_record_equals_itself_without_its_comments() -> None:
    with_notes = read_record(GAME.replace("paradox 2\n", "paradox 2\n# seat 2 was stuck\n"))
    assert with_notes.rounds[0].comments == {"paradox": (" seat 2 was stuck",)}
    assert with_notes == read_record(GAME)  # (comments, like line numbers, are not compared)


def test_a_comment_with_a_line_break_is_refused() -> None:
    record = read_record(GAME)
    with pytest.raises(RecordError, match="one-line texts"):
        replace(record, comments={"players": ("two\nlines",)})
    with pytest.raises(RecordError, match="one-line texts"):
        replace(record.rounds[0], comments={"deal": ("form\x0cfeed",)})
    with pytest.raises(RecordError, match="map a field"):
        replace(record, comments=["not a mapping"])  # type: ignore[arg-type]


TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=12).filter(
    lambda t: t.splitlines() in ([], [t])
)


@given(st.lists(st.tuples(st.integers(0, 200), TEXT, st.booleans()), max_size=8))
def test_write_read_write_keeps_every_comment(notes: list[tuple[int, str, bool]]) -> None:
    """Comments put anywhere (own lines, or at the end of field lines) survive a write and
    a read; the text is then a fixed point of read and write, and verifies alike."""
    lines = GAME.splitlines()
    for where, text, trailing in notes:
        at = where % (len(lines) + 1)
        if trailing and at < len(lines) and lines[at].strip() and "#" not in lines[at]:
            lines[at] += " #" + text
        else:
            lines.insert(at, "#" + text)
    record = read_record("\n".join(lines) + "\n")
    kept = sorted(t for c in (record.comments, *(r.comments for r in record.rounds))
                  for texts in c.values() for t in texts)
    assert kept == sorted(text for _, text, _ in notes)
    written = write_record(record)
    assert write_record(read_record(written)) == written
    assert verify(read_record(written)) == verify(read_record(GAME))
