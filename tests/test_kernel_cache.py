"""The kernel's disk cache follows its sources (catbox_solver/dd/kernel/stale.py): numba
checks a cached function against its own file only, so a change to a function it calls
in another file must drop the cache, or the old machine code runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from numba.core import config

import catbox_solver.dd.kernel as kernel
from catbox_solver.dd.kernel.stale import STAMP, cache_dir, drop_stale, sources_digest


def _tree(tmp_path: Path) -> tuple[list[Path], Path]:
    src = tmp_path / "src"
    src.mkdir()
    sources = [src / "core.py", src / "game.py"]
    sources[0].write_text("def entry(): return game()\n")
    sources[1].write_text("def game(): return 1\n")
    cache = src / "__pycache__"
    cache.mkdir()
    return sources, cache


def _cached(cache: Path) -> set[str]:
    return {p.name for p in cache.iterdir()}


def test_a_change_to_any_source_drops_every_cached_function(tmp_path: Path) -> None:
    sources, cache = _tree(tmp_path)
    for name in ("core.entry-1.py311.nbi", "core.entry-1.py311.1.nbc", "core.cpython-311.pyc"):
        (cache / name).write_bytes(b"old")
    # no stamp yet: whatever is cached may be from other sources
    assert drop_stale(sources, cache) is True
    assert _cached(cache) == {"core.cpython-311.pyc", STAMP}
    assert (cache / STAMP).read_text() == sources_digest(sources)
    # compiled now from these sources: kept
    (cache / "core.entry-1.py311.nbi").write_bytes(b"new")
    assert drop_stale(sources, cache) is False
    assert "core.entry-1.py311.nbi" in _cached(cache)
    # the callee's file changes, the caller's does not: the caller's cache goes too
    sources[1].write_text("def game(): return 2\n")
    assert drop_stale(sources, cache) is True
    assert _cached(cache) == {"core.cpython-311.pyc", STAMP}


def test_the_digest_covers_names_and_contents(tmp_path: Path) -> None:
    sources, _ = _tree(tmp_path)
    before = sources_digest(sources)
    assert sources_digest(reversed(sources)) == before
    renamed = sources[1].with_name("order.py")
    sources[1].rename(renamed)
    assert sources_digest([sources[0], renamed]) != before


def test_a_cache_that_cannot_be_written_is_left_alone(tmp_path: Path) -> None:
    sources, _ = _tree(tmp_path)
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("x")
    assert drop_stale(sources, not_a_dir) is False
    assert not_a_dir.read_text() == "x"


def test_cache_dir_follows_numba_cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = tmp_path / "kernel"
    monkeypatch.setattr(config, "CACHE_DIR", "")
    assert cache_dir(src) == src / "__pycache__"
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "numba"))
    got = cache_dir(src)
    assert got.parent == tmp_path / "numba" and got.name.startswith("kernel_")


def test_the_kernel_records_the_sources_it_was_compiled_from() -> None:
    here = Path(kernel.__file__).resolve().parent
    stamp = cache_dir(here) / STAMP
    if not stamp.parent.exists():
        pytest.skip("the kernel's cache directory cannot be written here")
    assert stamp.read_text() == sources_digest(here.glob("*.py"))
