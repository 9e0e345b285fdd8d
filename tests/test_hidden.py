"""Hidden hands (catbox_solver.dd.hidden): the deals a seat cannot tell apart, their
weights, and the odds over them, checked against a brute force written here (labelled
cards dealt every way, each deal solved by the plain minimax of tests/oracles/minimax_ref.py)."""

from __future__ import annotations

import math
import random
import threading
import time
from collections import Counter
from fractions import Fraction
from itertools import combinations, combinations_with_replacement
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.gen import line_position, random_line, start_position
from oracles.minimax_ref import minimax

from catbox_solver.dd import hidden
from catbox_solver.dd.hidden import (
    consistent_deals,
    deal_count,
    deal_ways,
    sample_deal,
    single_dummy,
    unseen_values,
)
from catbox_solver.dd.threads import StopSignal
from catbox_solver.errors import SearchError
from catbox_solver.formats.notation import position_from_notation
from catbox_solver.model.position import Position, cell_bit
from catbox_solver.model.rules import RED, Ruleset

Hands = tuple[tuple[int, ...], ...]  # the other seats' hands, each a tuple of card values


def late_positions(players: int, seed: int, left: int, count: int) -> list[Position]:
    """``count`` positions with ``left`` tricks left (or fewer), not over, from seeded
    random rounds: the one where that trick starts, or one of its plays later."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        line = random_line(start_position(Ruleset(players=players), rng), rng)
        inner = [p for p in line if not p.is_over and p.tricks_left <= left]
        if inner:
            out.append(rng.choice(inner))
    return out


def brute_deals(pos: Position, seat: int, discard: tuple[int, ...] = ()) -> Counter[Hands]:
    """Every deal of the labelled cards ``seat`` cannot see to the other hands (each
    hand's cards chosen by their indices), counted by the other hands it gives."""
    rules = pos.rules
    cards = [v for v in range(1, rules.values + 1) for _ in range(rules.copies)]
    seen = list(pos.hands[seat]) + list(discard)
    for v in range(1, rules.values + 1):  # the tokens on the board, one card each
        for c in range(4):
            if pos.used >> (4 * (v - 1) + c) & 1:
                seen.append(v)
    for v in seen:
        cards.remove(v)
    others = [s for s in range(rules.players) if s != seat]
    found: Counter[Hands] = Counter()

    def give(k: int, free: list[int], hands: Hands) -> None:
        if k == len(others):
            found[hands] += 1
            return
        for pick in combinations(free, len(pos.hands[others[k]])):
            rest = [i for i in free if i not in pick]
            give(k + 1, rest, (*hands, tuple(sorted(cards[i] for i in pick))))

    give(0, list(range(len(cards))), ())
    return found


def other_hands(pos: Position, seat: int) -> Hands:
    return tuple(h for s, h in enumerate(pos.hands) if s != seat)


# ---- the deals --------------------------------------------------------------------------
def test_unseen_values_exact() -> None:
    pos = late_positions(4, 1, 2, 1)[0]
    seat = pos.to_move
    unseen = unseen_values(pos, seat)
    held = Counter(v for s, h in enumerate(pos.hands) if s != seat for v in h)
    assert held - unseen == Counter()  # the real hands are among the unseen cards
    # 40 cards less the board's tokens and the seat's hand: the others' and 4 discards
    tokens = bin(pos.used).count("1")
    assert sum(unseen.values()) == 40 - tokens - len(pos.hands[seat])
    assert sum(unseen.values()) == sum(held.values()) + 4
    discard = next(iter(unseen - held or unseen))
    assert unseen_values(pos, seat, (discard,)) == unseen - Counter([discard])


@pytest.mark.parametrize("players, left, seed", [(2, 1, 3), (3, 1, 4), (4, 1, 5), (2, 2, 6)])
def test_deals_and_weights_match_labelled_cards(players: int, left: int, seed: int) -> None:
    for pos in late_positions(players, seed, left, 1 if players == 4 else 3):
        for seat in range(players):
            brute = brute_deals(pos, seat)
            mine = {other_hands(d, seat): w for d, w in consistent_deals(pos, seat)}
            assert mine == dict(brute)
            assert deal_count(pos, seat) == len(brute)
            assert deal_ways(pos, seat) == sum(brute.values())
            assert other_hands(pos, seat) in mine  # the real deal is one of them


def test_a_known_discard_is_not_dealt() -> None:
    pos = late_positions(3, 9, 1, 1)[0]
    seat = pos.to_move
    discard = (min(unseen_values(pos, seat)),)
    brute = brute_deals(pos, seat, discard)
    mine = {other_hands(d, seat): w for d, w in consistent_deals(pos, seat, discard)}
    assert mine == dict(brute) and deal_ways(pos, seat, discard) == sum(brute.values())
    assert len(mine) < deal_count(pos, seat)


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 10**6), draw=st.integers(0, 10**6))
def test_a_sampled_deal_keeps_what_the_seat_sees(players: int, seed: int, draw: int) -> None:
    rng = random.Random(seed)
    line = random_line(start_position(Ruleset(players=players), rng), rng)
    pos = rng.choice([p for p in line if not p.is_over] or line[:1])
    seat = rng.randrange(players)
    deal = sample_deal(pos, seat, random.Random(draw))
    for field in ("rules", "owners", "neutral", "colors", "leader", "trick", "tricks_won",
                  "predictions", "tricks_left"):
        assert getattr(deal, field) == getattr(pos, field), field
    assert deal.hands[seat] == pos.hands[seat]
    assert [len(h) for h in deal.hands] == [len(h) for h in pos.hands]
    dealt = Counter(v for s, h in enumerate(deal.hands) if s != seat for v in h)
    assert dealt - unseen_values(pos, seat) == Counter()


