"""Every worked example of the English rulebook (../shared/seeds/rulebook-en.txt) as a test
with exact outcomes, plus the 2-player neutral token example and the readings of the rules
that the texts disagree on (RULES.md, Interpretations).

The figures give only part of each situation; the rest (other hands, the other cells of the
research board, seats) is invented here so that the position is consistent, and each test
says what it invented. Seats with 4 players: Anne 0, Peter 1, Hermann 2, Erwin 3 (play goes
0, 1, 2, 3 clockwise)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from catbox_solver.errors import IllegalPlayError
from catbox_solver.model.position import Play, Position, cell_bit, neutral_mask
from catbox_solver.model.rules import (
    BLUE,
    COLOR_CHARS,
    GREEN,
    RED,
    SWITCH_TEXTS,
    TEXT_SOURCES,
    YELLOW,
    Ruleset,
)

ANNE, PETER, HERMANN, ERWIN = 0, 1, 2, 3
R4 = Ruleset(players=4)

# Invented hands after the discard (4 players, values 1-8, at most 5 copies of a value).
HANDS4 = [
    [1, 1, 2, 3, 4, 5, 6, 7, 8],  # Anne
    [1, 2, 2, 3, 4, 5, 6, 7, 8],  # Peter
    [1, 2, 3, 3, 4, 5, 6, 7, 8],  # Hermann
    [2, 3, 4, 4, 5, 6, 7, 8, 8],  # Erwin
]


def P(text: str) -> Play:
    return Play.parse(text)


def plays(*texts: str) -> tuple[Play, ...]:
    return tuple(P(t) for t in texts)


def colors(text: str) -> int:
    return sum(1 << COLOR_CHARS.index(ch) for ch in text)


def board(rows: dict[str, str], players: int) -> tuple[list[int], int]:
    """Owners and neutral mask from rows like the JSON form: one string per color R B Y G,
    one character per value from 1: '.' empty, a seat digit, 'N' neutral."""
    owners = [0] * players
    neutral = 0
    for ch, row in rows.items():
        c = COLOR_CHARS.index(ch)
        for i, sym in enumerate(row):
            if sym == "N":
                neutral |= cell_bit(i + 1, c)
            elif sym != ".":
                owners[int(sym)] |= cell_bit(i + 1, c)
    return owners, neutral


def replay(pos: Position, texts: str) -> Position:
    for t in texts.split():
        pos = pos.play(t)
    return pos


# ---- Figure 3-3: declaring the observed color I ------------------------------------------------


def test_fig_3_3_first_card_sets_led_color() -> None:
    """Peter, first to play in the trick, plays a 5 and declares blue. Invented: 4 players,
    Peter is the round's start player, the hands HANDS4."""
    start = Position.new_round(R4, HANDS4, PETER, [2, 1, 3, 1])
    assert start.to_move == PETER
    pos = start.play("5b")
    assert pos.owner_of(5, BLUE) == PETER
    assert pos.used == cell_bit(5, BLUE)
    assert pos.led_color == BLUE
    assert pos.trick == plays("5b")
    assert pos.to_move == HERMANN
    assert pos.hands[PETER] == (1, 2, 2, 3, 4, 6, 7, 8)
    assert pos.colors[PETER] == colors("RBYG")  # the leader loses nothing


# ---- Figure 3-4: leading red once red is broken ------------------------------------------------


def test_fig_3_4_red_lead_after_red_is_broken() -> None:
    """A red token from the previous trick lets the starting player Hermann lead 8 red.
    Invented: trick 1 Anne 1b, Peter 2b, Hermann 3r (trump, wins), Erwin 4b."""
    start = Position.new_round(R4, HANDS4, ANNE, [2, 1, 3, 1])
    pos = replay(start, "1b 2b 3r 4b")
    assert pos.leader == HERMANN and pos.trick == ()
    assert pos.tricks_won == (0, 0, 1, 0)
    assert pos.red_broken
    assert P("8r") in pos.legal_plays()
    assert pos.why_illegal(P("8r")) is None
    after = pos.play("8r")
    assert after.owner_of(8, RED) == HERMANN
    assert after.led_color == RED


