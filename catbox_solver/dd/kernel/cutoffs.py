"""Counting facts that decide a node without searching it: capacities, the safe-seat
test, bounds at a trick start, ducks and red holds. Each docstring gives its soundness
argument (also in docs/search.md)."""

from __future__ import annotations

from catbox_solver.dd.kernel.layout import (
    S_COLORS,
    S_HANDS,
    S_HERO,
    S_HITS,
    S_LEADER,
    S_LOSSLED,
    S_MUST,
    S_N,
    S_NV,
    S_REDLEAD,
    S_REDROW,
    S_TL,
    S_TLEN,
    S_TRICK,
    S_USED,
    Arr,
    _jit,
    _jit_inline,
    _md,
    _pop,
    _push,
    _winner,
    seat_count,
)


# ---- counting facts --------------------------------------------------------------------
@_jit
def capacity(s: Arr, seat: int) -> int:
    """The most plays ``seat`` can still make: sum over values of min(copies it holds, empty
    cells of that value in its colors). Cells only fill and colors are only lost, so this
    never grows."""
    return _capacity_in(s, seat, s[S_COLORS + seat])


@_jit
def _capacity_in(s: Arr, seat: int, cols: int) -> int:
    """Sum over values of min(copies ``seat`` holds, empty cells of that value in the
    colors ``cols``)."""
    return _cap(s[S_HANDS + seat], s[S_USED], cols)


# Nibble arithmetic. Hands, cells and the research board keep one nibble per
# value (bit 4(v-1) + color), so the counting tests work on every value at once with a
# few operations on one integer instead of a loop over the values (and seats) with
# branches: _nib_count counts the bits of each nibble, _nib_sum adds the nibbles, and a
# comparison per nibble uses a guard bit: ((a | _N8) - b) has bit 3 of a nibble set
# exactly when a >= b there, as long as a <= 7 and b <= 8 in every nibble, which holds
# for what is compared: copies (a value has 5 copies in all) and cells (4 per value).
_N1 = 0x111111111111111  # the low bit of each of 15 nibbles (one per value)


_N8 = 0x888888888888888  # the high bit of each


@_jit_inline
def _nz(x: int) -> int:
    """1 in each nibble of ``x`` that is not zero."""
    return (x | x >> 1 | x >> 2 | x >> 3) & _N1


@_jit_inline
def _nib_count(x: int) -> int:
    """The number of set bits of each nibble of ``x``, in that nibble."""
    x = x - (x >> 1 & 0x5555555555555555)
    return (x & 0x3333333333333333) + (x >> 2 & 0x3333333333333333)


@_jit_inline
def _nib_sum(x: int) -> int:
    """The sum of the nibbles of ``x`` (at most 255)."""
    y = (x & 0x0F0F0F0F0F0F0F0F) + (x >> 4 & 0x0F0F0F0F0F0F0F0F)
    y += y >> 8
    y += y >> 16
    return (y + (y >> 32)) & 255


@_jit_inline
def _nib_ge(a: int, b: int) -> int:
    """1 in each nibble where ``a >= b`` (the guard bit: a <= 7, b <= 8 there)."""
    return ((a | _N8) - b) >> 3 & _N1


@_jit_inline
def _nib_min(a: int, b: int) -> int:
    """The smaller of ``a`` and ``b`` in each nibble (a <= 7, b <= 8)."""
    m = _nib_ge(a, b) * 15
    return b & m | a & ~m


@_jit_inline
def _nib_monus(a: int, b: int) -> int:
    """max(0, a - b) in each nibble (a <= 7, b <= 8)."""
    d = (a | _N8) - b
    return d & 7 * _N1 & (d >> 3 & _N1) * 15


@_jit_inline
def _losers(free: int, c: int, best: int, red: bool) -> int:
    """Of the free cells ``free`` (a nibble per value), those that do not win a trick led
    in color ``c`` whose winning card is ``best`` (red if ``red``): once red wins, every
    plain cell and a lower red; else the plain cells of other colors and a lower card of
    the led color (every value at once)."""
    led = (1 << c) * _N1
    lower = (1 << (4 * best - 4)) - 1 if best > 0 else 0  # the values below best
    if red:
        return free & (14 * _N1 | (_N1 & lower))
    return free & ((14 * _N1 & ~led) | (led & lower))


