"""Which positions can arise in a round: the checks behind :meth:`Position.validate`, each
error naming what is wrong and where (a used cell claimed twice, a hand of the wrong size,
a first trick no lead could have played, a follower that could have followed)."""

from __future__ import annotations

from collections.abc import Sequence

from catbox_solver.errors import PositionError
from catbox_solver.model.board import board_mask, cells_of
from catbox_solver.model.numbers import is_whole
from catbox_solver.model.position import PLAYS, RULE_TEXT, Play, Position, trick_winner_index
from catbox_solver.model.rules import ALL_COLORS, COLOR_CHARS, colors_text


def _followed_in(pos: Position, seat: int) -> int:
    """The tricks ``seat`` followed in, the one under way included: it leads the trick
    after each one it won, but the last one it won if it leads now."""
    leads = pos.tricks_won[seat] - (1 if seat == pos.leader else 0)
    followed = pos.tricks_played - max(leads, 0)
    if seat != pos.leader and (seat - pos.leader) % pos.rules.players < len(pos.trick):
        followed += 1
    return followed


def _check_first_trick(pos: Position) -> None:
    """With one trick played, its plays are on the board (each seat's token off the trick
    under way); only who led it is unknown. So trick 1 and the trick under way are
    replayed by the rules themselves from each possible lead: some lead must reach this
    position, every play legal, the trick won by the seat that leads now and every seat's
    colors as they are now. (An impossible first trick was accepted: seat 0 credited with
    1b 2b 3b 4b, a red lead at trick 1, a color lost by a seat that followed suit.)"""
    rules = pos.rules
    n = rules.players
    now = {(pos.leader + i) % n: pl for i, pl in enumerate(pos.trick)}
    first: list[Play] = []
    for seat in range(n):
        here = 1 << now[seat].cell if seat in now else 0
        ((color, value),) = cells_of(pos.owners[seat] & ~here)
        first.append(PLAYS[value][color])
    hands = [
        sorted([*pos.hands[s], first[s].value, *([now[s].value] if s in now else [])])
        for s in range(n)
    ]
    problem = ""
    for start in range(n):
        order = [(start + i) % n for i in range(n)]
        if order[trick_winner_index([first[s] for s in order])] != pos.leader:
            continue
        p = Position(rules, [0] * n, pos.neutral, hands,
                     [ALL_COLORS] * n, start, (), [0] * n, pos.predictions, rules.tricks,
                     validate=False)
        why = ""
        for trick, seats, plays in (
            (1, order, [first[s] for s in order]),
            (2, [(pos.leader + i) % n for i in range(len(pos.trick))], list(pos.trick)),
        ):
            for seat, play in zip(seats, plays, strict=True):
                reason = p.why_illegal(play)
                if reason is not None:
                    why = f"{play.text} by seat {seat} in trick {trick} is not legal then: " + (
                        RULE_TEXT[reason])
                    break
                p = p.after(play)
            if why:
                break
        if not why:
            if p.colors == pos.colors:
                return
            seat = next(s for s in range(n) if p.colors[s] != pos.colors[s])
            why = (f"seat {seat} would have colors {colors_text(p.colors[seat]) or '-'}, not "
                   f"{colors_text(pos.colors[seat]) or '-'}")
        problem = problem or f"with seat {start} leading it, {why}"
    listed = ", ".join(f"seat {s} {first[s].text}" for s in range(n))
    raise PositionError(
        f"seat {pos.leader} leads, so it won trick 1 ({listed}), but "
        + (problem or "whoever led it, another seat wins it")
    )


def _before_play(pos: Position, i: int, colors: Sequence[int]) -> Position:
    """The position before play ``i`` of the trick under way: that play and the later ones
    back in their hands and their cells empty, the seats' colors ``colors`` (unchecked)."""
    n = pos.rules.players
    owners = list(pos.owners)
    hands = [list(h) for h in pos.hands]
    for j in range(i, len(pos.trick)):
        seat = (pos.leader + j) % n
        owners[seat] &= ~(1 << pos.trick[j].cell)
        hands[seat].append(pos.trick[j].value)
    return Position(
        pos.rules, owners, pos.neutral, hands, colors, pos.leader, pos.trick[:i],
        pos.tricks_won, pos.predictions, pos.tricks_left, validate=False,
    )


