"""Surveys (catbox_solver.survey): seeded deals that are the same on any worker count, the
Parquet store (every deal once, whole files only, one survey per directory), runs that
resume, survive a killed worker (a LocalCluster, and a real ``dask scheduler`` with two
``dask worker`` processes), the report's counts and Wilson intervals, and bad input."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from script_loader import load_script

from catbox_solver.cli import main
from catbox_solver.dd.solve import value_only
from catbox_solver.dd.warmup import warm_up
from catbox_solver.formats.notation import position_to_notation
from catbox_solver.survey.deals import answer, chunk_table, deal_seed, run_deals, survey_deal
from catbox_solver.survey.report import report, report_text, wilson
from catbox_solver.survey.runner import (
    CHUNKS_PER_WORKER,
    chunks,
    default_chunk,
    local_client,
    run_survey,
    worker_settings,
)
from catbox_solver.survey.spec import SurveyError, SurveySpec
from catbox_solver.survey.store import Store, part_files, read_rows, rows_table

ROOT = Path(__file__).resolve().parents[1]
TABLE3 = SurveySpec(3, "official", "table", 5)
PARADOX2 = SurveySpec(2, "official", "paradox", 5)


@pytest.fixture(scope="module", autouse=True)
def _compiled() -> None:
    """The compiled search ready (and on disk) before any worker loads it."""
    warm_up()


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """A Dask client of an in-process LocalCluster (2 threads): quick to start."""
    c = local_client(2, processes=False)
    assert list(c.run(worker_settings).values()) == [(None, False)]
    yield c
    c.close()
    c.cluster.close()


def stored(out: Path) -> list[tuple[int, int | None, Any, str]]:
    """(deal, seat, value, position) of every stored row, sorted."""
    t = read_rows(out)
    rows = zip(*(t.column(c).to_pylist() for c in ("deal", "seat", "value", "position")),
               strict=True)
    return sorted(rows, key=lambda r: (r[0], -1 if r[1] is None else r[1]))


def raw_keys(out: Path) -> list[tuple[int, int | None]]:
    """(deal, seat) of every row in every part file, duplicates kept."""
    keys: list[tuple[int, int | None]] = []
    for path in part_files(out):
        t = pq.read_table(path, columns=["deal", "seat"])
        keys += zip(t.column("deal").to_pylist(), t.column("seat").to_pylist(), strict=True)
    return keys


# ---- deals -------------------------------------------------------------------------------

@given(st.integers(0, 10**12), st.integers(0, 10**9), st.integers(2, 5))
def test_a_deal_depends_on_seed_and_index_alone(seed: int, index: int, players: int) -> None:
    a = survey_deal(SurveySpec(players, "official", "table", seed), index)
    b = survey_deal(SurveySpec(players, "must-follow", "paradox", seed, timeout=5), index)
    assert a.position.hands == b.position.hands and a.discarded == b.discarded
    assert a.position.predictions == b.position.predictions
    assert deal_seed(seed, index) == deal_seed(seed, index) != deal_seed(seed, index + 1)
    pos = a.position
    pos.validate()
    assert pos.leader == 0 and pos.tricks_left == pos.rules.tricks
    # each hand kept all its cards but its discard; distinct discards where the hand could
    assert all(len(h) == pos.rules.hand_size - 1 for h in pos.hands)
    if players >= 3:
        assert pos.predictions is not None
        assert all(p in pos.rules.prediction_choices for p in pos.predictions)
    seen: list[int] = []
    for hand, out in zip(pos.hands, a.discarded, strict=True):
        if {*hand, out} - set(seen):  # the seat could discard a value not discarded yet
            assert out not in seen
        seen.append(out)


def test_known_deal() -> None:
    d = survey_deal(TABLE3, 0)
    # the same numbers on any machine: SHA-256, then Python's Mersenne Twister
    assert deal_seed(5, 0) == 4599226586525373862
    assert position_to_notation(d.position) == (
        "3p official | R:...... B:...... Y:...... G:...... | 112445666 122333345 123445556 "
        "| RBYG RBYG RBYG | lead 0 | won 0 0 0 | bid 3 3 4 | left 8")
    assert (d.discarded, d.equal_discards, d.revealed) == ((1, 6, 2), False, ())
    two = survey_deal(SurveySpec(2, "official", "table", 5, "random"), 3)
    assert (two.revealed, two.discarded, two.position.predictions) == ((1, 5, 3), (5, 4), None)
    assert position_to_notation(two.position).startswith(
        "2p official | R:..... B:..... Y:..... G:N.N.N | 112233445 112233445 |")


def test_answers_agree_with_the_search() -> None:
    for i in range(3):
        pos = survey_deal(PARADOX2, i).position
        rows = answer(pos, "paradox", None)
        assert [r.value for r in rows] == [value_only(pos, s, "paradox") for s in (0, 1)]
        assert all(r.low == r.high == int(bool(r.value)) for r in rows)
        tricks = answer(pos, "tricks", None)
        assert [r.value for r in tricks] == [value_only(pos, s, "tricks") for s in (0, 1)]
        assert all(r.status == "exact" and r.low == r.high == r.value for r in tricks)
        (table,) = answer(pos, "table", None)
        assert table.seat is None and table.value == value_only(pos, 0, "table")


def test_out_of_time_is_a_range_never_a_guess() -> None:
    pos = survey_deal(SurveySpec(4, "official", "tricks", 1), 0).position
    rows = answer(pos, "tricks", 1e-6)
    assert [(r.seat, r.value, r.low, r.high, r.status) for r in rows] == [
        (s, None, -7, 8, "unknown") for s in range(4)]
    first = answer(pos, "paradox", 1e-6)[0]
    assert (first.value, first.low, first.high, first.status) == (None, 0, 1, "unknown")


def test_rows_hold_the_issue_columns() -> None:
    (row,) = run_deals(TABLE3, [0])
    assert set(row) == {
        "deal", "seat", "question", "value", "low", "high", "status", "nodes", "seconds",
        "position", "players", "ruleset", "seed", "discards", "timeout", "discarded",
        "equal_discards", "neutral", "version"}
    assert (row["deal"], row["seat"], row["question"], row["value"], row["status"]) == (
        0, None, "table", True, "exact")
    assert row["position"] == position_to_notation(survey_deal(TABLE3, 0).position)
    assert (row["discarded"], row["neutral"], row["version"]) == ("1 6 2", None, "0.1.0")


# ---- the store ---------------------------------------------------------------------------

def test_another_survey_is_refused_naming_what_differs(tmp_path: Path) -> None:
    with Store(tmp_path / "s", TABLE3) as store:
        store.write(chunk_table(TABLE3, [0, 1]))
    other = SurveySpec(3, "must-follow", "table", 6)
    with pytest.raises(SurveyError) as err:
        Store(tmp_path / "s", other).__enter__()
    assert str(err.value) == (
        f"--out {tmp_path / 's'} holds another survey: ruleset 'official' there, "
        "'must-follow' asked; seed 5 there, 6 asked")
    assert stored(tmp_path / "s") == stored(tmp_path / "s")  # untouched, still readable
    assert len(raw_keys(tmp_path / "s")) == 2


def test_a_chunk_is_an_arrow_table_of_the_surveys_columns(tmp_path: Path) -> None:
    """A worker sends its chunk back as a table (cheap to serialize), equal to its rows;
    a table of another question's columns, or an empty one, is never stored."""
    table = chunk_table(PARADOX2, [0, 1, 2])
    assert isinstance(table, pa.Table)
    def timeless(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in row.items() if k != "seconds"} for row in rows]

    assert timeless(table.to_pylist()) == timeless(run_deals(PARADOX2, [0, 1, 2]))
    assert table.schema.equals(Store(tmp_path, PARADOX2).schema)
    with Store(tmp_path / "t", SurveySpec(3, "official", "tricks", 5)) as store:
        with pytest.raises(SurveyError, match=r"^a chunk of other columns than this "
                           r"survey's \(tricks\) is not stored in "):
            store.write(table)  # (its value column is a bool, a trick count's an int)
    with Store(tmp_path / "e", TABLE3) as store:
        with pytest.raises(SurveyError, match="^an empty chunk is not stored$"):
            store.write(chunk_table(TABLE3, []))
        with pytest.raises(TypeError, match=r"^Store.write takes a pyarrow Table of the "
                           r"survey's columns \(rows_table makes one from rows\), not list$"):
            store.write(run_deals(TABLE3, [0]))
    assert part_files(tmp_path / "t") == part_files(tmp_path / "e") == []