@_jit_inline
def _free_cells(h: int, used: int, cols: int) -> int:
    """The free cells of the values in the packed hand ``h``, in the colors ``cols``."""
    return ~used & (cols & 15) * _N1 & _nz(h) * 15


@_jit_inline
def _cap(h: int, used: int, cols: int) -> int:
    """Sum over values of min(copies in the packed hand ``h``, empty cells of that value
    in the colors ``cols``), all values at once, nibble by nibble (SWAR: no loop, no
    branch; copies are at most 5, free cells at most 4, so no nibble overflows)."""
    return _nib_sum(_nib_min(h, _nib_count(~used & (cols & 15) * _N1)))


@_jit
def safe(s: Arr, seat: int, plays_needed: int) -> bool:
    """Counting fact: ``seat`` can make each of its next ``plays_needed`` plays, whatever the
    others do.

    Its *capacity* cells: empty, of a value it holds, in a color it still has; capacity =
    sum over values of min(copies, capacity cells). Strategy: follow the led color with a
    capacity cell if there is one, else make any legal play. Then the led color is lost only
    when it holds no capacity cell, so each own play lowers the capacity by exactly one, and
    each play of another seat (one cell) by at most one. The others can ever fill at most
    min(cells of value v some other holder of v has the color of, copies of v those holders
    hold) of value v's capacity cells, and the first ``max(0, cells - copies)`` of these
    fills cost nothing: the *damage* D is the sum over values of what is left. Before the
    seat's k-th turn from now another seat i plays at most once per trick (in this trick if
    it has not played yet, and in each later trick up to that turn; the leader of a later
    trick is unknown), and at most once per copy it holds of the values it can hurt. So with
    capacity - (k - 1) - min(D, sum of those plays) >= 1 for k = ``plays_needed`` (the
    hardest turn) the seat always has a legal play. (Cells nobody else can fill make D = 0
    for their value: this contains the reserved-cell matching.) Needs the official color
    loss (the led color is lost). Red cells count unless red can never be led (quick-
    reference reading) while red is unbroken. The others fill only cells of the colors in
    ``fillable`` (all four here; see _safe_in)."""
    return _safe_in(s, seat, plays_needed, 15)


@_jit
def _safe_in(s: Arr, seat: int, plays_needed: int, fillable: int) -> bool:
    """safe, with the others filling only cells of the colors in ``fillable``."""
    if not s[S_LOSSLED]:
        return False
    n = s[S_N]
    used = s[S_USED]
    cols = s[S_COLORS + seat]
    if s[S_REDLEAD] == 1 and not used & s[S_REDROW]:
        cols &= 14
    hs = s[S_HANDS + seat]
    cap = _cap(hs, used, cols)
    if cap < plays_needed:
        return False  # quick refusal: the capacity alone falls short
    # every value at once, nibble by nibble (as in _loser_margin): the free cells of the
    # values the seat holds, in its colors
    free = _free_cells(hs, used, cols)
    threat = 0  # the free cells other seats could fill
    k = 0  # per value, the copies of those seats (at most 5: a value has 5 copies in all)
    for i in range(n):
        s[S_HITS + i] = 0
        if i == seat:
            continue
        hi = s[S_HANDS + i]
        y = free & (s[S_COLORS + i] & fillable & 15) * _N1 & _nz(hi) * 15
        if y:
            threat |= y
            on = _nz(y) * 15
            s[S_HITS + i] = _nib_sum(hi & on)
            k += hi & on
    # the damage of a value: min(threatened cells, copies), less the cells beyond the
    # seat's copies (those cost nothing), if positive
    spare = _nib_monus(_nib_count(free), hs & _nz(free) * 15)  # cells beyond the copies
    dmg = _nib_sum(_nib_monus(_nib_min(_nib_count(threat), k), spare))
    if cap - dmg >= plays_needed:
        return True
    leader = s[S_LEADER]
    done = s[S_TLEN]
    p0 = leader + done
    played = _md(seat - leader, n) < done
    gap = _md(seat - p0, n)
    later = plays_needed if played else plays_needed - 1
    others = 0
    for i in range(n):
        hh = s[S_HITS + i]
        if hh:
            if later:
                turns = later + (1 if _md(i - leader, n) >= done else 0)
            else:
                turns = 1 if _md(i - p0, n) < gap else 0
            others += hh if hh < turns else turns
    return cap - (dmg if dmg < others else others) >= plays_needed


