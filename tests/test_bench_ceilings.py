"""bench/bench_ceilings.py: its recording copy still fits the kernel's source, and its
oracle replay counts exactly what a coarser table could skip (no search is run here: the
replay is checked on hand-made records)."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import numpy.typing as npt
import pytest
from script_loader import load_script

ceilings: ModuleType = load_script("bench/bench_ceilings.py")


def test_the_recording_is_added_at_every_store_of_the_trick_game() -> None:
    source = ceilings.KERNEL_GAME.read_text(encoding="utf-8")
    patched = ceilings.recording_source(source)
    # the three stores of the trick game, each followed by its record; the score game's
    # stores (into tsc, its own table) are not recorded
    assert patched.count("_record(tsc, s, row, tl,") == 3
    assert source.count("_store(tt, row, tl,") == 3
    assert patched.count("n_in = s[S_NODES]") == 1
    compile(patched, "recording_game.py", "exec")  # still Python


def test_a_kernel_source_that_moved_is_named() -> None:
    source = ceilings.KERNEL_GAME.read_text(encoding="utf-8")
    moved = source.replace("    keyed = tlen == 0\n    slot = -1\n", "    keyed = tlen == 0\n")
    with pytest.raises(ValueError, match=r"'keyed = tlen == 0\\n    slot = -1' is found 0 "
                                         r"times, not once; update PATCHES"):
        ceilings.recording_source(moved)


def _rec(tl: int, r: int, answer: int, n_in: int, n_out: int, key: int, used: int,
         hero_colors: int = 15, other_colors: int = 15) -> list[int]:
    row = [0] * ceilings.WIDTH
    row[ceilings.TL], row[ceilings.R], row[ceilings.ANSWER] = tl, r, answer
    row[ceilings.N_IN], row[ceilings.N_OUT] = n_in, n_out
    row[ceilings.USED], row[ceilings.LEADER] = used, 0
    row[ceilings.HANDS] = 0x11
    row[ceilings.COLORS] = hero_colors  # the hero is seat 0
    for seat in (1, 2, 3):
        row[ceilings.COLORS + seat] = other_colors
    row[ceilings.KEY] = key
    return row


def _search(c_answer: int = 1, c_colors: int = 7) -> npt.NDArray[np.int64]:
    """A hand-made search of 100 nodes, rows in the order stored (post-order): A at 3
    tricks left holds B (nodes 2-40, holding E at 3-10) and C (41-80, holding D at
    50-60). B and C differ only in the hero's colors; E and D are one state."""
    return np.array([
        _rec(1, 1, 1, 3, 10, key=5, used=0x100),  # E
        _rec(2, 1, 1, 2, 40, key=2, used=0x10, hero_colors=15),  # B
        _rec(1, 1, 1, 50, 60, key=5, used=0x100),  # D (E's key: a table hit in a real
        #                                            search; here it tests the nesting)
        _rec(2, 1, c_answer, 41, 80, key=3, used=0x10, hero_colors=c_colors),  # C
        _rec(3, 1, 1, 1, 100, key=1, used=0),  # A
    ], dtype=np.int64)


def _ceiling(rec: npt.NDArray[np.int64], projection: str) -> tuple[float, int, int]:
    project, _ = ceilings.PROJECTIONS[projection]
    return ceilings.ceiling(rec, ceilings.classes(rec, project(rec, 0)), 100)  # type: ignore[no-any-return]


def test_the_oracle_skips_a_consistent_class_seen_before_once() -> None:
    rec = _search()
    # the key alone: C is new; D (E's key) is skipped, 10 nodes
    assert _ceiling(rec, "key") == (100 / 90, 0, 4)
    # the hero's colors forgotten: C joins B and is skipped with all it holds (D inside
    # it is not counted again: a replay that did would say 100 / 51)
    assert _ceiling(rec, "hero-colors") == (100 / 61, 0, 3)
    # the coalition's colors forgotten do not join B and C
    assert _ceiling(rec, "coalition-colors") == (100 / 90, 0, 4)


def test_a_mixed_class_is_never_skipped() -> None:
    rec = _search(c_answer=0)
    assert _ceiling(rec, "hero-colors") == (100 / 90, 1, 3)


def test_a_perfect_evaluation_skips_the_outermost_trick_starts_that_deep() -> None:
    rec = _search()
    # 1 trick deep: E (nodes 3-10) and D (50-60) each answered in one node
    assert ceilings.depth_ceiling(rec, 1, 100) == 100 / (100 - 7 - 10)
    # 2 deep: B (2-40) and C (41-80) each in one node, E and D inside them not counted
    # again (a replay that did would say 100 / 7)
    assert ceilings.depth_ceiling(rec, 2, 100) == 100 / (100 - 38 - 39)
    # 3 deep: the whole search (A, 1-100) in one node
    assert ceilings.depth_ceiling(rec, 3, 100) == 100 / 1
    assert ceilings.depth_ceiling(rec, 0, 100) == 1.0