def _check_follows(pos: Position) -> None:
    """Must-follow: a follower of the trick under way who declared another color than the
    led one could not declare the led one then (an impossible trick was accepted). Asked
    where the seat surely still had the led color at its turn: with the Czech reading if
    it has it now; else if it lost a color in every trick it followed, this one included
    (each follow loses one at most), so the led color went at this play."""
    rules = pos.rules
    n = rules.players
    led = pos.trick[0].color
    for i in range(1, len(pos.trick)):
        pl = pos.trick[i]
        seat = (pos.leader + i) % n
        if pl.color == led:
            continue
        colors = pos.colors[seat]
        if rules.color_loss == "declared":
            if not colors >> led & 1:
                continue
            colors |= 1 << pl.color
        else:
            if 4 - bin(colors).count("1") != _followed_in(pos, seat):
                continue
            colors |= 1 << led
        seat_colors = list(pos.colors)
        seat_colors[seat] = colors
        if _before_play(pos, i, seat_colors).why_illegal(pl) == "must follow":
            raise PositionError(
                f"seat {seat} declared {pl.text} on a {COLOR_CHARS[led]} lead although it "
                f"could declare {COLOR_CHARS[led]} then (must follow)"
            )


def check_position(pos: Position) -> None:
    """The impossible-position checks (each message says what and where)."""
    rules = pos.rules
    n = rules.players
    nv = rules.values
    # whole numbers where numbers are meant (a float leader printed as "lead 1.5" and then
    # failed deep in a search)
    scalars = [("leader", pos.leader), ("tricks left", pos.tricks_left), ("neutral", pos.neutral)]
    for name, per_seat in (("board owners", pos.owners), ("colors", pos.colors),
                           ("tricks won", pos.tricks_won)):
        scalars += [(f"{name} of seat {i}", x) for i, x in enumerate(per_seat)]
    for name, x in scalars:
        if not is_whole(x):
            raise PositionError(f"{name}: {x!r} is not a whole number")
    for seat, pred in enumerate(pos.predictions or ()):
        if pred is not None and not is_whole(pred):
            raise PositionError(f"prediction of seat {seat}: {pred!r} is not a whole number")
    for name, seq in (
        ("board owners", pos.owners),
        ("hands", pos.hands),
        ("colors", pos.colors),
        ("tricks won", pos.tricks_won),
    ):
        if len(seq) != n:
            raise PositionError(f"{name}: {len(seq)} entries for {n} players")
    if pos.predictions is not None and len(pos.predictions) != n:
        raise PositionError(f"predictions: {len(pos.predictions)} entries for {n} players")
    if not 0 <= pos.tricks_left <= rules.tricks:
        raise PositionError(f"tricks left {pos.tricks_left} outside 0..{rules.tricks}")
    if not 0 <= pos.leader < n:
        raise PositionError(f"leader seat {pos.leader} outside 0..{n - 1}")
    full = board_mask(nv)
    seen = 0
    for seat, m in enumerate((*pos.owners, pos.neutral)):
        who = "neutral tokens" if seat == n else f"seat {seat}"
        if m < 0 or m & ~full:
            raise PositionError(f"{who}: a token outside the board's values 1-{nv}")
        if m & seen:
            c, v = next(iter(cells_of(m & seen)))
            raise PositionError(f"cell {COLOR_CHARS[c]}{v} holds two tokens")
        seen |= m
    if n == 2:
        if bin(pos.neutral).count("1") != 3:
            raise PositionError("2 players: the board needs exactly 3 neutral tokens")
        for v in range(1, nv + 1):
            nib = pos.neutral >> (4 * v - 4) & 15
            if nib not in (0, 0b1000, 0b1100, 0b1110):
                raise PositionError(
                    f"neutral tokens of value {v} must fill green, then yellow, then blue"
                )
    elif pos.neutral:
        raise PositionError(f"neutral tokens exist only with 2 players, not {n}")
    if len(pos.trick) >= n:
        raise PositionError(f"the trick in progress has {len(pos.trick)} plays for {n} players")
    if pos.tricks_left == 0 and pos.trick:
        raise PositionError("a finished round has no trick in progress")
    for seat, hand in enumerate(pos.hands):
        for v in hand:
            if not is_whole(v) or not 1 <= v <= nv:  # (True was taken for a 1)
                raise PositionError(f"seat {seat} holds value {v!r} outside 1-{nv}")
    for v in range(1, nv + 1):
        on_board = bin(seen >> (4 * v - 4) & 15).count("1")
        held = sum(h.count(v) for h in pos.hands)
        if on_board + held > rules.copies:
            raise PositionError(
                f"value {v}: {held} in hands and {on_board} on the board, more than "
                f"{rules.copies} copies"
            )
    in_trick = {(pos.leader + i) % n for i in range(len(pos.trick))}
    for seat in range(n):
        played_now = 1 if seat in in_trick else 0
        want_hand = pos.tricks_left + 1 - played_now
        if len(pos.hands[seat]) != want_hand:
            raise PositionError(
                f"seat {seat} holds {len(pos.hands[seat])} cards, should hold {want_hand} with "
                f"{pos.tricks_left} tricks left"
            )
        want_tokens = pos.tricks_played + played_now
        have = bin(pos.owners[seat]).count("1")
        if have != want_tokens:
            raise PositionError(
                f"seat {seat} has {have} tokens on the board, should have {want_tokens} "
                f"after {pos.tricks_played} tricks"
            )
        if not 0 <= pos.colors[seat] <= ALL_COLORS:
            raise PositionError(f"seat {seat}: bad color mask {pos.colors[seat]!r}")
        if pos.tricks_won[seat] < 0:
            raise PositionError(f"seat {seat}: negative tricks won")
    if sum(pos.tricks_won) != pos.tricks_played:
        raise PositionError(
            f"tricks won add up to {sum(pos.tricks_won)}, but {pos.tricks_played} tricks "
            "were played"
        )
    if pos.tricks_played and not pos.tricks_won[pos.leader]:
        raise PositionError(
            f"seat {pos.leader} leads but has won no trick: the winner of a trick leads the next"
        )
    for seat in range(n):
        # a color is lost only by a follower who does not declare the led color, one at
        # most per trick it follows in
        if not pos.colors[seat] and rules.color_loss == "led":
            # a follower loses the led color only by declaring another, which it keeps
            # (docs/theorems.md, last-color-kept); the Czech reading can empty the set.
            # (Asked first: the count below named 4 lost colors, not the cause.)
            raise PositionError(
                f"seat {seat} has no color left: a player always keeps the color it declares, "
                "so nobody loses all four (unless colors are lost the Czech way)"
            )
        lost = 4 - bin(pos.colors[seat]).count("1")
        followed = _followed_in(pos, seat)
        if lost > followed:
            raise PositionError(
                f"seat {seat} has lost {lost} color(s) but followed in at most {followed} "
                "trick(s): a color is lost only by not following the led color"
            )
    for i, pl in enumerate(pos.trick):
        seat = (pos.leader + i) % n
        if not 1 <= pl.value <= nv or not 0 <= pl.color <= 3:
            raise PositionError(f"trick play {i + 1} is not a card of this game")
        led_color = pos.trick[0].color
        kept = pl.color if rules.color_loss == "led" or pl.color == led_color else None
        if kept is not None and not pos.colors[seat] >> kept & 1:
            raise PositionError(
                f"seat {seat} declared {COLOR_CHARS[pl.color]} in this trick but has no "
                f"color {COLOR_CHARS[kept]}: it had the color then and cannot have lost it since"
            )
        if not pos.owners[seat] & (1 << pl.cell):
            raise PositionError(
                f"trick play {i + 1} ({pl.text}) by seat {seat} has no token of that seat on "
                "its cell"
            )
        if i > 0 and pl.color != pos.trick[0].color:
            lost = pos.trick[0].color if rules.color_loss == "led" else pl.color
            if pos.colors[seat] >> lost & 1:
                raise PositionError(
                    f"seat {seat} declared {COLOR_CHARS[pl.color]} on a "
                    f"{COLOR_CHARS[pos.trick[0].color]} lead but still has color "
                    f"{COLOR_CHARS[lost]}"
                )
    if pos.trick:
        # the lead was legal when it was made (the red lead rule): asked of the position
        # before it; the leader's colors have not changed since (it plays once a trick)
        reason = _before_play(pos, 0, pos.colors).why_illegal(pos.trick[0])
        if reason is not None:
            raise PositionError(
                f"the lead {pos.trick[0].text} by seat {pos.leader} was not legal: "
                f"{RULE_TEXT[reason]}"
            )
        if rules.following == "must-follow":
            _check_follows(pos)
    if pos.tricks_played == 1:  # (after the trick under way: its tokens are known good)
        _check_first_trick(pos)
    if pos.predictions is not None:
        if not rules.has_predictions:
            raise PositionError(f"{n} players make no predictions")
        for seat, pred in enumerate(pos.predictions):
            if pred is not None and pred not in rules.prediction_choices:
                raise PositionError(
                    f"seat {seat} predicted {pred!r}; allowed: "
                    f"{', '.join(map(str, rules.prediction_choices))}"
                )