def test_fig_3_4_no_red_lead_before_red_is_broken() -> None:
    """The same leader may not lead red while no token is on the red row and a non-red play
    exists. Invented: trick 1 Anne 1b, Peter 2b, Hermann 3b (wins), Erwin 2y."""
    start = Position.new_round(R4, HANDS4, ANNE, [2, 1, 3, 1])
    assert start.why_illegal(P("8r")) == "red lead"  # nor at the round's first lead
    pos = replay(start, "1b 2b 3b 2y")
    assert pos.leader == HERMANN and not pos.red_broken
    assert pos.why_illegal(P("8r")) == "red lead"
    with pytest.raises(IllegalPlayError) as info:
        pos.play("8r")
    assert info.value.rule == "red lead"
    assert all(p.color != RED for p in pos.legal_plays())
    assert P("8b") in pos.legal_plays()


# ---- Figure 3-5: a follower who does not declare the led color loses it ------------------------


def fig_3_5_before_anne() -> Position:
    """Invented: Peter starts the round and leads 5b, Hermann 6b, Erwin 7b; Anne is last."""
    start = Position.new_round(R4, HANDS4, PETER, [2, 1, 3, 1])
    return replay(start, "5b 6b 7b")


def test_fig_3_5_declaring_red_on_blue_loses_blue() -> None:
    pos = fig_3_5_before_anne()
    assert pos.to_move == ANNE and pos.led_color == BLUE
    # Anne could declare blue...
    assert {P("1b"), P("2b"), P("3b"), P("4b"), P("8b")} <= set(pos.legal_plays())
    # ...but declares red
    after = pos.play("8r")
    assert after.colors[ANNE] == colors("RYG")  # blue lost, nothing else
    assert all(after.colors[s] == colors("RBYG") for s in (PETER, HERMANN, ERWIN))
    # red is trump: Anne wins and leads the next trick, but can never declare blue again
    assert after.leader == ANNE and after.tricks_won == (1, 0, 0, 0)
    for v in (1, 2, 3, 4):
        assert after.why_illegal(Play(v, BLUE)) == "rule 2"
    with pytest.raises(IllegalPlayError) as info:
        after.play("1b")
    assert info.value.rule == "rule 2"
    assert all(p.color != BLUE for p in after.legal_plays())
    # nor later in the round, as a follower either
    # Anne leads 1y, Peter 1g (loses yellow), Hermann 3y, Erwin 5y wins and leads 2b
    later = replay(after, "1y 1g 3y 5y 2b")
    assert later.to_move == ANNE and later.led_color == BLUE
    assert later.colors[ANNE] == colors("RYG")
    assert later.colors[PETER] == colors("RBG")
    assert later.why_illegal(P("3b")) == "rule 2"
    assert all(p.color != BLUE for p in later.legal_plays())
    assert P("2y") in later.legal_plays()  # Y3 is Hermann's


# ---- Figure 3-6: winner of the trick ---------------------------------------------------------


def test_fig_3_6_highest_red_wins() -> None:
    """Anne leads yellow, Hermann declares green, Peter and Erwin red: Peter's higher red
    wins. Invented: Anne 7y, Peter 6r, Hermann 8g, Erwin 3r, first trick of the round."""
    start = Position.new_round(R4, HANDS4, ANNE, [2, 1, 3, 1])
    pos = replay(start, "7y 6r 8g")
    assert pos.to_move == ERWIN
    after = pos.play("3r")
    assert after.trick == ()
    assert after.tricks_won == (0, 1, 0, 0)
    assert after.leader == PETER
    # each follower who declared another color lost the led color (yellow), nothing else
    assert after.colors == (colors("RBYG"), colors("RBG"), colors("RBG"), colors("RBG"))


def test_fig_3_6_off_color_cannot_win() -> None:
    """Without red, Hermann's higher green still loses to the led yellow. Invented:
    Anne 7y, Peter 6y, Hermann 8g, Erwin 3y: Anne wins with the highest yellow."""
    start = Position.new_round(R4, HANDS4, ANNE, [2, 1, 3, 1])
    after = replay(start, "7y 6y 8g 3y")
    assert after.tricks_won == (1, 0, 0, 0)
    assert after.leader == ANNE
    assert after.colors[HERMANN] == colors("RBG")