@_jit
def bounds(s: Arr) -> tuple[int, int]:
    """Bounds on the outcome u at the start of a trick from counting facts alone.

    The hero's *capacity* -- the most plays it can still make, sum over values of min(copies
    it holds, empty cells of that value in its colors) -- can only shrink. It wins a trick
    only with a play, so u >= -1 - capacity. If some color keeps it safe (``safe``) for
    the ``tl`` plays it must make, u >= 0; so too if another seat's capacity c is below
    ``tl`` and the hero is safe for c + 1 turns. Another seat with capacity c is stuck at
    its (c + 1)-th turn at the latest, which ends the round within c + 1 tricks: the hero
    wins at most c tricks before any paradox of its own, so u >= -1 - c too. If its capacity
    is below ``tl`` it is stuck at its (capacity + 1)-th turn at the latest; when every
    other seat is safe for that many turns, the coalition can make sure that nobody else is
    stuck first, so u <= -1."""
    tl = s[S_TL]
    hero = s[S_HERO]
    n = s[S_N]
    cap = capacity(s, hero)
    if cap >= tl and safe(s, hero, tl):
        return 0, tl
    least = tl  # the smallest capacity of another seat
    for seat in range(n):
        if seat != hero:
            c = capacity(s, seat)
            if c < tl and safe(s, hero, c + 1):
                return 0, tl
            if c < least:
                least = c
    if cap >= tl:
        return -1 - least if least < tl else -tl, tl
    lo = -1 - (cap if cap < least else least)
    turns = cap + 1
    for seat in range(n):
        if seat != hero and not safe(s, seat, turns):
            return lo, tl
    return lo, -1


@_jit
def _stolen(by: int, hit: int) -> int:
    """Cells the seats in the mask ``by`` can take, one each, of ``hit`` they could."""
    seats = seat_count(by)
    return hit if hit < seats else seats


@_jit
def _takers(s: Arr, sh: int, c: int, first: int, m: int) -> int:
    """The seats, of the ``m`` from ``first`` on, that could fill the cell of color ``c``
    of the value at bit ``sh`` (they hold the value and have the color), as a mask."""
    n = s[S_N]
    by = 0
    for t in range(m):
        i = _md(first + t, n)
        if s[S_HANDS + i] >> sh & 15 and s[S_COLORS + i] >> c & 1:
            by |= 1 << i
    return by


@_jit
def _duck(s: Arr, c: int, best: int, red: bool, first: int, m: int) -> bool:
    """Does the hero, following a trick led in color ``c`` whose winning card so far is
    ``best`` (red if ``red``), keep a play that does not win it after the plays of the
    ``m`` seats from ``first`` on? Each of them fills at most one cell, and only a cell of
    a value it holds in a color it has. Losing plays: a lower card of the winning color,
    a plain card of another color, any plain card once red wins; with the official "no
    need to follow" all of them are legal, with "must follow" a follow if it has one,
    else any play. (Every value at once, nibble by nibble, as in _loser_margin.)"""
    hero = s[S_HERO]
    free = _free_cells(s[S_HANDS + hero], s[S_USED], s[S_COLORS + hero])
    lose = _losers(free, c, best, red)
    if s[S_MUST]:
        # the losing plays of the led color (one bit per value) come first
        if _kept_in(s, lose >> c & _N1, c, first, m):
            return True
        # no play of the led color even now: any play may be made
        if free >> c & _N1:
            return False
    # (must follow with no follow: no cell of the led color is counted)
    return _surely_free(s, lose, first, m)


