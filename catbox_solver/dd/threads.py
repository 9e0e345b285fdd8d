"""Running searches at once and stopping them: the worker pool (the kernel lets go of
the GIL), progress steps, a stop signal for other threads, and Ctrl-C."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor

from catbox_solver.dd.answer import OutOfTime, Progress
from catbox_solver.dd.search import _LONG_FROM, Search
from catbox_solver.errors import SearchError
from catbox_solver.interrupt import wait_awake
from catbox_solver.model.position import Position


def _long(pos: Position) -> bool:
    """Can a compiled search of ``pos`` take long (seconds or more)? Then one job runs in
    a worker thread, without the GIL (see run_in_threads); a small one stays here (a thread
    for each tiny solve cost more than the solve)."""
    return pos.tricks_left >= _LONG_FROM


class _Steps:
    """The searches of one solve or DD table, as steps: each announced on the progress
    line when it starts (with the range proven as it narrows) and counted when it ends.
    ``run`` takes them one after the other or several at once, in worker threads, which
    call the compiled core without the GIL: each with its own Search runs on a core of
    its own."""

    def __init__(
        self, total: int, progress: Progress | None, jobs: int, off_main: bool = False
    ) -> None:
        if progress is not None and not callable(progress):
            raise SearchError(f"progress must be a function (done, total, what), not {progress!r}")
        self.total = total
        self.progress = progress
        self.jobs = jobs
        self.off_main = off_main  # one job: run it in a worker thread (see run_in_threads)
        self.done = 0
        self.stopped = False  # (solve) out of time or stopped: start no more steps
        self._lock = threading.Lock()

    def _report(self, what: str) -> None:
        if self.progress is not None:
            with self._lock:
                self.progress(self.done, self.total, what)

    def start(self, search: Search, what: str) -> None:
        """Announce a step on ``search``; its ranges go to the progress line as they narrow."""
        if self.progress is not None:
            self._report(what)
            search.on_partial = lambda rng: self._report(f"{what}, proven {rng[0]} to {rng[1]}")

    def end(self) -> None:
        with self._lock:
            self.done += 1

    def run(self, steps: Sequence[Callable[[], None]]) -> None:
        """Run the steps, ``jobs`` at a time (see run_in_threads). An OutOfTime of a step is
        raised again once the steps under way have ended (the steps still waiting see
        ``stopped``)."""
        errors = run_in_threads(steps, self.jobs, self.off_main)
        for e in errors:  # anything but a timeout first: it is a bug, not the clock
            if not isinstance(e, OutOfTime):
                raise e
        if errors:
            raise OutOfTime


class StopSignal:
    """Stops solves from another thread or a signal handler (a Ctrl-C caught by the
    caller while they run in worker threads, a button in an application): each search of
    a :func:`solve` or :func:`~catbox_solver.dd.hidden.single_dummy` given it, or of a
    block under :meth:`watching`, ends within 4096 nodes as on a timeout, and so does
    every one given it after :meth:`stop`. Why not a shorter timeout: the moment to stop is
    not known in advance. No lock, so :meth:`stop` is safe in a signal handler: a search
    is added before ``stopped`` is read, and ``stopped`` set before the searches are."""

    def __init__(self) -> None:
        self.stopped = False
        self._searches: set[Search] = set()

    def stop(self) -> None:
        """Stop every search under way and every later one."""
        self.stopped = True
        for search in list(self._searches):
            search.stop()

    @contextlib.contextmanager
    def watching(self, searches: Sequence[Search]) -> Iterator[None]:
        """Searches that :meth:`stop` ends while the block runs (stopped at once if it
        already has), forgotten after it: each holds a table."""
        self._searches.update(searches)
        if self.stopped:
            for search in searches:
                search.stop()
        try:
            yield
        finally:
            self._searches.difference_update(searches)


def check_stop(stop: object) -> None:
    """A SearchError unless ``stop`` is None or a :class:`StopSignal`."""
    if stop is not None and not isinstance(stop, StopSignal):
        raise SearchError(f"stop must be a StopSignal, not {stop!r}")


def watched_by(stop: StopSignal | None, searches: Sequence[Search]
               ) -> contextlib.AbstractContextManager[None]:
    """``stop.watching(searches)``, or nothing to watch without a StopSignal."""
    return contextlib.nullcontext() if stop is None else stop.watching(searches)


_POOL: ThreadPoolExecutor | None = None  # the worker threads, made once and kept
_POOL_LOCK = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    """The worker threads of every solve and DD table (made at the first use and kept:
    starting threads for each small solve cost more than the solve)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(
                max_workers=max(32, os.cpu_count() or 1), thread_name_prefix="catbox-search"
            )
        return _POOL


def run_in_threads(
    calls: Sequence[Callable[[], None]], jobs: int, off_main: bool = False
) -> list[BaseException]:
    """Run the calls in order, ``jobs`` at a time, and return what they raised. One job:
    one call after the other up to the first that raises, here or (``off_main``) in a
    worker thread while this one waits; more: in worker threads, while this thread
    waits, every call (those after a timeout see it and return). Why off_main: in a
    worker the compiled core runs without the GIL, so an application's other Python
    threads keep running during a long search (in this thread they got a slice every
    4096 nodes, about a seventh of their speed)."""
    errors: list[BaseException] = []
    if jobs == 1 or len(calls) <= 1:

        def one_by_one() -> None:
            for call in calls:
                try:
                    call()
                except Exception as e:  # noqa: BLE001 - handed to the caller
                    errors.append(e)
                    break

        if off_main and threading.current_thread() is threading.main_thread():
            wait_awake([_pool().submit(one_by_one)])
        else:
            one_by_one()
        return errors
    todo = iter(calls)
    lock = threading.Lock()

    def runner() -> None:
        while True:
            with lock:
                call = next(todo, None)
            if call is None:
                return
            try:
                call()
            except Exception as e:  # noqa: BLE001 - handed to the caller
                errors.append(e)

    pool = _pool()
    wait_awake([pool.submit(runner) for _ in range(min(jobs, len(calls)))])
    return errors