# ---- Figures 3-7 and 3-8: a paradox interrupts the trick ---------------------------------------

# Invented board for 3-7: 7 tricks done; in trick 8 Hermann led 8b, Erwin played 7b and Anne
# plays 5b; Peter (red and green only, hand 4 and 6) is last. R4 G4 R6 G6 are taken; Y6 is
# the only empty cell.
PARADOX_ROWS = {
    "R": "01213120",
    "B": "23000332",
    "Y": "31220.32",
    "G": "31210130",
}


def paradox_position(
    tricks_won: list[int], predictions: list[int], rules: Ruleset = R4, anne_played: bool = True
) -> Position:
    owners, neutral = board(PARADOX_ROWS, 4)
    hands = [[1], [4, 6], [2], [3]]
    trick = plays("8b", "7b", "5b")
    if not anne_played:  # the moment before Anne's 5b
        owners[ANNE] &= ~cell_bit(5, BLUE)
        hands[ANNE] = [1, 5]
        trick = trick[:2]
    return Position(
        rules,
        owners,
        neutral,
        hands,
        [colors("RBYG"), colors("RG"), colors("RBYG"), colors("RBYG")],
        HERMANN,
        trick,
        tricks_won,
        predictions,
        1,
    )


def test_fig_3_7_paradox() -> None:
    before = paradox_position([2, 1, 3, 1], [2, 1, 3, 1], anne_played=False)
    assert before.to_move == ANNE and not before.is_over
    pos = before.play("5b")
    assert pos == paradox_position([2, 1, 3, 1], [2, 1, 3, 1])
    assert pos.to_move == PETER
    for v in (4, 6):
        for c in (RED, GREEN):
            assert pos.owner_of(v, c) is not None
    assert pos.legal_plays() == ()
    assert pos.is_paradox
    assert pos.paradox_by == PETER
    assert pos.is_over
    # every attempt names the rule it breaks: a taken cell, or a lost color
    for text in ("4r", "4g", "6r", "6g", "4b", "4y"):
        assert pos.why_illegal(P(text)) == "rule 1"
    assert pos.why_illegal(P("6y")) == "rule 2"
    with pytest.raises(IllegalPlayError) as info:
        pos.play("6y")
    assert info.value.rule == "rule 2"
    assert "paradox" in str(info.value)
    # had Peter kept yellow, 6 yellow (the one empty cell) would have been his only play
    kept_yellow = Position(
        pos.rules, pos.owners, pos.neutral, pos.hands,
        [colors("RBYG"), colors("RYG"), colors("RBYG"), colors("RBYG")],
        pos.leader, pos.trick, pos.tricks_won, pos.predictions, pos.tricks_left,
    )  # fmt: skip
    assert kept_yellow.legal_plays() == plays("6y")


def test_fig_3_8_interrupted_trick() -> None:
    """Nobody wins the interrupted trick; its tokens stay on the board and are scored."""
    pos = paradox_position([2, 1, 3, 1], [2, 1, 3, 1])
    assert pos.trick == plays("8b", "7b", "5b")
    assert pos.tricks_won == (2, 1, 3, 1)  # unchanged: 7 tricks done, the 8th won by nobody
    assert sum(pos.tricks_won) == pos.tricks_played == 7
    assert pos.owner_of(8, BLUE) == HERMANN
    assert pos.owner_of(7, BLUE) == ERWIN
    assert pos.owner_of(5, BLUE) == ANNE
    assert pos.final_owners() == pos.owners
    # Anne's group B3 B4 B5 Y5 G5 uses her token of the interrupted trick
    assert pos.largest_group(ANNE) == 5
    # Anne 2 tricks + 5; Peter caused it: -1, no bonus; Hermann 3 + group Y3 Y4 G3;
    # Erwin 1 + group B6 B7 Y7 G7
    assert pos.scores() == (7, -1, 6, 5)


# ---- Figure 3-9: trick points ---------------------------------------------------------------


