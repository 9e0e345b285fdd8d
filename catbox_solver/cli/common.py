"""Shared pieces of the CLI: the root group, one-line errors with exit code 2, position
arguments, JSON output and progress bars."""

from __future__ import annotations

import json
import math
import os
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from catbox_solver.errors import CatboxError
from catbox_solver.model.numbers import DIGITS, is_stored_whole, shown
from catbox_solver.model.numbers import counted as counted  # (for the commands)
from catbox_solver.model.numbers import too_many_digits as too_many_digits

T = TypeVar("T")

EXIT_INVALID = 1  # a checked answer is "no" (invalid record, wrong stored answer)
EXIT_BAD_INPUT = 2  # bad input: one-line message, no traceback
EXIT_UNCHECKED = 3  # nothing wrong found, but some of it was not checked in time
EXIT_STOPPED = 130  # Ctrl-C (128 + SIGINT), as a shell reports it
EXIT_PIPE = 141  # the output's reader went away (128 + SIGPIPE), as a shell reports it
EXIT_TERMINATED = 143  # SIGTERM (128 + 15), as a shell reports it


class CatboxGroup(click.Group):
    """A click group that turns the library's errors, and click's own usage errors, into a
    one-line message and exit 2."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:  # an unknown command, a bad option of catbox itself
            _usage_error(exc)
        except KeyboardInterrupt:  # Ctrl-C before any command runs (click: "Aborted!", 1)
            stopped()

    def invoke(self, ctx: click.Context) -> Any:
        _stderr_or_null()
        if sys.stdout is None:
            # started with standard output closed: click drops what it is asked to print,
            # so every command would end with code 0 and its answer lost
            fail("standard output is closed: nowhere to print the answer")
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:  # a bad option or argument of a command
            _usage_error(exc)
        except CatboxError as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(EXIT_BAD_INPUT)
        except BrokenPipeError:
            # the reader went away (`catbox show @many.jsonl | head -1`): stop without a
            # word, as other tools do, with the status a shell gives them (128 + SIGPIPE);
            # stdout goes to /dev/null so that Python's last flush does not fail again
            # (this said "error: Broken pipe", exit 2)
            try:
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            except (OSError, ValueError):  # (a stdout with no file, as in tests)
                pass
            ctx.exit(EXIT_PIPE)
        except OSError as exc:
            click.echo(f"error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), err=True)
            ctx.exit(EXIT_BAD_INPUT)
        except KeyboardInterrupt:
            # Ctrl-C: one line and exit code 130 (click would say "Aborted!", exit 1);
            # commands that keep what was proven print it first and end the same way
            stopped()


def _stderr_or_null() -> None:
    """Started with standard error closed (``2>&-``), a message to it raised OSError from
    the error handler itself and the exit code became 1 instead of the 2 (or 3, 130) the
    command meant: such messages now go to the null device."""
    try:
        fd = sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):
        return  # None (click then drops the messages) or no file at all (a test's buffer)
    try:
        # (a write of nothing: with descriptor 2 closed at start, the first file Python
        # opens takes it, so it exists, but is not open for writing)
        os.write(fd, b"")
    except OSError:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115


def _usage_error(exc: click.UsageError) -> NoReturn:
    """Click's usage error as one line (click prints the usage, a hint and the error on
    three), naming the command's --help; "catbox" with no command still shows the help."""
    if type(exc).__name__ == "NoArgsIsHelpError":  # (click 8.2+: the help, exit 2)
        raise exc
    message = " ".join(exc.format_message().split())
    where = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
    click.echo(f"error: {message}{where}", err=True)
    raise click.exceptions.Exit(EXIT_BAD_INPUT)


def stopped(what: str = "", *, by: str = "Ctrl-C", code: int = EXIT_STOPPED) -> NoReturn:
    """End the command after Ctrl-C (or the signal ``by``, with exit code ``code``): one
    line on stderr (``what``: what is shown), exit code 130 for Ctrl-C."""
    click.echo(f"stopped by {by}{': ' + what if what else ''}", err=True)
    raise click.exceptions.Exit(code)


@click.group(cls=CatboxGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="catbox-solver")
def main() -> None:
    """catbox: exact rules, analysis and puzzles for the card game Cat in the Box.

    \b
    Example:
      catbox deal --players 4 --seed 7
      catbox legal "$(catbox deal --players 4 --seed 7 --notation)"
    """


if TYPE_CHECKING:  # click's ParamType is generic from 8.2 (pyproject allows 8.1)
    _FloatParam = click.ParamType[float]
    _IntParam = click.ParamType[int]
    _AnyParam = click.ParamType[Any]
else:
    _FloatParam = _IntParam = _AnyParam = click.ParamType


