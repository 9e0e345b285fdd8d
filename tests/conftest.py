"""Shared test setup: hypothesis profiles (CI runs the 'ci' profile, kept fast for 2 cores)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "dev", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

SHARED = Path(__file__).resolve().parents[2] / "shared"
CONFORMANCE = SHARED / "conformance"


@pytest.fixture
def cp_stops_after(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], list[int]]:
    """``cp_stops_after(k)``: from now on the CP-SAT solves of ``exists`` after the first
    ``k`` come back UNKNOWN, as if the time limit had stopped them. Returns the one-item
    list that counts the solves (set it to 0 to start again)."""
    from ortools.sat.python import cp_model

    from catbox_solver.cpsat import exists as ex
    from catbox_solver.interrupt import solve_cp

    real = solve_cp
    calls = [0]
    limit = [0]

    def solve(solver: cp_model.CpSolver, model: cp_model.CpModel) -> object:
        calls[0] += 1
        return real(solver, model) if calls[0] <= limit[0] else cp_model.UNKNOWN

    def arm(k: int) -> list[int]:
        limit[0] = k
        calls[0] = 0
        monkeypatch.setattr(ex, "solve_cp", solve)
        return calls

    return arm

