"""Puzzles: TOML files, checking their answers with the solver, and making new ones."""