class Seconds(_FloatParam):
    """A time in seconds: a finite number, at least ``at_least`` (click's FloatRange lets
    "nan" through, and a NaN or negative timeout was taken silently)."""

    name = "seconds"

    def __init__(self, at_least: float = 0.0) -> None:
        self.at_least = at_least

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{shown(value)} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or seconds < self.at_least:
            want = f"{self.at_least:g} or more"  # (shown: 3000 digits were echoed whole)
            self.fail(f"{shown(value)} is not a number of seconds, {want}", param, ctx)
        return seconds



class _AliasedOption(click.Option):
    """An option whose help shows its first name only: the others are old spellings kept
    so that scripts written with them still work."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        opts = self.opts
        self.opts = opts[:1]
        try:
            return super().get_help_record(ctx)
        finally:
            self.opts = opts

    def get_error_hint(self, ctx: click.Context | None) -> str:
        return f"'{self.opts[0]}'"


def timeout_option(default: float, help: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--timeout SECONDS``, the one name of every command's time limit (``exists`` and
    ``prove`` said ``--time-limit``, still taken and not shown in the help)."""
    return click.option(
        "--timeout", "--time-limit", "timeout", cls=_AliasedOption,
        type=Seconds(at_least=0.01), default=default, show_default=True, help=help,
    )


def _whole(value: Any, kind: _AnyParam, param: click.Parameter | None,
           ctx: click.Context | None) -> Any:
    """An option's text as an int written in ASCII digits (a minus sign allowed); other
    values (a default) as they are. click's int() also read other scripts' digits ('٣'),
    '1_0' and '+1', which no catbox file means."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if not DIGITS.fullmatch(text):
        kind.fail(f"{shown(value)} is not a whole number in ASCII digits", param, ctx)
    if len(text.lstrip("-")) > 40:
        # (int() of thousands of digits is slow, and no option needs it; digits counted
        # without the sign, in too_many_digits' words: 40 digits and a sign read "far too
        # many", 40 without "more than 18"; review)
        kind.fail(f"{shown(value)} {too_many_digits(text, signed=True)}", param, ctx)
    return int(text)


class WholeNumber(_IntParam):
    """An int option (a seed, a seat) read by :func:`_whole`, of at most 18 digits as
    catbox's files hold them: ``catbox play --seed`` with 19 digits wrote a record that
    ``catbox verify`` could not read."""

    name = "integer"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        number = int(_whole(value, self, param, ctx))
        if not is_stored_whole(number):  # (_whole: at most 40 digits; the wording is the
            # record reader's and the SEAT=COUNT options': "has 19 digits, more than 18")
            self.fail(f"{number} {too_many_digits(str(number), signed=True)}", param, ctx)
        return number


class WholeRange(click.IntRange):
    """click's IntRange (a count, a player count) read by :func:`_whole`."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return super().convert(_whole(value, self, param, ctx), param, ctx)


def fail(message: str) -> NoReturn:
    """Raise a one-line bad-input error from inside a command (exit code 2)."""
    raise click.exceptions.Exit(_echo_err(message))


def _echo_err(message: str) -> int:
    click.echo(f"error: {message}", err=True)
    return EXIT_BAD_INPUT


class GivenPath(click.Path):
    """click.Path that refuses an empty path: turned into a Path it reads '.', so
    ``--out ''`` wrote into the current directory and ``puzzle solve ''`` read it, and an
    empty ``--record`` was dropped without a word. And one with a NUL character, which no
    file system takes."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value:
            self.fail("an empty path names no file or directory", param, ctx)
        if isinstance(value, str) and "\x00" in value:
            # (the operating system refuses it: a ValueError traceback before)
            self.fail(f"{value!r} holds a NUL character: no file can be named so", param, ctx)
        return super().convert(value, param, ctx)


def line_error(exc: CatboxError, as_json: bool) -> None:
    """Report the error of one line of a batch where its answer would have stood: with
    --json as ``{"error": ...}`` on stdout (one output line per input line), else on
    stderr; the batch goes on."""
    if as_json:
        echo_json({"error": str(exc)})
    else:
        click.echo(f"error: {exc}", err=True)


def numbered(text: str, line: int | None) -> str:
    """A batch's text answer with each of its lines starting "line N: " (``line``: its
    input line), so that answers can be matched to their input lines when one fails (its
    error goes to stderr, where it leaves no gap); ``line`` None: the text as it is."""
    if line is None:
        return text
    return "\n".join(f"line {line}:" + (f" {x}" if x else "") for x in text.split("\n"))


class Undecided:
    """Answers the time limit left partly unknown (or cut short): the command then exits
    with code 3 (EXIT_UNCHECKED); a batch counts them on stderr, before the lines that
    failed (``run_positions`` says it there)."""

    def __init__(self) -> None:
        self.count = 0

    def add(self, open_: bool) -> None:
        self.count += open_

    def report(self, total: int) -> None:
        """The batch's count on stderr, if any."""
        if self.count:
            click.echo(f"{self.count} of {counted(total, 'line')} undecided within the "
                       "time limit",
                       err=True)

    def end(self) -> None:
        """Exit code 3 if any answer was left partly unknown (after the other exits)."""
        if self.count:
            raise click.exceptions.Exit(EXIT_UNCHECKED)