def test_sampling_follows_the_weights() -> None:
    """20,000 seeded draws: each deal's share within 0.01 of its exact weight."""
    pos = late_positions(2, 6, 1, 1)[0]
    seat = pos.to_move
    ways = deal_ways(pos, seat)
    exact = {other_hands(d, seat): Fraction(w, ways) for d, w in consistent_deals(pos, seat)}
    rng = random.Random(0)
    drawn = Counter(other_hands(sample_deal(pos, seat, rng), seat) for _ in range(20_000))
    assert set(drawn) <= set(exact)
    for hands, share in exact.items():
        assert abs(drawn[hands] / 20_000 - float(share)) < 0.01, hands


# ---- the odds -----------------------------------------------------------------------------
def brute_odds(
    pos: Position, seat: int, question: str
) -> tuple[dict[str, tuple[Fraction, int, int]], Fraction]:
    """Each play's (share, worst, best) and the double-dummy share, by the labelled deals
    and the plain minimax."""
    brute = brute_deals(pos, seat)
    total = sum(brute.values())
    others = [s for s in range(pos.players) if s != seat]
    plays = pos.legal_plays() if pos.to_move == seat else []
    per: dict[str, list[tuple[int, int]]] = {p.text: [] for p in plays}
    dd = Fraction(0)
    for hands, ways in brute.items():
        full = list(pos.hands)
        for s, h in zip(others, hands, strict=True):
            full[s] = h
        deal = Position(pos.rules, pos.owners, pos.neutral, full, pos.colors, pos.leader,
                        pos.trick, pos.tricks_won, pos.predictions, pos.tricks_left)
        if plays:
            values = [int(minimax(deal.play(p), seat, question)) for p in plays]
            for p, x in zip(plays, values, strict=True):
                per[p.text].append((x, ways))
        else:
            values = [int(minimax(deal, seat, question))]
        dd += max(values) * ways
    odds = {
        t: (Fraction(sum(x * w for x, w in xs), total), min(x for x, _ in xs),
            max(x for x, _ in xs))
        for t, xs in per.items()
    }
    return odds, dd / total


# positions late in seeded random rounds where the plays' odds differ (found by a search
# over seeds): (players, seed, index along the round)
SPLIT = [(2, 0, 13), (2, 2, 12), (2, 6, 13), (3, 0, 19), (3, 30, 18), (3, 35, 19)]


@pytest.mark.parametrize("players, seed, index", SPLIT)
@pytest.mark.parametrize("question", ["paradox", "tricks", "score"])
def test_exact_odds_match_the_brute_force(
    players: int, seed: int, index: int, question: str
) -> None:
    pos = line_position(players, seed, index)
    for seat in (pos.to_move, (pos.to_move + 1) % players):
        if question == "score" and pos.predictions and pos.predictions[seat] is None:
            continue
        sd = single_dummy(pos, seat, question, exact=True)
        odds, dd = brute_odds(pos, seat, question)
        assert {p.play.text: (p.share, p.worst, p.best) for p in sd.plays} == odds
        assert sd.double_dummy == dd
        assert (sd.deals, sd.weight) == (deal_count(pos, seat), deal_ways(pos, seat))
        assert (sd.undecided, sd.complete, sd.exact, sd.seed) == (0, True, True, None)
        assert all(p.error is None for p in sd.plays)  # (exact: no sampling error)
        shares = [(-p.share, -p.worst) for p in sd.plays]
        assert shares == sorted(shares)  # best first
        if seat == pos.to_move and question != "score":
            assert len({p.share for p in sd.plays}) > 1  # (the plays' odds differ here)
        else:
            assert sd.plays == () or seat == pos.to_move