def test_two_writers_at_once_are_refused(tmp_path: Path) -> None:
    with Store(tmp_path, TABLE3), pytest.raises(SurveyError, match="another survey run"):
        Store(tmp_path, TABLE3).__enter__()


def test_partial_files_never_count(tmp_path: Path) -> None:
    with Store(tmp_path, TABLE3) as store:
        store.write(chunk_table(TABLE3, [0, 1, 2]))
    # a crash while writing: a temporary file cut short, and one whole but not renamed
    whole = part_files(tmp_path)[0].read_bytes()
    (tmp_path / ".part-00000003-00000004-dead.parquet.1234.tmp").write_bytes(whole[:100])
    (tmp_path / ".part-00000000-00000002-beef.parquet.5678.tmp").write_bytes(whole)
    assert [r[0] for r in stored(tmp_path)] == [0, 1, 2]
    assert pq.read_table(tmp_path).num_rows == 3  # pyarrow reads the directory as it is
    with Store(tmp_path, TABLE3) as store:  # the next run clears them
        assert store.done() == {0, 1, 2}
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


# ---- runs --------------------------------------------------------------------------------

def test_same_rows_on_any_worker_count_and_chunk(tmp_path: Path, client: Any) -> None:
    one = run_survey(TABLE3, 12, tmp_path / "a", chunk=12, client=client)
    two = run_survey(TABLE3, 12, tmp_path / "b", chunk=5, client=client)
    assert (one.stored, two.stored, len(part_files(tmp_path / "b"))) == (12, 12, 3)
    direct = sorted((r["deal"], r["seat"], r["value"], r["position"])
                    for r in run_deals(TABLE3, list(range(12))))
    assert stored(tmp_path / "a") == stored(tmp_path / "b") == direct