@_jit
def _lead_loses(s: Arr) -> bool:
    """Has the hero, on lead, a lead that surely loses the trick? It does if a seat after
    it can only beat it or has no play at all (a paradox ends the round: the cornered hero
    is glad of it): with the official "no need to follow", when each play it has is a
    higher card of the led color or (plain lead) a red; with "must follow", when its
    plays of the led color are all higher and more than the seats between could fill.
    Cells only fill, so what holds now holds at its turn. Red leads count only once red
    is broken (the lead rules allow more: fewer is sound)."""
    n = s[S_N]
    hero = s[S_HERO]
    used = s[S_USED]
    cols = s[S_COLORS + hero]
    if not used & s[S_REDROW]:
        cols &= 14
    h = s[S_HANDS + hero]
    nv = s[S_NV]
    must = s[S_MUST]
    for v in range(1, nv + 1):
        sh = 4 * v - 4
        if not h >> sh & 15:
            continue
        free = ~(used >> sh) & cols & 15
        for c in range(4):
            if not free >> c & 1:
                continue
            after = used | 1 << (sh + c)
            for t in range(1, n):
                i = _md(hero + t, n)
                hi = s[S_HANDS + i]
                ci = s[S_COLORS + i]
                if not must:
                    beats = True
                    for w in range(1, nv + 1):
                        shw = 4 * w - 4
                        if hi >> shw & 15:
                            cells = ~(after >> shw) & ci & 15
                            if c != 0:
                                cells &= 14  # a red beats a plain lead
                            if w > v:
                                cells &= ~(1 << c)  # so does a higher card of its color
                            if cells:
                                beats = False
                                break
                    if beats:
                        return True
                    continue
                if not ci >> c & 1:
                    continue
                opts = 0
                above = True
                hit = 0
                by = 0
                for w in range(1, nv + 1):
                    shw = 4 * w - 4
                    if hi >> shw & 15 and not after >> (shw + c) & 1:
                        opts += 1
                        if w < v:
                            above = False
                            break
                        x = _takers(s, shw, c, _md(hero + 1, n), t - 1)
                        if x:
                            hit += 1
                            by |= x
                if not above or opts == 0:
                    continue
                if opts - _stolen(by, hit) >= 1:
                    return True
    return False


@_jit
def capacity_holds(s: Arr, row: Arr, k: int, r: int) -> bool:
    """(r < 0, a trick under way, ``plays`` those of the player to move) Do the capacities
    alone show u >= r? Another seat with capacity c is stuck at its (c + 1)-th turn at the
    latest, which ends the round: the hero wins at most c more tricks before that (c + 1 if
    the seat has played in this trick). Each trick the hero still wins takes one of its
    plays, and it makes at most its capacity more plays (each lowers it by one at least): so
    a paradox of the hero comes after at most capacity wins, plus this trick if its card is
    winning it (a card not winning at its turn never wins the trick). The cornered hero
    wants few wins: following in another color loses it the led color and can spend more
    capacity than the card; at its turn it takes the play that leaves the least."""
    n = s[S_N]
    hero = s[S_HERO]
    leader = s[S_LEADER]
    tlen = s[S_TLEN]
    for i in range(n):
        if i != hero and -1 - capacity(s, i) - (1 if _md(i - leader, n) < tlen else 0) >= r:
            return True
    if _md(hero - leader, n) < tlen:
        win = 1 if _md(leader + _winner(s, tlen), n) == hero else 0
        return -1 - capacity(s, hero) - win >= r
    if _md(leader + tlen, n) != hero:
        return -1 - capacity(s, hero) >= r
    for j in range(k):
        pl = row[j]
        w = _push(s, row, pl)
        if w >= 0:
            win = 1 if w == hero else 0
        else:
            win = 1 if _md(leader + _winner(s, tlen + 1), n) == hero else 0
        lo = -1 - capacity(s, hero) - win
        _pop(s, row, pl, w)
        if lo >= r:
            return True
    return False


