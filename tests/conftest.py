"""Shared test setup: hypothesis profiles (CI runs the 'ci' profile, kept fast for 2 cores)."""

from __future__ import annotations

import os
from pathlib import Path

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