def test_fig_3_9_trick_points() -> None:
    """Anne has 2 tricks: 2 points (the 3-7 board, invented tricks)."""
    pos = paradox_position([2, 1, 3, 1], [2, 1, 3, 1])
    assert pos.trick_points(ANNE) == 2
    assert pos.trick_points(HERMANN) == 3


# ---- Figure 3-10: the paradox causer ----------------------------------------------------------


def test_fig_3_10_causer_scores_minus_tricks_and_no_bonus() -> None:
    """The causer (here seat 1 of the 3-7 board stands for the figure's Erwin) won 3 tricks
    and predicted 3: -3 points and no bonus."""
    pos = paradox_position([2, 3, 1, 1], [2, 3, 3, 1])
    causer = pos.paradox_by
    assert causer == PETER
    assert pos.tricks_won[causer] == 3 and pos.predictions is not None
    assert pos.predictions[causer] == 3
    assert pos.prediction_met(causer)
    assert pos.largest_group(causer) == 2  # Y2 G2: what the bonus would have been
    assert pos.trick_points(causer) == -3
    assert pos.bonus(causer) == 0
    assert pos.scores()[causer] == -3
    # the others score normally: Anne 2 + 5, seat 2 missed (1 of 3), seat 3 1 + 4
    assert pos.scores() == (7, -3, 1, 5)


# ---- Figure 3-11: the bonus ---------------------------------------------------------------------

# Invented finished 4-player round: Anne (0) has the orthogonal group R1 R2 R3 B3 Y3 (5
# tokens), G4 touching Y3 only diagonally, and R6 R8 alone.
BONUS_ROWS = {
    "R": "00011020",
    "B": "12032132",
    "Y": "31023213",
    "G": "23101323",
}


def bonus_position(rules: Ruleset = R4) -> Position:
    owners, neutral = board(BONUS_ROWS, 4)
    return Position(
        rules,
        owners,
        neutral,
        [[5], [1], [2], [3]],
        [colors("RBYG")] * 4,
        ANNE,
        (),
        [2, 3, 1, 2],
        [2, 3, 1, 1],
        0,
    )


def test_fig_3_11_bonus_is_the_largest_orthogonal_group() -> None:
    pos = bonus_position()
    assert pos.is_over and not pos.is_paradox
    assert pos.prediction_met(ANNE)
    assert pos.largest_group(ANNE) == 5
    assert pos.bonus(ANNE) == 5
    assert pos.trick_points(ANNE) == 2
    # seat 1: R4 R5 (2) and met 3; seat 2: all single (1) and met 1; seat 3 missed (2 of 1)
    assert [pos.largest_group(s) for s in range(4)] == [5, 2, 1, 2]
    assert pos.scores() == (7, 5, 2, 2)


def test_fig_3_11_diagonal_neighbour() -> None:
    """G4 touches Anne's group only diagonally: it does not join under the official
    adjacency, it does with adjacency='diagonal'."""
    pos = bonus_position(Ruleset(players=4, adjacency="diagonal"))
    assert pos.largest_group(ANNE) == 6
    # seat 1: R4 R5 B6 Y7; seat 2: B5 Y4 Y6 G7; seat 3: B4 Y5 G6 (and B7 Y8 G8)
    assert [pos.largest_group(s) for s in range(4)] == [6, 4, 4, 3]
    assert pos.scores() == (8, 7, 5, 2)


# ---- Figure 5-1: two players -------------------------------------------------------------------

# Invented finished 2-player round: Anne 0, Erwin 1; neutral tokens from the revealed 3 3 5;
# B5 is the guaranteed empty cell. Anne's largest group is R1 B1 Y1.
TWO_ROWS = {
    "R": "01101",
    "B": "0101.",
    "Y": "01N10",
    "G": "10N0N",
}


