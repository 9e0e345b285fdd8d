"""The game commands: catbox deal, play, simulate and verify (driven with CliRunner)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from catbox_solver.cli import main
from catbox_solver.formats.jsonform import position_from_dict
from catbox_solver.formats.notation import position_from_notation
from catbox_solver.formats.record import game_record, write_record
from catbox_solver.games.bots import Bot, PlayerView, RandomBot, random_bots
from catbox_solver.games.game import EVENTS, play_game, setup_round
from catbox_solver.model.deal import deal
from catbox_solver.model.position import PLAYS, Play
from catbox_solver.model.rules import RED, Ruleset


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("command", ["deal", "play", "simulate", "verify"])
def test_help_has_an_example(command: str) -> None:
    code, out, _ = run(command, "--help")
    assert code == 0
    assert "Example" in out
    assert f"catbox {command}" in out


# ---- deal --------------------------------------------------------------------------------
def test_deal_prints_the_round_at_the_first_lead() -> None:
    code, out, _ = run("deal", "--players", "4", "--seed", "7")
    assert code == 0
    setup = setup_round(deal(Ruleset(players=4), 7), 0, random_bots(4, 7))
    assert out.startswith("seed 7, round started by seat 0\n")
    assert f"discards:    {' '.join(map(str, setup.discards))}\n" in out
    assert "research board" in out
    assert "trick 1 of 8: seat 0 leads" in out


@pytest.mark.parametrize("players", [2, 3, 5])
def test_deal_notation_and_json_give_the_setup_position(players: int) -> None:
    rules = Ruleset(players=players)
    setup = setup_round(deal(rules, 11), 1, random_bots(players, 11))
    code, out, _ = run("deal", "-p", str(players), "--seed", "11", "--start", "1", "--notation")
    assert code == 0
    assert position_from_notation(out.strip()) == setup.position
    code, out, _ = run("deal", "-p", str(players), "--seed", "11", "--start", "1", "--json")
    assert code == 0
    assert position_from_dict(json.loads(out)) == setup.position
    # and it is round 1 of the game with that seed
    assert play_game(rules, 11, first_start=1).rounds[0].discards == setup.discards


def test_deal_bad_input_is_one_line_exit_2() -> None:
    code, out, err = run("deal", "-p", "3", "--seed", "1", "--start", "3")
    assert (code, out) == (2, "")
    assert err == "error: --start: seat 3 outside 0..2\n"
    code, _, err = run("deal", "-p", "3", "--seed", "1", "--ruleset", "nope")
    assert code == 2
    assert err.startswith("error: unknown ruleset 'nope'") and err.count("\n") == 1


# ---- play --------------------------------------------------------------------------------
class Recorder:
    """A RandomBot that also writes down what a human would have typed."""

    def __init__(self, seed: int) -> None:
        self.bot = RandomBot(seed)
        self.typed: list[str] = []
        self.replies: list[str] = []  # what the CLI must answer to the bad input
        self.first_play = True

    def discard(self, view: PlayerView) -> int:
        d = self.bot.discard(view)
        self.typed.append(str(d))
        return d

    def predict(self, view: PlayerView, choices: tuple[int, ...]) -> int:
        p = self.bot.predict(view, choices)
        self.typed.append(str(p))
        return p

    def play(self, view: PlayerView) -> Play:
        play = self.bot.play(view)
        if self.first_play:
            # typed first: nonsense, a card not held, '?' for help, a red lead too early
            self.first_play = False
            self.typed += ["xx", "?"]
            self.replies += ["bad value 'x' in play 'xx'", "legal: "]
            missing = [v for v in range(1, view.rules.values + 1) if v not in view.hand]
            if missing:
                self.typed.append(f"{missing[0]}b")
                self.replies.append("illegal: card not in hand")
            red = PLAYS[view.hand[0]][RED]
            if not view.trick and red not in view.legal:
                self.typed.append(red.text)
                self.replies.append("illegal: red lead: red may not be led")
        self.typed.append(play.text)
        return play


@pytest.mark.parametrize(("players", "seat"), [(2, 0), (3, 1), (4, 2)])
def test_play_a_game_from_typed_input(players: int, seat: int, tmp_path: Path) -> None:
    rules = Ruleset(players=players)
    recorder = Recorder(99)
    bots: list[Bot] = list(random_bots(players, 5))
    bots[seat] = recorder
    expected = play_game(rules, 5, bots)
    names = tuple("you" if s == seat else f"bot{s}" for s in range(players))
    file = tmp_path / "game.txt"
    code, out, err = run(
        "play", "-p", str(players), "--seed", "5", "--seat", str(seat), "--record", str(file),
        input="\n".join(recorder.typed) + "\n",
    )
    assert code == 0, err
    assert file.read_text(encoding="utf-8") == write_record(game_record(expected, names))
    assert f"totals: {' '.join(map(str, expected.totals))}" in out
    for reply in recorder.replies:
        assert reply in out
    assert f"=== round {players}: seat {players - 1} starts ===" in out
    code, out, _ = run("verify", str(file))
    assert code == 0 and out.startswith(f"valid: {players} rounds\n")


def test_play_record_path_checked_first_and_kept_when_stopped(tmp_path: Path) -> None:
    """--record: a path that cannot be written fails before the game (it failed after the
    last round, losing the game); input that ends in round 2 leaves the record of round 1,
    which verify accepts (a record may stop after any round)."""
    code, out, err = run("play", "-p", "3", "--seed", "5", "--record",
                         str(tmp_path / "missing" / "g.txt"), input="")
    assert code == 2 and "round 1" not in out
    assert err == f"error: --record: cannot write '{tmp_path / 'missing' / 'g.txt'}': No such " \
        "file or directory\n"
    rules = Ruleset(players=3)
    recorder = Recorder(99)
    bots: list[Bot] = list(random_bots(3, 5))
    bots[0] = recorder
    typed_by_round: list[int] = []
    play_game(rules, 5, bots, on_round=lambda rounds: typed_by_round.append(len(recorder.typed)))
    file = tmp_path / "game.txt"
    code, out, err = run(
        "play", "-p", "3", "--seed", "5", "--record", str(file),
        input="\n".join(recorder.typed[: typed_by_round[0]]) + "\n",
    )
    assert code == 2 and "=== round 2: seat 1 starts ===" in out
    assert err == (
        f"record of the 1 round finished written to {file}\n"
        "error: the input ended before the game did\n"
    )
    text = file.read_text(encoding="utf-8")
    assert "round 1" in text and "round 2" not in text and "totals" not in text
    code, out, _ = run("verify", str(file))
    assert code == 0 and out.startswith("valid: 1 round of 3, the game is not over\n")
    assert "winner" not in out  # winners only once the game is over
    code, out, _ = run("verify", str(file), "--json")
    data = json.loads(out)
    assert code == 0 and data["valid"] is True and data["winners"] is None
    assert len(data["rounds"]) == 1 and len(data["totals"]) == 3


def test_play_rejects_a_bad_discard_and_prediction() -> None:
    rules = Ruleset(players=3)
    recorder = Recorder(3)
    bots: list[Bot] = list(random_bots(3, 8))
    bots[0] = recorder
    play_game(rules, 8, bots)
    typed = ["0", "x", *recorder.typed[:1], "2", *recorder.typed[1:]]
    code, out, _ = run("play", "-p", "3", "--seed", "8", input="\n".join(typed) + "\n")
    assert code == 0
    assert "'0' is not a card in your hand" in out
    assert "'x' is not a card in your hand" in out
    assert "'2' is not one of 1, 3, 4" in out
    assert "you are seat 0" in out


def test_play_piped_blank_lines_ask_again_on_a_line_of_their_own() -> None:
    """Piped answers are echoed on their prompt's line, and a blank line asks again on a new
    line (click's prompt asked again on the same line: "discard which card: discard which
    card:")."""
    rules = Ruleset(players=3)
    recorder = Recorder(3)
    bots: list[Bot] = list(random_bots(3, 8))
    bots[0] = recorder
    play_game(rules, 8, bots)
    typed = ["", "  ", recorder.typed[0], "", *recorder.typed[1:]]
    code, out, _ = run("play", "-p", "3", "--seed", "8", input="\n".join(typed) + "\n")
    assert code == 0
    first = f"discard which card: \ndiscard which card:   \ndiscard which card: {typed[2]}\n"
    assert first in out
    assert "discard which card: discard which card:" not in out
    assert "is not a card" not in out and "is not one of" not in out
    assert out.count("predict your tricks") == 4  # (three rounds, the first asked twice)
    assert "winner" in out


# ---- simulate ----------------------------------------------------------------------------
def test_simulate_json_fields_and_reproducibility() -> None:
    code, out, _ = run("simulate", "-p", "3", "-g", "20", "--seed", "4", "--json", "--quiet")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {
        "players", "ruleset", "seed", "games", "rounds", "paradox_rounds", "paradox_rate",
        "paradox_by_trick", "paradox_by_seat", "average_totals", "average_round_scores",
        "average_tricks", "wins", "events", "events_per_round",
    }
    assert (data["players"], data["ruleset"], data["seed"]) == (3, "official", 4)
    assert (data["games"], data["rounds"]) == (20, 60)
    assert data["paradox_rate"] == round(data["paradox_rounds"] / 60, 6)
    assert sum(data["paradox_by_trick"].values()) == data["paradox_rounds"]
    assert sum(data["paradox_by_seat"]) == data["paradox_rounds"]
    assert set(data["events"]) == set(EVENTS)
    assert data["events"]["paradox"] == data["paradox_rounds"]
    assert sum(data["wins"]) >= 20
    assert 0 < sum(data["average_tricks"]) <= 8  # at most 8 tricks a round
    again = run("simulate", "-p", "3", "-g", "20", "--seed", "4", "--json", "--quiet")[1]
    assert again == out


def test_simulate_compare_a_scoring_only_reading() -> None:
    """The same seeded rounds under predictions on and off: the plays never differ, only
    the scores (every round's plays differed once). The text gives
    each reading's rounds with a paradox."""
    code, out, _ = run("simulate", "-p", "2", "-g", "20", "--compare", "two-player-prediction",
                       "--json", "--quiet")
    assert code == 0
    diff = json.loads(out)["differences"]
    assert diff["rounds"] == 40
    assert (diff["plays_differ"], diff["paradox_occurrence_differs"], diff["paradox_differs"],
            diff["tricks_differ"]) == (0, 0, 0, 0)
    assert diff["scores_differ"] > 0
    # the rounds with a paradox under each reading, of all (a rate alone hid them); a
    # reading that changes play, so that the two counts differ (review)
    code, out, _ = run("simulate", "-p", "2", "-g", "20", "--compare", "must-follow", "--json",
                       "--quiet")
    data = json.loads(out)
    code, text, _ = run("simulate", "-p", "2", "-g", "20", "--compare", "must-follow", "--quiet")
    a, b = data["a"], data["b"]
    assert (a["paradox_rounds"], b["paradox_rounds"]) == (35, 12)
    assert text.splitlines()[1] == (
        f"paradox rate     {a['paradox_rate']:.3f} against {b['paradox_rate']:.3f} "
        "(35 and 12 of 40 rounds)")


def test_simulate_text_and_ruleset() -> None:
    code, out, _ = run("simulate", "-p", "2", "-g", "5", "--ruleset", "quickref-red-lead", "-q")
    assert code == 0
    assert out.startswith("5 games (10 rounds), 2 players, ruleset quickref-red-lead, seed 0\n")
    _, js, _ = run("simulate", "-p", "2", "-g", "5", "--ruleset", "quickref-red-lead", "--json")
    stats = json.loads(js)
    # the rounds with a paradox out of all rounds (a rate of 1.000 hid 2 rounds of 4000)
    assert out.splitlines()[1] == (f"paradox rate     {stats['paradox_rate']:.3f} "
                                   f"({stats['paradox_rounds']} of 10 rounds)")
    for text in EVENTS.values():
        assert text in out


# ---- verify ------------------------------------------------------------------------------
@pytest.fixture
def record_text() -> str:
    return write_record(play_game(Ruleset(players=4), 3))


def test_verify_valid(tmp_path: Path, record_text: str) -> None:
    file = tmp_path / "g.txt"
    file.write_text(record_text, encoding="utf-8")
    code, out, _ = run("verify", str(file))
    assert code == 0
    assert out == (
        "valid: 4 rounds\n"
        "round 1: scores 1 4 6 0 (paradox by seat 3)\n"
        "round 2: scores -1 0 0 4 (paradox by seat 0)\n"
        "round 3: scores 1 -2 2 1 (paradox by seat 1)\n"
        "round 4: scores -2 1 1 1 (paradox by seat 0)\n"
        "totals -1 3 9 6\n"
        "winner: 2\n"
    )
    code, out, _ = run("verify", str(file), "--json")
    data = json.loads(out)
    assert code == 0
    assert data["valid"] is True and data["totals"] == [-1, 3, 9, 6] and data["winners"] == [2]
    assert data["rounds"][0] == {
        "round": 1, "tricks_won": [1, 2, 3, 0], "scores": [1, 4, 6, 0], "paradox_by": 3
    }
    code, out, _ = run("verify", "-", input=record_text)
    assert code == 0 and out.startswith("valid")


def test_verify_invalid_exit_1(tmp_path: Path, record_text: str) -> None:
    file = tmp_path / "g.txt"
    # trick 1: seat 3 declares 7g on the cell seat 0 just took
    file.write_text(record_text.replace("2:3g 3:7b", "2:3g 3:7g", 1), encoding="utf-8")
    code, out, _ = run("verify", str(file))
    assert code == 1
    assert out == (
        "invalid: round 1, line 11: rule 1: 3:7g in trick 1: that cell of the research "
        "board is taken\n"
    )
    code, out, _ = run("verify", str(file), "--json")
    data = json.loads(out)
    assert code == 1
    assert (data["valid"], data["rule"], data["round"], data["line"]) == (False, "rule 1", 1, 11)
    assert data["rounds"] == []


def test_verify_unreadable_exit_2(tmp_path: Path, record_text: str) -> None:
    code, out, err = run("verify", str(tmp_path / "missing.txt"))
    assert (code, out) == (2, "")
    assert err.startswith("error: No such file or directory") and err.count("\n") == 1
    bad = tmp_path / "bad.txt"
    bad.write_text(record_text.replace("players 4", "players x"), encoding="utf-8")
    code, _, err = run("verify", str(bad))
    assert code == 2
    assert err == "error: line 2: players: 'x' is not a whole number\n"
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\xff\xfe\x00players")
    code, _, err = run("verify", str(binary))
    assert code == 2
    assert err == f"error: {binary}: not a text file (UTF-8)\n"
    code, _, err = run("verify", str(tmp_path))
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1


class Typist:
    """A random bot for the human's seat that keeps what a person would type."""

    def __init__(self, seed: int) -> None:
        self.bot = RandomBot(seed)
        self.typed: list[str] = []

    def discard(self, view: PlayerView) -> int:
        card = self.bot.discard(view)
        self.typed.append(str(card))
        return card

    def predict(self, view: PlayerView, choices: tuple[int, ...]) -> int:
        tricks = self.bot.predict(view, choices)
        self.typed.append(str(tricks))
        return tricks

    def play(self, view: PlayerView) -> Play:
        play = self.bot.play(view)
        self.typed.append(play.text)
        return play


@pytest.mark.parametrize(("seed", "said"), [
    (1, "tie on 3 points between you and seat 1: broken by the score of the final round "
        "(you 2, seat 1 1), highest for you\nwinner: you\n"),
    (43, "tie on 5 points between you and seat 1: broken by the score of the final round "
         "(you -1, seat 1 3), highest for seat 1\nwinner: seat 1\n"),
    (49, "tie on 6 points between you and seat 2: broken by the score of the final round "
         "(you 4, seat 2 4), tied there too, so the win is shared\nwinners: you, seat 2\n"),
    (97, "tie on 6 points between seat 1 and seat 2: broken by the score of the final round "
         "(seat 1 -1, seat 2 2), highest for seat 2\nwinner: seat 2\n"),
])
def test_play_names_the_tie_break(seed: int, said: str, tmp_path: Path) -> None:
    """A tie on the highest total is broken by the final round's score (a tie there too
    shares the win): the end of the game says so (it named the winner alone)."""
    typist = Typist(7)
    bots: list[Bot] = list(random_bots(3, seed))
    bots[0] = typist
    game = play_game(Ruleset(players=3), seed, bots)
    file = tmp_path / "game.txt"
    code, out, err = run("play", "-p", "3", "--seed", str(seed), "--record", str(file),
                         input="\n".join(typist.typed) + "\n")
    assert code == 0, err
    assert out.endswith(f"totals: {' '.join(map(str, game.totals))}\n{said}"
                        f"record written to {file}\n")
    code, out, _ = run("verify", str(file))  # (the referee says it the same way)
    assert code == 0
    tie = said.splitlines()[0].replace("you", "seat 0")
    assert f"\n{tie}\nwinner" in out


def test_no_tie_no_tie_break_line() -> None:
    typist = Typist(7)
    bots: list[Bot] = list(random_bots(3, 0))
    bots[0] = typist
    game = play_game(Ruleset(players=3), 0, bots)
    assert game.totals.count(max(game.totals)) == 1
    code, out, _ = run("play", "-p", "3", "--seed", "0", input="\n".join(typist.typed) + "\n")
    assert code == 0 and "tie on" not in out
