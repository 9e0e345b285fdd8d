"""bench/cegar_walls.py, the measurement of counterexample-guided refinement on the walls
(docs/search.md): its answers must be exact for its node counts to mean anything, so every
variant is compared with the production search on small positions, every threshold."""

from __future__ import annotations

import pytest
from script_loader import load_script

from catbox_solver.dd.search import Search

cegar_walls = load_script("bench/cegar_walls.py")
bench_search = load_script("bench/bench_search.py")


@pytest.mark.parametrize("flags", [0, 3, 7])
def test_refinement_answers_as_the_search_does(flags: int) -> None:
    """Abstraction and check, under each variant, give the zero-window answer of the
    production search for every r on 4-player positions 4 tricks from the end, and both
    kinds of answer occur, after rounds of refinement (a loop that ended one way, or at
    once, would not be tested)."""
    seen = set()
    most_rounds = 0
    for pos in bench_search.bench_positions(4, 4, 3, seed=3):
        hero = pos.to_move
        for r in range(-4, 5):
            want = Search(pos, hero)._u(r)
            got, rounds, abstract, check, _ = cegar_walls.cegar(Search(pos, hero), r, 10**7,
                                                                flags)
            assert got is want, (pos, r, flags)
            most_rounds = max(most_rounds, rounds)
            seen.add(want)
    assert seen == {True, False}
    assert most_rounds >= 2  # refined more than once somewhere


def test_refinement_out_of_nodes_is_open() -> None:
    """A cap too small to decide gives None (open), never an answer."""
    pos = bench_search.bench_positions(4, 5, 1, seed=3)[0]
    costs = {}
    for r in range(-5, 6):
        search = Search(pos, pos.to_move)
        search._u(r)
        costs[r] = search.nodes
    r = max(costs, key=costs.__getitem__)
    assert costs[r] > 500
    got, _, abstract, check, _ = cegar_walls.cegar(Search(pos, pos.to_move), r, 50, 3)
    assert got is None
    assert abstract + check <= 51


@pytest.mark.parametrize(("argv", "message"), [
    (["--cap", "0"], "argument --cap: must be a number of nodes, 1 or more, not 0"),
    (["--walls", "p9"], "unknown wall(s): p9"),
])
def test_bad_arguments(argv: list[str], message: str,
                       capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cegar_walls.main(argv)
    assert exc.value.code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1].endswith(f"error: {message}")