def test_fig_5_1_two_players() -> None:
    r2 = Ruleset(players=2)
    owners, neutral = board(TWO_ROWS, 2)
    assert neutral == neutral_mask((3, 3, 5))
    pos = Position(r2, owners, neutral, [[2], [5]], [15, 15], 1, (), [3, 5], None, 0)
    assert pos.is_over and not pos.is_paradox
    assert r2.cells - bin(pos.used).count("1") == 1  # the guaranteed empty cell
    assert pos.owner_of(5, BLUE) is None
    # Erwin: 5 tricks, more than 4: no bonus although his group R2 R3 B2 Y2 has 4
    assert pos.largest_group(1) == 4
    assert not pos.prediction_met(1)
    assert pos.scores()[1] == 5
    # Anne: 3 tricks (4 or fewer) + group of 3
    assert pos.largest_group(0) == 3
    assert pos.prediction_met(0)
    assert pos.scores() == (6, 5)


def test_two_player_neutral_tokens() -> None:
    """Revealed 3, 3, 5 gives green-3, yellow-3, green-5; three equal values go green,
    yellow, blue. Invented hands."""
    assert neutral_mask((3, 3, 5)) == cell_bit(3, GREEN) | cell_bit(3, YELLOW) | cell_bit(5, GREEN)
    assert neutral_mask((5, 3, 3)) == neutral_mask((3, 3, 5))
    assert neutral_mask((4, 4, 4)) == cell_bit(4, GREEN) | cell_bit(4, YELLOW) | cell_bit(4, BLUE)
    r2 = Ruleset(players=2)
    hands = [[1, 1, 2, 2, 3, 4, 4, 5, 5], [1, 1, 2, 2, 3, 3, 4, 4, 5]]
    pos = Position.new_round(r2, hands, 0, None, (3, 3, 5))
    assert pos.owner_of(3, GREEN) == -1
    assert pos.owner_of(3, YELLOW) == -1
    assert pos.owner_of(5, GREEN) == -1
    assert pos.owner_of(3, BLUE) is None and pos.owner_of(5, YELLOW) is None
    assert pos.predictions is None
    # a neutral token's cell is taken (rule 1)
    assert pos.why_illegal(P("3g")) == "rule 1"
    assert pos.why_illegal(P("3y")) == "rule 1"
    assert pos.why_illegal(P("5g")) == "rule 1"
    assert P("3b") in pos.legal_plays()
    # neutral tokens are on no row but green/yellow/blue, so they never break red
    assert not pos.red_broken


# ---- Readings of the red lead ---------------------------------------------------------------

R3_HANDS = [
    [1, 1, 2, 3, 3, 4, 4, 6, 6],
    [1, 1, 1, 3, 3, 3, 5, 5, 6],
    [2, 2, 2, 4, 4, 5, 5, 6, 6],
]
# the same, but seat 2 keeps a 1 instead of a 5 (and seat 1 a 5 instead of a 1)
R3_HANDS_WITH_1 = [
    [1, 1, 2, 3, 3, 4, 4, 6, 6],
    [1, 1, 3, 3, 3, 5, 5, 5, 6],
    [1, 2, 2, 2, 4, 4, 5, 6, 6],
]


def red_lead_position(rules: Ruleset, hands: list[list[int]]) -> Position:
    """Invented 3-player round without red: trick 1 seat 0 2y, seat 1 3y (wins), seat 2 4g
    (loses yellow); trick 2 seat 1 1g, seat 2 2b (loses green), seat 0 3g (wins); trick 3
    seat 0 4b, seat 1 5b, seat 2 6b (wins). Seat 2 leads with red and blue left, and the
    blue cells 2 4 5 6 are taken."""
    pos = Position.new_round(Ruleset(players=3), hands, 0, [1, 3, 4])
    pos = replay(pos, "2y 3y 4g 1g 2b 3g 4b 5b 6b")
    pos = pos.with_rules(rules)
    assert pos.leader == 2 and pos.trick == () and not pos.red_broken
    assert pos.colors[2] == colors("RB")
    return pos


def test_red_lead_exception_official() -> None:
    """Rulebooks: a leader with no legal non-red play may lead red."""
    pos = red_lead_position(Ruleset(players=3), R3_HANDS)
    assert pos.hands[2] == (2, 2, 4, 5, 5, 6)
    assert pos.legal_plays() == plays("2r", "4r", "5r", "6r")
    assert not pos.is_paradox
    assert pos.play("5r").owner_of(5, RED) == 2


