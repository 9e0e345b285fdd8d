"""Write docs/interpretations.md: for each rule switch, the texts' wording, the official
reading, and the distinguishing position found by ``catbox rules diff`` (see
catbox_solver/readings.py). Run: python scripts/make_interpretations.py

Each case block is machine-read by tests/test_readings.py, which checks that the documented
position still distinguishes the two readings.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from catbox_solver.formats.notation import position_to_notation
from catbox_solver.model.position import Play
from catbox_solver.model.rules import PRESETS, SWITCH_TEXTS, SWITCHES, TEXT_SOURCES, Ruleset
from catbox_solver.readings import Difference, diff_rulesets
from catbox_solver.render.svg import position_svg
from catbox_solver.render.text import render_text

# (preset, tries): each try is (players, question, deals, max_tricks_left)
CASES: list[tuple[str, list[tuple[int, str, int, int]]]] = [
    ("quickref-red-lead", [(3, "legal", 60, 2), (2, "legal", 30, 2), (3, "legal", 60, 4)]),
    ("per-card-red-lead", [(3, "legal", 60, 3), (2, "legal", 60, 3), (4, "legal", 60, 4)]),
    ("czech-color-loss", [(3, "legal", 30, 2), (2, "legal", 30, 2)]),
    ("must-follow", [(4, "legal", 30, 2)]),
    ("interrupted-removed", [(3, "score", 40, 2), (2, "score", 40, 2), (4, "score", 20, 2)]),
    ("diagonal-bonus", [(3, "score", 20, 2), (2, "score", 20, 2)]),
    ("two-player-prediction", [(2, "score", 20, 2)]),
]

INTRO = """# Rule readings side by side

The rulebooks can be read in several ways; each way is a switch of the `Ruleset`
(`catbox rules list`). For each switch this page gives what the texts say, the reading the
library takes by default (the official one) and why, and the smallest distinguishing
position that `catbox rules diff` found (fewest cards left in hands, then fewest tricks left,
over the positions it searched), with its picture (`catbox render`) and its terminal
rendering (`catbox show`). "No difference" covers only the deals and tricks left it was
asked to search; with `--timeout`, a search the clock stops before every deal was tried
answers "unknown" (`"differ": null`, exit code 3), not "no difference"; two names for one
ruleset, or two apart only in a switch that does nothing at that player count (the
2-player bonus with 3-5 players), are answered at once (`"same": true`), and so are two
readings apart only in
switches that change only the scoring at the end of the round (interrupted trick, bonus
adjacency, 2-player bonus, row order) on any question but `score`
(`"score_only": [switches]`): no position can differ there.

This page is written by `python scripts/make_interpretations.py`; `tests/test_readings.py`
checks that every position below still distinguishes its two readings.

The texts: the English, German and Czech rulebooks, the quick reference on the back pages
of each ("EN rulebook quick reference" and so on), and the separate German quick reference
(KSR, `seeds/quickref-de.txt`). Quotes are word for word (`tests/test_rulebook.py` finds
each in its text); a reading no text gives (a review, a house rule) is described in
words, not quoted.

