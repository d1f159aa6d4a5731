"""`python -m drawodds` runs the command line."""

from drawodds.cli import main

main()
