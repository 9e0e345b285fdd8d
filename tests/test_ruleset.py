"""The Ruleset: values derived from the player count (RULES.md table), presets, names."""

from __future__ import annotations

import pytest

from catbox_solver.errors import RulesetError
from catbox_solver.model.rules import PRESETS, SWITCHES, Ruleset

# players: (values, deck, hand, discards, tricks, leftover, neutral, predictions, covered)
TABLE = {
    2: (5, 25, 10, 1, 8, 5, 3, (), 6),
    3: (6, 30, 10, 1, 8, 0, 0, (1, 3, 4), None),
    4: (8, 40, 10, 1, 8, 0, 0, (1, 2, 3), 9),
    5: (9, 45, 9, 1, 7, 0, 0, (1, 2, 3), None),
}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_derived_values(players: int) -> None:
    values, deck, hand, discards, tricks, leftover, neutral, preds, covered = TABLE[players]
    r = Ruleset(players=players)
    assert r.values == values
    assert r.copies == 5
    assert r.deck_size == deck
    assert r.hand_size == hand
    assert r.discards == discards
    assert r.tricks == tricks
    assert r.leftover == leftover
    assert r.neutral_tokens == neutral
    assert r.prediction_choices == preds
    assert r.has_predictions == (players >= 3)
    assert r.covered_value == covered
    assert r.cells == 4 * values


def test_tricks_end_with_one_card_left() -> None:
    for players in (2, 3, 4, 5):
        r = Ruleset(players=players)
        assert r.hand_size - r.discards - r.tricks == 1


def test_board_fill_counts() -> None:
    # 3 and 4 players fill the board exactly; 2 (with 3 neutral tokens) and 5 leave one cell
    for players, empty in ((2, 1), (3, 0), (4, 0), (5, 1)):
        r = Ruleset(players=players)
        assert r.cells - r.tricks * players - r.neutral_tokens == empty


def test_two_player_prediction_switch() -> None:
    r = Ruleset(players=2, two_player_bonus="prediction")
    assert r.has_predictions
    assert r.prediction_choices == (1, 2, 3, 4)
    # the switch changes nothing for 3-5 players
    assert Ruleset(players=4, two_player_bonus="prediction").prediction_choices == (1, 2, 3)


def test_defaults_are_official() -> None:
    r = Ruleset()
    assert r.players == 4
    assert r.switches() == {name: allowed[0] for name, allowed in SWITCHES.items()}
    assert r.name == "official"
    assert str(r) == "4p official"


def test_presets() -> None:
    assert set(PRESETS) == {
        "official",
        "quickref-red-lead",
        "per-card-red-lead",
        "czech-color-loss",
        "must-follow",
        "interrupted-removed",
        "diagonal-bonus",
        "two-player-prediction",
    }
    assert Ruleset.from_name("quickref-red-lead", 4).red_lead == "never"
    assert Ruleset.from_name("per-card-red-lead", 3).red_lead == "per-card"
    assert Ruleset.from_name("czech-color-loss", 4).color_loss == "declared"
    assert Ruleset.from_name("must-follow", 5).following == "must-follow"
    assert Ruleset.from_name("interrupted-removed", 4).interrupted_trick == "removed"
    assert Ruleset.from_name("diagonal-bonus", 2).adjacency == "diagonal"
    assert Ruleset.from_name("two-player-prediction", 2).two_player_bonus == "prediction"
    assert Ruleset.from_name("official", 3) == Ruleset(players=3)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_preset_name_round_trip(preset: str, players: int) -> None:
    r = Ruleset.from_name(preset, players)
    assert r.name == preset
    assert Ruleset.from_name(r.name, players) == r
    assert r.players == players