Where RULES.md and a rulebook differ, the rulebook wins. One such place: RULES.md says both
quick references (EN, DE) omit the red-lead exception. The EN rulebook's quick reference
and the German rulebook's own quick reference do omit it, but the separate German quick
reference (KSR) keeps it: "darf der Startspieler nicht rot anspielen, außer er hätte keine
andere Möglichkeit". The Czech rulebook's quick reference keeps it too.
"""

WHY = {
    "red_lead": "The English and German rulebooks state the exception for the whole hand "
    "('with any cards from your hand', 'für keine deiner verbliebenen Handkarten'), which "
    "rules the per-card reading out; the Czech rulebook and the German quick reference say "
    "only that the leader cannot declare another color, which allows both. The EN and DE "
    "rulebooks' quick references are summaries that leave the exception out.",
    "color_loss": "The EN, DE and CS rulebooks all name the led color, with a worked example "
    "(figure 3-5: Anne declares red on a blue lead and loses blue). Only the Czech quick "
    "reference says 'this color'.",
    "following": "Every rulebook says followers may declare any color; no text asks them to "
    "follow.",
    "interrupted_trick": "The rulebooks say explicitly that the tokens of the interrupted trick "
    "stay on the research board; only the cards are put aside.",
    "adjacency": "The rulebooks say 'vertically or horizontally' and exclude diagonals in so "
    "many words.",
    "two_player_bonus": "The 2-player rules replace the prediction with 'four or fewer "
    "tricks'.",
}


def main() -> int:
    out = [INTRO]
    for preset, tries in CASES:
        (switch, value), = PRESETS[preset].items()
        official = SWITCHES[switch][0]
        out.append(f"## `{switch}`: {official} (official) or {value} (preset `{preset}`)\n")
        for val, quotes in SWITCH_TEXTS[switch].items():
            for source, wording in quotes:
                said = f"“{wording}”" if source in TEXT_SOURCES else wording
                out.append(f"- **{val}** — {source}: {said}")
        out.append(f"\n**Official reading: {official}.** {WHY[switch]}\n")
        found = None
        for players, question, deals, max_left in tries:
            a, b = Ruleset(players=players), Ruleset.from_name(preset, players)
            t0 = time.perf_counter()
            result = diff_rulesets(a, b, question, deals=deals, max_tricks_left=max_left)
            secs = time.perf_counter() - t0
            print(f"{preset}: {players}p {question}: {type(result).__name__} in {secs:.1f}s",
                  file=sys.stderr)
            if isinstance(result, Difference):
                found = (players, question, deals, max_left, result)
                break
        if found is None:
            out.append("No distinguishing position was found within the searched bounds.\n")
            continue
        players, question, deals, max_left, diff = found
        cards, left = diff.size
        cmd = (f"catbox rules diff official {preset} --players {players} --question {question}"
               f" --deals {deals} --max-tricks-left {max_left}")
        out.append(f"Found by `{cmd}`: {cards} cards in hands, {left} trick(s) left.\n")
        img = f"img/interpretation-{preset}.svg"
        root = Path(__file__).resolve().parents[1] / "docs"
        (root / img).write_text(
            position_svg(diff.position, hero=diff.hero), encoding="utf-8"
        )
        out.append(f"![{preset}: the distinguishing position]({img})\n")
        out.append("```\n" + render_text(diff.position).rstrip() + "\n```\n")

        def show(ans: object) -> str:
            if isinstance(ans, tuple):
                return " ".join(p.text for p in ans if isinstance(p, Play)) or "none (paradox)"
            return str(ans).lower() if isinstance(ans, bool) else str(ans)

        line = " ".join(p.text for p in diff.line) or "-"
        hero = "-" if diff.hero is None else str(diff.hero)
        out.append("<!-- case")
        out.append(f"a: official\nb: {preset}\nquestion: {question}\nhero: {hero}")
        out.append(f"position: {position_to_notation(diff.position)}")
        if diff.position_b is not None:
            out.append(f"position_b: {position_to_notation(diff.position_b)}")
        out.append(f"line: {line}")
        out.append(f"answer_a: {show(diff.answer_a)}\nanswer_b: {show(diff.answer_b)}")
        out.append("-->")
        what = ("the legal plays" if question == "legal"
                else f"the double-dummy `{question}` value of seat {diff.hero}")
        after = f" after the line `{line}` (legal under both)" if diff.line else ""
        out.append(f"Position: `{position_to_notation(diff.position)}`\n")
        if diff.position_b is not None:
            out.append(f"The same position under `{preset}` (with predictions): "
                       f"`{position_to_notation(diff.position_b)}`\n")
        out.append(f"Here{after}, {what}:\n")
        out.append(f"- official: **{show(diff.answer_a)}**")
        out.append(f"- {preset}: **{show(diff.answer_b)}**\n")
    Path(__file__).resolve().parents[1].joinpath("docs", "interpretations.md").write_text(
        "\n".join(out) + "\n", encoding="utf-8"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
