from catbox_solver.cli import main

main()
