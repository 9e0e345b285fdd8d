"""A survey's numbers: per player count, ruleset, question (and seat), the deals, how many
answered yes, the share with its 95 % Wilson interval, and the deals left unknown.

The share is taken over the deals answered: a deal the time limit left unknown counts in
``unknown``, in neither ``yes`` nor the share. For ``tricks`` the line gives the mean of the
guaranteed trick points over the deals answered (``yes`` and the share: null). Two facts
of the deals come with every survey: ``equal-discards`` (two seats discarded one value; with
3 and 4 players a paradox is then certain) and, with 2 players, ``neutral-pair`` (two of
the three revealed leftovers share a value).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from catbox_solver.survey.store import read_rows, survey_dirs

Z95: Final = 1.959963984540054
"""The standard normal quantile of 0.975."""


def wilson(yes: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of ``yes`` successes in ``n`` trials (None when n is 0):
    unlike the normal interval it stays inside [0, 1] and is not empty at 0 or n."""
    if not 0 <= yes <= n:
        raise ValueError(f"yes must be between 0 and n, not {yes} of {n}")
    if n == 0:
        return None
    p = yes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # (exact at the ends: rounding left a low of 3e-18 above a share of 0)
    low = 0.0 if yes == 0 else max(0.0, centre - half)
    high = 1.0 if yes == n else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the report."""

    players: int
    ruleset: str
    question: str
    seat: int | None
    deals: int
    yes: int | None
    unknown: int
    mean: float | None = None
    discards: str = "distinct"

    @property
    def answered(self) -> int:
        return self.deals - self.unknown

    @property
    def share(self) -> float | None:
        if self.yes is None or not self.answered:
            return None
        return self.yes / self.answered

    @property
    def interval(self) -> tuple[float, float] | None:
        return None if self.yes is None else wilson(self.yes, self.answered)

    def to_json(self) -> dict[str, Any]:
        ci = self.interval
        return {
            "players": self.players, "ruleset": self.ruleset, "question": self.question,
            "seat": self.seat, "deals": self.deals, "yes": self.yes, "share": self.share,
            "ci_low": None if ci is None else ci[0], "ci_high": None if ci is None else ci[1],
            "unknown": self.unknown, "mean": self.mean, "discards": self.discards,
        }

    @property
    def label(self) -> str:
        seat = "" if self.seat is None else f" seat {self.seat}"
        discards = "" if self.discards == "distinct" else f" ({self.discards} discards)"
        return f"{self.players}p {self.ruleset}{discards} {self.question}{seat}"


def survey_lines(out: Path) -> list[Line]:
    """The report's lines for one survey directory."""
    table = read_rows(out)
    rows = table.to_pylist()
    if not rows:
        return []
    players, ruleset, question = rows[0]["players"], rows[0]["ruleset"], rows[0]["question"]
    discards = rows[0]["discards"]
    lines: list[Line] = []
    seats = sorted({r["seat"] for r in rows}, key=lambda s: -1 if s is None else s)
    for seat in seats:
        mine = [r for r in rows if r["seat"] == seat]
        unknown = sum(r["value"] is None for r in mine)
        if question == "tricks":
            known = [int(r["value"]) for r in mine if r["value"] is not None]
            mean = sum(known) / len(known) if known else None
            lines.append(Line(players, ruleset, question, seat, len(mine), None, unknown, mean,
                              discards))
        else:
            yes = sum(r["value"] is True for r in mine)
            lines.append(Line(players, ruleset, question, seat, len(mine), yes, unknown,
                              discards=discards))
    per_deal = {r["deal"]: r for r in rows}.values()
    lines.append(Line(players, ruleset, "equal-discards", None, len(per_deal),
                      sum(bool(r["equal_discards"]) for r in per_deal), 0,
                      discards=discards))
    if players == 2:
        pairs = sum(_has_pair(r["neutral"]) for r in per_deal)
        lines.append(Line(players, ruleset, "neutral-pair", None, len(per_deal), pairs, 0,
                          discards=discards))
    return lines


def _has_pair(neutral: str | None) -> bool:
    values = (neutral or "").split()
    return len(set(values)) < len(values)


def report(paths: Sequence[Path]) -> list[Line]:
    """The lines of every survey under ``paths`` (see :func:`store.survey_dirs`), by player
    count, ruleset, question and seat."""
    lines = [line for out in survey_dirs(paths) for line in survey_lines(out)]
    return sorted(lines, key=lambda x: (x.players, x.ruleset, x.discards, x.question,
                                        -1 if x.seat is None else x.seat))


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.2f} %"


def report_text(lines: Sequence[Line]) -> str:
    """The report as a table of text."""
    if not lines:
        return "no deals stored"
    heads = ["players", "ruleset", "discards", "question", "seat", "deals", "yes", "share",
             "95 % CI", "unknown"]
    cells: list[list[str]] = []
    for x in lines:
        ci = x.interval
        if x.question == "tricks":
            yes, share = "-", "-" if x.mean is None else f"mean {x.mean:.2f}"
        else:
            yes, share = str(x.yes), _pct(x.share)
        cells.append([
            str(x.players), x.ruleset, x.discards, x.question,
            "-" if x.seat is None else str(x.seat),
            str(x.deals), yes, share,
            "-" if ci is None else f"{100 * ci[0]:.2f} - {100 * ci[1]:.2f} %",
            str(x.unknown),
        ])
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(heads)]
    out = ["  ".join(h.ljust(w) for h, w in zip(heads, widths, strict=True)).rstrip()]
    for c in cells:
        out.append("  ".join(v.ljust(w) for v, w in zip(c, widths, strict=True)).rstrip())
    return "\n".join(out)


def plot(lines: Sequence[Line], path: Path) -> int:
    """Draw every line with a share as a point with its interval (matplotlib, to
    ``path``; the format from its suffix). Returns how many were drawn."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = [x for x in lines if x.share is not None and x.interval is not None]
    fig, ax = plt.subplots(figsize=(8, 0.35 * len(shown) + 1.2))
    for i, x in enumerate(shown):
        ci = x.interval
        assert ci is not None and x.share is not None
        ax.errorbar([100 * x.share], [i], xerr=[[100 * (x.share - ci[0])],
                                                [100 * (ci[1] - x.share)]],
                    fmt="o", color="C0", capsize=3)
    ax.set_yticks(range(len(shown)), [f"{x.label} (n={x.answered})" for x in shown])
    ax.invert_yaxis()
    ax.set_xlim(-2, 102)
    ax.set_xlabel("share of deals, % (95 % Wilson interval)")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return len(shown)
