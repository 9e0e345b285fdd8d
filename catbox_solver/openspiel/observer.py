"""What a seat may know of a ``python_cat_in_the_box`` state, as tensors and strings.

The layouts are documented in docs/openspiel.md; in short, with ``n`` players, ``V`` card
values, ``T`` tricks and ``C = 4 * V`` cells (cell ``4 * (value - 1) + color``), the
observation tensor is the concatenation, in this order, of:

``seat`` n, ``round`` n, ``start`` n, ``phase`` 5, ``to_move`` n, ``hand`` V x 5,
``discard`` V, ``board`` (n + 1) x C, ``colors`` n x 4, ``predictions`` n x 4,
``tricks_won`` n x (T + 1), ``leader`` n, ``trick`` n x C, ``totals`` n

and the information state tensor adds ``plays`` (n * T) x C and ``play_seats``
(n * T) x n: every play of the round under way, in order. Private pieces (``hand``,
``discard``) are the observing seat's own (every seat's, n times over, for an observer of
all private information; absent for a public observer).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel

from catbox_solver.model.position import Position
from catbox_solver.model.rules import COLOR_CHARS, Ruleset
from catbox_solver.openspiel.game import (
    DEAL,
    OVER,
    PHASES,
    PLAY,
    SHORT_NAME,
    Round,
    phase_of,
    play_action,
    to_move,
)

if TYPE_CHECKING:
    from catbox_solver.openspiel.game import CatInTheBoxGame, CatInTheBoxState

COPIES = 5


def tensor_pieces(
    rules: Ruleset, private: str, public: bool, perfect_recall: bool
) -> list[tuple[str, tuple[int, ...]]]:
    """The named pieces of a tensor, with their shapes, in order. ``private``: 'single',
    'all' or 'none'."""
    n, v, t = rules.players, rules.values, rules.tricks
    cells = 4 * v
    pieces: list[tuple[str, tuple[int, ...]]] = [("seat", (n,))]
    if public:
        pieces += [("round", (n,)), ("start", (n,)), ("phase", (len(PHASES),)),
                   ("to_move", (n,))]
    if private == "single":
        pieces += [("hand", (v, COPIES)), ("discard", (v,))]
    elif private == "all":
        pieces += [("hand", (n, v, COPIES)), ("discard", (n, v))]
    if public:
        pieces += [("board", (n + 1, cells)), ("colors", (n, 4)), ("predictions", (n, 4)),
                   ("tricks_won", (n, t + 1)), ("leader", (n,)), ("trick", (n, cells)),
                   ("totals", (n,))]
        if perfect_recall:
            pieces += [("plays", (n * t, cells)), ("play_seats", (n * t, n))]
    return pieces


def hand_of(rules: Ruleset, r: Round, seat: int) -> tuple[int, ...]:
    """The cards ``seat`` holds: dealt so far, less its discard and its plays."""
    if r.position is not None:
        return r.position.hands[seat]
    hand = list(r.dealt[seat])
    d = r.discards[seat]
    if d is not None:
        hand.remove(d)
    return tuple(sorted(hand))


class CatInTheBoxObserver:
    """A PyObserver (see open_spiel.python.observation): ``tensor``, ``dict`` of named
    views of it, ``set_from(state, player)`` and ``string_from(state, player)``."""

    def __init__(self, game: CatInTheBoxGame, iig_obs_type: Any,
                 params: dict[str, Any] | None) -> None:
        if params:
            raise pyspiel.SpielError(f"{SHORT_NAME}: observation parameters are not "
                                     f"supported, got {params!r}")
        self.rules: Ruleset = game.rules
        self.rounds: int = game.rounds
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        kind = iig_obs_type.private_info
        self.private = ("single" if kind == pyspiel.PrivateInfoType.SINGLE_PLAYER
                        else "all" if kind == pyspiel.PrivateInfoType.ALL_PLAYERS else "none")
        pieces = tensor_pieces(self.rules, self.private, self.public, self.perfect_recall)
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        at = 0
        for name, shape in pieces:
            k = int(np.prod(shape))
            self.dict[name] = self.tensor[at:at + k].reshape(shape)
            at += k

    # ---- tensors --------------------------------------------------------------------------
    def set_from(self, state: CatInTheBoxState, player: int) -> None:
        """Fill ``tensor`` with what ``player`` may know of ``state``."""
        rules, r = self.rules, state.round
        n = rules.players
        d = self.dict
        self.tensor.fill(0)
        d["seat"][player] = 1
        if self.private == "single":
            _fill_private(rules, r, player, d["hand"], d["discard"])
        elif self.private == "all":
            for s in range(n):
                _fill_private(rules, r, s, d["hand"][s], d["discard"][s])
        if not self.public:
            return
        phase = phase_of(rules, r)
        d["round"][r.number] = 1
        d["start"][r.start] = 1
        d["phase"][PHASES.index(phase)] = 1
        if phase in (PHASES[1:4]):
            d["to_move"][to_move(rules, r, phase)] = 1
        if r.predictions is not None:
            for s, k in enumerate(r.predictions):
                if k is not None:
                    d["predictions"][s, k - 1] = 1
        d["totals"][:] = state.totals_so_far()
        pos = r.position
        if pos is None:
            for s in range(n):
                d["colors"][s, :] = 1
                d["tricks_won"][s, 0] = 1
            for cell in _cells(pos_neutral(rules, r)):
                d["board"][n, cell] = 1
            return
        for s, mask in enumerate(pos.owners):
            for cell in _cells(mask):
                d["board"][s, cell] = 1
            for c in range(4):
                d["colors"][s, c] = pos.colors[s] >> c & 1
            d["tricks_won"][s, pos.tricks_won[s]] = 1
        for cell in _cells(pos.neutral):
            d["board"][n, cell] = 1
        d["leader"][pos.leader] = 1
        for i, p in enumerate(pos.trick):
            d["trick"][i, play_action(p)] = 1
        if self.perfect_recall:
            for i, (s, p) in enumerate(r.plays):
                d["plays"][i, play_action(p)] = 1
                d["play_seats"][i, s] = 1

    # ---- strings --------------------------------------------------------------------------
    def string_from(self, state: CatInTheBoxState, player: int) -> str:
        """What ``player`` may know of ``state`` in words: with perfect recall every round
        so far (its own cards, discards, predictions and plays), else the table now."""
        if self.perfect_recall:
            return self._history_string(state, player)
        return self._table_string(state, player)

    def _private_text(self, r: Round, seat: int, dealt: bool) -> list[str]:
        seats = ([seat] if self.private == "single"
                 else range(self.rules.players) if self.private == "all" else [])
        out = []
        for s in seats:
            who = "" if self.private == "single" else f"seat {s} "
            cards = sorted(r.dealt[s]) if dealt else hand_of(self.rules, r, s)
            out.append(f"{who}{'dealt' if dealt else 'hand'} {_values(cards)}")
            out.append(f"{who}discard {_opt(r.discards[s])}")
        return out

    def _history_string(self, state: CatInTheBoxState, player: int) -> str:
        rules = self.rules
        n = rules.players
        lines = [f"seat {player} of {n}, {rules.name}, {self.rounds} "
                 f"{'round' if self.rounds == 1 else 'rounds'}"]
        for r in state.all_rounds():
            parts = [f"round {r.number + 1} start {r.start}"]
            parts += self._private_text(r, player, dealt=True)
            if self.public:
                if r.revealed:
                    parts.append(f"revealed {_values(r.revealed)}")
                if r.predictions is not None:
                    parts.append(f"predictions {' '.join(map(_opt, r.predictions))}")
                parts.append(f"plays {_tricks_text(n, r)}")
                if r.position is not None and r.position.is_over:
                    parts.append(f"scores {' '.join(map(str, r.position.scores()))}")
            lines.append(" | ".join(parts))
        return "\n".join(lines)

    def _table_string(self, state: CatInTheBoxState, player: int) -> str:
        rules, r = self.rules, state.round
        phase = phase_of(rules, r)
        parts = [f"seat {player}"]
        if self.public:
            parts.append(f"round {r.number + 1} of {self.rounds} start {r.start}")
            who = f" seat {to_move(rules, r, phase)}" if phase in PHASES[1:4] else ""
            parts.append(f"{phase}{who}")
        parts += self._private_text(r, player, dealt=False)
        if not self.public:
            return " | ".join(parts)
        pos = r.position
        parts.append("board " + board_text(rules, pos, pos_neutral(rules, r)))
        if pos is not None:
            parts.append("colors " + " ".join(_colors_text(c) for c in pos.colors))
            parts.append(f"leader {pos.leader} trick {' '.join(p.text for p in pos.trick)}")
            parts.append(f"won {' '.join(map(str, pos.tricks_won))}")
        if r.predictions is not None:
            parts.append(f"predictions {' '.join(map(_opt, r.predictions))}")
        parts.append(f"totals {' '.join(map(str, state.totals_so_far()))}")
        return " | ".join(parts)


def _fill_private(rules: Ruleset, r: Round, seat: int, hand: Any, discard: Any) -> None:
    held = hand_of(rules, r, seat)
    for v in set(held):
        hand[v - 1, : held.count(v)] = 1
    d = r.discards[seat]
    if d is not None:
        discard[d - 1] = 1


def pos_neutral(rules: Ruleset, r: Round) -> int:
    """The neutral tokens' cells as a mask (2 players: placed when the leftovers are
    revealed, before the discards)."""
    from catbox_solver.model.position import neutral_mask

    return r.position.neutral if r.position is not None else neutral_mask(list(r.revealed))


def _cells(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def _values(cards: tuple[int, ...] | list[int]) -> str:
    return "".join(map(str, cards)) or "-"


def _opt(x: int | None) -> str:
    return "-" if x is None else str(x)


def _colors_text(mask: int) -> str:
    return "".join(ch if mask >> c & 1 else "." for c, ch in enumerate(COLOR_CHARS))


def _tricks_text(n: int, r: Round) -> str:
    texts = [p.text for _, p in r.plays]
    return " / ".join(" ".join(texts[i:i + n]) for i in range(0, len(texts), n)) or "-"


def board_text(rules: Ruleset, pos: Position | None, neutral: int) -> str:
    """The research board, one row per color (``R:`` ...): per value the seat whose token
    is there, ``n`` a neutral token, ``.`` empty."""
    rows = []
    for c, ch in enumerate(COLOR_CHARS):
        cells = []
        for v in range(1, rules.values + 1):
            bit = 1 << (4 * (v - 1) + c)
            owner = next((str(s) for s, m in enumerate(pos.owners) if m & bit), None) \
                if pos is not None else None
            cells.append(owner or ("n" if neutral & bit else "."))
        rows.append(f"{ch}:{''.join(cells)}")
    return " ".join(rows)


def state_text(state: CatInTheBoxState) -> str:
    """The whole state in words (every hand open): for debugging and OpenSpiel's checks."""
    rules = state.rules
    lines = []
    for r in state.all_rounds():
        phase = phase_of(rules, r)
        lines.append(f"round {r.number + 1} start {r.start} {phase}")
        lines.append("dealt " + " ".join(_values(sorted(h)) for h in r.dealt)
                     + (f" revealed {_values(r.revealed)}" if r.revealed else ""))
        if phase != DEAL:
            lines.append("discards " + " ".join(map(_opt, r.discards)))
        if r.predictions is not None:
            lines.append("predictions " + " ".join(map(_opt, r.predictions)))
        if r.position is not None:
            lines.append("plays " + _tricks_text(rules.players, r))
            if phase == PLAY:
                lines.append(f"to move {r.position.to_move}")
            elif phase == OVER:
                lines.append("scores " + " ".join(map(str, r.position.scores())))
    return "\n".join(lines)


__all__ = ["CatInTheBoxObserver", "board_text", "state_text", "tensor_pieces"]