def test_classes_join_the_key_and_the_projection_transitively() -> None:
    # B and C share a projection; C and D share a key: one class, though B and D agree
    # on neither
    rec = np.array([
        _rec(2, 1, 1, 1, 10, key=1, used=0x10, hero_colors=15),
        _rec(2, 1, 1, 11, 20, key=2, used=0x10, hero_colors=7),
        _rec(2, 1, 1, 21, 30, key=2, used=0x20, hero_colors=7),
        _rec(2, 0, 1, 31, 40, key=2, used=0x20, hero_colors=7),  # another threshold
    ], dtype=np.int64)
    project, _ = ceilings.PROJECTIONS["hero-colors"]
    cls = ceilings.classes(rec, project(rec, 0))
    assert cls[0] == cls[1] == cls[2] != cls[3]


def test_the_hero_alone_keeps_only_the_cells_the_hero_can_fill() -> None:
    # the hero (seat 0) holds a 1 (bits 0-3) and two 3s (bits 8-11), has red and
    # yellow (colors 0b0101); cells used: red 1 and blue 3
    row = _rec(2, 1, 1, 1, 2, key=1, used=0x1 | 0x2 << 8, hero_colors=0b0101)
    row[ceilings.HANDS] = 0x1 | 0x2 << 8
    rec = np.array([row], dtype=np.int64)
    got = ceilings.PROJECTIONS["hero-alone"][0](rec, 0)
    # value 1: red used, yellow free -> 0b0100; value 3: red and yellow free -> 0b0101
    assert got.tolist() == [[0, 0x1 | 0x2 << 8, 0b0101, 0b0100 | 0b0101 << 8]]


@pytest.mark.parametrize(("argv", "message"), [
    (["--walls", "p9"], "argument --walls: unknown wall 'p9'; one of p0-1b, p0-2b, "
     "p0-2b-4b, p0-2b-2r, p0-1b-2y, p1-2b, p1-2b-6b, p1-4b, 5p10-5b, 5p10-5b-6y"),
    (["--walls", ","], "argument --walls: no wall named"),
    (["--projections", "hero"], "argument --projections: unknown projection 'hero'; one "
     "of key, hero-colors, coalition-colors, colors, coalition-hands, coalition, "
     "hero-alone"),
    (["--max-entries", "0"], "argument --max-entries: must be 1 to 1e9, not 0"),
    (["--depths", "2,x"], "argument --depths: whole numbers of tricks, comma-separated, "
     "not '2,x'"),
    (["--depths", "0"], "argument --depths: a depth is 1 to 9 tricks, not 0"),
    (["--max-nodes", "-1"], "argument --max-nodes: must be 0 to 1e15, not -1"),
    (["--position", "4p x"], "argument --position: unknown ruleset 'x' (presets: "
     "official, quickref-red-lead, per-card-red-lead, czech-color-loss, must-follow, "
     "interrupted-removed, diagonal-bonus, two-player-prediction) (field 'ruleset', "
     "column 4)"),
    (["--threshold", "x"], "argument --threshold: invalid int value: 'x'"),
])
def test_bad_arguments(argv: list[str], message: str,
                       capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        ceilings.main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].split(": error: ", 1)[1] == message


def test_positions_replace_the_walls_with_the_mover_as_hero() -> None:
    text = ("4p official | R:....0... B:........ Y:........ G:.......3 | 11122568 "
            "123346678 234445678 12356778 | RBY RBYG RBYG RBYG | lead 3: 8g 5r | won 0 0 0 0 "
            "| bid 1 2 2 3 | left 8")
    args = ceilings.parse_args(["--position", text, "--threshold", "1"])
    [(name, pos, hero, r)] = ceilings.searches(args)
    assert (name, hero, r) == ("position 1", 1, 1)
    assert pos.notation() == text
    walls = ceilings.searches(ceilings.parse_args(["--walls", "p0-2b-4b,5p10-5b-6y"]))
    assert [(w[0], w[3]) for w in walls] == [("p0-2b-4b", -4), ("5p10-5b-6y", 0)]


def test_list_names_every_projection(capsys: pytest.CaptureFixture[str]) -> None:
    assert ceilings.main(["--list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out] == list(ceilings.PROJECTIONS)
