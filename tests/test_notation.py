"""The one-line position notation: exact strings, round trips, lenient input, typed errors,
reading POSITION arguments (text, JSON, @FILE, batches) and the terminal rendering."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catbox_solver.cli.batch import is_batch_argument, position_argument, position_arguments
from catbox_solver.errors import CatboxError, NotationError, PositionError, RulesetError
from catbox_solver.formats.jsonform import position_from_json, position_to_json
from catbox_solver.formats.notation import (
    parse_play,
    plays_from_text,
    position_from_notation,
    position_from_text,
    position_to_notation,
)
from catbox_solver.model.deal import deal
from catbox_solver.model.position import PLAYS, Position
from catbox_solver.model.rules import PRESETS, SWITCHES, Ruleset
from catbox_solver.render.text import render_text

CONFORMANCE = Path(__file__).resolve().parents[2] / "shared" / "conformance"
ROW_ORDERS = ["".join(p) for p in itertools.permutations("RBYG")]


# ---- positions for property tests ------------------------------------------------------------
def random_ruleset(rng: random.Random, players: int) -> Ruleset:
    """A preset, or random switches, with a random row order now and then."""
    if rng.random() < 0.5:
        rules = Ruleset.from_name(rng.choice(list(PRESETS)), players)
    else:
        rules = Ruleset(players, **{k: rng.choice(v) for k, v in SWITCHES.items()})
    if rng.random() < 0.4:
        rules = rules.with_switches(row_order=rng.choice(ROW_ORDERS))
    return rules


def random_position(seed: int, players: int, plays: int, predictions: str) -> Position:
    """A seeded deal, random discards, predictions ('known', 'some' unknown, or 'none' at
    all), (2 players) neutral tokens from the revealed leftovers, then up to ``plays``
    random legal plays (the round may end early in a paradox)."""
    rng = random.Random(seed)
    rules = random_ruleset(rng, players)
    d = deal(rules, rng)
    hands = []
    for hand in d.hands:
        h = list(hand)
        h.remove(rng.choice(h))
        hands.append(h)
    preds: list[int | None] | None = None
    if rules.has_predictions:
        preds = [rng.choice(rules.prediction_choices) for _ in range(players)]
        if predictions == "some":
            preds = [p if rng.random() < 0.5 else None for p in preds]
    pos = Position.new_round(rules, hands, rng.randrange(players), preds, d.revealed)
    if predictions == "none":
        pos = pos.with_predictions(None)
    for _ in range(plays):
        legal = pos.legal_plays()
        if not legal:
            break
        pos = pos.after(rng.choice(legal))
    return pos


positions = st.builds(
    random_position,
    st.integers(0, 2**32),
    st.integers(2, 5),
    st.integers(0, 40),
    st.sampled_from(["known", "some", "none"]),
)


def conformance_positions() -> list[Position]:
    if not CONFORMANCE.is_dir():
        pytest.skip("conformance data not present beside the checkout")
    out = []
    for name in ("legal-in.jsonl", "dd-in.jsonl"):
        for line in (CONFORMANCE / name).read_text().splitlines():
            out.append(position_from_json(line))
    return out


# ---- fixed positions with exact strings ------------------------------------------------------
def two_player_start() -> Position:
    hands = [[1, 2, 2, 3, 3, 4, 5, 5, 5], [1, 1, 1, 2, 3, 4, 4, 5, 5]]
    return Position.new_round(Ruleset(2), hands, 0, None, (1, 4, 4))


def four_player_start() -> Position:
    rules = Ruleset.from_name("diagonal-bonus,row_order=GYBR", 4)
    hands = [
        [1, 1, 2, 3, 4, 5, 6, 7, 8],
        [1, 2, 2, 3, 4, 5, 6, 7, 8],
        [1, 2, 3, 3, 4, 5, 6, 7, 8],
        [1, 2, 3, 4, 4, 5, 6, 7, 8],
    ]
    return Position.new_round(rules, hands, 2, (1, None, 3, 2))


TWO_P_START = (
    "2p official | R:..... B:..... Y:...N. G:N..N. | 122334555 111234455 | RBYG RBYG | "
    "lead 0 | won 0 0 | left 8"
)
TWO_P_AFTER_TRICK = (
    "2p official | R:..... B:..0.. Y:...N. G:N.1N. | 12234555 11124455 | RBYG RYG | "
    "lead 0 | won 1 0 | left 7"
)
TWO_P_MID_TRICK = (
    "2p official | R:..... B:..0.. Y:...N0 G:N.1N. | 1223455 11124455 | RBYG RYG | "
    "lead 0: 5y | won 1 0 | left 7"
)
FOUR_P = (
    "4p diagonal-bonus,row_order=GYBR | G:........ Y:...2.... B:........ R:...3.... | "
    "112345678 122345678 12335678 12345678 | RBYG RBYG RBYG RBG | lead 2: 4y 4r | "
    "won 0 0 0 0 | bid 1 ? 3 2 | left 8"
)
# a finished 2-player round (found by a paradox-free search from a seeded deal)
TWO_P_FINISHED = (
    "2p official | R:10110 B:.1010 Y:N1100 G:NN010 | 5 3 | RBYG RBY | lead 0 | won 6 2 | left 0"
)


def test_exact_notation_two_players() -> None:
    pos = two_player_start()
    assert position_to_notation(pos) == TWO_P_START
    # seat 0 leads 3b, seat 1 declares 3 green and so loses blue; 3b wins
    pos = pos.play("3b").play("3g")
    assert position_to_notation(pos) == TWO_P_AFTER_TRICK
    pos = pos.play("5y")
    assert position_to_notation(pos) == TWO_P_MID_TRICK
    assert position_from_notation(TWO_P_MID_TRICK) == pos


def test_exact_notation_four_players_switches_and_row_order() -> None:
    pos = four_player_start().play("4y").play("4r")
    assert position_to_notation(pos) == FOUR_P
    back = position_from_notation(FOUR_P)
    assert back == pos
    assert back.rules.adjacency == "diagonal"
    assert back.rules.row_order == "GYBR"
    assert back.predictions == (1, None, 3, 2)
    assert back.to_move == 0


def test_empty_hands_and_no_colors_are_dashes() -> None:
    text = (
        "3p official | R:...... B:...... Y:...... G:...... | - - - | - - - | lead 0 | "
        "won 0 0 0 | left 0"
    )
    # three empty hands do not fit a round (each seat keeps one card): typed error
    with pytest.raises(PositionError, match="seat 0 holds 0 cards, should hold 1"):
        position_from_notation(text)
    pos = position_from_notation(TWO_P_FINISHED)
    assert pos.hands == ((5,), (3,))
    assert pos.colors == (0b1111, 0b0111)
    assert pos.tricks_left == 0 and pos.is_over


def test_absent_predictions_mean_all_unknown() -> None:
    """With 3-5 players a Position always carries predictions; None means all unknown, so
    JSON null, an omitted bid field and 'bid ? ? ? ?' are one and the same position."""
    pos = four_player_start()
    unknown = pos.with_predictions((None,) * 4)
    absent = pos.with_predictions(None)
    assert absent == unknown and absent.predictions == (None,) * 4
    text = position_to_notation(unknown)
    assert text.endswith("| bid ? ? ? ? | left 8")
    assert position_from_notation(text) == unknown
    assert position_from_notation(text.replace(" | bid ? ? ? ?", "")) == unknown


# ---- round trips -----------------------------------------------------------------------------
@given(positions)
def test_notation_round_trip(pos: Position) -> None:
    text = position_to_notation(pos)
    back = position_from_notation(text)
    assert back == pos
    assert position_to_notation(back) == text
    assert "\n" not in text


@given(positions)
def test_json_round_trip_and_agreement_with_notation(pos: Position) -> None:
    if pos.predictions is None and pos.rules.has_predictions:
        # JSON null means "all unknown" for 3-5 players: the reader fills in unknowns
        pos = pos.with_predictions((None,) * pos.rules.players)
    back = position_from_json(position_to_json(pos))
    assert back == pos
    assert position_from_text(position_to_json(pos)) == pos
    assert position_to_notation(back) == position_to_notation(pos)


def test_conformance_positions_round_trip() -> None:
    cases = conformance_positions()
    assert len(cases) == 381
    for pos in cases:
        text = position_to_notation(pos)
        assert position_from_notation(text) == pos, text
        assert position_to_notation(position_from_notation(text)) == text


def test_docs_examples_are_canonical() -> None:
    """Every notation line in docs/notation.md reads and writes back unchanged."""
    doc = Path(__file__).resolve().parents[1] / "docs" / "notation.md"
    lines = doc.read_text().splitlines()
    examples = [line for line in lines if line[:2] in ("2p", "3p", "4p", "5p")]
    assert len(examples) == 4
    for text in examples:
        assert position_to_notation(position_from_notation(text)) == text


# ---- lenient input ---------------------------------------------------------------------------
def test_lenient_input_reads_to_the_canonical_form() -> None:
    sloppy = (
        "  4P  Diagonal-Bonus , ROW_ORDER = gybr|r : ...3.... y:...2....  b:........ "
        "G:........|112345678  122345678 12335678 87654321|gybr rbyg RBYG gbr| won 0 0 0 0 "
        "|BID 1 ? 3 2 |LEAD 2 :4Y 4r|LEFT 8  "
    )
    pos = position_from_notation(sloppy)
    assert position_to_notation(pos) == FOUR_P


def test_covered_column_may_be_written_as_hash() -> None:
    text = FOUR_P.replace("G:........ ", "G:........# ").replace("R:...3....", "R:...3....#")
    assert position_to_notation(position_from_notation(text)) == FOUR_P
    two = TWO_P_START.replace("G:N..N.", "G:N..N.#")
    assert position_to_notation(position_from_notation(two)) == TWO_P_START


def test_optional_forms() -> None:
    assert position_from_notation(TWO_P_START.replace("lead 0", "lead 0:")) == two_player_start()
    assert position_from_notation(TWO_P_START + " | bid -") == two_player_start()
    assert position_from_notation(TWO_P_START.replace("2p official", "2p")) == two_player_start()


# ---- errors ----------------------------------------------------------------------------------
def _err(text: str, kind: type[CatboxError]) -> CatboxError:
    with pytest.raises(kind) as info:
        position_from_notation(text)
    return info.value


def test_six_copies_of_a_value() -> None:
    # seat 1 holds a fourth 1 while seat 0 also holds one and G1 is neutral: six copies
    text = TWO_P_START.replace("111234455", "111134455")
    err = _err(text, PositionError)
    assert str(err) == "value 1: 5 in hands and 1 on the board, more than 5 copies"


def test_token_on_covered_cell() -> None:
    text = FOUR_P.replace("R:...3....", "R:...3....0")
    err = _err(text, PositionError)
    column = text.index("R:...3....0") + 2 + 8 + 1
    assert str(err) == (
        f"cell R9 is covered with 4 players: the board has values 1-8 only "
        f"(field 'board', column {column})"
    )
    two = TWO_P_START.replace("G:N..N.", "G:N..N.N")
    assert "cell G6 is covered with 2 players" in str(_err(two, PositionError))
    # a '.' in the covered column is not a token but still wrong: the cell does not exist
    dot = FOUR_P.replace("R:...3....", "R:...3.....")
    err2 = _err(dot, NotationError)
    assert isinstance(err2, NotationError)
    assert err2.field == "board" and err2.column == column


def test_wrong_hand_size() -> None:
    text = TWO_P_START.replace("122334555", "12233455")
    err = _err(text, PositionError)
    assert str(err) == "seat 0 holds 8 cards, should hold 9 with 8 tricks left"


def test_tricks_won_do_not_match_tricks_played() -> None:
    text = TWO_P_AFTER_TRICK.replace("won 1 0", "won 1 1")
    err = _err(text, PositionError)
    assert str(err) == "tricks won add up to 2, but 1 tricks were played"


def test_unknown_ruleset_and_switch() -> None:
    err = _err(TWO_P_START.replace("official", "oficial"), RulesetError)
    assert str(err).startswith("unknown ruleset 'oficial'")
    assert str(err).endswith("(field 'ruleset', column 4)")
    err = _err(TWO_P_START.replace("official", "official,red_lead=sometimes"), RulesetError)
    assert "red_lead has no value 'sometimes'" in str(err)


@pytest.mark.parametrize(
    ("text", "field", "column", "fragment"),
    [
        ("", "players", 1, "empty position"),
        ("4x official | a", "players", 1, "player count must look like '4p'"),
        (TWO_P_START.replace("2p", "7p"), "players", 1, "player count must be 2 to 5"),
        ("2p official | R:.....", "board", 22, "missing row(s) B, Y, G"),
        ("2p official | R:..... B:..... Y:..... G:N..N.", "hands", 46, "missing field hands"),
        (TWO_P_START.replace("R:.....", "X:....."), "board", 15, "expected a row label"),
        (TWO_P_START.replace("B:.....", "R:....."), "board", 23, "row R given twice"),
        (TWO_P_START.replace("B:.....", "B ....."), "board", 25, "expected ':'"),
        (TWO_P_START.replace("B:.....", ""), "board", 40, "missing row(s) B"),
        (TWO_P_START.replace("R:.....", "R:..7.."), "board", 19, "bad cell '7'"),
        (TWO_P_START.replace("R:.....", "R:....."[:-1]), "board", 17, "row R has 4 cells"),
        (TWO_P_START.replace("G:N..N.", "G:N..N.x"), "board", 46, "column 6 is covered"),
        # a '#' where no covered column is (it said "bad cell '#'" or "row R has 7 cells")
        (TWO_P_START.replace("R:.....", "R:....#"), "board", 21,
         "row R value 5: '#' marks the covered column, column 6 with 2 players"),
        ("3p official | R:......# B:...... Y:...... G:...... | 1 1 1 | RBYG RBYG RBYG | "
         "lead 0 | won 0 0 0 | left 1", "board", 23,
         "row R: '#' marks the covered column, and no column is covered with 3 players"),
        (TWO_P_START.replace("122334555 ", ""), "hands", 59, "1 hands for 2 players"),
        (TWO_P_START.replace("122334555", "122334565"), "hands", 56, "bad card '6'"),
        (TWO_P_START.replace("RBYG RBYG", "RBYG RBXG"), "colors", 78, "bad or repeated color"),
        (TWO_P_START.replace("RBYG RBYG", "RBYG RBBG"), "colors", 78, "bad or repeated color"),
        (TWO_P_START.replace("lead 0", "lead 5"), "lead", 88, "seat 5 does not exist"),
        (TWO_P_START.replace("lead 0", "lead x"), "lead", 88, "the leading seat must be"),
        (TWO_P_START.replace("lead 0", "lead 0 1"), "lead", 90, "expected 'lead SEAT'"),
        (TWO_P_START.replace("lead 0", "lead 0: 7y"), "play", 91, "value 7 is not in play"),
        (TWO_P_START.replace("lead 0", "lead 0: 3x"), "lead", 91, "a play is a value"),
        (TWO_P_START.replace("won 0 0", "won 0"), "won", 98, "1 trick counts for 2"),
        (TWO_P_START.replace("won 0 0", "won 0 a"), "won", 98, "trick counts must be a"),
        (TWO_P_START + " | bid 1 2", "bid", 115, "2 players make no predictions"),
        (TWO_P_START.replace("left 8", "left"), "left", 106, "expected one number"),
        (TWO_P_START.replace("left 8", "lift 8"), None, 102, "unknown field 'lift'"),
        (TWO_P_START.replace("left 8", "won 0 0"), "won", 102, "field 'won' given twice"),
        (TWO_P_START.replace(" | left 8", ""), "left", 99, "missing field 'left ...'"),
        (TWO_P_START.replace("| left 8", "| | left 8"), None, 101, "empty field"),
    ],
)
def test_notation_errors_name_field_and_column(
    text: str, field: str | None, column: int, fragment: str
) -> None:
    err = _err(text, NotationError)
    assert isinstance(err, NotationError)
    assert fragment in str(err)
    assert (err.field, err.column) == (field, column)


def test_error_column_points_at_the_bad_character() -> None:
    text = TWO_P_START.replace("R:.....", "R:..7..")
    err = _err(text, NotationError)
    assert isinstance(err, NotationError) and err.column is not None
    assert text[err.column - 1] == "7"


# ---- plays -----------------------------------------------------------------------------------
def test_parse_play_and_lists() -> None:
    assert parse_play("7r") == PLAYS[7][0]
    assert parse_play(" 3B ") == PLAYS[3][1]
    assert plays_from_text("7r 3b, 5Y,2g") == (PLAYS[7][0], PLAYS[3][1], PLAYS[5][2], PLAYS[2][3])
    assert plays_from_text("") == ()
    with pytest.raises(NotationError, match="value 9 is not in play"):
        parse_play("9g", max_value=8)
    for bad in ("²r", "0r", "10r", "7", "r7", "7rr", "７r"):
        with pytest.raises(NotationError):
            parse_play(bad)
    with pytest.raises(NotationError) as info:
        plays_from_text("7r 3x")
    assert info.value.column == 4


# ---- POSITION arguments: text, JSON, files, batches ------------------------------------------
def test_read_position_text_json_and_files(tmp_path: Path) -> None:
    pos = two_player_start()
    assert position_argument(TWO_P_START) == pos
    assert position_argument("  " + TWO_P_START + "\n") == pos
    assert position_argument(position_to_json(pos)) == pos
    (tmp_path / "p.txt").write_text(TWO_P_START + "\n")
    (tmp_path / "p.json").write_text(json.dumps(json.loads(position_to_json(pos)), indent=2))
    (tmp_path / "one.jsonl").write_text(position_to_json(pos) + "\n")
    assert position_argument(f"@{tmp_path / 'p.txt'}") == pos
    assert position_argument(f"@{tmp_path / 'p.json'}") == pos
    assert position_argument(f"@{tmp_path / 'one.jsonl'}") == pos


def test_read_position_file_errors(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    with pytest.raises(NotationError) as info:
        position_argument(f"@{missing}")
    assert str(info.value) == f"cannot read file {str(missing)!r}: No such file or directory"
    with pytest.raises(NotationError, match="cannot read file"):
        position_argument(f"@{tmp_path}")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00{")
    with pytest.raises(NotationError, match="is not UTF-8 text"):
        position_argument(f"@{tmp_path / 'bin.json'}")
    (tmp_path / "empty.txt").write_text("  \n")
    with pytest.raises(NotationError, match="is empty"):
        position_argument(f"@{tmp_path / 'empty.txt'}")
    (tmp_path / "two.jsonl").write_text(TWO_P_START + "\n" + TWO_P_START + "\n")
    with pytest.raises(NotationError, match="holds 2 lines; one position is needed"):
        position_argument(f"@{tmp_path / 'two.jsonl'}")
    with pytest.raises(NotationError, match="'@' must be followed by a file name"):
        position_argument("@")
    bad = tmp_path / "bad.txt"
    bad.write_text(TWO_P_START.replace("lead 0", "lead 9"))
    with pytest.raises(NotationError) as info2:
        position_argument(f"@{bad}")
    assert str(info2.value).startswith(f"{bad}: seat 9 does not exist")
    assert info2.value.field == "lead"


def test_json_text_errors_are_typed() -> None:
    with pytest.raises(NotationError, match="not valid JSON"):
        position_argument("{not json")
    with pytest.raises(NotationError, match="field 'players'"):
        position_argument('{"format": "catbox-position/1", "players": 7}')
    # a JSON integer too long for Python's int(): still a typed error, not ValueError
    with pytest.raises(NotationError, match="not valid JSON"):
        position_argument('{"players": ' + "1" * 5000 + "}")


def test_read_positions_batch(tmp_path: Path) -> None:
    batch = tmp_path / "batch.jsonl"
    good = two_player_start()
    lines = [
        position_to_json(good),
        "garbage",
        "",
        TWO_P_MID_TRICK,
        TWO_P_START.replace("official", "oficial"),
    ]
    batch.write_text("\n".join(lines) + "\n")
    arg = f"@{batch}"
    assert is_batch_argument(arg) and is_batch_argument(f"@{tmp_path}/X.JSONL")
    assert not is_batch_argument(TWO_P_START) and not is_batch_argument(f"@{tmp_path}/x.json")
    items = list(position_arguments(arg))
    assert len(items) == 5
    assert items[0] == good
    assert isinstance(items[1], NotationError)
    assert str(items[1]).startswith(f"{batch} line 2: player count must look like")
    assert isinstance(items[2], NotationError)
    assert str(items[2]) == f"{batch} line 3: empty line"
    assert items[3] == position_from_notation(TWO_P_MID_TRICK)
    assert isinstance(items[4], RulesetError)
    assert str(items[4]).startswith(f"{batch} line 5: unknown ruleset 'oficial'")
    assert list(position_arguments(TWO_P_START)) == [good]
    with pytest.raises(NotationError, match="cannot read file"):
        list(position_arguments(f"@{tmp_path / 'none.jsonl'}"))


# ---- rendering -------------------------------------------------------------------------------
def test_render_two_players_mid_trick() -> None:
    pos = position_from_notation(TWO_P_MID_TRICK)
    assert render_text(pos) == "\n".join(
        [
            "2 players, ruleset official",
            "research board (rows red, blue, yellow, green; columns are values)",
            "     1 2 3 4 5 6",
            "  R  . . . . . #",
            "  B  . . 0 . . #",
            "  Y  . . . N 0 #",
            "  G  N . 1 N . #",
            "",
            "  seat  hand             colors  won",
            "     0  1 2 2 3 4 5 5    RBYG      1",
            "     1  1 1 1 2 4 4 5 5  R-YG      0  <- to move",
            "",
            "trick 2 of 8: seat 0 5y (led)",
            "to move: seat 1",
        ]
    )


def test_render_four_players_row_order_covered_column_and_bids() -> None:
    text = render_text(position_from_notation(FOUR_P))
    lines = text.splitlines()
    assert lines[0] == "4 players, ruleset diagonal-bonus,row_order=GYBR"
    assert lines[1] == "research board (rows green, yellow, blue, red; columns are values)"
    assert lines[2:7] == [
        "     1 2 3 4 5 6 7 8 9",
        "  G  . . . . . . . . #",
        "  Y  . . . 2 . . . . #",
        "  B  . . . . . . . . #",
        "  R  . . . 3 . . . . #",
    ]
    assert lines[8] == "  seat  hand               colors  won  bid"
    assert lines[10] == "     1  1 2 2 3 4 5 6 7 8  RBYG      0    ?"
    assert lines[11] == "     2  1 2 3 3 5 6 7 8    RBYG      0    3"
    assert lines[-2:] == ["trick 1 of 8: seat 2 4y (led), seat 3 4r", "to move: seat 0"]
    assert "\x1b[" not in text
    assert "\x1b[31mR\x1b[0m" in render_text(position_from_notation(FOUR_P), ansi=True)


def test_render_finished_round_scores() -> None:
    lines = render_text(position_from_notation(TWO_P_FINISHED)).splitlines()
    # seat 0 won 6 tricks (more than 4: no bonus); seat 1 won 2 and its largest group is
    # 3 cells (R3-R4-B4 and B2-Y2-Y3): 2 + 3 = 5
    assert lines[-6:] == [
        "round over: all 8 tricks played",
        "",
        "scores",
        "  seat  points  bonus  score",
        "     0       6      0      6",
        "     1       2      3      5",
    ]
    assert "<- to move" not in "\n".join(lines)


def test_render_paradox_and_unknown_prediction() -> None:
    # 3 players, must-follow: seat 1 holds 1 and 5, and every cell of 1 and 5 it could use is
    # taken: a paradox in the middle of the last trick; seat 2's prediction is unknown
    text = (
        "3p must-follow,row_order=GYBR | G:100211 Y:021120 B:200201 R:2.2201 | 3 15 4 | "
        "RBY RBYG RBY | lead 2: 1b 2b | won 1 4 2 | bid 1 3 ? | left 1"
    )
    pos = position_from_notation(text)
    assert pos.is_paradox and pos.paradox_by == 1
    lines = render_text(pos).splitlines()
    assert lines[-8:] == [
        "trick 8 of 8: seat 2 1b (led), seat 0 2b",
        "PARADOX: seat 1 has no legal play; the round is over",
        "",
        "scores",
        "  seat  points  bonus  score",
        "     0       1      2      3",
        "     1      -4      0     -4",
        "     2       2      ?      ?",
    ]
