"""The referee: generated records verify valid; a record with one event altered illegally is
caught at that event with exactly the rule it breaks, its round and its line."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Sequence

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from oracles.gen import paradox_free_round

from catbox_solver.formats.record import (
    GameRecord,
    RoundRecord,
    game_record,
    read_record,
    write_record,
)
from catbox_solver.games.game import hands_after_discards, play_game
from catbox_solver.games.referee import Verdict, verify
from catbox_solver.model.deal import deck
from catbox_solver.model.position import PLAYS, Play, Position, cells_of
from catbox_solver.model.rules import PRESETS, RED, Ruleset

players_st = st.integers(2, 5)
seed_st = st.integers(0, 10**9)
preset_st = st.sampled_from(sorted(PRESETS))

SeatPlay = tuple[int, Play]


# ---- helpers: replay a recorded round, alter it, write it, read it, verify it -------------
def start_of(rules: Ruleset, r: RoundRecord) -> Position:
    return Position.new_round(
        rules,
        hands_after_discards(r.deal, r.discards),
        r.start,
        r.predictions,
        r.leftover[: rules.neutral_tokens],
    )


def before_each_play(rules: Ruleset, r: RoundRecord) -> list[Position]:
    """The position before each recorded play (the plays are legal)."""
    pos = start_of(rules, r)
    out = []
    for _, play in r.plays:
        out.append(pos)
        pos = pos.play(play)
    return out


def regroup(plays: Sequence[SeatPlay], n: int) -> tuple[tuple[SeatPlay, ...], ...]:
    return tuple(tuple(plays[i : i + n]) for i in range(0, len(plays), n))


def altered(record: GameRecord, index: int, **changes: object) -> GameRecord:
    rounds = list(record.rounds)
    rounds[index] = dataclasses.replace(rounds[index], **changes)  # type: ignore[arg-type]
    return dataclasses.replace(record, rounds=tuple(rounds))


def with_play(record: GameRecord, index: int, k: int, new: SeatPlay) -> GameRecord:
    r = record.rounds[index]
    plays = list(r.plays)
    plays[k] = new
    return altered(record, index, tricks=regroup(plays, record.rules.players))


def verdict_of(record: GameRecord) -> tuple[Verdict, GameRecord, list[str]]:
    """Write the record, read it back (so lines are numbered) and verify it."""
    text = write_record(record)
    read = read_record(text)
    return verify(read), read, text.splitlines()


def expect(record: GameRecord, rule: str, index: int, field: str) -> Verdict:
    verdict, read, _ = verdict_of(record)
    assert not verdict.valid
    assert verdict.rule == rule, str(verdict)
    assert verdict.round == index + 1
    line = read.rounds[index].line(field)
    assert line is not None
    assert verdict.line == line
    assert [rv.number for rv in verdict.rounds] == list(range(1, index + 1))
    return verdict


def trick_field(k: int, n: int) -> str:
    return f"trick {k // n + 1}"


def game(players: int, seed: int, preset: str = "official") -> GameRecord:
    return game_record(play_game(Ruleset.from_name(preset, players), seed))


def find_play(
    record: GameRecord, want: Callable[[Position, int, Play], Play | None]
) -> tuple[int, int, SeatPlay] | None:
    """The first recorded play (round index, play index, replacement) for which ``want``
    proposes a replacement."""
    for i, r in enumerate(record.rounds):
        for k, (pos, (seat, play)) in enumerate(
            zip(before_each_play(record.rules, r), r.plays, strict=True)
        ):
            new = want(pos, seat, play)
            if new is not None:
                return i, k, (seat, new)
    return None


def all_plays(rules: Ruleset) -> list[Play]:
    return [PLAYS[v][c] for v in range(1, rules.values + 1) for c in range(4)]


# ---- valid records ---------------------------------------------------------------------
def test_a_generated_game_is_valid_with_its_scores() -> None:
    g = play_game(Ruleset(players=4), 3)
    verdict = verify(read_record(write_record(g)))
    assert verdict.valid and str(verdict) == "valid"
    assert [rv.scores for rv in verdict.rounds] == [
        (1, 4, 6, 0), (-1, 0, 0, 4), (1, -2, 2, 1), (-2, 1, 1, 1)
    ]
    assert verdict.totals == (-1, 3, 9, 6)
    assert verdict.winners == (2,)


def paradox_free_record(players: int, seed: int) -> GameRecord:
    """A one-round record of a paradox-free round (search from tests/oracles/gen.py)."""
    rules = Ruleset(players=players)
    pos, line = paradox_free_round(rules, seed)
    missing = Counter(deck(rules))
    missing.subtract(v for hand in pos.hands for v in hand)
    leftover: list[int] = []
    if players == 2:  # 2 players: the revealed cards are the neutral tokens' values
        leftover = sorted(v for _, v in cells_of(pos.neutral))
        missing.subtract(leftover)
    spare = sorted(missing.elements())
    discards = spare[:players]
    leftover += spare[players:]
    hands = tuple(tuple(sorted((*h, d))) for h, d in zip(pos.hands, discards, strict=True))
    seats_plays = []
    p = pos
    for play in line:
        seats_plays.append((p.to_move, play))
        p = p.play(play)
    assert p.tricks_left == 0 and not p.is_paradox
    r = RoundRecord(
        number=1,
        start=pos.leader,
        deal=hands,
        discards=tuple(discards),
        leftover=tuple(leftover),
        neutral=tuple(sorted(PLAYS[v][c] for c, v in cells_of(pos.neutral)))
        if players == 2
        else None,
        predictions=None
        if pos.predictions is None
        else tuple(int(x or 0) for x in pos.predictions),
        tricks=regroup(seats_plays, players),
        paradox=None,
        won=p.tricks_won,
        scores=p.scores(),
    )
    return GameRecord(rules=rules, rounds=(r,))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_paradox_free_round_is_valid(players: int) -> None:
    record = paradox_free_record(players, 1)
    verdict, _, _ = verdict_of(record)
    assert verdict.valid, str(verdict)
    assert verdict.rounds[0].paradox_by is None
    assert sum(verdict.rounds[0].tricks_won) == 8


# ---- one illegal play ------------------------------------------------------------------
@settings(max_examples=25)
@given(players=players_st, seed=seed_st, preset=preset_st)
def test_a_play_on_a_taken_cell_breaks_rule_1(players: int, seed: int, preset: str) -> None:
    record = game(players, seed, preset)

    def taken(pos: Position, seat: int, play: Play) -> Play | None:
        for cand in all_plays(record.rules):
            if (
                cand.value in pos.hands[seat]
                and pos.owner_of(cand.value, cand.color) is not None
                and pos.colors[seat] >> cand.color & 1
            ):
                return cand
        return None

    found = find_play(record, taken)
    assume(found is not None)
    assert found is not None
    i, k, new = found
    v = expect(with_play(record, i, k, new), "rule 1", i, trick_field(k, players))
    assert f"{new[0]}:{new[1].text}" in v.message


@settings(max_examples=25)
@given(players=players_st, seed=seed_st, preset=preset_st)
def test_a_lost_color_breaks_rule_2(players: int, seed: int, preset: str) -> None:
    record = game(players, seed, preset)

    def lost(pos: Position, seat: int, play: Play) -> Play | None:
        for cand in all_plays(record.rules):
            if (
                cand.value in pos.hands[seat]
                and pos.owner_of(cand.value, cand.color) is None
                and not pos.colors[seat] >> cand.color & 1
            ):
                return cand
        return None

    found = find_play(record, lost)
    assume(found is not None)
    assert found is not None
    i, k, new = found
    expect(with_play(record, i, k, new), "rule 2", i, trick_field(k, players))


@settings(max_examples=20)
@given(players=players_st, seed=seed_st)
def test_an_early_red_lead_breaks_the_red_lead_rule(players: int, seed: int) -> None:
    record = game(players, seed)
    r = record.rounds[0]
    pos = start_of(record.rules, r)
    assert any(p.color != RED for p in pos.legal_plays())
    seat = r.plays[0][0]
    new = (seat, PLAYS[pos.hands[seat][0]][RED])
    v = expect(with_play(record, 0, 0, new), "red lead", 0, "trick 1")
    assert v.message == f"{seat}:{new[1].text} in trick 1: red may not be led before red is broken"
    assert str(v).count("red lead") == 1  # (the rule was named twice)


@settings(max_examples=20)
@given(players=players_st, seed=seed_st)
def test_an_off_color_follow_breaks_must_follow(players: int, seed: int) -> None:
    record = game(players, seed, "must-follow")

    def off(pos: Position, seat: int, play: Play) -> Play | None:
        if not pos.trick or play.color != pos.trick[0].color:
            return None
        for cand in all_plays(record.rules):
            if (
                cand.color != pos.trick[0].color
                and cand.value in pos.hands[seat]
                and pos.owner_of(cand.value, cand.color) is None
                and pos.colors[seat] >> cand.color & 1
            ):
                return cand
        return None

    found = find_play(record, off)
    assume(found is not None)
    assert found is not None
    i, k, new = found
    expect(with_play(record, i, k, new), "must follow", i, trick_field(k, players))


@settings(max_examples=20)
@given(players=players_st, seed=seed_st, k=st.integers(1, 10))
def test_a_swapped_seat_label_is_the_wrong_player(players: int, seed: int, k: int) -> None:
    record = game(players, seed)
    k = k % (len(record.rounds[0].plays) - 1) + 1
    seat, play = record.rounds[0].plays[k]
    new = ((seat + 1) % players, play)
    v = expect(with_play(record, 0, k, new), "wrong player", 0, trick_field(k, players))
    assert f"it is seat {seat}'s turn" in v.message


@settings(max_examples=20)
@given(players=players_st, seed=seed_st, k=st.integers(0, 12))
def test_a_card_not_in_hand(players: int, seed: int, k: int) -> None:
    record = game(players, seed)
    k %= len(record.rounds[0].plays)
    pos = before_each_play(record.rules, record.rounds[0])[k]
    seat = pos.to_move
    missing = [v for v in range(1, record.rules.values + 1) if v not in pos.hands[seat]]
    assume(missing)
    new = (seat, PLAYS[missing[0]][1])
    v = expect(with_play(record, 0, k, new), "card not in hand", 0, trick_field(k, players))
    assert str(v).count("card not in hand") == 1  # (the rule was named twice)


# ---- the deal and the setup ------------------------------------------------------------
def test_a_discard_not_in_the_dealt_hand() -> None:
    record = game(4, 3)  # round 1 seat 0 was dealt 1223346678
    v = expect(altered(record, 0, discards=(5, 1, 6, 7)), "card not in hand", 0, "discards")
    assert v.message == "seat 0 discarded 5, which is not in its dealt hand"


def test_more_copies_than_exist() -> None:
    record = game(4, 3)
    deal = list(record.rounds[0].deal)
    assert deal[0] == (1, 2, 2, 3, 3, 4, 6, 6, 7, 8)
    deal[0] = (2, 2, 3, 3, 4, 6, 6, 7, 8, 8)  # a 1 becomes a sixth 8
    v = expect(altered(record, 0, deal=tuple(deal)), "card not in hand", 0, "deal")
    assert v.message == "value 8 appears 6 times; only 5 copies exist"


def test_a_value_outside_the_deck_and_a_wrong_hand_size() -> None:
    record = game(3, 3)
    deal = list(record.rounds[0].deal)
    deal[1] = tuple(sorted((*deal[1][1:], 7)))
    v = expect(altered(record, 0, deal=tuple(deal)), "card not in hand", 0, "deal")
    assert v.message == "value 7 is not in the 3-player deck (values 1-6)"
    deal[1] = deal[1][:-1]
    v = expect(altered(record, 0, deal=tuple(deal)), "card not in hand", 0, "deal")
    assert v.message == "seat 1 was dealt 9 cards; a 3-player deal gives 10"


def test_two_player_neutral_tokens_and_leftover() -> None:
    record = game(2, 3)  # round 1: leftover 31442, neutral 1g 3g 4g
    bad = (PLAYS[1][3], PLAYS[3][3], PLAYS[4][2])
    v = expect(altered(record, 0, neutral=bad), "neutral tokens", 0, "neutral")
    assert "place neutral tokens on 1g 3g 4g" in v.message
    v = expect(altered(record, 0, leftover=(3, 1, 4, 4)), "card not in hand", 0, "leftover")
    assert v.message == "4 leftover cards; 2 players leave 5"


def test_a_bad_leftover_card_is_named_at_the_leftover_line() -> None:
    """A leftover card that makes six copies, or is not in the deck, is the leftover line's
    fault (game audit: it was reported at the deal line, as a hand's)."""
    record = game(2, 3)  # round 1: leftover 31442; the deal holds four 4s and two 5s...
    dealt = Counter(v for hand in record.rounds[0].deal for v in hand)
    extra = next(v for v in range(1, 6) if dealt[v] == 5)
    left = (3, 1, 4, 4, extra)
    v = expect(altered(record, 0, leftover=left), "card not in hand", 0, "leftover")
    assert v.message == (f"value {extra} appears 6 times (5 dealt, 1 left over); "
                         "only 5 copies exist")
    v = expect(altered(record, 0, leftover=(3, 1, 4, 4, 9)), "card not in hand", 0, "leftover")
    assert v.message == "a leftover card of value 9 is not in the 2-player deck (values 1-5)"


def test_a_round_start_outside_the_seats() -> None:
    """In memory round 1 may start anywhere but at a seat that does not exist (it was
    reported as "the start passes clockwise, so seat 1 starts it")."""
    record = game(3, 2)
    v = verify(altered(record, 0, start=7))
    assert (v.valid, v.rule, v.round) == (False, "wrong player", 1)
    assert v.message == "round 1 is started by seat 7, outside 0..2"


def test_a_prediction_the_ruleset_does_not_allow() -> None:
    record = game(3, 3)
    v = expect(altered(record, 0, predictions=(2, 1, 1)), "prediction", 0, "predictions")
    assert v.message == "seat 0 predicted 2; allowed: 1, 3, 4"


def test_a_round_in_memory_without_predictions_gets_a_verdict() -> None:
    """The reader refuses a 3-5 player round with no 'predictions' line; built in memory,
    such a record raised PositionError out of verify (its scores need the predictions)."""
    record = game(3, 1)
    v = verify(altered(record, 0, predictions=None))
    assert (v.valid, v.rule, v.round) == (False, "prediction", 1)
    assert v.message == "3 players predict: round 1 has no predictions"
    assert verify(altered(game(2, 1), 0, predictions=None)).valid  # (2 players: none)


def test_the_start_must_pass_clockwise() -> None:
    record = game(4, 3)
    v = expect(altered(record, 1, start=2), "wrong player", 1, "start")
    assert "seat 1 starts it" in v.message


def test_more_rounds_than_players() -> None:
    record = game(2, 3)
    extra = dataclasses.replace(record.rounds[0], number=3)
    longer = dataclasses.replace(record, rounds=(*record.rounds, extra), totals=None,
                                 winners=None)
    expect(longer, "game over", 2, "round")


# ---- the paradox claim -----------------------------------------------------------------
@settings(max_examples=25)
@given(players=players_st, seed=seed_st, preset=preset_st, k=st.integers(0, 30))
def test_a_paradox_claimed_while_a_legal_play_exists(
    players: int, seed: int, preset: str, k: int
) -> None:
    record = game(players, seed, preset)
    r = record.rounds[0]
    k %= len(r.plays)
    pos = before_each_play(record.rules, r)[k]
    assert pos.legal_plays()
    claim = altered(
        record, 0, tricks=regroup(r.plays[:k], players), paradox=pos.to_move
    )
    v = expect(claim, "false paradox claim", 0, "paradox")
    assert v.message.startswith(f"seat {pos.to_move} claims a paradox but has a legal play")


def test_a_claim_by_a_seat_not_to_move() -> None:
    record = game(4, 3)  # round 1: seat 3 has no legal play after trick 7 2:5b
    v = expect(altered(record, 0, paradox=1), "false paradox claim", 0, "paradox")
    assert v.message == "seat 1 claims a paradox, but it is seat 3's turn"


def test_a_missing_paradox_claim() -> None:
    record = game(4, 3)
    v = expect(altered(record, 0, paradox=None), "false paradox claim", 0, "trick 7")
    assert v.message == "seat 3 has no legal play in trick 7, but the record claims no paradox"


def test_plays_that_stop_early_without_a_claim() -> None:
    record = game(4, 3)
    r = record.rounds[0]
    v = expect(
        altered(record, 0, tricks=regroup(r.plays[:10], 4), paradox=None),
        "false paradox claim", 0, "trick 3",
    )
    assert v.message.startswith("the plays stop in trick 3 with no paradox claim while seat 3")


def test_a_claim_after_the_last_trick_and_a_play_after_it() -> None:
    record = paradox_free_record(3, 1)
    r = record.rounds[0]
    claim = altered(record, 0, paradox=r.start)
    expect(claim, "false paradox claim", 0, "paradox")
    last = before_each_play(record.rules, r)[-1].play(r.plays[-1][1])
    extra = (last.leader, PLAYS[last.hands[last.leader][0]][1])
    more = altered(record, 0, tricks=(*r.tricks, (extra,)), paradox=None)
    v = expect(more, "round over", 0, "trick 9")
    assert "after the last trick" in v.message


# ---- scores ----------------------------------------------------------------------------
def test_wrong_scores_tricks_totals_and_winners() -> None:
    record = game(4, 3)
    v = expect(altered(record, 1, scores=(-1, 0, 1, 4)), "wrong score", 1, "scores")
    assert v.message == "scores are -1 0 0 4, the record says -1 0 1 4"
    v = expect(altered(record, 2, won=(1, 2, 1, 2)), "wrong score", 2, "won")
    assert v.message == "tricks won are 1 2 2 1, the record says 1 2 1 2"
    verdict, read, _ = verdict_of(dataclasses.replace(record, totals=(0, 3, 9, 6)))
    assert (verdict.rule, verdict.round, verdict.line) == ("wrong score", None,
                                                           read.line("totals"))
    verdict, read, _ = verdict_of(dataclasses.replace(record, winners=(3,)))
    assert (verdict.rule, verdict.line) == ("wrong score", read.line("winners"))
    assert verdict.message == "seat 2 won the game, the record says seat 3"
    verdict, _, _ = verdict_of(dataclasses.replace(record, winners=(0, 2, 3)))
    assert verdict.message == "seat 2 won the game, the record says seats 0, 2 and 3"
    # (the file reader refuses a winners line naming no seat; a record built in code)
    verdict = verify(dataclasses.replace(record, winners=()))
    assert verdict.message == "seat 2 won the game, the record says no seat"


def test_a_game_not_over_has_no_winners() -> None:
    """The game ends after as many rounds as players: a record of fewer rounds is valid
    with its totals but names no winners, and one that names winners is wrong (found by a
    rules audit: round 1 of a 3-player game was 'valid ... winners: 0 1')."""
    record = game(4, 3)
    first_two = dataclasses.replace(record, rounds=record.rounds[:2], totals=None, winners=None)
    verdict, _, _ = verdict_of(first_two)
    assert verdict.valid and len(verdict.rounds) == 2 and verdict.winners is None
    assert verdict.totals == tuple(
        sum(r.scores[s] for r in verdict.rounds) for s in range(4)
    )
    named, read, _ = verdict_of(dataclasses.replace(first_two, winners=(2,)))
    assert (named.rule, named.line) == ("wrong score", read.line("winners"))
    assert named.message == "winners named after 2 of 4 rounds: the game is not over"
    whole, _, _ = verdict_of(record)
    assert whole.valid and whole.winners == (2,)


def test_the_first_illegal_event_is_reported() -> None:
    record = game(4, 3)
    r = record.rounds[0]
    # trick 2 with a swapped seat, and a wrong score in round 3: the trick comes first
    bad = with_play(record, 0, 5, ((r.plays[5][0] + 1) % 4, r.plays[5][1]))
    bad = altered(bad, 2, scores=(0, 0, 0, 0))
    v = expect(bad, "wrong player", 0, "trick 2")
    assert str(v).startswith(f"invalid: round 1, line {v.line}: wrong player: ")
