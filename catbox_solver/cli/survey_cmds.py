"""``catbox survey``: one question asked of many seeded deals, on Dask, into Parquet.

Thin: parse the arguments, call :mod:`catbox_solver.survey`, print.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

import click

from catbox_solver.cli.common import (
    EXIT_TERMINATED,
    GivenPath,
    Seconds,
    WholeNumber,
    WholeRange,
    echo_json,
    fail,
    json_option,
    main,
    quiet_option,
    ruleset_option,
    show_progress,
    stopped,
)
from catbox_solver.survey.spec import DISCARDS, SURVEY_QUESTIONS, SurveySpec


class _Terminated(Exception):
    """SIGTERM arrived during a run (a batch system ending the job, ``kill``)."""


@contextmanager
def _sigterm_stops() -> Iterator[None]:
    """SIGTERM ends a run as Ctrl-C does: the chunks under way are cancelled, the local
    cluster is closed and every finished chunk stays stored, where Python's default
    would end the process at once (leaving the cluster's processes to be reaped and the
    resource tracker's warnings on stderr). Only in the main thread, where signal
    handlers live."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        raise _Terminated

    old = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


@main.group("survey")
def survey_group() -> None:
    """Surveys: one question asked of thousands of seeded deals, in parallel.

    \b
    Example:
      catbox survey run --players 3 --deals 50 --question table --out /tmp/s3
      catbox survey report /tmp/s3
    """


class _Bar:
    """The progress line on stderr: deals done, rate, time left."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.width = 0

    def __call__(self, done: int, total: int) -> None:
        spent = time.perf_counter() - self.start
        rate = done / spent if spent > 0 else 0.0
        left = f"{(total - done) / rate:,.0f} s left" if rate > 0 else "time left unknown"
        text = f"{done:,} of {total:,} deals  {rate:,.2f} deals/s  {left}"
        click.echo("\r" + text.ljust(self.width), nl=False, err=True)
        self.width = len(text)

    def end(self) -> None:
        if self.width:
            click.echo(err=True)


@survey_group.command("run")
@click.option("--players", "-p", type=WholeRange(2, 5), required=True, help="Player count.")
@click.option("--deals", "-n", type=WholeRange(1, 10**9), required=True,
              help="Deals 0 to N-1 of the seed (deals stored already are skipped).")
@click.option("--question", "-Q", type=click.Choice(SURVEY_QUESTIONS), required=True,
              help="table: can the players together finish without a paradox? paradox: "
              "can each seat be sure never to cause one? tricks: each seat's guaranteed "
              "trick points.")
@click.option("--seed", type=WholeNumber(), default=0, show_default=True,
              help="Deal i of seed s is the same on any machine and worker count.")
@ruleset_option
@click.option("--discards", type=click.Choice(DISCARDS), default="distinct", show_default=True,
              help="distinct: each seat discards a random value no earlier seat discarded "
              "(when it can); random: a random card of its hand.")
@click.option("--timeout", type=Seconds(), default=60.0, show_default=True,
              help="Seconds of search per deal; what is left undecided is stored as its "
              "proven range, value empty.")
@click.option("--out", "-o", type=GivenPath(file_okay=False, path_type=Path), required=True,
              help="The survey's directory (Parquet files, one per chunk of deals).")
@click.option("--workers", "-w", type=WholeRange(1, 1024), default=None,
              help="Workers of the local cluster [default: one per core].")
@click.option("--threads", is_flag=True,
              help="The local workers as threads of one process (default: processes).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="An existing Dask cluster's scheduler, e.g. tcp://HOST:8786.")
@click.option("--chunk", type=WholeRange(1, 10**6), default=None,
              help="Deals per task [default: about a second's work or more].")
@json_option
@quiet_option
def run_cmd(players: int, deals: int, question: str, seed: int, ruleset: str, discards: str,
            timeout: float, out: Path, workers: int | None, threads: bool,
            scheduler: str | None, chunk: int | None, as_json: bool, quiet: bool) -> None:
    """Answer QUESTION at the first lead of deals 0 to N-1 and store the rows in --out.

    Each deal: the seed's shuffle, a seeded discard per seat, seeded predictions, seat 0
    leads (docs/research.md says how they are drawn). Run the same command again to go
    on after Ctrl-C or SIGTERM, a crash or a lost worker, or with a larger --deals to add deals;
    an --out holding another survey is refused. With --scheduler, the workers of a
    running cluster (dask scheduler and dask worker processes) do the work.

    \b
    Examples:
      catbox survey run --players 3 --deals 50 --question table --out /tmp/s3
      catbox survey run -p 2 -n 20 -Q paradox -r must-follow --out /tmp/p2 --workers 2
      catbox survey run -p 4 -n 2000 -Q paradox --out s4 --scheduler tcp://127.0.0.1:8786
    """
    from catbox_solver.survey.runner import run_survey

    if scheduler is not None and (workers is not None or threads):
        fail("--scheduler uses the cluster's workers: --workers and --threads are for the "
             "local cluster")
    spec = SurveySpec(players, ruleset, question, seed, discards, timeout)
    bar = _Bar() if show_progress(quiet) else None
    try:
        with _sigterm_stops():
            result = run_survey(spec, deals, out, workers=workers, scheduler=scheduler,
                                processes=not threads, chunk=chunk, progress=bar,
                                warn=None if quiet else _note)
    except (KeyboardInterrupt, _Terminated) as exc:
        if bar is not None:
            bar.end()
        going_on = f"the finished chunks are stored in {out}; the same command goes on"
        if isinstance(exc, _Terminated):
            stopped(going_on, by="SIGTERM", code=EXIT_TERMINATED)
        stopped(going_on)
    if bar is not None:
        bar.end()
    if as_json:
        echo_json({**spec.to_json(), **result.to_json(), "out": str(out)})
    else:
        click.echo(f"{result.stored:,} deals stored in {out} ({result.skipped:,} of "
                   f"{result.deals:,} there already), {result.seconds:.1f} s, "
                   f"{result.where}")


def _note(message: str) -> None:
    """A warning that does not stop the run, on stderr."""
    click.echo(f"note: {message}", err=True)


@survey_group.command("report")
@click.argument("dirs", nargs=-1, required=True,
                type=GivenPath(exists=True, file_okay=False, path_type=Path))
@click.option("--plot", "plot_file", type=GivenPath(dir_okay=False, path_type=Path),
              default=None, help="Draw the shares and their intervals to this file "
              "(.png, .svg, .pdf).")
@json_option
def report_cmd(dirs: tuple[Path, ...], plot_file: Path | None, as_json: bool) -> None:
    """Per player count, ruleset, question and seat: deals, yes, share, 95 % Wilson
    interval, unknown.

    Each DIR is a survey's --out, or a directory whose subdirectories are. The share is
    over the deals answered; deals the time limit left undecided count as unknown.

    \b
    Examples:
      catbox survey run --players 3 --deals 50 --question table --out /tmp/s3
      catbox survey report /tmp/s3
      catbox survey report /tmp/s3 --json --plot /tmp/s3.png
    """
    from catbox_solver.survey.report import plot, report, report_text

    lines = report(list(dirs))
    if plot_file is not None:
        plot(lines, plot_file)
    if as_json:
        echo_json([x.to_json() for x in lines])
    else:
        click.echo(report_text(lines))
    sys.stdout.flush()
