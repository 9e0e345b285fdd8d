"""Running a survey on Dask: chunks of deals as tasks, each chunk's rows stored as it ends.

By default a ``distributed.LocalCluster`` on this machine: one worker process per core,
one thread each (measured in bench/bench_survey.py: processes scale with the cores, while
threads in one process share its interpreter for everything outside the compiled search,
which at the first lead is most of the time for ``table``). With ``scheduler``, the
workers of an existing cluster (``dask scheduler`` and ``dask worker`` anywhere); they need
catbox-solver installed, the same version.

A local cluster's workers run without two of Dask's defaults that slow the search (see
:data:`WORKER_CONFIG`); docs/research.md says how to set the same on a cluster's workers.

Only this process writes the store: a worker sends a chunk's rows back as an Arrow table
(:func:`deals.chunk_table`; as Python objects, their pickling in the worker slowed its
next chunk by about 10 %) and the next finished chunk is written as soon as it arrives,
so a lost worker costs the chunks it was running (the scheduler gives them to another
worker) and Ctrl-C or a crash costs the chunks under way; the next run with the same
command skips every deal stored.
"""

from __future__ import annotations

import logging
import os
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from catbox_solver.survey.deals import chunk_table
from catbox_solver.survey.spec import SurveyError, SurveySpec
from catbox_solver.survey.store import Store

CONNECT_SECONDS: Final = 3.0
"""How long a --scheduler has to answer before the run gives up on it."""

Progress = Callable[[int, int], None]
"""``progress(done, total)``: deals stored in this run, out of those it had to do."""

Warn = Callable[[str], None]
"""``warn(message)``: something the user should know that does not stop the run."""


CHUNKS_PER_WORKER: Final = 8
"""A run is cut into at least this many chunks a worker (when it has the deals): the time
of one deal runs from a tenth of a millisecond to the whole timeout, so a few long deals
in one chunk left the other workers idle at the end (3 players, ``table``, 20,000 deals
in chunks of 2,500: two workers 1.52x one)."""


