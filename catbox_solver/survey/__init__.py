"""Surveys: one question asked of many seeded deals, in parallel on Dask, stored in Parquet.

- :mod:`.spec`: what identifies a survey (players, ruleset, question, seed, discards,
  timeout);
- :mod:`.deals`: deal ``i`` of seed ``s`` (the same on any machine) and the questions;
- :mod:`.store`: the Parquet directory (one file per finished chunk, written atomically);
- :mod:`.runner`: the Dask run (a LocalCluster, or an existing cluster's scheduler);
- :mod:`.report`: shares with 95 % Wilson intervals, and their plot.

Import from the modules (``from catbox_solver.survey.runner import run_survey``): this
package imports none of them, so that the CLI starts without numba, pyarrow or Dask.
"""