@_jit
def red_holds(s: Arr) -> bool:
    """(r = 1 - tl: the coalition needs the hero to win every trick but the last and to be
    stuck in it) Is the hero safe (``safe``) to the end of the round with its red cells
    out of the others' reach, unless it loses a trick? When it plays red it plays its lowest
    *live* red (a value it holds whose red cell is empty). Another seat fills the red cell
    of a value the hero holds only with a red of that value: before the hero's card in this
    trick (each seat before it, once), or after it, where that red beats a plain card or a
    lower red and the hero loses the trick; a red below the hero's lowest live red takes
    none of them. So the safe-seat test holds with only blue, yellow and green cells filled
    by the others, and with one more turn to survive for each seat that plays before its
    next turn in this trick (after its card, if it has played: its red may not be its
    lowest). Official color loss, free following."""
    hero = s[S_HERO]
    if s[S_MUST] or not s[S_COLORS + hero] & 1:
        return False
    n = s[S_N]
    leader = s[S_LEADER]
    tlen = s[S_TLEN]
    tl = s[S_TL]
    if _md(hero - leader, n) < tlen:
        return _safe_in(s, hero, tl - 1 + n - tlen, 14)
    return _safe_in(s, hero, tl + _md(hero - leader - tlen, n), 14)


@_jit
def hero_ducks(s: Arr) -> bool:
    """Can the hero, not yet played in this trick, make sure not to win it, whatever the
    others play before its turn? (The cornered hero: see game.) A coalition leader leads
    its lowest card of the color to make the hero win; each seat between fills at most one
    cell, of a value it holds in a color it has; a card that does not win at its turn
    never wins the trick."""
    n = s[S_N]
    hero = s[S_HERO]
    leader = s[S_LEADER]
    tlen = s[S_TLEN]
    p = _md(leader + tlen, n)
    m = _md(hero - p, n)  # plays of others before the hero's turn
    if tlen:
        c = s[S_TRICK] & 3
        w = s[S_TRICK + _winner(s, tlen)]
        return _duck(s, c, w >> 2, (w & 3) == 0, p, m)
    if leader == hero:
        return _lead_loses(s)
    for c in range(4):
        low = _lowest(s, leader, c)  # the lowest lead of color c
        if low and not _duck(s, c, low, c == 0, _md(leader + 1, n), m - 1):
            return False
    return True


@_jit
def _loser_margin(
    s: Arr, cols: int, mult: int, c: int, best: int, nl: int, rows: int
) -> tuple[int, int, int]:
    """For a trick led in color ``c`` with ``best`` as its lowest possible winning card,
    the hero with colors ``cols``: how many of its losing plays are left after the fills of
    the other seats (``mult``: two bits per seat, how many cells it may fill; only a cell
    of a value it holds in a color it has), minus one (>= 0: it keeps one); the most of
    them one play of its own now can take (a single copy of a value takes all its cells,
    one of two copies one cell); and the cells of its plays now that would take more than
    that margin. Seat ``nl`` fills only in the colors ``rows``. Official reading only (no
    need to follow: every losing play is legal).

    Every value at once, nibble by nibble (see _cap: this test is asked
    about five times per node, and the loop over values and seats was a fifth of the
    search's time)."""
    n = s[S_N]
    h = s[S_HANDS + s[S_HERO]]
    lose = _losers(_free_cells(h, s[S_USED], cols), c, best, False)
    pc = _nib_count(lose)
    total = _nib_sum(pc)
    one = (h & _N1 & ~((h >> 1 | h >> 2 | h >> 3) & _N1)) * 15  # values held once
    single = lose & one
    multi = lose & ~one
    pcs = pc & one
    if pcs >> 2 & _N1:
        worst = 4
    elif (pcs & pcs >> 1) & _N1:
        worst = 3
    elif pcs >> 1 & _N1:
        worst = 2
    else:
        worst = 1 if lose else 0
    cells = 0
    most = 0  # per value, the fills of its holders (each at most its copies: at most 5)
    fills = 0
    for i in range(n):
        f = mult >> (2 * i) & 3
        if not f:
            continue
        hi = s[S_HANDS + i]
        cl = s[S_COLORS + i]
        if i == nl:
            cl &= rows
        y = lose & (cl & 15) * _N1 & _nz(hi) * 15
        if y:
            cells |= y
            most += _nib_min(hi, f * _N1) & _nz(y) * 15
            fills += f
    hit = _nib_sum(_nib_min(most, _nib_count(cells)))
    margin = total - (hit if hit < fills else fills) - 1
    # a single copy takes all its losing cells, one of two copies its own cell
    bad = multi if margin < 1 else 0
    if margin < 0:
        bad |= _nz(single) * 15
    elif margin < 4:
        bad |= _nib_ge(pcs, (margin + 1) * _N1) * 15
    return margin, worst, bad