def test_red_lead_never_quick_reference() -> None:
    """EN quick reference (no exception): the same leader causes a paradox."""
    pos = red_lead_position(Ruleset(players=3, red_lead="never"), R3_HANDS)
    assert pos.legal_plays() == ()
    assert pos.is_paradox and pos.paradox_by == 2
    assert pos.why_illegal(P("5r")) == "red lead"


def test_red_lead_per_card_same_here() -> None:
    pos = red_lead_position(Ruleset(players=3, red_lead="per-card"), R3_HANDS)
    assert pos.legal_plays() == plays("2r", "4r", "5r", "6r")


def test_red_lead_per_card_differs() -> None:
    """Seat 2 also holds a 1 whose blue cell is empty. Officially it has a legal non-red
    play, so it may not lead red at all; per card, the 2 4 5 6 (no legal non-red color)
    may still be led red."""
    official = red_lead_position(Ruleset(players=3), R3_HANDS_WITH_1)
    assert official.hands[2] == (1, 2, 2, 4, 5, 6)
    assert official.legal_plays() == plays("1b")
    assert official.why_illegal(P("2r")) == "red lead"
    per_card = red_lead_position(Ruleset(players=3, red_lead="per-card"), R3_HANDS_WITH_1)
    assert per_card.legal_plays() == plays("1b", "2r", "4r", "5r", "6r")
    assert per_card.why_illegal(P("1r")) == "red lead"  # the 1 has a non-red color
    never = red_lead_position(Ruleset(players=3, red_lead="never"), R3_HANDS_WITH_1)
    assert never.legal_plays() == plays("1b")


# ---- Other readings -------------------------------------------------------------------------


def test_color_loss_declared() -> None:
    """Czech quick reference: the declared color is lost, not the led one (Figure 3-5)."""
    pos = fig_3_5_before_anne().with_rules(Ruleset(players=4, color_loss="declared"))
    after = pos.play("8r")
    assert after.colors[ANNE] == colors("BYG")
    assert after.leader == ANNE
    assert after.why_illegal(P("1r")) == "rule 2"
    assert after.why_illegal(P("1b")) is None
    assert P("1b") in after.legal_plays()
    # a follower declaring the led color loses nothing under either reading
    same = fig_3_5_before_anne().with_rules(Ruleset(players=4, color_loss="declared"))
    assert same.play("8b").colors[ANNE] == colors("RBYG")


def test_must_follow() -> None:
    """Reviews' reading: a follower able to declare the led color must (Figure 3-5)."""
    pos = fig_3_5_before_anne().with_rules(Ruleset(players=4, following="must-follow"))
    assert pos.legal_plays() == plays("1b", "2b", "3b", "4b", "8b")
    assert pos.why_illegal(P("8r")) == "must follow"
    with pytest.raises(IllegalPlayError) as info:
        pos.play("8r")
    assert info.value.rule == "must follow"


def test_must_follow_without_the_led_color() -> None:
    """A follower who lost the led color may declare any color under must-follow too.
    Invented (played under the official reading, then read under must-follow): trick 1 as in
    Figure 3-5 (Anne 8r, loses blue, wins); trick 2 Anne 1g, Peter 2g, Hermann 3g, Erwin 4g
    (wins); trick 3 Erwin leads 2b and Anne follows."""
    official = replay(fig_3_5_before_anne(), "8r 1g 2g 3g 4g 2b")
    assert official.to_move == ANNE and official.led_color == BLUE
    assert official.colors[ANNE] == colors("RYG")
    must = official.with_rules(Ruleset(players=4, following="must-follow"))
    assert must.legal_plays() == official.legal_plays()
    assert P("1y") in must.legal_plays() and P("1r") in must.legal_plays()


