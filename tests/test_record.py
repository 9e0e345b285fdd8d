"""Text game records: writing, reading back exactly, and syntax errors naming the line."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.gen import edited_text

from catbox_solver.errors import CatboxError, RecordError
from catbox_solver.formats.record import (
    GameRecord,
    RecordSyntaxError,
    game_record,
    read_record,
    write_record,
)
from catbox_solver.games.game import play_game
from catbox_solver.games.referee import verify
from catbox_solver.model.position import PLAYS
from catbox_solver.model.rules import PRESETS, Ruleset

DOCS = Path(__file__).resolve().parents[1] / "docs" / "records.md"

ROUND_1_4P_SEED_3 = """\
round 1
start 0
deal 1223346678 1133445677 2234555668 1124577888
discards 8 1 6 7
predictions 3 2 3 1
trick 1 0:7g 1:5g 2:3g 3:7b
trick 2 0:4g 1:6r 2:5r 3:5y
trick 3 1:3r 2:4r 3:2b 0:1b
trick 4 2:2r 3:1y 0:2g 1:7r
trick 5 1:4y 2:6y 3:4b 0:2y
trick 6 2:8y 3:8b 0:3b 1:3y
trick 7 2:5b
paradox 3
won 1 2 3 0
scores 1 4 6 0
"""


def test_written_record_of_a_pinned_game() -> None:
    text = write_record(play_game(Ruleset(players=4), 3))
    assert text.startswith("catbox-record 1\nplayers 4\nruleset official\nseed 3\n\n")
    assert ROUND_1_4P_SEED_3 in text
    assert text.endswith("\n\ntotals -1 3 9 6\nwinners 2\n")
    assert text.count("\nround ") == 4


def test_two_player_rounds_have_leftover_and_neutral_lines() -> None:
    text = write_record(play_game(Ruleset(players=2), 3))
    assert "\nround 1\nstart 0\ndeal 1222333455 1112344555\ndiscards 5 1\n" in text
    assert "leftover 31442\nneutral 1g 3g 4g\ntrick 1 0:4y 1:5r\n" in text
    assert "predictions" not in text
    record = read_record(text)
    assert record.rounds[0].leftover == (3, 1, 4, 4, 2)
    assert record.rounds[0].neutral == (PLAYS[1][3], PLAYS[3][3], PLAYS[4][3])


@settings(max_examples=40)
@given(
    players=st.integers(2, 5),
    seed=st.integers(0, 10**9),
    preset=st.sampled_from(sorted(PRESETS)),
    first=st.integers(0, 4),
)
def test_records_round_trip_and_verify(players: int, seed: int, preset: str, first: int) -> None:
    rules = Ruleset.from_name(preset, players)
    game = play_game(rules, seed, first_start=first % players)
    text = write_record(game)
    record = read_record(text)
    assert record == game_record(game)
    assert write_record(record) == text
    verdict = verify(record)
    assert verdict.valid, str(verdict)
    assert verdict.totals == game.totals
    assert verdict.winners == game.winners
    assert [rv.scores for rv in verdict.rounds] == [r.scores for r in game.rounds]
    assert [rv.paradox_by for rv in verdict.rounds] == [r.paradox_by for r in game.rounds]


def test_names_header_round_trips() -> None:
    game = play_game(Ruleset(players=3), 4)
    record = game_record(game, ("you", "bot1", "bot2"))
    text = write_record(record)
    assert "\nnames you bot1 bot2\n" in text
    assert read_record(text).names == ("you", "bot1", "bot2")
    assert write_record(read_record(text)) == text


def test_line_numbers_are_kept() -> None:
    record = read_record(write_record(play_game(Ruleset(players=4), 3)))
    r = record.rounds[0]
    assert (r.line("round"), r.line("start"), r.line("deal")) == (6, 7, 8)
    assert r.line("trick 1") == 11
    assert r.line("paradox") == 18
    assert record.line("totals") is not None
    assert game_record(play_game(Ruleset(players=4), 3)).rounds[0].line("deal") is None


def test_docs_example_reads_round_trips_and_is_valid() -> None:
    if not DOCS.exists():  # pragma: no cover - docs folder absent
        pytest.skip("docs/records.md not found")
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```", DOCS.read_text(encoding="utf-8"), re.S | re.M)
    example = next(b for b in blocks if b.startswith("catbox-record 1"))
    record = read_record(example)
    assert write_record(record) == example
    assert example == write_record(play_game(Ruleset(players=3), 5))
    verdict = verify(record)
    assert verdict.valid
    assert verdict.totals == (6, 3, -3)
    assert verdict.winners == (0,)


def test_comments_blank_lines_and_spacing_are_ignored() -> None:
    text = write_record(play_game(Ruleset(players=3), 8))
    loose = "# a game\n\n" + "\n".join(
        "  " + line.replace(" ", "   ") + "   # note" if line else "" for line in text.split("\n")
    )
    assert read_record(loose) == read_record(text)
    # without the optional format line and ruleset line
    bare = text.replace("catbox-record 1\n", "").replace("ruleset official\n", "")
    assert write_record(read_record(bare)) == text


def test_partial_record_without_scores_and_totals() -> None:
    text = write_record(play_game(Ruleset(players=3), 8))
    cut = text[: text.index("\nround 2")]
    cut = re.sub(r"\n(won|scores) [^\n]*", "", cut)
    record = read_record(cut)
    assert len(record.rounds) == 1 and record.totals is None
    assert record.rounds[0].won is None and record.rounds[0].scores is None
    assert write_record(record) == cut


GOOD = write_record(play_game(Ruleset(players=4), 3))
GOOD_2P = write_record(play_game(Ruleset(players=2), 3))


def _swap(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (_swap(GOOD, "players 4", "players 7"), 2, "players: 7 is not 2 to 5"),
        (_swap(GOOD, "players 4", "players four"), 2, "not a whole number"),
        (_swap(GOOD, "ruleset official", "ruleset fancy"), 3, "unknown ruleset 'fancy'"),
        (_swap(GOOD, "seed 3", "seed 3\nplayers 4"), 5, "a second 'players' line"),
        (_swap(GOOD, "deal 1223346678", "deal 1223346687"), 8, "ascending order"),
        (_swap(GOOD, "deal 1223346678", "deal 12233466x8"), 8, "not a row of card values"),
        (_swap(GOOD, "discards 8 1 6 7", "discards 8 1 6"), 9, "3 entries for 4 players"),
        (_swap(GOOD, "trick 1 0:7g", "trick 1 0:7q"), 11, "bad color 'q'"),
        (_swap(GOOD, "trick 1 0:7g", "trick 1 0-7g"), 11, "is not seat:play"),
        (_swap(GOOD, "trick 1 0:7g", "trick 1 4:7g"), 11, "seat 4 outside 0..3"),
        (_swap(GOOD, "trick 2 0:4g", "trick 3 0:4g"), 12, "trick 3 where trick 2"),
        (_swap(GOOD, " 3:7b\n", "\n"), 11, "trick 1 has 3 plays"),
        (_swap(GOOD, "trick 1 0:7g 1:5g 2:3g 3:7b", "trick 1 0:7g 1:5g 2:3g 3:7b 0:1r"), 11,
         "5 plays for 4 players"),
        (_swap(GOOD, "paradox 3\n", "paradox 3\ntrick 8 0:1r\n"), 19, "a trick after the"),
        (_swap(GOOD, "won 1 2 3 0\nscores 1 4 6 0", "scores 1 4 6 0\nwon 1 2 3 0"), 20,
         "'won' must come before scores"),
        (_swap(GOOD, "predictions 3 2 3 1\ntrick 1", "trick 1"), 6, "no 'predictions' line"),
        (_swap(GOOD, "trick 1 0:7g", "predictions 1 1 1 1\ntrick 1 0:7g"), 11,
         "a second 'predictions' line"),
        (_swap(GOOD, "round 2", "round 3"), 22, "round 3 where round 2"),
        (_swap(GOOD, "start 1\n", "seed 9\nstart 1\n"), 23, "header line 'seed' after"),
        (_swap(GOOD, "start 0\n", "bogus 1\n"), 7, "unknown line 'bogus'"),
        (_swap(GOOD, "totals -1 3 9 6", "totals -1 3 9"), 66, "totals: 3 entries"),
        (_swap(GOOD, "winners 2", "winners 2\nround 5"), 68, "a round after the game totals"),
        (_swap(GOOD, "catbox-record 1\n", "catbox-record 2\n"), 1, "format version 1"),
        (_swap(GOOD_2P, "leftover 31442\n", ""), 6, "2 players need a 'leftover' line"),
        (_swap(GOOD_2P, "discards 5 1\n", "discards 5 1\npredictions 1 1\n"), 10,
         "make no predictions"),
        (_swap(GOOD, "predictions 3 2 3 1", "predictions 3 2 3 1\nleftover 12345"), 11,
         "'leftover' is for 2 players"),
        # counts are at least 0 (the grammar has no sign; -1 was a rules verdict, exit 1)
        (_swap(GOOD, "predictions 3 2 3 1", "predictions -1 2 3 1"), 10,
         "predictions: -1 is below 0"),
        (_swap(GOOD, "won 1 2 3 0", "won -1 2 3 0"), 19, "won: -1 is below 0"),
        (_swap(GOOD, "totals -1 3 9 6\nwinners 2", "winners 2\ntotals -1 3 9 6"), 67,
         "'totals' must come before winners"),
        ("round 1\nstart 0\n", 1, "needs a 'players' line"),
        ("players 3\nstart 0\n", 2, "outside a round"),
    ],
)
def test_syntax_errors_name_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(RecordSyntaxError) as err:
        read_record(text)
    assert err.value.line == line
    assert str(err.value).startswith(f"line {line}: ")
    assert message in str(err.value)
    assert isinstance(err.value, RecordError)


def test_a_record_needs_a_round() -> None:
    with pytest.raises(RecordError, match="no round"):
        read_record("players 3\nruleset official\n")
    with pytest.raises(RecordError, match="is text"):
        read_record(b"players 3")  # type: ignore[arg-type]


def test_missing_start_deal_discards() -> None:
    for field in ("start 0\n", "deal 1223346678 1133445677 2234555668 1124577888\n",
                  "discards 8 1 6 7\n"):
        with pytest.raises(RecordSyntaxError) as err:
            read_record(_swap(GOOD, field, ""))
        assert err.value.line == 6
        assert f"no '{field.split()[0]}' line" in str(err.value)


def test_record_values_are_frozen() -> None:
    record = read_record(GOOD)
    assert isinstance(record, GameRecord)
    with pytest.raises(AttributeError):
        record.seed = 4  # type: ignore[misc]


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (("Ann Lee", "Bo", "Cy"), "names: 'Ann Lee' is not one word without '#'"),
        (("Ann", " Bo", "Cy"), "names: ' Bo' is not one word without '#'"),
        (("Ann", "Bo\n", "Cy"), "names: 'Bo\\n' is not one word without '#'"),
        (("Ann", "#1", "Cy"), "names: '#1' is not one word without '#'"),
        (("Ann", "", "Cy"), "names: '' is not one word without '#'"),
        (("Ann", "Bo"), "names: 2 names for 3 players"),
    ],
)
def test_names_that_would_not_read_back_are_refused(
    names: tuple[str, ...], message: str
) -> None:
    """write_record wrote names with spaces, '#' or the wrong count, and read_record then
    refused its own output (or read other names)."""
    from catbox_solver.errors import RecordError
    from catbox_solver.formats.record import game_record, write_record
    from catbox_solver.games.game import play_game
    from catbox_solver.model.rules import Ruleset

    game = play_game(Ruleset(3), 5)
    with pytest.raises(RecordError) as info:
        write_record(game_record(game, names))
    assert str(info.value) == message
    good = ("Ann", "Bo", "Cy")
    assert read_record(write_record(game_record(game, good))).names == good


# ---- records built in memory ---------------------------------------------------------------
def _played(players: int = 4, seed: int = 3) -> GameRecord:
    return game_record(play_game(Ruleset(players=players), seed=seed))


def test_a_hand_built_record_with_lists_verifies_as_with_tuples() -> None:
    """Lists where the record holds tuples are stored as tuples: before, recorded tricks
    won given as a list never equalled the replay's tuple, and a valid game was judged
    'wrong score'."""
    good = _played()
    r0 = good.rounds[0]
    assert r0.won is not None and good.totals is not None
    # lists where the record's fields are typed as tuples: Any, wrongly typed on purpose
    totals: Any = list(good.totals)
    won: Any = list(r0.won)
    deal: Any = [list(h) for h in r0.deal]
    tricks: Any = [[list(p) for p in t] for t in r0.tricks]
    rounds: Any = [replace(r0, won=won, deal=deal, tricks=tricks), *good.rounds[1:]]
    listed = replace(good, totals=totals, rounds=rounds)
    assert listed == good
    assert verify(listed) == verify(good)
    assert verify(listed).valid
    assert write_record(listed) == write_record(good)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"deal": None}, "round 1: deal is a sequence of hands, not None"),
        ({"deal": ((1, 2.0),)}, "round 1: each hand of the deal is a sequence of whole numbers"),
        ({"discards": "8167"}, "round 1: discards is a sequence of whole numbers, not '8167'"),
        ({"won": (1, 2, True, 0)}, "round 1: won is a sequence of whole numbers"),
        ({"tricks": ((3,),)}, "round 1: trick 1 holds (seat, Play) pairs, not 3"),
        ({"tricks": (((0, (7, 3)),),)}, "round 1: each play of trick 1 is a Play like"),
        ({"tricks": (((0, PLAYS[7][3]._replace(color=7)),),)},  # type: ignore[arg-type]
         "round 1: each play of trick 1 is a Play like Play(7, 0), not Play(value=7, color=7)"),
        ({"neutral": 5}, "round 1: neutral is a sequence of Plays, not 5"),
        ({"number": 1.5}, "round field number is a whole number, not 1.5"),
        ({"paradox": "3"}, "round 1: paradox is a seat number or None, not '3'"),
        ({"lines": None}, "round 1: lines is a mapping of field to line number, not None"),
    ],
)
def test_a_hand_built_round_of_the_wrong_shape_is_refused(
    change: dict[str, Any], message: str
) -> None:
    """Before, such rounds crashed inside the referee (TypeError, AttributeError)."""
    r0 = _played().rounds[0]
    with pytest.raises(RecordError) as err:
        replace(r0, **change)
    assert message in str(err.value)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rules": None}, "a game record needs a Ruleset, not None"),
        ({"rounds": ()}, "a game record's rounds are one or more RoundRecords, not ()"),
        ({"rounds": (None,)}, "a game record's rounds are one or more RoundRecords"),
        ({"seed": "3"},
         "a game record's seed is a whole number of at most 18 digits or None, not '3'"),
        # (a seed of 19 digits was written, and the record reader refused it)
        ({"seed": 10**18}, "a game record's seed is a whole number of at most 18 digits or "
                           "None, not 1000000000000000000"),
        ({"seed": -(10**18) + 1}, None),
        ({"names": 5}, "a game record's names are text, not 5"),
        ({"totals": 7}, "the game's totals is a sequence of whole numbers, not 7"),
    ],
)
def test_a_hand_built_game_record_of_the_wrong_shape_is_refused(
    change: dict[str, Any], message: str | None
) -> None:
    if message is None:  # (in range: taken, and its text reads back the same)
        game = replace(_played(), **change)
        assert read_record(write_record(game)) == game
        return
    with pytest.raises(RecordError) as err:
        replace(_played(), **change)
    assert message in str(err.value)


@pytest.mark.parametrize(
    ("change", "rule", "message"),
    [
        ({"deal_hands": 3}, "card not in hand", "the deal has 3 hands for 4 players"),
        ({"discards_count": 2}, "card not in hand", "2 discards for 4 players"),
        ({"first_card": 0}, "card not in hand", "value 0 is not in the 4-player deck"),
    ],
)
def test_a_hand_built_round_with_wrong_counts_is_judged_not_crashed(
    change: dict[str, int], rule: str, message: str
) -> None:
    """Counts a written record cannot get wrong (its reader checks them) but one built in
    memory can: the referee names them (a ValueError from zip before)."""
    good = _played()
    r0 = good.rounds[0]
    if "deal_hands" in change:
        r = replace(r0, deal=r0.deal[: change["deal_hands"]])
    elif "discards_count" in change:
        r = replace(r0, discards=r0.discards[: change["discards_count"]])
    else:
        r = replace(r0, deal=((change["first_card"], *r0.deal[0][1:]), *r0.deal[1:]))
    verdict = verify(replace(good, rounds=(r, *good.rounds[1:])))
    assert not verdict.valid
    assert verdict.rule == rule
    assert verdict.message is not None and message in verdict.message
    assert verdict.round == 1


_JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 12), st.floats(allow_nan=True), st.text(max_size=3),
    st.lists(st.integers(-1, 10), max_size=10).map(tuple),
    st.lists(st.lists(st.integers(0, 9), max_size=10).map(tuple), max_size=5).map(tuple),
)
_ROUND_FIELDS = ("number", "start", "deal", "discards", "leftover", "neutral", "predictions",
                 "tricks", "paradox", "won", "scores")


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(_ROUND_FIELDS), _JUNK, st.integers(2, 5), st.integers(0, 50))
def test_a_hand_built_record_is_judged_or_refused_never_crashes(
    name: str, junk: Any, players: int, seed: int
) -> None:
    """Any field of a played round replaced by junk of any type: building the record
    raises RecordError, or the referee judges it (valid or not) or names what is wrong
    with a CatboxError; never another exception (a TypeError, ValueError or
    AttributeError from deep inside before)."""
    good = _played(players, seed)
    try:
        bad_round = replace(good.rounds[0], **{name: junk})
        record = replace(good, rounds=(bad_round, *good.rounds[1:]))
    except RecordError:
        return
    _judged_or_refused(record)


def _judged_or_refused(record: GameRecord) -> None:
    """The referee judges ``record`` or names what is wrong with a CatboxError. A record it
    finds valid (junk that still replays: an optional field left out, () for no neutral
    tokens) is consistent: written and read back, it is judged the same."""
    try:
        verdict = verify(record)
    except CatboxError:
        return
    if verdict.valid:
        assert verify(read_record(write_record(record))) == verdict
    else:
        assert verdict.rule and verdict.message


def test_neutral_tokens_with_more_than_two_players_are_judged() -> None:
    """The reader refuses a 'neutral' line for 3-5 players; a record built in memory with
    one (even empty) was judged valid, and its written text could not be read back."""
    good = _played(3, 0)
    bad = replace(good, rounds=(replace(good.rounds[0], neutral=()), *good.rounds[1:]))
    verdict = verify(bad)
    assert not verdict.valid
    assert verdict.rule == "neutral tokens"
    assert verdict.message == "neutral tokens are placed with 2 players only, not 3"
    assert verify(good).valid


@pytest.mark.parametrize(
    ("players", "predictions", "message"),
    [
        (2, (), "2 players make no predictions with ruleset official"),
        (4, (1, 2), "2 predictions for 4 players"),
    ],
)
def test_predictions_the_reader_refuses_are_judged(
    players: int, predictions: tuple[int, ...], message: str
) -> None:
    """Before, an empty or short predictions tuple in a record built in memory replayed
    (the bonus read wrongly), and its written text could not be read back."""
    good = _played(players, 0)
    bad = replace(good, rounds=(replace(good.rounds[0], predictions=predictions),
                                *good.rounds[1:]))
    verdict = verify(bad)
    assert not verdict.valid
    assert (verdict.rule, verdict.message) == ("prediction", message)


def test_rounds_are_numbered_from_one_as_the_reader_asks() -> None:
    good = _played(3, 0)
    with pytest.raises(RecordError, match="round 2 where round 1 was expected"):
        replace(good, rounds=(replace(good.rounds[0], number=2), *good.rounds[1:]))


_RECORD_TEXTS = [write_record(_played(players, seed)) for players in range(2, 6)
                 for seed in range(3)]


@settings(max_examples=200, deadline=None)
@given(edited_text(_RECORD_TEXTS, "0123456789rbygRBYG :-#x\t"))
def test_an_edited_record_is_refused_or_judged_never_crashes(text: str) -> None:
    """A record file edited by hand (a typo, a line lost or doubled): the reader names the
    line, or the referee judges what it reads; any other exception is a bug. A valid
    verdict must survive a second write and read."""
    try:
        record = read_record(text)
    except RecordError as err:
        assert str(err)
        return
    _judged_or_refused(record)