@_jit
def _lowest(s: Arr, seat: int, c: int) -> int:
    """The lowest value ``seat`` can play in color ``c`` (0: none)."""
    if not s[S_COLORS + seat] >> c & 1:
        return 0
    x = _nz(s[S_HANDS + seat]) & ~(s[S_USED] >> c) & _N1
    if not x:
        return 0
    v = 1
    while not x & 1:
        x >>= 4
        v += 1
    return v


@_jit
def _losing_cells(s: Arr, c: int, best: int, red: bool, follows: bool) -> int:
    """The hero's plays (as cells) that do not win a trick led in color ``c`` whose winning
    card is ``best`` (red if ``red``): a plain card once red wins, a lower red; else a
    plain card of another color, a lower card of the led color (``follows``: only the
    plays of the led color)."""
    hero = s[S_HERO]
    free = _free_cells(s[S_HANDS + hero], s[S_USED], s[S_COLORS + hero])
    if follows:
        free &= (1 << c) * _N1
    return _losers(free, c, best, red)


@_jit
def _surely_free(s: Arr, cells: int, first: int, m: int) -> bool:
    """Is one of the hero's ``cells`` still free at its turn, whatever the ``m`` seats from
    ``first`` on play before it (one cell each, of a value it holds in a color it has)?"""
    n = s[S_N]
    taken = 0
    seats = 0  # per value, how many seats could fill one of its cells
    by = 0
    for t in range(m):
        i = _md(first + t, n)
        y = cells & (s[S_COLORS + i] & 15) * _N1 & _nz(s[S_HANDS + i]) * 15
        if y:
            taken |= y
            seats += _nz(y)
            by |= 1 << i
    hit = _nib_sum(_nib_min(seats, _nib_count(taken)))
    return _nib_sum(_nib_count(cells)) - _stolen(by, hit) >= 1


@_jit
def _low_follow(s: Arr, c: int, best: int, red: bool, first: int, m: int) -> bool:
    """Does the hero surely keep a follow of the led color ``c`` that does not win (the
    winning card so far ``best``, red if ``red``), whatever the ``m`` seats from ``first``
    fill before its turn? (Following keeps the color.)"""
    hero = s[S_HERO]
    if not s[S_COLORS + hero] >> c & 1:
        return False
    low = _nz(s[S_HANDS + hero]) & ~(s[S_USED] >> c) & _N1
    if not (red and c != 0):
        low &= (1 << (4 * best - 4)) - 1 if best > 0 else 0
    return _kept_in(s, low, c, first, m)


@_jit
def _kept_in(s: Arr, vals: int, c: int, first: int, m: int) -> bool:
    """Is the cell of color ``c`` of one of the values ``vals`` (one bit per value) still
    free at the hero's turn, whatever the ``m`` seats from ``first`` on play before it?
    A seat fills at most one such cell, of a value it holds, if it has the color."""
    n = s[S_N]
    hit = 0
    by = 0
    for t in range(m):
        i = _md(first + t, n)
        if s[S_COLORS + i] >> c & 1:
            x = vals & _nz(s[S_HANDS + i])
            if x:
                hit |= x
                by |= 1 << i
    return _nib_sum(vals) - _stolen(by, _nib_sum(hit)) >= 1