def test_resume_after_an_interrupted_run(tmp_path: Path, client: Any) -> None:
    calls = []

    def stop_after_first(done: int, total: int) -> None:
        calls.append(done)
        if done:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_survey(PARADOX2, 10, tmp_path, chunk=2, client=client, progress=stop_after_first)
    first = {k[0] for k in raw_keys(tmp_path)}
    assert calls == [0, 2] and len(first) == 2
    again = run_survey(PARADOX2, 10, tmp_path, chunk=2, client=client)
    assert (again.skipped, again.stored) == (2, 8)
    more = run_survey(PARADOX2, 12, tmp_path, chunk=2, client=client)
    assert (more.skipped, more.stored) == (10, 2)
    keys = raw_keys(tmp_path)
    assert sorted(keys) == [(d, s) for d in range(12) for s in (0, 1)]  # each once
    done = run_survey(PARADOX2, 12, tmp_path, client=client)
    assert (done.stored, done.where) == (0, "nothing to do")


def test_a_killed_local_worker_loses_nothing(tmp_path: Path) -> None:
    c = local_client(2, processes=True)
    try:
        c.run(warm_up)
        # (the two Dask defaults that slow every search, see runner.WORKER_CONFIG)
        assert list(c.run(worker_settings).values()) == [(None, False)] * 2
        pids = list(c.run(os.getpid).values())
        killed: list[int] = []

        def kill_one(done: int, total: int) -> None:
            if done and not killed:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])

        res = run_survey(PARADOX2, 16, tmp_path, chunk=2, client=c, progress=kill_one)
    finally:
        c.close()
        c.cluster.close()
    assert killed and (res.stored, res.slow_workers) == (16, 0)
    assert sorted(raw_keys(tmp_path)) == [(d, s) for d in range(16) for s in (0, 1)]
    assert stored(tmp_path) == sorted(
        (r["deal"], r["seat"], r["value"], r["position"])
        for r in run_deals(PARADOX2, list(range(16))))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_killed_dask_worker_process_loses_nothing(tmp_path: Path) -> None:
    from distributed import Client

    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", str(port), "--dashboard-address", ":0"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        for _ in range(2):
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_worker", address, "--host",
                 "127.0.0.1", "--nthreads", "1", "--no-nanny", "--dashboard-address", ":0"],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        deadline = time.monotonic() + 60
        while True:
            try:
                c = Client(  # type: ignore[no-untyped-call]
                    address, timeout=2, set_as_default=False)
                break
            except OSError:
                assert time.monotonic() < deadline, "the scheduler did not start"
        try:
            c.wait_for_workers(2, timeout=60)
            c.run(warm_up)  # (numba's code loaded on both before the run)
            by_pid = {pid: w for w, pid in c.run(os.getpid).items()}
        finally:
            c.close()  # type: ignore[no-untyped-call]
        victim = procs[1].pid
        assert victim in by_pid
        killed: list[int] = []

        def kill_one(done: int, total: int) -> None:
            if done and not killed:
                os.kill(victim, signal.SIGKILL)
                killed.append(victim)

        notes: list[str] = []
        res = run_survey(PARADOX2, 16, tmp_path, chunk=2, scheduler=address,
                         progress=kill_one, warn=notes.append)
        assert killed and procs[1].wait(10) == -signal.SIGKILL
        assert res.stored == 16 and res.where == address
        # (workers started by hand profile, as Dask's defaults have it)
        assert res.slow_workers == 2 and len(notes) == 1
        assert notes[0].startswith("2 of 2 workers run with Dask's profiler")
        assert sorted(raw_keys(tmp_path)) == [(d, s) for d in range(16) for s in (0, 1)]
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait(10)


