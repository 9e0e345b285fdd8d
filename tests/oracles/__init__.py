"""Test oracles: plain reference implementations and generators the tests check against."""