def default_chunk(spec: SurveySpec, todo: int = 0, workers: int = 1) -> int:
    """Deals per task: about a second of search each on one core of this machine on
    average (so that the scheduler's cost per task is small beside it), and no more, so
    that a lost worker or Ctrl-C costs little; and with ``todo`` deals for ``workers``,
    small enough for :data:`CHUNKS_PER_WORKER` chunks a worker."""
    if spec.question == "table":
        # (on one free core, deals of seed 0: a mean of 0.40, 0.38, 0.43 and 0.50 ms a
        # deal with 2 to 5 players, the longest 40 ms)
        size = 2500
    elif spec.question == "paradox":
        size = {2: 20, 3: 2}.get(spec.players, 1)
    else:
        size = 1
    if todo > 0:
        size = min(size, -(-todo // (CHUNKS_PER_WORKER * max(1, workers))))
    return max(1, size)


def check_chunk(size: int) -> None:
    """A chunk size is a whole number of deals, 1 or more."""
    if size < 1:
        raise SurveyError(f"a chunk holds 1 deal or more, not {size!r}")


def chunks(indices: Sequence[int], size: int) -> list[list[int]]:
    """``indices`` cut into lists of ``size`` (the last may be shorter)."""
    check_chunk(size)
    return [list(indices[i:i + size]) for i in range(0, len(indices), size)]


@dataclass(frozen=True, slots=True)
class RunResult:
    """What a run did: deals asked for, found stored already, stored by this run."""

    deals: int
    skipped: int
    stored: int
    seconds: float
    where: str
    slow_workers: int = 0
    """Workers that ran with a Dask default of :data:`WORKER_CONFIG` (see slow_workers)."""

    def to_json(self) -> dict[str, Any]:
        return {"deals": self.deals, "skipped": self.skipped, "stored": self.stored,
                "seconds": round(self.seconds, 3), "where": self.where,
                "slow_workers": self.slow_workers}


def connect(scheduler: str, timeout: float = CONNECT_SECONDS) -> Any:
    """A client of the scheduler at ``scheduler``; one that does not answer within
    ``timeout`` seconds is a :class:`SurveyError` naming it."""
    from distributed import Client

    try:
        return Client(scheduler, timeout=timeout,  # type: ignore[no-untyped-call]
                      set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise SurveyError(f"no dask scheduler answers at {scheduler} within "
                          f"{timeout:g} s ({why})") from None


WORKER_CONFIG: Final[dict[str, Any]] = {
    "distributed.worker.profile.enabled": False,
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
}
"""Dask settings for a local cluster's workers. Its statistical profiler samples the
worker's threads every 10 ms, and the ``MALLOC_TRIM_THRESHOLD_`` it gives a worker process
turns off glibc's adaptive mmap threshold, so every search's tables of 128 KiB or more are
mapped and faulted in afresh. With both, 20 deals of 3-player ``paradox`` searched 9.7 %
slower in one worker than in a plain loop; without the profiler 3.3 %, without the
variable 2.2 %, without both 0.2 %."""


def worker_settings(dask_worker: Any) -> tuple[str | None, bool]:
    """What a worker runs with (run on it by ``client.run``): its ``MALLOC_TRIM_THRESHOLD_``
    and whether its profiler runs."""
    return (os.environ.get("MALLOC_TRIM_THRESHOLD_"),
            "profile" in dask_worker.periodic_callbacks)


def slow_workers(client: Any) -> int:
    """How many of the client's workers run with a Dask default that
    :data:`WORKER_CONFIG` turns off (a cluster started by hand has both by default)."""
    return sum(trim is not None or profiles
               for trim, profiles in client.run(worker_settings).values())


def local_client(workers: int, processes: bool = True) -> Any:
    """A client of a new LocalCluster: ``workers`` processes of one thread, or one
    process with ``workers`` threads (``processes`` False)."""
    import warnings

    import dask
    from distributed import Client, LocalCluster

    with warnings.catch_warnings(), dask.config.set(WORKER_CONFIG):
        # ("Port 8787 is already in use": the scheduler's HTTP server moves to another
        # port, which nothing here uses)
        warnings.filterwarnings("ignore", message="Port .* is already in use")
        return _local(Client, LocalCluster, workers, processes)


def _local(client: Any, local_cluster: Any, workers: int, processes: bool) -> Any:
    if processes:
        cluster = local_cluster(
            n_workers=workers, threads_per_worker=1, processes=True,
            dashboard_address=None, silence_logs=logging.CRITICAL)
    else:
        cluster = local_cluster(
            n_workers=1, threads_per_worker=workers, processes=False,
            dashboard_address=None, silence_logs=logging.CRITICAL)
    return client(cluster, set_as_default=False)


def close_client(client: Any) -> None:
    """Close a client, and its LocalCluster if it made one."""
    cluster = getattr(client, "cluster", None)
    client.close()
    if cluster is not None:
        cluster.close()


def run_survey(
    spec: SurveySpec,
    deals: int,
    out: Path,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    processes: bool = True,
    chunk: int | None = None,
    client: Any = None,
    progress: Progress | None = None,
    warn: Warn | None = None,
) -> RunResult:
    """Answer ``spec``'s question for deals 0 to ``deals`` - 1 and store them in ``out``,
    skipping the deals stored there already. ``workers``: a LocalCluster of that many (None:
    one per core); ``scheduler``: an existing cluster's address instead; ``client``: a
    Dask client to use as it is (tests). Ctrl-C (KeyboardInterrupt) stops it with every
    finished chunk stored. ``warn`` hears of workers that run with the Dask defaults that
    slow every search (:func:`slow_workers`)."""
    import time

    from distributed import as_completed

    if not isinstance(deals, int) or isinstance(deals, bool) or deals < 1:
        raise SurveyError(f"--deals is a whole number 1 or more, not {deals!r}")
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise SurveyError(f"--workers is a whole number 1 or more, not {workers!r}")
    if chunk is not None:
        check_chunk(chunk)  # before any work
    start = time.perf_counter()
    with Store(out, spec) as store:
        done = store.done()
        todo = [i for i in range(deals) if i not in done]
        skipped = deals - len(todo)
        if not todo:
            return RunResult(deals, skipped, 0, time.perf_counter() - start, "nothing to do")
        own = client is None
        if client is None:
            if scheduler is not None:
                client = connect(scheduler)
            else:
                client = local_client(workers or os.cpu_count() or 1, processes)
        count = len(client.scheduler_info()["workers"])
        slow = slow_workers(client)
        if slow and warn is not None:
            warn(f"{slow} of {count} workers run with Dask's profiler or its "
                 f"MALLOC_TRIM_THRESHOLD_, which slow every search by a few percent "
                 f"(docs/research.md, 'Running it on a cluster', turns them off)")
        where = str(client.scheduler.address) if scheduler else (
            f"{count} local worker{'' if count == 1 else 's'}"
        )
        size = default_chunk(spec, len(todo), count) if chunk is None else chunk
        parts = chunks(todo, size)
        token = secrets.token_hex(4)
        futures = [client.submit(chunk_table, spec, part, key=f"survey-{token}-{part[0]}",
                                 pure=False) for part in parts]
        stored = 0
        try:
            if progress is not None:
                progress(0, len(todo))
            for future in as_completed(  # type: ignore[no-untyped-call]
                    futures, loop=client.loop):
                table = future.result()
                store.write(table)
                stored += len(set(table.column("deal").to_pylist()))
                if progress is not None:
                    progress(stored, len(todo))
        finally:
            client.cancel(futures)
            if own:
                close_client(client)
    return RunResult(deals, skipped, stored, time.perf_counter() - start, where, slow)
