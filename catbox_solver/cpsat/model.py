"""The rest of a round as CP-SAT constraints, one small function per rule.

A round is modelled as a sequence of *steps*, one per remaining play. At step ``s`` the
player to move declares one (value, color) pair, chosen by the Boolean ``x[s][cell]``
(cell = ``(value - 1) * 4 + color``, as in :mod:`catbox_solver.model.position`). Who is to
move is not a variable of its own: it follows from the leader of the step's trick (one-hot
``leader[j][seat]``) and the step's place in the trick. The round either plays every step or
stops at the first step whose player to move has no legal play (a paradox): ``alive[s]``
says step ``s`` is reached, ``played[s]`` that a card was played there, and
``paradox[s] = alive[s] and not played[s]``.

The state before each step is kept as Booleans: ``empty[s][cell]`` (rule 1),
``has[j][seat][value]`` (the value is still in hand at trick ``j``) and
``keeps[j][seat][color]`` (rule 2: the X of the color is still covered). Legality is then a
set of clauses, and the paradox is exact: ``paradox[s]`` forbids every play that rules 1 and 2
(and the red lead) would allow, while ``alive[s]`` with no paradox forces a play.

The deal may be known (a :class:`Position`) or free (:func:`build_free_round`: hands,
discards, 2-player leftovers and neutral tokens become variables). Every switch of the
Ruleset that changes legality is encoded. The prediction bonus (largest connected group of
own tokens) is added on demand per seat, as two existential encodings: a connected chosen
set for "largest group >= g" and a component labelling for "largest group <= m" (see
:mod:`catbox_solver.cpsat.bonus` and docs/constraints.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from catbox_solver.errors import SearchError
from catbox_solver.model.position import Position
from catbox_solver.model.rules import RED, Ruleset

Lit = Any
"""A CP-SAT Boolean literal, or a Python bool for a fact known when the model is built."""


# ---- literal helpers ---------------------------------------------------------------------


def neg(lit: Lit) -> Lit:
    """The negation of a literal (constants stay constants)."""
    if isinstance(lit, bool):
        return not lit
    return lit.negated()


def add_clause(model: cp_model.CpModel, lits: list[Lit], enforce: Lit | None = None) -> None:
    """At least one of ``lits`` (constants simplified away), optionally only if ``enforce``."""
    out = []
    for lit in lits:
        if lit is True:
            return
        if lit is False:
            continue
        out.append(lit)
    if enforce is not None:
        if not out:
            model.add_bool_or([neg(enforce)])
            return
        model.add_bool_or(out).only_enforce_if(enforce)
        return
    if not out:
        model.add(sum([]) == 1)  # an empty clause: the model is infeasible
        return
    model.add_bool_or(out)


def and_lit(model: cp_model.CpModel, lits: list[Lit], name: str) -> Lit:
    """A literal equal to the conjunction of ``lits``."""
    rest = []
    for lit in lits:
        if lit is False:
            return False
        if lit is not True:
            rest.append(lit)
    if not rest:
        return True
    if len(rest) == 1:
        return rest[0]
    b = model.new_bool_var(name)
    for lit in rest:
        model.add_implication(b, lit)
    model.add_bool_or([neg(lit) for lit in rest] + [b])
    return b


def or_lit(model: cp_model.CpModel, lits: list[Lit], name: str) -> Lit:
    """A literal equal to the disjunction of ``lits``."""
    return neg(and_lit(model, [neg(lit) for lit in lits], name))


def value_of(solver: cp_model.CpSolver, lit: Lit) -> bool:
    if isinstance(lit, bool):
        return lit
    return bool(solver.boolean_value(lit))


# ---- the model ---------------------------------------------------------------------------


@dataclass
class RoundModel:
    """The variables of a modelled round (see the module docstring for their meaning)."""

    rules: Ruleset
    model: cp_model.CpModel
    start: Position | None
    steps: int
    tricks: int
    first_ply: int
    """Plays already made in the current trick (the first step's place in its trick)."""
    first_trick: int
    """Round trick number (1-based) of the first modelled trick."""
    cells: list[int]
    leader: list[list[Lit]] = field(default_factory=list)
    x: list[dict[int, Lit]] = field(default_factory=list)
    value_played: list[dict[int, Lit]] = field(default_factory=list)
    color_played: list[list[Lit]] = field(default_factory=list)
    played: list[Lit] = field(default_factory=list)
    alive: list[Lit] = field(default_factory=list)
    paradox: list[Lit] = field(default_factory=list)
    empty: list[dict[int, Lit]] = field(default_factory=list)
    used_at_start: dict[int, Lit] = field(default_factory=dict)
    hand: list[dict[int, Any]] = field(default_factory=list)
    has: list[list[dict[int, Lit]]] = field(default_factory=list)
    keeps: list[list[list[Lit]]] = field(default_factory=list)
    led: list[list[Lit]] = field(default_factory=list)
    red_broken: dict[int, Lit] = field(default_factory=dict)
    wins: list[Lit] = field(default_factory=list)
    won: list[list[Lit]] = field(default_factory=list)
    complete: list[Lit] = field(default_factory=list)
    tricks_won: list[Any] = field(default_factory=list)
    paradox_by: list[list[Lit]] = field(default_factory=list)
    caused_paradox: list[Lit] = field(default_factory=list)
    trick_points: list[Any] = field(default_factory=list)
    discards: list[dict[int, Any]] = field(default_factory=list)
    revealed: dict[int, Any] = field(default_factory=dict)
    hidden: dict[int, Any] = field(default_factory=dict)
    owned_end: dict[int, dict[int, Lit]] = field(default_factory=dict)
    """Per seat (built on demand): cell -> the seat's token is on it when the round ends."""
    bonus_active: dict[int, Lit] = field(default_factory=dict)
    group_size: dict[int, Any] = field(default_factory=dict)
    group_bound: dict[int, Any] = field(default_factory=dict)

    @property
    def players(self) -> int:
        return self.rules.players

    def trick_of(self, s: int) -> int:
        """Modelled trick index (0-based) of step ``s``."""
        return (self.first_ply + s) // self.players

    def place_of(self, s: int) -> int:
        """Place of step ``s`` in its trick (0 = the lead)."""
        return (self.first_ply + s) % self.players

    def seat(self, s: int, p: int) -> Lit:
        """Literal: seat ``p`` is the player to move at step ``s``."""
        n = self.players
        return self.leader[self.trick_of(s)][(p - self.place_of(s)) % n]

    def steps_of_trick(self, j: int) -> range:
        n = self.players
        lo = max(0, j * n - self.first_ply)
        return range(lo, (j + 1) * n - self.first_ply)

    def lead_step(self, j: int) -> int | None:
        """The step that leads modelled trick ``j`` (None: it was led before the model)."""
        s = j * self.players - self.first_ply
        return s if s >= 0 else None


def cell_index(value: int, color: int) -> int:
    """The cell of (value, color) as the model numbers it (as Position's bits)."""
    return (value - 1) * 4 + color


# ---- building ----------------------------------------------------------------------------


def build_round(pos: Position) -> RoundModel:
    """The model of every continuation of a known position."""
    rules = pos.rules
    n = rules.players
    model = cp_model.CpModel()
    held = {v for h in pos.hands for v in h}
    cells = [
        cell_index(v, c)
        for v in range(1, rules.values + 1)
        for c in range(4)
        if not pos.used >> cell_index(v, c) & 1 and v in held
    ]
    steps = pos.tricks_left * n - len(pos.trick) if pos.tricks_left else 0
    rm = RoundModel(
        rules,
        model,
        pos,
        steps,
        pos.tricks_left,
        len(pos.trick),
        pos.tricks_played + 1,
        cells,
    )
    rm.used_at_start = {
        cell_index(v, c): bool(pos.used >> cell_index(v, c) & 1)
        for v in range(1, rules.values + 1)
        for c in range(4)
    }
    rm.hand = [{v: h.count(v) for v in set(h)} for h in pos.hands]
    rm.leader = [[p == pos.leader for p in range(n)]]
    keeps0 = [[bool(pos.colors[p] >> c & 1) for c in range(4)] for p in range(n)]
    add_all_rules(rm, keeps0, list(pos.tricks_won))
    return rm


def build_free_round(
    rules: Ruleset,
    start: int = 0,
    hands: Sequence[Sequence[int] | None] | None = None,
    discards: Sequence[Sequence[int] | None] | None = None,
) -> RoundModel:
    """The model of a whole round whose deal is unknown or partly known: each seat's hand
    after the discard, its discard, the 2-player leftovers (revealed and hidden) and the
    neutral tokens they place are variables, next to every play. ``hands`` and
    ``discards`` fix the seats whose cards are known (None for an unknown seat)."""
    n = rules.players
    model = cp_model.CpModel()
    cells = [cell_index(v, c) for v in range(1, rules.values + 1) for c in range(4)]
    rm = RoundModel(rules, model, None, rules.tricks * n, rules.tricks, 0, 1, cells)
    add_free_deal(rm)
    add_known_cards(rm, hands, rm.hand, "hand", rules.tricks + 1)
    add_known_cards(rm, discards, rm.discards, "discard", rules.discards)
    rm.leader = [[p == start for p in range(n)]]
    keeps0 = [[True] * 4 for _ in range(n)]
    add_all_rules(rm, keeps0, [0] * n)
    return rm


def add_known_cards(
    rm: RoundModel,
    known: Sequence[Sequence[int] | None] | None,
    counts: list[dict[int, Any]],
    what: str,
    size: int,
) -> None:
    """Fix the cards of the seats whose hand (or discard) is known."""
    if known is None:
        return
    if len(known) != rm.players:
        raise SearchError(f"known {what}s: {len(known)} entries for {rm.players} players")
    for p, cards in enumerate(known):
        if cards is None:
            continue
        if len(cards) != size or any(v not in counts[p] for v in cards):
            raise SearchError(
                f"seat {p}'s {what} must be {size} values in 1-{rm.rules.values}, not {list(cards)}"
            )
        for v, var in counts[p].items():
            rm.model.add(var == list(cards).count(v))


def add_free_deal(rm: RoundModel) -> None:
    """Deal: every value has 5 copies among hands, discards and leftovers; each hand holds
    tricks + 1 cards after its discard; 2 players: 3 of the 5 leftovers are revealed and put
    neutral tokens on green, then yellow, then blue of their value."""
    rules, model, n = rules_model_n(rm)
    after = rules.tricks + 1
    for p in range(n):
        rm.hand.append({v: model.new_int_var(0, after, f"hand{p}_{v}") for v in card_values(rules)})
        rm.discards.append(
            {v: model.new_int_var(0, rules.discards, f"disc{p}_{v}") for v in card_values(rules)}
        )
        model.add(sum(rm.hand[p].values()) == after)
        model.add(sum(rm.discards[p].values()) == rules.discards)
    for v in card_values(rules):
        rm.revealed[v] = model.new_int_var(0, 3 if n == 2 else 0, f"revealed{v}")
        rm.hidden[v] = model.new_int_var(0, rules.copies if n == 2 else 0, f"hidden{v}")
        if rules.leftover:
            model.add(
                sum(rm.hand[p][v] + rm.discards[p][v] for p in range(n))
                + rm.revealed[v]
                + rm.hidden[v]
                <= rules.copies
            )
        else:
            model.add(sum(rm.hand[p][v] + rm.discards[p][v] for p in range(n)) == rules.copies)
    if n == 2:
        model.add(sum(rm.revealed.values()) == rules.neutral_tokens)
        model.add(sum(rm.hidden.values()) == rules.leftover - rules.neutral_tokens)
    for v in card_values(rules):
        if n == 2:
            order = [3, 2, 1]  # green, yellow, blue
            tokens = [model.new_bool_var(f"neutral{v}_{c}") for c in order]
            model.add(sum(tokens) == rm.revealed[v])
            model.add_implication(tokens[1], tokens[0])
            model.add_implication(tokens[2], tokens[1])
            rm.used_at_start[cell_index(v, RED)] = False
            for c, tok in zip(order, tokens, strict=True):
                rm.used_at_start[cell_index(v, c)] = tok
        else:
            for c in range(4):
                rm.used_at_start[cell_index(v, c)] = False


def rules_model_n(rm: RoundModel) -> tuple[Ruleset, cp_model.CpModel, int]:
    return rm.rules, rm.model, rm.players


def card_values(rules: Ruleset) -> range:
    """The card values 1..rules.values."""
    return range(1, rules.values + 1)


def add_all_rules(rm: RoundModel, keeps0: list[list[Lit]], won0: list[int]) -> None:
    """Every rule of a round, in the order the variables depend on each other."""
    add_steps(rm)
    add_rule1_cell_once(rm)
    add_leaders(rm)
    add_hands(rm)
    add_counting(rm)
    add_rule2_colors_kept(rm, keeps0)
    add_color_loss(rm)
    add_red_lead(rm)
    add_must_follow(rm)
    add_trick_winner(rm)
    add_paradox(rm)
    add_tricks_won(rm, won0)
    add_trick_points(rm)


def add_steps(rm: RoundModel) -> None:
    """One play per reached step: ``played[s]`` is the one-hot sum of ``x[s]``; the round
    goes on to step s+1 only if step s was played; a reached step that is not played is a
    paradox."""
    model = rm.model
    for s in range(rm.steps):
        xs = {cell: model.new_bool_var(f"x{s}_{cell}") for cell in rm.cells}
        rm.x.append(xs)
        played = model.new_bool_var(f"played{s}")
        model.add(sum(xs.values()) == played)
        rm.played.append(played)
        alive: Lit = True if s == 0 else rm.played[s - 1]
        rm.alive.append(alive)
        par = model.new_bool_var(f"paradox{s}")
        model.add(par + played == alive)
        rm.paradox.append(par)
        vals: dict[int, Lit] = {}
        for v in {cell // 4 + 1 for cell in rm.cells}:
            lits = [xs[cell] for cell in rm.cells if cell // 4 + 1 == v]
            b = model.new_bool_var(f"xv{s}_{v}")
            model.add(sum(lits) == b)
            vals[v] = b
        rm.value_played.append(vals)
        cols: list[Lit] = []
        for c in range(4):
            lits = [xs[cell] for cell in rm.cells if cell % 4 == c]
            if not lits:
                cols.append(False)
                continue
            b = model.new_bool_var(f"xc{s}_{c}")
            model.add(sum(lits) == b)
            cols.append(b)
        rm.color_played.append(cols)


def add_rule1_cell_once(rm: RoundModel) -> None:
    """Rule 1: a cell takes one token; ``empty[s][cell]`` says it is still free before step
    s (a chain: free before s+1 = free before s minus the play at s)."""
    model = rm.model
    for cell in rm.cells:
        model.add(sum(rm.x[s][cell] for s in range(rm.steps)) + rm.used_at_start[cell] <= 1)
    prev: dict[int, Lit] = {cell: neg(rm.used_at_start[cell]) for cell in rm.cells}
    for s in range(rm.steps + 1):
        rm.empty.append(prev)
        if s == rm.steps:
            break
        nxt: dict[int, Lit] = {}
        for cell in rm.cells:
            b = model.new_bool_var(f"empty{s + 1}_{cell}")
            model.add(b == prev[cell] - rm.x[s][cell])
            nxt[cell] = b
        prev = nxt


def add_counting(rm: RoundModel) -> None:
    """Counting invariants, redundant but they let the solver count instead of search: the
    cells left empty at the end are the free cells minus the plays, in total and for each
    value; the plays of a value are at most the copies held."""
    model = rm.model
    end = rm.empty[rm.steps]
    free = sum(neg(rm.used_at_start[cell]) for cell in rm.cells)
    model.add(sum(end.values()) == free - sum(rm.played))
    for v in sorted({cell // 4 + 1 for cell in rm.cells}):
        cells = [cell for cell in rm.cells if cell // 4 + 1 == v]
        free_v = sum(neg(rm.used_at_start[cell]) for cell in cells)
        plays_v = sum(rm.value_played[s][v] for s in range(rm.steps))
        model.add(sum(end[cell] for cell in cells) == free_v - plays_v)
        model.add(plays_v <= sum(h.get(v, 0) for h in rm.hand))


def add_leaders(rm: RoundModel) -> None:
    """The leader of each later trick: one seat (a variable; it is the previous winner)."""
    n = rm.players
    for j in range(1, rm.tricks + 1):
        row = [rm.model.new_bool_var(f"leader{j}_{p}") for p in range(n)]
        rm.model.add_exactly_one(row)
        rm.leader.append(row)


def add_hands(rm: RoundModel) -> None:
    """A card played comes from the hand: ``has[j][p][v]`` (value v still held by seat p at
    trick j) is exactly "the hand's count minus p's plays of v in earlier tricks >= 1"."""
    model, n = rm.model, rm.players
    values = sorted({cell // 4 + 1 for cell in rm.cells})
    by_seat: list[list[dict[int, Lit]]] = []  # by_seat[s][p][v]: seat p plays v at step s
    for s in range(rm.steps):
        row: list[dict[int, Lit]] = []
        for p in range(n):
            d: dict[int, Lit] = {}
            for v in values:
                if v not in rm.hand[p]:
                    continue
                b = model.new_bool_var(f"y{s}_{p}_{v}")
                model.add_implication(b, rm.seat(s, p))
                model.add_implication(b, rm.value_played[s][v])
                d[v] = b
            row.append(d)
        for v in values:
            model.add(sum(row[p][v] for p in range(n) if v in row[p]) == rm.value_played[s][v])
        by_seat.append(row)
    for j in range(rm.tricks):
        first = j * n - rm.first_ply
        layer: list[dict[int, Lit]] = []
        for p in range(n):
            d = {}
            for v in values:
                h = rm.hand[p].get(v, 0)
                if isinstance(h, int) and h == 0:
                    continue
                count = h - sum(
                    by_seat[s][p][v] for s in range(max(first, 0)) if v in by_seat[s][p]
                )
                if isinstance(count, int):
                    d[v] = count >= 1
                    continue
                b = model.new_bool_var(f"has{j}_{p}_{v}")
                model.add(count >= 1).only_enforce_if(b)
                model.add(count <= 0).only_enforce_if(b.negated())
                d[v] = b
            layer.append(d)
        rm.has.append(layer)
    for s in range(rm.steps):
        j = rm.trick_of(s)
        for p in range(n):
            for v, y in by_seat[s][p].items():
                add_clause(model, [neg(y), rm.has[j][p].get(v, False)])
    # redundant (follows from the above): nobody plays more copies of a value than held
    for p in range(n):
        for v in values:
            if v in rm.hand[p]:
                ys = [by_seat[s][p][v] for s in range(rm.steps)]
                model.add(sum(ys) <= rm.hand[p][v])


def add_rule2_colors_kept(rm: RoundModel, keeps0: list[list[Lit]]) -> None:
    """Rule 2: the declared color must still be covered on the player's board.
    ``keeps[j][p][c]`` holds for every trick (and after the last)."""
    model, n = rm.model, rm.players
    rm.keeps.append(keeps0)
    for j in range(1, rm.tricks + 1):
        rm.keeps.append(
            [[model.new_bool_var(f"keeps{j}_{p}_{c}") for c in range(4)] for p in range(n)]
        )
    for s in range(rm.steps):
        j = rm.trick_of(s)
        for p in range(n):
            for c in range(4):
                add_clause(
                    model, [neg(rm.color_played[s][c]), neg(rm.seat(s, p)), rm.keeps[j][p][c]]
                )


def _led_colors(rm: RoundModel) -> None:
    """``led[j][c]``: trick j was led in color c (a constant for a trick already led)."""
    for j in range(rm.tricks):
        s = rm.lead_step(j)
        if s is None:
            assert rm.start is not None
            c0 = rm.start.trick[0].color
            rm.led.append([c == c0 for c in range(4)])
        else:
            rm.led.append(list(rm.color_played[s]))


def add_color_loss(rm: RoundModel) -> None:
    """A follower who declares a color other than the led one loses the led color
    (Ruleset.color_loss 'led') or the declared color ('declared'); a color once lost stays
    lost."""
    model, n = rm.model, rm.players
    _led_colors(rm)
    for j in range(rm.tricks):
        loses = [[[] for _ in range(4)] for _ in range(n)]  # type: list[list[list[Lit]]]
        for s in rm.steps_of_trick(j):
            if rm.place_of(s) == 0:
                continue
            for c in range(4):
                if rm.rules.color_loss == "led":
                    # led c, played, and declared something else
                    lost = and_lit(
                        model,
                        [rm.led[j][c], rm.played[s], neg(rm.color_played[s][c])],
                        f"lost{s}_{c}",
                    )
                else:
                    lost = and_lit(
                        model, [rm.color_played[s][c], neg(rm.led[j][c])], f"lost{s}_{c}"
                    )
                for p in range(n):
                    loses[p][c].append(and_lit(model, [rm.seat(s, p), lost], f"loses{s}_{p}_{c}"))
        for p in range(n):
            for c in range(4):
                before, after = rm.keeps[j][p][c], rm.keeps[j + 1][p][c]
                lits = [lit for lit in loses[p][c] if lit is not False]
                # after = before and no loss (each seat plays once per trick: at most one)
                add_clause(model, [neg(after), before])
                for lit in lits:
                    add_clause(model, [neg(after), neg(lit)])
                add_clause(model, [after, neg(before), *lits])


def red_broken_lit(rm: RoundModel, s: int) -> Lit:
    """Some token lies on the red row before step s."""
    if s not in rm.red_broken:
        reds = []
        for v in card_values(rm.rules):
            cell = cell_index(v, RED)
            if cell in rm.empty[s]:
                reds.append(neg(rm.empty[s][cell]))
            else:
                reds.append(rm.used_at_start.get(cell, False))
        rm.red_broken[s] = or_lit(rm.model, reds, f"redbroken{s}")
    return rm.red_broken[s]


def add_red_lead(rm: RoundModel) -> None:
    """The leader may not declare red before red is broken, except (Ruleset.red_lead):
    'exception' when no card in hand has a legal non-red play, 'never' no exception,
    'per-card' when that card has no legal non-red color."""
    model, n = rm.model, rm.players
    mode = rm.rules.red_lead
    for j in range(rm.tricks):
        s = rm.lead_step(j)
        if s is None:
            continue
        broken = red_broken_lit(rm, s)
        if broken is True:
            continue
        red_plays = [(cell // 4 + 1, rm.x[s][cell]) for cell in rm.cells if cell % 4 == RED]
        if mode == "never":
            for _v, xr in red_plays:
                add_clause(model, [neg(xr), broken])
        elif mode == "exception":
            non_red = model.new_bool_var(f"nonred{s}")
            for p in range(n):
                for v, has in rm.has[j][p].items():
                    for c in (1, 2, 3):
                        e = rm.empty[s].get(cell_index(v, c), False)
                        add_clause(
                            model,
                            [neg(rm.seat(s, p)), neg(has), neg(rm.keeps[j][p][c]), neg(e), non_red],
                        )
            for _v, xr in red_plays:
                add_clause(model, [neg(xr), broken, neg(non_red)])
        else:  # per-card
            for v, xr in red_plays:
                for p in range(n):
                    for c in (1, 2, 3):
                        e = rm.empty[s].get(cell_index(v, c), False)
                        add_clause(
                            model,
                            [neg(xr), broken, neg(rm.seat(s, p)), neg(rm.keeps[j][p][c]), neg(e)],
                        )


def add_must_follow(rm: RoundModel) -> None:
    """Ruleset.following 'must-follow': a follower able to declare the led color must."""
    if rm.rules.following != "must-follow":
        return
    model, n = rm.model, rm.players
    for s in range(rm.steps):
        if rm.place_of(s) == 0:
            continue
        j = rm.trick_of(s)
        can = model.new_bool_var(f"canfollow{s}")
        for p in range(n):
            for v, has in rm.has[j][p].items():
                for c in range(4):
                    e = rm.empty[s].get(cell_index(v, c), False)
                    add_clause(
                        model,
                        [
                            neg(rm.seat(s, p)),
                            neg(has),
                            neg(rm.keeps[j][p][c]),
                            neg(e),
                            neg(rm.led[j][c]),
                            can,
                        ],
                    )
        for c in range(4):
            add_clause(
                model, [neg(can), neg(rm.led[j][c]), neg(rm.played[s]), rm.color_played[s][c]]
            )


def add_trick_winner(rm: RoundModel) -> None:
    """The highest red wins a trick with red in it, else the highest card of the led color:
    ``wins[s]`` marks the winning step, ``won[j][p]`` the seat that won trick j."""
    model, n = rm.model, rm.players
    pre = list(rm.start.trick) if rm.start is not None else []
    nv = rm.rules.values
    for j in range(rm.tricks):
        steps = list(rm.steps_of_trick(j))
        in_trick: dict[int, Lit] = {}
        for v in card_values(rm.rules):
            for c in range(4):
                cell = cell_index(v, c)
                lits = [rm.x[s][cell] for s in steps if cell in rm.x[s]]
                const = j == 0 and any(pl.cell == cell for pl in pre)
                if const:
                    in_trick[cell] = True
                elif not lits:
                    in_trick[cell] = False
                else:
                    b = model.new_bool_var(f"intrick{j}_{cell}")
                    model.add(sum(lits) == b)
                    in_trick[cell] = b
        reds = [in_trick[cell_index(v, RED)] for v in card_values(rm.rules)]
        any_red = or_lit(model, reds, f"anyred{j}")
        win: dict[int, Lit] = {}
        for c in range(4):
            higher: Lit = False
            for v in range(nv, 0, -1):
                cell = cell_index(v, c)
                conds = [in_trick[cell], neg(higher)]
                if c != RED:
                    conds += [rm.led[j][c], neg(any_red)]
                win[cell] = and_lit(model, conds, f"win{j}_{cell}")
                higher = or_lit(model, [higher, in_trick[cell]], f"higher{j}_{cell}")
        complete = rm.played[steps[-1]]
        rm.complete.append(complete)
        wins_here: list[tuple[Lit, int | None, int]] = []  # (literal, step or None, place)
        for i, pl in enumerate(pre if j == 0 else []):
            wins_here.append((and_lit(model, [win[pl.cell], complete], f"winpre{i}"), None, i))
        for s in steps:
            # the step's card wins: its cell is the winning cell of a finished trick
            w = model.new_bool_var(f"wins{s}")
            for cell, xc in rm.x[s].items():
                add_clause(model, [neg(xc), neg(win[cell]), neg(complete), w])
                add_clause(model, [neg(w), neg(xc), win[cell]])
            model.add_implication(w, complete)
            model.add_implication(w, rm.played[s])
            rm.wins.append(w)
            wins_here.append((w, s, rm.place_of(s)))
        model.add(sum(w for w, _s, _i in wins_here) == complete)
        row = [model.new_bool_var(f"won{j}_{p}") for p in range(n)]
        model.add(sum(row) == complete)
        for w, _s, i in wins_here:
            for p in range(n):
                seat = rm.leader[j][(p - i) % n]
                add_clause(model, [neg(w), neg(seat), row[p]])
        for p in range(n):
            model.add_implication(row[p], rm.leader[j + 1][p])
        # an unfinished trick: the next (never played) trick keeps the leader, for one
        # model per line
        for p in range(n):
            add_clause(model, [complete, neg(rm.leader[j][p]), rm.leader[j + 1][p]])
        rm.won.append(row)


def add_paradox(rm: RoundModel) -> None:
    """Paradox: at a reached step that is not played, the player to move has no legal play,
    so every (value in hand, kept color, empty cell) is forbidden there (with the 'never'
    red lead reading, red cells only while red is broken). Together with ``paradox[s] =
    alive[s] and not played[s]`` this makes the paradox exact: no paradox on purpose."""
    model, n = rm.model, rm.players
    for s in range(rm.steps):
        j = rm.trick_of(s)
        lead_never = rm.place_of(s) == 0 and rm.rules.red_lead == "never"
        for p in range(n):
            seat = rm.seat(s, p)
            if seat is False:
                continue
            for v, has in rm.has[j][p].items():
                for c in range(4):
                    e = rm.empty[s].get(cell_index(v, c), False)
                    lits = [neg(rm.paradox[s]), neg(seat), neg(has), neg(rm.keeps[j][p][c]), neg(e)]
                    if lead_never and c == RED:
                        lits.append(neg(red_broken_lit(rm, s)))
                    add_clause(model, lits)


def add_tricks_won(rm: RoundModel, won0: list[int]) -> None:
    """Tricks won by each seat at the end: those before the model plus the modelled ones."""
    for p in range(rm.players):
        rm.tricks_won.append(won0[p] + sum(rm.won[j][p] for j in range(rm.tricks)))


def add_trick_points(rm: RoundModel) -> None:
    """Who caused the paradox (``paradox_by[s][p]``, ``caused_paradox[p]``) and trick
    points: +tricks won, or -tricks won for the seat that caused the paradox."""
    model, n = rm.model, rm.players
    for s in range(rm.steps):
        rm.paradox_by.append(
            [and_lit(model, [rm.paradox[s], rm.seat(s, p)], f"pby{s}_{p}") for p in range(n)]
        )
    for p in range(n):
        lits = [rm.paradox_by[s][p] for s in range(rm.steps)]
        b = model.new_bool_var(f"caused{p}")
        model.add(sum(lits) == b)
        rm.caused_paradox.append(b)
        top = rm.rules.tricks
        pts = model.new_int_var(-top, top, f"points{p}")
        model.add(pts == rm.tricks_won[p]).only_enforce_if(b.negated())
        model.add(pts == -rm.tricks_won[p]).only_enforce_if(b)
        rm.trick_points.append(pts)


# ---- questions as literals ---------------------------------------------------------------


def no_paradox_lit(rm: RoundModel) -> Lit:
    """Every remaining step is played."""
    return True if rm.steps == 0 else rm.played[rm.steps - 1]


def paradox_lit(rm: RoundModel, seat: int | None = None, trick: int | None = None) -> Lit:
    """A paradox happens (caused by ``seat``, in round trick number ``trick``)."""
    lits = []
    for s in range(rm.steps):
        if trick is not None and rm.first_trick + rm.trick_of(s) != trick:
            continue
        lits.append(rm.paradox[s] if seat is None else rm.paradox_by[s][seat])
    return or_lit(rm.model, lits, f"paradoxq{seat}_{trick}")


def occupied_at_end(rm: RoundModel, cell: int) -> list[tuple[Lit, int | None]]:
    """The ways cell can hold a token when the round ends, each as (literal, seat or None
    when the seat is known elsewhere); with the 'removed' reading the tokens of a trick
    interrupted by a paradox do not count."""
    removed = rm.rules.interrupted_trick == "removed"
    out: list[tuple[Lit, int | None]] = []
    start = rm.start
    if rm.used_at_start.get(cell, False) is not False:
        in_trick0 = start is not None and any(pl.cell == cell for pl in start.trick)
        lit = rm.used_at_start[cell]
        if in_trick0 and removed and rm.tricks:
            lit = and_lit(rm.model, [lit, rm.complete[0]], f"keep0_{cell}")
        out.append((lit, None))
    if cell in rm.cells:
        for s in range(rm.steps):
            lit = rm.x[s][cell]
            if removed:
                lit = and_lit(rm.model, [lit, rm.complete[rm.trick_of(s)]], f"stays{s}_{cell}")
            out.append((lit, None))
    return out


def start_owner(pos: Position, cell: int) -> int | None:
    """Seat owning cell at the start (-1 neutral), None if empty."""
    return pos.owner_of(cell // 4 + 1, cell % 4)


def empty_at_end_lit(rm: RoundModel, cell: int) -> Lit:
    """The cell holds no token when the round ends."""
    if rm.rules.interrupted_trick == "stay":
        if cell in rm.cells:
            return rm.empty[rm.steps][cell]
        return neg(rm.used_at_start.get(cell, False))
    ways = [lit for lit, _ in occupied_at_end(rm, cell)]
    return neg(or_lit(rm.model, ways, f"occupied{cell}"))


def add_owner_at_end(rm: RoundModel, cell: int, owner: int | None, enforce: Lit) -> None:
    """If ``enforce``: the cell's token at the end belongs to ``owner`` (a seat, -1 neutral,
    None for an empty cell)."""
    model = rm.model
    if owner is None:
        add_clause(model, [empty_at_end_lit(rm, cell)], enforce)
        return
    start = rm.start
    at_start = rm.used_at_start.get(cell, False)
    if at_start is True:
        assert start is not None
        if start_owner(start, cell) != owner:
            add_clause(model, [], enforce)
            return
        # token already there: it must stay (the 'removed' reading may take it off)
        add_clause(model, [occupied_at_end(rm, cell)[0][0]], enforce)
        return
    if owner == -1:
        add_clause(model, [at_start], enforce)
        return
    add_clause(model, [neg(at_start)], enforce)
    if cell not in rm.cells:
        add_clause(model, [], enforce)
        return
    add_clause(model, [neg(empty_at_end_lit(rm, cell))], enforce)
    for s in range(rm.steps):
        add_clause(model, [neg(rm.x[s][cell]), rm.seat(s, owner)], enforce)