def test_exact_odds_of_one_split_position() -> None:
    """The 2-player position (seed 6, play 13): 3g keeps the seat safe in 2/3 of the deals
    it cannot tell apart, 1y in 1/15; seeing the hidden hands, in 11/15."""
    pos = line_position(2, 6, 13)
    sd = single_dummy(pos, question="paradox", exact=True)
    assert [(p.play.text, p.share) for p in sd.plays] == [
        ("3g", Fraction(2, 3)), ("1y", Fraction(1, 15))]
    assert sd.double_dummy == Fraction(11, 15) and sd.deals == 7


def test_sampled_odds_are_seeded_and_near_the_exact_ones() -> None:
    pos = line_position(3, 30, 18)
    seat = pos.to_move
    exact = single_dummy(pos, seat, "tricks", exact=True)
    a = single_dummy(pos, seat, "tricks", samples=400, seed=5, exact=False)
    b = single_dummy(pos, seat, "tricks", samples=400, seed=5, exact=False)
    assert a.to_json() | {"seconds": 0} == b.to_json() | {"seconds": 0}
    assert (a.deals, a.weight, a.seed, a.exact) == (400, 400, 5, False)
    near = {p.play: p.share for p in exact.plays}
    for p in a.plays:
        assert abs(float(p.share - near[p.play])) < 0.2, p.play


def test_odds_json_shape() -> None:
    pos = late_positions(4, 13, 1, 1)[0]
    data = single_dummy(pos, question="paradox", samples=30, seed=2).to_json()
    assert set(data) == {"seat", "to_move", "question", "method", "seed", "samples",
                         "discard", "asked",
                         "deals", "weight", "ways", "ruled_out", "undecided", "complete",
                         "double_dummy", "double_dummy_fraction", "plays", "seconds"}
    assert (data["to_move"], data["discard"], data["ruled_out"]) == (True, [], None)
    assert (data["method"], data["seed"], data["asked"], data["deals"]) == ("sampled", 2, 30, 30)
    assert [set(p) for p in data["plays"]] == [
        {"text", "share", "fraction", "worst", "best", "error"}] * len(pos.legal_plays())
    for p in data["plays"]:
        share = Fraction(p["fraction"])
        assert p["share"] == round(float(share), 6)
        # paradox: 0 or 1 per deal, so the standard error is sqrt(p (1 - p) / (n - 1))
        assert p["error"] == round(math.sqrt(share * (1 - share) / 29), 6)


def test_no_time_no_deal() -> None:
    pos = late_positions(4, 13, 1, 1)[0]
    sd = single_dummy(pos, samples=30, timeout=0)
    assert (sd.deals, sd.weight, sd.complete, sd.plays, sd.double_dummy) == (
        0, 0, False, (), None)


@pytest.mark.parametrize("kwargs, message", [
    ({"question": "table"}, "question 'table': one of paradox, tricks, score"),
    ({"samples": 0}, "samples must be at least 1 and at most 10000000, not 0"),
    ({"samples": 2.5}, "samples must be a whole number, not 2.5"),
    ({"exact": 1}, "exact is True, False or None, not 1"),
    ({"jobs": -1}, "jobs must be 0 (one per core) or 1 to 64, not -1"),
    ({"seat": 4}, None),
    ({"discard": (1, 2)}, "a seat discards one card, not 2"),
    ({"discard": 3}, "the seat's discard is a list of values, not 3"),
    ({"discard": (9,)}, "the discarded value must be at least 1 and at most 8, not 9"),
    ({"exact": True, "max_deals": 2}, "more than 2 to search: sample them"),
    ({"stop": 1}, "stop must be a StopSignal, not 1"),
])
def test_bad_arguments_are_named(kwargs: dict[str, Any], message: str | None) -> None:
    pos = late_positions(4, 13, 2, 1)[0]
    with pytest.raises(SearchError) as err:
        single_dummy(pos, **kwargs)
    if message is not None:
        assert message in str(err.value)


