"""An analysis in words (``catbox annotate``'s text) and as an annotated game record: the
record with a comment after each trick that holds a losing or unknown play (comments are
kept by the record reader and writer and ignored by the referee, so the annotated game is
still a valid record)."""

from __future__ import annotations

from dataclasses import replace

from catbox_solver.annotate.analysis import LOSING, MARKS, Analysis, PlayNote
from catbox_solver.formats.record import GameRecord
from catbox_solver.model.position import Position
from catbox_solver.render.text import line_text as line_text  # (re-exported)

QUESTION_WORDS = {
    "paradox": "can the mover be sure never to cause a paradox?",
    "tricks": "the trick points the mover can be sure of",
    "score": "the round score the mover can be sure of",
}


def value_text(question: str, value: bool | int | None,
               bounds: tuple[int, int] | None = None) -> str:
    """A value in words: safe / not safe (paradox), a number, or unknown with its range."""
    if value is None:
        if bounds is not None and question != "paradox":
            return f"unknown ({bounds[0]} to {bounds[1]})"
        return "unknown"
    if question == "paradox":
        return "safe" if value else "not safe"
    return str(int(value))


def verdict_text(question: str, n: PlayNote) -> str:
    """A play's mark and what it was worth, with the best value and plays when it could
    be better: "blunder: played not safe, best safe (3y 3g)"."""
    if n.mark in ("only", "best"):
        return f"{n.mark}: {value_text(question, n.value_played, n.bounds_played)}"
    played = value_text(question, n.value_played, n.bounds_played)
    best = value_text(question, n.value_best, n.bounds_best)
    plays = " ".join(p.text for p in n.best) or "?"
    text = f"{n.mark}: played {played}, best {best} ({plays})"
    if n.loss is not None and n.loss[0] != n.loss[1]:
        text += f", loss {n.loss[0]} to {n.loss[1]}"
    return text


def note_text(question: str, n: PlayNote) -> str:
    """One play's verdict on a line, with where it was made."""
    return (f"round {n.round} trick {n.trick} seat {n.seat} {n.play.text:3} "
            f"{verdict_text(question, n)}")


def _hidden_text(question: str, n: PlayNote) -> str | None:
    h = n.hidden
    if h is None:
        return None
    if h.share_played is None or h.share_best is None:
        return "  seen from its own hand: no deal decided"

    def share(x: object) -> str:
        value = float(x)  # type: ignore[arg-type]
        return f"{100 * value:.1f} % safe" if question == "paradox" else f"{value:.2f}"

    how = "every deal" if h.exact else "sampled deals"
    best = " ".join(p.text for p in h.best)
    excuse = " (the best bet: no mistake of the player)" if (
        n.mark in LOSING and h.mark == "best") else ""
    return (f"  seen from its own hand ({h.deals} {how}): {h.mark}{excuse}: played "
            f"{share(h.share_played)}, best bet {best} {share(h.share_best)}")


def analysis_text(a: Analysis, every_play: bool = True) -> str:
    """The analysis in words: each play judged (``every_play`` False: only those that
    lose or stay unknown), the line refuting each losing play, and a table per seat."""
    rules = a.record.rules
    lines = [f"{rules.players} players, ruleset {rules.name}; question {a.question}: "
             f"{QUESTION_WORDS[a.question]}"]
    starts: dict[int, Position] = {}
    for n in a.notes:
        starts.setdefault(n.round, n.position)
        if not every_play and n.mark not in (*LOSING, "unknown") and (
                n.hidden is None or n.hidden.mark == "best"):
            continue
        lines.append(note_text(a.question, n))
        if n.mark in LOSING and n.line:
            lines.append(f"  after it: {line_text(n.position, n.line)}")
        if n.mark in LOSING and n.better and n.best:
            lines.append(f"  better: {line_text(n.position, n.better)}")
        hidden = _hidden_text(a.question, n)
        if hidden is not None:
            lines.append(hidden)
    lines.append("")
    lines.append(summary_text(a))
    unknown = a.unknown
    lines.append(f"{len(a.notes)} of {a.total} plays analysed"
                 + (f", {unknown} left unknown by the time limit" if unknown else "")
                 + f"; {a.seconds:.1f} s")
    return "\n".join(lines)


def summary_text(a: Analysis) -> str:
    """A table: per seat the count of each mark, and the paradoxes walked into that could
    have been avoided (paradox) or the points given away (tricks, score)."""
    extra = {"paradox": "avoidable paradoxes", "tricks": "tricks given away",
             "score": "points given away"}[a.question]
    heads = ["seat", *MARKS, extra]
    if a.hidden:
        heads.append("excused")
    widths = [max(len(h), 4) for h in heads]
    rows = ["  ".join(h.rjust(w) for h, w in zip(heads, widths, strict=True))]
    for s in a.summary():
        last = s.avoidable_paradoxes if a.question == "paradox" else s.given_away
        cells = [str(s.seat) if s.name is None else s.name, *(str(s.marks[m]) for m in MARKS),
                 str(last)]
        if a.hidden:
            cells.append(str(s.excused))
        rows.append("  ".join(c.rjust(w) for c, w in zip(cells, widths, strict=True)))
    return "\n".join(rows)


def annotated_record(a: Analysis) -> GameRecord:
    """The analysed record with a comment after each trick line holding a play that loses
    or stays unknown (its mark, its value, the best plays), and one after the first line
    saying which question judged them."""
    rounds = []
    for r in a.record.rounds:
        comments = {k: tuple(v) for k, v in r.comments.items()}
        for n in a.notes:
            if n.round != r.number or n.mark not in (*LOSING, "unknown"):
                continue
            key = f"trick {n.trick}"
            text = f" {n.seat}:{n.play.text} {verdict_text(a.question, n)}"
            if n.mark in LOSING and n.line:
                text += f"; after it: {line_text(n.position, n.line)}"
            comments[key] = (*comments.get(key, ()), text)
        rounds.append(replace(r, comments=comments))
    game = {k: tuple(v) for k, v in a.record.comments.items()}
    done = "" if a.complete else f" (stopped after {len(a.notes)} of {a.total} plays)"
    game["catbox-record"] = (*game.get("catbox-record", ()),
                             f" annotated: catbox annotate --question {a.question}{done}")
    return replace(a.record, rounds=tuple(rounds), comments=game)
