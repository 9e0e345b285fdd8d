"""A survey's Parquet store: one directory, one survey, one file per finished chunk.

- ``_survey.json`` names the survey (its :class:`SurveySpec`); a run with other
  parameters is refused, naming them, so two surveys' rows never mix.
- ``part-FIRST-LAST-TOKEN.parquet`` holds the rows of one chunk of deals (one row per
  deal, seat and question). It is written as a hidden ``.part-*.tmp`` file in the same
  directory, flushed to disk, then renamed: a file with the ``part-`` name is always
  whole. A temporary file left by a crash is removed by the next run.
- Only the process that holds ``_lock`` (an exclusive ``flock``) writes: two runs on one
  directory at once are refused, so no deal is stored twice.

pyarrow, pandas, DuckDB and polars skip names starting with ``_`` or ``.``: they read the
directory as one table (``pandas.read_parquet("survey/")``).
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import pyarrow as pa
import pyarrow.parquet as pq

from catbox_solver.survey.spec import SurveyError, SurveySpec
from catbox_solver.version import __version__

MANIFEST: Final = "_survey.json"
LOCK: Final = "_lock"
FORMAT: Final = "catbox-survey/1"


def schema(question: str) -> pa.Schema:
    """The columns of a survey's rows; ``value`` is a bool for ``table`` and ``paradox``,
    the trick points for ``tricks`` (null when unknown: ``low``..``high`` is the range
    proven, 0..1 for a yes/no question)."""
    return pa.schema([
        ("deal", pa.int64()),
        ("seat", pa.int8()),
        ("question", pa.string()),
        ("value", pa.int16() if question == "tricks" else pa.bool_()),
        ("low", pa.int16()),
        ("high", pa.int16()),
        ("status", pa.string()),
        ("nodes", pa.int64()),
        ("seconds", pa.float64()),
        ("position", pa.string()),
        ("players", pa.int8()),
        ("ruleset", pa.string()),
        ("seed", pa.int64()),
        ("discards", pa.string()),
        ("timeout", pa.float64()),
        ("discarded", pa.string()),
        ("equal_discards", pa.bool_()),
        ("neutral", pa.string()),
        ("version", pa.string()),
    ])


def part_files(out: Path) -> list[Path]:
    """The finished chunk files of a survey directory, by name."""
    return sorted(p for p in out.glob("part-*.parquet") if p.is_file())


def read_manifest(out: Path) -> SurveySpec | None:
    """The survey a directory holds, or None if it holds none yet."""
    path = out / MANIFEST
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            raise SurveyError(f"{path}: not a {FORMAT} manifest")
        return SurveySpec(int(data["players"]), str(data["ruleset"]), str(data["question"]),
                          int(data["seed"]), str(data["discards"]),
                          None if data["timeout"] is None else float(data["timeout"]))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise SurveyError(f"{path}: not a survey manifest ({exc})") from None


def differences(old: SurveySpec, new: SurveySpec) -> list[str]:
    """The parameters two surveys differ in, as 'name: stored vs asked'."""
    a, b = old.to_json(), new.to_json()
    return [f"{k} {a[k]!r} there, {b[k]!r} asked" for k in a if a[k] != b[k]]


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)  # (the rename itself on disk)
    finally:
        os.close(folder)


def rows_table(rows: Sequence[dict[str, Any]], question: str) -> pa.Table:
    """One chunk's rows (dicts of :func:`schema`'s columns) as a table of that schema.
    A worker sends its chunk back in this form: a table is a few buffers to serialize,
    while 2,500 dicts pickled by the worker's event loop during the next chunk's search
    slowed that search by about 10 % (docs/research.md, "Speed")."""
    return pa.Table.from_pylist(list(rows), schema=schema(question))


class Store:
    """The writer of one survey directory (use as a context manager: it holds the lock)."""

    def __init__(self, out: Path, spec: SurveySpec) -> None:
        self.out = out
        self.spec = spec
        self.schema = schema(spec.question)
        self._lock: int | None = None

    def __enter__(self) -> Store:
        out = self.out
        if out.exists() and not out.is_dir():
            raise SurveyError(f"--out {out} is a file, not a directory")
        old = read_manifest(out) if out.exists() else None
        if old is None and out.exists() and part_files(out):
            raise SurveyError(f"--out {out} holds survey files but no {MANIFEST}: "
                              "not a survey this command can add to")
        if old is not None and old != self.spec:
            raise SurveyError(f"--out {out} holds another survey: "
                              + "; ".join(differences(old, self.spec)))
        out.mkdir(parents=True, exist_ok=True)
        self._lock = os.open(out / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self._lock)
            self._lock = None
            raise SurveyError(f"--out {out} is being written by another survey run") from None
        if old is None:
            body = {"format": FORMAT, **self.spec.to_json(), "version": __version__}
            _write_atomic(out / MANIFEST, (json.dumps(body, indent=1) + "\n").encode())
        for tmp in out.glob(".part-*.tmp"):  # a crash's leftovers: never read
            tmp.unlink(missing_ok=True)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    def done(self) -> set[int]:
        """The deals stored already (each finished chunk's deal indices)."""
        found: set[int] = set()
        for path in part_files(self.out):
            found.update(pq.read_table(path, columns=["deal"]).column("deal").to_pylist())
        return found

    def write(self, table: pa.Table) -> Path:
        """Store one chunk's rows (a table of this survey's schema, see
        :func:`rows_table`) as a new file, whole or not at all."""
        if self._lock is None:
            raise SurveyError("the survey store is not open")
        if not isinstance(table, pa.Table):
            raise TypeError(f"Store.write takes a pyarrow Table of the survey's columns "
                            f"(rows_table makes one from rows), not {type(table).__name__}")
        if not table.schema.equals(self.schema):
            raise SurveyError(f"a chunk of other columns than this survey's "
                              f"({self.spec.question}) is not stored in {self.out}")
        if not table.num_rows:
            raise SurveyError("an empty chunk is not stored")
        deals = table.column("deal").to_pylist()
        name = f"part-{min(deals):08d}-{max(deals):08d}-{secrets.token_hex(4)}.parquet"
        sink = pa.BufferOutputStream()
        pq.write_table(table, sink)
        path = self.out / name
        _write_atomic(path, sink.getvalue().to_pybytes())
        return path


def read_rows(out: Path) -> pa.Table:
    """Every row of a survey directory. A (deal, seat, question) stored twice, which a
    run never writes, is kept once with a warning on stderr."""
    spec = read_manifest(out)
    if spec is None:
        raise SurveyError(f"{out} holds no survey ({MANIFEST} missing)")
    files = part_files(out)
    if not files:
        return schema(spec.question).empty_table()
    tables = []
    for path in files:
        try:
            tables.append(pq.read_table(path).cast(schema(spec.question)))
        except (pa.ArrowInvalid, OSError) as exc:
            raise SurveyError(f"{path}: not a readable survey file ({exc})") from None
    table = pa.concat_tables(tables)
    keys = list(zip(table.column("deal").to_pylist(), table.column("seat").to_pylist(),
                    strict=True))
    if len(set(keys)) < len(keys):
        seen: set[tuple[int, int | None]] = set()
        keep = []
        for i, key in enumerate(keys):
            if key not in seen:
                seen.add(key)
                keep.append(i)
        print(f"warning: {out}: {len(keys) - len(keep)} rows stored twice, read once",
              file=sys.stderr)
        table = table.take(keep)
    return table


def survey_dirs(paths: Sequence[Path]) -> Iterator[Path]:
    """The survey directories under each path: the path itself if it holds a survey, else
    its subdirectories that do (one level), by name."""
    for path in paths:
        if not path.is_dir():
            raise SurveyError(f"{path}: no such directory")
        if (path / MANIFEST).exists():
            yield path
            continue
        subs = sorted(p for p in path.iterdir() if (p / MANIFEST).exists())
        if not subs:
            raise SurveyError(f"{path} holds no survey ({MANIFEST} in it or a subdirectory)")
        yield from subs


@contextmanager
def opened(out: Path, spec: SurveySpec) -> Iterator[Store]:
    """A :class:`Store` held open for writing."""
    with Store(out, spec) as store:
        yield store
