"""``python -m catbox_solver``: the ``catbox`` command, named so in its usage and hints
(they said "python -m catbox_solver deal --help")."""

from catbox_solver.cli import main

main(prog_name="catbox")
