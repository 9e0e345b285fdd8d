"""The kernel's disk cache kept in step with its sources.

numba checks a cached function against its own source file only. The compiled entry
points in ``core.py`` carry the code of everything they call (``game`` in ``game.py``, the
cut-offs, the table), so a change to ``game.py`` alone would leave the old machine code
in the cache, and it would run, silently, in a checkout updated by ``git pull`` or edited
by hand. So the kernel's sources are hashed together, the digest is kept beside the
cache, and when it differs every cached function of the directory is dropped before any
is loaded. (An install from a wheel rewrites every file, which numba notices by itself.)
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

STAMP = "kernel-sources.sha256"
"""The file beside the cache holding the digest of the sources it was compiled from."""


def cache_dir(source_dir: Path) -> Path:
    """Where numba caches the functions of the modules in ``source_dir``: the directory
    ``NUMBA_CACHE_DIR`` names, as numba lays it out, else ``__pycache__`` beside them."""
    from numba.core import config
    from numba.core.caching import _CacheLocator

    root = str(getattr(config, "CACHE_DIR", "") or "")
    if root:
        sub = str(_CacheLocator.get_suitable_cache_subpath(  # type: ignore[no-untyped-call]
            str(source_dir / "__init__.py")))
        return Path(root) / sub
    return source_dir / "__pycache__"


def sources_digest(sources: Iterable[Path]) -> str:
    """One digest of the files' names and contents (in name order)."""
    h = hashlib.sha256()
    for path in sorted(sources, key=lambda p: p.name):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def drop_stale(sources: Iterable[Path], cache: Path) -> bool:
    """Remove numba's cached functions (``*.nbi``, ``*.nbc``) from ``cache`` unless they
    were compiled from these ``sources`` (the digest in its STAMP file), then record the
    sources' digest. True when the stamp was missing or differed (the cache was dropped).
    A cache that cannot be written is left as it is (numba then caches elsewhere or not
    at all)."""
    digest = sources_digest(sources)
    stamp = cache / STAMP
    try:
        if stamp.read_text() == digest:
            return False
    except OSError:
        pass
    try:
        for pattern in ("*.nbi", "*.nbc"):
            for old in cache.glob(pattern):
                old.unlink(missing_ok=True)
        cache.mkdir(parents=True, exist_ok=True)
        tmp = cache / f"{STAMP}.{os.getpid()}"
        tmp.write_text(digest)
        tmp.replace(stamp)
    except OSError:
        return False
    return True


def keep_kernel_cache_current() -> None:
    """drop_stale for this package's kernel (every module of this directory)."""
    here = Path(__file__).resolve().parent
    drop_stale(here.glob("*.py"), cache_dir(here))
