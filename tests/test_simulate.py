"""games/simulate.py: the games of a seed and their statistics, the library behind
``catbox simulate`` (the command only parses and prints)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from click.testing import CliRunner

from catbox_solver.cli import main
from catbox_solver.errors import CatboxError
from catbox_solver.games.game import play_game
from catbox_solver.games.simulate import compare_stats, game_seeds, play_games, simulate_stats
from catbox_solver.model.rules import Ruleset


def test_game_seeds_are_the_48_bit_draws_of_the_seed() -> None:
    rng = random.Random(5)
    assert game_seeds(5, 4) == [rng.getrandbits(48) for _ in range(4)]
    assert game_seeds(5, 2) == game_seeds(5, 4)[:2]
    assert game_seeds(5, 0) == []
    bad: tuple[Any, Any]  # (wrong types and values, on purpose)
    for bad in ((1.5, 2), (5, -1), ("5", 2)):
        with pytest.raises(CatboxError):
            game_seeds(*bad)


def test_play_games_seeds_each_round_anew() -> None:
    rules = Ruleset(players=3)
    games = play_games(rules, [11, 12])
    assert games == [play_game(rules, s, first_start=0, per_round_bots=True) for s in (11, 12)]


def test_the_command_prints_the_librarys_statistics() -> None:
    rules = Ruleset(players=3)
    games = play_games(rules, game_seeds(4, 6))
    stats = simulate_stats(rules, games, 4)
    assert stats["games"] == 6 and stats["rounds"] == 18
    assert sum(stats["wins"]) >= 6
    result = CliRunner().invoke(main, ["simulate", "-p", "3", "-g", "6", "--seed", "4",
                                       "--json", "--quiet"])
    assert result.exit_code == 0 and json.loads(result.stdout) == stats
    other = Ruleset.from_name("czech-color-loss", 3)
    games_b = play_games(other, game_seeds(4, 6))
    diff = compare_stats(games, games_b)
    assert diff["rounds"] == 18
    result = CliRunner().invoke(main, ["simulate", "-p", "3", "-g", "6", "--seed", "4",
                                       "--compare", "czech-color-loss", "--json", "--quiet"])
    assert json.loads(result.stdout) == {
        "a": stats, "b": simulate_stats(other, games_b, 4), "differences": diff,
    }
    assert compare_stats(games, games)["plays_differ"] == 0