def test_overrides() -> None:
    r = Ruleset.from_name("official,red_lead=never,adjacency=diagonal", 4)
    assert r.red_lead == "never"
    assert r.adjacency == "diagonal"
    assert r.color_loss == "led"
    assert r.name == "official,adjacency=diagonal,red_lead=never"
    assert Ruleset.from_name(r.name, 4) == r
    # dashes in switch names are accepted; an override equal to a preset gives its name
    assert Ruleset.from_name("official, red-lead=never", 3).name == "quickref-red-lead"
    # overrides apply on top of the preset
    m = Ruleset.from_name("must-follow,color_loss=declared", 4)
    assert (m.following, m.color_loss) == ("must-follow", "declared")
    assert Ruleset.from_name(m.name, 4) == m
    # row order round trips too
    o = Ruleset.from_name("official,row_order=GYBR", 4)
    assert o.row_order == "GYBR"
    assert o.name == "official,row_order=GYBR"
    assert Ruleset.from_name(o.name, 4) == o
    # any case, as the notation's header reads it (the command line refused 'gybr' and
    # a JSON position 'Official' while the notation took both)
    assert Ruleset.from_name("official,row_order=gybr", 4) == o
    assert Ruleset.from_name("Official", 4) == Ruleset(players=4)
    assert Ruleset.from_name("MUST-FOLLOW,Color-Loss=Declared", 4) == m
    # a switch given twice is an error (it was the last one, silently)
    with pytest.raises(RulesetError, match=r"^switch 'following' given twice in "):
        Ruleset.from_name("official,following=must-follow,following=free", 4)
    with pytest.raises(RulesetError, match=r"^switch 'red_lead' given twice in "):
        Ruleset.from_name("official,red_lead=never,red-lead=never", 4)
    # a preset's switch overridden once is fine
    assert Ruleset.from_name("must-follow,following=free", 4) == Ruleset(players=4)
    # a switch that does not exist, or no '=': the message names the switches
    for spec, part in (("official,foo=bar", "foo=bar"), ("official,diagonal", "diagonal")):
        with pytest.raises(RulesetError) as err:
            Ruleset.from_name(spec, 4)
        assert str(err.value) == (
            f"bad ruleset switch {part!r} in {spec!r}: a switch is NAME=VALUE, NAME one of "
            "red_lead, color_loss, following, interrupted_trick, adjacency, "
            "two_player_bonus, row_order"
        )


def test_every_switch_value_round_trips() -> None:
    for name, allowed in SWITCHES.items():
        for value in allowed:
            r = Ruleset(players=4).with_switches(**{name: value})
            assert getattr(r, name) == value
            assert Ruleset.from_name(r.name, 4) == r


@pytest.mark.parametrize(
    "spec",
    [
        "",
        "   ",
        "offical",
        "official,red_lead=sometimes",
        "official,no_such_switch=x",
        "official,red_lead",
        "must-follow,following=maybe",
        "official,row_order=RBYY",
    ],
)
def test_unknown_names_raise(spec: str) -> None:
    with pytest.raises(RulesetError):
        Ruleset.from_name(spec, 4)


@pytest.mark.parametrize("players", [0, 1, 6, 10, -4])
def test_bad_player_count(players: int) -> None:
    with pytest.raises(RulesetError):
        Ruleset(players=players)
    with pytest.raises(RulesetError):
        Ruleset.from_name("official", players)


def test_bad_switch_value_in_constructor() -> None:
    with pytest.raises(RulesetError):
        Ruleset(players=4, red_lead="sometimes")
    with pytest.raises(RulesetError):
        Ruleset(players=4, row_order="RBY")


def test_frozen_and_hashable() -> None:
    a = Ruleset(players=3, following="must-follow")
    b = Ruleset.from_name("must-follow", 3)
    assert a == b
    assert hash(a) == hash(b)
    assert len({a, b, Ruleset(players=3)}) == 2
    with pytest.raises(AttributeError):
        a.players = 4  # type: ignore[misc]


def test_presets_and_switches_cannot_be_changed() -> None:
    """The exported tables are read-only: a change to PRESETS["official"] changed every
    ruleset made after it (its name became 'official,')."""
    with pytest.raises(TypeError):
        PRESETS["official"]["red_lead"] = "never"  # type: ignore[index]
    with pytest.raises(TypeError):
        PRESETS["mine"] = {}  # type: ignore[index]
    with pytest.raises(TypeError):
        SWITCHES["red_lead"] = ("never",)  # type: ignore[index]
    assert Ruleset.from_name("official", 4) == Ruleset(players=4)
    assert Ruleset(players=4).name == "official"
