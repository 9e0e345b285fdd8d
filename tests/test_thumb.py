"""The rule-of-thumb player in a game (``games.thumb``): it decides from its own hand and
public facts alone, and plays whole games through ``play_game``."""

from __future__ import annotations

import pytest

from catbox_solver.annotate.analysis import replay
from catbox_solver.formats.record import read_record, write_record
from catbox_solver.games.bots import Bot, RandomBot
from catbox_solver.games.game import play_game
from catbox_solver.games.thumb import RuleOfThumbBot, thumb_play
from catbox_solver.model.rules import Ruleset


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_thumb_games_play_the_rule_of_thumb_from_full_positions(players: int) -> None:
    """Every play of a game of rule-of-thumb bots, who saw only their own hand (a
    partial position), is the play the rule of thumb picks on the full position: it
    reads no hand but its own."""
    bots: list[Bot] = [RuleOfThumbBot() for _ in range(players)]
    game = play_game(Ruleset(players=players), seed=11, bots=bots)
    steps = replay(read_record(write_record(game)))
    assert len(steps) >= players  # (at least one trick was played)
    for step in steps:
        assert thumb_play(step.position, step.seat) == step.play, (step.round, step.trick)


def test_thumb_bot_is_deterministic_and_unlike_random() -> None:
    rules = Ruleset(players=4)
    one = write_record(play_game(rules, seed=3, bots=[RuleOfThumbBot() for _ in range(4)]))
    two = write_record(play_game(rules, seed=3, bots=[RuleOfThumbBot() for _ in range(4)]))
    assert one == two
    rand = write_record(play_game(rules, seed=3, bots=[RandomBot(s) for s in range(4)]))
    assert rand != one
    assert repr(RuleOfThumbBot()) == "RuleOfThumbBot()"
