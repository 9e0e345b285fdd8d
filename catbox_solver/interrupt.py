"""Ctrl-C for long searches: stop the search under way at once and keep what was proven.

Why this is needed: compiled code (the numba core of the double-dummy search, the CP-SAT
solver) never looks at Python's signals. Python's own SIGINT handler only runs once the
call returns, which at a first lead can be many minutes; and CP-SAT catches SIGINT itself
and returns as if its time limit had passed, so a stopped proof used to read "undecided
(time limit)" and the command went on. So, while Python's own handler is in place and in
the main thread, :func:`ctrl_c_stops` puts in a handler that only asks the search to stop;
once it has unwound, the caller raises :class:`Interrupted` with what was proven by then.
An application's own SIGINT handler, or a search in another thread, is left alone.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ortools.sat.python import cp_model
    from ortools.sat.python.cp_model_helper import CpSolverStatus

# how often (seconds) the main thread wakes while work runs in worker threads (CP-SAT,
# the compiled search), so that a pending SIGINT handler runs soon even when the signal
# reached another thread
_POLL = 0.05


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a search: ``partial`` is what was proven by then (for a solve or a
    DD table, what a timeout at that moment would have left; None when nothing is kept).
    A KeyboardInterrupt, so a caller that does not look for it stops."""

    def __init__(self, partial: object = None) -> None:
        super().__init__("stopped by Ctrl-C")
        self.partial = partial


class Guard:
    """What :func:`ctrl_c_stops` did: ``active``, whether its handler was put in; ``hit``,
    whether Ctrl-C came while the block ran."""

    def __init__(self, active: bool) -> None:
        self.active = active
        self.hit = False


def can_guard() -> bool:
    """Would :func:`ctrl_c_stops` put in its handler here? (Main thread, and Python's own
    SIGINT handler in place: not inside another guard, not under an application's own.)"""
    return (
        signal.getsignal(signal.SIGINT) is signal.default_int_handler
        and threading.current_thread() is threading.main_thread()
    )


@contextmanager
def ctrl_c_stops(stop: Callable[[], None]) -> Iterator[Guard]:
    """During the block Ctrl-C calls ``stop()`` (which must only ask the search to end:
    it runs in a signal handler) instead of raising KeyboardInterrupt; the guard yielded
    says whether that happened. Inactive (a plain block) where :func:`can_guard` is
    False, so guards nest: the outermost one handles Ctrl-C."""
    if not can_guard():
        yield Guard(False)
        return
    guard = Guard(True)

    def handler(signum: int, frame: FrameType | None) -> None:
        guard.hit = True
        stop()

    signal.signal(signal.SIGINT, handler)
    try:
        yield guard
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def solve_cp(solver: cp_model.CpSolver, model: cp_model.CpModel) -> CpSolverStatus:
    """``solver.solve(model)``, stopped by Ctrl-C: raises :class:`Interrupted` (partial
    None) instead of returning a status that would read as the time limit. Under a guard
    the solve runs in a worker thread (CP-SAT lets go of the GIL) and the handler calls
    ``solver.stop_search()``; elsewhere it runs here, and Ctrl-C is the caller's."""
    # CP-SAT's own SIGINT catching is always off: its stop reads as the time limit, and
    # it would take Ctrl-C from an application's handler, or from a process ignoring it
    solver.parameters.catch_sigint_signal = False
    with ctrl_c_stops(solver.stop_search) as guard:
        if not guard.active:
            return solver.solve(model)
        with ThreadPoolExecutor(1, thread_name_prefix="catbox-cpsat") as worker:
            solving = worker.submit(solver.solve, model)
            wait_awake([solving])
    status = solving.result()  # (what the solve raised, if anything, comes out here)
    if guard.hit:
        raise Interrupted(None)
    return status


def wait_awake(futures: Sequence[Future[Any]]) -> None:
    """Wait for work in worker threads, waking every _POLL seconds: a SIGINT that reached
    a worker thread is handled (in the main thread) only once the main thread runs Python
    again, so a plain wait could hold Ctrl-C back until the work ends."""
    while wait(futures, timeout=_POLL).not_done:
        pass


__all__ = ["Guard", "Interrupted", "can_guard", "ctrl_c_stops", "solve_cp", "wait_awake"]