# ---- the report --------------------------------------------------------------------------

@pytest.mark.parametrize(("yes", "n", "low", "high"), [
    # Newcombe (1998), Statistics in Medicine 17, table I: the Wilson score interval
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_interval(yes: int, n: int, low: float, high: float) -> None:
    ci = wilson(yes, n)
    assert ci is not None
    assert ci[0] == pytest.approx(low, abs=5e-5) and ci[1] == pytest.approx(high, abs=5e-5)


@given(st.integers(1, 10**6), st.data())
def test_wilson_holds_the_share(n: int, data: st.DataObject) -> None:
    yes = data.draw(st.integers(0, n))
    ci = wilson(yes, n)
    assert ci is not None and 0 <= ci[0] <= yes / n <= ci[1] <= 1
    assert wilson(0, 0) is None


def test_report_counts_by_hand(tmp_path: Path) -> None:
    rows = run_deals(PARADOX2, list(range(10)))
    rows[3] = {**rows[3], "value": None, "low": 0, "high": 1, "status": "unknown"}
    with Store(tmp_path / "p2", PARADOX2) as store:
        store.write(rows_table(rows[:8], "paradox"))
        store.write(rows_table(rows[8:], "paradox"))
    with Store(tmp_path / "t3", TABLE3) as store:
        store.write(chunk_table(TABLE3, [0, 1, 2]))
    lines = report([tmp_path])
    by_seat = {s: [r for r in rows if r["seat"] == s] for s in (0, 1)}
    want = []
    for s, mine in by_seat.items():
        yes = sum(r["value"] is True for r in mine)
        unknown = sum(r["value"] is None for r in mine)
        want.append((2, "official", "paradox", s, 10, yes, unknown))
    equal = sum(r["equal_discards"] for r in rows if r["seat"] == 0)
    pairs = sum(len(set(r["neutral"].split())) < 3 for r in rows if r["seat"] == 0)
    got = [(x.players, x.ruleset, x.question, x.seat, x.deals, x.yes, x.unknown)
           for x in lines]
    assert got == [
        (2, "official", "equal-discards", None, 10, equal, 0),
        (2, "official", "neutral-pair", None, 10, pairs, 0),
        *want,
        (3, "official", "equal-discards", None, 3, 0, 0),
        (3, "official", "table", None, 3, 3, 0),
    ]
    seat0 = lines[2]
    assert (want[0][6], want[1][6]) == (0, 1)  # (row 3 is deal 1's seat 1)
    assert seat0.share == want[0][5] / 10 and lines[3].share == want[1][5] / 9
    assert seat0.interval == wilson(want[0][5], 10)
    text = report_text(lines).splitlines()
    assert text[0].split() == ["players", "ruleset", "discards", "question", "seat", "deals",
                               "yes", "share", "95", "%", "CI", "unknown"]
    assert text[-1].split() == ["3", "official", "distinct", "table", "-", "3", "3", "100.00",
                                "%", "43.85", "-", "100.00", "%", "0"]


# ---- the command line ---------------------------------------------------------------------

def _run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, list(args))
    return res.exit_code, res.stdout, res.stderr


def test_cli_run_then_report(tmp_path: Path) -> None:
    out = str(tmp_path / "s")
    code, text, err = _run("survey", "run", "-p", "3", "-n", "6", "-Q", "table", "--seed",
                           "5", "--out", out, "--threads", "--workers", "1", "--json")
    assert code == 0 and err == ""
    data = json.loads(text)
    assert (data["deals"], data["stored"], data["skipped"], data["question"]) == (
        6, 6, 0, "table")
    code, text, _ = _run("survey", "report", out, "--json", "--plot", str(tmp_path / "p.png"))
    assert code == 0
    lines = json.loads(text)
    assert [(x["question"], x["deals"], x["yes"], x["unknown"]) for x in lines] == [
        ("equal-discards", 6, 0, 0), ("table", 6, 6, 0)]
    assert set(lines[1]) >= {"players", "ruleset", "question", "deals", "yes", "share",
                             "ci_low", "ci_high", "unknown"}
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"
    code, text, _ = _run("survey", "run", "-p", "3", "-n", "6", "-Q", "table", "--seed",
                         "5", "--out", out, "--threads", "--workers", "1")
    assert (code, text) == (0, f"0 deals stored in {out} (6 of 6 there already), "
                            + text.split("already), ")[1])


def test_sigterm_stops_a_run_as_ctrl_c_does(tmp_path: Path) -> None:
    """A batch system's SIGTERM mid-run: one line on stderr (no traceback, no warning of
    the cluster's processes), exit code 143, every stored chunk whole and stored once,
    and the same command goes on from there."""
    out = tmp_path / "s"
    argv = [sys.executable, "-m", "catbox_solver", "survey", "run", "-p", "3", "-n", "1500",
            "-Q", "table", "--chunk", "10", "--workers", "1", "--quiet", "--out", str(out)]
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        waited = time.monotonic() + 120
        while not part_files(out) and time.monotonic() < waited and child.poll() is None:
            time.sleep(0.1)
        assert part_files(out), "no chunk was stored"
        child.send_signal(signal.SIGTERM)
        text, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert (child.returncode, text) == (143, ""), err
    assert err == (f"stopped by SIGTERM: the finished chunks are stored in {out}; "
                   "the same command goes on\n")
    keys = raw_keys(out)
    assert 0 < len(keys) < 1500 and len(keys) == len(set(keys))
    assert len(keys) % 10 == 0  # whole chunks only (each deal one row: table)
    more = max(k[0] for k in keys) + 11  # the deals stored, any gaps below, ten more
    code, text, _ = _run("survey", "run", "-p", "3", "-n", str(more), "-Q", "table",
                         "--chunk", "10", "--threads", "--workers", "1", "--out", str(out))
    assert code == 0 and text.startswith(f"{more - len(keys):,} deals stored"), text
    assert sorted(k[0] for k in raw_keys(out)) == list(range(more))  # each once


@pytest.mark.parametrize(("args", "message"), [
    (["-Q", "score"], "Invalid value for '--question' / '-Q': 'score' is not one of"),
    (["-r", "house"], "error: unknown ruleset 'house' (presets: official,"),
    (["--workers", "0"], "Invalid value for '--workers' / '-w'"),
    (["--scheduler", "tcp://127.0.0.1:1", "--workers", "2"],
     "error: --scheduler uses the cluster's workers"),
    (["--timeout", "nan"], "is not a number of seconds"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str,
                                          tmp_path: Path) -> None:
    base = ["survey", "run", "-p", "3", "-n", "2", "-Q", "table", "--out", str(tmp_path)]
    if "-Q" in args:
        base[6:8] = []
    code, out, err = _run(*base, *args)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and message in err


def test_a_scheduler_that_does_not_answer(tmp_path: Path) -> None:
    address = f"tcp://127.0.0.1:{free_port()}"
    start = time.monotonic()
    code, out, err = _run("survey", "run", "-p", "3", "-n", "2", "-Q", "table", "--out",
                          str(tmp_path), "--scheduler", address)
    assert time.monotonic() - start < 10
    assert (code, out) == (2, "")
    assert err.startswith(f"error: no dask scheduler answers at {address} within 3 s")
    assert len(err.splitlines()) == 1


def test_bad_directories(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    code, _, err = _run("survey", "run", "-p", "3", "-n", "2", "-Q", "table", "--out",
                        str(tmp_path / "f"))
    assert code == 2 and len(err.splitlines()) == 1 and "is a file" in err
    code, _, err = _run("survey", "report", str(tmp_path))
    assert (code, err) == (2, f"error: {tmp_path} holds no survey (_survey.json in it or a "
                           "subdirectory)\n")
    with Store(tmp_path / "s", TABLE3):
        pass
    code, _, err = _run("survey", "run", "-p", "3", "-n", "2", "-Q", "paradox", "--out",
                        str(tmp_path / "s"))
    assert (code, err) == (2, f"error: --out {tmp_path / 's'} holds another survey: "
                           "question 'table' there, 'paradox' asked; seed 5 there, 0 asked\n")


def test_chunks() -> None:
    assert chunks([1, 2, 3, 4, 5], 2) == [[1, 2], [3, 4], [5]]
    with pytest.raises(SurveyError):
        chunks([1], 0)


def test_bad_chunk_is_an_error_before_any_work(tmp_path: Path) -> None:
    out = tmp_path / "s"
    with pytest.raises(SurveyError, match="^a chunk holds 1 deal or more, not 0$"):
        run_survey(PARADOX2, 10, out, chunk=0)
    assert not out.exists()


def test_default_chunk_leaves_every_worker_several_chunks() -> None:
    table2 = SurveySpec(2, "official", "table", 0)
    # alone, about a second of search a chunk
    assert default_chunk(table2) == 2500
    assert default_chunk(TABLE3) == 2500
    assert default_chunk(SurveySpec(5, "official", "table", 0)) == 2500
    assert default_chunk(PARADOX2) == 20
    assert default_chunk(SurveySpec(4, "official", "paradox", 0)) == 1
    assert default_chunk(SurveySpec(3, "official", "tricks", 0)) == 1
    # a run of 20,000 deals on 2 workers: 1,250 a chunk, 16 chunks
    assert default_chunk(TABLE3, 20_000, 2) == 1250
    # 80,000: the second's worth, 2,500
    assert default_chunk(TABLE3, 80_000, 2) == 2500
    # 2,000 deals of 2 players on 2 workers: not one chunk of 2,000 but 16 of 125
    assert default_chunk(table2, 2000, 2) == 2000 // (CHUNKS_PER_WORKER * 2) == 125
    assert len(chunks(list(range(2000)), default_chunk(table2, 2000, 2))) == 16
    # never below one deal
    assert default_chunk(table2, 3, 64) == 1


def test_progress_line(capsys: pytest.CaptureFixture[str]) -> None:
    from catbox_solver.cli.survey_cmds import _Bar

    bar = _Bar()
    bar.start -= 10  # (ten seconds ago)
    bar(5, 10)
    bar(6, 10)
    bar.end()
    assert capsys.readouterr().err.split("\r") == [
        "", "5 of 10 deals  0.50 deals/s  10 s left",
        "6 of 10 deals  0.60 deals/s  7 s left \n"]


def test_the_time_is_shared_between_the_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat k of n must be done (k + 1) / n of the way through the deal's time (tricks:
    through the first half for the verdicts, the rest for the trick points), so that a
    slow seat cannot take every later seat's time."""
    from catbox_solver.survey import deals

    seen: list[tuple[str, int, float | None]] = []

    class Timed:
        def __init__(self, pos: object, seat: int, deadline: float | None) -> None:
            self.seat, self.deadline, self.nodes, self.partial = seat, deadline, 7, None

        def exact(self, question: str, sign: bool | None = None) -> bool | int:
            seen.append((question, self.seat, self.deadline))
            return True if question == "paradox" else 2

        def sign_range(self, question: str, sign: bool | None) -> tuple[int, int]:
            return (0, 8)

    monkeypatch.setattr(deals, "Search", Timed)
    pos = survey_deal(SurveySpec(4, "official", "paradox", 1), 0).position
    rows = answer(pos, "paradox", 8.0)
    assert [(r.seat, r.value, r.nodes) for r in rows] == [(s, True, 7) for s in range(4)]
    first = seen[0][2]
    assert first is not None
    start = first - 2.0  # (seat 0: a quarter of the 8 s)
    assert [(q, s, round(d - start, 9)) for q, s, d in seen if d is not None] == [
        ("paradox", s, 2.0 * (s + 1)) for s in range(4)]
    seen.clear()
    rows = answer(pos, "tricks", 8.0)
    assert [(r.value, r.low, r.high) for r in rows] == [(2, 2, 2)] * 4
    first = seen[0][2]
    assert first is not None
    start = first - 1.0
    verdicts = [round(d - start, 9) for q, _, d in seen if q == "paradox" and d]
    assert verdicts == [1.0, 2.0, 3.0, 4.0]
    last = [d for q, _, d in seen if q == "tricks" and d]
    assert len(last) == 4 and round(last[-1] - start, 6) == 8.0
    assert all(b > a for a, b in zip(last, last[1:], strict=False))


@pytest.mark.parametrize(("argv", "message"), [
    (["--players", "6"], "--players: player counts are 2 to 5, not '6'"),
    (["--questions", "tricks"], "--questions: tricks not one of table, paradox"),
    (["--deals", "table=0"], "--deals: QUESTION=N with N 1 or more, not 'table=0'"),
    (["--deals", "table=5"], "--deals: no count for paradox"),
    (["--workers", "x"], "--players and --workers are whole numbers separated by commas"),
    (["--repeat", "0"], "--repeat: 1 to 100 times, not 0"),
])
def test_bench_survey_bad_arguments(argv: list[str], message: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_script("bench/bench_survey.py")
    with pytest.raises(SystemExit) as exc:
        bench.parse_args(argv)
    assert exc.value.code == 2
    (line,) = capsys.readouterr().err.splitlines()[-1:]
    assert message in line
    args = bench.parse_args(["--players", "3", "--deals", "table=5,paradox=1"])
    assert (args.player_counts, args.worker_counts, args.deal_counts) == (
        [3], [1, 2], {"table": 5, "paradox": 1})


def test_bench_survey_overheads_pair_each_loop_with_its_dask_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``--repeat``: each further overhead is a loop over the deals followed by a 1-worker
    run over the same deals, divided pair by pair."""
    bench = load_script("bench/bench_survey.py")
    calls: list[tuple[str, int]] = []
    clock = iter([10.0, 12.0, 20.0, 24.0])

    def fake_loop(spec: SurveySpec, indices: list[int]) -> list[dict[str, Any]]:
        calls.append(("loop", len(indices)))
        return []

    def fake_dask(spec: SurveySpec, deals: int, workers: int, processes: bool) -> float:
        calls.append(("dask", workers))
        return {1: 2.2, 2: 5.0}[len([c for c in calls if c[0] == "dask"])]

    monkeypatch.setattr(bench, "run_deals", fake_loop)
    monkeypatch.setattr(bench, "through_dask", fake_dask)
    monkeypatch.setattr(bench.time, "perf_counter", lambda: next(clock))
    spec = SurveySpec(3, "official", "table", 0, timeout=60.0)
    over = bench.overheads(spec, 7, True, 1.0, 1.1, 3)
    assert calls == [("loop", 7), ("dask", 1), ("loop", 7), ("dask", 1)]
    assert [round(x, 9) for x in over] == [10.0, 10.0, 25.0]


def test_bench_survey_pool_answers_the_loops_deals() -> None:
    """The bench's plain process pool (its ``pool`` column) answers every deal once, as the
    loop does: the same rows but for the seconds."""
    bench = load_script("bench/bench_survey.py")
    spec = SurveySpec(3, "official", "table", 0, timeout=60.0)
    seconds, rows = bench.through_pool(spec, 12, 2)
    assert seconds > 0

    def key(row: dict[str, Any]) -> tuple[Any, ...]:
        return (row["deal"], row["seat"], row["value"], row["status"], row["position"])

    assert sorted(map(key, rows)) == sorted(map(key, run_deals(spec, list(range(12)))))
