"""The package's dependencies point one way (docs/architecture.md): a module imports, at
module level, only from its own layer or the layers below it, and the packages form no
circle. Imports inside a function are allowed upward only as the model's display and
form hooks (``Position.__repr__``, ``_repr_svg_``, ``notation()`` and the like)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "catbox_solver"

# lowest first; a module may import from its own layer and every layer before it
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "interrupt", "questions", "version"),
    ("model",),
    ("formats",),
    ("games",),
    ("dd", "cpsat"),
    ("readings", "puzzles", "render", "annotate", "survey", "openspiel"),
    ("cli", "__main__", "__init__"),
)
RANK = {part: i for i, layer in enumerate(LAYERS) for part in layer}
# the model's hooks that reach up lazily (python-chess's Board.__repr__ / _repr_svg_)
HOOK_TARGETS = {"formats", "render"}


def _part(module: str) -> str:
    """The top-level part of catbox_solver a dotted module name belongs to."""
    rest = module.removeprefix("catbox_solver.")
    return rest.split(".")[0] if rest != "catbox_solver" else "__init__"


def _modules() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT.parent).with_suffix("")
        out.append((".".join(rel.parts), path))
    return out


def _imports(path: Path) -> tuple[list[str], list[str]]:
    """(module-level imports, imports inside functions) of project modules."""
    tree = ast.parse(path.read_text())
    top: list[str] = []
    inner: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(
            "catbox_solver"
        ):
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names if a.name.startswith("catbox_solver")]
        else:
            continue
        is_top = any(node is n for n in tree.body) or any(
            isinstance(n, ast.If) and any(node is m for m in ast.walk(n)) for n in tree.body
        )
        (top if is_top else inner).extend(names)
    return top, inner


@pytest.mark.parametrize(("module", "path"), _modules(), ids=lambda x: str(x))
def test_module_level_imports_point_down(module: str, path: Path) -> None:
    own = RANK[_part(module)]
    top, _ = _imports(path)
    up = [m for m in top if RANK[_part(m)] > own]
    assert not up, f"{module} imports from a higher layer: {up}"


def test_the_model_reaches_up_only_through_its_hooks() -> None:
    """Inside functions the model imports only the text/JSON forms and the pictures (its
    hooks), never the search, the solver or the CLI."""
    for module, path in _modules():
        if _part(module) != "model":
            continue
        _, inner = _imports(path)
        bad = [m for m in inner if RANK[_part(m)] > RANK["model"] and _part(m) not in HOOK_TARGETS]
        assert not bad, f"{module} reaches up to {bad}"


def test_no_circle_between_packages() -> None:
    """Module-level imports between the top-level parts form no circle."""
    edges: dict[str, set[str]] = {}
    for module, path in _modules():
        top, _ = _imports(path)
        a = _part(module)
        for m in top:
            b = _part(m)
            if a != b:
                edges.setdefault(a, set()).add(b)

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in edges.get(start, ()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    circles = sorted(a for a in edges if reaches(a, a, {a}))
    assert not circles, f"packages in a circle: {circles} ({edges})"


def test_every_part_has_a_layer() -> None:
    parts = {_part(m) for m, _ in _modules()}
    assert parts <= set(RANK), parts - set(RANK)