class CtrlC:
    """Ctrl-C during a command's answers: the answer it cut short is printed (``shown``
    says what that answer holds), a batch stops before its next line and says its
    summaries, then one line on stderr and exit code 130 (128 + SIGINT)."""

    def __init__(self) -> None:
        self.shown: str | None = None  # None: no Ctrl-C yet

    @property
    def hit(self) -> bool:
        return self.shown is not None

    def came(self, shown: str = "") -> None:
        """Ctrl-C came; ``shown`` says what the answer printed holds."""
        self.shown = shown

    def check(self) -> None:
        """End the command if Ctrl-C came."""
        if self.shown is not None:
            stopped(self.shown)


def end_batch(total: int, unread: int, unanswered: int = 0, stop: CtrlC | None = None) -> None:
    """The end of a batch of ``total`` lines: with lines that could not be read or whose
    question could not be answered (each reported where it stood), one summary line and
    exit code 2. ``stop`` ends the command after it if Ctrl-C came (exit code 130: the
    batch was not finished, which a 2 for its failed lines hid)."""
    parts = []
    if unread:
        parts.append(f"{unread} of {counted(total, 'line')} could not be read")
    if unanswered:
        # ("1 of 1 lines" read oddly; with a count of unread lines before it: "1 line")
        of = counted(unanswered, "line") if unread else f"{unanswered} of {counted(total, 'line')}"
        parts.append(f"{of} could not be answered")
    if parts:
        click.echo(f"error: {', '.join(parts)}", err=True)
    if stop is not None:
        stop.check()
    if parts:
        raise click.exceptions.Exit(EXIT_BAD_INPUT)


def echo_json(obj: Any) -> None:
    click.echo(json.dumps(obj))


# (one option for every command that deals: puzzle generate had its own, with no -r)
ruleset_option = click.option(
    "--ruleset",
    "-r",
    default="official",
    show_default=True,
    help="Ruleset preset, optionally with ,switch=value overrides.",
)


def show_progress(quiet: bool) -> bool:
    """Progress bars only on a terminal, and never with --quiet."""
    return not quiet and sys.stderr.isatty()


def ready_search(quiet: bool) -> None:
    """Make the compiled search kernel ready before a command's searches and progress
    lines start. At its first use after an install numba compiles it (then it is cached on
    disk); unless --quiet, a wait of more than a second is named on stderr, on a terminal
    or not, so that a script's user does not take it for a hang."""
    from catbox_solver.dd.warmup import warm_up  # (numba only for the commands that search)

    ready = threading.Event()

    def note() -> None:
        if not ready.is_set():
            click.echo(
                "compiling the search kernel (first use after an install, once; "
                "`catbox warm-up` does it ahead)",
                err=True,
            )

    timer = threading.Timer(1.0, note)
    timer.daemon = True
    if not quiet:
        timer.start()
    try:
        warm_up()
    finally:
        ready.set()
        timer.cancel()


def progress(items: Iterable[T], length: int | None, label: str, quiet: bool) -> Iterator[T]:
    """Iterate ``items`` with a progress bar on stderr when :func:`show_progress`."""
    if not show_progress(quiet):
        yield from items
        return
    with click.progressbar(items, length=length, label=label, file=sys.stderr) as bar:
        yield from bar


quiet_option: Callable[[Callable[..., Any]], Callable[..., Any]] = click.option(
    "--quiet", "-q", is_flag=True, help="No progress bar."
)
json_option: Callable[[Callable[..., Any]], Callable[..., Any]] = click.option(
    "--json", "as_json", is_flag=True, help="Machine-readable JSON output."
)


@contextmanager
def progress_line(
    quiet: bool, text: Callable[[int, int, str], str]
) -> Iterator[Callable[[int, int, str], None] | None]:
    """A one-line progress indication on stderr (a terminal only, not with --quiet):
    the report ``(done, total, what)`` it yields rewrites the line with ``text(done,
    total, what)``, clearing what a shorter text leaves; the line is ended when all is
    done, or on leaving (also when the time ran out before the last step). Yields None
    when no line is shown."""
    if not show_progress(quiet):
        yield None
        return
    width = 0  # of the open line; 0: no open line

    def report(done: int, total: int, what: str) -> None:
        nonlocal width
        line = text(done, total, what)
        end = "\n" if done >= total else ""
        click.echo(f"\r{line.ljust(width)}{end}", err=True, nl=False)
        width = 0 if end else len(line)

    try:
        yield report
    finally:
        if width:
            click.echo(err=True)
