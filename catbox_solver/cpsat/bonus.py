"""The prediction bonus as CP-SAT constraints, added to a :class:`RoundModel` only when a
bonus or score question asks: who owns each cell at the end, whether a seat's prediction
is met, and the largest connected group of its tokens as two existential encodings (a
connected chosen set for "largest group >= g", a component labelling for "largest group
<= m"; see docs/constraints.md)."""

from __future__ import annotations

from typing import Any

from ortools.sat.python import cp_model

from catbox_solver.cpsat.model import (
    Lit,
    RoundModel,
    add_clause,
    and_lit,
    card_values,
    cell_index,
    empty_at_end_lit,
    neg,
    occupied_at_end,
    start_owner,
)
from catbox_solver.errors import SearchError
from catbox_solver.model.rules import COLOR_CHARS, Ruleset


def board_neighbours(rules: Ruleset) -> list[tuple[int, int]]:
    """Every pair of adjacent cells (c < d) of the research board: rows top to bottom in
    ``rules.row_order``, columns by value; orthogonal neighbours, plus the diagonal ones
    with ``adjacency='diagonal'`` (as :func:`catbox_solver.model.position.largest_group`)."""
    row_of = {COLOR_CHARS.index(ch): r for r, ch in enumerate(rules.row_order)}
    color_of = {r: c for c, r in row_of.items()}
    steps = [(1, 0), (0, 1)]
    if rules.adjacency == "diagonal":
        steps += [(1, 1), (1, -1)]
    out: list[tuple[int, int]] = []
    for v in card_values(rules):
        for c in range(4):
            r = row_of[c]
            for dr, dv in steps:
                r2, v2 = r + dr, v + dv
                if 0 <= r2 < 4 and 1 <= v2 <= rules.values:
                    a, b = cell_index(v, c), cell_index(v2, color_of[r2])
                    out.append((min(a, b), max(a, b)))
    return out


def owned_at_end(rm: RoundModel, seat: int) -> dict[int, Lit]:
    """Cell -> literal "seat's token is on the cell when the round ends" (as scored: with
    the 'removed' reading the tokens of a trick interrupted by a paradox do not count),
    for every cell where the seat can have a token; other cells are absent (False)."""
    got = rm.owned_end.get(seat)
    if got is not None:
        return got
    model = rm.model
    out: dict[int, Lit] = {}
    for v in card_values(rm.rules):
        for c in range(4):
            cell = cell_index(v, c)
            at_start = rm.used_at_start.get(cell, False)
            if at_start is True:
                # a token placed before the model: it is the seat's if placed by the seat,
                # and stays unless the 'removed' reading takes its interrupted trick off
                if rm.start is not None and start_owner(rm.start, cell) == seat:
                    out[cell] = occupied_at_end(rm, cell)[0][0]
                continue
            if cell not in rm.cells:
                continue
            own = model.new_bool_var(f"own{seat}_{cell}")
            # own <=> the cell holds a token at the end and the step that placed it was
            # the seat's (a cell is placed at most once, neutral tokens are nobody's)
            occupied = neg(empty_at_end_lit(rm, cell))
            add_clause(model, [neg(own), occupied])
            add_clause(model, [neg(own), neg(at_start)])
            for s in range(rm.steps):
                x, me = rm.x[s][cell], rm.seat(s, seat)
                add_clause(model, [neg(own), neg(x), me])
                add_clause(model, [own, neg(occupied), neg(x), neg(me)])
            out[cell] = own
    rm.owned_end[seat] = out
    return out


def prediction_met_lit(rm: RoundModel, seat: int) -> Lit:
    """The seat's tricks won meet its prediction (official 2 players: at most 4 tricks).
    The prediction must be known (3-5 players, or the 2-player 'prediction' variant)."""
    rules = rm.rules
    t = rm.tricks_won[seat]
    if rules.players == 2 and rules.two_player_bonus == "at-most-4":
        lo, hi = 0, 4
    else:
        preds = None if rm.start is None else rm.start.predictions
        pred = None if preds is None else preds[seat]
        if pred is None:
            raise SearchError(
                f"the prediction of seat {seat} is unknown: a bonus or score question "
                "needs it (give the position's predictions)"
            )
        lo = hi = pred
    if isinstance(t, int):
        return lo <= t <= hi
    met = rm.model.new_bool_var(f"met{seat}")
    rm.model.add_linear_constraint(t, lo, hi).only_enforce_if(met)
    outside = [(-(rules.tricks + 1), lo - 1), (hi + 1, rules.tricks + 1)]
    dom = cp_model.Domain.from_intervals([[a, b] for a, b in outside if a <= b])
    rm.model.add_linear_expression_in_domain(t, dom).only_enforce_if(met.negated())
    return met