def test_a_discard_seen_elsewhere_is_refused() -> None:
    pos = next(p for p in late_positions(4, 13, 1, 20) if len(unseen_values(p, p.to_move)) < 8)
    seat = pos.to_move
    gone = [v for v in range(1, 9) if unseen_values(pos, seat)[v] == 0]
    with pytest.raises(SearchError, match=f"the discarded value {gone[0]} cannot be the "
                       "seat's: all 5 copies are seen elsewhere"):
        single_dummy(pos, discard=(gone[0],))


def test_a_finished_round_has_no_odds() -> None:
    line = random_line(start_position(Ruleset(players=3), 2), 2)
    with pytest.raises(SearchError, match="the round is over"):
        single_dummy(line[-1], seat=0)


# ---- deals the trick under way rules out --------------------------------------------------
RED_LEAD = ("3p official | R:..2... B:.21222 Y:00.0.. G:10..11 | 13345 11255 4466 | RY RBG RB "
            "| lead 2: 3r | won 1 2 1 | bid 3 1 4 | left 4")


def before_the_lead(deal: Position) -> Position:
    """``deal`` (seat 2 has led 3r, red unbroken before it) back before that lead: the 3r
    token off the board, the 3 back in seat 2's hand."""
    owners = list(deal.owners)
    owners[2] &= ~cell_bit(3, RED)
    hands = [list(h) for h in deal.hands]
    hands[2].append(3)
    return Position(deal.rules, owners, deal.neutral, hands, deal.colors, 2, (),
                    deal.tricks_won, deal.predictions, deal.tricks_left)


def test_a_red_lead_before_red_was_broken_rules_deals_out() -> None:
    """Seat 2 led 3r with red unbroken, legal only because it had no other lead: a deal
    giving it another lead cannot be (the position's check refused it, and every sampled
    or exact answer failed with that error: review). Checked by the rules' legal plays of
    the position before the lead, for every labelled deal."""
    pos = position_from_notation(RED_LEAD)
    seat = 0
    mine = {other_hands(d, seat): w for d, w in consistent_deals(pos, seat)}
    allowed: dict[Hands, int] = {}
    for hands, ways in brute_deals(pos, seat).items():
        full = [pos.hands[0], *hands]
        before = before_the_lead(Position(
            pos.rules, pos.owners, pos.neutral, full, pos.colors, pos.leader, pos.trick,
            pos.tricks_won, pos.predictions, pos.tricks_left, validate=False))
        if all(p.color == RED for p in before.legal_plays()):
            allowed[hands] = ways
    assert mine == allowed
    assert (len(mine), deal_count(pos, seat)) == (782, 1622)
    assert sum(mine.values()) == 11_760 < deal_ways(pos, seat) == 27_720
    sd = single_dummy(pos, seat, "paradox", exact=True)
    assert (sd.asked, sd.deals, sd.ways, sd.ruled_out) == (782, 782, 11_760, 840)
    assert [(p.play.text, p.share) for p in sd.plays][:2] == [
        ("4r", Fraction(1)), ("1r", Fraction(1419, 1960))]
    drawn = single_dummy(pos, seat, "paradox", samples=50, seed=1)
    assert drawn.deals == 50
    for deal in (sample_deal(pos, seat, random.Random(k)) for k in range(30)):
        assert other_hands(deal, seat) in mine


def test_a_deal_left_open_by_the_time_limit_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal whose search ran out of time counts as undecided and is left out of every
    share (not as a loss), the others' weights unchanged."""
    pos = line_position(2, 6, 13)
    seat = pos.to_move
    deals = list(consistent_deals(pos, seat))
    real = hidden._values
    values = [real(d, seat, "paradox", pos.legal_plays(), None) for d, _ in deals]
    calls = iter(range(len(deals)))

    def second_open(deal: Position, *args: object) -> list[bool | int | None]:
        k = next(calls)
        return [None] * len(values[k]) if k == 1 else values[k]

    monkeypatch.setattr(hidden, "_values", second_open)
    sd = single_dummy(pos, seat, "paradox", exact=True)
    kept = [(v, w) for k, (v, (_, w)) in enumerate(zip(values, deals, strict=True)) if k != 1]
    weight = sum(w for _, w in kept)
    assert (sd.deals, sd.undecided, sd.complete, sd.weight) == (6, 1, True, weight)
    # (every deal kept is decided: its values are paradox verdicts, never None)
    want = {p.text: Fraction(sum(int(cast(bool, v[i])) * w for v, w in kept), weight)
            for i, p in enumerate(pos.legal_plays())}
    assert {p.play.text: p.share for p in sd.plays} == want