def test_interrupted_trick_removed() -> None:
    """Tokens of the interrupted trick taken off: the bonus groups shrink (Figure 3-8
    board): Anne loses B5 (group 5 -> 2), Erwin B7 (4 -> 2), Hermann B8 (his Y3 Y4 G3 stays)."""
    rules = Ruleset(players=4, interrupted_trick="removed")
    pos = paradox_position([2, 1, 3, 1], [2, 1, 3, 1], rules)
    assert pos.owners == paradox_position([2, 1, 3, 1], [2, 1, 3, 1]).owners
    removed = cell_bit(8, BLUE) | cell_bit(7, BLUE) | cell_bit(5, BLUE)
    assert pos.final_owners() == tuple(m & ~removed for m in pos.owners)
    assert [pos.largest_group(s) for s in range(4)] == [2, 2, 3, 2]
    assert pos.scores() == (4, -1, 6, 3)
    # a round finished without paradox keeps every token
    finished = bonus_position(Ruleset(players=4, interrupted_trick="removed"))
    assert finished.final_owners() == finished.owners
    assert finished.scores() == (7, 5, 2, 2)


# ---- the texts quoted for each reading (catbox rules list) -----------------------------------

SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"


def _plain(text: str) -> str:
    """Text without Markdown marks (bold, escaped and bullet stars), spaces collapsed."""
    text = text.replace("\\*", "*").replace("**", "")
    text = re.sub(r"(?m)^\s*\*\s+", "", text)
    return " ".join(text.split())


def _texts() -> dict[str, str]:
    """Each quoted source's text: a rulebook is its pages before its quick reference (the
    back pages, from the last table of card counts on), its quick reference the rest."""
    assert SEEDS.is_dir(), f"the rulebook texts are not at {SEEDS}"
    out = {"DE quick reference (KSR)": _plain((SEEDS / "quickref-de.txt").read_text("utf-8"))}
    for lang, table in (("en", "45 cards (1-9)"), ("de", "45 Karten (1-9)"),
                        ("cs", "45 karet (1–9)")):
        lines = (SEEDS / f"rulebook-{lang}.txt").read_text("utf-8").splitlines()
        back = max(i for i, line in enumerate(lines) if table in line)
        out[f"{lang.upper()} rulebook"] = _plain("\n".join(lines[:back]))
        out[f"{lang.upper()} rulebook quick reference"] = _plain("\n".join(lines[back:]))
    return out


TEXTS = _texts()
QUOTES = [(switch, value, source, wording)
          for switch, values in SWITCH_TEXTS.items()
          for value, quotes in values.items() for source, wording in quotes]


def test_the_quoted_sources_are_the_texts() -> None:
    assert set(TEXTS) == set(TEXT_SOURCES)


@pytest.mark.parametrize(("switch", "value", "source", "wording"), QUOTES,
                         ids=[f"{s}={v}: {src}" for s, v, src, _ in QUOTES])
def test_each_quote_is_in_the_text_it_is_credited_to(
    switch: str, value: str, source: str, wording: str
) -> None:
    """A quote occurs word for word in its source ("..." leaves words out, the parts in
    order); a source that is no text (a review, a house rule) describes the reading in its
    own words, and any phrase it quotes in single quotes is in some text."""
    if source in TEXT_SOURCES:
        text, at = TEXTS[source], 0
        for part in wording.split("..."):
            found = text.find(_plain(part), at)
            assert found >= 0, f"{source} does not say {part.strip()!r}"
            at = found + len(_plain(part))
        return
    phrases = re.findall(r"'([^']+)'", source + " " + wording)
    for phrase in phrases:
        if phrase.startswith("no other color"):  # (a paraphrase of both readings' texts)
            continue
        assert any(_plain(phrase) in t for t in TEXTS.values()), phrase


def test_per_card_is_credited_to_the_texts_that_allow_it() -> None:
    """The per-card red lead is allowed by the Czech rulebook and its quick reference and by
    the German quick reference; the English and German rulebooks rule it out ("with any
    cards from your hand"), so neither is credited with it, and the Czech main text is
    quoted for the whole-hand exception too."""
    credited = {src for src, _ in SWITCH_TEXTS["red_lead"]["per-card"] if src in TEXT_SOURCES}
    assert credited == {"CS rulebook", "CS rulebook quick reference", "DE quick reference (KSR)"}
    exception = {src for src, _ in SWITCH_TEXTS["red_lead"]["exception"]}
    assert {"EN rulebook", "DE rulebook", "CS rulebook", "CS rulebook quick reference",
            "DE quick reference (KSR)"} <= exception
    assert "with any cards from your hand" in TEXTS["EN rulebook"]