def bonus_active_lit(rm: RoundModel, seat: int) -> Lit:
    """The seat scores its bonus: it met its prediction and did not cause the paradox."""
    got = rm.bonus_active.get(seat)
    if got is None:
        met = prediction_met_lit(rm, seat)
        got = and_lit(rm.model, [met, neg(rm.caused_paradox[seat])], f"bonuson{seat}")
        rm.bonus_active[seat] = got
    return got


def group_size_var(rm: RoundModel, seat: int) -> Any:
    """An integer ``g`` that can take exactly the values 0..largest group of the seat at the
    end: ``g`` is the size of a chosen set of the seat's cells made connected by a
    single-commodity flow. One chosen cell is the root and sends ``g - 1`` units; every
    other chosen cell keeps one unit; flow runs only between adjacent chosen cells. A set
    whose cells all receive flow from the root is connected, and a connected set can route
    the flow along a spanning tree, so "largest group >= k" is exactly "g >= k" for some
    solution."""
    got = rm.group_size.get(seat)
    if got is not None:
        return got
    model = rm.model
    own = owned_at_end(rm, seat)
    cells = sorted(own)
    size = len(cells)
    g = model.new_int_var(0, size, f"group{seat}")
    rm.group_size[seat] = g
    if not cells:
        return g
    chosen = {c: model.new_bool_var(f"chosen{seat}_{c}") for c in cells}
    root = {c: model.new_bool_var(f"root{seat}_{c}") for c in cells}
    supply = {c: model.new_int_var(0, size, f"supply{seat}_{c}") for c in cells}
    for c in cells:
        add_clause(model, [neg(chosen[c]), own[c]])
        model.add_implication(root[c], chosen[c])
        model.add(supply[c] == 0).only_enforce_if(root[c].negated())
    model.add(sum(root.values()) <= 1)
    for c in cells:  # a non-empty chosen set has its root
        model.add(sum(root.values()) >= chosen[c])
    model.add(g == sum(chosen.values()))
    model.add(sum(supply.values()) == g)
    flow_in: dict[int, list[Any]] = {c: [] for c in cells}
    flow_out: dict[int, list[Any]] = {c: [] for c in cells}
    for a, b in board_neighbours(rm.rules):
        if a not in own or b not in own:
            continue
        for u, w in ((a, b), (b, a)):
            f = model.new_int_var(0, size - 1, f"flow{seat}_{u}_{w}")
            model.add(f == 0).only_enforce_if(chosen[u].negated())
            model.add(f == 0).only_enforce_if(chosen[w].negated())
            flow_out[u].append(f)
            flow_in[w].append(f)
    for c in cells:
        # net inflow: 1 for a chosen cell, minus what the root sends
        model.add(sum(flow_in[c]) - sum(flow_out[c]) == chosen[c] - supply[c])
    return g


def group_bound_var(rm: RoundModel, seat: int) -> Any:
    """An integer ``m`` that can take exactly the values >= the seat's largest group at the
    end: each of the seat's cells gets a class label, two adjacent cells of the seat share
    their label, and every class has at most ``m`` cells. A connected group lies in one
    class, so m >= largest group; labelling each group on its own (by its first cell)
    reaches m = largest group. So "largest group <= k" is exactly "m <= k" for some
    solution. Labels are restricted to at most the cell's own index (symmetry)."""
    got = rm.group_bound.get(seat)
    if got is not None:
        return got
    model = rm.model
    own = owned_at_end(rm, seat)
    cells = sorted(own)
    size = len(cells)
    m = model.new_int_var(0, size, f"bound{seat}")
    rm.group_bound[seat] = m
    label: dict[int, list[Any]] = {}
    for i, c in enumerate(cells):
        label[c] = [model.new_bool_var(f"label{seat}_{c}_{k}") for k in range(i + 1)]
        model.add(sum(label[c]) == 1).only_enforce_if(_as_list(own[c]))
        if own[c] is not True:
            model.add(sum(label[c]) == 0).only_enforce_if(_as_list(neg(own[c])))
    for a, b in board_neighbours(rm.rules):
        if a not in own or b not in own:
            continue
        both = [neg(own[a]), neg(own[b])]
        for k in range(max(len(label[a]), len(label[b]))):
            la = label[a][k] if k < len(label[a]) else False
            lb = label[b][k] if k < len(label[b]) else False
            add_clause(model, [*both, neg(la), lb])
            add_clause(model, [*both, neg(lb), la])
    for k in range(size):
        model.add(sum(label[c][k] for c in cells[k:]) <= m)
    return m


def _as_list(lit: Lit) -> list[Lit]:
    """Enforcement literals for ``only_enforce_if`` (a constant True means none)."""
    if lit is True:
        return []
    assert lit is not False
    return [lit]