def test_few_deals_are_taken_exactly_instead_of_sampled() -> None:
    """With no more deals than samples (nor max_deals), each deal is searched once with
    its exact weight (the same odds as exact=True, no seed, the samples asked kept);
    with one sample fewer, or exact=False, they are drawn."""
    pos = line_position(2, 6, 13)  # 7 deals, 15 ways
    exact = single_dummy(pos, question="paradox", exact=True)
    auto = single_dummy(pos, question="paradox", samples=7)
    assert (auto.exact, auto.samples, auto.seed, auto.asked, auto.deals, auto.weight) == (
        True, 7, None, 7, 7, 15)
    assert (auto.plays, auto.double_dummy) == (exact.plays, exact.double_dummy)
    assert exact.samples is None
    assert (auto.to_json()["method"], auto.to_json()["samples"]) == ("exact", 7)
    for drawn in (single_dummy(pos, question="paradox", samples=6),
                  single_dummy(pos, question="paradox", samples=100, max_deals=6),
                  single_dummy(pos, question="paradox", samples=100, exact=False)):
        assert (drawn.exact, drawn.seed, drawn.deals, drawn.weight) == (
            False, 0, drawn.samples, drawn.samples)
        assert drawn.to_json()["method"] == "sampled"


@pytest.mark.parametrize("players, seed, exact", [
    (2, 6, True), (3, 30, False), (4, 13, False), (5, 4, False)])
def test_several_deals_at_once_give_the_same_odds(players: int, seed: int, exact: bool) -> None:
    """jobs=2 and jobs=0 (one per core) search the deals in threads: the same odds, deal
    for deal, as one after the other."""
    pos = late_positions(players, seed, 3, 1)[0]
    for question in ("paradox", "tricks"):
        one = single_dummy(pos, question=question, samples=12, seed=1, exact=exact)
        for jobs in (2, 0):
            many = single_dummy(pos, question=question, samples=12, seed=1, exact=exact,
                                jobs=jobs)
            assert many.to_json() | {"seconds": 0} == one.to_json() | {"seconds": 0}
        assert one.deals == (deal_count(pos, pos.to_move) if exact else 12)


def test_several_deals_at_once_keep_the_time_limit() -> None:
    """With jobs=2 and no time, no deal is started: nothing decided, not complete."""
    pos = late_positions(4, 13, 1, 1)[0]
    sd = single_dummy(pos, samples=30, timeout=0, jobs=2)
    assert (sd.deals, sd.undecided, sd.complete, sd.plays) == (0, 0, False, ())


def test_deal_count_on_crowded_tables() -> None:
    """The count (memoised on the hands' room in any order) against the deals of values
    made one hand at a time, where there are thousands: 4 players with 1 and 2 tricks
    left, 5 players with 1."""

    def deals(pool: Counter[int], rooms: list[int]) -> int:
        if not rooms:
            return 1
        return sum(deals(pool - Counter(hand), rooms[1:])
                   for hand in combinations_with_replacement(sorted(pool), rooms[0])
                   if not Counter(hand) - pool)

    for players, seed, left, seat, count in [
            (4, 0, 2, 0, 9006), (4, 0, 2, 1, 5420), (4, 3, 1, 3, 1875), (5, 3, 1, 2, 10992)]:
        pos = late_positions(players, seed, left, 1)[0]
        rooms = [len(h) for s, h in enumerate(pos.hands) if s != seat]
        assert len(set(rooms)) > 1 or players == 4  # (rooms of several sizes, or all equal)
        assert deal_count(pos, seat) == deals(unseen_values(pos, seat), rooms) == count


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_stop_signal_ends_the_odds_as_the_time_limit_would(jobs: int) -> None:
    """A StopSignal already stopped starts no deal; one stopped from another thread ends
    a long run soon, keeping only the deals finished (each decided), not complete."""
    pos = late_positions(4, 13, 1, 1)[0]
    signal_ = StopSignal()
    signal_.stop()
    sd = single_dummy(pos, samples=30, jobs=jobs, stop=signal_)
    assert (sd.deals, sd.undecided, sd.complete, sd.plays) == (0, 0, False, ())
    first = start_position(Ruleset(players=4), 3)
    signal_ = StopSignal()
    timer = threading.Timer(1.0, signal_.stop)
    timer.start()
    begun = time.perf_counter()
    sd = single_dummy(first, question="tricks", samples=40, timeout=600, jobs=jobs,
                      stop=signal_)
    timer.join()
    assert time.perf_counter() - begun < 60  # (not 600 s: the signal ended it)
    assert not sd.complete and sd.undecided == 0 and sd.deals < 40