@_jit
def hero_ducks_twice(s: Arr, choose: bool) -> bool:
    """Does the hero surely lose this trick and the next? (The cornered hero, official
    reading: see game.) This trick as in hero_ducks (or the hero has played and does not
    lead it). Next trick: any seat that can still win this one leads, its lowest card of
    a color it has (a higher lead only widens the hero's losing plays); before the
    hero's turn each seat still to play in this trick fills one cell, and each seat
    between the next leader and the hero one more. The hero's own play now, when it does
    not lead, may cost it the led color (not if it surely keeps a losing follow); the card
    it plays takes its worst card, or (``choose``, when it does not lead) it plays one of
    the losing cards that hurt no next lead, if one of them surely stays free until its
    turn."""
    n = s[S_N]
    hero = s[S_HERO]
    leader = s[S_LEADER]
    tlen = s[S_TLEN]
    win = _winner(s, tlen) if tlen else 0  # index of the winning play so far
    played = _md(hero - leader, n) < tlen
    if played:
        if _md(leader + win, n) == hero:
            return False
    elif not hero_ducks(s):
        return False
    base = 0  # seats still to play in this trick, one cell each
    cand = 0  # seats that may lead the next trick
    for t in range(tlen, n):
        i = _md(leader + t, n)
        if i != hero:
            base += 1 << (2 * i)
            cand |= 1 << i
    if tlen:
        cand |= 1 << (_md(leader + win, n))
    cols = s[S_COLORS + hero]
    # the colors the hero may lose by its play now, one case each (bit 4, outside the four
    # colors: it loses none), with the losing cards it may play (the cells; the seats
    # before its turn: first, m); mine 0: the hero leads or has played
    lost = 0
    mine = 0
    lose0 = 0
    first = 0
    m = 0
    led = s[S_TRICK] & 3 if tlen else -1  # the led color (-1: the hero leads it, any)
    if played or leader == hero:
        lost = 16
    elif tlen:
        mine = 1
        c0 = s[S_TRICK] & 3
        wcard = s[S_TRICK + win]
        first = _md(leader + tlen, n)
        m = _md(hero - first, n)
        red = (wcard & 3) == 0
        if _low_follow(s, c0, wcard >> 2, red, first, m):
            lost = 16
            lose0 = _losing_cells(s, c0, wcard >> 2, red, True)
        else:
            lost = 1 << c0
            lose0 = _losing_cells(s, c0, wcard >> 2, red, False)
    else:
        # the color the leader leads (with its lowest card of it: a higher one only
        # widens the hero's losing plays, and its cell is none of them)
        mine = 2
        first = _md(leader + 1, n)
        m = _md(hero - leader, n) - 1
        for c in range(4):
            if _lowest(s, leader, c):
                lost |= 1 << c
    for x in range(5):
        if not lost >> x & 1:
            continue
        hc = cols & ~(1 << x)
        cands = lose0
        if mine == 2:
            led = x
            cands = _losing_cells(s, x, _lowest(s, leader, x), x == 0, False)
        bad = 0  # the cards the hero may not play now
        worst_ok = True
        for nl in range(n):
            if not cand >> nl & 1:
                continue
            mult = base
            j = _md(nl + 1, n)
            while j != hero:
                mult += 1 << (2 * j)
                j = _md(j + 1, n)
            for c in range(4):
                low = _lowest(s, nl, c)
                if not low:
                    continue
                # the next leader wins this trick: if it is still to play, its card is
                # of the led color or red
                rows = 15
                if base >> (2 * nl) & 3 and led >= 0:
                    rows = 1 << led | 1
                margin, worst, bad_lead = _loser_margin(s, hc, mult, c, low, nl, rows)
                if margin < 0:
                    return False
                if not played and margin < worst:
                    worst_ok = False
                    bad |= bad_lead
        if worst_ok:
            continue
        if not choose or not mine or not _surely_free(s, cands & ~bad, first, m):
            return False
    return True
